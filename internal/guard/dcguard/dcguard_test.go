package dcguard

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/wire"
)

func TestToVerdict(t *testing.T) {
	s2, _ := guard.LookupCategory("S2")
	for _, tc := range []struct {
		name    string
		in      wire.GuardVerdict
		want    guard.Verdict
		wantErr error
	}{
		{"safe", wire.GuardVerdict{Kind: "safety"}, guard.Verdict{Kind: guard.KindSafety}, nil},
		{"unsafe", wire.GuardVerdict{Kind: "safety", Malicious: true, Score: 1, Categories: []string{"S2"}},
			guard.Verdict{Kind: guard.KindSafety, Malicious: true, Score: 1, Categories: []guard.Category{s2}}, nil},
		{"other kind", wire.GuardVerdict{Kind: "injection"}, guard.Verdict{}, guard.ErrMalformedOutput},
		{"unknown category", wire.GuardVerdict{Kind: "safety", Malicious: true, Categories: []string{"S15"}}, guard.Verdict{}, guard.ErrMalformedOutput},
		{"score above 1", wire.GuardVerdict{Kind: "safety", Score: 1.5}, guard.Verdict{}, guard.ErrMalformedOutput},
		{"negative score", wire.GuardVerdict{Kind: "safety", Score: -0.1}, guard.Verdict{}, guard.ErrMalformedOutput},
	} {
		got, err := toVerdict(guard.KindSafety, tc.in)
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.wantErr)
			continue
		}
		if err == nil && (got.Kind != tc.want.Kind || got.Malicious != tc.want.Malicious || got.Score != tc.want.Score ||
			len(got.Categories) != len(tc.want.Categories) || (len(got.Categories) > 0 && got.Categories[0] != tc.want.Categories[0])) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// FuzzGuardVerdict: whatever the gateway sends, the edge gets a verdict of its own kind with known
// categories and a score in [0,1], or a malformed-output error that does not quote the input.
func FuzzGuardVerdict(f *testing.F) {
	f.Add([]byte(`{"kind":"safety","malicious":true,"score":1,"categories":["S2","S10"]}`))
	f.Add([]byte(`{"kind":"safety"}`))
	f.Add([]byte(`{"kind":"injection","score":0.97}`))
	f.Add([]byte(`{"kind":"safety","categories":["secret-S1"]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var gv wire.GuardVerdict
		if json.Unmarshal(b, &gv) != nil {
			return
		}
		v, err := toVerdict(guard.KindSafety, gv)
		if err != nil {
			if !errors.Is(err, guard.ErrMalformedOutput) {
				t.Fatalf("unexpected error class: %v", err)
			}
			for _, c := range gv.Categories {
				if len(c) > 3 && strings.Contains(err.Error(), c) {
					t.Fatalf("the error quotes the input: %v", err)
				}
			}
			return
		}
		if v.Kind != guard.KindSafety || v.Score < 0 || v.Score > 1 {
			t.Fatalf("bad verdict %+v", v)
		}
		for _, c := range v.Categories {
			if _, ok := guard.LookupCategory(c.Code); !ok {
				t.Fatalf("unknown category %q let through", c.Code)
			}
		}
	})
}
