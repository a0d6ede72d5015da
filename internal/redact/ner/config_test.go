package ner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/redact/ner"
)

// TestModeDefault: the NER layer is on (fallback-degraded) when the policy names a model server
// and says nothing about the mode; explicit modes win; without a server it stays off. The policy
// is read as an operator writes it (redact.LoadConfig) and then built as the agent builds it.
func TestModeDefault(t *testing.T) {
	tests := []struct {
		name, yaml string
		mode       string
		backend    bool   // ner.New returns a backend
		errHas     string // LoadConfig fails naming this
	}{
		{name: "no ner section", yaml: "names: true\n", mode: redact.NEROff},
		{name: "timeout only", yaml: "ner:\n  timeout: 3s\n", mode: redact.NEROff},
		{name: "server configured, mode unset", yaml: "ner:\n  backend: openai\n  url: http://127.0.0.1:8080/v1\n  model: ner\n",
			mode: redact.NERFallbackDegraded, backend: true},
		{name: "ollama configured, mode unset", yaml: "ner:\n  backend: ollama\n  url: http://127.0.0.1:11434\n  model: ner\n",
			mode: redact.NERFallbackDegraded, backend: true},
		{name: "explicit empty mode", yaml: "ner:\n  mode: ''\n  backend: openai\n  url: http://127.0.0.1:8080/v1\n  model: ner\n",
			mode: redact.NERFallbackDegraded, backend: true},
		{name: "explicit off", yaml: "ner:\n  mode: off\n  backend: openai\n  url: http://127.0.0.1:8080/v1\n  model: ner\n",
			mode: redact.NEROff},
		{name: "explicit required", yaml: "ner:\n  mode: required\n  backend: openai\n  url: http://127.0.0.1:8080/v1\n  model: ner\n  api_key: k\n",
			mode: redact.NERRequired, backend: true},
		{name: "url without model stays off", yaml: "ner:\n  url: http://127.0.0.1:8080/v1\n", mode: redact.NEROff},
		{name: "server without backend", yaml: "ner:\n  url: http://127.0.0.1:8080/v1\n  model: ner\n", errHas: "ner.backend must be ollama, kserve or openai"},
		{name: "misspelt key", yaml: "ner:\n  backend: openai\n  url: http://127.0.0.1:8080/v1\n  modle: ner\n", errHas: "line 4: field modle not found"},
		{name: "every problem at once", yaml: "threshold: 3\nner:\n  backend: spacy\n  url: 127.0.0.1:8080\n  model: ner\n  timeout: 0s\n",
			errHas: "threshold|ner.timeout|ner.backend|ner.url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "policy.yaml")
			if err := os.WriteFile(p, []byte(tt.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := redact.LoadConfig(p)
			if tt.errHas != "" {
				for _, want := range strings.Split(tt.errHas, "|") {
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("err = %v, want it to name %q", err, want)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.NER.Mode != tt.mode {
				t.Fatalf("ner.mode = %q, want %q", cfg.NER.Mode, tt.mode)
			}
			b, err := ner.New(cfg.NER, nil)
			if err != nil || (b != nil) != tt.backend {
				t.Fatalf("ner.New = %v, %v; want a backend: %v", b, err, tt.backend)
			}
			if _, err := redact.New(cfg, b, nil, nil); err != nil {
				t.Fatalf("redact.New: %v", err)
			}
		})
	}
}
