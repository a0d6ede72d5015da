package sync_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/sync"
)

const role = "drafter"

func TestTwentyAgentsConverge(t *testing.T) {
	env := fleettest.Start(t)
	d := env.Publish(t, role, "1.0.0", fleettest.Artifact(10, 700000))
	var agents []*fleettest.Agent
	for i := range 20 {
		agents = append(agents, env.RunAgent(t, fmt.Sprintf("edge-%02d", i), fleettest.AgentOptions{}))
	}
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: d})
	fleettest.Eventually(t, "20 edges report 1.0.0", func() bool {
		edges, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
		return err == nil && len(edges) == 20 && fleet.Skew(edges)[role]["1.0.0"] == 20
	})
	for _, a := range agents {
		m, ok := a.Model(role)
		if !ok || m.Version != "1.0.0" || m.Ref != "sucursal-drafter:1.0.0" {
			t.Fatalf("%s runs %+v", a.Status().EdgeID, m)
		}
		if n := a.Recorder.Count(); n != 1 {
			t.Fatalf("%s installed %d times, want once", a.Status().EdgeID, n)
		}
	}
}

// syncBuffer lets the agent's logger and the test read the same buffer safely.
type syncBuffer struct {
	mu  gosync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestRejectionsKeepRunningModel(t *testing.T) {
	env := fleettest.Start(t)
	v1 := env.Publish(t, role, "1.0.0", fleettest.Artifact(20, 200000))
	v2 := env.Publish(t, role, "2.0.0", fleettest.Artifact(21, 200000))
	stranger, _ := manifest.GenerateKey()
	now := time.Now()

	// Build each bad manifest independently of the agent's code paths.
	goodData := fleettest.Artifact(22, 150000)
	env.Publish(t, role, "3.0.0", goodData) // uploads the object; manifest below is re-signed
	sum := sha256.Sum256(goodData)
	base := manifest.Manifest{Role: role, Digest: manifest.DigestFromHex(sum[:]), Size: int64(len(goodData)),
		Runtime: manifest.RuntimeOllama, Object: fleetapi.ObjectName(role, "3.0.0"), Created: now, Expires: now.Add(time.Hour)}
	sign := func(m manifest.Manifest, k []byte) manifest.Envelope {
		env, err := manifest.Sign(m, k)
		if err != nil {
			t.Fatal(err)
		}
		return env
	}
	unknown := base
	unknown.Version = "3.0.0"
	expired := base
	expired.Version, expired.Created, expired.Expires = "3.0.1", now.Add(-2*time.Hour), now.Add(-time.Hour)
	tampered := base
	tampered.Version = "3.0.2"
	other := sha256.Sum256([]byte("not the artifact"))
	tampered.Digest = manifest.DigestFromHex(other[:]) // the object's bytes will not match this

	tests := []struct {
		name   string
		d      fleetapi.Desired
		reason string
	}{
		{"unknown signer", fleetapi.Desired{Manifest: sign(unknown, stranger)}, sync.ReasonUnknownSigner},
		{"expired", fleetapi.Desired{Manifest: sign(expired, env.Key)}, sync.ReasonExpired},
		{"tampered artifact", fleetapi.Desired{Manifest: sign(tampered, env.Key)}, sync.ReasonDigestMismatch},
		{"replayed older manifest", fleetapi.Desired{Manifest: v1}, sync.ReasonOlderVersion},
	}

	logs := &syncBuffer{}
	reg := prometheus.NewRegistry()
	a := runAgentWith(t, env, "edge-r", reg, slog.New(slog.NewJSONHandler(logs, nil)))
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: v1})
	fleettest.Eventually(t, "1.0.0 installed", func() bool { m, ok := a.Model(role); return ok && m.Version == "1.0.0" })
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: v2})
	fleettest.Eventually(t, "2.0.0 installed", func() bool { m, ok := a.Model(role); return ok && m.Version == "2.0.0" })

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env.SetDesired(t, fleetapi.EdgeKey("edge-r", role), tt.d)
			fleettest.Eventually(t, "status reason "+tt.reason, func() bool {
				rs := a.Status().Roles[role]
				return rs.State == fleetapi.StateRejected && rs.Reason == tt.reason
			})
			if m, _ := a.Model(role); m.Version != "2.0.0" {
				t.Fatalf("running model changed to %s", m.Version)
			}
			if !strings.Contains(logs.String(), `"reason":"`+tt.reason+`"`) {
				t.Fatalf("reason %s not in logs", tt.reason)
			}
			fleettest.Eventually(t, "reason in the status KV", func() bool {
				edges, _ := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
				return len(edges) == 1 && edges[0].Roles[role].Reason == tt.reason && edges[0].Roles[role].Version == "2.0.0"
			})
			if got := metricInstalls(t, reg, tt.reason); got != 1 {
				t.Fatalf("installs_total{result=%q} = %v, want 1", tt.reason, got)
			}
		})
	}
	if got := metricInstalls(t, reg, "ok"); got != 2 {
		t.Fatalf("installs_total{result=ok} = %v, want 2", got)
	}
}

func TestSignedRollbackIsInstantAndAllowed(t *testing.T) {
	env := fleettest.Start(t)
	v1 := env.Publish(t, role, "1.0.0", fleettest.Artifact(30, 200000))
	v2 := env.Publish(t, role, "2.0.0", fleettest.Artifact(31, 200000))
	a := env.RunAgent(t, "edge-b", fleettest.AgentOptions{})
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: v1})
	fleettest.Eventually(t, "1.0.0", func() bool { m, _ := a.Model(role); return m.Version == "1.0.0" })
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: v2})
	fleettest.Eventually(t, "2.0.0", func() bool { m, _ := a.Model(role); return m.Version == "2.0.0" })
	if p := a.Status().Roles[role].Previous; p != "1.0.0" {
		t.Fatalf("previous = %q, want 1.0.0 kept for rollback", p)
	}
	rb, err := manifest.SignRollback(manifest.Rollback{Role: role, FromVersion: "2.0.0", ToVersion: "1.0.0",
		Created: time.Now(), Expires: time.Now().Add(time.Hour)}, env.Key)
	if err != nil {
		t.Fatal(err)
	}
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: v1, Rollback: &rb})
	fleettest.Eventually(t, "back on 1.0.0", func() bool { m, _ := a.Model(role); return m.Version == "1.0.0" })
	chunks, _ := a.FetchCounters()
	if want := uint64(4); chunks != want { // 2 artifacts of 2 chunks each; the rollback fetched nothing
		t.Fatalf("chunks fetched = %d, want %d (rollback must reuse the kept artifact)", chunks, want)
	}
	if n := a.Recorder.Count(); n != 2 {
		t.Fatalf("runtime installs = %d, want 2 (rollback switches to the kept model)", n)
	}
}

func runAgentWith(t *testing.T, env *fleettest.Env, id string, reg prometheus.Registerer, log *slog.Logger) *sync.Agent {
	t.Helper()
	nc, err := env.Hub.Connect(id)
	if err != nil {
		t.Fatal(err)
	}
	a, err := sync.NewAgent(sync.AgentConfig{EdgeID: id, DataDir: t.TempDir(), Heartbeat: 300 * time.Millisecond, Buckets: env.Cfg.Buckets},
		sync.AgentDeps{Conn: nc, Trust: env.Trust, Registerer: reg, Logger: log,
			Installers: map[string]sync.Installer{manifest.RuntimeOllama: &fleettest.Recorder{}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		nc.Close()
	})
	return a
}

func metricInstalls(t *testing.T, reg *prometheus.Registry, result string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "sucursal_sync_installs_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == result {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// The agent keeps watching desired state across a restart of the NATS server.
func TestWatchResumesAfterServerRestart(t *testing.T) {
	env := fleettest.Start(t)
	v1 := env.Publish(t, role, "1.0.0", fleettest.Artifact(70, 100000))
	v2 := env.Publish(t, role, "2.0.0", fleettest.Artifact(71, 100000))
	a := env.RunAgent(t, "edge-w", fleettest.AgentOptions{})
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: v1})
	fleettest.Eventually(t, "1.0.0", func() bool { m, _ := a.Model(role); return m.Version == "1.0.0" })

	restarted := time.Now()
	env.RestartHub(t)
	fleettest.Eventually(t, "desired state writable again", func() bool {
		kv, err := env.JS.KeyValue(context.Background(), env.Cfg.Buckets.Desired)
		if err != nil {
			return false
		}
		data, _ := json.Marshal(fleetapi.Desired{Manifest: v2})
		_, err = kv.Put(context.Background(), fleetapi.RoleKey(role), data)
		return err == nil
	})
	written := time.Since(restarted)
	fleettest.Eventually(t, "2.0.0 after the restart", func() bool { m, _ := a.Model(role); return m.Version == "2.0.0" })
	t.Logf("desired state written %v after the restart, installed %v after", written, time.Since(restarted))
}
