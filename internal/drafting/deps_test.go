package drafting

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDraftingLayers: the drafting service and its verifier backends know nothing of the
// transport (no QUIC, no gateway, no edge link), the service knows no backend (they plug in
// through Backend), and none of them imports a logger: a draft or a prompt must never reach a
// log, and a package that cannot log cannot leak one there.
func TestDraftingLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \",\"}}|{{join .Deps \",\"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/sucursal/sucursal/internal/"
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		pkg, imports, deps := parts[0], strings.Split(parts[1], ","), strings.Split(parts[2], ",")
		seen++
		for _, d := range deps {
			if strings.HasPrefix(d, "github.com/quic-go/") || d == mod+"gateway" || d == mod+"link" {
				t.Errorf("%s depends on %s: drafting must not know the transport", pkg, d)
			}
			if pkg == mod+"drafting" && (strings.HasPrefix(d, mod+"drafting/") || strings.HasPrefix(d, "github.com/ollama/")) {
				t.Errorf("the drafting service depends on %s: backends plug in through Backend", d)
			}
		}
		for _, i := range imports {
			if i == "log" || i == "log/slog" {
				t.Errorf("%s imports %s: drafting never logs", pkg, i)
			}
		}
	}
	if seen < 3 {
		t.Fatalf("go list found %d packages, want the service and both backends", seen)
	}
}
