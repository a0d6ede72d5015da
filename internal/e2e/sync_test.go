package e2e

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// TestFleetModelBecomesTheLocalFallback: a model published to the fleet (embedded NATS JetStream,
// signed manifest) is synced by the edge-agent into the NUC's real Ollama, reported in the
// status bucket, and — with the DC unreachable — answers as the local degraded fallback, without
// a restart of the agent.
func TestFleetModelBecomesTheLocalFallback(t *testing.T) {
	o := ollamatest.Start(t)
	env := fleettest.Start(t)
	dir := t.TempDir()
	pub, err := manifest.MarshalPublicKey(env.Key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "fleet-signing.pub")
	if err := os.WriteFile(keyFile, pub, 0o644); err != nil {
		t.Fatal(err)
	}
	url, _ := startAgent(t, newPKI(t), "127.0.0.1:1", func(c *agent.Config) {
		c.Sync.NATSURL = env.Hub.URL()
		c.Sync.TrustedKeys = []string{keyFile}
		c.Sync.DataDir = filepath.Join(dir, "sync")
		c.Sync.OllamaURL = o.URL
		c.Sync.Buckets = env.Cfg.Buckets
		c.Sync.Heartbeat = 500 * time.Millisecond // the test hub's status entries live 2 s
		c.Failover.Local = failover.LocalConfig{Enabled: true, URL: o.URL + "/v1", Role: "fallback"}
	})

	body := []byte(`{"model":"big-dc-model","messages":[{"role":"user","content":"a"}],"max_tokens":100}`)
	answer := func() (int, string) {
		resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(raw)
	}
	if status, raw := answer(); status != http.StatusServiceUnavailable {
		t.Fatalf("before any model is installed: %d %s", status, raw)
	}

	var gguf bytes.Buffer
	spec := testmodel.Alphabet()
	if err := testmodel.Write(&gguf, spec); err != nil {
		t.Fatal(err)
	}
	env.SetDesired(t, fleetapi.RoleKey("fallback"), fleetapi.Desired{Manifest: env.Publish(t, "fallback", "1.0.0", gguf.Bytes())})
	want := spec.Greedy("a", 100)
	fleettest.Eventually(t, "the synced model answers as the local fallback", func() bool {
		status, raw := answer()
		return status == http.StatusOK && bytes.Contains([]byte(raw), []byte(want))
	})
	// The answers came from the local model, not the primary DC: the health the edge reports for
	// the role (what rollout gates read) counts them as failovers.
	fleettest.Eventually(t, "fleet status shows the edge running fallback 1.0.0 with its health", func() bool {
		snap, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
		if err != nil || len(snap) != 1 || snap[0].EdgeID != edgeID {
			return false
		}
		rs := snap[0].Roles["fallback"]
		return rs.Version == "1.0.0" && rs.Health.Failovers > 0 && rs.Health.TTFTP95Ms > 0
	})
}
