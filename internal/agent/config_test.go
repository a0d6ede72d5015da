package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/drafter"
)

// The example shipped in packaging/ must load and validate: it is the documentation of every key.
func TestPackagedExampleConfigLoads(t *testing.T) {
	cfg := DefaultConfig()
	if err := LoadFile(filepath.Join("..", "..", "packaging", "edge-agent.yaml"), &cfg); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("the packaged example does not validate: %v", err)
	}
	if cfg.EdgeID != "branch-0001" || cfg.Link.IdleTimeout != 20*time.Second {
		t.Fatalf("unexpected values: %+v", cfg)
	}
}

func TestLoadFileRefusesUnknownKeys(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(p, []byte("listen: 127.0.0.1:1\nlisten_adress: typo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	if err := LoadFile(p, &cfg); err == nil || !strings.Contains(err.Error(), "listen_adress") {
		t.Fatalf("want the unknown key named, got %v", err)
	}
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := LoadFile(p, &cfg); err != nil {
		t.Fatalf("an empty file must be accepted: %v", err)
	}
}

func TestValidateListsEveryProblem(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Listen = "nonsense"
	cfg.LogLevel = "loud"
	cfg.Link.KeepAlive = time.Minute
	err := cfg.Validate()
	if err == nil {
		t.Fatal("want errors")
	}
	for _, want := range []string{"listen", "edge_id", "dc is required", "pki is required", "log_level", "link.keepalive"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

// TestDraftConfig: each draft setting an operator can get wrong is named in the error.
func TestDraftConfig(t *testing.T) {
	valid := func() Config {
		cfg := DefaultConfig()
		cfg.EdgeID, cfg.DC, cfg.PKI = "b1", "dc:4443", "/etc/sucursal/pki"
		return cfg
	}
	for _, tc := range []struct {
		name  string
		draft drafter.Config
		want  string // "" = valid
	}{
		{"ollama", drafter.Config{Enabled: true, OllamaURL: "http://127.0.0.1:11434", Model: "d"}, ""},
		{"ollama, token mode, no pipeline", drafter.Config{Enabled: true, OllamaURL: "http://127.0.0.1:11434", Model: "d", Mode: "token", Pipeline: new(false)}, ""},
		{"llamacpp", drafter.Config{Enabled: true, Backend: "llamacpp", URL: "http://127.0.0.1:8081"}, ""},
		{"llamacpp token mode with GGUF", drafter.Config{Enabled: true, Backend: "llamacpp", URL: "http://127.0.0.1:8081", Mode: "token", TokenizerGGUF: "/m/d.gguf"}, ""},
		{"disabled with nonsense", drafter.Config{Mode: "bytes"}, ""},
		{"unknown mode", drafter.Config{Enabled: true, OllamaURL: "http://127.0.0.1:11434", Model: "d", Mode: "bytes"}, "draft.mode"},
		{"unknown backend", drafter.Config{Enabled: true, Backend: "vllm"}, "draft.backend"},
		{"ollama without model", drafter.Config{Enabled: true, OllamaURL: "http://127.0.0.1:11434"}, "draft.model"},
		{"ollama with a bad URL", drafter.Config{Enabled: true, OllamaURL: "127.0.0.1:11434", Model: "d"}, "draft.ollama_url"},
		{"ollama with llamacpp fields", drafter.Config{Enabled: true, OllamaURL: "http://127.0.0.1:11434", Model: "d", URL: "http://x:1"}, "draft.url"},
		{"llamacpp without URL", drafter.Config{Enabled: true, Backend: "llamacpp"}, "draft.url"},
		{"llamacpp with ollama_url", drafter.Config{Enabled: true, Backend: "llamacpp", URL: "http://x:1", OllamaURL: "http://y:2"}, "draft.ollama_url"},
		{"llamacpp token mode without GGUF", drafter.Config{Enabled: true, Backend: "llamacpp", URL: "http://x:1", Mode: "token"}, "tokenizer_gguf"},
		{"gamma out of range", drafter.Config{Enabled: true, OllamaURL: "http://127.0.0.1:11434", Model: "d", GammaMax: 40}, "gamma"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := valid()
			cfg.Draft = tc.draft
			err := cfg.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("want valid, got %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("want an error naming %q, got %v", tc.want, err)
			}
		})
	}
}
