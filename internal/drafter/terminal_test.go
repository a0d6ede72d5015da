package drafter

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/wire"
)

type recorder struct {
	chunks     []*chat.Chunk
	completion *chat.Completion
}

func (r *recorder) Header() http.Header            { return http.Header{} }
func (r *recorder) WriteChunk(c *chat.Chunk) error { r.chunks = append(r.chunks, c); return nil }
func (r *recorder) WriteCompletion(c *chat.Completion) error {
	if r.completion != nil {
		return errors.New("a second completion")
	}
	r.completion = c
	return nil
}
func (r *recorder) text() string {
	var b strings.Builder
	for _, c := range r.chunks {
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				b.WriteString(*ch.Delta.Content)
			}
		}
	}
	return b.String()
}

// echoModel drafts the next n characters of a fixed answer after whatever it is given, one token
// per character whose id is the character's code point.
type echoModel struct {
	answer string
	fail   bool
	fp     string
}

func (m echoModel) Prompt(context.Context, []chat.Turn) (string, error) {
	if m.fail {
		return "", errors.New("down")
	}
	return "", nil
}

func (m echoModel) Draft(_ context.Context, prompt string, n int, _ bool) ([]Piece, error) {
	rest := strings.TrimPrefix(m.answer, prompt)
	var p []Piece
	for _, r := range rest[:min(n, len(rest))] {
		p = append(p, Piece{ID: r, Text: string(r)})
	}
	return p, nil
}

func (m echoModel) Fingerprint(context.Context) (string, error) { return m.fp, nil }

// scriptVerifier answers round i with results[i-1] or errs[i-1], and hellos with hello (text
// mode when zero) or helloErr.
type scriptVerifier struct {
	results  []wire.VerifyResult
	errs     []error
	rounds   int
	hello    wire.DraftHelloResult
	helloErr error
	hellos   []wire.DraftHello
	sent     []wire.Verify
}

func (s *scriptVerifier) DraftHello(_ context.Context, h wire.DraftHello) (wire.DraftHelloResult, error) {
	s.hellos = append(s.hellos, h)
	if s.helloErr != nil {
		return wire.DraftHelloResult{}, s.helloErr
	}
	if s.hello == (wire.DraftHelloResult{}) {
		return wire.DraftHelloResult{Mode: wire.DraftModeText, Verifier: "script"}, nil
	}
	return s.hello, nil
}

func (s *scriptVerifier) Verify(_ context.Context, _ string, v wire.Verify) (wire.VerifyResult, error) {
	s.sent = append(s.sent, v)
	s.rounds++
	i := v.Round - 1
	if i < len(s.errs) && s.errs[i] != nil {
		return wire.VerifyResult{}, s.errs[i]
	}
	r := s.results[i]
	r.Session, r.Round = "s", v.Round
	return r, nil
}

func greedyReq() *pipeline.Request {
	zero := 0.0
	c := &chat.Request{Model: "m", Stream: true, Messages: []chat.Message{{Role: "user", Content: chat.TextContent("x")}},
		Temperature: &zero}
	return &pipeline.Request{ID: "r1", Received: time.Now(), Chat: c}
}

func newTestTerminal(t *testing.T, v Verifier, m Model, plain pipeline.Handler) (*Terminal, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	term, err := NewTerminal(v, m, plain, Options{GammaMin: 3, GammaMax: 3}, reg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = term.hello(context.Background(), "m") // a model's first request streams plain while the hello runs
	return term, reg
}

const plainAnswer = "PLAIN"

func plainHandler(called *int) pipeline.Handler { return plainAnswering(called, plainAnswer) }

// plainAnswering streams answer plain, two bytes a chunk, with a role first and a finish last.
func plainAnswering(called *int, answer string) pipeline.Handler {
	return pipeline.HandlerFunc(func(_ context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
		*called++
		if err := w.WriteChunk(&chat.Chunk{ID: "plain", Choices: []chat.ChunkChoice{{Delta: chat.Delta{Role: "assistant"}}}}); err != nil {
			return err
		}
		for i := 0; i < len(answer); i += 2 {
			s := answer[i:min(i+2, len(answer))]
			if err := w.WriteChunk(&chat.Chunk{ID: "plain", Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &s}}}}); err != nil {
				return err
			}
		}
		stop := "stop"
		if err := w.WriteChunk(&chat.Chunk{ID: "plain", Choices: []chat.ChunkChoice{{FinishReason: &stop}}}); err != nil {
			return err
		}
		if req.Chat.StreamOptions != nil && req.Chat.StreamOptions.IncludeUsage != nil && *req.Chat.StreamOptions.IncludeUsage {
			return w.WriteChunk(&chat.Chunk{ID: "plain", Choices: []chat.ChunkChoice{}, Usage: &chat.Usage{CompletionTokens: len(answer)}})
		}
		return nil
	})
}

func TestTerminalDraftsAndFallsBack(t *testing.T) {
	ok := []wire.VerifyResult{
		{Accepted: 3, AcceptedTokens: 3, Next: "d", Bonus: true},
		{Accepted: 1, AcceptedTokens: 1, Next: "X"},
		{Done: true, FinishReason: "stop", CompletionTokens: 6},
	}
	for _, tc := range []struct {
		name       string
		model      Model
		errs       []error
		req        func() *pipeline.Request
		wantText   string
		wantPlain  int
		wantReason string
		wantErr    bool
	}{
		{name: "drafted", model: echoModel{answer: "abcdeX"}, wantText: "abcdeX"},
		{name: "not greedy", model: echoModel{answer: "abcdeX"}, req: func() *pipeline.Request {
			r := greedyReq()
			r.Chat.Temperature = nil
			return r
		}, wantText: plainAnswer, wantPlain: 1, wantReason: "not_greedy_stream"},
		{name: "drafter down", model: echoModel{fail: true}, wantText: plainAnswer, wantPlain: 1, wantReason: "drafter_unavailable"},
		{name: "gateway does not draft", model: echoModel{answer: "abc"},
			errs:     []error{&wire.DraftRefusedError{Status: 400, Code: "unsupported_operation"}},
			wantText: plainAnswer, wantPlain: 1, wantReason: "dc_does_not_draft"},
		{name: "garbage result", model: echoModel{answer: "abc"},
			errs:     []error{wire.ErrBadVerifyResult},
			wantText: plainAnswer, wantPlain: 1, wantReason: "bad_verify_result"},
		{name: "session expired first round", model: echoModel{answer: "abc"},
			errs:     []error{&wire.DraftRefusedError{Status: 404, Code: "draft_session_expired"}},
			wantText: plainAnswer, wantPlain: 1, wantReason: "session_expired"},
		{name: "session expired mid-answer, plain disagrees", model: echoModel{answer: "abcdeX"},
			errs:     []error{nil, &wire.DraftRefusedError{Status: 404, Code: "draft_session_expired"}},
			wantText: "abcd", wantPlain: 1, wantReason: "resume_diverged", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &scriptVerifier{results: ok, errs: tc.errs}
			var plainCalls int
			term, reg := newTestTerminal(t, v, tc.model, plainHandler(&plainCalls))
			req := greedyReq()
			if tc.req != nil {
				req = tc.req()
			}
			var w recorder
			err := term.ServeChat(context.Background(), req, &w)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if got := w.text(); got != tc.wantText {
				t.Fatalf("user got %q, want %q", got, tc.wantText)
			}
			if plainCalls != tc.wantPlain {
				t.Fatalf("plain called %d times, want %d", plainCalls, tc.wantPlain)
			}
			if tc.wantReason != "" {
				if n := counterValue(t, term.m.plain.WithLabelValues(tc.wantReason)); n != 1 {
					t.Fatalf("plain_total{reason=%s} = %v", tc.wantReason, n)
				}
			}
			if tc.name == "drafted" {
				if n := counterValue(t, term.m.accepted); n != 4 {
					t.Fatalf("accepted tokens = %v, want 4", n)
				}
				last := w.chunks[len(w.chunks)-1]
				if fr := last.Choices[0].FinishReason; fr == nil || *fr != "stop" {
					t.Fatalf("last chunk has no stop finish reason")
				}
				if w.chunks[0].Choices[0].Delta.Role != "assistant" {
					t.Fatal("first chunk has no assistant role")
				}
			}
			_ = reg
		})
	}
}

func TestGammaController(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		accepted             int // per round of γ=8
		round, perToken      time.Duration
		wantMin, wantMax, lo int
	}{
		{"always accepted, slow link: draft long", 8, 100 * time.Millisecond, time.Millisecond, 8, 8, 1},
		{"never accepted: shortest", 0, 100 * time.Millisecond, time.Millisecond, 1, 1, 1},
		{"half, fast link, costly drafts: short", 1, 2 * time.Millisecond, 2 * time.Millisecond, 1, 2, 1},
		{"respects gamma_min", 0, 100 * time.Millisecond, time.Millisecond, 3, 3, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGammaCtl(tc.lo, 8)
			for range 50 {
				g.observe(8, tc.accepted, tc.round, 8*tc.perToken)
			}
			if got := g.next(); got < tc.wantMin || got > tc.wantMax {
				t.Fatalf("γ = %d (α = %.2f), want %d…%d", got, g.alpha(), tc.wantMin, tc.wantMax)
			}
		})
	}
	if g := newGammaCtl(4, 4); g.next() != 4 {
		t.Fatal("a fixed γ moved")
	}
}

// TestGammaFollowsAcceptanceByPosition: a drafter that is right for exactly three tokens and then
// wrong (not geometric: its overall α is high) is given γ = 3 on a slow link, where the geometric
// model with the same overall α would draft longer and waste the tail.
func TestGammaFollowsAcceptanceByPosition(t *testing.T) {
	g := newGammaCtl(1, 8)
	for range 50 {
		g.observe(8, 3, 100*time.Millisecond, 80*time.Millisecond)
	}
	if got := g.next(); got != 3 {
		t.Fatalf("γ = %d, want 3 (per-position acceptance %.2f %.2f %.2f %.2f)", got, g.position(1), g.position(2), g.position(3), g.position(4))
	}
	// The geometric model with the same overall α would have drafted longer.
	geo, best := 0, -1.0
	for gamma := 1; gamma <= 8; gamma++ {
		if r := expectedTokens(g.alpha(), gamma) / float64(g.round+time.Duration(gamma)*g.perToken); r > best {
			geo, best = gamma, r
		}
	}
	if geo <= 3 {
		t.Fatalf("the geometric model also picks γ = %d; the test shows nothing", geo)
	}
	// The per-position E(γ) agrees with the geometric closed form when acceptance is geometric.
	h := newGammaCtl(1, 8)
	h.accepted, h.rejected = 8, 2
	for gamma := 0; gamma <= 8; gamma++ {
		if d := h.expected(gamma) - expectedTokens(h.alpha(), gamma); d > 1e-9 || d < -1e-9 {
			t.Fatalf("γ=%d: per-position E %v, geometric %v", gamma, h.expected(gamma), expectedTokens(h.alpha(), gamma))
		}
	}
	// A clone does not share its counts with the original.
	c := g.clone()
	c.observe(8, 8, time.Millisecond, time.Millisecond)
	if c.tried[5] == g.tried[5] {
		t.Fatal("a clone shares the per-position counts")
	}
}

// TestExpectedTokens checks the closed form against a direct sum: E = Σ_{i=0..γ} α^i.
func TestExpectedTokens(t *testing.T) {
	for _, a := range []float64{0, 0.3, 0.8, 0.99} {
		for gamma := 0; gamma <= 8; gamma++ {
			sum, p := 0.0, 1.0
			for i := 0; i <= gamma; i++ {
				sum += p
				p *= a
			}
			if d := expectedTokens(a, gamma) - sum; d > 1e-9 || d < -1e-9 {
				t.Fatalf("α=%v γ=%d: %v, want %v", a, gamma, expectedTokens(a, gamma), sum)
			}
		}
	}
}

func counterValue(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// TestSwitchToPlainWhenSlower: with what earlier requests measured, a request drafts only when
// E(α,γ)/(round + γ·draft) beats one token per target pass, and still probes now and then.
func TestSwitchToPlainWhenSlower(t *testing.T) {
	for _, tc := range []struct {
		name               string
		accepted, rejected float64
		round, pass        time.Duration
		want               bool
	}{
		{"long round trip, poor drafts", 1, 9, 100 * time.Millisecond, 10 * time.Millisecond, false},
		{"short round trip, good drafts", 9, 1, 12 * time.Millisecond, 10 * time.Millisecond, true},
		{"long round trip, perfect drafts still lose", 99, 0.01, 200 * time.Millisecond, 10 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term, _ := newTestTerminal(t, &scriptVerifier{}, echoModel{}, plainHandler(new(int)))
			term.o.GammaMin, term.o.GammaMax = 1, 8
			term.learned = newGammaCtl(1, 8)
			term.learned.accepted, term.learned.rejected = tc.accepted, tc.rejected
			term.learned.round, term.learned.perToken, term.pass = tc.round, time.Millisecond, tc.pass
			probes := 0
			for range probeEvery {
				if _, ok := term.start(); ok != tc.want {
					probes++
				}
			}
			if tc.want && probes != 0 {
				t.Fatalf("drafting refused %d times", probes)
			}
			if !tc.want && probes != 1 {
				t.Fatalf("%d of %d requests drafted; want exactly the one probe", probes, probeEvery)
			}
		})
	}
}

// TestUsageExtension: with include_usage, the last chunk carries the target's token counts and
// the drafting counts of this answer.
func TestUsageExtension(t *testing.T) {
	v := &scriptVerifier{results: []wire.VerifyResult{
		{Accepted: 3, AcceptedTokens: 3, Next: "d", Bonus: true},
		{Accepted: 1, AcceptedTokens: 1, Next: "X"},
		{Done: true, FinishReason: "stop", PromptTokens: 2, CompletionTokens: 6},
	}}
	term, _ := newTestTerminal(t, v, echoModel{answer: "abcdeX"}, plainHandler(new(int)))
	req := greedyReq()
	yes := true
	req.Chat.StreamOptions = &chat.StreamOptions{IncludeUsage: &yes}
	var w recorder
	if err := term.ServeChat(context.Background(), req, &w); err != nil {
		t.Fatal(err)
	}
	u := w.chunks[len(w.chunks)-1].Usage
	if u == nil || u.CompletionTokens != 6 || u.PromptTokens != 2 || u.TotalTokens != 8 {
		t.Fatalf("usage = %+v", u)
	}
	var ext usageStats
	if err := json.Unmarshal(u.Extra["sucursal_drafting"], &ext); err != nil {
		t.Fatal(err)
	}
	// Round 1 drafts "abc" (3), round 2 "eX" (2), round 3 nothing: 5 drafted, 3+1 accepted.
	want := usageStats{Rounds: 3, DraftTokens: 5, AcceptedTokens: 4, Gamma: 3, Mode: wire.DraftModeText,
		DraftedByPosition: []int{2, 2, 1}, AcceptedByPosition: []int{2, 1, 1}, VerifyMillis: ext.VerifyMillis}
	if !reflect.DeepEqual(ext, want) {
		t.Fatalf("usage extension = %+v, want %+v", ext, want)
	}
}
