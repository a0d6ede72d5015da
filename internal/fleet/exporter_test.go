package fleet_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

// value finds the sample of name whose labels include want; ok is false when there is none.
func value(t *testing.T, reg prometheus.Gatherer, name string, want map[string]string) (float64, bool) {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	metrics:
		for _, m := range mf.GetMetric() {
			got := map[string]string{}
			for _, lp := range m.GetLabel() {
				got[lp.GetName()] = lp.GetValue()
			}
			for k, v := range want {
				if got[k] != v {
					continue metrics
				}
			}
			return sampleValue(m), true
		}
	}
	return 0, false
}

func sampleValue(m *dto.Metric) float64 {
	switch {
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Counter != nil:
		return m.Counter.GetValue()
	}
	return 0
}

// One scrape of the controller covers the fleet: per-edge state (a killed edge turns OFFLINE and
// keeps its version series), per-role versions and skew, the rollout, and the controller's lease;
// the output passes the Prometheus linter.
func TestExporterCoversTheFleet(t *testing.T) {
	env := fleettest.Start(t)
	ctx := context.Background()
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: env.Publish(t, role, "1.0.0", fleettest.Artifact(1, 1000))})
	env.Publish(t, role, "1.1.0", fleettest.Artifact(2, 1000))
	env.RunAgent(t, "edge-a", fleettest.AgentOptions{Labels: map[string]string{"site": "madrid-01"}, Health: usageHealth{}})
	b := env.RunAgent(t, "edge-b", fleettest.AgentOptions{})

	reg := prometheus.NewRegistry()
	c, err := fleet.NewController(env.JS, fleet.ControllerConfig{Fleet: env.Cfg, ID: "ctl-x", LeaseTTL: 900 * time.Millisecond,
		Metrics: reg, States: fleet.Thresholds{Stale: 500 * time.Millisecond, Offline: time.Second}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.Run(cctx) }()
	t.Cleanup(func() { cancel(); <-done })

	fleettest.Eventually(t, "both edges ONLINE on 1.0.0 in the exporter", func() bool {
		up, _ := value(t, reg, "sucursal_fleet_edges", map[string]string{"state": fleet.EdgeOnline})
		v, _ := value(t, reg, "sucursal_fleet_role_version_edges", map[string]string{"role": role, "version": "1.0.0"})
		return up == 2 && v == 2
	})
	if v, ok := value(t, reg, "sucursal_fleet_edge_up", map[string]string{"edge": "edge-a", "site": "madrid-01"}); !ok || v != 1 {
		t.Errorf("edge-a up = %v (found %v) with its site label", v, ok)
	}
	// The SLO summary of the heartbeat, for the edge that sends one.
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"sucursal_fleet_edge_window_ttft_p95_seconds", map[string]string{"edge": "edge-a", "site": "madrid-01"}, 0.8},
		{"sucursal_fleet_edge_window_ttft_p50_seconds", map[string]string{"edge": "edge-a"}, 0.2},
		{"sucursal_fleet_edge_window_ttft_samples", map[string]string{"edge": "edge-a"}, 40},
		{"sucursal_fleet_edge_window_inter_token_p95_seconds", map[string]string{"edge": "edge-a"}, 0.05},
		{"sucursal_fleet_edge_window_error_ratio", map[string]string{"edge": "edge-a"}, 0.1},
		{"sucursal_fleet_edge_window_refusals", map[string]string{"edge": "edge-a", "status": "503"}, 7},
		{"sucursal_fleet_edge_window_redaction_timeouts", map[string]string{"edge": "edge-a"}, 2},
		{"sucursal_fleet_edge_window_tokens_mean", map[string]string{"edge": "edge-a", "direction": "output"}, 120},
		{"sucursal_fleet_edge_window_draft_acceptance_ratio", map[string]string{"edge": "edge-a"}, 0.75},
	} {
		if v, ok := value(t, reg, c.name, c.labels); !ok || v != c.want {
			t.Errorf("%s%v = %v (found %v), want %v", c.name, c.labels, v, ok, c.want)
		}
	}
	if _, ok := value(t, reg, "sucursal_fleet_edge_window_requests", map[string]string{"edge": "edge-b"}); ok {
		t.Errorf("an edge without a summary exports one")
	}
	if v, ok := value(t, reg, "sucursal_fleet_controller_leader", nil); !ok || v != 1 {
		t.Errorf("controller_leader = %v, %v", v, ok)
	}

	b.Stop(t)
	fleettest.Eventually(t, "edge-b OFFLINE in the exporter", func() bool {
		v, _ := value(t, reg, "sucursal_fleet_edge_state", map[string]string{"edge": "edge-b", "state": fleet.EdgeOffline})
		return v == 1
	})
	if v, ok := value(t, reg, "sucursal_fleet_edge_role_info", map[string]string{"edge": "edge-b", "role": role, "version": "1.0.0"}); !ok || v != 1 {
		t.Errorf("the dead edge lost its version series: %v %v", v, ok)
	}
	if v, _ := value(t, reg, "sucursal_fleet_edge_up", map[string]string{"edge": "edge-b"}); v != 0 {
		t.Errorf("a dead edge is up")
	}
	if age, _ := value(t, reg, "sucursal_fleet_edge_last_heard_age_seconds", map[string]string{"edge": "edge-b"}); age < 1 {
		t.Errorf("dead edge's heartbeat age %v s", age)
	}

	if _, err := fleet.StartRollout(ctx, env.JS, env.Cfg, fleet.StartRequest{Role: role, Version: "1.1.0", Waves: []float64{50, 100},
		Selector: map[string]string{"site": "madrid-01"}, Key: env.Key, WaveTimeout: time.Hour}); err != nil {
		t.Fatal(err)
	}
	fleettest.Eventually(t, "the rollout in the exporter", func() bool {
		v, _ := value(t, reg, "sucursal_fleet_rollout_state", map[string]string{"role": role, "version": "1.1.0", "state": fleet.StateRunning})
		s, _ := value(t, reg, "sucursal_fleet_rollout_state", map[string]string{"role": role, "state": fleet.StateSucceeded})
		return v == 1 || s == 1
	})
	if n, ok := value(t, reg, "sucursal_fleet_rollout_waves", map[string]string{"role": role}); !ok || n != 2 {
		t.Errorf("rollout_waves = %v", n)
	}

	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "sucursal_") {
			t.Errorf("lint: %s: %s", p.Metric, p.Text)
		}
	}
}

// usageHealth reports no per-role health and a fixed SLO summary.
type usageHealth struct{}

func (usageHealth) Health(string) fleetapi.Health { return fleetapi.Health{} }

func (usageHealth) Usage() fleetapi.Usage {
	return fleetapi.Usage{
		WindowSeconds: 300, Requests: 40, Errors: 4, ErrorRate: 0.1,
		TTFT:              fleetapi.Latency{P50Ms: 200, P95Ms: 800, Samples: 40},
		InterToken:        fleetapi.Latency{P50Ms: 20, P95Ms: 50, Samples: 900},
		RedactionTimeouts: 2, Refused503: 7,
		OutputTokens: fleetapi.Tokens{Mean: 120, Samples: 40},
		Drafting:     &fleetapi.Drafting{DraftedTokens: 400, AcceptedTokens: 300, Acceptance: 0.75},
	}
}
