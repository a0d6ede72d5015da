package pipeline

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/guard"
)

// GuardHeader tells the client that the guard let the request through without a full verdict
// ("degraded": the policy fails open and a guard model was down) or flagged it ("flagged").
const GuardHeader = "X-Sucursal-Guard"

// GuardRetryAfter is the retry hint of a 503 guard_unavailable: about the time a guard model
// server needs to restart or reload its model.
const GuardRetryAfter = 5 * time.Second

// Guard checks the prompt with the branch's guard models and the answer on its way back.
//
// The input check starts at once on the raw texts, in a goroutine this stage owns, so it runs while
// the stages below redact: the latency it adds is the slower of the two, not their sum. The verdict
// is awaited by AwaitChecks right above the exit to the datacenter (and, as a second lock, before
// the first byte of the answer). The DC fallback of the guard only ever gets the redacted text of
// the same position, which the Redact stage publishes on the request.
//
// The answer is checked after rehydration (this stage sits above Redact); that runs locally and
// never fails over. An unsafe answer is cut with a content_policy_violation error.
func Guard(g *guard.Guard) Stage {
	return func(next Handler) Handler {
		return HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
			req.Redacted = NewRedactedTexts()
			texts := scanTexts(req)
			in := startInputCheck(ctx, g, texts)
			defer in.stop()
			req.Verdict = in.wait

			octx, cancelOutput := context.WithCancel(ctx)
			defer cancelOutput()
			ow := &outputGuard{ResponseWriter: w, ctx: octx, cancel: cancelOutput, g: g, in: in}
			err := next.ServeChat(ctx, req, ow)
			req.Redacted.fail(errNotRedacted) // no-op if Redact ran; else the DC fallback stops waiting
			if err == nil {
				err = ow.close()
			} else {
				ow.abandon()
			}
			if refusal := in.refusal(); refusal != "" && !ow.started && err != nil {
				return writeRefusal(req, w, refusal)
			}
			return err
		})
	}
}

// AwaitChecks holds the request until every pending check above it (the guard's input verdict)
// has passed. Build puts it right above ForwardToDC: nothing leaves the branch before the verdict.
func AwaitChecks() Stage {
	return func(next Handler) Handler {
		return HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
			if req.Verdict != nil {
				if err := req.Verdict(ctx); err != nil {
					return err
				}
			}
			return next.ServeChat(ctx, req, w)
		})
	}
}

// scanTexts lists the texts to check, in the order chat.Request.Texts walks them, so position i
// matches the i-th text the Redact stage publishes. Assistant turns are not scanned: they are the
// model's own earlier answers, checked by the output guard when they were produced.
func scanTexts(req *Request) []guard.ScanText {
	var out []guard.ScanText
	i := 0
	_ = req.Chat.Texts(func(role string, s *string) error {
		pos := i
		i++
		src := sourceOf(role)
		if src == "" {
			return nil
		}
		// The string is copied here, before the Redact stage rewrites the request in place.
		out = append(out, guard.ScanText{Source: src, Text: *s, Redacted: func(ctx context.Context) (string, error) {
			return req.Redacted.get(ctx, pos)
		}})
		return nil
	})
	return out
}

func sourceOf(role string) string {
	switch role {
	case "user":
		return guard.SourceUser
	case "tool", "function":
		return guard.SourceTool
	case "system", "developer":
		return guard.SourceSystem
	}
	return ""
}

// inputCheck is the input verdict being computed; its owner (the Guard stage) stops and waits for
// it before returning.
type inputCheck struct {
	cancel context.CancelFunc
	done   chan struct{}
	d      guard.Decision
	err    error
	// panicked is a panic of the check's goroutine, raised again in the request's goroutine by
	// wait or stop, where the API answers it as an internal error (unrecovered, it would stop the
	// process and every other user's request with it).
	panicked *gopanic.Panic
}

func startInputCheck(ctx context.Context, g *guard.Guard, texts []guard.ScanText) *inputCheck {
	cctx, cancel := context.WithCancel(ctx)
	c := &inputCheck{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer gopanic.Recover(&c.panicked)
		c.d, c.err = g.CheckInput(cctx, texts)
	}()
	return c
}

func (c *inputCheck) stop() {
	c.cancel()
	<-c.done
	gopanic.RepanicOnce(&c.panicked)
}

// wait returns nil when the request may go on, else the error its user gets.
func (c *inputCheck) wait(ctx context.Context) error {
	select {
	case <-c.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	gopanic.RepanicOnce(&c.panicked)
	return guardError(c.err, "request")
}

// refusal is the message to answer with instead of an error, once the check has blocked.
func (c *inputCheck) refusal() string {
	select {
	case <-c.done:
	default:
		return ""
	}
	var b *guard.BlockedError
	if errors.As(c.err, &b) {
		return b.Refusal
	}
	return ""
}

// guardError turns a guard outcome into what the user sees. Only category names are shown: the
// classifiers' raw output could echo the text.
func guardError(err error, what string) error {
	var b *guard.BlockedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &b):
		names := make([]string, len(b.Categories))
		for i, c := range b.Categories {
			names[i] = c.Name
		}
		msg := "the " + what + " was blocked by this branch's content policy"
		if len(names) > 0 {
			msg += " (" + strings.Join(names, ", ") + ")"
		}
		return &chat.Error{Status: http.StatusBadRequest, Type: "invalid_request_error", Code: chat.CodeContentPolicy, Message: msg}
	case errors.Is(err, guard.ErrGuardUnavailable):
		return chat.Unavailable(chat.CodeGuardUnavailable,
			"this branch's content guard is unavailable and policy requires it; the "+what+" was not let through", GuardRetryAfter)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return chat.Internal("the " + what + " could not be checked by the content guard")
}

// writeRefusal answers a blocked request with the policy's refusal message as the assistant.
func writeRefusal(req *Request, w ResponseWriter, msg string) error {
	id, created, stop := "chatcmpl-"+req.ID, time.Now().Unix(), "stop"
	if req.Chat.Stream {
		first := chat.Chunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: req.Chat.Model,
			Choices: []chat.ChunkChoice{{Delta: chat.Delta{Role: "assistant", Content: &msg}}}}
		if err := w.WriteChunk(&first); err != nil {
			return err
		}
		last := chat.Chunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: req.Chat.Model,
			Choices: []chat.ChunkChoice{{FinishReason: &stop}}}
		return w.WriteChunk(&last)
	}
	return w.WriteCompletion(&chat.Completion{ID: id, Object: "chat.completion", Created: created, Model: req.Chat.Model,
		Choices: []chat.Choice{{Message: chat.AnswerMessage{Role: "assistant", Content: chat.TextContent(msg)}, FinishReason: &stop}}})
}

// outputGuard checks the answer on its way to the user. It also holds the first byte of the answer
// until the input verdict is in, so no stage order can show an answer to a blocked prompt, and sets
// the guard header while headers can still change.
type outputGuard struct {
	ResponseWriter
	ctx      context.Context
	cancel   context.CancelFunc // stops the checks of an answer that failed anyway
	g        *guard.Guard
	in       *inputCheck
	scanners map[int]*guard.OutputScanner // per choice
	started  bool
	err      error // sticky: once the answer is cut, nothing more goes out
}

func (o *outputGuard) begin() error {
	if o.started {
		return o.err
	}
	if err := o.in.wait(o.ctx); err != nil {
		o.err = err
		return err
	}
	o.started = true
	if o.in.d.Degraded {
		o.Header().Add(GuardHeader, "degraded")
	}
	if o.in.d.Action == guard.ActionFlag {
		o.Header().Add(GuardHeader, "flagged")
	}
	return nil
}

func (o *outputGuard) scanner(choice int) *guard.OutputScanner {
	if o.scanners == nil {
		o.scanners = map[int]*guard.OutputScanner{}
	}
	sc, ok := o.scanners[choice]
	if !ok {
		sc = o.g.NewOutputScanner(o.ctx)
		o.scanners[choice] = sc
	}
	return sc
}

func (o *outputGuard) cut(err error) error {
	o.err = guardError(err, "answer")
	return o.err
}

func (o *outputGuard) WriteChunk(c *chat.Chunk) error {
	if err := o.begin(); err != nil {
		return err
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		sc := o.scanner(ch.Index)
		if ch.Delta.Content != nil {
			if _, err := sc.Write(*ch.Delta.Content); err != nil {
				return o.cut(err)
			}
		}
		if ch.FinishReason != nil {
			// The last check runs before the last chunk goes out, so an unsafe ending is not shown.
			delete(o.scanners, ch.Index)
			if _, err := sc.Close(); err != nil {
				return o.cut(err)
			}
		}
	}
	return o.ResponseWriter.WriteChunk(c)
}

func (o *outputGuard) WriteCompletion(c *chat.Completion) error {
	if err := o.begin(); err != nil {
		return err
	}
	for _, ch := range c.Choices {
		sc := o.g.NewOutputScanner(o.ctx)
		var err error
		if t := ch.Message.Content.Text; t != nil {
			_, err = sc.Write(*t)
		}
		for _, p := range ch.Message.Content.Parts {
			if err == nil && p.Text != nil {
				_, err = sc.Write(*p.Text)
			}
		}
		d, cerr := sc.Close()
		if err == nil {
			err = cerr
		}
		if err != nil {
			return o.cut(err)
		}
		if d.Degraded && o.Header().Get(GuardHeader) == "" {
			o.Header().Add(GuardHeader, "degraded")
		}
	}
	return o.ResponseWriter.WriteCompletion(c)
}

// close checks what is left of every answer still open; a block becomes a terminal error.
func (o *outputGuard) close() error {
	var first error
	for idx, sc := range o.scanners {
		if _, err := sc.Close(); err != nil && first == nil {
			first = o.cut(err)
		}
		delete(o.scanners, idx)
	}
	return first
}

// abandon releases the scanners of a request that failed anyway (Close owns their goroutines).
func (o *outputGuard) abandon() {
	o.cancel()
	for idx, sc := range o.scanners {
		_, _ = sc.Close()
		delete(o.scanners, idx)
	}
}
