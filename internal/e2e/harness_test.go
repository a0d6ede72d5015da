package e2e

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	proxy "github.com/quic-go/quic-go/integrationtests/tools/proxy"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/testmodel"
)

const edgeID = "branch-test-01"

// testLogger discards logs unless SUCURSAL_TEST_LOGS is set.
func testLogger() *slog.Logger {
	if os.Getenv("SUCURSAL_TEST_LOGS") != "" {
		return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewJSONHandler(io.Discard, nil))
}

// newPKI writes a fleet PKI with the test edge into a temp dir.
func newPKI(t testing.TB, edges ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pki")
	if len(edges) == 0 {
		edges = []string{edgeID}
	}
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: edges}); err != nil {
		t.Fatalf("pki init: %v", err)
	}
	return dir
}

// startOllama starts a real Ollama with the alphabet model as "tiny".

func startOllama(t testing.TB, opts ...ollamatest.Option) *ollamatest.Server {
	t.Helper()
	o := ollamatest.Start(t, opts...)
	o.CreateModel(t, "tiny", testmodel.Alphabet(), testmodel.PromptTemplate)
	return o
}

// gw is an in-process dc-gateway.
type gw struct {
	addr string
	stop func() // idempotent
}

// startGateway runs a dc-gateway in-process for the given target base URL on addr ("" = any
// loopback port); it stops at cleanup at the latest.
func startGateway(t testing.TB, pkiDir, targetURL string) string {
	return startGatewayAt(t, pkiDir, targetURL, "127.0.0.1:0").addr
}

func startGatewayAt(t testing.TB, pkiDir, targetURL, addr string) *gw {
	t.Helper()
	tlsConf, err := pki.ServerTLS(pkiDir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := gateway.New(gateway.Config{Target: openaicompat.New(targetURL, "")}, tlsConf, prometheus.NewRegistry(), testLogger())
	if err != nil {
		t.Fatal(err)
	}
	return serveGateway(t, srv, addr)
}

// serveGateway runs srv on addr ("127.0.0.1:0": any loopback port) until stop or the test's end.
func serveGateway(t testing.TB, srv *gateway.Server, addr string) *gw {
	t.Helper()
	ln, err := srv.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ctx, ln)
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			// A stop that does not drain: edges get a CONNECTION_CLOSE (the gateway's Abort), then
			// the socket goes. Closing the socket alone would look like a black hole to them.
			cancel()
			srv.Abort()
			ln.Close()
			<-done
		})
	}
	t.Cleanup(stop)
	return &gw{addr: ln.Addr().String(), stop: stop}
}

// startWAN puts a UDP proxy that delays every packet by rtt/2 in each direction in front of addr.
func startWAN(t testing.TB, addr string, rtt time.Duration) string {
	t.Helper()
	if rtt == 0 {
		return addr
	}
	proxied, _ := startUDPProxy(t, addr, rtt)
	return proxied
}

// startBlackhole puts a UDP proxy in front of addr that drops every packet while *drop is true:
// a gateway that died without closing its connections, or a cut WAN link.
func startBlackhole(t testing.TB, addr string) (string, *atomic.Bool) {
	return startUDPProxy(t, addr, 0)
}

// startUDPProxy runs quic-go's test proxy in front of addr: every packet is delayed by rtt/2 each
// way, and dropped while the returned flag is set.
func startUDPProxy(t testing.TB, addr string, rtt time.Duration) (string, *atomic.Bool) {
	t.Helper()
	server, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	drop := &atomic.Bool{}
	p := &proxy.Proxy{
		Conn:        conn,
		ServerAddr:  server,
		DelayPacket: func(proxy.Direction, net.Addr, net.Addr, []byte) time.Duration { return rtt / 2 },
		DropPacket:  func(proxy.Direction, net.Addr, net.Addr, []byte) bool { return drop.Load() },
	}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p.LocalAddr().String(), drop
}

type agentOpt func(*agent.Config)

// startAgent runs an edge-agent in-process and returns its base URL (http://host:port).
func startAgent(t testing.TB, pkiDir, dcAddr string, opts ...agentOpt) (string, *agent.Agent) {
	t.Helper()
	cfg := agent.DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.EdgeID = edgeID
	cfg.DC = dcAddr
	cfg.DCServerName = "localhost"
	cfg.PKI = pkiDir
	cfg.ShutdownGrace = 2 * time.Second
	for _, o := range opts {
		o(&cfg)
	}
	a, err := agent.New(cfg, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("agent run: %v", err)
		}
	})
	return "http://" + a.Addr(), a
}

// waitLink waits until the agent's QUIC link is up.
func waitLink(t testing.TB, a *agent.Agent) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.Link().WaitReady(ctx); err != nil {
		_, why := a.Link().Ready()
		t.Fatalf("the link did not come up: %v (last: %v)", err, why)
	}
}

// stack is a whole edge→DC→Ollama path.
type stack struct {
	ollama  *ollamatest.Server
	pki     string
	gateway string
	agent   *agent.Agent
	url     string
}

func newStack(t testing.TB, o *ollamatest.Server, rtt time.Duration) *stack {
	t.Helper()
	s := &stack{ollama: o, pki: newPKI(t)}
	s.gateway = startGateway(t, s.pki, o.URL+"/v1")
	s.url, s.agent = startAgent(t, s.pki, startWAN(t, s.gateway, rtt))
	waitLink(t, s.agent)
	return s
}

func httpClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
}
