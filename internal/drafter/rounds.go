package drafter

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/wire"
)

// draft runs the rounds. It returns *errPlain only while nothing has been written, *errResume
// when the verifier failed after the answer began.
func (t *Terminal) draft(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	msgs, ok := draftable(req.Chat)
	if !ok {
		return &errPlain{"not_greedy_stream"}
	}
	h, known := t.cached(req.Chat.Model)
	switch {
	case !known:
		return errHelloPending
	case h.mode == "":
		return &errPlain{h.reason}
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
	chatBody, err := req.Chat.Encode()
	if err != nil {
		return chat.Internal("could not encode the request for the datacenter")
	}
	tokenMode := h.mode == wire.DraftModeToken
	out := chunker{w: w, id: "chatcmpl-" + req.ID, model: req.Chat.Model, created: time.Now().Unix(), whole: !req.Chat.Stream}
	drafting := true
	var output strings.Builder
	stats := usageStats{Mode: h.mode, AcceptedByPosition: make([]int, t.o.GammaMax), DraftedByPosition: make([]int, t.o.GammaMax)}
	v := wire.Verify{Chat: chatBody, Mode: h.mode}
	if tokenMode {
		v.Fingerprint = h.fingerprint
	}
	var pending []Piece // the next round's draft, drafted while the last one was verified
	for round := 1; ; round++ {
		gamma := ctl.next()
		var proposal []Piece
		draftStart := time.Now()
		switch {
		case !drafting:
		case pending != nil:
			proposal, pending = pending[:min(gamma, len(pending))], nil
		default:
			proposal, err = t.model.Draft(ctx, prompt+output.String(), gamma, tokenMode)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if !out.started {
					return &errPlain{"drafter_unavailable"}
				}
				// Mid-answer: keep going with empty drafts (the target adds one token a round).
				t.log.Warn("the draft model failed mid-answer; verifying empty drafts", "request_id", req.ID)
				drafting, proposal = false, nil
			}
		}
		draftTime := time.Since(draftStart)
		proposal = sendable(proposal, gamma, tokenMode)
		text := joinPieces(proposal)
		v.Round, v.Draft, v.Tokens = round, text, nil
		if tokenMode {
			v.Tokens = make([]int32, len(proposal))
			for i, p := range proposal {
				v.Tokens[i] = p.ID
			}
		}
		// Pipelining: while the DC verifies, draft on as if the whole draft were accepted; the
		// first piece of that is the drafter's guess of the bonus token.
		var next *ahead
		if drafting && !t.o.NoPipeline && len(proposal) > 0 {
			next = t.draftAhead(ctx, prompt+output.String()+text, t.o.GammaMax+1, tokenMode)
		}
		sent := time.Now()
		res, err := t.v.Verify(ctx, req.ID, v)
		if err != nil {
			next.stop()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return t.roundFailed(err, req.Chat.Model, out.started, output.String(), stats)
		}
		rtt := time.Since(sent)
		accepted := proposal[:0]
		if tokenMode {
			accepted = proposal[:res.AcceptedTokens]
			if len(joinPieces(accepted)) != res.Accepted {
				next.stop()
				return t.roundFailed(wire.ErrBadVerifyResult, req.Chat.Model, out.started, output.String(), stats)
			}
		}
		pending = t.settle(next, res, tokenMode)
		v.Session, v.Chat, v.Fingerprint = res.Session, nil, ""
		// The drafter's pieces are its tokens (Ollama's logprobs, llama-server's probabilities);
		// a runtime that does not split them gives one piece, and then characters stand in.
		drafted := len(proposal)
		if len(proposal) == 1 && proposal[0].ID < 0 {
			drafted = min(gamma, utf8.RuneCountInString(text))
		}
		t.m.rounds.Inc()
		t.m.gamma.Observe(float64(gamma))
		t.m.verifyRTT.Observe(rtt.Seconds())
		t.m.drafted.Add(float64(drafted))
		t.m.accepted.Add(float64(res.AcceptedTokens))
		t.m.positions(drafted, res.AcceptedTokens)
		stats.observe(gamma, drafted, res.AcceptedTokens, rtt)
		if drafting {
			ctl.observe(drafted, min(res.AcceptedTokens, drafted), rtt, draftTime)
		}
		t.observePass(time.Duration(res.TargetMillis * float64(time.Millisecond)))
		shown := text[:res.Accepted] + res.Next
		output.WriteString(shown)
		if err := out.text(shown); err != nil {
			return err
		}
		if res.Done {
			t.m.answers.WithLabelValues(h.mode).Inc()
			return out.finish(res, req.Chat.StreamOptions != nil && req.Chat.StreamOptions.IncludeUsage != nil && *req.Chat.StreamOptions.IncludeUsage, stats)
		}
	}
}

// sendable cuts a draft to what a round may carry: γ tokens, and in token mode only up to the
// first piece without an id, in text mode within MaxDraftBytes and on a whole character.
func sendable(p []Piece, gamma int, tokenMode bool) []Piece {
	p = p[:min(len(p), gamma, wire.MaxDraftTokens)]
	if tokenMode {
		for i, x := range p {
			if x.ID < 0 {
				return p[:i]
			}
		}
		return p
	}
	n := 0
	for i, x := range p {
		if n+len(x.Text) > wire.MaxDraftBytes {
			p = p[:i]
			break
		}
		n += len(x.Text)
	}
	// A draft ending inside a character (a byte-fallback token) is cut back to the last whole one.
	for len(p) > 0 && !utf8.ValidString(joinPieces(p)) {
		p = p[:len(p)-1]
	}
	return p
}

func joinPieces(p []Piece) string {
	var b strings.Builder
	for _, x := range p {
		b.WriteString(x.Text)
	}
	return b.String()
}

// ahead is a draft made while a verification is in flight. Its goroutine is owned by the round
// that started it: settle or stop always waits for it.
type ahead struct {
	done   chan struct{}
	cancel context.CancelFunc
	pieces []Piece
	err    error
	// panicked: Draft panicked (a bug, e.g. reading an odd answer of the model server); stop and
	// settle raise it again in the request's goroutine, where the API answers it — unrecovered
	// here it would stop the edge agent and every request in it.
	panicked *gopanic.Panic
}

func (t *Terminal) draftAhead(ctx context.Context, prompt string, n int, ids bool) *ahead {
	actx, cancel := context.WithCancel(ctx)
	a := &ahead{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(a.done)
		defer gopanic.Recover(&a.panicked)
		a.pieces, a.err = t.model.Draft(actx, prompt, n, ids)
	}()
	return a
}

// stop abandons the speculative draft and waits for its goroutine. Safe on nil.
func (a *ahead) stop() {
	if a == nil {
		return
	}
	a.cancel()
	<-a.done
	gopanic.RepanicOnce(&a.panicked)
}

// settle keeps the speculative draft when the round went as it assumed — the whole draft
// accepted and the target's bonus token is the one the drafter guessed — and discards it
// otherwise. It returns the next round's draft (nil: draft afresh).
func (t *Terminal) settle(a *ahead, res wire.VerifyResult, tokenMode bool) []Piece {
	if a == nil {
		return nil
	}
	if !res.Bonus || res.Done {
		a.stop()
		t.m.pipelined.WithLabelValues("discarded").Inc()
		return nil
	}
	<-a.done // the guess can only be checked once drafted; waiting costs less than starting anew
	a.cancel()
	gopanic.RepanicOnce(&a.panicked)
	if a.err != nil || len(a.pieces) < 2 || a.pieces[0].Text != res.Next ||
		(tokenMode && (res.NextToken == nil || a.pieces[0].ID != *res.NextToken)) {
		t.m.pipelined.WithLabelValues("discarded").Inc()
		return nil
	}
	t.m.pipelined.WithLabelValues("used").Inc()
	return a.pieces[1:]
}
