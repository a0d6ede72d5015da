package fleet_test

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

// An edge that matches a multi-label selector but was offline for the whole rollout, and an edge
// with those labels that joins only afterwards, both get the version when they report; edges
// matching only part of the selector keep theirs. Before the selector got its own key, the
// controller finished such a rollout with per-edge keys only, so neither caught up.
func TestMultiLabelSelectorOfflineEdgeCatchesUp(t *testing.T) {
	env := fleettest.Start(t)
	runController(t, env, "ctl-a")
	target := map[string]string{"region": "eu", "tier": "clinic"}
	labels := map[string]map[string]string{
		"edge-eu-clinic-1": target,
		"edge-eu-clinic-2": target,
		"edge-eu-clinic-3": target, // offline during the rollout
		"edge-eu-bank":     {"region": "eu", "tier": "bank"},
		"edge-us-clinic":   {"region": "us", "tier": "clinic"},
		"edge-eu-only":     {"region": "eu"},
	}
	agents := map[string]*fleettest.Agent{}
	for _, id := range slices.Sorted(maps.Keys(labels)) {
		agents[id] = env.RunAgent(t, id, fleettest.AgentOptions{Labels: labels[id]})
	}
	baseline(t, env, len(labels))

	offline := agents["edge-eu-clinic-3"]
	offline.Stop(t)
	fleettest.Eventually(t, "offline edge's status expired", func() bool {
		edges, err := fleet.Snapshot(context.Background(), env.JS, env.Cfg)
		return err == nil && !slices.ContainsFunc(edges, func(e fleetapi.EdgeStatus) bool { return e.EdgeID == "edge-eu-clinic-3" })
	})

	env.Publish(t, role, "2.0.0", fleettest.Artifact(2, 300000))
	if _, err := fleet.StartRollout(context.Background(), env.JS, env.Cfg, fleet.StartRequest{
		Role: role, Version: "2.0.0", Waves: []float64{50, 100}, Selector: target, Key: env.Key,
	}); err != nil {
		t.Fatal(err)
	}
	r := waitRollout(t, env, "2.0.0 rollout ended", func(r fleet.Rollout) bool { return !r.Active() })
	if r.State != fleet.StateSucceeded {
		t.Fatalf("rollout ended %s: %s", r.State, r.Message)
	}
	slices.Sort(r.Members)
	if want := []string{"edge-eu-clinic-1", "edge-eu-clinic-2"}; !slices.Equal(r.Members, want) {
		t.Fatalf("members %v, want %v", r.Members, want)
	}

	back := env.RunAgent(t, "edge-eu-clinic-3", fleettest.AgentOptions{Labels: target, DataDir: offline.DataDir()})
	fleettest.Eventually(t, "returning edge catches up", func() bool { m, _ := back.Model(role); return m.Version == "2.0.0" })
	joined := env.RunAgent(t, "edge-eu-clinic-4", fleettest.AgentOptions{Labels: map[string]string{"region": "eu", "tier": "clinic", "floor": "2"}})
	fleettest.Eventually(t, "new edge with the labels gets the version", func() bool { m, _ := joined.Model(role); return m.Version == "2.0.0" })
	// The rest never matched: one old and one new edge on 2.0.0 must not have pulled them along.
	fleettest.Eventually(t, "4 edges on 2.0.0, 3 on 1.0.0", func() bool {
		s := skew(t, env)
		return s["2.0.0"] == 4 && s["1.0.0"] == 3
	})
	for _, id := range []string{"edge-eu-bank", "edge-us-clinic", "edge-eu-only"} {
		if m, _ := agents[id].Model(role); m.Version != "1.0.0" {
			t.Errorf("%s (labels %v) runs %s, want 1.0.0", id, labels[id], m.Version)
		}
	}

	// The operator's rollback reaches the selector's edges through the same key, offline or not.
	if _, err := fleet.Rollback(context.Background(), env.JS, env.Cfg, role, env.Key); err != nil {
		t.Fatal(err)
	}
	fleettest.Eventually(t, "everyone back on 1.0.0", func() bool { return skew(t, env)["1.0.0"] == len(labels)+1 })
}
