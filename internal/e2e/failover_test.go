package e2e

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/testmodel"
)

func withSecondary(addrs ...string) agentOpt {
	return func(c *agent.Config) { c.DCSecondary = addrs }
}

func metricValue(t testing.TB, url, series string) string {
	t.Helper()
	resp, err := httpClient().Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), series+" "); ok {
			return v
		}
	}
	return ""
}

var goodBody = []byte(`{"model":"tiny","messages":[{"role":"user","content":"a"}],"max_tokens":3}`)

// untilServed posts until a request succeeds and returns how long that took from start.
func untilServed(t *testing.T, url string, start time.Time, limit time.Duration) time.Duration {
	t.Helper()
	for time.Since(start) < limit {
		resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(goodBody))
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(start)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no request succeeded within %s", limit)
	return 0
}

// TestFailoverToSecondaryDC: the primary gateway goes away — stopped cleanly, or black-holed
// (no packet answers, as when it crashes or the WAN is cut) — and requests are served by the
// secondary; when the primary is back, it serves again.
func TestFailoverToSecondaryDC(t *testing.T) {
	o := startOllama(t)
	pkiDir := newPKI(t)
	secondary := startGateway(t, pkiDir, o.URL+"/v1")

	t.Run("primary stopped", func(t *testing.T) {
		primary := startGatewayAt(t, pkiDir, o.URL+"/v1", "127.0.0.1:0")
		url, a := startAgent(t, pkiDir, primary.addr, withSecondary(secondary))
		waitLink(t, a)
		untilServed(t, url, time.Now(), 10*time.Second)
		if v := metricValue(t, url, `sucursal_failover_served_total{backend="dc-primary"}`); v == "" || v == "0" {
			t.Fatalf("the primary did not serve the first request (served=%q)", v)
		}
		primary.stop()
		took := untilServed(t, url, time.Now(), 10*time.Second)
		t.Logf("first answer through the secondary %s after the primary stopped", took)
		if v := metricValue(t, url, `sucursal_failover_served_total{backend="dc-secondary-`+secondary+`"}`); v == "" || v == "0" {
			t.Fatalf("the secondary served nothing")
		}
	})

	t.Run("primary black-holed", func(t *testing.T) {
		primary := startGateway(t, pkiDir, o.URL+"/v1")
		addr, drop := startBlackhole(t, primary)
		url, a := startAgent(t, pkiDir, addr, withSecondary(secondary), func(c *agent.Config) {
			c.Failover.AcceptTimeout = 300 * time.Millisecond
		})
		waitLink(t, a)
		untilServed(t, url, time.Now(), 10*time.Second)
		drop.Store(true)
		start := time.Now()
		took := untilServed(t, url, start, 10*time.Second)
		t.Logf("first answer through the secondary %s after the primary went silent", took)
		// Later requests skip the primary at once: its breaker opened.
		for range 5 {
			untilServed(t, url, time.Now(), 5*time.Second)
		}
		drop.Store(false)
	})
}

// TestLocalDegradedFallback: with every DC down and the policy allowing it, the NUC's own model
// answers, flagged in X-Sucursal-Degraded; without the policy, 503 with Retry-After.
func TestLocalDegradedFallback(t *testing.T) {
	o := startOllama(t)
	pkiDir := newPKI(t)
	url, _ := startAgent(t, pkiDir, "127.0.0.1:1", func(c *agent.Config) {
		c.Failover.Local = failover.LocalConfig{Enabled: true, URL: o.URL + "/v1", Model: "tiny"}
	})
	body := []byte(`{"model":"the-big-dc-model","messages":[{"role":"user","content":"a"}],"max_tokens":100}`)
	resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Sucursal-Degraded") == "" {
		t.Fatalf("got %d, degraded header %q: %s", resp.StatusCode, resp.Header.Get("X-Sucursal-Degraded"), raw)
	}
	if want := testmodel.Alphabet().Greedy("a", 100); !bytes.Contains(raw, []byte(want)) {
		t.Fatalf("the local model's answer %s does not hold %q", raw, want)
	}
	if v := metricValue(t, url, "sucursal_failover_degraded_total"); v != "1" {
		t.Fatalf("degraded_total = %q", v)
	}
}

// TestMidStreamLossEndsWithAnError: the gateway dies while an answer streams; the user gets a
// terminal OpenAI-shaped error event (no [DONE]) instead of a hang.
func TestMidStreamLossEndsWithAnError(t *testing.T) {
	o := startOllama(t)
	cycle := testmodel.Alphabet()
	cycle.Successor["z"] = "a"
	o.CreateModel(t, "cycle", cycle, testmodel.PromptTemplate)
	pkiDir := newPKI(t)
	g := startGatewayAt(t, pkiDir, o.URL+"/v1", "127.0.0.1:0")
	url, a := startAgent(t, pkiDir, g.addr)
	waitLink(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions",
		strings.NewReader(`{"model":"cycle","stream":true,"max_tokens":100000,"messages":[{"role":"user","content":"a"}]}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	for n := 0; n < 3; {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, "data: {") {
			n++
		}
	}
	g.stop()
	rest, err := io.ReadAll(rd)
	if err != nil {
		t.Fatalf("the stream did not end cleanly: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(rest)), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, `data: {"error"`) || strings.Contains(string(rest), "[DONE]") {
		t.Fatalf("want a terminal error event and no [DONE], got last line %q", last)
	}
}
