package fleetapi_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The layering this package exists for, checked on the real import graph: the fleet side talks to
// edges only through this contract (never by importing the edge's sync agent), and the contract
// itself carries no NATS client or HTTP stack.
func TestDeps(t *testing.T) {
	const mod = "github.com/sucursal/sucursal/"
	for _, tc := range []struct {
		pkgs      []string
		forbidden []string
	}{
		{[]string{mod + "internal/fleet", mod + "cmd/fleetctl"}, []string{mod + "internal/sync"}},
		{[]string{mod + "internal/fleetapi"}, []string{mod + "internal/sync", "github.com/nats-io/nats.go", "net/http"}},
	} {
		out, err := exec.Command("go", append([]string{"list", "-deps"}, tc.pkgs...)...).Output()
		if err != nil {
			t.Fatalf("go list -deps %v: %v", tc.pkgs, err)
		}
		deps := strings.Fields(string(out))
		for _, f := range tc.forbidden {
			if slices.Contains(deps, f) {
				t.Errorf("%v depend on %s", tc.pkgs, f)
			}
		}
	}
}
