package fleet_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/sync"
)

const role = "drafter"

// runController runs a controller on its own connection. crash closes that connection before
// stopping it, so it cannot hand its lease over: the standby has to wait for expiry, as after a
// real crash.
func runController(t *testing.T, env *fleettest.Env, id string) (crash func()) {
	t.Helper()
	nc, err := env.Hub.Connect(id)
	if err != nil {
		t.Fatal(err)
	}
	js := clientOn(t, nc)
	c, err := fleet.NewController(js, fleet.ControllerConfig{Fleet: env.Cfg, ID: id, LeaseTTL: time.Second, Tick: 100 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		nc.Close()
		cancel()
		<-done
	}
	t.Cleanup(stop)
	return stop
}

// health reports per-version traffic: versions in bad have a 50% error rate.
type health struct {
	agent atomic.Pointer[sync.Agent] // set once the agent runs; it may report before that
	bad   map[string]bool
}

func (h *health) Health(role string) fleetapi.Health {
	a := h.agent.Load()
	if a == nil {
		return fleetapi.Health{}
	}
	m, ok := a.Model(role)
	if !ok {
		return fleetapi.Health{}
	}
	if h.bad[m.Version] {
		return fleetapi.Health{Requests: 100, Errors: 50, TTFTP95Ms: 200}
	}
	return fleetapi.Health{Requests: 100, Errors: 1, TTFTP95Ms: 100}
}

func startEdges(t *testing.T, env *fleettest.Env, n int, bad map[string]bool) []*fleettest.Agent {
	var out []*fleettest.Agent
	for i := range n {
		h := &health{bad: bad}
		a := env.RunAgent(t, fmt.Sprintf("edge-%02d", i), fleettest.AgentOptions{Health: h})
		h.agent.Store(a.Agent)
		out = append(out, a)
	}
	return out
}

func waitRollout(t *testing.T, env *fleettest.Env, what string, cond func(fleet.Rollout) bool) fleet.Rollout {
	t.Helper()
	var r fleet.Rollout
	fleettest.Eventually(t, what, func() bool {
		var err error
		r, err = fleet.GetRollout(context.Background(), env.JS, env.Cfg, role)
		return err == nil && cond(r)
	})
	return r
}

func start(t *testing.T, env *fleettest.Env, version string, waves []float64, gates []string, soak time.Duration) {
	t.Helper()
	var gs []fleet.Gate
	for _, g := range gates {
		p, err := fleet.ParseGate(g)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, p)
	}
	_, err := fleet.StartRollout(context.Background(), env.JS, env.Cfg, fleet.StartRequest{
		Role: role, Version: version, Waves: waves, Gates: gs, Soak: soak, Key: env.Key,
	})
	if err != nil {
		t.Fatal(err)
	}
}

func skew(t *testing.T, env *fleettest.Env) map[string]int {
	edges, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fleet.Skew(edges)[role]
}

// baseline rolls out 1.0.0 to everyone, so later rollouts have a previous version.
func baseline(t *testing.T, env *fleettest.Env, n int) {
	t.Helper()
	env.Publish(t, role, "1.0.0", fleettest.Artifact(1, 300000))
	start(t, env, "1.0.0", []float64{100}, nil, 0)
	waitRollout(t, env, "1.0.0 rollout succeeded", func(r fleet.Rollout) bool { return r.State == fleet.StateSucceeded })
	fleettest.Eventually(t, "all on 1.0.0", func() bool { return skew(t, env)["1.0.0"] == n })
}

func TestWavesAdvanceAndOfflineEdgeCatchesUp(t *testing.T) {
	env := fleettest.Start(t)
	runController(t, env, "ctl-a")
	edges := startEdges(t, env, 10, nil)
	baseline(t, env, 10)

	offline := edges[3]
	offline.Stop(t)
	fleettest.Eventually(t, "offline edge's status expired", func() bool {
		edges, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
		return err == nil && !slices.ContainsFunc(edges, func(e fleetapi.EdgeStatus) bool { return e.EdgeID == offline.Status().EdgeID })
	})

	env.Publish(t, role, "2.0.0", fleettest.Artifact(2, 300000))
	start(t, env, "2.0.0", []float64{20, 50, 100}, []string{"install_failures==0", "error_rate<0.1"}, 0)
	r := waitRollout(t, env, "2.0.0 rollout succeeded", func(r fleet.Rollout) bool { return !r.Active() })
	if r.State != fleet.StateSucceeded {
		t.Fatalf("rollout ended %s: %s", r.State, r.Message)
	}
	if slices.Contains(r.Members, offline.Status().EdgeID) {
		t.Fatalf("offline edge was assigned: members %v", r.Members)
	}
	// Each wave must have taken exactly the online edges whose hash bucket falls in it.
	perWave := make([]int, len(r.Spec.Waves))
	for _, a := range edges {
		if a != offline {
			perWave[waveOf(r.Spec.Waves, a.Status().EdgeID)]++
		}
	}
	// A wave may be assigned over more than one tick (an edge whose status the controller's
	// snapshot missed for a moment on a loaded machine is assigned at the next one), so the
	// events of a wave are added up.
	for i, n := range perWave {
		prefix, got := fmt.Sprintf("wave %d: ", i+1), 0
		for _, e := range r.Events {
			var k int
			if _, rest, ok := strings.Cut(e, prefix); ok {
				if _, err := fmt.Sscanf(rest, "%d edges assigned", &k); err == nil {
					got += k
				}
			}
		}
		if got != n {
			t.Fatalf("wave %d: %d edges assigned in all, want %d; events %q", i+1, got, n, r.Events)
		}
	}
	fleettest.Eventually(t, "9 online edges on 2.0.0", func() bool { return skew(t, env)["2.0.0"] == 9 })

	back := env.RunAgent(t, "edge-03", fleettest.AgentOptions{DataDir: offlineDir(t, offline)})
	fleettest.Eventually(t, "returning edge catches up", func() bool { m, _ := back.Model(role); return m.Version == "2.0.0" })
}

func waveOf(waves []float64, id string) int {
	for i, w := range waves {
		if fleet.Bucket(id) < w {
			return i
		}
	}
	return len(waves)
}

func offlineDir(t *testing.T, a *fleettest.Agent) string {
	t.Helper()
	return a.DataDir()
}

func TestFailedGateRollsWaveBack(t *testing.T) {
	env := fleettest.Start(t)
	runController(t, env, "ctl-a")
	edges := startEdges(t, env, 10, map[string]bool{"2.0.0": true})
	baseline(t, env, 10)

	env.Publish(t, role, "2.0.0", fleettest.Artifact(2, 300000))
	start(t, env, "2.0.0", []float64{30, 100}, []string{"error_rate<0.1"}, 0)
	r := waitRollout(t, env, "rollout ended", func(r fleet.Rollout) bool { return !r.Active() })
	if r.State != fleet.StateRolledBack || r.Wave != 0 {
		t.Fatalf("rollout %s at wave %d (%s), want rolled back in wave 1", r.State, r.Wave+1, r.Message)
	}
	var wantMembers int
	for _, a := range edges {
		if fleet.Bucket(a.Status().EdgeID) < 30 {
			wantMembers++
		}
	}
	if len(r.Members) != wantMembers {
		t.Fatalf("wave 1 had %d members, want %d by hash bucket", len(r.Members), wantMembers)
	}
	fleettest.Eventually(t, "everyone back on 1.0.0", func() bool { return skew(t, env)["1.0.0"] == 10 })
	for _, a := range edges {
		got := a.Recorder.Count()
		in := fleet.Bucket(a.Status().EdgeID) < 30
		if (in && got != 2) || (!in && got != 1) {
			t.Fatalf("%s (in wave: %v) installed %d times", a.Status().EdgeID, in, got)
		}
	}
}

func TestStandbyControllerTakesOver(t *testing.T) {
	env := fleettest.Start(t)
	crashA := runController(t, env, "ctl-a")
	startEdges(t, env, 6, nil)
	baseline(t, env, 6)
	runController(t, env, "ctl-b")

	env.Publish(t, role, "2.0.0", fleettest.Artifact(2, 300000))
	// A soak keeps each wave open long enough to kill the leader in the middle of the rollout.
	start(t, env, "2.0.0", []float64{50, 100}, nil, 1500*time.Millisecond)
	before := waitRollout(t, env, "wave 1 settled", func(r fleet.Rollout) bool { return !r.SettledAt.IsZero() })
	crashA()
	r := waitRollout(t, env, "rollout finished under ctl-b", func(r fleet.Rollout) bool { return !r.Active() })
	if r.State != fleet.StateSucceeded {
		t.Fatalf("rollout %s: %s", r.State, r.Message)
	}
	for i, m := range before.Members {
		if r.Members[i] != m {
			t.Fatalf("members changed after takeover: before %v after %v", before.Members, r.Members)
		}
	}
	fleettest.Eventually(t, "all on 2.0.0", func() bool { return skew(t, env)["2.0.0"] == 6 })
}

func TestMain(m *testing.M) {
	slog.SetLogLoggerLevel(slog.LevelWarn)
	os.Exit(m.Run())
}

func TestOperatorRollback(t *testing.T) {
	env := fleettest.Start(t)
	runController(t, env, "ctl-a")
	startEdges(t, env, 4, nil)
	baseline(t, env, 4)
	env.Publish(t, role, "2.0.0", fleettest.Artifact(2, 300000))
	start(t, env, "2.0.0", []float64{100}, nil, 0)
	waitRollout(t, env, "2.0.0 succeeded", func(r fleet.Rollout) bool { return r.State == fleet.StateSucceeded })
	fleettest.Eventually(t, "all on 2.0.0", func() bool { return skew(t, env)["2.0.0"] == 4 })

	r, err := fleet.Rollback(context.Background(), env.JS, env.Cfg, role, env.Key)
	if err != nil {
		t.Fatal(err)
	}
	if r.State != fleet.StateRolledBack {
		t.Fatalf("state %s after rollback", r.State)
	}
	fleettest.Eventually(t, "all back on 1.0.0", func() bool { return skew(t, env)["1.0.0"] == 4 })
}

func TestStartRefusesWhileActiveAndUnknownVersion(t *testing.T) {
	env := fleettest.Start(t)
	env.Publish(t, role, "1.0.0", fleettest.Artifact(1, 1000))
	req := fleet.StartRequest{Role: role, Version: "1.0.0", Waves: []float64{100}, Key: env.Key}
	if _, err := fleet.StartRollout(context.Background(), env.JS, env.Cfg, req); err != nil {
		t.Fatal(err)
	}
	if _, err := fleet.StartRollout(context.Background(), env.JS, env.Cfg, req); !errors.Is(err, fleet.ErrRolloutActive) {
		t.Fatalf("second start: err = %v, want ErrRolloutActive", err)
	}
	req.Version = "9.9.9"
	if _, err := fleet.StartRollout(context.Background(), env.JS, env.Cfg, req); !errors.Is(err, fleet.ErrNotPublished) {
		t.Fatalf("unknown version: err = %v, want ErrNotPublished", err)
	}
	if _, _, err := fleet.Publish(context.Background(), env.JS, env.Cfg, env.Key, fleet.PublishRequest{
		Role: role, Version: "1.0.0", Runtime: "ollama", Artifact: strings.NewReader("x")}); !errors.Is(err, fleet.ErrVersionExists) {
		t.Fatalf("republish: err = %v, want ErrVersionExists", err)
	}
}

func TestParseWaves(t *testing.T) {
	tests := []struct {
		in   string
		want []float64
	}{
		{"5%,25%,100%", []float64{5, 25, 100}},
		{"100", []float64{100}},
		{"50,40,100", nil},
		{"5,50", nil},
		{"0,100", nil},
		{"", nil},
	}
	for _, tt := range tests {
		got, err := fleet.ParseWaves(tt.in)
		if (err != nil) != (tt.want == nil) || !slices.Equal(got, tt.want) {
			t.Errorf("ParseWaves(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// traffic is a health source whose request count the test sets; no errors.
type traffic struct{ requests atomic.Uint64 }

func (h *traffic) Health(string) fleetapi.Health {
	return fleetapi.Health{Requests: h.requests.Load(), TTFTP95Ms: 100}
}

// With --min-requests the gates wait for traffic instead of passing on none, and a wave that never
// sees enough of it is rolled back at its timeout.
func TestMinRequestsHoldsGatesUntilTraffic(t *testing.T) {
	env := fleettest.Start(t)
	runController(t, env, "ctl-a")
	h := &traffic{}
	env.RunAgent(t, "edge-00", fleettest.AgentOptions{Health: h})
	baseline(t, env, 1)

	env.Publish(t, role, "2.0.0", fleettest.Artifact(2, 300000))
	if _, err := fleet.StartRollout(context.Background(), env.JS, env.Cfg, fleet.StartRequest{
		Role: role, Version: "2.0.0", Waves: []float64{100}, MinRequests: 10, Key: env.Key,
	}); err != nil {
		t.Fatal(err)
	}
	waitRollout(t, env, "wave settled", func(r fleet.Rollout) bool { return !r.SettledAt.IsZero() })
	h.requests.Store(9)
	fleettest.Eventually(t, "the edge reports 9 requests", func() bool {
		snap, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
		return err == nil && len(snap) == 1 && snap[0].Roles[role].Health.Requests == 9
	})
	// The controller ticks every 100 ms; a few ticks later the rollout must still wait.
	time.Sleep(time.Second)
	if r, _ := fleet.GetRollout(context.Background(), env.JS, env.Cfg, role); r.State != fleet.StateRunning {
		t.Fatalf("rollout %s with 9 of 10 requests: %s", r.State, r.Message)
	}
	h.requests.Store(10)
	r := waitRollout(t, env, "rollout ended", func(r fleet.Rollout) bool { return !r.Active() })
	if r.State != fleet.StateSucceeded || !strings.Contains(r.Message, "gates held on 10 requests") {
		t.Fatalf("rollout %s: %s", r.State, r.Message)
	}

	env.Publish(t, role, "3.0.0", fleettest.Artifact(3, 300000))
	if _, err := fleet.StartRollout(context.Background(), env.JS, env.Cfg, fleet.StartRequest{
		// The timeout has to cover the install too (which ends the wave as "did not settle"), so it is
		// generous for a 300 kB artifact; what must end it here is the missing traffic.
		Role: role, Version: "3.0.0", Waves: []float64{100}, MinRequests: 1 << 40, WaveTimeout: 5 * time.Second, Key: env.Key,
	}); err != nil {
		t.Fatal(err)
	}
	r = waitRollout(t, env, "rollout ended", func(r fleet.Rollout) bool { return !r.Active() })
	if r.State != fleet.StateRolledBack || !strings.Contains(r.Message, "too little traffic") {
		t.Fatalf("rollout %s: %s", r.State, r.Message)
	}
}

// TestUnknownSignerRolloutFailsItsWave: a manifest signed by a key the edges do not trust is
// refused by every wave edge, and the wave is rolled back as soon as their status says so — not
// after the wave timeout — with the reason in the rollout record.
func TestUnknownSignerRolloutFailsItsWave(t *testing.T) {
	env := fleettest.Start(t)
	runController(t, env, "ctl-a")
	edges := startEdges(t, env, 4, nil)
	baseline(t, env, 4)

	rogue, err := manifest.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := fleet.Publish(context.Background(), env.JS, env.Cfg, rogue, fleet.PublishRequest{
		Role: role, Version: "2.0.0", Runtime: manifest.RuntimeOllama, Artifact: bytes.NewReader(fleettest.Artifact(2, 1000)),
	}); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	// The wave timeout is the default hour: only the edges' refusal can end this wave quickly.
	start(t, env, "2.0.0", []float64{100}, nil, 0)
	r := waitRollout(t, env, "rollout ended", func(r fleet.Rollout) bool { return !r.Active() })
	took := time.Since(begin)
	if r.State != fleet.StateRolledBack || !strings.Contains(r.Message, "rejected the manifest") || !strings.Contains(r.Message, "unknown_signer") {
		t.Fatalf("rollout %s: %q, want rolled back for unknown_signer", r.State, r.Message)
	}
	t.Logf("unknown-signer rollout rolled back %s after it started (controller tick 100 ms, heartbeat 300 ms): %s", took.Round(time.Millisecond), r.Message)
	fleettest.Eventually(t, "everyone still on 1.0.0", func() bool { return skew(t, env)["1.0.0"] == 4 })
	for _, a := range edges {
		if got := a.Recorder.Count(); got != 1 {
			t.Fatalf("%s installed %d times, want only the baseline", a.Status().EdgeID, got)
		}
	}
}
