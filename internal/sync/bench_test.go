package sync_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"

	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/sync"
)

// benchSize is the artifact size; SUCURSAL_BENCH_MIB overrides the default (kept small so that
// `go test -bench .` stays quick in CI; docs/FLEET.md gives the figures for the large run).
func benchSize(b *testing.B) int {
	if s := os.Getenv("SUCURSAL_BENCH_MIB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatal(err)
		}
		return n << 20
	}
	return 32 << 20
}

const fanout = 20

// BenchmarkFanout20 sends one artifact to 20 edges at once, each on its own NATS connection, with
// the stock Object Store Get (baseline: it streams straight to a file and checks the digest) and
// with the agent's resumable fetcher (persisted progress with fsync, sha256, atomic rename). Each
// iteration runs both, in alternating order, so that the two share the machine's noise; it reports
// each one's throughput (bytes delivered to all edges per second) and their ratio.
func BenchmarkFanout20(b *testing.B) {
	env := fleettest.Start(b)
	data := fleettest.Artifact(50, benchSize(b))
	env.Publish(b, role, "1", data)
	object := fleetapi.ObjectName(role, "1")
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	var clients []jetstream.JetStream
	for i := range fanout {
		clients = append(clients, env.Client(b, fmt.Sprintf("edge-%d", i)))
	}
	var rawRetries atomic.Int64
	raw := func(ctx context.Context, js jetstream.JetStream, dir string) error {
		// Without a deadline the stock reader gives up when one chunk takes over 5 s, which 20
		// parallel 1 GiB downloads on two cores do hit; a long deadline lifts that limit.
		ctx, cancel := context.WithTimeout(ctx, time.Hour)
		defer cancel()
		obs, err := js.ObjectStore(ctx, env.Cfg.Buckets.Artifacts)
		if err != nil {
			return err
		}
		// The stock Get sometimes times out on its internal pipe when 20 run at once on two
		// cores; the baseline gets up to three attempts (counted in raw-retries) so that its
		// flakiness cannot fail the benchmark.
		for range 3 {
			if err = obs.GetFile(ctx, object, filepath.Join(dir, "raw")); err == nil {
				return nil
			}
			rawRetries.Add(1)
		}
		return err
	}
	resumable := func(ctx context.Context, js jetstream.JetStream, dir string) error {
		f := sync.NewFetcher(js, env.Cfg.Buckets.Artifacts, dir, 0, 0, nil)
		_, err := f.Fetch(ctx, object, digest, int64(len(data)), nil)
		return err
	}
	once := func(one func(context.Context, jetstream.JetStream, string) error) (time.Duration, time.Duration) {
		root := b.TempDir()
		for i := range clients {
			if err := os.MkdirAll(filepath.Join(root, strconv.Itoa(i)), 0o750); err != nil {
				b.Fatal(err)
			}
		}
		start, cpu0 := time.Now(), cpuTime(b)
		g, ctx := errgroup.WithContext(context.Background())
		for i, js := range clients {
			dir := filepath.Join(root, strconv.Itoa(i))
			g.Go(func() error { return one(ctx, js, dir) })
		}
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
		d, c := time.Since(start), cpuTime(b)-cpu0
		os.RemoveAll(root)
		return d, c
	}
	var rawTime, resTime, rawCPU, resCPU time.Duration
	var ratios []float64 // per pair: one slow moment of the machine skews one pair, not the median
	n := 0
	for b.Loop() {
		var pairRaw, pairRes time.Duration
		for j := range 2 {
			if (n+j)%2 == 0 {
				w, c := once(raw)
				rawTime, rawCPU, pairRaw = rawTime+w, rawCPU+c, w
			} else {
				w, c := once(resumable)
				resTime, resCPU, pairRes = resTime+w, resCPU+c, w
			}
		}
		ratios = append(ratios, pairRaw.Seconds()/pairRes.Seconds())
		n++
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "median-pair-resumable/raw")
	total := float64(len(data)) * fanout * float64(n) / (1 << 20)
	b.ReportMetric(total/rawTime.Seconds(), "raw-MiB/s")
	b.ReportMetric(total/resTime.Seconds(), "resumable-MiB/s")
	b.ReportMetric(rawTime.Seconds()/resTime.Seconds(), "resumable/raw")
	b.ReportMetric(float64(rawRetries.Load()), "raw-retries")
	// CPU time of the process (server included, same work for both) is far less sensitive to
	// other load on the machine than wall time.
	b.ReportMetric(rawCPU.Seconds()/total*1024, "raw-cpu-s/GiB")
	b.ReportMetric(resCPU.Seconds()/total*1024, "resumable-cpu-s/GiB")
}

// BenchmarkPeakRSS reports the peak RSS of a process doing one download, for the stock Get and
// for the resumable fetcher.
func BenchmarkPeakRSS(b *testing.B) {
	env := fleettest.Start(b)
	data := fleettest.Artifact(51, benchSize(b))
	env.Publish(b, role, "1", data)
	for _, raw := range []bool{true, false} {
		name := map[bool]string{true: "raw-objectstore-get", false: "resumable-fetch"}[raw]
		b.Run(name, func(b *testing.B) {
			var peak int64
			for b.Loop() {
				peak = max(peak, runDownloadChild(b, env, fleetapi.ObjectName(role, "1"), data, raw))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
		})
	}
}

// cpuTime is the user+system CPU time this process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
