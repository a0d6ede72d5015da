package drafting

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/wire"
)

// Options configure the DC side of speculative drafting.
type Options struct {
	Backend Backend
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

// Service serves the drafting operations (wire.OpDraftHello: Hello, wire.OpDraft: Round) and
// keeps their sessions. Sessions expire lazily (on the next open), so it owns no goroutine.
type Service struct {
	o Options
	m *metrics

	mu       sync.Mutex
	sessions map[string]*session
	passCost time.Duration            // EWMA of a target pass, reported at hello
	fps      map[string]fingerprintAt // target model → tokenizer fingerprint
}

type fingerprintAt struct {
	fp string
	at time.Time
}

// FingerprintTTL bounds how long a target's tokenizer fingerprint is trusted without asking the
// backend again (a model replaced in place changes it; the first round re-checks anyway).
// Backends that cache a vocabulary re-read it as often.
const FingerprintTTL = 5 * time.Minute

type session struct {
	mu           sync.Mutex
	mode         string
	st           *PassState
	produced     int // target tokens in st.Output
	maxTokens    int
	round        int
	promptTokens int
	lastUsed     time.Time
}

// NewService returns the DC drafting service.
func NewService(o Options, reg prometheus.Registerer) (*Service, error) {
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
	return &Service{o: o, m: newMetrics(reg), sessions: map[string]*session{}, fps: map[string]fingerprintAt{}}, nil
}

// Hello answers a draft hello (the body of a wire.OpDraftHello request): which mode drafts for a
// model travel in, chosen from the modes the edge accepts by comparing its drafter's tokenizer
// fingerprint with the target's. The error is what the edge gets (an OpenAI-shaped code); it
// never quotes text.
func (d *Service) Hello(ctx context.Context, body []byte) (wire.DraftHelloResult, *chat.Error) {
	var h wire.DraftHello
	if json.Unmarshal(body, &h) != nil || h.Model == "" || len(h.Modes) == 0 || len(h.Modes) > 4 {
		return wire.DraftHelloResult{}, draftErr(http.StatusBadRequest, "protocol_error", "a draft hello must be {model, fingerprint, modes}")
	}
	res := wire.DraftHelloResult{Verifier: d.o.Backend.Name()}
	d.mu.Lock()
	res.PassMillis = float64(d.passCost.Microseconds()) / 1000
	d.mu.Unlock()
	fp, err := d.fingerprint(ctx, h.Model)
	if err != nil {
		if ctx.Err() != nil {
			return res, draftErr(http.StatusGatewayTimeout, "cancelled", "cancelled")
		}
		return res, &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "draft_target_failed",
			Message: "the datacenter model server could not describe the target model"}
	}
	res.Fingerprint = fp
	for _, m := range h.Modes {
		switch {
		case m == wire.DraftModeText:
			res.Mode = m
		case m == wire.DraftModeToken && fp == "":
			res.Reason = wire.HelloNoTokenMode
		case m == wire.DraftModeToken && fp != h.Fingerprint:
			res.Reason = wire.HelloTokenizerMismatch
		case m == wire.DraftModeToken:
			res.Mode = m
		}
		if res.Mode != "" {
			res.Reason = ""
			break
		}
	}
	d.m.hellos.WithLabelValues(helloOutcome(res)).Inc()
	return res, nil
}

func helloOutcome(r wire.DraftHelloResult) string {
	if r.Mode != "" {
		return r.Mode
	}
	return r.Reason
}

// fingerprint returns the target's tokenizer fingerprint, cached for FingerprintTTL.
func (d *Service) fingerprint(ctx context.Context, model string) (string, error) {
	d.mu.Lock()
	c, ok := d.fps[model]
	d.mu.Unlock()
	if ok && time.Since(c.at) < FingerprintTTL {
		return c.fp, nil
	}
	fp, err := d.o.Backend.Fingerprint(ctx, model)
	if err != nil {
		return "", err
	}
	d.mu.Lock()
	if len(d.fps) > 256 {
		clear(d.fps)
	}
	d.fps[model] = fingerprintAt{fp, time.Now()}
	d.mu.Unlock()
	return fp, nil
}

func draftErr(status int, code, msg string) *chat.Error {
	return &chat.Error{Status: status, Type: "invalid_request_error", Code: code, Message: msg}
}

// Round answers one drafting round (the body of a wire.OpDraft request): the first round of a
// session carries the redacted chat request and opens the session, later ones name it. The error
// is what the edge gets (an OpenAI-shaped code: draft_session_expired, draft_target_failed…); it
// never quotes text.
func (d *Service) Round(ctx context.Context, body []byte) (wire.VerifyResult, *chat.Error) {
	var v wire.Verify
	if json.Unmarshal(body, &v) != nil || len(v.Draft) > wire.MaxDraftBytes || len(v.Tokens) > wire.MaxDraftTokens ||
		!(v.Mode == wire.DraftModeText && v.Tokens == nil || v.Mode == wire.DraftModeToken && v.Draft == "") {
		return wire.VerifyResult{}, draftErr(http.StatusBadRequest, "protocol_error",
			"a draft round must be {session|chat, round, mode: text, draft} or {session|chat, round, mode: token, tokens}")
	}
	var id string
	var sess *session
	if v.Session == "" {
		var cerr *chat.Error
		if id, sess, cerr = d.open(ctx, v); cerr != nil {
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
	if v.Mode != sess.mode {
		return wire.VerifyResult{}, draftErr(http.StatusBadRequest, "protocol_error", "a session keeps the mode it was opened in")
	}
	res, err := d.verify(ctx, sess, Draft{Text: v.Draft, IDs: v.Tokens})
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
func (d *Service) open(ctx context.Context, v wire.Verify) (string, *session, *chat.Error) {
	req, derr := chat.DecodeRequest(v.Chat, chat.DecodeOptions{KeepUnknown: true})
	if derr != nil {
		return "", nil, draftErr(http.StatusBadRequest, "protocol_error", "the first draft round must carry the chat request")
	}
	if req.Temperature == nil || *req.Temperature != 0 {
		// Greedy only: accepting the target's argmax is lossless only for greedy decoding.
		return "", nil, draftErr(http.StatusBadRequest, "draft_needs_greedy", "drafting is verified for temperature 0 only")
	}
	msgs := make([]chat.Turn, 0, len(req.Messages))
	for _, m := range req.Messages {
		if len(m.ToolCalls) > 0 {
			return "", nil, draftErr(http.StatusBadRequest, "draft_unsupported", "tool calls are not drafted")
		}
		if !m.Content.TextOnly() {
			return "", nil, draftErr(http.StatusBadRequest, "draft_unsupported", "only text content is drafted")
		}
		msgs = append(msgs, chat.Turn{Role: m.Role, Content: m.Content.String()})
	}
	maxTokens := d.o.MaxOutputTokens
	for _, n := range []*int64{req.MaxCompletionTokens, req.MaxTokens} {
		if n != nil && *n > 0 {
			maxTokens = int(*n)
		}
	}
	if v.Mode == wire.DraftModeToken {
		fp, err := d.fingerprint(ctx, req.Model)
		if err != nil {
			return "", nil, &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "draft_target_failed",
				Message: "the datacenter model server could not describe the target model"}
		}
		if fp == "" || fp != v.Fingerprint {
			return "", nil, draftErr(http.StatusConflict, "draft_tokenizer_mismatch",
				"token mode needs the drafter's tokenizer to be the target's; use text mode")
		}
	}
	st, err := d.o.Backend.Open(ctx, req.Model, msgs)
	if err != nil {
		return "", nil, &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "draft_target_failed",
			Message: "the datacenter model server could not render the prompt"}
	}
	st.Model = req.Model
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	sess := &session{mode: v.Mode, st: st, maxTokens: maxTokens, lastUsed: time.Now()}
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

// Sessions is the number of sessions held (idle ones included until the next open expires them).
func (d *Service) Sessions() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.sessions)
}

func (d *Service) drop(id string) {
	d.mu.Lock()
	delete(d.sessions, id)
	d.m.sessions.Set(float64(len(d.sessions)))
	d.mu.Unlock()
}
