package sync_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/sync"
)

// The test binary doubles as a one-shot downloader so that peak RSS can be measured in a process
// that does nothing else (the parent also runs the NATS server).
const childEnv = "SUCURSAL_SYNC_DOWNLOAD_CHILD"

type childJob struct {
	URL, Bucket, Object, Digest, Dir string
	Size                             int64
	Raw                              bool // stock Object Store Get instead of the resumable fetcher
}

type childResult struct {
	PeakRSSKiB int64 `json:"peak_rss_kib"`
}

func TestMain(m *testing.M) {
	if job := os.Getenv(childEnv); job != "" {
		if err := runChild(job); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runChild(jobJSON string) error {
	var job childJob
	if err := json.Unmarshal([]byte(jobJSON), &job); err != nil {
		return err
	}
	nc, err := nats.Connect(job.URL)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour) // see BenchmarkFanout20
	defer cancel()
	if job.Raw {
		obs, err := js.ObjectStore(ctx, job.Bucket)
		if err != nil {
			return err
		}
		f, err := os.Create(job.Dir + "/raw")
		if err != nil {
			return err
		}
		// Same retry policy as the fan-out benchmark's baseline (see there).
		for attempt := 1; ; attempt++ {
			err := obs.GetFile(ctx, job.Object, f.Name())
			if err == nil {
				break
			}
			if attempt == 3 {
				return err
			}
		}
		f.Close()
	} else {
		f := sync.NewFetcher(js, job.Bucket, job.Dir, 0, 0, nil)
		if _, err := f.Fetch(ctx, job.Object, job.Digest, job.Size, nil); err != nil {
			return err
		}
	}
	hwm, err := peakRSSKiB()
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(childResult{PeakRSSKiB: hwm})
}

func peakRSSKiB() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

// runDownloadChild downloads the object in a child process and returns its peak RSS in bytes.
func runDownloadChild(t testing.TB, env *fleettest.Env, object string, data []byte, raw bool) int64 {
	t.Helper()
	sum := sha256.Sum256(data)
	job, _ := json.Marshal(childJob{URL: env.Hub.URL(), Bucket: env.Cfg.Buckets.Artifacts, Object: object,
		Digest: hex.EncodeToString(sum[:]), Dir: t.TempDir(), Size: int64(len(data)), Raw: raw})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(job), "GOMAXPROCS=2")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("download child: %v", err)
	}
	var res childResult
	if err := json.NewDecoder(io.LimitReader(strings.NewReader(string(out)), 1<<10)).Decode(&res); err != nil {
		t.Fatalf("download child output %q: %v", out, err)
	}
	return res.PeakRSSKiB << 10
}

// Bounded memory: downloading an artifact larger than the bound must not need the bound.
func TestDownloadPeakRSSBounded(t *testing.T) {
	const bound = 64 << 20
	env := fleettest.Start(t)
	data := fleettest.Artifact(40, 96<<20)
	env.Publish(t, role, "1", data)
	rss := runDownloadChild(t, env, "drafter/1", data, false)
	t.Logf("peak RSS of the resumable download of %d MiB: %.1f MiB", len(data)>>20, float64(rss)/(1<<20))
	if raceEnabled {
		t.Log("race detector on: its shadow memory makes the RSS bound meaningless; only the download was checked")
		return
	}
	if rss > bound {
		t.Fatalf("peak RSS %d MiB exceeds %d MiB", rss>>20, bound>>20)
	}
}
