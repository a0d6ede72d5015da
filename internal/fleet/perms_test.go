package fleet_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

// The allow lists are exercised against a real server in cmd/fleetctl
// (TestEdgePermissionsAllowSyncAndNothingElse); here: what goes into them for odd inputs.
func TestEdgePermissionsShape(t *testing.T) {
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"branch-01", true},
		{"b_2", true},
		{"", false},
		{"a.b", false}, // would widen the status subject to another token
		{"a*", false},
		{"a>", false},
		{"a b", false},
	} {
		p, err := fleet.EdgePermissions(tc.id, fleetapi.Buckets{})
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v, want ok=%v", tc.id, err, tc.ok)
			continue
		}
		if !tc.ok {
			continue
		}
		var writes []string
		for _, s := range p.Publish.Allow {
			if strings.HasPrefix(s, "$KV.") || strings.HasPrefix(s, "$O.") {
				writes = append(writes, s)
			}
		}
		if want := []string{"$KV.sucursal-status.edge." + tc.id}; !slices.Equal(writes, want) {
			t.Errorf("%q: bucket writes %v, want %v", tc.id, writes, want)
		}
		if want := []string{"_INBOX.edge." + tc.id + ".>"}; !slices.Equal(p.Subscribe.Allow, want) {
			t.Errorf("%q: subscribe %v, want %v", tc.id, p.Subscribe.Allow, want)
		}
	}
}
