package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sucursal/sucursal/internal/ollamatest"
)

// streamTimings streams one request and returns the time to the first content chunk and the gaps
// between consecutive chunks, as a client sees them.
func streamTimings(client *http.Client, url string, body []byte) (ttft time.Duration, gaps []time.Duration, err error) {
	start := time.Now()
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	rd := bufio.NewReader(resp.Body)
	var last time.Time
	for {
		line, err := rd.ReadBytes('\n')
		if err != nil {
			return 0, nil, fmt.Errorf("stream ended without [DONE]: %w", err)
		}
		if bytes.HasPrefix(line, []byte("data: [DONE]")) {
			return ttft, gaps, nil
		}
		if !bytes.HasPrefix(line, []byte("data: {")) {
			continue
		}
		now := time.Now()
		if last.IsZero() {
			ttft = now.Sub(start)
		} else {
			gaps = append(gaps, now.Sub(last))
		}
		last = now
	}
}

func pct(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(p * float64(len(s)-1))
	return float64(s[i].Microseconds()) / 1000
}

// processCPU is the user + system CPU time this process has used so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkAgentOverhead measures what edge-agent + QUIC + dc-gateway add to a streamed request
// on loopback: TTFT and per-chunk gaps through the agent vs calling the same Ollama directly,
// interleaved in the same run, at 1, 8 and 32 concurrent streams. Reported in ms.
func BenchmarkAgentOverhead(b *testing.B) { agentOverhead(b, false) }

// BenchmarkOverheadTargetOwnCPU is BenchmarkAgentOverhead with Ollama (and its runners) on CPU 1
// and this process (client, agent, QUIC, gateway) on CPU 0, as when the target runs in the
// datacenter: the agent's work no longer slows the model down, so what is left is the path's own
// cost. The pinning lasts for the rest of the process: run this benchmark alone.
func BenchmarkOverheadTargetOwnCPU(b *testing.B) { agentOverhead(b, true) }

func agentOverhead(b *testing.B, ownCPU bool) {
	o := startOllama(b, ollamatest.NumParallel(4))
	if ownCPU {
		pinTargetApart(b) // before the first request starts a runner, which inherits the CPU
	}
	s := newStack(b, o, 0)
	body := []byte(`{"model":"tiny","stream":true,"max_tokens":25,"messages":[{"role":"user","content":"a"}]}`)
	targets := map[string]string{
		"direct": o.URL + "/v1/chat/completions",
		"agent":  s.url + "/v1/chat/completions",
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	for _, conc := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("streams=%d", conc), func(b *testing.B) {
			ttft := map[string][]time.Duration{}
			gaps := map[string][]time.Duration{}
			cpu := map[string]time.Duration{}
			var mu sync.Mutex
			var failed error
			round := func(path string) {
				// The rounds run one at a time, so this process's CPU during a round is what that
				// path costs here: the client alone for direct; client + agent + QUIC + gateway
				// for agent. Ollama runs in its own process and is not counted.
				before := processCPU(b)
				defer func() { cpu[path] += processCPU(b) - before }()
				var wg sync.WaitGroup
				for range conc {
					wg.Add(1)
					go func() {
						defer wg.Done()
						t, g, err := streamTimings(client, targets[path], body)
						mu.Lock()
						defer mu.Unlock()
						if err != nil {
							failed = err
							return
						}
						ttft[path] = append(ttft[path], t)
						gaps[path] = append(gaps[path], g...)
					}()
				}
				wg.Wait()
			}
			round("direct") // warm both paths
			round("agent")
			if ownCPU {
				checkTargetApart(b) // the runner started by the first request included
			}
			ttft, gaps, cpu = map[string][]time.Duration{}, map[string][]time.Duration{}, map[string]time.Duration{}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// Alternate the order so drift on a shared machine hits both paths alike.
				if i%2 == 0 {
					round("direct")
					round("agent")
				} else {
					round("agent")
					round("direct")
				}
			}
			b.StopTimer()
			if failed != nil {
				b.Fatal(failed)
			}
			for _, path := range []string{"direct", "agent"} {
				b.ReportMetric(pct(ttft[path], 0.5), "ttft-p50-ms-"+path)
				b.ReportMetric(pct(ttft[path], 0.99), "ttft-p99-ms-"+path)
				b.ReportMetric(pct(gaps[path], 0.5), "gap-p50-ms-"+path)
				b.ReportMetric(pct(gaps[path], 0.99), "gap-p99-ms-"+path)
				b.ReportMetric(float64(cpu[path].Microseconds())/1000/float64(b.N*conc), "cpu-ms-per-stream-"+path)
			}
			b.ReportMetric(pct(ttft["agent"], 0.5)-pct(ttft["direct"], 0.5), "ttft-p50-added-ms")
			b.ReportMetric(pct(ttft["agent"], 0.99)-pct(ttft["direct"], 0.99), "ttft-p99-added-ms")
		})
	}
}

// pinTargetApart puts the Ollama processes this process started on CPU 1 and every thread of this
// process on CPU 0 (threads and processes started later inherit their creator's CPU).
func pinTargetApart(b *testing.B) {
	if runtime.NumCPU() < 2 {
		b.Fatal("BenchmarkOverheadTargetOwnCPU needs 2 CPUs")
	}
	bin, err := ollamatest.Binary()
	if err != nil {
		b.Fatal(err)
	}
	pinned := 0
	for _, pid := range descendants(os.Getpid()) {
		if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); exe == bin {
			pinProcess(b, pid, 1)
			pinned++
		}
	}
	if pinned == 0 {
		b.Fatal("found no Ollama process to pin")
	}
	pinProcess(b, os.Getpid(), 0)
}

// checkTargetApart fails unless every Ollama process (runners included) is on CPU 1 only.
func checkTargetApart(b *testing.B) {
	bin, _ := ollamatest.Binary()
	n := 0
	for _, pid := range descendants(os.Getpid()) {
		if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); exe != bin {
			continue
		}
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(pid, &set); err != nil || set.Count() != 1 || !set.IsSet(1) {
			b.Fatalf("Ollama process %d is not on CPU 1 alone (err %v)", pid, err)
		}
		n++
	}
	b.Logf("%d Ollama processes on CPU 1", n)
}

func pinProcess(b *testing.B, pid, cpu int) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		b.Fatal(err)
	}
	var set unix.CPUSet
	set.Set(cpu)
	for _, t := range tasks {
		tid, _ := strconv.Atoi(t.Name())
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			b.Fatalf("pin thread %d of %d to CPU %d: %v", tid, pid, cpu, err)
		}
	}
}

// descendants lists the processes below pid.
func descendants(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		children, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		for _, f := range strings.Fields(string(children)) {
			c, _ := strconv.Atoi(f)
			out = append(out, c)
			out = append(out, descendants(c)...)
		}
	}
	return out
}
