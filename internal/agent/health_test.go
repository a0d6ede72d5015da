package agent

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/admission"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/drafter"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/redact"
)

type hdrWriter struct{ h http.Header }

func (w *hdrWriter) Header() http.Header                    { return w.h }
func (w *hdrWriter) WriteChunk(*chat.Chunk) error           { return nil }
func (w *hdrWriter) WriteCompletion(*chat.Completion) error { return nil }

func TestHealthObservesRequests(t *testing.T) {
	h := newHealth(nil)
	h.Health("drafter") // the role's window starts
	serve := func(backend string, err error, delay time.Duration) {
		term := pipeline.HandlerFunc(func(_ context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
			req.Backend = backend // what the failover router records
			if err != nil {
				return err
			}
			time.Sleep(delay)
			return w.WriteChunk(&chat.Chunk{})
		})
		_ = pipeline.Observe(h)(term).ServeChat(context.Background(), &pipeline.Request{}, &hdrWriter{h: http.Header{}})
	}
	for range 18 {
		serve(failover.PrimaryBackend, nil, time.Millisecond)
	}
	serve("dc-secondary-x", nil, 50*time.Millisecond)                                    // a failover, and the slowest
	serve(failover.PrimaryBackend, &chat.Error{Status: 404, Code: "model_not_found"}, 0) // the client's mistake
	serve(failover.PrimaryBackend, chat.Unavailable("dc_unavailable", "x", time.Second), 0)
	serve(failover.PrimaryBackend, errors.New("bug"), 0)

	got := h.Health("drafter")
	if got.Requests != 22 || got.Errors != 2 || got.Failovers != 1 {
		t.Fatalf("got %+v, want 22 requests, 2 errors (503 and an internal one), 1 failover", got)
	}
	if got.TTFTP95Ms < 1 || got.TTFTP95Ms >= 50 {
		t.Fatalf("TTFT p95 %.2f ms: want the 95th of 19 first bytes, not the 50 ms outlier", got.TTFTP95Ms)
	}
	h.switched("drafter")
	if got := h.Health("drafter"); got.Requests != 0 {
		t.Fatalf("after a switch the window must restart: %+v", got)
	}
}

// clock is a fake time source the test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time       { return c.t }
func (c *clock) step(d time.Duration) { c.t = c.t.Add(d) }
func newTestHealth(reg prometheus.Gatherer) (*health, *clock) {
	c := &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	h := newHealth(reg)
	h.now, h.started = c.now, c.t
	h.snaps = []counterSnap{{at: c.t}}
	return h, c
}

// answer is what a fake path writes: content chunks paced on the fake clock, and a usage if set.
type answer struct {
	ttft, gap time.Duration
	chunks    int
	usage     int // completion tokens in a final usage chunk; 0: none
	whole     string
	backend   string
	err       error
}

func serveThrough(t *testing.T, h *health, c *clock, prompt string, a answer) {
	t.Helper()
	term := pipeline.HandlerFunc(func(_ context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
		req.Backend = a.backend
		if a.err != nil {
			return a.err
		}
		c.step(a.ttft)
		if a.whole != "" {
			return w.WriteCompletion(&chat.Completion{Choices: []chat.Choice{{Message: chat.AnswerMessage{Content: chat.TextContent(a.whole)}}}})
		}
		for i := range a.chunks {
			if i > 0 {
				c.step(a.gap)
			}
			s := "x"
			if err := w.WriteChunk(&chat.Chunk{Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &s}}}}); err != nil {
				return err
			}
		}
		if a.usage > 0 {
			return w.WriteChunk(&chat.Chunk{Usage: &chat.Usage{CompletionTokens: a.usage}})
		}
		return nil
	})
	req := &pipeline.Request{Chat: &chat.Request{Model: "llama-70b", Messages: []chat.Message{{Role: "user", Content: chat.TextContent(prompt)}}}}
	_ = h.stage()(term).ServeChat(context.Background(), req, &hdrWriter{h: http.Header{}})
}

func near(got, want float64) bool { return math.Abs(got-want) <= 0.03*want }

func TestUsageSummary(t *testing.T) {
	reg := prometheus.NewRegistry()
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sucursal_admission_refused_total"}, []string{"code", "class"})
	guardFail := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sucursal_guard_failures_total"}, []string{"classifier", "reason"})
	drafted := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sucursal_drafter_draft_tokens_total"}, []string{"dc"})
	accepted := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sucursal_drafter_accepted_tokens_total"}, []string{"dc"})
	matchTO := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sucursal_redact_match_timeouts_total"}, []string{"type"})
	ner := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sucursal_redact_ner_fallbacks_total"}, []string{"outcome"})
	reg.MustRegister(refused, guardFail, drafted, accepted, matchTO, ner)
	h, c := newTestHealth(reg)

	if u := h.Usage(); u.Requests != 0 || u.Drafting != nil || u.Degraded || u.TTFT.Samples != 0 {
		t.Fatalf("empty summary %+v", u)
	}
	// 10 streamed answers: TTFT 100 ms, 5 chunks 20 ms apart, usage says 7 tokens; a 400-byte prompt.
	prompt := strings.Repeat("a", 400)
	for range 10 {
		serveThrough(t, h, c, prompt, answer{ttft: 100 * time.Millisecond, gap: 20 * time.Millisecond, chunks: 5, usage: 7})
		c.step(time.Second)
	}
	// 9 without usage (tokens = content chunks), the two slowest first bytes at 400 ms.
	for i := range 9 {
		serveThrough(t, h, c, prompt, answer{ttft: time.Duration(100+300*(i/7)) * time.Millisecond, gap: 20 * time.Millisecond, chunks: 4})
	}
	serveThrough(t, h, c, prompt, answer{whole: strings.Repeat("b", 40), ttft: 100 * time.Millisecond, backend: localBackend}) // degraded, 10 tokens
	serveThrough(t, h, c, prompt, answer{err: chat.Unavailable("dc_unavailable", "x", time.Second), backend: "dc-secondary-x"})
	refused.WithLabelValues("rate_limit_exceeded", "interactive").Add(3)
	refused.WithLabelValues("queue_timeout", "interactive").Add(2)
	refused.WithLabelValues("input_too_long", "interactive").Add(5) // a 400: neither
	guardFail.WithLabelValues("g", "timeout").Add(4)
	guardFail.WithLabelValues("g", "malformed").Add(1)
	matchTO.WithLabelValues("DNI").Inc()
	drafted.WithLabelValues("a").Add(300)
	accepted.WithLabelValues("a").Add(195)
	drafted.WithLabelValues("b").Add(100)
	accepted.WithLabelValues("b").Add(65)

	u := h.Usage()
	if u.Requests != 21 || u.Errors != 1 || u.Failovers != 2 || u.DegradedAnswers != 1 || !u.Degraded {
		t.Fatalf("counts %+v", u)
	}
	if !near(u.ErrorRate, 1.0/21) || !near(u.FailoverRate, 2.0/21) {
		t.Errorf("rates %v %v", u.ErrorRate, u.FailoverRate)
	}
	if u.TTFT.Samples != 20 || !near(u.TTFT.P50Ms, 100) || !near(u.TTFT.P95Ms, 400) {
		t.Errorf("TTFT %+v: want 20 samples, p50 100 ms, p95 400 ms (the 19th of 20)", u.TTFT)
	}
	if u.InterToken.Samples != 10*4+9*3 || !near(u.InterToken.P50Ms, 20) || !near(u.InterToken.P95Ms, 20) {
		t.Errorf("inter-token %+v", u.InterToken)
	}
	if u.InputTokens.Samples != 21 || u.InputTokens.Mean != 100 {
		t.Errorf("input tokens %+v: want 100 (400 bytes / 4) over 21", u.InputTokens)
	}
	// 10×7 (usage) + 9×4 (chunks) + 10 (40 bytes / 4), over the 20 answers (the failed one wrote nothing).
	if u.OutputTokens.Samples != 20 || u.OutputTokens.FromUsage != 10 || !near(u.OutputTokens.Mean, (70+36+10)/20.0) {
		t.Errorf("output tokens %+v", u.OutputTokens)
	}
	if u.Refused429 != 3 || u.Refused503 != 2 || u.GuardTimeouts != 4 || u.RedactionTimeouts != 1 {
		t.Errorf("counter-based fields %+v", u)
	}
	if u.Drafting == nil || u.Drafting.DraftedTokens != 400 || u.Drafting.AcceptedTokens != 260 || u.Drafting.Acceptance != 0.65 {
		t.Errorf("drafting %+v: want 260/400 = 0.65 summed over DCs", u.Drafting)
	}
	if len(u.Models) != 1 || u.Models[0] != "llama-70b" {
		t.Errorf("models %q", u.Models)
	}
	// A model name nobody answered for is the caller's text: it stays on the branch.
	h.stage()(pipeline.HandlerFunc(func(context.Context, *pipeline.Request, pipeline.ResponseWriter) error {
		return &chat.Error{Status: 404, Code: "model_not_found"}
	})).ServeChat(context.Background(), &pipeline.Request{Chat: &chat.Request{Model: "ana-garcia-12345678Z"}}, &hdrWriter{h: http.Header{}})
	if u := h.Usage(); slices.Contains(u.Models, "ana-garcia-12345678Z") || u.Requests != 22 {
		t.Errorf("an unanswered model name reached the summary: %q (%d requests)", u.Models, u.Requests)
	}

	// Four minutes later: the requests are still in the window, and new refusals add up.
	c.step(4 * time.Minute)
	ner.WithLabelValues("degraded").Inc()
	if u := h.Usage(); u.Requests != 22 || u.Refused429 != 3 || u.NERDegraded != 1 || u.WindowSeconds < 250 || u.WindowSeconds > 300 {
		t.Fatalf("after 4 min %+v", u)
	}
	// Two more: everything above has left the window, only what happened since the last
	// snapshot older than five minutes counts.
	c.step(2 * time.Minute)
	serveThrough(t, h, c, "hi", answer{ttft: 50 * time.Millisecond, chunks: 1})
	refused.WithLabelValues("branch_busy", "any").Inc()
	u = h.Usage()
	if u.Requests != 1 || u.TTFT.Samples != 1 || u.InputTokens.Mean != 1 || u.Drafting != nil || u.Refused429 != 0 || u.Refused503 != 1 || u.DegradedAnswers != 0 {
		t.Fatalf("after 6 min the window must hold only the last request and the counters' increase since 4 min: %+v", u)
	}
	if u.Degraded != true || u.NERDegraded != 1 {
		t.Errorf("the NER fallback 2 min ago is still in the window: %+v", u)
	}
	if u.WindowSeconds < 290 || u.WindowSeconds > 300 {
		t.Errorf("window %v s", u.WindowSeconds)
	}
}

// Memory stays bounded whatever the load: the histogram is fixed, gaps per request are capped,
// snapshots are at most one per heartbeat over the window.
func TestUsageBounded(t *testing.T) {
	h, c := newTestHealth(prometheus.NewRegistry())
	for range 400 {
		serveThrough(t, h, c, "x", answer{ttft: time.Millisecond, gap: time.Microsecond, chunks: maxGaps + 10})
		h.Usage()
		c.step(time.Second)
	}
	if n := len(h.snaps); n > usageBuckets+2 {
		t.Errorf("%d counter snapshots kept", n)
	}
	u := h.Usage()
	if u.Requests < 280 || u.Requests > 300 || u.InterToken.Samples != u.Requests*maxGaps {
		t.Errorf("%d requests in the window (want 280–300 of 400 at about 1/s), %d inter-token samples (want %d each)",
			u.Requests, u.InterToken.Samples, maxGaps)
	}
}

func TestLatencyHistQuantiles(t *testing.T) {
	for _, tc := range []struct {
		samples []time.Duration
		p50     float64
		p95     float64
	}{
		{[]time.Duration{time.Millisecond}, 1, 1},
		{[]time.Duration{10 * time.Microsecond}, 0.05, 0.05}, // below the first bin: reported as its middle
		{[]time.Duration{time.Second, 2 * time.Second, 3 * time.Second}, 2000, 3000},
		{[]time.Duration{time.Hour}, 0, 0}, // clamped to the last bin (checked below)
	} {
		var l latencyHist
		for _, s := range tc.samples {
			l.add(s)
		}
		got := l.latency()
		if got.Samples != uint64(len(tc.samples)) {
			t.Fatalf("%v: samples %d", tc.samples, got.Samples)
		}
		if tc.p50 == 0 {
			if got.P50Ms < 10*60*1000 {
				t.Errorf("an hour reads as %v ms: want the last bin (≥ 10 min)", got.P50Ms)
			}
			continue
		}
		if math.Abs(got.P50Ms-tc.p50) > 0.03*tc.p50+0.003 || math.Abs(got.P95Ms-tc.p95) > 0.03*tc.p95+0.003 {
			t.Errorf("%v: p50 %v p95 %v, want %v %v (±3%%)", tc.samples, got.P50Ms, got.P95Ms, tc.p50, tc.p95)
		}
	}
}

// The summary reads other packages' counters by name: build them as the agent does and check
// every name it reads is registered by someone.
func TestUsageCounterNames(t *testing.T) {
	rec := &descRecorder{}
	admission.New(admission.DefaultConfig(), rec)
	if _, err := redact.New(redact.DefaultConfig(), nil, rec, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	if _, err := guard.New(guard.DefaultPolicy(), nil, nil, nil, rec, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	m, err := drafter.NewOllama("http://127.0.0.1:1", "d", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drafter.NewTerminal(nil, m, nil, drafter.Options{}, rec, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sucursal_admission_refused_total", "sucursal_guard_failures_total", "sucursal_guard_fail_open_total",
		"sucursal_redact_match_timeouts_total", "sucursal_redact_ner_fallbacks_total",
		"sucursal_drafter_draft_tokens_total", "sucursal_drafter_accepted_tokens_total"} {
		if !rec.names[name] {
			t.Errorf("no collector registers %s any more: the usage summary reads it", name)
		}
	}
	for _, code := range append(slices.Clone(refused429Codes), refused503Codes...) {
		if !slices.Contains([]string{admission.CodeRateLimited, admission.CodeTooConcurrent, admission.CodeQueueFull, admission.CodeQueueTimeout, admission.CodeBodiesBusy}, code) {
			t.Errorf("refusal code %q is not admission's", code)
		}
	}
}

type descRecorder struct{ names map[string]bool }

func (r *descRecorder) Register(c prometheus.Collector) error {
	if r.names == nil {
		r.names = map[string]bool{}
	}
	ch := make(chan *prometheus.Desc, 64)
	go func() { c.Describe(ch); close(ch) }()
	for d := range ch {
		s := d.String() // Desc{fqName: "name", ...}
		if i := strings.Index(s, `fqName: "`); i >= 0 {
			rest := s[i+len(`fqName: "`):]
			r.names[rest[:strings.IndexByte(rest, '"')]] = true
		}
	}
	return nil
}
func (r *descRecorder) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		_ = r.Register(c)
	}
}
func (r *descRecorder) Unregister(prometheus.Collector) bool { return true }
