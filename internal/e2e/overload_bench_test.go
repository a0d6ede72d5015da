package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/ollamatest"
)

// overloadOutcome is one request of the overload run.
type overloadOutcome struct {
	status     int
	code       string
	retryAfter bool
	ttft       time.Duration
}

// postStream sends body and returns the status, the error code, whether Retry-After came, and
// the time to the first content byte of a 200.
func postStream(ctx context.Context, client *http.Client, url string, body []byte) overloadOutcome {
	start := time.Now()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return overloadOutcome{status: -1}
	}
	defer resp.Body.Close()
	o := overloadOutcome{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After") != ""}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&e)
		o.code = e.Error.Code
		return o
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"content":"`) && !strings.Contains(sc.Text(), `"content":""`) && o.ttft == 0 {
			o.ttft = time.Since(start)
		}
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return o
}

func durPct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, len(d)*p/100)]
}

// BenchmarkOverload (issue #14): the real stack (edge-agent → QUIC → dc-gateway → Ollama) with
// admission sized to 2 requests at once, 4 waiting for at most 2 s, offered 24 clients that
// send back to back for 6 s — twelve times what it admits. Printed: the admitted requests'
// time to first token (p50/p99: bounded by max_wait plus a normal answer), how many were refused
// with 429/503 and whether every refusal carried Retry-After, the queue left at the end, and the
// time to first token of single requests after the burst (recovery).
func BenchmarkOverload(b *testing.B) {
	o := startOllama(b, ollamatest.NumParallel(2))
	pkiDir := newPKI(b)
	gw := startGateway(b, pkiDir, o.URL+"/v1")
	url, a := startAgent(b, pkiDir, gw, func(c *agent.Config) {
		c.Admission.MaxActive, c.Admission.BatchMaxActive, c.Admission.MaxQueue, c.Admission.MaxWait = 2, 1, 4, 2*time.Second
	})
	waitLink(b, a)
	body := []byte(`{"model":"tiny","stream":true,"max_tokens":16,"messages":[{"role":"user","content":"a"}]}`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	before := make([]time.Duration, 0, 10)
	for i := 0; i < 10; i++ {
		before = append(before, postStream(context.Background(), client, url, body).ttft)
	}
	for i := 0; i < b.N; i++ {
		var mu sync.Mutex
		var outs []overloadOutcome
		ctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
		var wg sync.WaitGroup
		for c := 0; c < 24; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					o := postStream(context.Background(), client, url, body)
					mu.Lock()
					outs = append(outs, o)
					mu.Unlock()
					if o.status != 200 {
						time.Sleep(50 * time.Millisecond) // a client honouring nothing but not spinning
					}
				}
			}()
		}
		wg.Wait()
		cancel()
		var ttft []time.Duration
		counts := map[string]int{}
		noRetryAfter := 0
		for _, o := range outs {
			switch {
			case o.status == 200:
				ttft = append(ttft, o.ttft)
				counts["200"]++
			case o.status == 429 || o.status == 503:
				counts[fmt.Sprintf("%d %s", o.status, o.code)]++
				if !o.retryAfter {
					noRetryAfter++
				}
			default:
				counts[fmt.Sprintf("%d %s", o.status, o.code)]++
			}
		}
		after := make([]time.Duration, 0, 10)
		time.Sleep(200 * time.Millisecond)
		for j := 0; j < 10; j++ {
			after = append(after, postStream(context.Background(), client, url, body).ttft)
		}
		queued := metricSum(b, url, "sucursal_admission_queued")
		b.ReportMetric(float64(len(outs)), "requests")
		b.ReportMetric(float64(counts["200"]), "admitted")
		b.ReportMetric(float64(len(outs)-counts["200"]), "refused")
		b.ReportMetric(float64(noRetryAfter), "refusals-without-retry-after")
		b.ReportMetric(float64(durPct(ttft, 50).Microseconds())/1000, "admitted-ttft-p50-ms")
		b.ReportMetric(float64(durPct(ttft, 99).Microseconds())/1000, "admitted-ttft-p99-ms")
		b.ReportMetric(float64(durPct(before, 50).Microseconds())/1000, "idle-ttft-p50-ms-before")
		b.ReportMetric(float64(durPct(after, 50).Microseconds())/1000, "idle-ttft-p50-ms-after")
		b.ReportMetric(queued, "queued-after")
		b.Logf("outcomes: %v", counts)
		if noRetryAfter > 0 {
			b.Errorf("%d refusals came without Retry-After", noRetryAfter)
		}
	}
}
