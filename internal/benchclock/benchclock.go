// Package benchclock times benchmark operations twice: by the wall clock, and by this thread's
// CPU time (CLOCK_THREAD_CPUTIME_ID, nanosecond precision). On a shared, overloaded machine the
// wall percentiles measure the scheduler; the CPU ones measure the code.
//
// It is for benchmarks only: no binary may link it (internal/deptest checks).
package benchclock

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Clock collects the wall and CPU time of each operation between Start and Stop.
type Clock struct {
	wall, cpu []time.Duration
	w0        time.Time
	c0        time.Duration
}

// New locks the benchmark to its OS thread (so thread CPU time is the operation's) until b ends.
func New(b *testing.B) *Clock {
	runtime.LockOSThread()
	b.Cleanup(runtime.UnlockOSThread)
	return &Clock{wall: make([]time.Duration, 0, b.N), cpu: make([]time.Duration, 0, b.N)}
}

// ThreadCPU is the CPU time this thread has used.
func ThreadCPU() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}

// Start begins an operation.
func (c *Clock) Start() { c.w0, c.c0 = time.Now(), ThreadCPU() }

// Stop ends it.
func (c *Clock) Stop() {
	c.cpu = append(c.cpu, ThreadCPU()-c.c0)
	c.wall = append(c.wall, time.Since(c.w0))
}

// Report adds wall-p50-ns, wall-p99-ns, cpu-p50-ns and cpu-p99-ns to the benchmark's output.
func (c *Clock) Report(b *testing.B) {
	ReportPercentiles(b, c.wall, "wall-")
	ReportPercentiles(b, c.cpu, "cpu-")
}

// ReportPercentiles reports the p50 and p99 of d as prefix+"p50-ns" and prefix+"p99-ns".
func ReportPercentiles(b *testing.B, d []time.Duration, prefix string) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)*50/100].Nanoseconds()), prefix+"p50-ns")
	b.ReportMetric(float64(d[min(len(d)-1, len(d)*99/100)].Nanoseconds()), prefix+"p99-ns")
}
