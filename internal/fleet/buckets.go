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
	for _, name := range []string{"KV_" + cfg.Buckets.Desired, "OBJ_" + cfg.Buckets.Artifacts} {
		if err := setMaxConsumers(ctx, js, name, cfg.MaxConsumers); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// setMaxConsumers gives a bucket's stream its own consumer cap (the KV and object store
// configs have no field for it; creating or updating them resets it to the server default).
func setMaxConsumers(ctx context.Context, js jetstream.JetStream, stream string, n int) error {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return fmt.Errorf("fleet: stream %s: %w", stream, err)
	}
	sc := s.CachedInfo().Config
	if sc.MaxConsumers == n {
		return nil
	}
	sc.MaxConsumers = n
	if _, err := js.UpdateStream(ctx, sc); err != nil {
		return fmt.Errorf("fleet: stream %s: max consumers %d: %w", stream, n, err)
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
