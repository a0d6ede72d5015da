package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// LastKnown is the value of an edge's key in the edges bucket: the last heartbeat the fleet
// received from it, kept after the heartbeat's own key expires, so that a dead edge stays visible.
// Only the controller writes it; an edge has no permission to (see EdgePermissions).
type LastKnown struct {
	Status fleetapi.EdgeStatus `json:"status"`
	// Heard is when the last heartbeat reached the fleet: the NATS server's timestamp of the
	// status message, not the edge's clock (which may be wrong) nor the controller's (which
	// would make every dead edge look fresh after a controller restart).
	Heard      time.Time `json:"heard"`
	FirstHeard time.Time `json:"first_heard"`
	// Revision is the status stream's sequence of that heartbeat; a copy never goes backwards.
	Revision uint64 `json:"revision"`
}

// ErrUnknownEdge is returned by ForgetEdge for an edge the fleet has no record of.
var ErrUnknownEdge = errors.New("fleet: no such edge")

// keepLastKnown copies every heartbeat into the edges bucket until ctx ends; the returned
// function stops it and waits. Every controller runs it, leader or not: copies are idempotent
// and never go backwards, so a standby keeps the record current while the leader is gone.
func (c *Controller) keepLastKnown(ctx context.Context) (wait func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			err := copyHeartbeats(ctx, c.js, c.cfg.Fleet, c.log)
			if ctx.Err() != nil {
				return
			}
			c.log.Warn("last-known edge state: copy stopped; retrying", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(c.cfg.Tick):
			}
		}
	}()
	return func() { cancel(); <-done }
}

// copyHeartbeats watches the status bucket and writes each heartbeat to the edges bucket. It
// returns when ctx ends or the watch breaks.
func copyHeartbeats(ctx context.Context, js jetstream.JetStream, cfg Config, log *slog.Logger) error {
	status, err := js.KeyValue(ctx, cfg.Buckets.Status)
	if err != nil {
		return fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Status, err)
	}
	edges, err := js.KeyValue(ctx, cfg.Buckets.Edges)
	if err != nil {
		return fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Edges, err)
	}
	w, err := status.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return fmt.Errorf("fleet: watch status: %w", err)
	}
	defer func() { _ = w.Stop() }()
	written := map[string]LastKnown{} // per edge, what this process last wrote or read back
	for {
		var e jetstream.KeyValueEntry
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok = <-w.Updates():
		}
		if !ok {
			return errors.New("fleet: status watch closed")
		}
		if e == nil || e.Operation() != jetstream.KeyValuePut {
			continue // nil marks the end of the initial values
		}
		id, isEdge := strings.CutPrefix(e.Key(), "edge.")
		if !isEdge || !fleetapi.ValidToken(id) {
			continue
		}
		var st fleetapi.EdgeStatus
		if err := json.Unmarshal(e.Value(), &st); err != nil {
			log.Warn("unreadable heartbeat ignored", "edge", id, "bytes", len(e.Value()))
			continue
		}
		// The key is what the permissions tie to the edge; a body naming another edge is not
		// allowed to rewrite that edge's record.
		if st.EdgeID != id {
			log.Warn("heartbeat names another edge; ignored", "edge", id)
			continue
		}
		prev, seen := written[id]
		if !seen {
			prev, _, _ = readLastKnown(ctx, edges, id)
		}
		if prev.Revision >= e.Revision() {
			written[id] = prev
			continue
		}
		rec := LastKnown{Status: st, Heard: e.Created().UTC(), FirstHeard: prev.FirstHeard, Revision: e.Revision()}
		if rec.FirstHeard.IsZero() {
			rec.FirstHeard = rec.Heard
		}
		data, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("fleet: %w", err)
		}
		if _, err := edges.Put(ctx, fleetapi.StatusKey(id), data); err != nil {
			return fmt.Errorf("fleet: write last-known %s: %w", id, err)
		}
		written[id] = rec
	}
}

func readLastKnown(ctx context.Context, kv jetstream.KeyValue, id string) (LastKnown, uint64, error) {
	e, err := kv.Get(ctx, fleetapi.StatusKey(id))
	if err != nil {
		return LastKnown{}, 0, err
	}
	var rec LastKnown
	if err := json.Unmarshal(e.Value(), &rec); err != nil {
		return LastKnown{}, 0, fmt.Errorf("fleet: last-known record of %s: %w", id, err)
	}
	return rec, e.Revision(), nil
}

// ForgetEdge removes an edge's last-known record (and any live heartbeat key), so that it no
// longer shows up as OFFLINE. It is the only way a record leaves the edges bucket. An edge that
// still reports comes back with its next heartbeat.
func ForgetEdge(ctx context.Context, js jetstream.JetStream, cfg Config, id string) error {
	cfg = cfg.WithDefaults()
	if !fleetapi.ValidToken(id) {
		return fmt.Errorf("fleet: edge id %q is not a valid token", id)
	}
	edges, err := js.KeyValue(ctx, cfg.Buckets.Edges)
	if err != nil {
		return fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Edges, err)
	}
	status, err := js.KeyValue(ctx, cfg.Buckets.Status)
	if err != nil {
		return fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Status, err)
	}
	_, _, errEdges := readLastKnown(ctx, edges, id)
	_, errStatus := status.Get(ctx, fleetapi.StatusKey(id))
	if errors.Is(errEdges, jetstream.ErrKeyNotFound) && errors.Is(errStatus, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("%w: %s", ErrUnknownEdge, id)
	}
	// Purge, not delete: no history of a forgotten edge is kept.
	if err := edges.Purge(ctx, fleetapi.StatusKey(id)); err != nil {
		return fmt.Errorf("fleet: forget %s: %w", id, err)
	}
	if errStatus == nil {
		if err := status.Purge(ctx, fleetapi.StatusKey(id)); err != nil {
			return fmt.Errorf("fleet: forget %s: %w", id, err)
		}
	}
	return nil
}
