package drafter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ollama/ollama/api"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/wire"
)

// Verifier is the datacenter as the drafter needs it (*link.Client is one).
type Verifier interface {
	Verify(ctx context.Context, requestID string, v wire.Verify) (wire.VerifyResult, error)
}

// Options tune drafting.
type Options struct {
	// GammaMin and GammaMax bound the draft length per round; equal values fix it.
	GammaMin, GammaMax int
}

// Terminal is a pipeline terminal that drafts where it can and otherwise hands the request to
// plain (ForwardToDC on the same link): requests that are not greedy streams, a gateway that does
// not verify drafts, a drafter that is down, a verifier that answers garbage or forgot the session
// — each before anything reached the user, with the reason logged and counted.
type Terminal struct {
	v     Verifier
	model Model
	plain pipeline.Handler
	o     Options
	m     *metrics
	log   *slog.Logger

	// What earlier requests measured, so a request starts from the link's and the drafter's
	// known behaviour and can decide up front that plain streaming is faster.
	mu       sync.Mutex
	learned  *gammaCtl
	pass     time.Duration // EWMA of the target's pass time per round, as the DC reports it
	requests int
}

// probeEvery: while drafting looks slower than plain, one request in this many drafts anyway so
// the estimates follow a link or a text that changed.
const probeEvery = 16

// NewTerminal returns the drafting terminal.
func NewTerminal(v Verifier, model Model, plain pipeline.Handler, o Options, reg prometheus.Registerer, log *slog.Logger) (*Terminal, error) {
	if o.GammaMin <= 0 {
		o.GammaMin = 1
	}
	if o.GammaMax <= 0 {
		o.GammaMax = 8
	}
	if o.GammaMin > o.GammaMax || o.GammaMax > 32 {
		return nil, fmt.Errorf("drafter: want 1 ≤ gamma_min ≤ gamma_max ≤ 32, got %d, %d", o.GammaMin, o.GammaMax)
	}
	return &Terminal{v: v, model: model, plain: plain, o: o, m: newMetrics(reg, o.GammaMax), log: log,
		learned: newGammaCtl(o.GammaMin, o.GammaMax)}, nil
}

// errPlain says the request was not drafted and nothing reached the user: stream it plain.
type errPlain struct{ reason string }

func (e *errPlain) Error() string { return "drafter: streaming plain: " + e.reason }

func (t *Terminal) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	err := t.draft(ctx, req, w)
	var p *errPlain
	if errors.As(err, &p) {
		t.m.plain.WithLabelValues(p.reason).Inc()
		if p.reason != "not_greedy_stream" {
			t.log.Info("drafting fell back to plain streaming", "request_id", req.ID, "reason", p.reason)
		}
		return t.plain.ServeChat(ctx, req, w)
	}
	return err
}

// draft runs the rounds. It returns *errPlain only while nothing has been written.
func (t *Terminal) draft(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	msgs, ok := draftable(req.Chat)
	if !ok {
		return &errPlain{"not_greedy_stream"}
	}
	ctl, worth := t.start()
	if !worth {
		return &errPlain{"slower_than_plain"}
	}
	defer t.learn(ctl)
	prompt, err := t.model.Prompt(ctx, msgs)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &errPlain{"drafter_unavailable"}
	}
	chatBody, err := json.Marshal(req.Chat)
	if err != nil {
		return chat.Internal("could not encode the request for the datacenter")
	}
	out := chunker{w: w, id: "chatcmpl-" + req.ID, model: req.Chat.Model, created: time.Now().Unix()}
	drafting := true
	var output string
	var stats usageStats
	v := wire.Verify{Chat: chatBody, Mode: wire.DraftModeText}
	for round := 1; ; round++ {
		gamma := ctl.next()
		var proposal string
		draftStart := time.Now()
		if drafting {
			proposal, err = t.model.Draft(ctx, prompt+output, gamma)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if !out.started {
					return &errPlain{"drafter_unavailable"}
				}
				// Mid-answer: keep going with empty drafts (the target adds one token a round).
				t.log.Warn("the draft model failed mid-answer; verifying empty drafts", "request_id", req.ID)
				drafting, proposal = false, ""
			}
		}
		proposal = validPrefix(proposal, wire.MaxDraftBytes)
		drafted := min(gamma, utf8.RuneCountInString(proposal))
		draftTime := time.Since(draftStart)
		v.Round, v.Draft = round, proposal
		sent := time.Now()
		res, err := t.v.Verify(ctx, req.ID, v)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return t.roundFailed(err, out.started)
		}
		rtt := time.Since(sent)
		v.Session, v.Chat = res.Session, nil
		t.m.rounds.Inc()
		t.m.gamma.Observe(float64(gamma))
		t.m.verifyRTT.Observe(rtt.Seconds())
		t.m.drafted.Add(float64(drafted))
		t.m.accepted.Add(float64(res.AcceptedTokens))
		t.m.positions(drafted, res.AcceptedTokens)
		stats.Rounds++
		stats.DraftTokens += drafted
		stats.AcceptedTokens += res.AcceptedTokens
		stats.Gamma = gamma
		if drafting {
			ctl.observe(gamma, min(res.AcceptedTokens, gamma), rtt, draftTime)
		}
		t.observePass(time.Duration(res.TargetMillis * float64(time.Millisecond)))
		text := proposal[:res.Accepted] + res.Next
		output += text
		if err := out.text(text); err != nil {
			return err
		}
		if res.Done {
			t.m.answers.Inc()
			return out.finish(res, req.Chat.StreamOptions != nil && req.Chat.StreamOptions.IncludeUsage, stats)
		}
	}
}

// start copies what earlier requests learned and says whether drafting is expected to beat plain
// streaming: plain streaming yields a token per target pass, a drafting round E(α, γ) tokens per
// (round trip + pass + γ drafts). With a fixed γ the operator has decided; always draft.
func (t *Terminal) start() (*gammaCtl, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ctl := *t.learned
	t.requests++
	if t.o.GammaMin == t.o.GammaMax || t.pass <= 0 || ctl.round <= 0 || t.requests%probeEvery == 0 {
		return &ctl, true
	}
	plainRate := 1 / float64(t.pass)
	return &ctl, ctl.rate(ctl.next()) > plainRate
}

func (t *Terminal) learn(ctl *gammaCtl) {
	t.mu.Lock()
	t.learned = ctl
	t.mu.Unlock()
}

func (t *Terminal) observePass(d time.Duration) {
	if d <= 0 {
		return
	}
	t.mu.Lock()
	t.pass = ewma(t.pass, d)
	t.mu.Unlock()
}

// roundFailed turns a failed round into a plain fallback (nothing written yet) or an error.
func (t *Terminal) roundFailed(err error, started bool) error {
	reason := "verify_failed"
	var refused *link.DraftRefusedError
	switch {
	case errors.As(err, &refused):
		switch refused.Code {
		case "unsupported_operation", "drafting_not_configured":
			reason = "dc_does_not_draft"
		case "draft_session_expired":
			reason = "session_expired"
		default:
			reason = "dc_refused"
		}
	case errors.Is(err, wire.ErrBadVerifyResult):
		reason = "bad_verify_result"
	case errors.Is(err, link.ErrNotConnected):
		// Plain streaming on the same link cannot work either; let the failover router decide.
		if !started {
			return &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: "dc_unavailable",
				Message: "the datacenter is unreachable from this branch; try again shortly", RetryAfter: pipeline.DCRetryAfter}
		}
	}
	if !started {
		return &errPlain{reason}
	}
	t.m.plain.WithLabelValues(reason + "_mid_answer").Inc()
	t.log.Warn("drafting failed mid-answer", "reason", reason)
	// The user has part of the answer; plain streaming cannot resume it (see docs/DRAFTING.md).
	return &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "dc_protocol_error",
		Message: "the datacenter stopped verifying the answer midway", RetryAfter: pipeline.DCRetryAfter}
}

// draftable returns the messages to draft on, or false for requests that must stream plain:
// not streamed, not greedy (sampling needs the lossless acceptance rule, not implemented), or
// using anything whose effect the verifier does not reproduce (tools, stop sequences, formats…).
func draftable(r *chat.Request) ([]api.Message, bool) {
	if r == nil || !r.Stream {
		return nil, false
	}
	t, ok := r.Extra["temperature"]
	if !ok || (string(t) != "0" && string(t) != "0.0") {
		return nil, false
	}
	for k := range r.Extra {
		switch k {
		case "temperature", "max_tokens", "max_completion_tokens", "top_p", "seed", "user":
		default:
			return nil, false
		}
	}
	msgs := make([]api.Message, 0, len(r.Messages))
	for _, m := range r.Messages {
		if len(m.ToolCalls) > 0 || len(m.Extra) > 0 || (m.Role != "system" && m.Role != "user" && m.Role != "assistant") {
			return nil, false
		}
		var text string
		if m.Content.Text != nil {
			text = *m.Content.Text
		}
		for _, p := range m.Content.Parts {
			if p.Type != "text" {
				return nil, false
			}
			text += p.Text
		}
		msgs = append(msgs, api.Message{Role: m.Role, Content: text})
	}
	return msgs, true
}

// validPrefix cuts s to at most n bytes ending on a whole UTF-8 character.
func validPrefix(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// chunker writes the drafted answer as chat.completion.chunks shaped like the target's own.
type chunker struct {
	w       pipeline.ResponseWriter
	id      string
	model   string
	created int64
	started bool
}

func (c *chunker) chunk(delta chat.Delta, finish *string, usage *chat.Usage) error {
	if !c.started {
		delta.Role = "assistant"
		c.started = true
	}
	choices := []chat.ChunkChoice{{Index: 0, Delta: delta, FinishReason: finish}}
	if usage != nil {
		choices = []chat.ChunkChoice{}
	}
	return c.w.WriteChunk(&chat.Chunk{ID: c.id, Object: "chat.completion.chunk", Created: c.created, Model: c.model,
		Choices: choices, Usage: usage})
}

func (c *chunker) text(s string) error {
	if s == "" {
		return nil
	}
	return c.chunk(chat.Delta{Content: &s}, nil, nil)
}

// usageStats is the usage extension of a drafted answer ("sucursal_drafting" in the usage
// chunk): counts only.
type usageStats struct {
	Rounds         int    `json:"rounds"`
	DraftTokens    int    `json:"draft_tokens"`
	AcceptedTokens int    `json:"accepted_tokens"`
	Gamma          int    `json:"last_gamma"`
	Mode           string `json:"mode"`
}

func (c *chunker) finish(res wire.VerifyResult, usage bool, stats usageStats) error {
	reason := res.FinishReason
	empty := ""
	if err := c.chunk(chat.Delta{Content: &empty}, &reason, nil); err != nil {
		return err
	}
	if !usage {
		return nil
	}
	stats.Mode = wire.DraftModeText
	ext, _ := json.Marshal(stats)
	return c.chunk(chat.Delta{}, nil, &chat.Usage{PromptTokens: res.PromptTokens, CompletionTokens: res.CompletionTokens,
		TotalTokens: res.PromptTokens + res.CompletionTokens, Extra: chat.Extra{"sucursal_drafting": ext}})
}
