package fleet_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

// TestMoreThanAThousandEdgesWatch: every edge holds one watch (an ordered consumer) on the
// desired-state bucket; nats-server caps a stream without a limit of its own at 1 000
// consumers, so without Init's own cap edge 1 001 never gets its desired state.
func TestMoreThanAThousandEdgesWatch(t *testing.T) {
	env := fleettest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	kv, err := env.JS.KeyValue(ctx, env.Cfg.Buckets.Desired)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1010 {
		w, err := kv.WatchFiltered(ctx, fleetapi.DesiredFilters(fmt.Sprintf("nuc-%04d", i)))
		if err != nil {
			t.Fatalf("watch of edge %d: %v", i+1, err)
		}
		defer func() { _ = w.Stop() }()
	}
}
