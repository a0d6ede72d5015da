package fleet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// DefaultControlBucket holds the manifest catalog, rollout records and the controller lease.
const DefaultControlBucket = "sucursal-fleet"

// Config names the buckets and the status TTL.
type Config struct {
	Buckets   fleetapi.Buckets
	Control   string
	StatusTTL time.Duration // an edge that has not reported for this long counts as offline
	Replicas  int
	// MaxConsumers caps the consumers of the two buckets every edge reads: one desired-state
	// watch per edge, one artifact reader per downloading edge. A stream without a limit of its
	// own gets nats-server's default (1 000 since 2.12), which leaves edge 1 001 without a watch
	// for ever, so Init always sets one. Default DefaultMaxConsumers.
	MaxConsumers int
}

// DefaultMaxConsumers is the consumer cap of the edge-facing buckets: room for 10 000 edges'
// watches, with the same again for artifact readers under a wave's byte limit.
const DefaultMaxConsumers = 20_000

// WithDefaults fills in empty fields.
func (c Config) WithDefaults() Config {
	c.Buckets = c.Buckets.WithDefaults()
	if c.Control == "" {
		c.Control = DefaultControlBucket
	}
	if c.StatusTTL == 0 {
		c.StatusTTL = 30 * time.Second
	}
	if c.Replicas == 0 {
		c.Replicas = 1
	}
	if c.MaxConsumers == 0 {
		c.MaxConsumers = DefaultMaxConsumers
	}
	return c
}

// Init creates or updates every bucket; running it twice changes nothing.
func Init(ctx context.Context, js jetstream.JetStream, cfg Config) error {
	cfg = cfg.WithDefaults()
	kvs := []jetstream.KeyValueConfig{
		{Bucket: cfg.Buckets.Desired, Description: "desired model per role, label and edge", History: 5, Replicas: cfg.Replicas},
		// History 3, not 1: a key listing (an ordered consumer over last-per-subject) misses a key
		// whose only message is replaced while the listing runs, and with every edge rewriting
		// its key each heartbeat, edges flickered out of the controller's view under load.
		{Bucket: cfg.Buckets.Status, Description: "edge status heartbeats", History: 3, TTL: cfg.StatusTTL, Replicas: cfg.Replicas},
		{Bucket: cfg.Control, Description: "manifest catalog, rollouts, controller lease", History: 5, Replicas: cfg.Replicas},
		// No TTL: a dead edge must stay visible (as OFFLINE) until an operator forgets it.
		// History 3 for the same listing reason as the status bucket; the controller rewrites it each heartbeat.
		{Bucket: cfg.Buckets.Edges, Description: "last-known status per edge, kept after heartbeats stop", History: 3, Replicas: cfg.Replicas},
	}
	var errs []error
	for _, kc := range kvs {
		if _, err := js.CreateOrUpdateKeyValue(ctx, kc); err != nil {
			errs = append(errs, fmt.Errorf("fleet: bucket %s: %w", kc.Bucket, err))
		}
	}
	oc := jetstream.ObjectStoreConfig{Bucket: cfg.Buckets.Artifacts, Description: "model artifacts", Replicas: cfg.Replicas, Storage: jetstream.FileStorage}
	if _, err := js.CreateOrUpdateObjectStore(ctx, oc); err != nil {
		errs = append(errs, fmt.Errorf("fleet: bucket %s: %w", oc.Bucket, err))
	}
	// The usage history (issue 18): every edge appends one summary per usage window; kept for
	// UsageMaxAge so that `fleetctl size --from-fleet --since 30d` has a month to read.
	sc := jetstream.StreamConfig{Name: fleetapi.UsageStream, Description: "edge usage summaries, one per edge per window, for sizing",
		Subjects: []string{fleetapi.UsageSubjectPrefix + ">"}, Retention: jetstream.LimitsPolicy, MaxAge: fleetapi.UsageMaxAge,
		Storage: jetstream.FileStorage, Replicas: cfg.Replicas}
	if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
		errs = append(errs, fmt.Errorf("fleet: stream %s: %w", sc.Name, err))
	}
	// What the KV and object store configs cannot say. Direct gets may be answered by any
	// replica, also one a write has not reached yet: on R3 a rollout started right after its
	// publish found no catalog entry, and the version a failed wave goes back to could be read
	// stale the same way. The fleet's own reads of desired state and of the control bucket (the
	// lease's compare-and-set included) therefore go to the stream leader; edges never Get from
	// either, they watch.
	tune := []struct {
		stream string
		fix    func(*jetstream.StreamConfig)
	}{
		{"KV_" + cfg.Buckets.Desired, func(sc *jetstream.StreamConfig) { sc.MaxConsumers, sc.AllowDirect = cfg.MaxConsumers, false }},
		{"OBJ_" + cfg.Buckets.Artifacts, func(sc *jetstream.StreamConfig) { sc.MaxConsumers = cfg.MaxConsumers }},
		{"KV_" + cfg.Control, func(sc *jetstream.StreamConfig) { sc.AllowDirect = false }},
	}
	for _, t := range tune {
		if err := tuneStream(ctx, js, t.stream, t.fix); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// tuneStream applies fix to a bucket's stream config, if that changes anything (creating or
// updating a KV or object store resets these fields to the server's defaults).
func tuneStream(ctx context.Context, js jetstream.JetStream, stream string, fix func(*jetstream.StreamConfig)) error {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return fmt.Errorf("fleet: stream %s: %w", stream, err)
	}
	sc := s.CachedInfo().Config
	want := sc
	fix(&want)
	if want.MaxConsumers == sc.MaxConsumers && want.AllowDirect == sc.AllowDirect {
		return nil
	}
	if _, err := js.UpdateStream(ctx, want); err != nil {
		return fmt.Errorf("fleet: stream %s: %w", stream, err)
	}
	return nil
}

type handles struct {
	desired, status, control jetstream.KeyValue
	artifacts                jetstream.ObjectStore
}

func open(ctx context.Context, js jetstream.JetStream, cfg Config) (handles, error) {
	var h handles
	var err error
	if h.desired, err = js.KeyValue(ctx, cfg.Buckets.Desired); err != nil {
		return h, fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Desired, err)
	}
	if h.status, err = js.KeyValue(ctx, cfg.Buckets.Status); err != nil {
		return h, fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Status, err)
	}
	if h.control, err = js.KeyValue(ctx, cfg.Control); err != nil {
		return h, fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Control, err)
	}
	if h.artifacts, err = js.ObjectStore(ctx, cfg.Buckets.Artifacts); err != nil {
		return h, fmt.Errorf("fleet: %s (run fleetctl init): %w", cfg.Buckets.Artifacts, err)
	}
	return h, nil
}
