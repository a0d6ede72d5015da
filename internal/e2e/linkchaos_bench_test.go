package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// BenchmarkLinkChaos measures, on the released binaries (edge-agent and dc-gateway as processes,
// a paced OpenAI-compatible target in the test process), what issue #15 asks of the link:
//
//   - restart: dc-gateway kill -9, restarted 2 s later on the same address (what systemd does):
//     time from the restart until the branch answers again;
//   - dead: dc-gateway kill -9 for good with 4 streams in flight: time until every stream has
//     ended (with an error event) and until the edge's /readyz is no longer 200;
//   - drain: SIGTERM to dc-gateway with 10 streams in flight: how many complete, and how long the
//     gateway takes to exit.
//
// Each scenario runs LINKCHAOS_REPS times (default 20); run it once:
//
//	go test ./internal/e2e -run '^$' -bench BenchmarkLinkChaos -benchtime 1x
func BenchmarkLinkChaos(b *testing.B) {
	reps := 20
	if v, err := strconv.Atoi(os.Getenv("LINKCHAOS_REPS")); err == nil && v > 0 {
		reps = v
	}
	agentBin, gatewayBin := releasedBinaries(b)
	pkiDir := newPKI(b)
	long := pacedTarget(b, 400, 25*time.Millisecond) // a 10 s answer: still streaming when the gateway dies
	short := pacedTarget(b, 20, 50*time.Millisecond) // a 1 s answer, for the drain
	gwAddr, gwMetrics, listen := freeAddr(b, "udp"), freeAddr(b, "tcp"), freeAddr(b, "tcp")
	url := "http://" + listen
	gw := gatewayProc(b, gatewayBin, pkiDir, long, gwAddr, gwMetrics)
	agentProc(b, agentBin, pkiDir, listen, gwAddr)
	waitHTTP(b, url+"/readyz", http.StatusOK, 30*time.Second)

	restart := func(target string) {
		gw = gatewayProc(b, gatewayBin, pkiDir, target, gwAddr, gwMetrics)
		waitHTTP(b, url+"/readyz", http.StatusOK, 30*time.Second)
		waitHTTP(b, "http://"+gwMetrics+"/readyz", http.StatusOK, 10*time.Second)
	}
	for range b.N {
		var serveAgain, streamsEnd, notReady, drainExit []time.Duration
		var drainedOK []int
		var badEnds int

		b.Log("restart: kill -9, restart after 2 s")
		for range reps {
			gw.kill()
			time.Sleep(2 * time.Second)
			start := time.Now()
			gw = gatewayProc(b, gatewayBin, pkiDir, long, gwAddr, gwMetrics)
			for {
				if ok, _ := quickChat(url); ok {
					break
				}
				if time.Since(start) > 60*time.Second {
					b.Fatal("the branch did not serve again within 60 s of the restart")
				}
				time.Sleep(10 * time.Millisecond)
			}
			serveAgain = append(serveAgain, time.Since(start))
			waitHTTP(b, url+"/readyz", http.StatusOK, 30*time.Second)
		}

		b.Log("dead: kill -9 for good with 4 streams in flight")
		for range reps {
			const n = 4
			ends := make([]streamOutcome, n)
			var wg, first sync.WaitGroup
			for i := range n {
				wg.Add(1)
				first.Add(1)
				started := make(chan struct{})
				go func() { defer wg.Done(); ends[i] = streamChat(context.Background(), url, started) }()
				go func() { <-started; first.Done() }()
			}
			first.Wait()
			killed := time.Now()
			_ = gw.cmd.Process.Kill()
			for {
				if code, _ := getStatus(url + "/readyz"); code != http.StatusOK {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			notReady = append(notReady, time.Since(killed))
			wg.Wait()
			<-gw.done
			last := killed
			for _, e := range ends {
				if e.ok || e.code == "cut" {
					badEnds++ // a stream must end with an error event, not silently
				}
				if e.end.After(last) {
					last = e.end
				}
			}
			streamsEnd = append(streamsEnd, last.Sub(killed))
			restart(long)
		}

		b.Log("drain: SIGTERM with 10 streams in flight")
		gw.term() // nothing in flight: the gateway drains at once, the edge closes its connection
		if !gw.wait(60 * time.Second) {
			b.Fatal("the idle gateway did not exit after SIGTERM")
		}
		restart(short)
		for range reps {
			const n = 10
			outs := make([]streamOutcome, n)
			var wg, first sync.WaitGroup
			for i := range n {
				wg.Add(1)
				first.Add(1)
				started := make(chan struct{})
				go func() { defer wg.Done(); outs[i] = streamChat(context.Background(), url, started) }()
				go func() { <-started; first.Done() }()
			}
			first.Wait()
			termed := time.Now()
			gw.term()
			wg.Wait()
			if !gw.wait(60 * time.Second) {
				b.Fatal("the gateway did not exit within 60 s of SIGTERM")
			}
			drainExit = append(drainExit, time.Since(termed))
			ok := 0
			for _, o := range outs {
				if o.ok && o.chunks == 20 {
					ok++
				} else {
					b.Logf("drained stream: %d chunks, %q", o.chunks, o.code)
				}
			}
			drainedOK = append(drainedOK, ok)
			restart(short)
		}

		p := func(ds []time.Duration) string {
			s := slices.Clone(ds)
			slices.Sort(s)
			return fmt.Sprintf("p50 %v p99 %v (max %v, n=%d)", quantile(s, 0.50), quantile(s, 0.99), s[len(s)-1], len(s))
		}
		b.Logf("restart 2 s after kill -9 → branch serves again: %s after the restart", p(serveAgain))
		b.Logf("killed for good → every in-flight stream ended: %s; streams that ended without an error event: %d", p(streamsEnd), badEnds)
		b.Logf("killed for good → edge /readyz not 200: %s", p(notReady))
		b.Logf("SIGTERM with 10 streams in flight → completed per run: min %d max %d; gateway exit after SIGTERM: %s",
			slices.Min(drainedOK), slices.Max(drainedOK), p(drainExit))
		b.ReportMetric(quantile(sorted(serveAgain), 0.99).Seconds(), "restart-serve-p99-s")
		b.ReportMetric(quantile(sorted(streamsEnd), 0.99).Seconds(), "dead-streams-end-p99-s")
		b.ReportMetric(quantile(sorted(notReady), 0.99).Seconds(), "dead-readyz-p99-s")
		b.ReportMetric(float64(slices.Min(drainedOK)), "drain-completed-min")
		if badEnds > 0 || slices.Min(drainedOK) < 10 {
			b.Errorf("%d streams ended without an error event; drained runs completed as few as %d of 10", badEnds, slices.Min(drainedOK))
		}
	}
}

func sorted(ds []time.Duration) []time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s
}

// quantile is the nearest-rank quantile of sorted durations (p99 of 20 is the largest).
func quantile(s []time.Duration, q float64) time.Duration {
	i := int(float64(len(s))*q+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}
