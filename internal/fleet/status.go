package fleet

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// Snapshot returns the status of every edge that reported within the status TTL, sorted by id.
// It is the live view the controller gates rollouts on; ReadFleet adds the edges that stopped.
func Snapshot(ctx context.Context, js jetstream.JetStream, cfg Config) ([]fleetapi.EdgeStatus, error) {
	cfg = cfg.WithDefaults()
	kv, err := js.KeyValue(ctx, cfg.Buckets.Status)
	if err != nil {
		return nil, fmt.Errorf("fleet: status bucket: %w", err)
	}
	// One watch over the latest value of every key, not a listing plus one Get per edge: the
	// controller reads this every tick, and at 2 000 edges the Gets took 4× as long (SCALE.md).
	byKey := map[string]fleetapi.EdgeStatus{} // a key rewritten during the read comes twice: keep the last
	err = readAll(ctx, kv, func(e jetstream.KeyValueEntry) {
		var st fleetapi.EdgeStatus
		if json.Unmarshal(e.Value(), &st) == nil { // a record we cannot read is an edge we cannot count on
			byKey[e.Key()] = st
		}
	})
	if err != nil {
		return nil, err
	}
	out := slices.Collect(maps.Values(byKey))
	slices.SortFunc(out, func(a, b fleetapi.EdgeStatus) int { return strings.Compare(a.EdgeID, b.EdgeID) })
	return out, nil
}

// Skew counts, per role, how many edges run each version ("" = nothing installed).
func Skew(edges []fleetapi.EdgeStatus) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, e := range edges {
		for role, rs := range e.Roles {
			if out[role] == nil {
				out[role] = map[string]int{}
			}
			out[role][rs.Version]++
		}
	}
	return out
}

// Edge states, by the age of the last heartbeat the fleet heard.
const (
	EdgeOnline  = "ONLINE"
	EdgeStale   = "STALE"   // missed a few heartbeats: a slow link, a restart, or the start of an outage
	EdgeOffline = "OFFLINE" // silent long enough to be treated as down
)

// EdgeStates lists the states in the order problems sort: worst first.
var EdgeStates = []string{EdgeOffline, EdgeStale, EdgeOnline}

// Default thresholds: with the agents' default 10 s heartbeat, STALE after three missed beats,
// OFFLINE after two minutes of silence.
const (
	DefaultStaleAfter   = 30 * time.Second
	DefaultOfflineAfter = 2 * time.Minute
)

// Thresholds turn a heartbeat's age into a state: younger than Stale is ONLINE, younger than
// Offline is STALE, anything older is OFFLINE. Zero fields mean the defaults.
type Thresholds struct {
	Stale   time.Duration
	Offline time.Duration
}

// WithDefaults fills in zero fields.
func (t Thresholds) WithDefaults() Thresholds {
	if t.Stale == 0 {
		t.Stale = DefaultStaleAfter
	}
	if t.Offline == 0 {
		t.Offline = DefaultOfflineAfter
	}
	return t
}

// Validate says what is wrong with the thresholds.
func (t Thresholds) Validate() error {
	t = t.WithDefaults()
	if t.Stale < 0 || t.Offline < 0 {
		return errors.New("fleet: state thresholds must be positive")
	}
	if t.Offline <= t.Stale {
		return fmt.Errorf("fleet: offline threshold %s must be longer than the stale threshold %s", t.Offline, t.Stale)
	}
	return nil
}

// State is the state of an edge last heard age ago.
func (t Thresholds) State(age time.Duration) string {
	t = t.WithDefaults()
	switch {
	case age < t.Stale:
		return EdgeOnline
	case age < t.Offline:
		return EdgeStale
	default:
		return EdgeOffline
	}
}

// EdgeView is one edge as ops see it: its last report, how long ago it was heard, its state and
// what is wrong with it.
type EdgeView struct {
	fleetapi.EdgeStatus
	State      string        `json:"state"`
	Heard      time.Time     `json:"last_heard"`
	FirstHeard time.Time     `json:"first_heard,omitzero"`
	Age        time.Duration `json:"-"`
	AgeSeconds float64       `json:"last_heard_seconds_ago"`
	Problems   []string      `json:"problems,omitempty"`
}

// ReadFleet returns every edge the fleet knows: the last-known records the controller kept
// (dead edges included) merged with the live heartbeats (so an edge shows even before the
// controller copied it, or with no controller running), with states at now. Sorted by id.
func ReadFleet(ctx context.Context, js jetstream.JetStream, cfg Config, th Thresholds, now time.Time) ([]EdgeView, error) {
	cfg = cfg.WithDefaults()
	byID := map[string]*EdgeView{}
	edges, err := js.KeyValue(ctx, cfg.Buckets.Edges)
	if err != nil {
		return nil, fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Edges, err)
	}
	err = readAll(ctx, edges, func(e jetstream.KeyValueEntry) {
		var rec LastKnown
		if json.Unmarshal(e.Value(), &rec) != nil || rec.Status.EdgeID == "" {
			return
		}
		byID[rec.Status.EdgeID] = &EdgeView{EdgeStatus: rec.Status, Heard: rec.Heard, FirstHeard: rec.FirstHeard}
	})
	if err != nil {
		return nil, err
	}
	status, err := js.KeyValue(ctx, cfg.Buckets.Status)
	if err != nil {
		return nil, fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Status, err)
	}
	err = readAll(ctx, status, func(e jetstream.KeyValueEntry) {
		var st fleetapi.EdgeStatus
		if json.Unmarshal(e.Value(), &st) != nil || fleetapi.StatusKey(st.EdgeID) != e.Key() {
			return
		}
		heard := e.Created().UTC()
		if v, ok := byID[st.EdgeID]; ok && !heard.After(v.Heard) {
			return
		}
		v := &EdgeView{EdgeStatus: st, Heard: heard}
		if old, ok := byID[st.EdgeID]; ok {
			v.FirstHeard = old.FirstHeard
		}
		byID[st.EdgeID] = v
	})
	if err != nil {
		return nil, err
	}
	out := make([]EdgeView, 0, len(byID))
	for _, v := range byID {
		v.Age = max(now.Sub(v.Heard), 0)
		v.AgeSeconds = v.Age.Round(time.Second).Seconds()
		v.State = th.State(v.Age)
		if v.Roles == nil {
			v.Roles = map[string]fleetapi.RoleStatus{}
		}
		out = append(out, *v)
	}
	slices.SortFunc(out, func(a, b EdgeView) int { return strings.Compare(a.EdgeID, b.EdgeID) })
	markProblems(out)
	return out, nil
}

// readAll calls fn for the latest value of every key (deletes and purges skipped).
func readAll(ctx context.Context, kv jetstream.KeyValue, fn func(jetstream.KeyValueEntry)) error {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return fmt.Errorf("fleet: read %s: %w", kv.Bucket(), err)
	}
	defer func() { _ = w.Stop() }()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return fmt.Errorf("fleet: read %s: watch closed", kv.Bucket())
			}
			if e == nil {
				return nil // the initial values are done
			}
			fn(e)
		}
	}
}

// RoleVersions is, per role, the version most edges run (ties go to the higher version string)
// and every version seen. A role whose edges run more than one version is skewed.
func RoleVersions(edges []EdgeView) map[string]VersionCount {
	counts := map[string]map[string]int{}
	for _, e := range edges {
		for role, rs := range e.Roles {
			if counts[role] == nil {
				counts[role] = map[string]int{}
			}
			counts[role][rs.Version]++
		}
	}
	out := map[string]VersionCount{}
	for role, vs := range counts {
		vc := VersionCount{Versions: vs}
		best := 0
		for _, v := range slices.Sorted(maps.Keys(vs)) {
			if v != "" && vs[v] >= best {
				vc.Majority, best = v, vs[v]
			}
		}
		out[role] = vc
	}
	return out
}

// VersionCount is how many edges run each version of one role ("" = nothing installed).
type VersionCount struct {
	Majority string         `json:"majority"`
	Versions map[string]int `json:"versions"`
}

// Skewed reports whether the role's edges run more than one version.
func (v VersionCount) Skewed() bool { return len(v.Versions) > 1 }

// markProblems fills in Problems for each edge: silence, failed installs, and running a version
// other than its desired one or the fleet's majority.
func markProblems(edges []EdgeView) {
	versions := RoleVersions(edges)
	for i := range edges {
		e := &edges[i]
		var p []string
		switch e.State {
		case EdgeOffline:
			p = append(p, fmt.Sprintf("offline: silent for %s", e.Age.Round(time.Second)))
		case EdgeStale:
			p = append(p, fmt.Sprintf("stale: silent for %s", e.Age.Round(time.Second)))
		}
		for _, role := range slices.Sorted(maps.Keys(e.Roles)) {
			rs := e.Roles[role]
			switch {
			case rs.State == fleetapi.StateFailed || rs.State == fleetapi.StateRejected:
				p = append(p, fmt.Sprintf("%s: %s %s (%s)", role, rs.State, dashIfEmpty(rs.FailedVersion), dashIfEmpty(rs.Reason)))
			case rs.Desired != "" && rs.Version != rs.Desired:
				p = append(p, fmt.Sprintf("%s: runs %s, desired %s", role, dashIfEmpty(rs.Version), rs.Desired))
			case versions[role].Skewed() && rs.Version != versions[role].Majority:
				p = append(p, fmt.Sprintf("%s: version skew: runs %s, most edges %s", role, dashIfEmpty(rs.Version), versions[role].Majority))
			}
		}
		e.Problems = p
	}
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Filter selects edges. Empty fields match everything; every field set must match.
type Filter struct {
	Role   string            // edges that report this role
	Labels map[string]string // edges with every one of these labels
	States []string          // edges in one of these states
}

// ParseFilter builds a filter from CLI values: labels as key=value, states case-insensitive.
func ParseFilter(role string, labels, states []string) (Filter, error) {
	f := Filter{Role: role, Labels: map[string]string{}}
	var errs []error
	for _, l := range labels {
		k, v, ok := strings.Cut(l, "=")
		if !ok || k == "" {
			errs = append(errs, fmt.Errorf("--label %q: want key=value", l))
			continue
		}
		f.Labels[k] = v
	}
	for _, s := range states {
		for part := range strings.SplitSeq(s, ",") {
			up := strings.ToUpper(strings.TrimSpace(part))
			if !slices.Contains(EdgeStates, up) {
				errs = append(errs, fmt.Errorf("--state %q: want one of %s", part, strings.Join(EdgeStates, ", ")))
				continue
			}
			f.States = append(f.States, up)
		}
	}
	return f, errors.Join(errs...)
}

// Match reports whether the edge passes the filter.
func (f Filter) Match(e EdgeView) bool {
	if f.Role != "" {
		if _, ok := e.Roles[f.Role]; !ok {
			return false
		}
	}
	for k, v := range f.Labels {
		if e.Labels[k] != v {
			return false
		}
	}
	return len(f.States) == 0 || slices.Contains(f.States, e.State)
}

// ProblemsFirst orders edges for ops: OFFLINE, then STALE, then edges with any other problem,
// then the healthy ones; by id within each group.
func ProblemsFirst(edges []EdgeView) {
	rank := func(e EdgeView) int {
		switch {
		case e.State == EdgeOffline:
			return 0
		case e.State == EdgeStale:
			return 1
		case len(e.Problems) > 0:
			return 2
		}
		return 3
	}
	slices.SortStableFunc(edges, func(a, b EdgeView) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a.EdgeID, b.EdgeID))
	})
}

// Report is `fleetctl status` in one value: edges (problems first), the edge × role version
// matrix and the per-role version counts.
type Report struct {
	Edges  []EdgeView                   `json:"edges"`
	Roles  []string                     `json:"roles"`
	Matrix map[string]map[string]string `json:"matrix"` // edge → role → running version ("" = none)
	Skew   map[string]VersionCount      `json:"versions"`
	Counts map[string]int               `json:"states"` // edges per state
}

// NewReport filters and orders edges and builds the matrix from what remains.
func NewReport(edges []EdgeView, f Filter) Report {
	r := Report{Edges: []EdgeView{}, Matrix: map[string]map[string]string{}, Counts: map[string]int{}}
	for _, s := range EdgeStates {
		r.Counts[s] = 0
	}
	roles := map[string]bool{}
	for _, e := range edges {
		if !f.Match(e) {
			continue
		}
		r.Edges = append(r.Edges, e)
		r.Counts[e.State]++
		row := map[string]string{}
		for role, rs := range e.Roles {
			roles[role] = true
			row[role] = rs.Version
		}
		r.Matrix[e.EdgeID] = row
	}
	ProblemsFirst(r.Edges)
	r.Roles = slices.Sorted(maps.Keys(roles))
	r.Skew = RoleVersions(r.Edges)
	return r
}

// RolloutView is a rollout record as ops read it: waves numbered from 1 and durations as Go
// duration strings ("10m0s"), not nanoseconds.
type RolloutView struct {
	ID          string            `json:"id"`
	Role        string            `json:"role"`
	Version     string            `json:"version"`
	Previous    string            `json:"previous,omitempty"` // what a failed wave goes back to
	State       string            `json:"state"`
	Wave        int               `json:"wave"` // 1-based
	Waves       []float64         `json:"waves"`
	Members     []string          `json:"members"`
	Selector    map[string]string `json:"selector,omitempty"`
	Gates       []string          `json:"gates"`
	MinRequests uint64            `json:"min_requests,omitempty"`
	Soak        string            `json:"soak"`
	WaveTimeout string            `json:"wave_timeout"`
	Created     time.Time         `json:"created"`
	WaveStarted time.Time         `json:"wave_started"`
	SettledAt   time.Time         `json:"settled_at,omitzero"`
	Updated     time.Time         `json:"updated"`
	Message     string            `json:"message,omitempty"`
	Events      []string          `json:"events,omitempty"`
}

// View converts a rollout record for display.
func (r Rollout) View() RolloutView {
	v := RolloutView{
		ID: r.Spec.ID, Role: r.Spec.Role, Version: r.Spec.Version, State: r.State, Wave: r.Wave + 1,
		Waves: r.Spec.Waves, Members: r.Members, Selector: r.Spec.Selector, MinRequests: r.Spec.MinRequests,
		Soak: r.Spec.Soak.String(), WaveTimeout: r.Spec.WaveTimeout.String(), Created: r.Spec.Created,
		WaveStarted: r.WaveStarted, SettledAt: r.SettledAt, Updated: r.Updated, Message: r.Message, Events: r.Events,
	}
	if v.Members == nil {
		v.Members = []string{}
	}
	for _, g := range r.Spec.Gates {
		v.Gates = append(v.Gates, g.String())
	}
	if r.Spec.Previous != nil {
		v.Previous = payloadVersion(r.Spec.Previous.Manifest)
	}
	return v
}

// ListRollouts returns the rollout record of every role that has one, sorted by role.
func ListRollouts(ctx context.Context, js jetstream.JetStream, cfg Config) ([]Rollout, error) {
	cfg = cfg.WithDefaults()
	kv, err := js.KeyValue(ctx, cfg.Control)
	if err != nil {
		return nil, fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Control, err)
	}
	var out []Rollout
	var bad []error
	err = readAll(ctx, kv, func(e jetstream.KeyValueEntry) {
		if !strings.HasPrefix(e.Key(), "rollout.") {
			return
		}
		var r Rollout
		if err := json.Unmarshal(e.Value(), &r); err != nil {
			bad = append(bad, fmt.Errorf("fleet: rollout record %s: %w", e.Key(), err))
			return
		}
		out = append(out, r)
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Rollout) int { return strings.Compare(a.Spec.Role, b.Spec.Role) })
	return out, errors.Join(bad...)
}
