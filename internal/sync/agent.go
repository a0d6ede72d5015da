package sync

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	gosync "sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
)

// HealthSource reports how the running version of a role behaves; rollout gates read it from the
// edge's status. It is implemented by the pipeline.
type HealthSource interface {
	Health(role string) fleetapi.Health
}

// UsageSource summarises the edge's traffic over the last fleetapi.UsageWindow. A HealthSource
// that is also a UsageSource has the summary sent with every status and, once per window, appended
// to the fleet's usage history (fleetapi.UsageSubject), which sizing reads.
type UsageSource interface {
	Usage() fleetapi.Usage
}

// AgentDeps are the agent's collaborators. Everything is optional except what the config cannot
// provide: without Conn the agent dials cfg.NATSURL; without Trust it reads cfg.TrustedKeys;
// without Installers it installs "ollama" manifests into cfg.OllamaURL and others as files.
type AgentDeps struct {
	Conn       *nats.Conn
	Trust      manifest.Trust
	Installers map[string]Installer
	Registerer prometheus.Registerer
	Logger     *slog.Logger
	Health     HealthSource
	// OnSwitch is called after a new version of a role is installed and smoke-tested (and at Run
	// start for every installed role), so the pipeline can move to it.
	OnSwitch func(Model)
	Now      func() time.Time
}

// Agent keeps an edge's models in line with the fleet's desired state.
type Agent struct {
	cfg     AgentConfig
	deps    AgentDeps
	log     *slog.Logger
	met     *metrics
	fetcher *Fetcher // set by Run
	wake    chan struct{}
	changed chan struct{}

	mu       gosync.Mutex
	desired  map[string]fleetapi.Desired // by KV key
	inst     installed
	status   map[string]fleetapi.RoleStatus
	rejected map[string]bool // envelope fingerprints that will not be retried

	usageEvery time.Duration // how often a usage record goes to the history (fleetapi.UsageWindow)
}

// NewAgent validates cfg and prepares an agent; nothing touches the network until Run.
func NewAgent(cfg AgentConfig, deps AgentDeps) (*Agent, error) {
	if err := cfg.Validate(deps.Conn != nil, deps.Trust != nil); err != nil {
		return nil, err
	}
	cfg.Buckets = cfg.Buckets.WithDefaults()
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = 10 * time.Second
	}
	if deps.Trust == nil {
		t, err := manifest.ReadTrustFiles(cfg.TrustedKeys...)
		if err != nil {
			return nil, err
		}
		deps.Trust = t
	}
	if deps.Installers == nil {
		deps.Installers = map[string]Installer{manifest.RuntimeOVMS: Files{}, manifest.RuntimeLlamaCPP: Files{}}
		if cfg.OllamaURL != "" {
			o, err := NewOllama(cfg.OllamaURL, nil)
			if err != nil {
				return nil, err
			}
			deps.Installers[manifest.RuntimeOllama] = o
		}
	}
	if deps.Registerer == nil {
		deps.Registerer = prometheus.NewRegistry()
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	met, err := newMetrics(deps.Registerer)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("sync: data dir: %w", err)
	}
	inst, err := loadInstalled(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	a := &Agent{
		cfg: cfg, deps: deps, met: met, inst: inst,
		log:      deps.Logger.With("component", "sync", "edge", cfg.EdgeID),
		wake:     make(chan struct{}, 1),
		changed:  make(chan struct{}, 1),
		desired:  map[string]fleetapi.Desired{},
		status:   map[string]fleetapi.RoleStatus{},
		rejected: map[string]bool{},

		usageEvery: fleetapi.UsageWindow,
	}
	for role, ri := range inst.Roles {
		rs := fleetapi.RoleStatus{State: fleetapi.StateIdle}
		if ri.Current != nil {
			rs.Version, rs.Digest = ri.Current.Version, ri.Current.Digest
			met.version.WithLabelValues(role).Set(float64(ri.Current.Manifest.Created.Unix()))
		}
		if ri.Previous != nil {
			rs.Previous = ri.Previous.Version
		}
		a.status[role] = rs
	}
	return a, nil
}

// Model returns the installed model of a role.
func (a *Agent) Model(role string) (Model, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ri := a.inst.Roles[role]
	if ri == nil || ri.Current == nil {
		return Model{}, false
	}
	return *ri.Current, true
}

// Status returns what the agent reports to the fleet.
func (a *Agent) Status() fleetapi.EdgeStatus {
	a.mu.Lock()
	roles := maps.Clone(a.status)
	a.mu.Unlock()
	for role, rs := range roles {
		if a.deps.Health != nil && rs.Version != "" {
			rs.Health = a.deps.Health.Health(role)
			roles[role] = rs
		}
	}
	st := fleetapi.EdgeStatus{EdgeID: a.cfg.EdgeID, Labels: a.cfg.Labels, Seen: a.deps.Now().UTC(), Roles: roles}
	if u, ok := a.deps.Health.(UsageSource); ok {
		us := u.Usage()
		st.Usage = &us
	}
	return st
}

// FetchCounters exposes the download counters (chunks and bytes received, re-downloads included).
func (a *Agent) FetchCounters() (chunks, bytes uint64) {
	a.mu.Lock()
	f := a.fetcher
	a.mu.Unlock()
	if f == nil {
		return 0, 0
	}
	return f.Counters.Chunks.Load(), f.Counters.Bytes.Load()
}

func (a *Agent) dial() (*nats.Conn, error) {
	opts := []nats.Option{nats.Name("sucursal-edge " + a.cfg.EdgeID), nats.MaxReconnects(-1),
		nats.CustomInboxPrefix(fleetapi.InboxPrefix(a.cfg.EdgeID))}
	switch {
	case a.cfg.CredentialsFile != "":
		opts = append(opts, nats.UserCredentials(a.cfg.CredentialsFile))
	case a.cfg.NKeySeedFile != "":
		o, err := nats.NkeyOptionFromSeed(a.cfg.NKeySeedFile)
		if err != nil {
			return nil, fmt.Errorf("sync: nkey seed: %w", err)
		}
		opts = append(opts, o)
	}
	if a.cfg.NATSCAFile != "" {
		opts = append(opts, nats.RootCAs(a.cfg.NATSCAFile)) // TLS to a hub started with --pki
	}
	nc, err := nats.Connect(a.cfg.NATSURL, opts...)
	if err != nil {
		return nil, fmt.Errorf("sync: connect nats: %w", err)
	}
	return nc, nil
}

// Run watches, downloads, installs and reports until ctx ends.
func (a *Agent) Run(ctx context.Context) error {
	nc := a.deps.Conn
	if nc == nil {
		var err error
		if nc, err = a.dial(); err != nil {
			return err
		}
		defer nc.Close()
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("sync: jetstream: %w", err)
	}
	fetcher := NewFetcher(js, a.cfg.Buckets.Artifacts, a.cfg.DataDir, a.cfg.WindowChunks, a.cfg.BandwidthLimit,
		func(n int) { a.met.bytes.Add(float64(n)) })
	a.mu.Lock()
	a.fetcher = fetcher
	a.mu.Unlock()
	a.announceInstalled()

	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a.watch(ctx, js) })
	g.Go(func() error { return a.work(ctx, fetcher) })
	g.Go(func() error { return a.report(ctx, js) })
	if err := g.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

func (a *Agent) announceInstalled() {
	if a.deps.OnSwitch == nil {
		return
	}
	a.mu.Lock()
	var models []Model
	for _, ri := range a.inst.Roles {
		if ri.Current != nil {
			models = append(models, *ri.Current)
		}
	}
	a.mu.Unlock()
	for _, m := range models {
		a.deps.OnSwitch(m)
	}
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// work reconciles each role whenever desired state changes, and retries transient failures.
func (a *Agent) work(ctx context.Context, f *Fetcher) error {
	retry := time.NewTicker(5 * time.Second)
	defer retry.Stop()
	for {
		eff := a.effective()
		for _, role := range slices.Sorted(maps.Keys(eff)) {
			a.reconcile(ctx, f, role, eff[role])
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-a.wake:
		case <-retry.C:
		}
	}
}

func fingerprint(env manifest.Envelope) string {
	sum := sha256.Sum256(env.Sig)
	return string(sum[:])
}

func (a *Agent) setStatus(role string, fn func(*fleetapi.RoleStatus)) {
	a.mu.Lock()
	rs := a.status[role]
	fn(&rs)
	rs.Changed = a.deps.Now().UTC()
	a.status[role] = rs
	a.mu.Unlock()
	signal(a.changed)
}

// report publishes the status on every change and as a heartbeat, and once per usage window the
// window's summary to the usage history.
func (a *Agent) report(ctx context.Context, js jetstream.JetStream) error {
	tick := time.NewTicker(a.cfg.Heartbeat)
	defer tick.Stop()
	var usageTick <-chan time.Time
	if _, ok := a.deps.Health.(UsageSource); ok {
		t := time.NewTicker(a.usageEvery)
		defer t.Stop()
		usageTick = t.C
	}
	var kv jetstream.KeyValue
	for {
		if kv == nil {
			var err error
			if kv, err = js.KeyValue(ctx, a.cfg.Buckets.Status); err != nil {
				a.log.Warn("status bucket unavailable", "err", err)
			}
		}
		if kv != nil {
			data, err := json.Marshal(a.Status())
			if err == nil {
				_, err = kv.Put(ctx, fleetapi.StatusKey(a.cfg.EdgeID), data)
			}
			if err != nil && ctx.Err() == nil {
				a.log.Warn("status publish failed", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		case <-a.changed:
		case <-usageTick: // the status goes out again too, harmlessly
			a.publishUsage(ctx, js)
		}
	}
}

// publishUsage appends the last window's summary to the usage history. Consecutive records cover
// consecutive windows (to the 10-second bucket), so the history sums without double counting.
func (a *Agent) publishUsage(ctx context.Context, js jetstream.JetStream) {
	st := a.Status()
	if st.Usage == nil {
		return
	}
	data, err := json.Marshal(fleetapi.UsageRecord{EdgeID: st.EdgeID, Labels: st.Labels, At: st.Seen, Usage: *st.Usage})
	if err == nil {
		_, err = js.Publish(ctx, fleetapi.UsageSubject(a.cfg.EdgeID), data)
	}
	if err != nil && ctx.Err() == nil {
		a.log.Warn("usage record not stored (is the fleet's usage stream there?)", "stream", fleetapi.UsageStream, "err", err)
	}
}
