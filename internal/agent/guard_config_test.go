package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/guardsetup"
)

func loadYAML(t *testing.T, doc string) Config {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	if err := LoadFile(p, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// An inline policy is read like a policy file: over the defaults, with every key it names.
func TestGuardInlinePolicyOverDefaults(t *testing.T) {
	cfg := loadYAML(t, `
guard:
  enabled: true
  policy:
    fail_mode: open
    timeout: 750ms
    safety:
      categories: {S6: allow}
  classifiers:
    - {name: llamaguard, kind: safety, stage: both, backend: ollama, url: "http://127.0.0.1:11434", model: llama-guard3:1b}
`)
	p, err := cfg.Guard.ResolvePolicy()
	if err != nil {
		t.Fatal(err)
	}
	def := guard.DefaultPolicy()
	if p.FailMode != guard.FailOpen || p.Timeout != 750*time.Millisecond || p.Safety.Categories["S6"] != guard.ActionAllow {
		t.Fatalf("the keys given were not applied: %+v", p)
	}
	if p.Injection != def.Injection || p.Safety.Categories["S7"] != def.Safety.Categories["S7"] {
		t.Fatalf("the keys not given lost their defaults: %+v", p)
	}
}

func TestGuardConfigValidate(t *testing.T) {
	ok := guardsetup.ClassifierConfig{Name: "lg", Kind: "safety", Stage: "input", Backend: "ollama", URL: "http://127.0.0.1:11434", Model: "m"}
	for _, tc := range []struct {
		name string
		g    guardsetup.Config
		want []string // every problem named; nil = valid
	}{
		{"disabled is never checked", guardsetup.Config{Mode: "nonsense"}, nil},
		{"default policy, one classifier", guardsetup.Config{Enabled: true, Classifiers: []guardsetup.ClassifierConfig{ok}}, nil},
		{"policy file", guardsetup.Config{Enabled: true, PolicyFile: filepath.Join("..", "..", "testdata", "guard", "policy.yaml"), Classifiers: []guardsetup.ClassifierConfig{ok}}, nil},
		{"dc fallback only", guardsetup.Config{Enabled: true, DCFallback: true}, nil},
		{"nothing to ask", guardsetup.Config{Enabled: true}, []string{"no classifiers"}},
		{"everything wrong at once", guardsetup.Config{Enabled: true, PolicyFile: "/nonexistent/p.yaml", Policy: &guardsetup.InlinePolicy{Policy: guard.DefaultPolicy()},
			Mode: "fast", DCFallbackKind: "pii", Classifiers: []guardsetup.ClassifierConfig{
				{Kind: "vibes", Stage: "sideways", URL: "ftp://x"},
				{Name: "s", Kind: "injection-score", Stage: "input", Backend: "ollama", URL: "http://h:1", Model: "m"},
			}},
			[]string{"policy or policy_file", "classifiers[0].name", "classifiers[0].kind", "classifiers[0].stage", "classifiers[0].url",
				"classifiers[0].model", "classifiers[1].backend", "classifiers[1].input", "dc_fallback_kind", "mode"}},
		{"sequential cannot fail over", guardsetup.Config{Enabled: true, DCFallback: true, Mode: "sequential"}, []string{"sequential"}},
		{"duplicate names", guardsetup.Config{Enabled: true, Classifiers: []guardsetup.ClassifierConfig{ok, ok}}, []string{"used twice"}},
	} {
		err := tc.g.Validate()
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: want errors", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q missing from:\n%v", tc.name, w, err)
			}
		}
	}
}

// A typo inside the inline policy is reported with the rest of the configuration's problems.
func TestGuardInlinePolicyTypo(t *testing.T) {
	cfg := loadYAML(t, "guard:\n  enabled: true\n  dc_fallback: true\n  policy:\n    fail_mod: open\n")
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), "fail_mod") || !strings.Contains(err.Error(), "edge_id") {
		t.Fatalf("want the typo and the other problems, got %v", err)
	}
}
