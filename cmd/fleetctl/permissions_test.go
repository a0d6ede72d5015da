package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/sync"
)

// violations collects the permission errors the server sends to one connection.
type violations struct {
	mu   gosync.Mutex
	errs []string
}

func (v *violations) handler(_ *nats.Conn, _ *nats.Subscription, err error) {
	if errors.Is(err, nats.ErrPermissionViolation) {
		v.mu.Lock()
		v.errs = append(v.errs, err.Error())
		v.mu.Unlock()
	}
}

func (v *violations) list() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.errs...)
}

// waitViolation waits until the server has reported a violation naming subject.
func (v *violations) waitViolation(t *testing.T, subject string) {
	t.Helper()
	fleettest.Eventually(t, "permission violation for "+subject, func() bool {
		for _, e := range v.list() {
			if strings.Contains(e, `"`+subject+`"`) {
				return true
			}
		}
		return false
	})
}

// serverLog keeps the lines in which the server reports a permission violation (of any client,
// the agent's own connection included).
type serverLog struct{ violations }

func (l *serverLog) keep(format string, v ...any) {
	if line := fmt.Sprintf(format, v...); strings.Contains(line, "Violation") {
		l.mu.Lock()
		l.errs = append(l.errs, line)
		l.mu.Unlock()
	}
}
func (l *serverLog) Noticef(format string, v ...any) { l.keep(format, v...) }
func (l *serverLog) Warnf(format string, v ...any)   { l.keep(format, v...) }
func (l *serverLog) Fatalf(format string, v ...any)  { l.keep(format, v...) }
func (l *serverLog) Errorf(format string, v ...any)  { l.keep(format, v...) }
func (l *serverLog) Debugf(format string, v ...any)  { l.keep(format, v...) }
func (l *serverLog) Tracef(format string, v ...any)  { l.keep(format, v...) }

type edgeUser struct {
	id, seedFile, pub string
}

func newEdgeUser(t *testing.T, id string) edgeUser {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := kp.Seed()
	pub, _ := kp.PublicKey()
	f := filepath.Join(t.TempDir(), id+".nk")
	if err := os.WriteFile(f, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	return edgeUser{id: id, seedFile: f, pub: pub}
}

// startSecuredServer runs a real nats-server from a configuration file written the way an
// operator would: an admin user, and one nkey user per edge whose permissions block is exactly
// what `fleetctl edge-permissions` prints.
func startSecuredServer(t *testing.T, edges ...edgeUser) (*server.Server, *serverLog) {
	t.Helper()
	dir := t.TempDir()
	var users []string
	users = append(users, `{ user: "admin", password: "admin-pw" }`)
	for _, e := range edges {
		perms, err := run(t, "edge-permissions", "--edge", e.id)
		if err != nil {
			t.Fatalf("fleetctl edge-permissions: %v: %s", err, perms)
		}
		users = append(users, fmt.Sprintf("{ nkey: %q, permissions: %s }", e.pub, perms))
	}
	conf := fmt.Sprintf("listen: \"127.0.0.1:-1\"\njetstream { store_dir: %q }\nauthorization { users = [\n%s\n] }\n",
		filepath.Join(dir, "js"), strings.Join(users, "\n"))
	path := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		t.Fatalf("nats-server rejects the configuration built from fleetctl's output: %v\n%s", err, conf)
	}
	opts.NoSigs = true
	srv, err := server.NewServer(opts)
	if err != nil {
		t.Fatalf("embedded nats-server (run `make deps`): %v", err)
	}
	log := &serverLog{}
	srv.SetLogger(log, false, false)
	srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("embedded nats-server did not become ready")
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	return srv, log
}

func connectJS(t *testing.T, url string, opts ...nats.Option) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js
}

// The documented per-edge permissions, as fleetctl prints them, are enough for the real sync
// agent (dialling with its nkey seed file, as in production) to download, install and report
// without a single violation, and they stop an edge from publishing a manifest, writing the
// object store, taking the controller lease, writing another edge's status or reading others'
// replies.
func TestEdgePermissionsAllowSyncAndNothingElse(t *testing.T) {
	clearTwins(t)
	me, other := newEdgeUser(t, "branch-a"), newEdgeUser(t, "branch-b")
	srv, srvLog := startSecuredServer(t, me, other)
	ctx := context.Background()
	_, admin := connectJS(t, srv.ClientURL(), nats.UserInfo("admin", "admin-pw"))
	cfg := fleet.Config{}.WithDefaults()
	if err := fleet.Init(ctx, admin, cfg); err != nil {
		t.Fatal(err)
	}
	key, err := manifest.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	env, _, err := fleet.Publish(ctx, admin, cfg, key, fleet.PublishRequest{
		Role: "drafter", Version: "1.0.0", Runtime: manifest.RuntimeOllama,
		Artifact: strings.NewReader(string(fleettest.Artifact(7, 700_000))), // several chunks
	})
	if err != nil {
		t.Fatal(err)
	}
	desired, err := admin.KeyValue(ctx, cfg.Buckets.Desired)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(fleetapi.Desired{Manifest: env})
	if _, err := desired.Put(ctx, fleetapi.RoleKey("drafter"), good); err != nil {
		t.Fatal(err)
	}
	control, err := admin.KeyValue(ctx, cfg.Control)
	if err != nil {
		t.Fatal(err)
	}
	leaseRev, err := control.Put(ctx, "controller.lease", []byte(`{"holder":"ctl-a"}`))
	if err != nil {
		t.Fatal(err)
	}

	// The real agent, dialling by itself with its nkey seed: everything sync needs is allowed.
	pubPEM, _ := manifest.MarshalPublicKey(key.Public().(ed25519.PublicKey))
	trusted := filepath.Join(t.TempDir(), "fleet.pub")
	if err := os.WriteFile(trusted, pubPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &fleettest.Recorder{}
	agent, err := sync.NewAgent(sync.AgentConfig{
		NATSURL: srv.ClientURL(), NKeySeedFile: me.seedFile, EdgeID: me.id, TrustedKeys: []string{trusted},
		DataDir: t.TempDir(), Heartbeat: 200 * time.Millisecond, WindowChunks: 2,
	}, sync.AgentDeps{Installers: map[string]sync.Installer{manifest.RuntimeOllama: rec}})
	if err != nil {
		t.Fatal(err)
	}
	actx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- agent.Run(actx) }()
	stopAgent := func() {
		if stop != nil {
			stop()
			if err := <-done; err != nil {
				t.Errorf("agent: %v", err)
			}
			stop = nil
		}
	}
	t.Cleanup(stopAgent)
	fleettest.Eventually(t, "the edge installed 1.0.0 and the fleet sees it", func() bool {
		snap, err := fleet.Snapshot(ctx, admin, cfg)
		return err == nil && len(snap) == 1 && snap[0].EdgeID == me.id && snap[0].Roles["drafter"].Version == "1.0.0" && rec.Count() == 1
	})
	// Stopping cleans up its consumers, which needs permissions too.
	stopAgent()

	// A second connection with the same edge's key: what a compromised edge could try.
	var vs violations
	nc, js := connectJS(t, srv.ClientURL(), nkeyOption(t, me.seedFile),
		nats.CustomInboxPrefix(fleetapi.InboxPrefix(me.id)), nats.ErrorHandler(vs.handler))
	short := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, time.Second) }

	// Reading, as the agent does, works on this connection too, without violations.
	if kv, err := js.KeyValue(ctx, cfg.Buckets.Status); err != nil {
		t.Fatalf("edge cannot open the status bucket: %v", err)
	} else if _, err := kv.Put(ctx, fleetapi.StatusKey(me.id), []byte(`{"edge_id":"branch-a"}`)); err != nil {
		t.Fatalf("edge cannot write its own status: %v", err)
	}
	if v := srvLog.list(); len(v) != 0 {
		t.Fatalf("sync and the allowed operations caused violations: %q", v)
	}

	forbidden := []struct {
		name, subject string
		try           func(context.Context) error
	}{
		{"publish a manifest", "$KV." + cfg.Buckets.Desired + ".role.drafter", func(c context.Context) error {
			_, err := js.Publish(c, "$KV."+cfg.Buckets.Desired+".role.drafter", []byte(`{"manifest":{"sig":"AA=="}}`))
			return err
		}},
		{"write the object store", "$O." + cfg.Buckets.Artifacts + ".C.evil", func(c context.Context) error {
			_, err := js.Publish(c, "$O."+cfg.Buckets.Artifacts+".C.evil", []byte("chunk"))
			return err
		}},
		{"write the controller lease", "$KV." + cfg.Control + ".controller.lease", func(c context.Context) error {
			_, err := js.Publish(c, "$KV."+cfg.Control+".controller.lease", []byte(`{"holder":"edge"}`))
			return err
		}},
		{"open the control bucket", "$JS.API.STREAM.INFO.KV_" + cfg.Control, func(c context.Context) error {
			_, err := js.KeyValue(c, cfg.Control)
			return err
		}},
		{"publish another edge's status", "$KV." + cfg.Buckets.Status + "." + fleetapi.StatusKey(other.id), func(c context.Context) error {
			_, err := js.Publish(c, "$KV."+cfg.Buckets.Status+"."+fleetapi.StatusKey(other.id), []byte(`{"edge_id":"branch-b"}`))
			return err
		}},
		{"rewrite its own last-known state", "$KV." + cfg.Buckets.Edges + "." + fleetapi.StatusKey(me.id), func(c context.Context) error {
			_, err := js.Publish(c, "$KV."+cfg.Buckets.Edges+"."+fleetapi.StatusKey(me.id), []byte(`{"status":{"edge_id":"branch-a"}}`))
			return err
		}},
		{"purge the desired state", "$JS.API.STREAM.PURGE.KV_" + cfg.Buckets.Desired, func(c context.Context) error {
			_, err := nc.RequestWithContext(c, "$JS.API.STREAM.PURGE.KV_"+cfg.Buckets.Desired, nil)
			return err
		}},
		{"read everyone's replies", "_INBOX.>", func(context.Context) error {
			sub, err := nc.SubscribeSync("_INBOX.>")
			if err == nil {
				err = nc.Flush()
				_ = sub.Unsubscribe()
			}
			return err
		}},
	}
	for _, f := range forbidden {
		c, cancel := short()
		err := f.try(c)
		cancel()
		vs.waitViolation(t, f.subject) // the server refused it, whatever the client made of that
		if err == nil && !strings.HasPrefix(f.subject, "_INBOX") {
			t.Errorf("%s: the client saw no error", f.name)
		}
	}

	// And, read with the admin's eyes, nothing changed.
	if e, err := desired.Get(ctx, fleetapi.RoleKey("drafter")); err != nil || string(e.Value()) != string(good) {
		t.Errorf("desired state changed: %v", err)
	}
	if e, err := control.Get(ctx, "controller.lease"); err != nil || e.Revision() != leaseRev {
		t.Errorf("lease changed: %v", err)
	}
	status, _ := admin.KeyValue(ctx, cfg.Buckets.Status)
	if _, err := status.Get(ctx, fleetapi.StatusKey(other.id)); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Errorf("another edge's status exists: %v", err)
	}
	obs, _ := admin.ObjectStore(ctx, cfg.Buckets.Artifacts)
	if info, err := obs.GetInfo(ctx, "drafter/1.0.0"); err != nil || info.Size != 700_000 {
		t.Errorf("artifact changed: %v", err)
	}
	stream, _ := admin.Stream(ctx, "OBJ_"+cfg.Buckets.Artifacts)
	if si, err := stream.Info(ctx, jetstream.WithSubjectFilter("$O."+cfg.Buckets.Artifacts+".C.evil")); err != nil || si.State.Subjects["$O."+cfg.Buckets.Artifacts+".C.evil"] != 0 {
		t.Errorf("a chunk was written: %v", err)
	}
}

func nkeyOption(t *testing.T, seedFile string) nats.Option {
	t.Helper()
	o, err := nats.NkeyOptionFromSeed(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
