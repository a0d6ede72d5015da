package fleet_test

import (
	"context"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
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
