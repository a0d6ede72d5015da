package e2e

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"
)

// BenchmarkFailoverTime measures, per trial, the time from the primary gateway dying to the first
// successful answer through the secondary, and from the primary coming back to it serving again.
// "stopped": the gateway process ends cleanly (its connections are closed with a reason);
// "blackholed": its packets vanish (a crash, or the WAN cut) and only the accept timeout tells.
// Reported in ms, p50 and p99 over b.N trials.
func BenchmarkFailoverTime(b *testing.B) {
	o := startOllama(b)
	pkiDir := newPKI(b)
	secondary := startGateway(b, pkiDir, o.URL+"/v1")
	served := func(url string) bool {
		resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(goodBody))
		if err != nil {
			return false
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	until := func(b *testing.B, url string, cond func() bool) time.Duration {
		start := time.Now()
		for !cond() {
			if time.Since(start) > 30*time.Second {
				b.Fatal("gave up after 30 s")
			}
			time.Sleep(2 * time.Millisecond)
		}
		return time.Since(start)
	}
	report := func(b *testing.B, name string, d []time.Duration) {
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(d[(len(d)-1)*99/100].Microseconds())/1000, name+"-p99-ms")
	}

	b.Run("stopped", func(b *testing.B) {
		primary := startGatewayAt(b, pkiDir, o.URL+"/v1", "127.0.0.1:0")
		addr := primary.addr
		url, a := startAgent(b, pkiDir, addr, withSecondary(secondary))
		waitLink(b, a)
		var failover, recovery []time.Duration
		for i := 0; i < b.N; i++ {
			primary.stop()
			failover = append(failover, until(b, url, func() bool { return served(url) }))
			primary = startGatewayAt(b, pkiDir, o.URL+"/v1", addr)
			recovery = append(recovery, until(b, url, func() bool { ok, _ := a.Link().Ready(); return ok && served(url) }))
		}
		report(b, "failover", failover)
		report(b, "primary-back", recovery)
	})

	b.Run("blackholed", func(b *testing.B) {
		primary := startGateway(b, pkiDir, o.URL+"/v1")
		addr, drop := startBlackhole(b, primary)
		// The defaults: accept_timeout 500 ms, breaker 3 failures / 1 s.
		url, a := startAgent(b, pkiDir, addr, withSecondary(secondary))
		waitLink(b, a)
		var failover, recovery []time.Duration
		for i := 0; i < b.N; i++ {
			drop.Store(true)
			failover = append(failover, until(b, url, func() bool { return served(url) }))
			drop.Store(false)
			recovery = append(recovery, until(b, url, func() bool { ok, _ := a.Link().Ready(); return ok && served(url) }))
			// Let the primary's breaker close again before the next trial.
			time.Sleep(1500 * time.Millisecond)
		}
		report(b, "failover", failover)
		report(b, "primary-back", recovery)
	})
}
