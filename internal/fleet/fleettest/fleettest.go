package fleettest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/url"
	gosync "sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/sync"
)

// Env is a running hub with initialised buckets and a trusted signing key.
type Env struct {
	Hub      *fleet.Hub
	storeDir string
	JS       jetstream.JetStream
	Cfg      fleet.Config
	Key      ed25519.PrivateKey
	Trust    manifest.Trust
}

// Start starts an embedded nats-server with JetStream in a temp dir. The status TTL is short so
// that offline edges drop out quickly.
func Start(t testing.TB) *Env {
	t.Helper()
	store := t.TempDir()
	hub, err := fleet.StartHub(fleet.HubConfig{StoreDir: store, Listen: "127.0.0.1:-1"})
	if err != nil {
		t.Fatalf("embedded nats-server did not start (run `make deps` to fetch Go modules): %v", err)
	}
	env := &Env{Hub: hub, storeDir: store, Cfg: fleet.Config{StatusTTL: 2 * time.Second}.WithDefaults()}
	t.Cleanup(func() { env.Hub.Shutdown() })
	env.JS = env.Client(t, "test")
	ctx := context.Background()
	if err := fleet.Init(ctx, env.JS, env.Cfg); err != nil {
		t.Fatal(err)
	}
	if env.Key, err = manifest.GenerateKey(); err != nil {
		t.Fatal(err)
	}
	env.Trust = manifest.NewTrust(env.Key.Public().(ed25519.PublicKey))
	return env
}

// RestartHub stops the server and starts it again on the same port and store, as after a crash
// or an upgrade of the hub; clients reconnect on their own.
func (e *Env) RestartHub(t testing.TB) {
	t.Helper()
	u, err := url.Parse(e.Hub.URL())
	if err != nil {
		t.Fatal(err)
	}
	e.Hub.Shutdown()
	hub, err := fleet.StartHub(fleet.HubConfig{StoreDir: e.storeDir, Listen: u.Host})
	if err != nil {
		t.Fatalf("restart embedded nats-server: %v", err)
	}
	e.Hub = hub
}

// Client opens a JetStream client on its own connection, closed at the end of the test.
func (e *Env) Client(t testing.TB, name string) jetstream.JetStream {
	t.Helper()
	nc, err := e.Hub.Connect(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// Artifact returns n pseudo-random bytes from seed.
func Artifact(seed uint64, n int) []byte {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	b := make([]byte, n)
	_, _ = rand.NewChaCha8(key).Read(b)
	return b
}

// Publish publishes data as role/version and returns the signed manifest.
func (e *Env) Publish(t testing.TB, role, version string, data []byte) manifest.Envelope {
	t.Helper()
	env, _, err := fleet.Publish(context.Background(), e.JS, e.Cfg, e.Key, fleet.PublishRequest{
		Role: role, Version: version, Runtime: manifest.RuntimeOllama, Artifact: bytes.NewReader(data),
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// SetDesired writes a desired-state key directly (no rollout).
func (e *Env) SetDesired(t testing.TB, key string, d fleetapi.Desired) {
	t.Helper()
	kv, err := e.JS.KeyValue(context.Background(), e.Cfg.Buckets.Desired)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(context.Background(), key, data); err != nil {
		t.Fatal(err)
	}
}

// Recorder is an Installer that records installs; Fail makes installs of a version fail.
type Recorder struct {
	mu       gosync.Mutex
	Installs []string // "role:version"
	Fail     map[string]bool
}

// Install implements sync.Installer.
func (r *Recorder) Install(_ context.Context, m manifest.Manifest, _ string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Fail[m.Version] {
		return "", fmt.Errorf("%w: recorder told to fail %s", sync.ErrSmokeTest, m.Version)
	}
	r.Installs = append(r.Installs, m.Role+":"+m.Version)
	return sync.ModelName(m), nil
}

// Remove implements sync.Installer.
func (r *Recorder) Remove(context.Context, string) error { return nil }

// Count returns how many installs were recorded.
func (r *Recorder) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.Installs)
}

// Agent is an edge agent running in the test process.
type Agent struct {
	*sync.Agent
	Recorder *Recorder
	cancel   context.CancelFunc
	done     chan error
	nc       *nats.Conn
	dataDir  string
}

// DataDir is the agent's data directory, to restart it with its state.
func (a *Agent) DataDir() string { return a.dataDir }

// AgentOptions tweak RunAgent.
type AgentOptions struct {
	Labels  map[string]string
	DataDir string // default: a fresh temp dir
	Health  sync.HealthSource
	Logger  *slog.Logger
	Window  int
	Fail    map[string]bool
	// BandwidthLimit in bytes per second; 0 = unlimited.
	BandwidthLimit int64
}

// RunAgent starts an agent on its own connection; Stop (or the end of the test) stops it.
func (e *Env) RunAgent(t testing.TB, id string, o AgentOptions) *Agent {
	t.Helper()
	if o.DataDir == "" {
		o.DataDir = t.TempDir()
	}
	nc, err := e.Hub.Connect("edge " + id)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{Fail: o.Fail}
	inst := map[string]sync.Installer{manifest.RuntimeOllama: rec}
	a, err := sync.NewAgent(sync.AgentConfig{
		EdgeID: id, Labels: o.Labels, DataDir: o.DataDir, Heartbeat: 300 * time.Millisecond,
		WindowChunks: o.Window, Buckets: e.Cfg.Buckets, BandwidthLimit: o.BandwidthLimit,
	}, sync.AgentDeps{Conn: nc, Trust: e.Trust, Installers: inst, Health: o.Health, Logger: o.Logger})
	if err != nil {
		nc.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ag := &Agent{Agent: a, Recorder: rec, cancel: cancel, done: make(chan error, 1), nc: nc, dataDir: o.DataDir}
	go func() { ag.done <- a.Run(ctx) }()
	t.Cleanup(func() { ag.Stop(t) })
	return ag
}

// Stop stops the agent (like a killed process: nothing is flushed) and waits for it.
func (a *Agent) Stop(t testing.TB) {
	if a.cancel == nil {
		return
	}
	a.cancel()
	if err := <-a.done; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("agent %s: %v", a.Status().EdgeID, err)
	}
	a.nc.Close()
	a.cancel = nil
}

// Eventually polls cond until it holds or the deadline passes. The deadline only bounds a broken
// test; nothing is asserted about speed.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
