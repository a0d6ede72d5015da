package gateway

import (
	"os/exec"
	"strings"
	"testing"
)

// TestGatewayHoldsNoDrafting: the gateway only carries the drafting operations (through the
// Drafting interface); the service, its verifier backends and the tokenizers they need are linked
// by cmd/dc-gateway, never by the gateway (issue #12).
func TestGatewayHoldsNoDrafting(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/sucursal/sucursal/internal/"
	deps := strings.Fields(string(out))
	for _, d := range deps {
		if d == mod+"drafting" || strings.HasPrefix(d, mod+"drafting/") || d == mod+"vocab" || strings.HasPrefix(d, "github.com/ollama/") {
			t.Errorf("the gateway depends on %s", d)
		}
	}
	if len(deps) < 10 {
		t.Fatalf("go list printed %d packages", len(deps))
	}
}
