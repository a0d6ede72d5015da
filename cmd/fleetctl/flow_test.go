package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
)

// TestOperatorFlow drives the operator's commands in-process against a real embedded NATS
// JetStream: publish a signed artifact, run a controller, start a rollout, and watch 20 edges
// converge in `fleetctl status` (JSON and text).
func TestOperatorFlow(t *testing.T) {
	env := fleettest.Start(t)
	url := env.Hub.URL()
	dir := t.TempDir()
	keyPEM, err := manifest.MarshalPrivateKey(env.Key)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "signing.key")
	artifact := filepath.Join(dir, "drafter.gguf")
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(artifact, fleettest.Artifact(7, 300<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "publish", "--nats", url, "--key", keyFile, "--role", "drafter", "--version", "1.0.0",
		"--file", artifact, "--quiet"); err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	for i := range 20 {
		env.RunAgent(t, fmt.Sprintf("branch-%02d", i), fleettest.AgentOptions{})
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		root := newRootCommand()
		root.SetArgs([]string{"controller", "--nats", url, "--id", "ctl-test"})
		root.SetOut(&strings.Builder{})
		root.SetErr(&strings.Builder{})
		done <- root.ExecuteContext(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })

	if out, err := run(t, "rollout", "start", "--nats", url, "--key", keyFile, "--role", "drafter", "--version", "1.0.0",
		"--waves", "20%,100%", "--soak", "0s"); err != nil {
		t.Fatalf("rollout start: %v\n%s", err, out)
	}
	fleettest.Eventually(t, "20 edges run drafter 1.0.0 in fleetctl status", func() bool {
		out, err := run(t, "status", "--nats", url, "-o", "json")
		if err != nil {
			return false
		}
		var st struct {
			Edges []fleetapi.EdgeStatus `json:"edges"`
		}
		if json.Unmarshal([]byte(out), &st) != nil || len(st.Edges) != 20 {
			return false
		}
		for _, e := range st.Edges {
			if e.Roles["drafter"].Version != "1.0.0" {
				return false
			}
		}
		return true
	})
	out, err := run(t, "status", "--nats", url)
	if err != nil || !strings.Contains(out, "role drafter: 1.0.0=20") || strings.Contains(out, "SKEW") {
		t.Fatalf("text status: %v\n%s", err, out)
	}
	out, err = run(t, "rollout", "status", "--nats", url, "--role", "drafter")
	if err != nil {
		t.Fatalf("rollout status: %v\n%s", err, out)
	}
	t.Logf("rollout status:\n%s", out)
}
