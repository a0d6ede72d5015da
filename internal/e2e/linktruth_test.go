package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
)

// The link tells the truth (issue #15), on the released binaries: what an operator sees when a
// gateway is killed, restarted, or drained. The bounds below are generous (they catch a hang or
// the old 20 s idle-timeout wait, not a slow machine); the figures are in BenchmarkLinkChaos.

// TestKilledGatewayIsSeenAndHealed: kill -9 of the gateway ends the in-flight stream with an
// error, /readyz turns 503 with reason dc_link_down (without an address), and after a restart
// on the same address a request succeeds and /readyz is 200 again.
func TestKilledGatewayIsSeenAndHealed(t *testing.T) {
	agentBin, gatewayBin := releasedBinaries(t)
	pkiDir := newPKI(t)
	target := pacedTarget(t, 200, 50*time.Millisecond) // a 10 s answer
	gwAddr, gwMetrics, listen := freeAddr(t, "udp"), freeAddr(t, "tcp"), freeAddr(t, "tcp")
	gw := gatewayProc(t, gatewayBin, pkiDir, target, gwAddr, gwMetrics)
	agentProc(t, agentBin, pkiDir, listen, gwAddr)
	url := "http://" + listen
	waitHTTP(t, url+"/readyz", http.StatusOK, 30*time.Second)

	started := make(chan struct{})
	ended := make(chan streamOutcome, 1)
	go func() { ended <- streamChat(context.Background(), url, started) }()
	<-started
	gw.kill()

	select {
	case out := <-ended:
		if out.ok || !strings.HasPrefix(out.code, "stream:dc_connection_lost") {
			t.Fatalf("the in-flight stream on the killed gateway ended %+v, want a dc_connection_lost error event", out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the in-flight stream did not end after the gateway was killed")
	}
	waitHTTP(t, url+"/readyz", http.StatusServiceUnavailable, 10*time.Second)
	_, body := getStatus(url + "/readyz")
	var rz struct{ Status, DCLink, Reason string }
	_ = json.Unmarshal([]byte(body), &rz)
	if !strings.HasPrefix(rz.Reason, "dc_link_down") || strings.Contains(body, "127.0.0.1") || strings.Contains(body, gwAddr) {
		t.Fatalf("/readyz = %s, want reason dc_link_down and no address", body)
	}

	time.Sleep(2 * time.Second) // what systemd's restart looks like
	gatewayProc(t, gatewayBin, pkiDir, target, gwAddr, gwMetrics)
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok, why := quickChat(url)
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the branch does not serve 15 s after the gateway restarted (last: %s)", why)
		}
		time.Sleep(20 * time.Millisecond)
	}
	waitHTTP(t, url+"/readyz", http.StatusOK, 5*time.Second)
}

// TestDrainedStreamsAllComplete: SIGTERM to the primary gateway with 10 streams in flight; all 10
// complete, a request sent meanwhile is served by the secondary, and the primary exits once its
// streams are done.
func TestDrainedStreamsAllComplete(t *testing.T) {
	agentBin, gatewayBin := releasedBinaries(t)
	pkiDir := newPKI(t)
	const chunks = 80
	target := pacedTarget(t, chunks, 50*time.Millisecond) // 4 s answers: the drain outlasts a loaded machine's polling
	primary, secondary := freeAddr(t, "udp"), freeAddr(t, "udp")
	pm, sm, listen := freeAddr(t, "tcp"), freeAddr(t, "tcp"), freeAddr(t, "tcp")
	gw := gatewayProc(t, gatewayBin, pkiDir, target, primary, pm)
	gatewayProc(t, gatewayBin, pkiDir, target, secondary, sm)
	agentProc(t, agentBin, pkiDir, listen, primary, secondary)
	url := "http://" + listen
	waitHTTP(t, url+"/readyz", http.StatusOK, 30*time.Second)
	waitHTTP(t, "http://"+pm+"/readyz", http.StatusOK, 10*time.Second)
	// The edge is ready as soon as one link is up: the streams below must go to the primary, so
	// wait for its link too (on a busy machine the secondary's handshake can finish first, the
	// streams then go there, and the primary, with nothing to drain, exits at once).
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, body := getStatus(url + "/readyz"); strings.Contains(body, `"name":"dc-primary","ready":true`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the edge's link to the primary did not come up within 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}

	const n = 10
	outs := make([]streamOutcome, n)
	var wg sync.WaitGroup
	var first sync.WaitGroup
	for i := range n {
		wg.Add(1)
		first.Add(1)
		started := make(chan struct{})
		go func() {
			defer wg.Done()
			outs[i] = streamChat(context.Background(), url, started)
		}()
		go func() { <-started; first.Done() }()
	}
	first.Wait()
	gw.term()
	// The primary says it is draining while its streams finish.
	waitHTTP(t, "http://"+pm+"/readyz", http.StatusServiceUnavailable, 5*time.Second)
	// The edge took the goaway: the primary is not ready (draining), the branch is (the secondary).
	for deadline := time.Now().Add(5 * time.Second); ; {
		code, body := getStatus(url + "/readyz")
		if code == http.StatusOK && strings.Contains(body, `"reason":"dc_draining`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("edge /readyz during the drain: %d %s, want 200 with the primary dc_draining", code, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"paced","messages":[{"role":"user","content":"a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Sucursal-Backend") == "dc-primary" {
		t.Fatalf("a request during the drain got %d from %q, want 200 from the secondary", resp.StatusCode, resp.Header.Get("X-Sucursal-Backend"))
	}
	wg.Wait()
	for i, o := range outs {
		if !o.ok || o.chunks != chunks {
			t.Errorf("stream %d: %+v, want all %d chunks and [DONE]", i, o, chunks)
		}
	}
	if !gw.wait(10 * time.Second) {
		t.Fatal("the drained gateway did not exit once its streams were done")
	}
}

// TestDeadTargetKeepsTheLink: a gateway whose model server is down answers target_unreachable
// (503, Retry-After), the edge keeps the link up and its breaker closed, and the gateway's
// /readyz says target_unreachable (its /healthz stays liveness only).
func TestDeadTargetKeepsTheLink(t *testing.T) {
	pkiDir := newPKI(t)
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL + "/v1"
	dead.Close()
	srv, addr := startGatewayServer(t, pkiDir, deadURL, prometheus.NewRegistry())
	url, a := startAgent(t, pkiDir, addr)
	waitLink(t, a)

	for i := range 6 { // past the breaker's failure threshold
		resp, e := post(t, url, []byte(`{"model":"m","messages":[{"role":"user","content":"a"}]}`))
		if resp.StatusCode != http.StatusServiceUnavailable || deref(e.Error.Code) != "target_unreachable" || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("request %d: %d %s (Retry-After %q), want 503 target_unreachable with Retry-After", i, resp.StatusCode, deref(e.Error.Code), resp.Header.Get("Retry-After"))
		}
	}
	if ok, why := a.Link().Ready(); !ok {
		t.Fatalf("a dead target took the link down: %v", why)
	}
	code, body := getStatus(url + "/readyz")
	if code != http.StatusOK || !strings.Contains(body, `"breaker":"closed"`) || !strings.Contains(body, `"target":"unreachable"`) {
		t.Fatalf("edge /readyz = %d %s, want 200, the breaker closed and the target shown unreachable", code, body)
	}
	rec := httptest.NewRecorder()
	srv.ReadyHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"reason":"target_unreachable"`) {
		t.Fatalf("gateway /readyz = %d %s, want 503 target_unreachable", rec.Code, rec.Body.String())
	}
}

// TestEdgeCutStreamsAreNotUpstreamErrors: streams the edge abandons mid-answer (its client went
// away) are counted as cancelled or client_gone at the gateway, never as upstream_error.
func TestEdgeCutStreamsAreNotUpstreamErrors(t *testing.T) {
	pkiDir := newPKI(t)
	reg := prometheus.NewRegistry()
	_, addr := startGatewayServer(t, pkiDir, pacedTarget(t, 100, 20*time.Millisecond), reg)
	url, a := startAgent(t, pkiDir, addr, func(c *agent.Config) { c.SlowClientTimeout = 200 * time.Millisecond })
	waitLink(t, a)
	for range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		started := make(chan struct{})
		done := make(chan struct{})
		go func() { defer close(done); streamChat(ctx, url, started) }()
		<-started
		cancel()
		<-done
	}
	counts := map[string]float64{}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mfs, _ := reg.Gather()
		clear(counts)
		total := 0.0
		for _, mf := range mfs {
			if mf.GetName() != "sucursal_gateway_streams_total" {
				continue
			}
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "outcome" {
						counts[l.GetValue()] += m.GetCounter().GetValue()
						total += m.GetCounter().GetValue()
					}
				}
			}
		}
		if total >= 5 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if counts["upstream_error"] != 0 || counts["cancelled"]+counts["client_gone"] < 5 {
		t.Fatalf("gateway outcomes %v: cut streams must be cancelled or client_gone", counts)
	}
}

// startGatewayServer runs an in-process gateway and returns it with its address.
func startGatewayServer(t testing.TB, pkiDir, targetURL string, reg prometheus.Registerer) (*gateway.Server, string) {
	t.Helper()
	tlsConf, err := pki.ServerTLS(pkiDir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := gateway.New(gateway.Config{Target: openaicompat.New(targetURL, ""), TargetProbeInterval: 200 * time.Millisecond},
		tlsConf, reg, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	return srv, serveGateway(t, srv, "127.0.0.1:0").addr
}

// TestRequestRightAfterAFastRestartIsServed: a gateway killed and restarted before the edge
// notices resets the edge's old connection at its first packet — the stateless-reset key
// survives the restart — and a request that met the reset before the gateway acknowledged it is
// sent again on the new connection: the user gets an answer, not dc_connection_lost. (Slow pings
// and keepalives make the request the first packet after the restart, every time.)
func TestRequestRightAfterAFastRestartIsServed(t *testing.T) {
	agentBin, gatewayBin := releasedBinaries(t)
	pkiDir := newPKI(t)
	target := pacedTarget(t, 5, 10*time.Millisecond)
	gwAddr, gwMetrics, listen := freeAddr(t, "udp"), freeAddr(t, "tcp"), freeAddr(t, "tcp")
	gw := gatewayProc(t, gatewayBin, pkiDir, target, gwAddr, gwMetrics)
	agentProcWith(t, agentBin, "link: {ping_interval: 30s, ping_timeout: 60s, keepalive: 30s, idle_timeout: 90s}\n",
		pkiDir, listen, gwAddr)
	url := "http://" + listen
	waitHTTP(t, url+"/readyz", http.StatusOK, 30*time.Second)
	for i := range 3 {
		time.Sleep(time.Second) // the last exchange fully acknowledged: no retransmission meets the new gateway first
		gw.kill()
		gw = gatewayProc(t, gatewayBin, pkiDir, target, gwAddr, gwMetrics)
		waitHTTP(t, "http://"+gwMetrics+"/healthz", http.StatusOK, 10*time.Second)
		if ok, why := quickChat(url); !ok {
			t.Fatalf("restart %d: the first request after a fast restart got %s", i, why)
		}
	}
}
