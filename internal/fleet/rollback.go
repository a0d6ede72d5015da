package fleet

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
)

// Rollback sends every edge of the role's last rollout back to the version that ran before it,
// with a freshly signed rollback directive, and stops the rollout if it is still active.
func Rollback(ctx context.Context, js jetstream.JetStream, cfg Config, role string, key ed25519.PrivateKey) (Rollout, error) {
	cfg = cfg.WithDefaults()
	h, err := open(ctx, js, cfg)
	if err != nil {
		return Rollout{}, err
	}
	for {
		r, rev, err := readRollout(ctx, h.control, role)
		if err != nil {
			return Rollout{}, err
		}
		if r.Spec.Previous == nil {
			return r, fmt.Errorf("%w: rollout %s had no previous version", ErrNoPrevious, r.Spec.ID)
		}
		now := time.Now()
		prev := *r.Spec.Previous
		rb, err := manifest.SignRollback(manifest.Rollback{
			Role: role, FromVersion: r.Spec.Version, ToVersion: payloadVersion(prev.Manifest),
			Created: now.UTC(), Expires: now.Add(30 * 24 * time.Hour).UTC(),
		}, key)
		if err != nil {
			return r, err
		}
		prev.Rollback = &rb
		// A selector rollout that finished wrote its selector's key; a plain one, the role default.
		if err := putDesired(ctx, h.desired, targetKey(r.Spec), prev); err != nil {
			return r, err
		}
		for _, edge := range r.Members {
			if err := h.desired.Delete(ctx, fleetapi.EdgeKey(edge, role)); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
				return r, fmt.Errorf("fleet: clear override of %s: %w", edge, err)
			}
		}
		r.State, r.Updated = StateRolledBack, now.UTC()
		r.event(now, "operator rolled %s back to %s", role, payloadVersion(prev.Manifest))
		err = writeRollout(ctx, h.control, r, rev)
		if isWrongSeq(err) {
			continue
		}
		return r, err
	}
}
