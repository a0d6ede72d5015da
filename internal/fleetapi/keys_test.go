package fleetapi_test

import (
	"maps"
	"reflect"
	"testing"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// The key layout is shared with deployed edges (and with the NATS permissions the operator
// configures): these strings are what the code wrote before the contract moved.
func TestKeysGolden(t *testing.T) {
	sel := map[string]string{"tier": "clinic", "region": "eu"}
	for _, tc := range []struct{ got, want string }{
		{fleetapi.RoleKey("drafter"), "role.drafter"},
		{fleetapi.EdgeKey("b1", "drafter"), "edge.b1.drafter"},
		{fleetapi.LabelKey("region", "eu", "drafter"), "sel.region=eu.drafter"},
		{fleetapi.SelectorKey(map[string]string{"region": "eu"}, "drafter"), "sel.region=eu.drafter"},
		{fleetapi.SelectorKey(sel, "drafter"), "sel.region=eu/tier=clinic.drafter"},
		{fleetapi.StatusKey("b1"), "edge.b1"},
		{fleetapi.InboxPrefix("b1"), "_INBOX.edge.b1"},
		{fleetapi.ObjectName("drafter", "1.4.0"), "drafter/1.4.0"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if got, want := fleetapi.DesiredFilters("b1"), []string{"role.*", "edge.b1.*", "sel.*.*"}; !reflect.DeepEqual(got, want) {
		t.Errorf("DesiredFilters = %q, want %q", got, want)
	}
	if got := (fleetapi.Buckets{}).WithDefaults(); got != (fleetapi.Buckets{Desired: "sucursal-desired", Status: "sucursal-status", Artifacts: "sucursal-artifacts", Edges: "sucursal-edges"}) {
		t.Errorf("default buckets = %+v", got)
	}
}

func TestSelectorKey(t *testing.T) {
	const role = "drafter"
	for _, tc := range []struct {
		sel  map[string]string
		want string
	}{
		{map[string]string{"region": "eu"}, fleetapi.LabelKey("region", "eu", role)},
		{map[string]string{"tier": "clinic", "region": "eu"}, "sel.region=eu/tier=clinic." + role},
		{map[string]string{"b": "2", "c": "3", "a": "1"}, "sel.a=1/b=2/c=3." + role},
	} {
		got := fleetapi.SelectorKey(tc.sel, role)
		if got != tc.want {
			t.Errorf("SelectorKey(%v) = %q, want %q", tc.sel, got, tc.want)
		}
		tok := got[len("sel.") : len(got)-len("."+role)]
		back, ok := fleetapi.ParseSelector(tok)
		if !ok || !maps.Equal(back, tc.sel) {
			t.Errorf("ParseSelector(%q) = %v, %v; want %v", tok, back, ok, tc.sel)
		}
	}
}

func TestParseDesiredKey(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want fleetapi.DesiredKey
		ok   bool
	}{
		{"role.drafter", fleetapi.DesiredKey{Scope: fleetapi.ScopeRole, Role: "drafter"}, true},
		{"edge.b1.drafter", fleetapi.DesiredKey{Scope: fleetapi.ScopeEdge, Role: "drafter", EdgeID: "b1"}, true},
		{"sel.region=eu/tier=clinic.drafter", fleetapi.DesiredKey{Scope: fleetapi.ScopeSelector, Role: "drafter", Selector: map[string]string{"region": "eu", "tier": "clinic"}}, true},
		{"sel.region.drafter", fleetapi.DesiredKey{}, false},
		{"sel.a=1/a=2.drafter", fleetapi.DesiredKey{}, false},
		{"role.a.b", fleetapi.DesiredKey{}, false},
		{"edge.b1", fleetapi.DesiredKey{}, false},
		{"edge..drafter", fleetapi.DesiredKey{Scope: fleetapi.ScopeEdge, Role: "drafter"}, true}, // no edge has the empty id
		{"other.x", fleetapi.DesiredKey{}, false},
	} {
		got, ok := fleetapi.ParseDesiredKey(tc.key)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseDesiredKey(%q) = %+v, %v; want %+v, %v", tc.key, got, ok, tc.want, tc.ok)
		}
	}
}

// Whatever ParseSelector accepts, SelectorKey writes back to the same token (sorted), so a
// selector has exactly one key and edges never match a key the controller would not write.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"region=eu", "region=eu/tier=clinic", "a=1/a=2", "=x", "a=", "a=b=c", "a=1//b=2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		sel, ok := fleetapi.ParseSelector(tok)
		if !ok {
			return
		}
		if len(sel) == 0 {
			t.Fatalf("accepted an empty selector %q", tok)
		}
		key := fleetapi.SelectorKey(sel, "r")
		again, ok := fleetapi.ParseSelector(key[len("sel.") : len(key)-len(".r")])
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

// A key ParseDesiredKey accepts is exactly the key the writer functions produce for what it read.
func FuzzParseDesiredKey(f *testing.F) {
	for _, s := range []string{"role.drafter", "edge.b1.drafter", "sel.region=eu/tier=clinic.drafter", "sel..x", "edge..", "role."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		k, ok := fleetapi.ParseDesiredKey(key)
		if !ok {
			return
		}
		var back string
		switch k.Scope {
		case fleetapi.ScopeSelector:
			// Selector keys are canonical only up to label order.
			again, ok := fleetapi.ParseDesiredKey(fleetapi.SelectorKey(k.Selector, k.Role))
			if !ok || !maps.Equal(again.Selector, k.Selector) || again.Role != k.Role {
				t.Fatalf("%q -> %+v does not round-trip", key, k)
			}
			return
		case fleetapi.ScopeEdge:
			back = fleetapi.EdgeKey(k.EdgeID, k.Role)
		case fleetapi.ScopeRole:
			back = fleetapi.RoleKey(k.Role)
		default:
			t.Fatalf("%q accepted without a scope: %+v", key, k)
		}
		if back != key {
			t.Fatalf("%q -> %+v -> %q", key, k, back)
		}
	})
}
