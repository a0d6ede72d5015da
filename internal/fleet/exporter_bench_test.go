package fleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

// BenchmarkExporterScrape is one scrape of the fleet exporter over n edges' last-known records
// (each with two roles and an SLO summary), read from a real embedded NATS: what a Prometheus
// scrape of the controller costs as the fleet grows.
func BenchmarkExporterScrape(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("edges=%d", n), func(b *testing.B) {
			env := fleettest.Start(b)
			ctx := context.Background()
			kv, err := env.JS.KeyValue(ctx, env.Cfg.Buckets.Edges)
			if err != nil {
				b.Fatal(err)
			}
			now := time.Now().UTC()
			for i := range n {
				id := fmt.Sprintf("edge-%04d", i)
				rec := fleet.LastKnown{Heard: now, FirstHeard: now, Revision: uint64(i + 1), Status: fleetapi.EdgeStatus{
					EdgeID: id, Labels: map[string]string{"site": fmt.Sprintf("site-%03d", i%300)}, Seen: now,
					Roles: map[string]fleetapi.RoleStatus{
						"drafter": {Version: "1.0.0", State: fleetapi.StateIdle, Health: fleetapi.Health{Requests: 100}},
						"target":  {Version: "2.0.0", State: fleetapi.StateIdle},
					},
					Usage: &fleetapi.Usage{WindowSeconds: 300, Requests: 50, TTFT: fleetapi.Latency{P50Ms: 200, P95Ms: 800, Samples: 50}},
				}}
				data, _ := json.Marshal(rec)
				if _, err := kv.Put(ctx, fleetapi.StatusKey(id), data); err != nil {
					b.Fatal(err)
				}
			}
			reg := prometheus.NewRegistry()
			reg.MustRegister(fleet.NewExporter(env.JS, env.Cfg, fleet.Thresholds{}, nil, nil))
			series := 0
			b.ResetTimer()
			for b.Loop() {
				mfs, err := reg.Gather()
				if err != nil {
					b.Fatal(err)
				}
				series = 0
				for _, mf := range mfs {
					series += len(mf.GetMetric())
				}
			}
			b.ReportMetric(float64(series), "series")
		})
	}
}
