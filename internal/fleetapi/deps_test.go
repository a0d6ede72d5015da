package fleetapi_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The contract does no I/O: it carries no NATS client, no HTTP stack and neither side's code.
// (That the fleet side imports this package and not the edge's sync agent is checked in
// internal/deptest.)
func TestContractDoesNoIO(t *testing.T) {
	const mod = "github.com/sucursal/sucursal/"
	out, err := exec.Command("go", "list", "-deps", mod+"internal/fleetapi").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, f := range []string{"github.com/nats-io/nats.go", "github.com/nats-io/nats.go/jetstream", "net/http",
		mod + "internal/sync", mod + "internal/fleet", mod + "internal/agent"} {
		if slices.Contains(deps, f) {
			t.Errorf("internal/fleetapi depends on %s", f)
		}
	}
}
