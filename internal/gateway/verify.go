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
	"unicode/utf8"

	"github.com/ollama/ollama/api"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/ollama"
	"github.com/sucursal/sucursal/internal/vocab"
	"github.com/sucursal/sucursal/internal/wire"
)

// TargetPass is a verifier backend: the target model's greedy path through a draft. It is
// defined here, where it is consumed; OllamaPass (the reference verifier, text and token mode) and
// VLLMPass (vLLM /v1/completions with prompt_logprobs) implement it.
type TargetPass interface {
	// Name is the backend as the hello reports it ("ollama", "vllm").
	Name() string
	// Fingerprint is the target model's tokenizer fingerprint (vocab.Fingerprint.String()), or ""
	// when the backend cannot know it: token mode is then not offered.
	Fingerprint(ctx context.Context, model string) (string, error)
	// Open turns the redacted chat request into the session's starting state: the exact prompt
	// the target would be fed for it (its own chat template; as text and/or token ids, whichever
	// the backend continues from), so continuing it is continuing the plain answer.
	Open(ctx context.Context, model string, turns []chat.Turn) (*PassState, error)
	// Pass returns the target's greedy tokens after st (prompt + output so far) along the draft:
	// up to and including the first token that departs from it, or, when the whole draft is the
	// target's own, one token past its end (the bonus). At most n tokens. Stopped says the target
	// ended the answer (end-of-sequence) right after the returned tokens. In token mode (d.IDs)
	// every returned token must carry its id.
	Pass(ctx context.Context, st *PassState, d Draft, n int) (PassResult, error)
}

// Token is one target token: its id (-1 when the backend does not know it) and its text.
type Token struct {
	ID   int32
	Text string
}

// Draft is one round's proposal: Text in text mode, IDs in token mode.
type Draft struct {
	Text string
	IDs  []int32
}

// PassResult is what one target pass says about a draft.
type PassResult struct {
	Tokens  []Token
	Stopped bool
	// PromptTokens is the prompt's token count, when the backend reports it.
	PromptTokens int
}

// PassState is a session's context as the backend continues it: the prompt (as text and/or ids)
// and the target tokens accepted so far, which Drafting appends after every round. A round
// therefore carries only the new draft; with an id-based backend nothing is ever re-tokenized.
type PassState struct {
	Model     string
	Prompt    string
	PromptIDs []int32
	Output    []Token
	output    strings.Builder
}

// OutputText is the text of the accepted output.
func (p *PassState) OutputText() string { return p.output.String() }

func (p *PassState) appendTokens(t ...Token) {
	for _, tok := range t {
		p.Output = append(p.Output, tok)
		p.output.WriteString(tok.Text)
	}
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
	passCost time.Duration            // EWMA of a target pass, reported at hello
	fps      map[string]fingerprintAt // target model → tokenizer fingerprint
}

type fingerprintAt struct {
	fp string
	at time.Time
}

// fingerprintTTL bounds how long a target's tokenizer fingerprint is trusted without asking the
// backend again (a model replaced in place changes it; the first round re-checks anyway).
const fingerprintTTL = 5 * time.Minute

type draftSession struct {
	mu           sync.Mutex
	mode         string
	st           *PassState
	produced     int // target tokens in st.Output
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
	return &Drafting{o: o, m: newDraftMetrics(reg), sessions: map[string]*draftSession{}, fps: map[string]fingerprintAt{}}, nil
}

// serveDraft answers one drafting round. Nothing of the text reaches logs or errors.
func (s *Server) serveDraft(ctx context.Context, str *quic.Stream, body []byte) string {
	return serveDrafting(ctx, str, s.cfg.Drafting, func(d *Drafting) (wire.Type, any, *chat.Error) {
		res, cerr := d.round(ctx, body)
		return wire.TypeVerifyResult, res, cerr
	})
}

// serveDraftHello answers an OpDraftHello: which mode drafts for a model travel in.
func (s *Server) serveDraftHello(ctx context.Context, str *quic.Stream, body []byte) string {
	return serveDrafting(ctx, str, s.cfg.Drafting, func(d *Drafting) (wire.Type, any, *chat.Error) {
		res, cerr := d.hello(ctx, body)
		b, _ := json.Marshal(res)
		return wire.TypeResponse, wire.Response{Status: http.StatusOK, Body: b}, cerr
	})
}

// serveDrafting writes what answer returns, or its error, or drafting_not_configured on a
// gateway without a verifier; it returns the stream's outcome label.
func serveDrafting(ctx context.Context, str *quic.Stream, d *Drafting, answer func(*Drafting) (wire.Type, any, *chat.Error)) string {
	if d == nil {
		_ = writeError(str, &chat.Error{Status: http.StatusNotImplemented, Type: "api_error", Code: "drafting_not_configured",
			Message: "this gateway does not verify drafts (--draft-verifier)"})
		return "bad_request"
	}
	typ, res, cerr := answer(d)
	if cerr != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return "cancelled"
		}
		_ = writeError(str, cerr)
		return "draft_" + cerr.Code
	}
	_ = wire.WriteJSON(str, typ, res)
	return "ok"
}

func (d *Drafting) hello(ctx context.Context, body []byte) (wire.DraftHelloResult, *chat.Error) {
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

// fingerprint returns the target's tokenizer fingerprint, cached for fingerprintTTL.
func (d *Drafting) fingerprint(ctx context.Context, model string) (string, error) {
	d.mu.Lock()
	c, ok := d.fps[model]
	d.mu.Unlock()
	if ok && time.Since(c.at) < fingerprintTTL {
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

func (d *Drafting) round(ctx context.Context, body []byte) (wire.VerifyResult, *chat.Error) {
	var v wire.Verify
	if json.Unmarshal(body, &v) != nil || len(v.Draft) > wire.MaxDraftBytes || len(v.Tokens) > wire.MaxDraftTokens ||
		!(v.Mode == wire.DraftModeText && v.Tokens == nil || v.Mode == wire.DraftModeToken && v.Draft == "") {
		return wire.VerifyResult{}, draftErr(http.StatusBadRequest, "protocol_error",
			"a draft round must be {session|chat, round, mode: text, draft} or {session|chat, round, mode: token, tokens}")
	}
	var id string
	var sess *draftSession
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
func (d *Drafting) open(ctx context.Context, v wire.Verify) (string, *draftSession, *chat.Error) {
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
	sess := &draftSession{mode: v.Mode, st: st, maxTokens: maxTokens, lastUsed: time.Now()}
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

// verify runs one target pass along the draft and accepts the target's own tokens while they
// follow it: in text mode the longest run of target tokens that spells a prefix of the draft, in
// token mode the draft tokens up to the first the target would not have chosen. What is accepted
// is always the target's own tokens, so the answer is the plain answer whatever the drafter
// proposed.
func (d *Drafting) verify(ctx context.Context, sess *draftSession, draft Draft) (wire.VerifyResult, error) {
	drafted := len(draft.IDs)
	if sess.mode == wire.DraftModeText {
		drafted = utf8.RuneCountInString(draft.Text)
	}
	n := min(drafted+1, sess.maxTokens-sess.produced)
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
	if sess.mode == wire.DraftModeText {
		draft.IDs = nil
	}
	pr, err := d.o.Backend.Pass(ctx, sess.st, draft, n)
	if err != nil {
		return res, err
	}
	tokens := pr.Tokens
	if len(tokens) > n {
		return res, fmt.Errorf("the backend returned %d tokens for at most %d", len(tokens), n)
	}
	took := time.Since(start)
	res.TargetMillis = float64(took.Microseconds()) / 1000
	d.mu.Lock()
	d.passCost = ewmaDuration(d.passCost, took)
	d.mu.Unlock()
	d.m.passes.Inc()
	if sess.promptTokens == 0 {
		sess.promptTokens = pr.PromptTokens
	}
	k, pos := 0, 0
	if sess.mode == wire.DraftModeToken {
		for k < len(tokens) && k < len(draft.IDs) && tokens[k].ID >= 0 && tokens[k].ID == draft.IDs[k] {
			pos += len(tokens[k].Text)
			k++
		}
	} else {
		for k < len(tokens) && tokens[k].Text != "" && strings.HasPrefix(draft.Text[pos:], tokens[k].Text) {
			pos += len(tokens[k].Text)
			k++
		}
	}
	// Never end the accepted part inside a character (byte-level or byte-fallback tokens can split
	// one): give back accepted tokens to the last character boundary. They are the target's own
	// tokens either way, so they travel in next instead, and the edge only ever shows whole
	// characters.
	full := k
	for k > 0 && !utf8.ValidString(joinTokens(tokens[:k])) {
		k--
		pos -= len(tokens[k].Text)
	}
	used := min(len(tokens), full+1) // the accepted path and the target's own next token
	res.Accepted, res.AcceptedTokens = pos, k
	res.Bonus = k == full && full < len(tokens) && k > 0 &&
		(sess.mode == wire.DraftModeToken && k == len(draft.IDs) || sess.mode == wire.DraftModeText && pos == len(draft.Text))
	sess.st.appendTokens(tokens[:used]...)
	stopped := pr.Stopped && used == len(tokens)
	res.Next = joinTokens(tokens[k:used])
	// A next token that ends inside a character is completed with more of the target's tokens
	// (a pass with an empty draft adds one), at most three: a UTF-8 character has four bytes.
	for extra := 0; !stopped && !completeUTF8(res.Next) && extra < 3 && sess.produced+used < sess.maxTokens; extra++ {
		empty := Draft{}
		if sess.mode == wire.DraftModeToken {
			empty.IDs = []int32{}
		}
		more, err := d.o.Backend.Pass(ctx, sess.st, empty, 1)
		if err != nil {
			return res, err
		}
		d.m.passes.Inc()
		if len(more.Tokens) == 0 {
			stopped = more.Stopped
			break
		}
		tok := more.Tokens[0]
		sess.st.appendTokens(tok)
		res.Next += tok.Text
		used++
		stopped = more.Stopped && len(more.Tokens) == 1
	}
	if sess.mode == wire.DraftModeToken && used == k+1 && tokens[k].ID >= 0 {
		res.NextToken = &tokens[k].ID
	}
	sess.produced += used
	switch {
	case stopped:
		res.Done, res.FinishReason = true, "stop"
	case sess.produced >= sess.maxTokens:
		res.Done, res.FinishReason = true, "length"
	case used == 0:
		// The target gave nothing and did not stop: never loop on it.
		return res, errors.New("target produced no token")
	}
	res.CompletionTokens, res.PromptTokens = sess.produced, sess.promptTokens
	d.m.draftTokens.WithLabelValues(sess.mode).Add(float64(drafted))
	d.m.acceptedTokens.WithLabelValues(sess.mode).Add(float64(k))
	return res, nil
}

func joinTokens(t []Token) string {
	var b strings.Builder
	for _, x := range t {
		b.WriteString(x.Text)
	}
	return b.String()
}

// completeUTF8 says s does not end inside a character (it may still hold invalid bytes, which
// no further token can mend).
func completeUTF8(s string) bool {
	for i := 1; i <= utf8.UTFMax && i <= len(s); i++ {
		if utf8.RuneStart(s[len(s)-i]) {
			return utf8.FullRuneInString(s[len(s)-i:])
		}
	}
	return true
}

func ewmaDuration(old, x time.Duration) time.Duration {
	if old == 0 {
		return x
	}
	return (old*7 + x*3) / 10
}

// OllamaPass is the reference verifier backend on Ollama's native API: raw /api/generate at
// temperature 0 from the rendered prompt plus the accepted output (as text: Ollama takes no token
// ids), asking for the draft's length plus one tokens with logprobs, whose bytes name each target
// token's id in the target's vocabulary (read once per model with /api/show). It serves both
// modes: text mode compares text, token mode ids.
type OllamaPass struct {
	c *api.Client

	mu     sync.Mutex
	vocabs map[string]vocabAt
}

type vocabAt struct {
	v  *vocab.Vocab
	at time.Time
}

// NewOllamaPass returns the backend for Ollama's native base URL (http://host:11434, no /v1).
func NewOllamaPass(baseURL string, hc *http.Client) (*OllamaPass, error) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gateway drafting: %q is not an http(s) URL", baseURL)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &OllamaPass{c: api.NewClient(u, hc), vocabs: map[string]vocabAt{}}, nil
}

func (o *OllamaPass) Name() string { return "ollama" }

// vocab returns model's vocabulary, re-read after fingerprintTTL (a model replaced in place).
func (o *OllamaPass) vocab(ctx context.Context, model string) (*vocab.Vocab, error) {
	o.mu.Lock()
	c, ok := o.vocabs[model]
	o.mu.Unlock()
	if ok && time.Since(c.at) < fingerprintTTL {
		return c.v, nil
	}
	v, err := vocab.FromOllama(ctx, o.c, model)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	if len(o.vocabs) > 64 {
		clear(o.vocabs)
	}
	o.vocabs[model] = vocabAt{v, time.Now()}
	o.mu.Unlock()
	return v, nil
}

func (o *OllamaPass) Fingerprint(ctx context.Context, model string) (string, error) {
	v, err := o.vocab(ctx, model)
	if err != nil {
		return "", err
	}
	return v.Fingerprint().String(), nil
}

func (o *OllamaPass) Open(ctx context.Context, model string, turns []chat.Turn) (*PassState, error) {
	prompt, err := ollama.RenderPrompt(ctx, o.c, model, turns)
	if err != nil {
		return nil, err
	}
	return &PassState{Model: model, Prompt: prompt}, nil
}

// Pass asks for the target's greedy continuation. Greedy decoding of n tokens from the accepted
// context is the target's path along the draft up to its first departure, so every token it
// returns is valid; those past the departure are simply not used.
func (o *OllamaPass) Pass(ctx context.Context, st *PassState, d Draft, n int) (PassResult, error) {
	var v *vocab.Vocab
	if d.IDs != nil {
		var err error
		if v, err = o.vocab(ctx, st.Model); err != nil {
			return PassResult{}, err
		}
	}
	var res PassResult
	stream := true
	err := o.c.Generate(ctx, &api.GenerateRequest{Model: st.Model, Prompt: st.Prompt + st.OutputText(), Raw: true, Stream: &stream,
		Logprobs: v != nil, Options: map[string]any{"temperature": 0, "num_predict": n}},
		func(r api.GenerateResponse) error {
			if r.Response != "" {
				// An event is one token, except where Ollama held back bytes of an incomplete
				// UTF-8 character: those tokens come as one event (one Token, id unknown).
				tok := Token{ID: -1, Text: r.Response}
				if v != nil && len(r.Logprobs) == 1 {
					if id, ok := v.ID(intsToBytes(r.Logprobs[0].Bytes)); ok {
						tok.ID = id
					}
				}
				res.Tokens = append(res.Tokens, tok)
			}
			if r.Done {
				res.Stopped, res.PromptTokens = r.DoneReason == "stop", r.PromptEvalCount
			}
			return nil
		})
	return res, err
}

func intsToBytes(b []int) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = byte(c)
	}
	return out
}

type draftMetrics struct {
	sessions       prometheus.Gauge
	passes         prometheus.Counter
	draftTokens    *prometheus.CounterVec
	acceptedTokens *prometheus.CounterVec
	hellos         *prometheus.CounterVec
}

func newDraftMetrics(reg prometheus.Registerer) *draftMetrics {
	m := &draftMetrics{
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_sessions",
			Help: "Drafting sessions alive."}),
		passes: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_target_passes_total",
			Help: "Target passes run to verify drafts."}),
		draftTokens: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_units_total",
			Help: "Draft received: characters in text mode, tokens in token mode."}, []string{"mode"}),
		acceptedTokens: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_accepted_tokens_total",
			Help: "Target tokens accepted from drafts."}, []string{"mode"}),
		hellos: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_hellos_total",
			Help: "Draft hellos by the mode chosen (token, text) or the reason none was (tokenizer_mismatch, token_mode_unsupported)."}, []string{"outcome"}),
	}
	if reg != nil {
		reg.MustRegister(m.sessions, m.passes, m.draftTokens, m.acceptedTokens, m.hellos)
	}
	return m
}
