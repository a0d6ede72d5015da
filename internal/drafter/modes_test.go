package drafter

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/goleak"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/wire"
)

// terminalWith returns a terminal whose hello for model "m" has been made.
func terminalWith(t *testing.T, v Verifier, m Model, o Options, plainCalls *int, plainText string) *Terminal {
	t.Helper()
	term := unprimed(t, v, m, o, plainCalls, plainText)
	_, _ = term.hello(context.Background(), "m")
	return term
}

func unprimed(t *testing.T, v Verifier, m Model, o Options, plainCalls *int, plainText string) *Terminal {
	t.Helper()
	term, err := NewTerminal(v, m, plainAnswering(plainCalls, plainText), o, prometheus.NewRegistry(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return term
}

// TestTokenMode: when the hello chooses token mode the rounds carry token ids (not text), the first
// one the drafter's fingerprint, and the answer is assembled from the accepted tokens.
func TestTokenMode(t *testing.T) {
	v := &scriptVerifier{hello: wire.DraftHelloResult{Mode: wire.DraftModeToken, Fingerprint: "fp1", Verifier: "script"},
		results: []wire.VerifyResult{
			{Accepted: 3, AcceptedTokens: 3, Next: "d", Bonus: true},
			{Accepted: 1, AcceptedTokens: 1, Next: "X"},
			{Done: true, FinishReason: "stop"},
		}}
	var plain int
	term := terminalWith(t, v, echoModel{answer: "abcdeX", fp: "fp1"}, Options{GammaMin: 3, GammaMax: 3}, &plain, "")
	var w recorder
	if err := term.ServeChat(context.Background(), greedyReq(), &w); err != nil {
		t.Fatal(err)
	}
	if w.text() != "abcdeX" || plain != 0 {
		t.Fatalf("user got %q, plain called %d times", w.text(), plain)
	}
	if len(v.hellos) != 1 || v.hellos[0].Fingerprint != "fp1" || v.hellos[0].Modes[0] != wire.DraftModeToken {
		t.Fatalf("hellos %+v", v.hellos)
	}
	first := v.sent[0]
	if first.Mode != wire.DraftModeToken || first.Fingerprint != "fp1" || len(first.Tokens) != 3 || first.Tokens[0] != 'a' {
		t.Fatalf("first round %+v", first)
	}
	if v.sent[1].Fingerprint != "" || v.sent[1].Chat != nil {
		t.Fatal("a later round repeated the session's opening")
	}
	if n := counterValue(t, term.m.answers.WithLabelValues(wire.DraftModeToken)); n != 1 {
		t.Fatalf("answers_total{mode=token} = %v", n)
	}
	// The hello is cached: a second request asks no more.
	v.rounds = 0
	w = recorder{}
	v.sent = nil
	if err := term.ServeChat(context.Background(), greedyReq(), &w); err != nil || len(v.hellos) != 1 {
		t.Fatalf("second request: err %v, %d hellos", err, len(v.hellos))
	}
}

// TestModeFallbacks: a model's first request streams plain while the hello runs beside it; every
// reason drafting cannot start after that is a plain answer with its reason counted, and what the
// hello said is remembered so it costs no round trip per request.
func TestModeFallbacks(t *testing.T) {
	for _, tc := range []struct {
		name          string
		mode          string
		model         echoModel
		hello         wire.DraftHelloResult
		helloErr      error
		errs          []error
		reason        string
		reasons       float64 // requests streamed plain for reason, of 3
		pending       float64 // requests streamed plain while a hello ran, of 3
		helloOutcomes map[string]float64
	}{
		{name: "tokenizer mismatch in token mode", mode: ModeToken, model: echoModel{fp: "mine"},
			hello:  wire.DraftHelloResult{Reason: wire.HelloTokenizerMismatch, Fingerprint: "theirs"},
			reason: "tokenizer_mismatch", reasons: 2, pending: 1, helloOutcomes: map[string]float64{"tokenizer_mismatch": 1}},
		{name: "DC does not draft", mode: ModeAuto, model: echoModel{fp: "mine"},
			helloErr: &wire.DraftRefusedError{Status: 400, Code: "unsupported_operation"},
			reason:   "dc_does_not_draft", reasons: 2, pending: 1, helloOutcomes: map[string]float64{"dc_does_not_draft": 1}},
		{name: "DC without a verifier", mode: ModeText,
			helloErr: &wire.DraftRefusedError{Status: 501, Code: "drafting_not_configured"},
			reason:   "dc_does_not_draft", reasons: 2, pending: 1, helloOutcomes: map[string]float64{"dc_does_not_draft": 1}},
		{name: "garbage hello", mode: ModeAuto, helloErr: wire.ErrBadVerifyResult,
			reason: "bad_verify_result", reasons: 0, pending: 3, helloOutcomes: map[string]float64{"bad_verify_result": 3}},
		{name: "target changed since the hello", mode: ModeToken, model: echoModel{answer: "abc", fp: "mine"},
			hello:  wire.DraftHelloResult{Mode: wire.DraftModeToken, Fingerprint: "mine"},
			errs:   []error{&wire.DraftRefusedError{Status: 409, Code: "draft_tokenizer_mismatch"}},
			reason: "tokenizer_mismatch", reasons: 1, pending: 2, helloOutcomes: map[string]float64{"token": 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &scriptVerifier{hello: tc.hello, helloErr: tc.helloErr, errs: tc.errs}
			var plain int
			term := unprimed(t, v, tc.model, Options{GammaMin: 3, GammaMax: 3, Mode: tc.mode}, &plain, "fine")
			for i := range 3 {
				v.rounds = 0
				var w recorder
				if err := term.ServeChat(context.Background(), greedyReq(), &w); err != nil {
					t.Fatal(err)
				}
				if w.text() != "fine" || plain != i+1 {
					t.Fatalf("request %d: user got %q, plain called %d times", i, w.text(), plain)
				}
			}
			if n := counterValue(t, term.m.plain.WithLabelValues(tc.reason)); n != tc.reasons {
				t.Fatalf("plain_total{reason=%s} = %v, want %v", tc.reason, n, tc.reasons)
			}
			if n := counterValue(t, term.m.plain.WithLabelValues("hello_pending")); n != tc.pending {
				t.Fatalf("plain_total{reason=hello_pending} = %v, want %v", n, tc.pending)
			}
			for outcome, want := range tc.helloOutcomes {
				if n := counterValue(t, term.m.hellos.WithLabelValues(outcome)); n != want {
					t.Fatalf("hellos_total{outcome=%s} = %v, want %v", outcome, n, want)
				}
			}
		})
	}
	// Text mode never offers token mode and needs no fingerprint.
	v := &scriptVerifier{results: []wire.VerifyResult{{Done: true, FinishReason: "stop"}}}
	term := terminalWith(t, v, echoModel{fp: "mine"}, Options{Mode: ModeText}, new(int), "")
	if err := term.ServeChat(context.Background(), greedyReq(), &recorder{}); err != nil {
		t.Fatal(err)
	}
	if h := v.hellos[0]; len(h.Modes) != 1 || h.Modes[0] != wire.DraftModeText || h.Fingerprint != "" {
		t.Fatalf("text mode hello %+v", h)
	}
	if _, err := NewTerminal(v, echoModel{}, nil, Options{Mode: "bytes"}, nil, nil); err == nil {
		t.Fatal("an unknown mode was accepted")
	}
}

// TestVerifierFailsMidAnswerResumesPlain: after part of the answer was shown, a verifier that
// fails (garbage, expired session, refused) hands over to plain streaming, which skips what the
// user already has; the user gets the whole answer once, and the usage says what happened.
func TestVerifierFailsMidAnswerResumesPlain(t *testing.T) {
	const answer = "abcdeXYZ"
	for _, failure := range []error{
		wire.ErrBadVerifyResult,
		&wire.DraftRefusedError{Status: 404, Code: "draft_session_expired"},
		&wire.DraftRefusedError{Status: 502, Code: "draft_target_failed"},
	} {
		t.Run(failure.Error(), func(t *testing.T) {
			v := &scriptVerifier{results: []wire.VerifyResult{{Accepted: 3, AcceptedTokens: 3, Next: "d", Bonus: true}},
				errs: []error{nil, failure}}
			var plain int
			term := terminalWith(t, v, echoModel{answer: answer}, Options{GammaMin: 3, GammaMax: 3}, &plain, answer)
			req := greedyReq()
			yes := true
			req.Chat.StreamOptions = &chat.StreamOptions{IncludeUsage: &yes}
			var w recorder
			if err := term.ServeChat(context.Background(), req, &w); err != nil {
				t.Fatal(err)
			}
			if w.text() != answer || plain != 1 {
				t.Fatalf("user got %q (plain called %d times), want %q once", w.text(), plain, answer)
			}
			roles := 0
			for _, c := range w.chunks {
				if c.ID != "chatcmpl-r1" {
					t.Fatalf("chunk id %q changed midway", c.ID)
				}
				for _, ch := range c.Choices {
					if ch.Delta.Role != "" {
						roles++
					}
				}
			}
			if roles != 1 {
				t.Fatalf("%d chunks carry a role", roles)
			}
			u := w.chunks[len(w.chunks)-1].Usage
			var ext usageStats
			if u == nil || json.Unmarshal(u.Extra["sucursal_drafting"], &ext) != nil || ext.SwitchedToPlain == "" || ext.Rounds != 1 {
				t.Fatalf("usage %+v", u)
			}
		})
	}
}

// TestPipelining: the next draft is made while the round is verified; it is used when the round
// was wholly accepted and the bonus guessed, discarded otherwise, and no goroutine outlives the
// request either way.
func TestPipelining(t *testing.T) {
	defer goleak.VerifyNone(t)
	v := &scriptVerifier{results: []wire.VerifyResult{
		{Accepted: 3, AcceptedTokens: 3, Next: "d", Bonus: true}, // guessed: the next draft is used
		{Accepted: 1, AcceptedTokens: 1, Next: "Q"},              // rejected: discarded
		{Accepted: 0, Next: "X", Bonus: false},                   // drafted afresh
		{Done: true, FinishReason: "stop"},
	}}
	var drafts int
	m := countingModel{echoModel{answer: "abcdeXYZ"}, &drafts}
	term := terminalWith(t, v, m, Options{GammaMin: 3, GammaMax: 3}, new(int), "")
	var w recorder
	if err := term.ServeChat(context.Background(), greedyReq(), &w); err != nil {
		t.Fatal(err)
	}
	if got := counterValue(t, term.m.pipelined.WithLabelValues("used")); got != 1 {
		t.Fatalf("pipelined used = %v, want 1", got)
	}
	if got := counterValue(t, term.m.pipelined.WithLabelValues("discarded")); got < 1 {
		t.Fatalf("pipelined discarded = %v, want ≥ 1", got)
	}
	if v.sent[1].Draft != "eXY" {
		t.Fatalf("round 2 sent %q, want the pipelined draft after the bonus", v.sent[1].Draft)
	}

	// Off: every round drafts in line.
	v2 := &scriptVerifier{results: v.results}
	drafts = 0
	term2 := terminalWith(t, v2, m, Options{GammaMin: 3, GammaMax: 3, NoPipeline: true}, new(int), "")
	if err := term2.ServeChat(context.Background(), greedyReq(), &recorder{}); err != nil {
		t.Fatal(err)
	}
	if counterValue(t, term2.m.pipelined.WithLabelValues("used"))+counterValue(t, term2.m.pipelined.WithLabelValues("discarded")) != 0 {
		t.Fatal("pipelining ran while turned off")
	}
}

type countingModel struct {
	echoModel
	n *int
}

func (m countingModel) Draft(ctx context.Context, prompt string, n int, ids bool) ([]Piece, error) {
	*m.n++
	return m.echoModel.Draft(ctx, prompt, n, ids)
}

// TestHelloSeedsTheEstimates: a fresh terminal decides from the hello's round trip and the DC's
// pass cost whether to draft its very first request.
func TestHelloSeedsTheEstimates(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rtt, pass time.Duration
		want      bool
	}{
		{"slow link: plain from the start", 200 * time.Millisecond, 30 * time.Millisecond, false},
		{"fast link: draft", 2 * time.Millisecond, 30 * time.Millisecond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := unprimed(t, &scriptVerifier{}, echoModel{}, Options{GammaMin: 1, GammaMax: 8}, new(int), "")
			term.seed(tc.rtt, tc.pass)
			if _, ok := term.start(); ok != tc.want {
				t.Fatalf("draft = %v, want %v", ok, tc.want)
			}
		})
	}
}

// TestNonStreamedRequestsAreDrafted: a greedy request that is not streamed is drafted and answered
// as one chat.completion with usage; a verifier failing at any round leaves nothing shown, so the
// request goes plain whole (no resumption needed).
func TestNonStreamedRequestsAreDrafted(t *testing.T) {
	results := []wire.VerifyResult{
		{Accepted: 3, AcceptedTokens: 3, Next: "d", Bonus: true},
		{Accepted: 1, AcceptedTokens: 1, Next: "X"},
		{Done: true, FinishReason: "stop", PromptTokens: 1, CompletionTokens: 6},
	}
	req := func() *pipeline.Request {
		r := greedyReq()
		r.Chat.Stream = false
		return r
	}
	v := &scriptVerifier{results: results}
	var plain int
	term := terminalWith(t, v, echoModel{answer: "abcdeX"}, Options{GammaMin: 3, GammaMax: 3}, &plain, "")
	var w recorder
	if err := term.ServeChat(context.Background(), req(), &w); err != nil {
		t.Fatal(err)
	}
	c := w.completion
	if c == nil || len(w.chunks) != 0 || plain != 0 {
		t.Fatalf("completion %v, %d chunks, plain %d", c, len(w.chunks), plain)
	}
	if c.Object != "chat.completion" || len(c.Choices) != 1 || c.Choices[0].Message.Content.Text == nil ||
		*c.Choices[0].Message.Content.Text != "abcdeX" || *c.Choices[0].FinishReason != "stop" || c.Usage.TotalTokens != 7 {
		t.Fatalf("completion %+v", c)
	}
	var ext usageStats
	if json.Unmarshal(c.Usage.Extra["sucursal_drafting"], &ext) != nil || ext.Rounds != 3 {
		t.Fatalf("usage extension %s", c.Usage.Extra["sucursal_drafting"])
	}

	// The verifier fails at round 2: plain from the start, nothing resumed.
	v2 := &scriptVerifier{results: results, errs: []error{nil, wire.ErrBadVerifyResult}}
	plain = 0
	term2 := terminalWith(t, v2, echoModel{answer: "abcdeX"}, Options{GammaMin: 3, GammaMax: 3}, &plain, "fine")
	w = recorder{}
	if err := term2.ServeChat(context.Background(), req(), &w); err != nil {
		t.Fatal(err)
	}
	if plain != 1 || w.completion != nil || counterValue(t, term2.m.plain.WithLabelValues("bad_verify_result")) != 1 {
		t.Fatalf("plain %d, completion %v", plain, w.completion)
	}
}
