package fleet

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
)

// ErrVersionExists is returned when publishing a role/version that is already in the catalog:
// published versions are immutable, so an edge can never see two artifacts under one version.
var ErrVersionExists = errors.New("fleet: version already published")

// ErrNotPublished is returned when a rollout names a version that was never published.
var ErrNotPublished = errors.New("fleet: version not published")

// PublishRequest describes an artifact to publish.
type PublishRequest struct {
	Role, Version, Runtime string
	TokenizerFingerprint   string
	Artifact               io.Reader
	Validity               time.Duration // manifest lifetime; default 90 days
	Now                    time.Time     // default time.Now
}

func catalogKey(role, version string) string { return "manifest." + role + "." + version }

// Publish uploads the artifact (hashing it on the way), signs its manifest and records the signed
// manifest in the catalog. It returns the signed envelope.
func Publish(ctx context.Context, js jetstream.JetStream, cfg Config, priv ed25519.PrivateKey, req PublishRequest) (manifest.Envelope, manifest.Manifest, error) {
	cfg = cfg.WithDefaults()
	if !manifest.ValidRole(req.Role) || !manifest.ValidVersion(req.Version) {
		return manifest.Envelope{}, manifest.Manifest{}, fmt.Errorf("fleet: invalid role %q or version %q", req.Role, req.Version)
	}
	h, err := open(ctx, js, cfg)
	if err != nil {
		return manifest.Envelope{}, manifest.Manifest{}, err
	}
	if _, err := h.control.Get(ctx, catalogKey(req.Role, req.Version)); err == nil {
		return manifest.Envelope{}, manifest.Manifest{}, fmt.Errorf("%w: %s %s", ErrVersionExists, req.Role, req.Version)
	}
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	validity := req.Validity
	if validity == 0 {
		validity = 90 * 24 * time.Hour
	}
	// The object store publishes chunks asynchronously and gives up when no ack arrives within
	// 200 ms while the default 4000 chunks (500 MiB) are in flight, which is what a 1 GiB upload
	// on a busy server hits. A small in-flight window keeps acks coming and memory bounded.
	pubJS, err := jetstream.New(js.Conn(), jetstream.WithPublishAsyncMaxPending(64))
	if err != nil {
		return manifest.Envelope{}, manifest.Manifest{}, fmt.Errorf("fleet: jetstream: %w", err)
	}
	artifacts, err := pubJS.ObjectStore(ctx, cfg.Buckets.Artifacts)
	if err != nil {
		return manifest.Envelope{}, manifest.Manifest{}, fmt.Errorf("fleet: %w", err)
	}
	sum := sha256.New()
	info, err := artifacts.Put(ctx, jetstream.ObjectMeta{Name: fleetapi.ObjectName(req.Role, req.Version)}, io.TeeReader(req.Artifact, sum))
	if err != nil {
		return manifest.Envelope{}, manifest.Manifest{}, fmt.Errorf("fleet: upload artifact: %w", err)
	}
	m := manifest.Manifest{
		Role: req.Role, Version: req.Version, Digest: manifest.DigestFromHex(sum.Sum(nil)), Size: int64(info.Size),
		Runtime: req.Runtime, TokenizerFingerprint: req.TokenizerFingerprint, Object: info.Name,
		Created: now.UTC(), Expires: now.Add(validity).UTC(),
	}
	env, err := manifest.Sign(m, priv)
	if err != nil {
		return manifest.Envelope{}, manifest.Manifest{}, err
	}
	data, err := json.Marshal(env)
	if err != nil {
		return manifest.Envelope{}, manifest.Manifest{}, fmt.Errorf("fleet: %w", err)
	}
	if _, err := h.control.Create(ctx, catalogKey(req.Role, req.Version), data); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return manifest.Envelope{}, manifest.Manifest{}, fmt.Errorf("%w: %s %s", ErrVersionExists, req.Role, req.Version)
		}
		return manifest.Envelope{}, manifest.Manifest{}, fmt.Errorf("fleet: catalog: %w", err)
	}
	m.Signer = env.KeyID
	return env, m, nil
}

// Lookup returns the signed manifest of a published role/version.
func Lookup(ctx context.Context, js jetstream.JetStream, cfg Config, role, version string) (manifest.Envelope, error) {
	cfg = cfg.WithDefaults()
	kv, err := js.KeyValue(ctx, cfg.Control)
	if err != nil {
		return manifest.Envelope{}, fmt.Errorf("fleet: %w", err)
	}
	e, err := kv.Get(ctx, catalogKey(role, version))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return manifest.Envelope{}, fmt.Errorf("%w: %s %s", ErrNotPublished, role, version)
	}
	if err != nil {
		return manifest.Envelope{}, fmt.Errorf("fleet: catalog: %w", err)
	}
	return manifest.ParseEnvelope(e.Value())
}
