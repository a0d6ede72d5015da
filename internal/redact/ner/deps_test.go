package ner_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNERNeverReachesTheDC: the NER backends talk to a model server on the branch and nothing
// else. Package ner links no code that can reach the datacenter (the QUIC link, the DC client,
// the wire protocol), so personal text handed to a NER model cannot leave through it.
func TestNERNeverReachesTheDC(t *testing.T) {
	const mod = "github.com/sucursal/sucursal/"
	out, err := exec.Command("go", "list", "-deps", mod+"internal/redact/ner").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, f := range []string{mod + "internal/link", mod + "internal/dc", mod + "internal/wire", mod + "internal/pipeline",
		mod + "internal/guard/dcguard", "github.com/quic-go/quic-go"} {
		if slices.Contains(deps, f) {
			t.Errorf("internal/redact/ner depends on %s", f)
		}
	}
}
