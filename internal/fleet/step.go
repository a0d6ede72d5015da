package fleet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

func matches(sel, labels map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func installedVersion(e fleetapi.EdgeStatus, role, version string) bool {
	return e.Roles[role].Version == version
}

// rejected reports why an edge refused this rollout's manifest or artifact (unknown signer,
// tampered, older than installed, …), or "". The edge names the rollout in its status because a
// manifest it cannot verify has no version it could trust.
func rejected(e fleetapi.EdgeStatus, s Spec) string {
	rs := e.Roles[s.Role]
	if rs.State != fleetapi.StateRejected {
		return ""
	}
	if rs.Rollout == s.ID || (rs.FailedVersion != "" && rs.FailedVersion == s.Version) {
		if rs.Reason == "" {
			return "rejected"
		}
		return rs.Reason
	}
	return ""
}

func failedVersion(e fleetapi.EdgeStatus, role, version string) bool {
	rs := e.Roles[role]
	return rs.FailedVersion == version && (rs.State == fleetapi.StateFailed || rs.State == fleetapi.StateRejected)
}

// step computes the next rollout record from the current one and what edges report. It returns
// nil when nothing changed. Desired-state writes happen before the record is written, so a
// controller dying in between only repeats idempotent puts.
func (c *Controller) step(ctx context.Context, h handles, r Rollout, edges []fleetapi.EdgeStatus) (*Rollout, error) {
	now := c.now()
	s := r.Spec
	var eligible []fleetapi.EdgeStatus
	for _, e := range edges {
		if matches(s.Selector, e.Labels) {
			eligible = append(eligible, e)
		}
	}
	members := map[string]bool{}
	for _, m := range r.Members {
		members[m] = true
	}
	var fresh, refusals []string
	pending := 0
	for _, e := range eligible {
		switch {
		case members[e.EdgeID]:
			if why := rejected(e, s); why != "" {
				refusals = append(refusals, e.EdgeID+": "+why)
			}
			if !installedVersion(e, s.Role, s.Version) && !failedVersion(e, s.Role, s.Version) {
				pending++
			}
		case Bucket(e.EdgeID) < s.Waves[r.Wave]:
			fresh = append(fresh, e.EdgeID)
		}
	}
	if len(refusals) > 0 {
		// An edge that refuses the manifest will not change its mind: waiting out the wave timeout
		// only delays the rollback.
		slices.Sort(refusals)
		n := len(refusals)
		if n > 5 {
			refusals = append(refusals[:5], fmt.Sprintf("and %d more", n-5))
		}
		return c.rollbackWave(ctx, h, r, fmt.Sprintf("%d edge(s) rejected the manifest (%s)", n, strings.Join(refusals, ", ")))
	}
	slices.SortFunc(fresh, func(a, b string) int {
		if c := compareFloat(Bucket(a), Bucket(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	if s.WaveBytesLimit > 0 && s.Size > 0 {
		slots := max(1, int(s.WaveBytesLimit/s.Size)) - pending
		fresh = fresh[:max(0, min(slots, len(fresh)))]
	}
	changed := false
	for _, id := range fresh {
		if err := putDesired(ctx, h.desired, fleetapi.EdgeKey(id, s.Role), s.Desired); err != nil {
			return nil, err
		}
		r.Members = append(r.Members, id)
		members[id] = true
		pending++
		changed = true
	}
	if changed {
		r.event(now, "wave %d: %d edges assigned %s", r.Wave+1, len(fresh), s.Version)
	}
	if pending > 0 || changed {
		if now.Sub(r.WaveStarted) > s.WaveTimeout {
			return c.rollbackWave(ctx, h, r, errWaveTimeout.Error())
		}
		if changed {
			return &r, nil
		}
		return nil, nil
	}
	if r.SettledAt.IsZero() {
		r.SettledAt = now.UTC()
		r.event(now, "wave %d settled", r.Wave+1)
		return &r, nil
	}
	if now.Sub(r.SettledAt) < s.Soak {
		return nil, nil
	}
	var inWave, baseline []fleetapi.EdgeStatus
	for _, e := range eligible {
		if members[e.EdgeID] {
			inWave = append(inWave, e)
		} else {
			baseline = append(baseline, e)
		}
	}
	vals := Measure(s.Role, s.Version, inWave, baseline)
	if got := vals[measuredRequests]; got < float64(s.MinRequests) {
		if now.Sub(r.WaveStarted) > s.WaveTimeout {
			return c.rollbackWave(ctx, h, r, fmt.Sprintf("%s: %.0f of %d requests", errTooLittleTraffic, got, s.MinRequests))
		}
		return nil, nil
	}
	var failed []string
	for _, g := range s.Gates {
		if !g.Holds(vals[g.Metric]) {
			failed = append(failed, fmt.Sprintf("%s (measured %.4g)", g, vals[g.Metric]))
		}
	}
	if len(failed) > 0 {
		return c.rollbackWave(ctx, h, r, "gate failed: "+strings.Join(failed, ", "))
	}
	if r.Wave == len(s.Waves)-1 {
		if err := c.finalize(ctx, h, s); err != nil {
			return nil, err
		}
		r.State = StateSucceeded
		r.event(now, "gates held on %.0f requests; all waves passed; %s %s is the default for its edges", vals[measuredRequests], s.Role, s.Version)
		return &r, nil
	}
	r.Wave++
	r.WaveStarted, r.SettledAt = now.UTC(), time.Time{}
	r.event(now, "gates held on %.0f requests; starting wave %d (%.4g%%)", vals[measuredRequests], r.Wave+1, s.Waves[r.Wave])
	return &r, nil
}

// rollbackWave sends every edge that got the new version back to the previous desired entry.
func (c *Controller) rollbackWave(ctx context.Context, h handles, r Rollout, why string) (*Rollout, error) {
	s := r.Spec
	for _, id := range r.Members {
		key := fleetapi.EdgeKey(id, s.Role)
		if s.Previous != nil {
			if err := putDesired(ctx, h.desired, key, *s.Previous); err != nil {
				return nil, err
			}
			continue
		}
		// Nothing ran before this version: stop pushing it, the edges keep what they have.
		if err := h.desired.Delete(ctx, key); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, fmt.Errorf("fleet: clear override: %w", err)
		}
	}
	r.State = StateRolledBack
	r.event(c.now(), "wave %d rolled back: %s", r.Wave+1, why)
	return &r, nil
}

// finalize makes the version the default for everyone the rollout targeted (the role key, or the
// selector's key) and drops the per-edge overrides, so edges that were offline during the rollout
// catch up when they return.
func (c *Controller) finalize(ctx context.Context, h handles, s Spec) error {
	if err := putDesired(ctx, h.desired, targetKey(s), s.Desired); err != nil {
		return err
	}
	lister, err := h.desired.ListKeysFiltered(ctx, "edge.*."+s.Role)
	if err != nil {
		if errors.Is(err, jetstream.ErrNoKeysFound) {
			return nil
		}
		return fmt.Errorf("fleet: list overrides: %w", err)
	}
	var keys []string
	for k := range lister.Keys() {
		keys = append(keys, k)
	}
	for _, k := range keys {
		if err := h.desired.Delete(ctx, k); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
			return fmt.Errorf("fleet: clear override: %w", err)
		}
	}
	return nil
}

// targetKey is the desired-state key that covers every edge a rollout targets.
func targetKey(s Spec) string {
	if len(s.Selector) == 0 {
		return fleetapi.RoleKey(s.Role)
	}
	return fleetapi.SelectorKey(s.Selector, s.Role)
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
