package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

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
func BenchmarkAgentOverhead(b *testing.B) {
	o := startOllama(b, ollamatest.NumParallel(4))
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
