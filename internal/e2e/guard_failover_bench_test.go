package e2e

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/guardsetup"
)

// BenchmarkGuardFailover: the branch's guard model server (a real Ollama) is killed; how long
// until the first request is answered again, its prompt now checked by the DC guard (on redacted
// text) — and how long, once the local server is back, until requests are checked locally again.
// Reported in ms, p50 and p99 over b.N kill/restart cycles.
func BenchmarkGuardFailover(b *testing.B) {
	e := newGuardEnv(b)
	gc := e.localGuard(guard.DefaultPolicy(), guardsetup.ClassifierConfig{Name: "llamaguard", Stage: "input", Model: "guard-safe"})
	gc.DCFallback, gc.DCFallbackKind = true, "safety"
	url := e.start(b, gc, "guard-safe")
	body := []byte(`{"model":"tiny","max_tokens":4,"messages":[{"role":"user","content":"Mi DNI es 12345678Z, a"}]}`)
	served := func() bool {
		resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			return false
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	until := func(cond func() bool) time.Duration {
		start := time.Now()
		for !cond() {
			if time.Since(start) > 30*time.Second {
				b.Fatal("gave up after 30 s")
			}
			time.Sleep(2 * time.Millisecond)
		}
		return time.Since(start)
	}
	dcAsked := func() int { return len(e.dcIn.all()) }
	var failover, back []time.Duration
	for i := 0; i < b.N; i++ {
		until(served)
		e.local.Stop(b)
		before := dcAsked()
		failover = append(failover, until(func() bool { return served() && dcAsked() > before }))
		e.local.Restart(b)
		back = append(back, until(func() bool { n := dcAsked(); return served() && dcAsked() == n }))
	}
	for name, d := range map[string][]time.Duration{"failover": failover, "local-back": back} {
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(d[(len(d)-1)*99/100].Microseconds())/1000, name+"-p99-ms")
	}
}
