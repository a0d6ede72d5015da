package drafter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/dc"
	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/wire"
)

// Verifier is the datacenter as the drafter needs it (*dc.Client is one).
type Verifier interface {
	DraftHello(ctx context.Context, h wire.DraftHello) (wire.DraftHelloResult, error)
	Verify(ctx context.Context, requestID string, v wire.Verify) (wire.VerifyResult, error)
}

// Modes the edge may be configured with.
const (
	ModeAuto  = "auto"  // token mode when the tokenizers match, text mode otherwise
	ModeToken = "token" // token mode or plain streaming
	ModeText  = "text"  // text mode always
)

// Options tune drafting.
type Options struct {
	// GammaMin and GammaMax bound the draft length per round; equal values fix it.
	GammaMin, GammaMax int
	// Mode is auto (default), token or text.
	Mode string
	// NoPipeline turns off drafting the next round while a verification is in flight.
	NoPipeline bool
}

// Terminal is a pipeline terminal that drafts where it can and otherwise hands the request to
// plain (ForwardToDC on the same link): requests that are not greedy streams, a gateway that does
// not verify drafts, a drafter that is down, a tokenizer mismatch in token mode, a verifier that
// answers garbage or forgot the session — each before anything reached the user, with the reason
// logged and counted. A verifier that fails once the answer has begun is resumed plain.
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
	hellos   map[string]helloAt // target model → what the DC said at hello
}

// helloAt is a cached hello: Mode empty means "stream plain", for Reason.
type helloAt struct {
	mode, reason, fingerprint string
	at                        time.Time
}

// helloTTL bounds how long a hello's answer is trusted: a DC that did not draft may have been
// upgraded. A target replaced under the same name is caught sooner: a token-mode session's first
// round carries the fingerprint, and a mismatch drops the cached hello. Each hello costs the
// request that makes it one round trip, so it is kept long.
const helloTTL = 30 * time.Minute

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
	switch o.Mode {
	case "":
		o.Mode = ModeAuto
	case ModeAuto, ModeToken, ModeText:
	default:
		return nil, fmt.Errorf("drafter: mode %q is not auto, token or text", o.Mode)
	}
	return &Terminal{v: v, model: model, plain: plain, o: o, m: newMetrics(reg, o.GammaMax), log: log,
		learned: newGammaCtl(o.GammaMin, o.GammaMax), hellos: map[string]helloAt{}}, nil
}

// errHelloPending says the DC has not yet been asked how drafts for this model travel.
var errHelloPending = errors.New("drafter: no hello yet for this model")

// plainWhileHello streams a model's first request plain while the hello runs beside it. The hello
// costs a round trip, and on a slow link that round trip would make the first answer slower than
// plain streaming; this way no answer waits for it, and the next request starts from what it said
// (the mode, the round trip, the DC's pass cost).
func (t *Terminal) plainWhileHello(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	t.m.plain.WithLabelValues("hello_pending").Inc()
	done := make(chan struct{})
	var p *gopanic.Panic // raised again here: unrecovered in the goroutine it would stop the process
	go func() {
		defer close(done)
		defer gopanic.Recover(&p)
		_, _ = t.hello(ctx, req.Chat.Model)
	}()
	err := t.plain.ServeChat(ctx, req, w)
	<-done
	p.Repanic()
	return err
}

// errPlain says the request was not drafted and nothing reached the user: stream it plain.
type errPlain struct{ reason string }

func (e *errPlain) Error() string { return "drafter: streaming plain: " + e.reason }

func (t *Terminal) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	err := t.draft(ctx, req, w)
	if errors.Is(err, errHelloPending) {
		return t.plainWhileHello(ctx, req, w)
	}
	var p *errPlain
	if errors.As(err, &p) {
		t.m.plain.WithLabelValues(p.reason).Inc()
		if p.reason != "not_greedy_stream" && p.reason != "slower_than_plain" {
			t.log.Info("drafting fell back to plain streaming", "request_id", req.ID, "reason", p.reason)
		}
		return t.plain.ServeChat(ctx, req, w)
	}
	var r *errResume
	if errors.As(err, &r) {
		return t.resumePlain(ctx, req, w, r)
	}
	return err
}

// cached returns the hello's answer for model, if one is known and fresh.
func (t *Terminal) cached(model string) (helloAt, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.hellos[model]
	return h, ok && time.Since(h.at) < helloTTL
}

// hello asks the DC which mode drafts for model travel in, and remembers the answer. *errPlain
// when drafting cannot be done for this model.
func (t *Terminal) hello(ctx context.Context, model string) (helloAt, error) {
	var h helloAt
	fp := ""
	if t.o.Mode != ModeText {
		var err error
		if fp, err = t.model.Fingerprint(ctx); err != nil {
			if ctx.Err() != nil {
				return h, ctx.Err()
			}
			if t.o.Mode == ModeToken {
				return h, &errPlain{"drafter_unavailable"}
			}
			fp = "" // auto: text mode needs no fingerprint
		}
	}
	modes := []string{wire.DraftModeText}
	switch {
	case t.o.Mode == ModeToken:
		modes = []string{wire.DraftModeToken}
	case t.o.Mode == ModeAuto && fp != "":
		modes = []string{wire.DraftModeToken, wire.DraftModeText}
	}
	sent := time.Now()
	res, err := t.v.DraftHello(ctx, wire.DraftHello{Model: model, Fingerprint: fp, Modes: modes})
	if err != nil {
		if ctx.Err() != nil {
			return h, ctx.Err()
		}
		reason := failureReason(err)
		if reason == "dc_does_not_draft" {
			// Remember it: an old or non-drafting gateway must not cost a round trip per request.
			t.remember(model, helloAt{reason: reason, at: time.Now()})
		}
		t.m.hellos.WithLabelValues(reason).Inc() // after remember: whoever sees the count sees the answer
		t.log.Info("drafting hello failed", "reason", reason)
		return h, &errPlain{reason}
	}
	rtt := time.Since(sent)
	h = helloAt{mode: res.Mode, reason: res.Reason, fingerprint: fp, at: time.Now()}
	if h.mode == "" && h.reason == "" {
		h.reason = "dc_refused"
	}
	t.remember(model, h)
	t.seed(rtt, time.Duration(res.PassMillis*float64(time.Millisecond)))
	// Counted once remembered and seeded: a hello seen in sucursal_drafter_hellos_total is one
	// the next request starts from (what tests and operators watching the counter rely on).
	t.m.hellos.WithLabelValues(helloOutcome(h)).Inc()
	t.log.Info("drafting hello", "model_len", len(model), "mode", res.Mode, "reason", res.Reason, "verifier", res.Verifier,
		"rtt_ms", rtt.Milliseconds(), "pass_ms", res.PassMillis)
	if h.mode == "" {
		return h, &errPlain{h.reason}
	}
	return h, nil
}

func helloOutcome(h helloAt) string {
	if h.mode != "" {
		return h.mode
	}
	return h.reason
}

func (t *Terminal) remember(model string, h helloAt) {
	t.mu.Lock()
	if len(t.hellos) > 64 {
		clear(t.hellos)
	}
	t.hellos[model] = h
	t.mu.Unlock()
}

func (t *Terminal) forget(model string) {
	t.mu.Lock()
	delete(t.hellos, model)
	t.mu.Unlock()
}

// seed gives a fresh terminal its first estimates from the hello: the link's round trip and the
// DC's pass cost. Without them the first request on a slow link would draft (slower than plain)
// just to learn what the hello already says.
func (t *Terminal) seed(rtt, pass time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if pass > 0 && t.pass == 0 {
		t.pass = pass
	}
	if t.learned.round == 0 && rtt > 0 {
		t.learned.round = rtt + pass
	}
}

// start copies what earlier requests learned and says whether drafting is expected to beat plain
// streaming: plain streaming yields a token per target pass, a drafting round E(α, γ) tokens per
// (round trip + pass + γ drafts). With a fixed γ the operator has decided; always draft.
func (t *Terminal) start() (*gammaCtl, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ctl := t.learned.clone()
	t.requests++
	if t.o.GammaMin == t.o.GammaMax || t.pass <= 0 || ctl.round <= 0 || t.requests%probeEvery == 0 {
		return ctl, true
	}
	plainRate := 1 / float64(t.pass)
	return ctl, ctl.rate(ctl.next()) > plainRate
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

// reasonDCUnavailable is the fallback reason for a DC endpoint that is not connected: the failover
// router, not the plain path of the same endpoint, has to handle it.
const reasonDCUnavailable = "dc_unavailable"

// failureReason names why a hello or a round failed, for the plain fallback's reason label.
func failureReason(err error) string {
	var refused *wire.DraftRefusedError
	switch {
	case errors.As(err, &refused):
		switch refused.Code {
		case "unsupported_operation", "drafting_not_configured":
			return "dc_does_not_draft"
		case "draft_session_expired":
			return "session_expired"
		case "draft_tokenizer_mismatch":
			return "tokenizer_mismatch"
		}
		return "dc_refused"
	case errors.Is(err, wire.ErrBadVerifyResult):
		return "bad_verify_result"
	case errors.Is(err, dc.ErrUnavailable):
		return reasonDCUnavailable
	}
	return "verify_failed"
}
