package sync_test

import (
	"encoding/json"
	"testing"

	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/sync"
)

func FuzzParseDesired(f *testing.F) {
	good, _ := json.Marshal(sync.Desired{Manifest: manifest.Envelope{Kind: "manifest", Payload: []byte("{}"), KeyID: "k", Sig: make([]byte, 64)}})
	f.Add(good)
	f.Add([]byte(`{"manifest":{"sig":""}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := sync.ParseDesired(data)
		if err == nil && len(d.Manifest.Sig) == 0 {
			t.Fatal("accepted a desired entry without a signature")
		}
	})
}

// Whatever ParseSelector accepts, SelectorKey writes back to the same token (sorted), so a
// selector has exactly one key and edges never match a key the controller would not write.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"region=eu", "region=eu/tier=clinic", "a=1/a=2", "=x", "a=", "a=b=c", "a=1//b=2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		sel, ok := sync.ParseSelector(tok)
		if !ok {
			return
		}
		if len(sel) == 0 {
			t.Fatalf("accepted an empty selector %q", tok)
		}
		key := sync.SelectorKey(sel, "r")
		again, ok := sync.ParseSelector(key[len("sel.") : len(key)-len(".r")])
		if !ok || len(again) != len(sel) {
			t.Fatalf("%q -> %v -> %q does not parse back", tok, sel, key)
		}
		for k, v := range sel {
			if again[k] != v {
				t.Fatalf("%q -> %v -> %q -> %v", tok, sel, key, again)
			}
		}
	})
}
