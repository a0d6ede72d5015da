package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/pki"
)

// `edge-agent config check`: one OK line and no error for a clean file; the problems and
// errReported (exit 1, nothing more on stderr) otherwise.
func TestConfigCheckCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: []string{"branch-a"}}); err != nil {
		t.Fatal(err)
	}
	clean := "edge_id: branch-a\ndc: dc.example:4443\npki: " + dir + "\n"
	for _, tc := range []struct {
		name, yaml string
		wantErr    bool
		want       string
	}{
		{"clean", clean, false, ": OK\n"},
		{"problems", clean + "lisen: x\nlog_level: loud\n", true, "2 problem(s):\n  line 4, column 1: unknown key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "edge-agent.yaml")
			if err := os.WriteFile(p, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := newRootCmd()
			var out bytes.Buffer
			cmd.SetOut(&out)
			cmd.SetArgs([]string{"config", "check", p})
			err := cmd.Execute()
			if tc.wantErr != errors.Is(err, errReported) || !tc.wantErr && err != nil {
				t.Fatalf("err = %v, want reported: %v", err, tc.wantErr)
			}
			if !strings.Contains(out.String(), tc.want) {
				t.Fatalf("output %q lacks %q", out.String(), tc.want)
			}
			if !tc.wantErr && strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("a clean file is one line, got %q", out.String())
			}
		})
	}
}
