package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/trust"
	"github.com/sucursal/sucursal/internal/wire"
)

// trustGateway is a real dc-gateway (QUIC on loopback) enforcing the trust list from a store.
type trustGateway struct {
	addr  string
	store *trust.Store
	gate  *trust.Gate
	reg   *prometheus.Registry
}

func startTrustGateway(t *testing.T, pkiDir, cache string, js jetstream.JetStream) *trustGateway {
	t.Helper()
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	ca, err := pki.LoadCACert(pkiDir)
	if err != nil {
		t.Fatal(err)
	}
	store := trust.NewStore(ca, cache)
	if _, err := store.LoadCache(); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	gate := trust.NewGate(store, reg, log)
	tlsConf, err := gate.TLS(pkiDir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := gateway.New(gateway.Config{Target: openaicompat.New("http://127.0.0.1:1/v1", ""), Admission: gate}, tlsConf, reg, log)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { _ = srv.Serve(ctx, ln); done <- struct{}{} }()
	if js != nil {
		go func() { _ = trust.Watch(ctx, js, trust.DefaultBucket, store, log); done <- struct{}{} }()
	} else {
		done <- struct{}{}
	}
	t.Cleanup(func() { cancel(); ln.Close(); <-done; <-done })
	return &trustGateway{addr: ln.Addr().String(), store: store, gate: gate, reg: reg}
}

// dialEdge connects as edge id and says hello. It returns the live connection, or the error that
// ended the handshake or the hello.
func dialEdge(ctx context.Context, t *testing.T, pkiDir, id, addr string) (*quic.Conn, error) {
	t.Helper()
	conf, err := pki.ClientTLS(pkiDir, id)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, addr, conf, &quic.Config{MaxIdleTimeout: 5 * time.Second})
	if err != nil {
		return nil, err
	}
	str, err := conn.OpenStreamSync(ctx)
	if err == nil {
		err = wire.WriteJSON(str, wire.TypeHello, wire.Hello{Version: wire.Version, EdgeID: id})
	}
	if err == nil {
		var f wire.Frame
		if f, err = wire.NewReader(str).Read(); err == nil && f.Type != wire.TypeHelloAck {
			err = errors.New("no hello ack")
		}
	}
	if err != nil {
		conn.CloseWithError(0, "")
		return nil, err
	}
	return conn, nil
}

func refusedCount(g *trustGateway, reason string) float64 {
	return counter(g.reg, "sucursal_gateway_handshake_refused_total", reason)
}

// counter reads a counter from the registry, the one with label reason=reason if reason is set.
func counter(reg *prometheus.Registry, name, reason string) float64 {
	mfs, err := reg.Gather()
	if err != nil {
		return -1
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if reason == "" {
				return m.GetCounter().GetValue()
			}
			for _, l := range m.GetLabel() {
				if l.GetName() == "reason" && l.GetValue() == reason {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

// TestGatewayEnforcesEnrolmentAndRevocation runs the operator's commands against a real embedded
// NATS and a real gateway over QUIC: an enrolled edge connects, a certificate of the fleet CA that
// was never enrolled is refused at the handshake, a clone of a connected edge replaces it (and is
// counted), 'fleetctl pki revoke' closes the live connection and refuses the next handshake, and
// a gateway restarted with NATS gone starts from its file and still refuses the revoked edge.
func TestGatewayEnforcesEnrolmentAndRevocation(t *testing.T) {
	clearTwins(t)
	dir := filepath.Join(t.TempDir(), "pki")
	if _, err := run(t, "pki", "init", "--dir", dir, "--edge", "nuc-a,nuc-b"); err != nil {
		t.Fatal(err)
	}
	// A certificate the fleet CA signed but nobody enrolled (issued around fleetctl).
	if _, err := pki.AddEdges(dir, []string{"nuc-ghost"}, 0, nil); err != nil {
		t.Fatal(err)
	}
	hub, err := fleet.StartHub(fleet.HubConfig{StoreDir: t.TempDir(), Listen: "127.0.0.1:-1"})
	if err != nil {
		t.Fatalf("embedded nats-server: %v", err)
	}
	defer hub.Shutdown()
	if out, err := run(t, "pki", "publish", "--dir", dir, "--nats", hub.URL()); err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	nc, err := nats.Connect(hub.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(t.TempDir(), "trust-cache.json")
	g := startTrustGateway(t, dir, cache, js)
	waitFor(t, "first list from NATS", 5*time.Second, func() bool { return g.store.Current() != nil })
	ctx := context.Background()

	a, err := dialEdge(ctx, t, dir, "nuc-a", g.addr)
	if err != nil {
		t.Fatalf("enrolled edge refused: %v", err)
	}
	if _, err := dialEdge(ctx, t, dir, "nuc-ghost", g.addr); err == nil {
		t.Fatal("an unenrolled certificate of the fleet CA got a connection")
	}
	if got := refusedCount(g, pki.ReasonUnenrolled); got != 1 {
		t.Fatalf("unenrolled refusals counted %v, want 1", got)
	}

	// A clone: the same certificate from a second place. The newer connection replaces the first.
	clone, err := dialEdge(ctx, t, dir, "nuc-a", g.addr)
	if err != nil {
		t.Fatalf("second connection of nuc-a: %v", err)
	}
	select {
	case <-a.Context().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first connection of nuc-a stayed open beside its clone")
	}
	var appErr *quic.ApplicationError
	if err := context.Cause(a.Context()); !errors.As(err, &appErr) || appErr.ErrorCode != wire.CodeIdentity || !strings.Contains(appErr.ErrorMessage, "replaced") {
		t.Fatalf("first connection closed with %v, want CodeIdentity 'replaced'", err)
	}
	if got := counter(g.reg, "sucursal_gateway_duplicate_edge_connections_total", ""); got != 1 {
		t.Fatalf("duplicate connections counted %v, want 1", got)
	}

	// Revoke nuc-a with the operator's command while its (clone's) connection is live.
	start := time.Now()
	if out, err := run(t, "pki", "revoke", "--dir", dir, "--nats", hub.URL(), "--reason", "stolen", "nuc-a"); err != nil {
		t.Fatalf("revoke: %v\n%s", err, out)
	}
	select {
	case <-clone.Context().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the live connection of a revoked edge stayed open")
	}
	closed := time.Since(start)
	var refusedAfter time.Duration
	for {
		if _, err := dialEdge(ctx, t, dir, "nuc-a", g.addr); err != nil {
			refusedAfter = time.Since(start)
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("revoked edge still admitted 5 s after fleetctl pki revoke")
		}
	}
	if got := refusedCount(g, pki.ReasonRevoked); got < 1 {
		t.Fatalf("revoked refusals counted %v", got)
	}
	t.Logf("fleetctl pki revoke → live connection closed in %s, next handshake refused %s after the command started", closed.Round(time.Millisecond), refusedAfter.Round(time.Millisecond))
	if _, err := dialEdge(ctx, t, dir, "nuc-b", g.addr); err != nil {
		t.Fatalf("an enrolled edge is refused after another was revoked: %v", err)
	}
	out, err := run(t, "pki", "list", "--dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"nuc-a", "revoked", "stolen", "nuc-b", "enrolled", "edges/nuc-ghost.crt is not enrolled"} {
		if !strings.Contains(out, want) {
			t.Fatalf("pki list lacks %q:\n%s", want, out)
		}
	}

	// NATS gone: a restarted gateway starts from the list it kept on disk.
	hub.Shutdown()
	g2 := startTrustGateway(t, dir, cache, nil)
	if l := g2.store.Current(); l == nil || l.Find("nuc-a") != nil {
		t.Fatalf("restarted gateway's list: %+v", l)
	}
	if _, err := dialEdge(ctx, t, dir, "nuc-a", g2.addr); err == nil {
		t.Fatal("revoked edge admitted by a gateway restarted without NATS")
	}
	if _, err := dialEdge(ctx, t, dir, "nuc-b", g2.addr); err != nil {
		t.Fatalf("enrolled edge refused by a gateway restarted without NATS: %v", err)
	}
}

// TestRenewAfterRevokeRotatesTheNATSSeed: a replacement NUC for a revoked id gets a new
// certificate and a new NATS seed (the old seed may be on the stolen one); a plain renewal keeps
// the seed, so the edge keeps its NATS access while its new certificate is copied.
func TestRenewAfterRevokeRotatesTheNATSSeed(t *testing.T) {
	clearTwins(t)
	dir := filepath.Join(t.TempDir(), "pki")
	if _, err := run(t, "pki", "init", "--dir", dir, "--edge", "nuc-a,nuc-b"); err != nil {
		t.Fatal(err)
	}
	seed := func(id string) string { return readFile(t, fleet.EdgeSeedPath(dir, id)) }
	a, b := seed("nuc-a"), seed("nuc-b")
	if out, err := run(t, "pki", "renew", "--dir", dir, "nuc-a"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if seed("nuc-a") != a {
		t.Fatal("a plain renewal replaced the edge's NATS seed")
	}
	for _, args := range [][]string{{"pki", "revoke", "--dir", dir, "--reason", "stolen", "nuc-b"}, {"pki", "renew", "--dir", dir, "nuc-b"}} {
		if out, err := run(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	if seed("nuc-b") == b {
		t.Fatal("the replacement for a revoked edge kept the old NATS seed")
	}
	out, err := run(t, "pki", "list", "--dir", dir)
	if err != nil || !strings.Contains(out, "nuc-b  enrolled") || !strings.Contains(out, "stolen") {
		t.Fatalf("pki list after revoke+renew: %v\n%s", err, out)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
