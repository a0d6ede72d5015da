package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sucursal/sucursal/internal/envflag"
)

// Layering: default < YAML < environment < flag.
func TestResolveConfigLayers(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "edge.yaml")
	yaml := "listen: 127.0.0.1:7000\nedge_id: from-yaml\ndc: dc.yaml:4443\npki: /yaml/pki\nlog_level: warn\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDGE_AGENT_EDGE_ID", "from-env")
	t.Setenv("EDGE_AGENT_DC", "dc.env:4443")
	cmd, o := newServeCmd()
	envflag.Cobra(cmd, "EDGE_AGENT")
	// Run only the flag parsing and the environment hook, not the server.
	if err := cmd.ParseFlags([]string{"--config", file, "--dc", "dc.flag:4443"}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.PersistentPreRunE(cmd, nil); err != nil {
		t.Fatal(err)
	}
	cfg, err := resolveConfig(cmd, o.configFile, o.cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"listen (yaml)": {cfg.Listen, "127.0.0.1:7000"},
		"edge_id (env)": {cfg.EdgeID, "from-env"},
		"dc (flag)":     {cfg.DC, "dc.flag:4443"},
		"pki (yaml)":    {cfg.PKI, "/yaml/pki"},
		"log (yaml)":    {cfg.LogLevel, "warn"},
	}
	for name, gw := range want {
		if gw[0] != gw[1] {
			t.Errorf("%s: got %q, want %q", name, gw[0], gw[1])
		}
	}
}
