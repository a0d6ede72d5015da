package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/wire"
)

// TargetPass is a verifier backend: the target model's greedy continuation of a prompt. It is
// defined here, where it is consumed, so another runtime (vLLM with prompt_logprobs, llama.cpp
// server) is one more small type.
type TargetPass interface {
	// Render turns the redacted chat request into the exact prompt text the target would be fed
	// for it (its own chat template), so continuing that text is continuing the plain answer.
	Render(ctx context.Context, model string, msgs []api.Message) (string, error)
	// Continue returns up to n tokens the target emits greedily after prompt, each as its text,
	// whether it stopped on its own end-of-sequence, and the prompt's token count.
	Continue(ctx context.Context, model, prompt string, n int) (tokens []string, stopped bool, promptTokens int, err error)
}

// DraftingOptions configure the DC side of speculative drafting.
type DraftingOptions struct {
	Backend TargetPass
	// TTL ends a session not used for this long (default 1 min): an edge that went away.
	TTL time.Duration
	// MaxSessions bounds live sessions (default 1024); more are refused and the edge streams plain.
	MaxSessions int
	// MaxOutputTokens caps an answer whose request has no max_tokens (default 4096).
	MaxOutputTokens int
	// PassCost is slept once per target pass, to emulate a datacenter target whose pass costs
	// more than the tiny CPU models' (speed experiments only; 0 in production).
	PassCost time.Duration
}

// Drafting serves OpDraft rounds and keeps their sessions. Sessions expire lazily (on the next
// open), so it owns no goroutine.
type Drafting struct {
	o DraftingOptions
	m *draftMetrics

	mu       sync.Mutex
	sessions map[string]*draftSession
}

type draftSession struct {
	mu           sync.Mutex
	model        string
	prompt       string          // the rendered prompt
	output       strings.Builder // the target's tokens accepted so far
	produced     int             // target tokens in output
	maxTokens    int
	round        int
	promptTokens int
	lastUsed     time.Time
}

// NewDrafting returns the DC drafting service.
func NewDrafting(o DraftingOptions, reg prometheus.Registerer) (*Drafting, error) {
	if o.Backend == nil {
		return nil, errors.New("gateway drafting: no verifier backend")
	}
	if o.TTL <= 0 {
		o.TTL = time.Minute
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = 1024
	}
	if o.MaxOutputTokens <= 0 {
		o.MaxOutputTokens = 4096
	}
	return &Drafting{o: o, m: newDraftMetrics(reg), sessions: map[string]*draftSession{}}, nil
}

// serveDraft answers one drafting round. Nothing of the text reaches logs or errors.
func (s *Server) serveDraft(ctx context.Context, str *quic.Stream, body []byte) string {
	d := s.cfg.Drafting
	if d == nil {
		_ = writeError(str, &chat.Error{Status: http.StatusNotImplemented, Type: "api_error", Code: "drafting_not_configured",
			Message: "this gateway does not verify drafts (--draft-verifier)"})
		return "bad_request"
	}
	res, cerr := d.round(ctx, body)
	if cerr != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return "cancelled"
		}
		_ = writeError(str, cerr)
		return "draft_" + cerr.Code
	}
	_ = wire.WriteJSON(str, wire.TypeVerifyResult, res)
	return "ok"
}

func draftErr(status int, code, msg string) *chat.Error {
	return &chat.Error{Status: status, Type: "invalid_request_error", Code: code, Message: msg}
}

func (d *Drafting) round(ctx context.Context, body []byte) (wire.VerifyResult, *chat.Error) {
	var v wire.Verify
	if json.Unmarshal(body, &v) != nil || v.Mode != wire.DraftModeText || len(v.Draft) > wire.MaxDraftBytes {
		return wire.VerifyResult{}, draftErr(http.StatusBadRequest, "protocol_error", "a draft round must be {session|chat, round, mode: text, draft}")
	}
	var id string
	var sess *draftSession
	if v.Session == "" {
		var cerr *chat.Error
		if id, sess, cerr = d.open(ctx, v.Chat); cerr != nil {
			return wire.VerifyResult{}, cerr
		}
	} else {
		id = v.Session
		d.mu.Lock()
		sess = d.sessions[id]
		d.mu.Unlock()
		if sess == nil {
			return wire.VerifyResult{}, draftErr(http.StatusNotFound, "draft_session_expired", "the drafting session expired or never existed")
		}
	}
	if !sess.mu.TryLock() {
		return wire.VerifyResult{}, draftErr(http.StatusConflict, "draft_round_out_of_order", "a round of this session is already in progress")
	}
	defer sess.mu.Unlock()
	if v.Round != sess.round+1 {
		return wire.VerifyResult{}, draftErr(http.StatusConflict, "draft_round_out_of_order", fmt.Sprintf("expected round %d, got %d", sess.round+1, v.Round))
	}
	res, err := d.verify(ctx, sess, v.Draft)
	if err != nil {
		d.drop(id)
		if ctx.Err() != nil {
			return wire.VerifyResult{}, draftErr(http.StatusGatewayTimeout, "cancelled", "cancelled")
		}
		return wire.VerifyResult{}, &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "draft_target_failed",
			Message: "the datacenter model server failed to verify the draft"}
	}
	sess.round = v.Round
	sess.lastUsed = time.Now()
	res.Session, res.Round = id, v.Round
	if res.Done {
		d.drop(id)
	}
	return res, nil
}

// open starts a session from the redacted chat request.
func (d *Drafting) open(ctx context.Context, raw json.RawMessage) (string, *draftSession, *chat.Error) {
	var req chat.Request
	if json.Unmarshal(raw, &req) != nil || req.Model == "" || len(req.Messages) == 0 {
		return "", nil, draftErr(http.StatusBadRequest, "protocol_error", "the first draft round must carry the chat request")
	}
	if t, ok := req.Extra["temperature"]; !ok || string(t) != "0" && string(t) != "0.0" {
		// Greedy only: accepting the target's argmax is lossless only for greedy decoding.
		return "", nil, draftErr(http.StatusBadRequest, "draft_needs_greedy", "drafting is verified for temperature 0 only")
	}
	msgs := make([]api.Message, 0, len(req.Messages))
	for _, m := range req.Messages {
		if len(m.ToolCalls) > 0 {
			return "", nil, draftErr(http.StatusBadRequest, "draft_unsupported", "tool calls are not drafted")
		}
		var text string
		if m.Content.Text != nil {
			text = *m.Content.Text
		}
		for _, p := range m.Content.Parts {
			if p.Type != "text" {
				return "", nil, draftErr(http.StatusBadRequest, "draft_unsupported", "only text content is drafted")
			}
			text += p.Text
		}
		msgs = append(msgs, api.Message{Role: m.Role, Content: text})
	}
	maxTokens := d.o.MaxOutputTokens
	for _, k := range []string{"max_completion_tokens", "max_tokens"} {
		var n int
		if b, ok := req.Extra[k]; ok && json.Unmarshal(b, &n) == nil && n > 0 {
			maxTokens = n
		}
	}
	prompt, err := d.o.Backend.Render(ctx, req.Model, msgs)
	if err != nil {
		return "", nil, &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "draft_target_failed",
			Message: "the datacenter model server could not render the prompt"}
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	sess := &draftSession{model: req.Model, prompt: prompt, maxTokens: maxTokens, lastUsed: time.Now()}
	d.mu.Lock()
	defer d.mu.Unlock()
	now := time.Now()
	for k, s := range d.sessions {
		if s.mu.TryLock() {
			if now.Sub(s.lastUsed) > d.o.TTL {
				delete(d.sessions, k)
			}
			s.mu.Unlock()
		}
	}
	if len(d.sessions) >= d.o.MaxSessions {
		return "", nil, &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: "draft_sessions_full",
			Message: "the gateway has too many drafting sessions", RetryAfter: time.Second}
	}
	d.sessions[id] = sess
	d.m.sessions.Set(float64(len(d.sessions)))
	return id, sess, nil
}

func (d *Drafting) drop(id string) {
	d.mu.Lock()
	delete(d.sessions, id)
	d.m.sessions.Set(float64(len(d.sessions)))
	d.mu.Unlock()
}

// verify runs one target pass over the session's text and accepts the longest run of target
// tokens that spell a prefix of the draft. What is accepted is always the target's own tokens,
// so the answer is the plain answer whatever the drafter proposed.
func (d *Drafting) verify(ctx context.Context, sess *draftSession, draft string) (wire.VerifyResult, error) {
	n := min(len([]rune(draft))+1, sess.maxTokens-sess.produced)
	var res wire.VerifyResult
	if n <= 0 {
		res.Done, res.FinishReason = true, "length"
		res.CompletionTokens, res.PromptTokens = sess.produced, sess.promptTokens
		return res, nil
	}
	start := time.Now()
	if d.o.PassCost > 0 {
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-time.After(d.o.PassCost):
		}
	}
	tokens, stopped, promptTokens, err := d.o.Backend.Continue(ctx, sess.model, sess.prompt+sess.output.String(), n)
	if err != nil {
		return res, err
	}
	res.TargetMillis = float64(time.Since(start).Microseconds()) / 1000
	d.m.passes.Inc()
	if sess.promptTokens == 0 {
		sess.promptTokens = promptTokens
	}
	k, pos := 0, 0
	for k < len(tokens) && tokens[k] != "" && strings.HasPrefix(draft[pos:], tokens[k]) {
		pos += len(tokens[k])
		k++
	}
	res.Accepted, res.AcceptedTokens = pos, k
	used := k
	if k < len(tokens) {
		res.Next, res.Bonus = tokens[k], pos == len(draft) && pos > 0
		used++
	}
	sess.output.WriteString(draft[:pos] + res.Next)
	sess.produced += used
	switch {
	case stopped && used == len(tokens):
		res.Done, res.FinishReason = true, "stop"
	case sess.produced >= sess.maxTokens:
		res.Done, res.FinishReason = true, "length"
	case used == 0:
		// The target gave nothing and did not stop: never loop on it.
		return res, errors.New("target produced no token")
	}
	res.CompletionTokens, res.PromptTokens = sess.produced, sess.promptTokens
	d.m.draftTokens.Add(float64(len([]rune(draft))))
	d.m.acceptedTokens.Add(float64(k))
	return res, nil
}

// OllamaPass is the reference verifier backend on Ollama's native API (raw /api/generate,
// temperature 0). It compares text, so it works whatever the drafter's tokenizer.
type OllamaPass struct{ c *api.Client }

// NewOllamaPass returns the backend for Ollama's native base URL (http://host:11434, no /v1).
func NewOllamaPass(baseURL string, hc *http.Client) (*OllamaPass, error) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gateway drafting: %q is not an http(s) URL", baseURL)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &OllamaPass{c: api.NewClient(u, hc)}, nil
}

func (o *OllamaPass) Render(ctx context.Context, model string, msgs []api.Message) (string, error) {
	var prompt string
	var got bool
	stream := false
	err := o.c.Chat(ctx, &api.ChatRequest{Model: model, Messages: msgs, Stream: &stream, DebugRenderOnly: true},
		func(r api.ChatResponse) error {
			if r.DebugInfo != nil {
				prompt, got = r.DebugInfo.RenderedTemplate, true
			}
			return nil
		})
	if err == nil && !got {
		err = errors.New("ollama did not render the template")
	}
	return prompt, err
}

func (o *OllamaPass) Continue(ctx context.Context, model, prompt string, n int) ([]string, bool, int, error) {
	var tokens []string
	var stopped bool
	var promptTokens int
	stream := true
	err := o.c.Generate(ctx, &api.GenerateRequest{Model: model, Prompt: prompt, Raw: true, Stream: &stream,
		Options: map[string]any{"temperature": 0, "num_predict": n}},
		func(r api.GenerateResponse) error {
			if r.Response != "" {
				tokens = append(tokens, r.Response)
			}
			if r.Done {
				stopped, promptTokens = r.DoneReason == "stop", r.PromptEvalCount
			}
			return nil
		})
	return tokens, stopped, promptTokens, err
}

type draftMetrics struct {
	sessions       prometheus.Gauge
	passes         prometheus.Counter
	draftTokens    prometheus.Counter
	acceptedTokens prometheus.Counter
}

func newDraftMetrics(reg prometheus.Registerer) *draftMetrics {
	m := &draftMetrics{
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_sessions",
			Help: "Drafting sessions alive."}),
		passes: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_target_passes_total",
			Help: "Target passes run to verify drafts."}),
		draftTokens: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_chars_total",
			Help: "Characters of draft received (text mode)."}),
		acceptedTokens: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_accepted_tokens_total",
			Help: "Target tokens accepted from drafts."}),
	}
	if reg != nil {
		reg.MustRegister(m.sessions, m.passes, m.draftTokens, m.acceptedTokens)
	}
	return m
}
