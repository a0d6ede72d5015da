package e2e

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// benchPassCost emulates a datacenter target whose forward pass takes this long (a large model on
// a GPU decodes one token per pass; the tiny CPU models take ~1 ms). Plain streaming pays it per
// token (a proxy delays every SSE event), drafting per verification round (the verifier's
// PassCost). See docs/DRAFTING.md.
const benchPassCost = 30 * time.Millisecond

// benchTokens is the answer length: two turns of the cyclic alphabet.
const benchTokens = 52

// slowTarget delays every streamed event from upstream by cost: one target pass per token.
func slowTarget(b testing.TB, upstream string, cost time.Duration) string {
	b.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, upstream+r.URL.Path, r.Body)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			_, _ = io.Copy(w, resp.Body)
			return
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "data: {") {
				time.Sleep(cost)
			}
			fmt.Fprintf(w, "%s\n", line)
			w.(http.Flusher).Flush()
		}
	}))
	b.Cleanup(srv.Close)
	return srv.URL
}

// BenchmarkDraftVsPlain: user tokens/s and target passes per output token, plain streaming vs
// drafting (adaptive γ and fixed γ=4), at several emulated RTTs, all in the same run. The target
// is a cyclic alphabet (a→…→z→a), the drafter disagrees on 10 % of its successor table.
//
//	go test -run XXX -bench DraftVsPlain -benchtime 3x ./internal/e2e/
func BenchmarkDraftVsPlain(b *testing.B) {
	o := startOllama(b)
	cyc := testmodel.Alphabet()
	cyc.Name = "sucursal-cyclic"
	cyc.Successor["z"] = "a"
	o.CreateModel(b, "cyc", cyc, testmodel.PromptTemplate)
	d, _ := testmodel.Perturbed(cyc, 0.1, 3)
	o.CreateModel(b, "cyc-draft", d, testmodel.PromptTemplate)
	want := cyc.Greedy("a", benchTokens)

	fleet := newPKI(b)
	gwAddr := startDraftGateway(b, fleet, slowTarget(b, o.URL, benchPassCost)+"/v1", o.URL, benchPassCost)
	for _, rtt := range []time.Duration{0, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond} {
		wan := startWAN(b, gwAddr, rtt)
		for _, mode := range []struct {
			name     string
			lo, hi   int
			drafting bool
		}{{"plain", 0, 0, false}, {"draft-adaptive", 1, 8, true}, {"draft-gamma4", 4, 4, true}} {
			opts := []agentOpt{}
			if mode.drafting {
				opts = append(opts, func(c *agent.Config) {
					c.Draft = agent.DraftConfig{Enabled: true, OllamaURL: o.URL, Model: "cyc-draft", GammaMin: mode.lo, GammaMax: mode.hi}
				})
			}
			url, a := startAgent(b, fleet, wan, opts...)
			waitLink(b, a)
			b.Run(fmt.Sprintf("rtt=%s/%s", rtt, mode.name), func(b *testing.B) {
				slowerSeries := `sucursal_drafter_plain_total{dc="` + wan + `",reason="slower_than_plain"}`
				plain0 := metricSum(b, url, slowerSeries)
				rounds0 := metricSum(b, url, "sucursal_drafter_rounds_total")
				acc0 := metricSum(b, url, "sucursal_drafter_accepted_tokens_total")
				full0 := metricSum(b, url, `sucursal_drafter_position_total{dc="`+wan+`",outcome="accepted",position="4"}`)
				start := time.Now()
				for b.Loop() {
					if got := greedyStreamModel(b, url, "cyc", "a", benchTokens); got != want {
						b.Fatalf("answer %q, want %q", got, want)
					}
				}
				el := time.Since(start)
				tokens := float64(benchTokens * b.N)
				b.ReportMetric(tokens/el.Seconds(), "tok/s")
				rounds := metricSum(b, url, "sucursal_drafter_rounds_total") - rounds0
				passes := tokens // plain: one pass per token
				if mode.drafting {
					// Verification rounds, plus one pass per token of the answers the drafter
					// chose to stream plain.
					passes = rounds + (metricSum(b, url, slowerSeries)-plain0)*benchTokens
				}
				b.ReportMetric(passes/tokens, "passes/tok")
				if mode.name == "draft-gamma4" && rounds > 0 {
					acc := metricSum(b, url, "sucursal_drafter_accepted_tokens_total") - acc0
					full := metricSum(b, url, `sucursal_drafter_position_total{dc="`+wan+`",outcome="accepted",position="4"}`) - full0
					alpha := acc / (acc + rounds - full) // MLE: k acceptances, one rejection when k < γ
					theory := (1 - math.Pow(alpha, 5)) / (1 - alpha)
					b.ReportMetric(alpha, "alpha")
					b.ReportMetric(tokens/rounds, "tok/round")
					b.ReportMetric(theory, "theory-tok/round")
				}
			})
		}
	}
}

// greedyStreamModel is greedyStream for another model name.
func greedyStreamModel(b testing.TB, url, model, prompt string, maxTokens int64) string {
	b.Helper()
	got, err := streamGreedyModel(url, model, prompt, maxTokens)
	if err != nil {
		b.Fatalf("stream %q: %v", prompt, err)
	}
	return got
}
