package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	gosync "sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/pki"
)

const leaseKey = "controller.lease"

// ControllerConfig configures a fleet controller.
type ControllerConfig struct {
	Fleet    Config
	ID       string        // unique per controller process
	LeaseTTL time.Duration // a standby takes over this long after the leader stops renewing
	Tick     time.Duration // how often rollouts are advanced; default LeaseTTL/3
	// Metrics, if set, gets the fleet exporter (exporter.go) with this controller's lease, and
	// States are the thresholds of its edge states.
	Metrics prometheus.Registerer
	States  Thresholds
	// CertDir, with Metrics, is a fleet PKI directory whose certificates' expiry is exported
	// too (pki.ExpiryCollector): the CA, the gateway's and every edge's, from where they are issued.
	CertDir string
}

type lease struct {
	Holder  string    `json:"holder"`
	Expires time.Time `json:"expires"`
}

// Controller carries out rollouts while it holds the lease.
type Controller struct {
	cfg ControllerConfig
	js  jetstream.JetStream
	log *slog.Logger
	now func() time.Time

	mu     gosync.Mutex
	leader bool
	// until is when the lease this controller last wrote runs out: past it a standby may hold
	// the lease, so this one stops believing it leads even while it cannot reach NATS to find out.
	until time.Time
}

// NewController returns a controller; it acts only after Run acquires the lease.
func NewController(js jetstream.JetStream, cfg ControllerConfig, log *slog.Logger) (*Controller, error) {
	cfg.Fleet = cfg.Fleet.WithDefaults()
	if cfg.ID == "" {
		return nil, errors.New("fleet: controller id is required")
	}
	if cfg.LeaseTTL == 0 {
		cfg.LeaseTTL = 15 * time.Second
	}
	if cfg.Tick == 0 {
		cfg.Tick = cfg.LeaseTTL / 3
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Controller{cfg: cfg, js: js, log: log.With("component", "fleet-controller", "controller", cfg.ID), now: time.Now}
	if cfg.Metrics != nil {
		if err := cfg.Metrics.Register(NewExporter(js, cfg.Fleet, cfg.States, c.Leader, c.log)); err != nil {
			return nil, fmt.Errorf("fleet: exporter: %w", err)
		}
		if cfg.CertDir != "" {
			if err := cfg.Metrics.Register(pki.ExpiryCollector(cfg.CertDir)); err != nil {
				return nil, fmt.Errorf("fleet: certificate metrics: %w", err)
			}
		}
	}
	return c, nil
}

// Leader reports whether this controller holds the lease: it took or renewed it at its last
// tick, and that lease has not run out since (a controller cut off from NATS stops leading when
// its lease ends, which is when a standby may take it).
func (c *Controller) Leader() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.leader && c.now().Before(c.until)
}

// Run renews or takes the lease and advances rollouts every tick until ctx ends. On the way out it
// gives the lease up so a standby does not have to wait for it to expire.
func (c *Controller) Run(ctx context.Context) error {
	h, err := open(ctx, c.js, c.cfg.Fleet)
	if err != nil {
		return err
	}
	defer c.keepLastKnown(ctx)() // lastknown.go: dead edges stay visible
	t := time.NewTicker(c.cfg.Tick)
	defer t.Stop()
	defer c.release(h)
	for {
		// Bounded by half the lease: on a cluster losing a node, a request can hang for the
		// client's whole timeout, and a leader stuck that long would outlive its lease unawares.
		actx, cancel := context.WithTimeout(ctx, c.cfg.LeaseTTL/2)
		lead, until := c.acquire(actx, h)
		cancel()
		c.mu.Lock()
		changed := c.leader != lead
		c.leader = lead
		if lead {
			c.until = until
		}
		c.mu.Unlock()
		if changed {
			c.log.Info("lease changed", "leader", lead)
		}
		if lead {
			// Work stops when the lease does: past it a standby may be writing the same keys.
			wctx, cancel := context.WithDeadline(ctx, until)
			c.advanceAll(wctx, h)
			cancel()
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// acquire renews our lease or takes an expired one, always with compare-and-set, so two
// controllers can never both believe they hold it after a write. It returns when the lease it
// wrote runs out.
func (c *Controller) acquire(ctx context.Context, h handles) (bool, time.Time) {
	now := c.now()
	until := now.Add(c.cfg.LeaseTTL)
	mine, _ := json.Marshal(lease{Holder: c.cfg.ID, Expires: until.UTC()})
	e, err := h.control.Get(ctx, leaseKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		_, err = h.control.Create(ctx, leaseKey, mine)
		return err == nil, until
	}
	if err != nil {
		return false, until
	}
	var cur lease
	if e.Operation() == jetstream.KeyValuePut {
		_ = json.Unmarshal(e.Value(), &cur)
	}
	if cur.Holder != c.cfg.ID && now.Before(cur.Expires) {
		return false, until
	}
	_, err = h.control.Update(ctx, leaseKey, mine, e.Revision())
	return err == nil, until
}

func (c *Controller) release(h handles) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	e, err := h.control.Get(ctx, leaseKey)
	if err != nil {
		return
	}
	var cur lease
	if json.Unmarshal(e.Value(), &cur) == nil && cur.Holder == c.cfg.ID {
		_ = h.control.Delete(ctx, leaseKey, jetstream.LastRevision(e.Revision()))
	}
}

func (c *Controller) advanceAll(ctx context.Context, h handles) {
	keys, err := h.control.ListKeysFiltered(ctx, "rollout.*")
	if err != nil {
		c.log.Warn("list rollouts", "err", err)
		return
	}
	var roles []string
	for k := range keys.Keys() {
		roles = append(roles, strings.TrimPrefix(k, "rollout."))
	}
	if len(roles) == 0 {
		return
	}
	edges, err := Snapshot(ctx, c.js, c.cfg.Fleet)
	if err != nil {
		c.log.Warn("read edge status", "err", err)
		return
	}
	for _, role := range roles {
		c.advance(ctx, h, role, edges)
	}
}

// stepsPerTick bounds how far one tick takes a rollout on one snapshot of the fleet: a wave that
// settled is judged, and the next one assigned, in the same tick instead of one tick each (at
// the default 5 s tick that took a 3-wave rollout over 2 000 edges from 41 s to 17 s; SCALE.md).
const stepsPerTick = 3

// advance steps a role's rollout until it waits on the edges, stops running, or has taken
// stepsPerTick steps. Each step re-reads the record, so each write is a compare-and-set on the
// revision just read.
func (c *Controller) advance(ctx context.Context, h handles, role string, edges []fleetapi.EdgeStatus) {
	for range stepsPerTick {
		r, rev, err := readRollout(ctx, h.control, role)
		if err != nil || r.State != StateRunning {
			return
		}
		next, err := c.step(ctx, h, r, edges)
		if err != nil {
			c.log.Warn("rollout step", "role", role, "rollout", r.Spec.ID, "err", err)
			return
		}
		if next == nil {
			return
		}
		next.Updated = c.now().UTC()
		if err := writeRollout(ctx, h.control, *next, rev); err != nil {
			// Someone else (operator pause, another controller) wrote first; re-read next tick.
			c.log.Info("rollout changed underneath; retrying next tick", "role", role, "err", err)
			return
		}
		c.log.Info("rollout advanced", "role", role, "rollout", r.Spec.ID, "state", next.State, "wave", next.Wave, "message", next.Message)
	}
}

// Errors surfaced in rollout messages.
var (
	errWaveTimeout      = errors.New("wave did not settle before its timeout")
	errTooLittleTraffic = errors.New("wave saw too little traffic on the new version before its timeout")
)
