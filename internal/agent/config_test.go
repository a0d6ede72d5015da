package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
