package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/drafter"
	"github.com/sucursal/sucursal/internal/ollamatest"
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

// cyclicModels starts an Ollama with the benchmarks' target, a cyclic alphabet (a→…→z→a) named
// "cyc", and a drafter with its tokenizer that disagrees on 10 % of its successor table
// ("cyc-draft"); it returns the server and the target's benchTokens-long answer to "a".
func cyclicModels(b testing.TB) (*ollamatest.Server, string) {
	o := startOllama(b)
	cyc := testmodel.Alphabet()
	cyc.Name = "sucursal-cyclic"
	cyc.Successor["z"] = "a"
	o.CreateModel(b, "cyc", cyc, testmodel.PromptTemplate)
	d, _ := testmodel.Perturbed(cyc, 0.1, 3)
	o.CreateModel(b, "cyc-draft", d, testmodel.PromptTemplate)
	return o, cyc.Greedy("a", benchTokens)
}

// BenchmarkDraftVsPlain: user tokens/s and target passes per output token, plain streaming vs
// drafting (adaptive γ and fixed γ=4), at several emulated RTTs, all in the same run. The target
// is a cyclic alphabet (a→…→z→a), the drafter disagrees on 10 % of its successor table.
//
//	go test -run XXX -bench DraftVsPlain -benchtime 3x ./internal/e2e/
func BenchmarkDraftVsPlain(b *testing.B) {
	o, want := cyclicModels(b)

	fleet := newPKI(b)
	gwAddr := startDraftGateway(b, fleet, slowTarget(b, o.URL, benchPassCost)+"/v1", o.URL, benchPassCost)
	for _, rtt := range []time.Duration{0, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond} {
		wan := startWAN(b, gwAddr, rtt)
		for _, mode := range []struct {
			name     string
			lo, hi   int
			drafting bool
			wire     string
			nopipe   bool
		}{
			{"plain", 0, 0, false, "", false},
			{"draft-adaptive", 1, 8, true, "auto", false}, // same tokenizer: token mode
			{"draft-adaptive-text", 1, 8, true, "text", false},
			{"draft-adaptive-nopipe", 1, 8, true, "auto", true},
			{"draft-gamma4", 4, 4, true, "auto", false},
		} {
			opts := []agentOpt{}
			if mode.drafting {
				pipe := !mode.nopipe
				opts = append(opts, func(c *agent.Config) {
					c.Draft = drafter.Config{Enabled: true, OllamaURL: o.URL, Model: "cyc-draft", GammaMin: mode.lo, GammaMax: mode.hi,
						Mode: mode.wire, Pipeline: &pipe}
				})
			}
			url, a := startAgent(b, fleet, wan, opts...)
			waitLink(b, a)
			warmUp(b, url, "cyc") // the drafter's hello (plain agents get the same request)
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

// slowDrafter delays every /api/generate of the local draft model by perToken × num_predict
// before forwarding it: a draft model on a NUC's CPU costs far more per token than the tiny test
// models (~1 ms), and pipelining only matters when drafting is not free.
func slowDrafter(b testing.TB, upstream string, perToken time.Duration) string {
	b.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		b.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/generate" {
			body, _ := io.ReadAll(r.Body)
			var req struct {
				Options struct {
					NumPredict int `json:"num_predict"`
				} `json:"options"`
			}
			_ = json.Unmarshal(body, &req)
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Duration(req.Options.NumPredict) * perToken):
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		rp.ServeHTTP(w, r)
	}))
	b.Cleanup(srv.Close)
	return srv.URL
}

// BenchmarkDraftPipelining: what drafting the next round during verification buys when drafting
// costs something. The draft model is slowed to draftCost per token (slowDrafter), the DC pass is
// benchPassCost, the RTT 20 ms; pipelined and sequential drafting, adaptive and fixed γ, in the
// same run.
//
//	go test -run XXX -bench DraftPipelining -benchtime 3x ./internal/e2e/
func BenchmarkDraftPipelining(b *testing.B) {
	const draftCost = 5 * time.Millisecond
	o, want := cyclicModels(b)
	drafterURL := slowDrafter(b, o.URL, draftCost)

	fleet := newPKI(b)
	gwAddr := startDraftGateway(b, fleet, slowTarget(b, o.URL, benchPassCost)+"/v1", o.URL, benchPassCost)
	wan := startWAN(b, gwAddr, 20*time.Millisecond)
	for _, mode := range []struct {
		name   string
		lo, hi int
		pipe   bool
	}{{"adaptive/sequential", 1, 8, false}, {"adaptive/pipelined", 1, 8, true}, {"gamma4/sequential", 4, 4, false}, {"gamma4/pipelined", 4, 4, true}} {
		pipe := mode.pipe
		url, a := startAgent(b, fleet, wan, func(c *agent.Config) {
			c.Draft = drafter.Config{Enabled: true, OllamaURL: drafterURL, Model: "cyc-draft", GammaMin: mode.lo, GammaMax: mode.hi, Pipeline: &pipe}
		})
		waitLink(b, a)
		warmUp(b, url, "cyc")
		b.Run(mode.name, func(b *testing.B) {
			used0 := metricSum(b, url, `sucursal_drafter_pipelined_drafts_total{dc="`+wan+`",outcome="used"}`)
			rounds0 := metricSum(b, url, "sucursal_drafter_rounds_total")
			start := time.Now()
			for b.Loop() {
				if got := greedyStreamModel(b, url, "cyc", "a", benchTokens); got != want {
					b.Fatalf("answer %q, want %q", got, want)
				}
			}
			el := time.Since(start)
			b.ReportMetric(float64(benchTokens*b.N)/el.Seconds(), "tok/s")
			rounds := metricSum(b, url, "sucursal_drafter_rounds_total") - rounds0
			if rounds > 0 {
				b.ReportMetric((metricSum(b, url, `sucursal_drafter_pipelined_drafts_total{dc="`+wan+`",outcome="used"}`)-used0)/rounds, "pipelined-used/round")
			}
		})
	}
}
