package sync_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/sync"
)

func putObject(t *testing.T, env *fleettest.Env, name string, data []byte) *jetstream.ObjectInfo {
	t.Helper()
	obs, err := env.JS.ObjectStore(context.Background(), env.Cfg.Buckets.Artifacts)
	if err != nil {
		t.Fatal(err)
	}
	info, err := obs.PutBytes(context.Background(), name, data)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// A fetch killed mid-stream resumes from its last persisted window: across both runs, at most one
// window of chunks is received twice, and the bytes on disk are exactly the object's.
func TestFetchResumesAfterKill(t *testing.T) {
	env := fleettest.Start(t)
	data := fleettest.Artifact(1, 8<<20+12345)
	info := putObject(t, env, "m/1", data)
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	const window = 8

	for _, killAt := range []uint64{3 * window / 2, 5 * window} {
		t.Run("", func(t *testing.T) {
			dir := t.TempDir()
			first := sync.NewFetcher(env.Client(t, "first"), env.Cfg.Buckets.Artifacts, dir, window, 0, nil)
			ctx, kill := context.WithCancel(context.Background())
			_, err := first.Fetch(ctx, "m/1", digest, int64(len(data)), func(int64, int64) {
				if first.Counters.Chunks.Load() == killAt {
					kill()
				}
			})
			kill()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("first fetch: err = %v, want context.Canceled", err)
			}
			second := sync.NewFetcher(env.Client(t, "second"), env.Cfg.Buckets.Artifacts, dir, window, 0, nil)
			path, err := second.Fetch(context.Background(), "m/1", digest, int64(len(data)), nil)
			if err != nil {
				t.Fatalf("resumed fetch: %v", err)
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("resumed artifact differs from the object (err %v)", err)
			}
			c1, c2 := first.Counters.Chunks.Load(), second.Counters.Chunks.Load()
			total := uint64(info.Chunks)
			if c2 >= total {
				t.Fatalf("second run received %d of %d chunks: it restarted instead of resuming", c2, total)
			}
			if redone := c1 + c2 - total; redone > window {
				t.Fatalf("re-downloaded %d chunks, more than one window (%d)", redone, window)
			}
			t.Logf("killed after %d chunks, resumed with %d, %d of %d chunks fetched twice", c1, c2, c1+c2-total, total)
		})
	}
}

// A partial file that does not match its progress record (a power cut after the record was
// written, a bad disk) is thrown away and downloaded again, not reported as a tampered artifact.
func TestFetchDiscardsPartialThatDoesNotMatchRecord(t *testing.T) {
	env := fleettest.Start(t)
	data := fleettest.Artifact(4, 4<<20)
	info := putObject(t, env, "m/1", data)
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	dir := t.TempDir()
	first := sync.NewFetcher(env.JS, env.Cfg.Buckets.Artifacts, dir, 4, 0, nil)
	ctx, kill := context.WithCancel(context.Background())
	_, err := first.Fetch(ctx, "m/1", digest, int64(len(data)), func(int64, int64) {
		if first.Counters.Chunks.Load() == 20 {
			kill()
		}
	})
	kill()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first fetch: %v", err)
	}
	part := filepath.Join(dir, "downloads", digest+".part")
	f, err := os.OpenFile(part, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0xff, 0xfe, 0xfd}, 1000); err != nil {
		t.Fatal(err)
	}
	f.Close()

	second := sync.NewFetcher(env.JS, env.Cfg.Buckets.Artifacts, dir, 4, 0, nil)
	path, err := second.Fetch(context.Background(), "m/1", digest, int64(len(data)), nil)
	if err != nil {
		t.Fatalf("fetch after corruption: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Fatal("artifact differs from the object")
	}
	if second.Counters.Discarded.Load() != 1 || second.Counters.Chunks.Load() != uint64(info.Chunks) {
		t.Fatalf("discarded %d partials and fetched %d of %d chunks; want 1 and all", second.Counters.Discarded.Load(), second.Counters.Chunks.Load(), info.Chunks)
	}
}

// A finished artifact is not fsynced, so reusing it re-checks its digest and fetches it again if
// the disk lost or changed it.
func TestFetchRechecksKeptArtifact(t *testing.T) {
	env := fleettest.Start(t)
	data := fleettest.Artifact(5, 1<<20)
	putObject(t, env, "m/1", data)
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	f := sync.NewFetcher(env.JS, env.Cfg.Buckets.Artifacts, t.TempDir(), 0, 0, nil)
	path, err := f.Fetch(context.Background(), "m/1", digest, int64(len(data)), nil)
	if err != nil {
		t.Fatal(err)
	}
	fetched := f.Counters.Chunks.Load()
	if _, err := f.Fetch(context.Background(), "m/1", digest, int64(len(data)), nil); err != nil || f.Counters.Chunks.Load() != fetched {
		t.Fatalf("intact artifact was fetched again (err %v)", err)
	}
	if err := os.Truncate(path, 1000); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Fetch(context.Background(), "m/1", digest, int64(len(data)), nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) || f.Counters.Discarded.Load() != 1 || f.Counters.Chunks.Load() != 2*fetched {
		t.Fatalf("damaged artifact not replaced: discarded %d, chunks %d", f.Counters.Discarded.Load(), f.Counters.Chunks.Load())
	}
}

func TestFetchRejectsTamperedBytes(t *testing.T) {
	env := fleettest.Start(t)
	data := fleettest.Artifact(2, 300000)
	sum := sha256.Sum256(data)
	tampered := bytes.Clone(data)
	tampered[len(tampered)/2] ^= 1
	putObject(t, env, "m/1", tampered)
	dir := t.TempDir()
	f := sync.NewFetcher(env.JS, env.Cfg.Buckets.Artifacts, dir, 0, 0, nil)
	_, err := f.Fetch(context.Background(), "m/1", hex.EncodeToString(sum[:]), int64(len(data)), nil)
	if !errors.Is(err, sync.ErrDigestMismatch) {
		t.Fatalf("err = %v, want ErrDigestMismatch", err)
	}
	if _, err := os.Stat(f.ArtifactPath(hex.EncodeToString(sum[:]))); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("tampered artifact was kept: %v", err)
	}
}

func TestFetchBandwidthLimitStillCompletes(t *testing.T) {
	env := fleettest.Start(t)
	data := fleettest.Artifact(3, 1<<20)
	sum := sha256.Sum256(data)
	env.Publish(t, "drafter", "1", data)
	f := sync.NewFetcher(env.JS, env.Cfg.Buckets.Artifacts, t.TempDir(), 0, 4<<20, nil)
	path, err := f.Fetch(context.Background(), fleetapi.ObjectName("drafter", "1"), hex.EncodeToString(sum[:]), int64(len(data)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Fatal("artifact differs")
	}
}
