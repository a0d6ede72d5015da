package sync

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// watch mirrors the desired-state keys that concern this edge. The KV watcher rides an ordered
// consumer, which survives reconnects; if it still ends, it is recreated.
func (a *Agent) watch(ctx context.Context, js jetstream.JetStream) error {
	delay := 250 * time.Millisecond
	for {
		watched, err := a.watchOnce(ctx, js)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if watched {
			delay = 250 * time.Millisecond
		} else {
			delay = min(2*delay, 10*time.Second) // NATS unreachable: back off, quietly
		}
		a.log.Warn("desired-state watch ended; retrying", "err", err, "in", delay)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

// watchOnce runs one watcher; watched reports whether it got as far as watching.
func (a *Agent) watchOnce(ctx context.Context, js jetstream.JetStream) (watched bool, err error) {
	kv, err := js.KeyValue(ctx, a.cfg.Buckets.Desired)
	if err != nil {
		return false, fmt.Errorf("sync: desired bucket: %w", err)
	}
	w, err := kv.WatchFiltered(ctx, fleetapi.DesiredFilters(a.cfg.EdgeID))
	if err != nil {
		return false, fmt.Errorf("sync: watch desired: %w", err)
	}
	defer w.Stop()
	// The watcher's ordered consumer notices a lost server only after missed heartbeats (about
	// 20 s here); a reconnect is a cheaper signal, so the watch is recreated on the spot.
	reconnects := js.Conn().Stats().Reconnects
	poll := time.NewTicker(time.Second)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return true, ctx.Err()
		case <-poll.C:
			if js.Conn().Stats().Reconnects != reconnects {
				return true, errors.New("sync: reconnected to nats; recreating watch")
			}
		case e, ok := <-w.Updates():
			if !ok {
				return true, errors.New("sync: watcher closed")
			}
			if e == nil {
				continue // end of the initial values
			}
			a.applyEntry(e)
		}
	}
}

func (a *Agent) applyEntry(e jetstream.KeyValueEntry) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e.Operation() != jetstream.KeyValuePut {
		delete(a.desired, e.Key())
		signal(a.wake)
		return
	}
	d, err := fleetapi.ParseDesired(e.Value())
	if err != nil {
		a.log.Warn("ignoring unreadable desired-state entry", "key", e.Key(), "err", err)
		delete(a.desired, e.Key())
	} else {
		a.desired[e.Key()] = d
	}
	signal(a.wake)
}

const edgeRank = 1 << 20

func hasLabels(labels, sel map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// effective picks, per role, the most specific desired entry for this edge.
func (a *Agent) effective() map[string]fleetapi.Desired {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string]fleetapi.Desired{}
	rank := map[string]int{}
	keys := slices.Sorted(maps.Keys(a.desired))
	for _, k := range keys {
		dk, ok := fleetapi.ParseDesiredKey(k)
		if !ok {
			continue
		}
		var r int
		switch dk.Scope {
		case fleetapi.ScopeRole:
			r = 1
		case fleetapi.ScopeSelector:
			if !hasLabels(a.cfg.Labels, dk.Selector) {
				continue
			}
			// A selector of more labels is more specific; it can never outrank the edge's own key.
			r = 1 + min(len(dk.Selector), edgeRank-2)
		case fleetapi.ScopeEdge:
			if dk.EdgeID != a.cfg.EdgeID {
				continue
			}
			r = edgeRank
		}
		role := dk.Role
		if r > rank[role] { // keys are sorted, so ties keep the first: deterministic
			out[role], rank[role] = a.desired[k], r
		}
	}
	return out
}
