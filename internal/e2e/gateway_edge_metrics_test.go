package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
)

// The gateway exports one set of link series per connected edge, labelled with the edge id of
// its certificate, and none once the edge is gone.
func TestGatewayExportsPerEdgeLinkSeries(t *testing.T) {
	target := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(target.Close)
	dir := newPKI(t)
	tlsConf, err := pki.ServerTLS(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	srv, err := gateway.New(gateway.Config{Target: openaicompat.New(target.URL, "")}, tlsConf, reg, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	gwAddr := serveGateway(t, srv, "127.0.0.1:0").addr

	series := func() map[string]*dto.Metric {
		t.Helper()
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]*dto.Metric{}
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "edge" {
						out[mf.GetName()+"/"+l.GetValue()] = m
					}
				}
			}
		}
		return out
	}

	cfg := agent.DefaultConfig()
	cfg.Listen, cfg.EdgeID, cfg.DC, cfg.DCServerName, cfg.PKI = "127.0.0.1:0", edgeID, gwAddr, "localhost", dir
	a, err := agent.New(cfg, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Listen(); err != nil {
		t.Fatal(err)
	}
	agentCtx, stopAgent := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- a.Run(agentCtx) }()
	t.Cleanup(func() { stopAgent(); <-ran })
	waitLink(t, a)
	// The edge counts its link up when the QUIC handshake ends; the gateway registers the edge
	// when it has read its hello on the control stream, a moment later.
	got := series()
	for deadline := time.Now().Add(10 * time.Second); len(got) < 5 && time.Now().Before(deadline); got = series() {
		time.Sleep(20 * time.Millisecond)
	}
	for _, name := range []string{"sucursal_gateway_edge_connected", "sucursal_gateway_edge_rtt_seconds",
		"sucursal_gateway_edge_sent_bytes_total", "sucursal_gateway_edge_received_bytes_total", "sucursal_gateway_edge_packets_lost"} {
		if got[name+"/"+edgeID] == nil {
			t.Errorf("no %s{edge=%q} while the edge is connected; have %v", name, edgeID, keys(got))
		}
	}
	if m := got["sucursal_gateway_edge_connected/"+edgeID]; m != nil && m.GetGauge().GetValue() != 1 {
		t.Errorf("edge_connected = %v, want 1", m.GetGauge().GetValue())
	}
	if m := got["sucursal_gateway_edge_received_bytes_total/"+edgeID]; m != nil && m.GetCounter().GetValue() == 0 {
		t.Error("no bytes received from a connected edge (its hello at least)")
	}
	if len(got) != 5 {
		t.Errorf("%d per-edge series for one edge, want 5: %v", len(got), keys(got))
	}
	stopAgent()
	if err := <-ran; err != nil {
		t.Errorf("agent run: %v", err)
	}
	ran <- nil // for the cleanup
	deadline := time.Now().Add(10 * time.Second)
	for len(series()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("per-edge series left after the edge went away: %v", keys(series()))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
