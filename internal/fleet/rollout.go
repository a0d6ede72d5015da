package fleet

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
)

// Rollout states.
const (
	StateRunning    = "running"
	StatePaused     = "paused"
	StateAborted    = "aborted"
	StateSucceeded  = "succeeded"
	StateRolledBack = "rolled_back"
)

// Errors callers branch on.
var (
	ErrRolloutActive = errors.New("fleet: a rollout for this role is already active")
	ErrNoRollout     = errors.New("fleet: no rollout for this role")
	ErrNoPrevious    = errors.New("fleet: nothing to roll back to")
	ErrBadSelector   = errors.New("fleet: selector labels must match [A-Za-z0-9_-]{1,64}")
)

// Spec is what the operator asked for. It is written once by StartRollout.
type Spec struct {
	ID             string            `json:"id"`
	Role           string            `json:"role"`
	Version        string            `json:"version"`
	Waves          []float64         `json:"waves"` // cumulative percentages, last is 100
	Selector       map[string]string `json:"selector,omitempty"`
	Gates          []Gate            `json:"gates"`
	WaveBytesLimit int64             `json:"wave_bytes_limit,omitempty"` // bytes in flight per wave
	// MinRequests holds the gates back until the rollout's edges on the new version have together
	// reported at least this many requests, so that a wave is not judged on no traffic.
	MinRequests uint64            `json:"min_requests,omitempty"`
	Soak        time.Duration     `json:"soak"` // gates are read this long after a wave installed
	WaveTimeout time.Duration     `json:"wave_timeout"`
	Size        int64             `json:"size"`
	Desired     fleetapi.Desired  `json:"desired"`            // what wave edges get
	Previous    *fleetapi.Desired `json:"previous,omitempty"` // what a failed wave goes back to
	Created     time.Time         `json:"created"`
}

// Rollout is the record the controller advances, with compare-and-set on its KV revision.
type Rollout struct {
	Spec        Spec      `json:"spec"`
	State       string    `json:"state"`
	Wave        int       `json:"wave"`
	Members     []string  `json:"members"` // edges given the new version so far, all waves
	WaveStarted time.Time `json:"wave_started"`
	SettledAt   time.Time `json:"settled_at,omitzero"` // when every wave edge had installed
	Message     string    `json:"message,omitempty"`
	Events      []string  `json:"events,omitempty"`
	Updated     time.Time `json:"updated"`
}

func (r *Rollout) event(now time.Time, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.Message = msg
	r.Events = append(r.Events, now.UTC().Format(time.RFC3339)+" "+msg)
	if len(r.Events) > 50 {
		r.Events = r.Events[len(r.Events)-50:]
	}
}

// Active reports whether the controller still has work to do on the rollout.
func (r Rollout) Active() bool { return r.State == StateRunning || r.State == StatePaused }

func rolloutKey(role string) string { return "rollout." + role }

// ParseWaves parses "5%,25%,100%" (the % is optional); waves must rise and end at 100.
func ParseWaves(s string) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(p), "%"), 64)
		if err != nil || v <= 0 || v > 100 || (len(out) > 0 && v <= out[len(out)-1]) {
			return nil, fmt.Errorf("fleet: waves %q: want rising percentages ending at 100", s)
		}
		out = append(out, v)
	}
	if len(out) == 0 || out[len(out)-1] != 100 {
		return nil, fmt.Errorf("fleet: waves %q: last wave must be 100%%", s)
	}
	return out, nil
}

// Bucket places an edge in [0,100) by a hash of its id, so waves are deterministic and stable.
func Bucket(edgeID string) float64 {
	sum := sha256.Sum256([]byte(edgeID))
	return float64(binary.BigEndian.Uint64(sum[:8])%10000) / 100
}

// StartRequest is what `fleetctl rollout start` passes.
type StartRequest struct {
	Role, Version  string
	Waves          []float64
	Selector       map[string]string
	Gates          []Gate
	WaveBytesLimit int64
	MinRequests    uint64
	Soak           time.Duration
	WaveTimeout    time.Duration
	// Key signs the directive that lets edges go back to the current version if a gate fails, so
	// that the controller itself never needs a signing key.
	Key ed25519.PrivateKey
	Now time.Time
}

func readRollout(ctx context.Context, kv jetstream.KeyValue, role string) (Rollout, uint64, error) {
	e, err := kv.Get(ctx, rolloutKey(role))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Rollout{}, 0, ErrNoRollout
	}
	if err != nil {
		return Rollout{}, 0, fmt.Errorf("fleet: read rollout: %w", err)
	}
	var r Rollout
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return Rollout{}, 0, fmt.Errorf("fleet: rollout record: %w", err)
	}
	return r, e.Revision(), nil
}

func writeRollout(ctx context.Context, kv jetstream.KeyValue, r Rollout, rev uint64) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("fleet: %w", err)
	}
	if rev == 0 {
		_, err = kv.Create(ctx, rolloutKey(r.Spec.Role), data)
	} else {
		_, err = kv.Update(ctx, rolloutKey(r.Spec.Role), data, rev)
	}
	if err != nil {
		return fmt.Errorf("fleet: write rollout: %w", err)
	}
	return nil
}

func readDesired(ctx context.Context, kv jetstream.KeyValue, key string) (*fleetapi.Desired, error) {
	e, err := kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: read desired: %w", err)
	}
	d, err := fleetapi.ParseDesired(e.Value())
	if err != nil {
		return nil, err
	}
	return &d, nil
}

func putDesired(ctx context.Context, kv jetstream.KeyValue, key string, d fleetapi.Desired) error {
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("fleet: %w", err)
	}
	if _, err := kv.Put(ctx, key, data); err != nil {
		return fmt.Errorf("fleet: write desired %s: %w", key, err)
	}
	return nil
}

// payloadVersion reads the version out of a signed manifest without judging it; the fleet side
// only needs it for bookkeeping, edges verify for themselves.
func payloadVersion(env manifest.Envelope) string {
	var m manifest.Manifest
	_ = json.Unmarshal(env.Payload, &m)
	return m.Version
}

// StartRollout writes a rollout record; the controller carries it out.
func StartRollout(ctx context.Context, js jetstream.JetStream, cfg Config, req StartRequest) (Rollout, error) {
	cfg = cfg.WithDefaults()
	h, err := open(ctx, js, cfg)
	if err != nil {
		return Rollout{}, err
	}
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	for k, v := range req.Selector {
		// Edges only ever carry token labels, and the selector key is built from them.
		if !fleetapi.ValidToken(k) || !fleetapi.ValidToken(v) {
			return Rollout{}, fmt.Errorf("%w: %q=%q", ErrBadSelector, k, v)
		}
	}
	env, err := Lookup(ctx, js, cfg, req.Role, req.Version)
	if err != nil {
		return Rollout{}, err
	}
	var m manifest.Manifest
	if err := json.Unmarshal(env.Payload, &m); err != nil {
		return Rollout{}, fmt.Errorf("fleet: catalog manifest: %w", err)
	}
	old, rev, err := readRollout(ctx, h.control, req.Role)
	if err != nil && !errors.Is(err, ErrNoRollout) {
		return Rollout{}, err
	}
	if err == nil && old.Active() {
		return Rollout{}, fmt.Errorf("%w: %s to %s is %s", ErrRolloutActive, old.Spec.Role, old.Spec.Version, old.State)
	}
	if len(req.Gates) == 0 {
		req.Gates = []Gate{{Metric: MetricInstallFailures, Op: "==", Value: 0}}
	}
	if req.WaveTimeout == 0 {
		req.WaveTimeout = time.Hour
	}
	spec := Spec{
		ID: fmt.Sprintf("%s-%s-%d", req.Role, req.Version, now.Unix()), Role: req.Role, Version: req.Version,
		Waves: req.Waves, Selector: req.Selector, Gates: req.Gates, WaveBytesLimit: req.WaveBytesLimit,
		MinRequests: req.MinRequests, Soak: req.Soak, WaveTimeout: req.WaveTimeout, Size: m.Size, Created: now.UTC(),
	}
	spec.Desired = fleetapi.Desired{Manifest: env, Rollout: spec.ID}
	// What the targeted edges run today: an earlier rollout with the same selector left its key;
	// otherwise the role default.
	prev, err := readDesired(ctx, h.desired, targetKey(spec))
	if err != nil {
		return Rollout{}, err
	}
	if prev == nil && len(spec.Selector) > 0 {
		if prev, err = readDesired(ctx, h.desired, fleetapi.RoleKey(req.Role)); err != nil {
			return Rollout{}, err
		}
	}
	if prev != nil {
		if pv := payloadVersion(prev.Manifest); pv != req.Version {
			rb, err := manifest.SignRollback(manifest.Rollback{
				Role: req.Role, FromVersion: req.Version, ToVersion: pv,
				Created: now.UTC(), Expires: now.Add(30 * 24 * time.Hour).UTC(),
			}, req.Key)
			if err != nil {
				return Rollout{}, err
			}
			spec.Previous = &fleetapi.Desired{Manifest: prev.Manifest, Rollback: &rb, Rollout: spec.ID}
		}
	}
	r := Rollout{Spec: spec, State: StateRunning, WaveStarted: now.UTC(), Updated: now.UTC()}
	r.event(now, "rollout of %s %s started, waves %v", req.Role, req.Version, req.Waves)
	if err := writeRollout(ctx, h.control, r, rev); err != nil {
		return Rollout{}, err
	}
	return r, nil
}

// GetRollout returns the rollout record of a role.
func GetRollout(ctx context.Context, js jetstream.JetStream, cfg Config, role string) (Rollout, error) {
	cfg = cfg.WithDefaults()
	kv, err := js.KeyValue(ctx, cfg.Control)
	if err != nil {
		return Rollout{}, fmt.Errorf("fleet: %w", err)
	}
	r, _, err := readRollout(ctx, kv, role)
	return r, err
}

// SetRolloutState pauses, resumes or aborts a rollout. Aborting leaves every edge where it is.
func SetRolloutState(ctx context.Context, js jetstream.JetStream, cfg Config, role, state string) (Rollout, error) {
	cfg = cfg.WithDefaults()
	kv, err := js.KeyValue(ctx, cfg.Control)
	if err != nil {
		return Rollout{}, fmt.Errorf("fleet: %w", err)
	}
	for {
		r, rev, err := readRollout(ctx, kv, role)
		if err != nil {
			return Rollout{}, err
		}
		if !r.Active() {
			return r, fmt.Errorf("fleet: rollout is %s", r.State)
		}
		now := time.Now()
		if state == StateRunning && r.State == StatePaused {
			r.WaveStarted = now.UTC() // time spent paused does not count against the wave timeout
		}
		r.State, r.Updated = state, now.UTC()
		r.event(now, "operator set state %s", state)
		err = writeRollout(ctx, kv, r, rev)
		if errors.Is(err, jetstream.ErrKeyExists) || isWrongSeq(err) {
			continue // the controller wrote in between; re-read and apply again
		}
		return r, err
	}
}

func isWrongSeq(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence
}
