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
