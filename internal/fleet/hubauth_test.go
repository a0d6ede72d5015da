package fleet_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/sync"
	"github.com/sucursal/sucursal/internal/trust"
)

func TestHubWithoutCredentialsRefusesToListenBeyondLoopback(t *testing.T) {
	for _, listen := range []string{"0.0.0.0:-1", ":-1", "[::]:-1", "192.0.2.1:-1"} {
		_, err := fleet.StartHub(fleet.HubConfig{StoreDir: t.TempDir(), Listen: listen})
		if !errors.Is(err, fleet.ErrInsecureHub) {
			t.Fatalf("StartHub(%s) without credentials: %v, want ErrInsecureHub", listen, err)
		}
	}
	for _, host := range []string{"127.0.0.1", "127.3.2.1", "::1", "localhost"} {
		if !fleet.IsLoopback(host) {
			t.Fatalf("%s is loopback", host)
		}
	}
}

// securedHub starts a hub with credentials from a fresh PKI: edges nuc-a (enrolled) and nuc-x
// (a certificate and seed, but not enrolled).
func securedHub(t *testing.T) (string, string) {
	dir, hub, _ := securedHubJS(t)
	return dir, hub.URL()
}

func securedHubJS(t *testing.T) (string, *fleet.Hub, jetstream.JetStream) {
	t.Helper()
	dir := t.TempDir()
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: []string{"nuc-a", "nuc-x"}}); err != nil {
		t.Fatal(err)
	}
	ca, err := pki.LoadCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	var l trust.List
	cert, _ := pki.ReadEdgeCert(dir, "nuc-a")
	if err := l.Enrol(cert, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	data, err := l.Seal(ca, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := trust.WriteFile(filepath.Join(dir, trust.FileName), data); err != nil {
		t.Fatal(err)
	}
	if _, err := pki.EnsureHubCert(dir, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := fleet.EnsureCredentials(dir, []string{"nuc-a", "nuc-x"}); err != nil {
		t.Fatal(err)
	}
	auth, err := fleet.LoadHubAuth(dir, fleetapi.Buckets{}, "")
	if err != nil {
		t.Fatal(err)
	}
	hub, err := fleet.StartHub(fleet.HubConfig{StoreDir: t.TempDir(), Listen: "127.0.0.1:-1", Auth: auth})
	if err != nil {
		t.Fatalf("embedded nats-server with credentials: %v", err)
	}
	t.Cleanup(hub.Shutdown)
	nc, err := hub.Connect("controller")
	if err != nil {
		t.Fatalf("the hub's own (controller) connection: %v", err)
	}
	t.Cleanup(nc.Close)
	js := clientOn(t, nc)
	ctx := context.Background()
	if err := fleet.Init(ctx, js, fleet.Config{}); err != nil {
		t.Fatal(err)
	}
	if _, err := trust.EnsureBucket(ctx, js, "", 1); err != nil {
		t.Fatal(err)
	}
	return dir, hub, js
}

func connectAs(url, seed, caFile, inbox string) (*nats.Conn, error) {
	opts := []nats.Option{nats.Timeout(2 * time.Second), nats.NoReconnect(),
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {})} // denials are asserted, not printed
	if seed != "" {
		o, err := nats.NkeyOptionFromSeed(seed)
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	}
	if caFile != "" {
		opts = append(opts, nats.RootCAs(caFile))
	}
	if inbox != "" {
		opts = append(opts, nats.CustomInboxPrefix(inbox))
	}
	return nats.Connect(url, opts...)
}

// TestSecuredHubEnforcesCredentials: on a hub started with credentials, an anonymous client (with
// or without TLS) is refused, an unenrolled edge has no user, an edge may write its own status and
// nothing else (not another edge's status, not the desired state, not the trust list), a gateway
// may read the trust list but not write it, and an operator may publish it.
func TestSecuredHubEnforcesCredentials(t *testing.T) {
	dir, url := securedHub(t)
	ca := filepath.Join(dir, pki.CACertFile)
	plain := strings.Replace(url, "tls://", "nats://", 1)
	for _, c := range []struct{ name, url, seed, ca string }{
		{"anonymous over TLS", url, "", ca},
		{"anonymous without TLS", plain, "", ""},
		{"edge seed without TLS", plain, fleet.EdgeSeedPath(dir, "nuc-a"), ""},
		{"unenrolled edge", url, fleet.EdgeSeedPath(dir, "nuc-x"), ca},
	} {
		if nc, err := connectAs(c.url, c.seed, c.ca, ""); err == nil {
			nc.Close()
			t.Fatalf("%s: connected", c.name)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	edge, err := connectAs(url, fleet.EdgeSeedPath(dir, "nuc-a"), ca, fleetapi.InboxPrefix("nuc-a"))
	if err != nil {
		t.Fatalf("enrolled edge with its seed: %v", err)
	}
	defer edge.Close()
	js := clientOn(t, edge)
	b := fleet.Config{}.WithDefaults().Buckets
	status, err := js.KeyValue(ctx, b.Status)
	if err != nil {
		t.Fatalf("edge opens the status bucket: %v", err)
	}
	if _, err := status.Put(ctx, fleetapi.StatusKey("nuc-a"), []byte(`{"edge_id":"nuc-a"}`)); err != nil {
		t.Fatalf("edge writes its own status: %v", err)
	}
	denied := func(what string, fn func(ctx context.Context) error) {
		t.Helper()
		c, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer cancel()
		if err := fn(c); err == nil {
			t.Fatalf("edge may %s", what)
		}
	}
	denied("write another edge's status (fake edges in fleetctl status)", func(c context.Context) error {
		_, err := status.Put(c, fleetapi.StatusKey("nuc-fake"), []byte(`{"edge_id":"nuc-fake"}`))
		return err
	})
	denied("open the trust bucket", func(c context.Context) error { _, err := js.KeyValue(c, trust.DefaultBucket); return err })
	denied("write the desired state", func(c context.Context) error {
		_, err := js.Publish(c, "$KV."+b.Desired+".role.drafter", []byte("x"))
		return err
	})
	// A denied publish is dropped by the server; make sure it did not land.
	ctl, err := connectAs(url, filepath.Join(dir, fleet.OperatorSeedFile), ca, "")
	if err != nil {
		t.Fatalf("operator: %v", err)
	}
	defer ctl.Close()
	ojs := clientOn(t, ctl)
	desired, err := ojs.KeyValue(ctx, b.Desired)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := desired.Get(ctx, "role.drafter"); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("the edge's write to the desired state landed: %v", err)
	}
	if err := trust.Publish(ctx, ojs, "", []byte("signed list")); err != nil {
		t.Fatalf("operator publishes the trust list: %v", err)
	}

	gw, err := connectAs(url, filepath.Join(dir, fleet.GatewaySeedFile), ca, fleet.GatewayInboxPrefix)
	if err != nil {
		t.Fatalf("gateway: %v", err)
	}
	defer gw.Close()
	gjs := clientOn(t, gw)
	tkv, err := gjs.KeyValue(ctx, trust.DefaultBucket)
	if err != nil {
		t.Fatalf("gateway opens the trust bucket: %v", err)
	}
	w, err := tkv.Watch(ctx, trust.Key)
	if err != nil {
		t.Fatalf("gateway watches the trust list: %v", err)
	}
	defer w.Stop() //nolint:errcheck
	select {
	case e := <-w.Updates():
		if e == nil || string(e.Value()) != "signed list" {
			t.Fatalf("gateway read %v", e)
		}
	case <-ctx.Done():
		t.Fatal("gateway saw no trust list")
	}
	c2, cancel2 := context.WithTimeout(ctx, 1500*time.Millisecond)
	defer cancel2()
	if _, err := tkv.Put(c2, trust.Key, []byte("forged")); err == nil {
		t.Fatal("gateway may write the trust list")
	}
}

// TestEdgeAgentSyncsOnSecuredHub: a real edge agent with its seed and the fleet CA reports its
// status through a hub with credentials.
func TestEdgeAgentSyncsOnSecuredHub(t *testing.T) {
	dir, url := securedHub(t)
	key, err := manifest.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	a, err := sync.NewAgent(sync.AgentConfig{
		NATSURL: url, NKeySeedFile: fleet.EdgeSeedPath(dir, "nuc-a"), NATSCAFile: filepath.Join(dir, pki.CACertFile),
		EdgeID: "nuc-a", DataDir: t.TempDir(), Heartbeat: 200 * time.Millisecond,
	}, sync.AgentDeps{Trust: manifest.NewTrust(key.Public().(ed25519.PublicKey))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	defer func() { cancel(); <-done }()

	op, err := connectAs(url, filepath.Join(dir, fleet.OperatorSeedFile), filepath.Join(dir, pki.CACertFile), "")
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	kv, err := clientOn(t, op).KeyValue(context.Background(), fleet.Config{}.WithDefaults().Buckets.Status)
	if err != nil {
		t.Fatal(err)
	}
	fleettest.Eventually(t, "nuc-a's status through the secured hub", func() bool {
		_, err := kv.Get(context.Background(), fleetapi.StatusKey("nuc-a"))
		return err == nil
	})
}

// TestHubFollowsTrustListRevocation: a running hub drops the NATS user of an edge revoked in the
// published trust list — its connection is closed and it cannot connect again — without a restart.
func TestHubFollowsTrustListRevocation(t *testing.T) {
	dir, hub, js := securedHubJS(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := hub.FollowTrust(ctx, js, nil)
	defer stop()
	ca := filepath.Join(dir, pki.CACertFile)
	seed := fleet.EdgeSeedPath(dir, "nuc-a")
	edge, err := connectAs(hub.URL(), seed, ca, fleetapi.InboxPrefix("nuc-a"))
	if err != nil {
		t.Fatalf("enrolled edge: %v", err)
	}
	defer edge.Close()

	caKey, err := pki.LoadCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := trust.ReadFile(filepath.Join(dir, trust.FileName), caKey.Cert)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Revoke("nuc-a", "stolen", time.Now()); err != nil {
		t.Fatal(err)
	}
	data, err := l.Seal(caKey, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	if err := trust.Publish(context.Background(), js, "", data); err != nil {
		t.Fatal(err)
	}
	fleettest.Eventually(t, "the revoked edge's NATS connection closed", func() bool { return !edge.IsConnected() })
	t.Logf("revoked edge's NATS connection closed %s after the list was published", time.Since(begin).Round(time.Millisecond))
	if nc, err := connectAs(hub.URL(), seed, ca, fleetapi.InboxPrefix("nuc-a")); err == nil {
		nc.Close()
		t.Fatal("a revoked edge connected to the hub again")
	}
}
