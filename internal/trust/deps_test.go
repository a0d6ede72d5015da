package trust

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTrustStaysSmall: the gateway links this package, so it must not pull in the NATS server
// (only the client), the fleet controller, the edge's sync agent or the gateway itself.
func TestTrustStaysSmall(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/sucursal/sucursal/internal/"
	deps := strings.Fields(string(out))
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/nats-io/nats-server") || d == mod+"fleet" || d == mod+"sync" || d == mod+"gateway" || d == mod+"link" {
			t.Errorf("internal/trust depends on %s", d)
		}
	}
	if len(deps) < 10 {
		t.Fatalf("go list printed %d packages", len(deps))
	}
}
