package e2e

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	gosync "sync"
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

const gateRole = "fallback"

// gateEdge is a real edge-agent with its own Ollama, serving a stream of user requests that,
// with the DC unreachable, its fleet-synced local model answers.
type gateEdge struct {
	id     string
	url    string
	ollama *ollamatest.Server

	mu       gosync.Mutex
	statuses map[int]int // HTTP status -> answers seen by the users
	wrong    int         // 200s whose text is not the model's greedy answer
}

func (e *gateEdge) seen() (ok, failed, wrong int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for code, n := range e.statuses {
		if code == http.StatusOK {
			ok += n
		} else if code >= 500 {
			failed += n
		}
	}
	return ok, failed, e.wrong
}

func (e *gateEdge) reset() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.statuses, e.wrong = map[int]int{}, 0
}

// serve sends requests one after the other until ctx ends.
func (e *gateEdge) serve(ctx context.Context, want string) {
	body := []byte(`{"model":"big-dc-model","messages":[{"role":"user","content":"a"}],"max_tokens":100}`)
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.url+"/v1/chat/completions", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := httpClient().Do(req)
		if err != nil {
			continue // ctx ended
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		e.mu.Lock()
		e.statuses[resp.StatusCode]++
		if resp.StatusCode == http.StatusOK && !strings.Contains(string(raw), want) {
			e.wrong++
		}
		e.mu.Unlock()
	}
}

// gateEdgeIDs picks one edge id in each half of the hash buckets, so a 50 % first wave holds
// exactly the first.
func gateEdgeIDs() (first, second string) {
	for i := 0; first == "" || second == ""; i++ {
		id := fmt.Sprintf("branch-gate-%02d", i)
		switch {
		case fleet.Bucket(id) < 50 && first == "":
			first = id
		case fleet.Bucket(id) >= 50 && second == "":
			second = id
		}
	}
	return first, second
}

// Rollout gates read the health that real edge-agents report while serving users: a healthy
// version passes its gates on that traffic, and a version that installs and smoke-tests fine but
// fails users' requests is caught by error_rate in the first wave and rolled back there, and
// the edge serves again from the previous version.
//
// The broken version is a real model with NaN output weights. On Ollama's Go engine, the
// installer's one-token greedy smoke test answers (NaN logits still have an argmax), while every
// sampled chat request crashes the runner: a model that is only broken where users are.
func TestRolloutGateOnRealEdgeHealth(t *testing.T) {
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
	firstID, secondID := gateEdgeIDs()
	pkiDir := newPKI(t, firstID, secondID)
	var edges []*gateEdge
	for _, id := range []string{firstID, secondID} {
		e := &gateEdge{id: id, statuses: map[int]int{}, ollama: ollamatest.Start(t, ollamatest.Env("OLLAMA_NEW_ENGINE=1"))}
		// The DC is unreachable: every answer comes from the branch's own, fleet-synced model.
		e.url, _ = startAgent(t, pkiDir, "127.0.0.1:1", func(c *agent.Config) {
			c.EdgeID = id
			c.Sync.NATSURL = env.Hub.URL()
			c.Sync.TrustedKeys = []string{keyFile}
			c.Sync.DataDir = filepath.Join(dir, id)
			c.Sync.OllamaURL = e.ollama.URL
			c.Sync.Buckets = env.Cfg.Buckets
			c.Sync.Heartbeat = 300 * time.Millisecond // the test hub's status entries live 2 s
			c.Failover.Local = failover.LocalConfig{Enabled: true, URL: e.ollama.URL + "/v1", Role: gateRole}
		})
		edges = append(edges, e)
	}
	runGateController(t, env)

	good := testmodel.Alphabet()
	goodNext := testmodel.Alphabet()
	goodNext.Name = "sucursal-tiny-next" // same answers, another artifact
	broken := testmodel.Alphabet()
	broken.OutputScale = float32(math.NaN())
	want := good.Greedy("a", 100)
	if next := goodNext.Greedy("a", 100); next != want {
		t.Fatalf("the next healthy version answers %q, the first %q", next, want)
	}
	publish := func(version string, spec testmodel.Spec) {
		var buf bytes.Buffer
		if err := testmodel.Write(&buf, spec); err != nil {
			t.Fatal(err)
		}
		env.Publish(t, gateRole, version, buf.Bytes())
	}
	publish("1.0.0", good)
	publish("1.1.0", goodNext)
	publish("2.0.0", broken)

	// 1.0.0 everywhere first, then users.
	v1, err := fleet.Lookup(context.Background(), env.JS, env.Cfg, gateRole, "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	env.SetDesired(t, fleetapi.RoleKey(gateRole), fleetapi.Desired{Manifest: v1})
	waitVersions(t, env, map[string]string{firstID: "1.0.0", secondID: "1.0.0"})
	ctx, stopUsers := context.WithCancel(context.Background())
	var users gosync.WaitGroup
	for _, e := range edges {
		users.Go(func() { e.serve(ctx, want) })
	}
	t.Cleanup(func() { stopUsers(); users.Wait() })

	gates := []fleet.Gate{{Metric: fleet.MetricErrorRate, Op: "<", Value: 0.05}, {Metric: fleet.MetricInstallFailures, Op: "==", Value: 0}}
	const minRequests = 4
	start := func(version string) {
		t.Helper()
		if _, err := fleet.StartRollout(context.Background(), env.JS, env.Cfg, fleet.StartRequest{
			Role: gateRole, Version: version, Waves: []float64{50, 100}, Gates: gates, MinRequests: minRequests,
			WaveTimeout: 5 * time.Minute, Key: env.Key,
		}); err != nil {
			t.Fatal(err)
		}
	}

	// A healthy version: both waves pass on what the edges reported.
	start("1.1.0")
	r := waitGateRollout(t, env)
	if r.State != fleet.StateSucceeded {
		t.Fatalf("healthy 1.1.0: rollout %s: %s", r.State, r.Message)
	}
	t.Logf("1.1.0: %q", r.Events)
	held := 0
	for _, ev := range r.Events {
		if strings.Contains(ev, "gates held on ") {
			held++
		}
	}
	if held != 2 {
		t.Fatalf("want the gates to hold once per wave, events: %q", r.Events)
	}
	waitVersions(t, env, map[string]string{firstID: "1.1.0", secondID: "1.1.0"})
	for _, e := range edges {
		if ok, failed, wrong := e.seen(); ok == 0 || wrong != 0 {
			t.Fatalf("%s: users saw %d answers, %d failed, %d with the wrong text", e.id, ok, failed, wrong)
		}
		e.reset()
	}

	// A version that fails users: wave 1 (the first edge alone) installs it, its users get
	// errors, error_rate stops the rollout there and the edge goes back to 1.1.0.
	start("2.0.0")
	r = waitGateRollout(t, env)
	t.Logf("2.0.0: %q", r.Events)
	if r.State != fleet.StateRolledBack || r.Wave != 0 || !strings.Contains(r.Message, "gate failed: error_rate<0.05") {
		t.Fatalf("broken 2.0.0: rollout %s in wave %d: %s", r.State, r.Wave+1, r.Message)
	}
	if !slices.Equal(r.Members, []string{firstID}) {
		t.Fatalf("wave 1 members %v, want [%s]", r.Members, firstID)
	}
	waitVersions(t, env, map[string]string{firstID: "1.1.0", secondID: "1.1.0"})
	for _, e := range edges {
		ok, failed, wrong := e.seen()
		t.Logf("%s during the 2.0.0 rollout: %d answered, %d failed, %d wrong", e.id, ok, failed, wrong)
	}
	if _, failed, _ := edges[0].seen(); failed < minRequests {
		t.Fatalf("%s: its users saw %d failed answers on 2.0.0, want at least %d before the rollback", firstID, failed, minRequests)
	}
	if _, failed, wrong := edges[1].seen(); failed != 0 || wrong != 0 {
		t.Fatalf("%s was not in the wave but its users saw %d failures, %d wrong answers", secondID, failed, wrong)
	}
	if names := ollamaModels(t, edges[1].ollama); slices.Contains(names, "sucursal-"+gateRole+":2.0.0") {
		t.Fatalf("%s installed 2.0.0: %v", secondID, names)
	}
	// Back on 1.1.0, the first edge's users get right answers again.
	edges[0].reset()
	fleettest.Eventually(t, firstID+" answers again", func() bool {
		ok, _, wrong := edges[0].seen()
		return ok > 0 && wrong == 0
	})
}

func runGateController(t *testing.T, env *fleettest.Env) {
	t.Helper()
	c, err := fleet.NewController(env.Client(t, "controller"), fleet.ControllerConfig{Fleet: env.Cfg, ID: "ctl", LeaseTTL: time.Second, Tick: 100 * time.Millisecond}, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("controller: %v", err)
		}
	})
}

func waitGateRollout(t *testing.T, env *fleettest.Env) fleet.Rollout {
	t.Helper()
	var r fleet.Rollout
	fleettest.Eventually(t, "the rollout ends", func() bool {
		var err error
		r, err = fleet.GetRollout(context.Background(), env.JS, env.Cfg, gateRole)
		return err == nil && !r.Active()
	})
	return r
}

func waitVersions(t *testing.T, env *fleettest.Env, want map[string]string) {
	t.Helper()
	fleettest.Eventually(t, fmt.Sprintf("edges run %v", want), func() bool {
		snap, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
		if err != nil {
			return false
		}
		n := 0
		for _, e := range snap {
			if v, ok := want[e.EdgeID]; ok && e.Roles[gateRole].Version == v {
				n++
			}
		}
		return n == len(want)
	})
}

func ollamaModels(t *testing.T, o *ollamatest.Server) []string {
	t.Helper()
	list, err := o.Client().List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range list.Models {
		names = append(names, m.Name)
	}
	return names
}
