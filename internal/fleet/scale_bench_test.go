package fleet_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	gosync "sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/pki"
)

// lightEdge is the fleet-facing half of an edge agent and nothing else: its own NATS
// connection, the same filtered desired-state watch as internal/sync (fleetapi.DesiredFilters),
// and a heartbeat of its status at the agent's default period, sent at once when what it runs
// changes. It "installs" by taking the manifest's version — no download, no signature check:
// those cost the edge, not the fleet, and this measures the fleet.
type lightEdge struct {
	id       string
	nc       *nats.Conn
	status   jetstream.KeyValue
	period   time.Duration
	version  atomic.Value // string
	changed  chan struct{}
	beats    atomic.Uint64
	fails    atomic.Uint64
	watching atomic.Bool
}

func (e *lightEdge) beat(ctx context.Context) error {
	v, _ := e.version.Load().(string)
	st := fleetapi.EdgeStatus{EdgeID: e.id, Labels: map[string]string{"site": "bench"}, Seen: time.Now().UTC(),
		Roles: map[string]fleetapi.RoleStatus{"drafter": {Version: v, State: fleetapi.StateIdle,
			Health: fleetapi.Health{Requests: 100, Errors: 1, TTFTP95Ms: 120}}}}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = e.status.Put(ctx, fleetapi.StatusKey(e.id), data)
	if err == nil {
		e.beats.Add(1)
	} else {
		e.fails.Add(1)
	}
	return err
}

// run watches and heartbeats until ctx ends; the first beat is at a random point of the period,
// as agents started over minutes would be.
func (e *lightEdge) run(ctx context.Context, desired jetstream.KeyValue) error {
	w, err := desired.WatchFiltered(ctx, fleetapi.DesiredFilters(e.id))
	if err != nil {
		return err
	}
	defer func() { _ = w.Stop() }()
	e.watching.Store(true)
	keys := map[string]string{} // desired key → version
	apply := func(en jetstream.KeyValueEntry) {
		if en.Operation() != jetstream.KeyValuePut {
			delete(keys, en.Key())
		} else if d, err := fleetapi.ParseDesired(en.Value()); err == nil {
			var m manifest.Manifest
			if json.Unmarshal(d.Manifest.Payload, &m) == nil {
				keys[en.Key()] = m.Version
			}
		}
		v, ok := keys[fleetapi.EdgeKey(e.id, "drafter")]
		if !ok {
			v = keys[fleetapi.RoleKey("drafter")]
		}
		if old, _ := e.version.Load().(string); old != v {
			e.version.Store(v)
			select {
			case e.changed <- struct{}{}:
			default:
			}
		}
	}
	first := time.NewTimer(rand.N(e.period))
	defer first.Stop()
	t := time.NewTicker(e.period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case en := <-w.Updates():
			if en != nil {
				apply(en)
			}
		case <-first.C:
			_ = e.beat(ctx)
		case <-t.C:
			_ = e.beat(ctx)
		case <-e.changed:
			_ = e.beat(ctx)
		}
	}
}

// proc samples a process's CPU time and resident memory from /proc.
type proc struct{ pid int }

func (p proc) cpu() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// mem returns VmRSS and VmHWM (peak) in bytes.
func (p proc) mem() (rss, peak int64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.pid))
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, _ := strings.Cut(s.Text(), ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			rss = kb << 10
		case "VmHWM":
			peak = kb << 10
		}
	}
	return rss, peak
}

func loadavg() string {
	data, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkFleetScale: a 3-node JetStream cluster (nkey users and TLS as fleetctl hub --pki
// enforces them, unless SUCURSAL_SCALE_INSECURE is set) with the fleet's buckets at
// SUCURSAL_SCALE_REPLICAS (default 3) replicas, SUCURSAL_SCALE_EDGES (default 2 000)
// light edges heartbeating every 10 s, the real controller as its own process (`fleetctl
// controller`, default lease and tick), and per iteration a rollout of a new version in 3 waves
// over every edge, gated on install failures and error rate. Run with -benchtime=1x; see
// docs/SCALE.md for the command and figures.
func BenchmarkFleetScale(b *testing.B) {
	n := envInt("SUCURSAL_SCALE_EDGES", 2000)
	period := time.Duration(envInt("SUCURSAL_SCALE_HEARTBEAT_S", 10)) * time.Second
	ctx := context.Background()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("nuc-%04d", i)
	}
	// As in production: every client with its own nkey over TLS, edges with their permissions
	// (fleetctl hub --pki's users); SUCURSAL_SCALE_INSECURE=1 for anonymous plain connections.
	var auth *fleet.HubAuth
	var clientOpts func(seed string) []nats.Option
	var ctlArgs []string
	if os.Getenv("SUCURSAL_SCALE_INSECURE") == "" {
		dir := b.TempDir()
		if _, err := pki.Init(pki.Options{Dir: dir, Edges: ids}); err != nil {
			b.Fatal(err)
		}
		if _, err := pki.EnsureHubCert(dir, nil, time.Now()); err != nil {
			b.Fatal(err)
		}
		if _, err := fleet.EnsureCredentials(dir, ids); err != nil {
			b.Fatal(err)
		}
		var err error
		if auth, err = fleet.LoadHubAuth(dir, fleetapi.Buckets{}.WithDefaults(), ""); err != nil {
			b.Fatal(err)
		}
		ca := filepath.Join(dir, pki.CACertFile)
		clientOpts = func(seed string) []nats.Option {
			o, err := nats.NkeyOptionFromSeed(filepath.Join(dir, seed))
			if err != nil {
				b.Fatal(err)
			}
			return []nats.Option{o, nats.RootCAs(ca)}
		}
		ctlArgs = []string{"--nkey", filepath.Join(dir, fleet.ControllerSeedFile), "--nats-ca", ca}
	} else {
		clientOpts = func(string) []nats.Option { return nil }
	}
	c := fleettest.StartCluster(b, 3, auth)
	nc := c.Connect("bench", -1, clientOpts(fleet.ControllerSeedFile)...)
	js, err := jetstream.New(nc)
	if err != nil {
		b.Fatal(err)
	}
	cfg := fleet.Config{Replicas: envInt("SUCURSAL_SCALE_REPLICAS", 3)}.WithDefaults()
	if err := fleet.Init(ctx, js, cfg); err != nil {
		b.Fatal(err)
	}
	key, err := manifest.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	publish := func(v string) {
		if _, _, err := fleet.Publish(ctx, js, cfg, key, fleet.PublishRequest{Role: "drafter", Version: v,
			Runtime: manifest.RuntimeOllama, Artifact: bytes.NewReader(fleettest.Artifact(1, 4<<10))}); err != nil {
			b.Fatal(err)
		}
	}
	publish("1.0.0")
	env, err := fleet.Lookup(ctx, js, cfg, "drafter", "1.0.0")
	if err != nil {
		b.Fatal(err)
	}
	desired, err := js.KeyValue(ctx, cfg.Buckets.Desired)
	if err != nil {
		b.Fatal(err)
	}
	data, _ := json.Marshal(fleetapi.Desired{Manifest: env})
	if _, err := desired.Put(ctx, fleetapi.RoleKey("drafter"), data); err != nil {
		b.Fatal(err)
	}

	// The edges, each on its own connection to one of the three nodes.
	ectx, stopEdges := context.WithCancel(ctx)
	var wg gosync.WaitGroup
	defer func() { stopEdges(); wg.Wait() }()
	var edges []*lightEdge
	started := time.Now()
	for i := range n {
		id := ids[i]
		opts := append(clientOpts(filepath.Join(pki.EdgesDir, id+".nk")), nats.Name("bench edge"), nats.MaxReconnects(-1),
			nats.CustomInboxPrefix(fleetapi.InboxPrefix(id)))
		enc, err := nats.Connect(c.URL(i%c.Size()), opts...)
		if err != nil {
			b.Logf("edge %d of %d: %v; stopping there", i, n, err)
			break
		}
		ejs, _ := jetstream.New(enc)
		st, err1 := ejs.KeyValue(ctx, cfg.Buckets.Status)
		dk, err2 := ejs.KeyValue(ctx, cfg.Buckets.Desired)
		if err1 != nil || err2 != nil {
			b.Fatal(err1, err2)
		}
		e := &lightEdge{id: id, nc: enc, status: st, period: period, changed: make(chan struct{}, 1)}
		edges = append(edges, e)
		wg.Add(1)
		go func() { defer wg.Done(); defer enc.Close(); _ = e.run(ectx, dk) }()
	}
	b.Logf("%d edges connected in %v (load %s)", len(edges), time.Since(started).Round(time.Millisecond), loadavg())
	for seen := 0; seen < len(edges); {
		s0 := time.Now()
		st, err := fleet.Snapshot(ctx, js, cfg)
		seen = len(st)
		var beats, fails, watching uint64
		for _, e := range edges {
			beats, fails = beats+e.beats.Load(), fails+e.fails.Load()
			if e.watching.Load() {
				watching++
			}
		}
		b.Logf("%v: %d edges in the status bucket (read in %v, err %v); %d watching, %d beats, %d failed; load %s",
			time.Since(started).Round(time.Second), seen, time.Since(s0).Round(time.Millisecond), err, watching, beats, fails, loadavg())
		if time.Since(started) > 5*time.Minute {
			b.Fatalf("only %d of %d edges reported within 5 min", seen, len(edges))
		}
		time.Sleep(5 * time.Second)
	}

	// The controller, as operators run it.
	bin := filepath.Join(b.TempDir(), "fleetctl")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/sucursal/sucursal/cmd/fleetctl").CombinedOutput(); err != nil {
		b.Fatalf("build fleetctl: %v\n%s", err, out)
	}
	var ctlLog bytes.Buffer
	ctl := exec.Command(bin, append([]string{"controller", "--nats", c.URLs(), "--id", "bench-controller"}, ctlArgs...)...)
	ctl.Env = []string{"PATH=" + os.Getenv("PATH")} // no FLEETCTL_* from the caller
	ctl.Stdout, ctl.Stderr = &ctlLog, &ctlLog
	if err := ctl.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = ctl.Process.Kill(); _ = ctl.Wait() }()
	p := proc{ctl.Process.Pid}

	gates := []fleet.Gate{{Metric: fleet.MetricInstallFailures, Op: "==", Value: 0}, {Metric: fleet.MetricErrorRate, Op: "<", Value: 0.05}}
	b.ResetTimer()
	for it := range b.N {
		version := fmt.Sprintf("2.0.%d", it)
		publish(version)
		varz0 := c.Varz()
		cpu0, t0 := p.cpu(), time.Now()
		if _, err := fleet.StartRollout(ctx, js, cfg, fleet.StartRequest{Role: "drafter", Version: version,
			Waves: []float64{10, 50, 100}, Gates: gates, Key: key}); err != nil {
			b.Fatal(err)
		}
		var waveEnds []time.Duration
		var maxRSS int64
		wave := 0
		for {
			if rss, _ := p.mem(); rss > maxRSS {
				maxRSS = rss
			}
			r, err := fleet.GetRollout(ctx, js, cfg, "drafter")
			if err == nil && r.Spec.Version == version {
				for ; wave < r.Wave; wave++ {
					waveEnds = append(waveEnds, time.Since(t0))
				}
				if !r.Active() {
					if r.State != fleet.StateSucceeded {
						b.Fatalf("rollout %s: %s\ncontroller log:\n%s", r.State, r.Message, ctlLog.String())
					}
					waveEnds = append(waveEnds, time.Since(t0))
					break
				}
			}
			if time.Since(t0) > 15*time.Minute {
				b.Fatalf("rollout over %d edges not done in 15 min (wave %d)\ncontroller log:\n%s", len(edges), wave+1, ctlLog.String())
			}
			time.Sleep(200 * time.Millisecond)
		}
		elapsed, cpu := time.Since(t0), p.cpu()-cpu0
		varz1 := c.Varz()
		for _, e := range edges {
			if v, _ := e.version.Load().(string); v != version {
				b.Fatalf("edge %s runs %q after the rollout of %s", e.id, v, version)
			}
		}
		_, peak := p.mem()
		prev := time.Duration(0)
		var per []string
		for i, d := range waveEnds {
			per = append(per, fmt.Sprintf("wave %d %.1fs", i+1, (d-prev).Seconds()))
			prev = d
		}

		// What an operator and the gates read over the whole fleet.
		var statusLat, snapLat []time.Duration
		for range 5 {
			s0 := time.Now()
			views, err := fleet.ReadFleet(ctx, js, cfg, fleet.Thresholds{}, time.Now())
			if err != nil || len(views) != len(edges) {
				b.Fatalf("ReadFleet: %d views, %v", len(views), err)
			}
			_ = fleet.NewReport(views, fleet.Filter{})
			statusLat = append(statusLat, time.Since(s0))
			s0 = time.Now()
			if _, err := fleet.Snapshot(ctx, js, cfg); err != nil {
				b.Fatal(err)
			}
			snapLat = append(snapLat, time.Since(s0))
		}
		slices.Sort(statusLat)
		slices.Sort(snapLat)
		ai, err := js.AccountInfo(ctx)
		if err != nil {
			b.Fatal(err)
		}
		secs := elapsed.Seconds()
		b.Logf("edges %d, heartbeat %v, rollout %.1fs (%s), controller CPU %.2fs (%.1f%% of a core), RSS max %.1f MiB, peak %.1f MiB",
			len(edges), period, secs, strings.Join(per, ", "), cpu.Seconds(), 100*cpu.Seconds()/secs, float64(maxRSS)/(1<<20), float64(peak)/(1<<20))
		b.Logf("status (ReadFleet+report) median %v max %v; gate input (Snapshot) median %v max %v",
			statusLat[2].Round(time.Millisecond), statusLat[4].Round(time.Millisecond), snapLat[2].Round(time.Millisecond), snapLat[4].Round(time.Millisecond))
		b.Logf("JetStream at R%d: account store %.1f MiB, on disk over the 3 nodes %.1f MiB; cluster in %.0f msgs/s out %.0f msgs/s during the rollout; load %s",
			cfg.Replicas, float64(ai.Store)/(1<<20), float64(c.StoreBytes())/(1<<20), float64(varz1.In-varz0.In)/secs, float64(varz1.Out-varz0.Out)/secs, loadavg())
		b.ReportMetric(secs, "rollout-s")
		b.ReportMetric(float64(peak)/(1<<20), "controller-peak-MiB")
		b.ReportMetric(100*cpu.Seconds()/secs, "controller-cpu-%")
		b.ReportMetric(float64(statusLat[2].Milliseconds()), "status-ms")
		b.ReportMetric(float64(len(edges)), "edges")
	}
}
