package fleet_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

// Snapshot must see every live edge even while all of them rewrite their status keys: the
// controller would otherwise assign waves and count settled edges from a partial view.
func TestSnapshotSeesEveryEdgeWhileTheyHeartbeat(t *testing.T) {
	env := fleettest.Start(t)
	const n = 12
	startEdges(t, env, n, nil)
	fleettest.Eventually(t, "all edges reported", func() bool {
		edges, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
		return err == nil && len(edges) == n
	})
	// Heartbeats are every 300 ms; 40 listings spread over ~4 s overlap plenty of rewrites.
	for i := range 40 {
		edges, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(edges) != n {
			t.Fatalf("listing %d saw %d of %d live edges", i, len(edges), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestThresholdsStateMachine(t *testing.T) {
	th := fleet.Thresholds{Stale: 30 * time.Second, Offline: 2 * time.Minute}
	for _, tc := range []struct {
		age  time.Duration
		want string
	}{
		{0, fleet.EdgeOnline},
		{29 * time.Second, fleet.EdgeOnline},
		{30 * time.Second, fleet.EdgeStale},
		{119 * time.Second, fleet.EdgeStale},
		{2 * time.Minute, fleet.EdgeOffline},
		{10 * time.Minute, fleet.EdgeOffline},
		{1000 * time.Hour, fleet.EdgeOffline},
	} {
		if got := th.State(tc.age); got != tc.want {
			t.Errorf("State(%s) = %s, want %s", tc.age, got, tc.want)
		}
	}
	if got := (fleet.Thresholds{}).State(fleet.DefaultStaleAfter); got != fleet.EdgeStale {
		t.Errorf("defaults: State(%s) = %s", fleet.DefaultStaleAfter, got)
	}
	for _, bad := range []fleet.Thresholds{{Stale: time.Minute, Offline: time.Minute}, {Stale: 3 * time.Minute}, {Stale: -1}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if err := (fleet.Thresholds{}).Validate(); err != nil {
		t.Errorf("defaults refused: %v", err)
	}
}

func TestParseFilter(t *testing.T) {
	for _, tc := range []struct {
		labels, states []string
		wantErr        bool
		wantStates     []string
	}{
		{nil, nil, false, nil},
		{[]string{"region=north"}, []string{"offline,Stale"}, false, []string{fleet.EdgeOffline, fleet.EdgeStale}},
		{nil, []string{"online", "OFFLINE"}, false, []string{fleet.EdgeOnline, fleet.EdgeOffline}},
		{[]string{"region"}, nil, true, nil},
		{[]string{"=x"}, nil, true, nil},
		{nil, []string{"dead"}, true, nil},
	} {
		f, err := fleet.ParseFilter("", tc.labels, tc.states)
		if (err != nil) != tc.wantErr {
			t.Errorf("%v %v: err = %v", tc.labels, tc.states, err)
			continue
		}
		if err == nil && !slices.Equal(f.States, tc.wantStates) {
			t.Errorf("%v: states %v, want %v", tc.states, f.States, tc.wantStates)
		}
	}
}

func view(id, state string, labels map[string]string, roles map[string]fleetapi.RoleStatus) fleet.EdgeView {
	return fleet.EdgeView{EdgeStatus: fleetapi.EdgeStatus{EdgeID: id, Labels: labels, Roles: roles}, State: state}
}

// The report puts OFFLINE first, then STALE, then other problems (here skew), then the healthy;
// the filter narrows it, and the matrix and counts follow what is left.
func TestReportProblemsFirstFiltersAndMatrix(t *testing.T) {
	north := map[string]string{"region": "north"}
	on := func(v string) map[string]fleetapi.RoleStatus {
		return map[string]fleetapi.RoleStatus{"drafter": {Version: v, State: fleetapi.StateIdle}}
	}
	edges := []fleet.EdgeView{
		view("a", fleet.EdgeOnline, north, on("2")),
		view("b", fleet.EdgeOnline, nil, on("1")), // skew: the fleet mostly runs 2
		view("c", fleet.EdgeStale, north, on("2")),
		view("d", fleet.EdgeOffline, nil, on("2")),
		view("e", fleet.EdgeOnline, north, nil), // no roles: still an edge
	}
	// Problems are computed by ReadFleet; give them by hand the way it would.
	edges[1].Problems = []string{"drafter: version skew"}
	edges[2].Problems = []string{"stale"}
	edges[3].Problems = []string{"offline"}

	r := fleet.NewReport(edges, fleet.Filter{})
	var order []string
	for _, e := range r.Edges {
		order = append(order, e.EdgeID)
	}
	if want := []string{"d", "c", "b", "a", "e"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	if r.Counts[fleet.EdgeOffline] != 1 || r.Counts[fleet.EdgeStale] != 1 || r.Counts[fleet.EdgeOnline] != 3 {
		t.Errorf("counts %v", r.Counts)
	}
	if !r.Skew["drafter"].Skewed() || r.Skew["drafter"].Majority != "2" || r.Matrix["b"]["drafter"] != "1" {
		t.Errorf("skew %+v, matrix %v", r.Skew, r.Matrix)
	}
	if _, ok := r.Matrix["e"]; !ok {
		t.Errorf("the edge with no roles is missing from the matrix: %v", r.Matrix)
	}

	f, err := fleet.ParseFilter("drafter", []string{"region=north"}, []string{"online,stale"})
	if err != nil {
		t.Fatal(err)
	}
	r = fleet.NewReport(edges, f)
	order = nil
	for _, e := range r.Edges {
		order = append(order, e.EdgeID)
	}
	if want := []string{"c", "a"}; !slices.Equal(order, want) {
		t.Errorf("filtered order %v, want %v", order, want)
	}
	if r.Skew["drafter"].Skewed() {
		t.Errorf("skew computed over edges the filter dropped: %+v", r.Skew)
	}
}

// A killed edge stays in the fleet's view after its heartbeat key expires: STALE, then OFFLINE,
// with the versions it last ran; a controller restart does not make it look fresh; only
// ForgetEdge removes it.
func TestDeadEdgeStaysVisibleUntilForgotten(t *testing.T) {
	env := fleettest.Start(t) // status TTL 2 s
	ctx := context.Background()
	env.SetDesired(t, fleetapi.RoleKey("drafter"), fleetapi.Desired{Manifest: env.Publish(t, "drafter", "1.0.0", fleettest.Artifact(1, 1000))})
	edges := startEdges(t, env, 2, nil)
	stopCtl := runController(t, env, "ctl-1")

	th := fleet.Thresholds{Stale: 700 * time.Millisecond, Offline: 1500 * time.Millisecond}
	read := func() map[string]fleet.EdgeView {
		t.Helper()
		vs, err := fleet.ReadFleet(ctx, env.JS, env.Cfg, th, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]fleet.EdgeView{}
		for _, v := range vs {
			out[v.EdgeID] = v
		}
		return out
	}
	fleettest.Eventually(t, "both edges run drafter 1.0.0 and are ONLINE", func() bool {
		vs := read()
		return len(vs) == 2 && vs["edge-00"].State == fleet.EdgeOnline && vs["edge-01"].Roles["drafter"].Version == "1.0.0" &&
			vs["edge-00"].Roles["drafter"].Version == "1.0.0" && vs["edge-01"].State == fleet.EdgeOnline
	})
	fleettest.Eventually(t, "the controller kept a record of edge-01", func() bool {
		kv, err := env.JS.KeyValue(ctx, env.Cfg.Buckets.Edges)
		if err != nil {
			return false
		}
		_, err = kv.Get(ctx, fleetapi.StatusKey("edge-01"))
		return err == nil
	})

	edges[1].Stop(t)
	var seen []string
	fleettest.Eventually(t, "edge-01 OFFLINE while its heartbeat key has expired", func() bool {
		v := read()["edge-01"]
		if len(seen) == 0 || seen[len(seen)-1] != v.State {
			seen = append(seen, v.State)
		}
		live, err := fleet.Snapshot(ctx, env.JS, env.Cfg)
		return err == nil && len(live) == 1 && v.State == fleet.EdgeOffline
	})
	if !slices.Contains(seen, fleet.EdgeStale) && seen[0] != fleet.EdgeOffline {
		t.Errorf("states seen %v: want ONLINE → STALE → OFFLINE", seen)
	}
	dead := read()["edge-01"]
	if dead.Roles["drafter"].Version != "1.0.0" || dead.Heard.IsZero() || dead.FirstHeard.After(dead.Heard) {
		t.Fatalf("the dead edge lost its last state: %+v", dead)
	}
	if len(dead.Problems) == 0 {
		t.Errorf("an OFFLINE edge lists no problem")
	}

	// A new controller reads the old heartbeats again; the record must keep the time it was heard.
	stopCtl()
	runController(t, env, "ctl-2")
	time.Sleep(500 * time.Millisecond) // give the new controller's copy a chance to do harm
	if again := read()["edge-01"]; !again.Heard.Equal(dead.Heard) || again.State != fleet.EdgeOffline {
		t.Fatalf("after a controller restart: heard %s (was %s), state %s", again.Heard, dead.Heard, again.State)
	}

	if err := fleet.ForgetEdge(ctx, env.JS, env.Cfg, "edge-01"); err != nil {
		t.Fatal(err)
	}
	if _, ok := read()["edge-01"]; ok {
		t.Fatal("a forgotten edge is still listed")
	}
	if err := fleet.ForgetEdge(ctx, env.JS, env.Cfg, "edge-01"); !errors.Is(err, fleet.ErrUnknownEdge) {
		t.Fatalf("forgetting twice: %v, want ErrUnknownEdge", err)
	}
	if err := fleet.ForgetEdge(ctx, env.JS, env.Cfg, "bad id"); err == nil {
		t.Fatal("a bad id was accepted")
	}
	if _, ok := read()["edge-00"]; !ok {
		t.Fatal("forgetting one edge removed another")
	}
}
