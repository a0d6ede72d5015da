package trust

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The bucket and key the signed list is published under.
const (
	DefaultBucket = "fleet-trust"
	Key           = "list"
	// GatewayInboxPrefix is the reply prefix a gateway's NATS connection must use: the hub's
	// gateway user may subscribe to nothing else.
	GatewayInboxPrefix = "_INBOX.gateway"
)

// EnsureBucket creates the trust bucket if it does not exist (fleetctl init does this too).
func EnsureBucket(ctx context.Context, js jetstream.JetStream, bucket string, replicas int) (jetstream.KeyValue, error) {
	if bucket == "" {
		bucket = DefaultBucket
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: bucket, Description: "signed enrolment and revocation list (fleetctl pki)",
		History: 8, Replicas: max(replicas, 1),
	})
	if err != nil {
		return nil, fmt.Errorf("trust: bucket %s: %w", bucket, err)
	}
	return kv, nil
}

// Publish puts a signed list (from Seal) into the bucket, creating the bucket if needed.
func Publish(ctx context.Context, js jetstream.JetStream, bucket string, data []byte) error {
	kv, err := EnsureBucket(ctx, js, bucket, 0)
	if err != nil {
		return err
	}
	if _, err := kv.Put(ctx, Key, data); err != nil {
		return fmt.Errorf("trust: publish: %w", err)
	}
	return nil
}

// Watch applies every list published to the bucket until ctx ends. It waits for the bucket
// while NATS or the bucket is unavailable (the store keeps what it has meanwhile), and ignores a
// deleted key: only a newer signed list changes what is in force.
func Watch(ctx context.Context, js jetstream.JetStream, bucket string, s *Store, log *slog.Logger) error {
	if bucket == "" {
		bucket = DefaultBucket
	}
	wait := func() error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
			return nil
		}
	}
	warned := false
	for {
		err := watchOnce(ctx, js, bucket, s, log)
		if ctx.Err() != nil {
			return nil
		}
		if !warned {
			log.Warn("trust list watch interrupted; enforcing the list in force", "bucket", bucket, "err", err)
			warned = true
		}
		if wait() != nil {
			return nil
		}
	}
}

func watchOnce(ctx context.Context, js jetstream.JetStream, bucket string, s *Store, log *slog.Logger) error {
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		return err
	}
	w, err := kv.Watch(ctx, Key)
	if err != nil {
		return err
	}
	defer w.Stop() //nolint:errcheck // best effort on the way out
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("watch closed")
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				if e != nil {
					log.Warn("trust list deleted from the bucket; keeping the list in force", "bucket", bucket)
				}
				continue
			}
			changed, err := s.Apply(e.Value())
			switch {
			case err != nil:
				log.Error("trust list refused", "bucket", bucket, "revision", e.Revision(), "err", err)
			case changed:
				l := s.Current()
				log.Info("trust list in force", "version", l.Version, "enrolled", len(l.Enrolled), "revoked", len(l.Revoked))
			}
		}
	}
}
