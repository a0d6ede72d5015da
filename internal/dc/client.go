package dc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/tracecontext"
	"github.com/sucursal/sucursal/internal/wire"
)

// Exit is the last check on what leaves the branch: every request is handed to it before a byte
// of it is written, and nothing is sent when it fails. extra are texts that travel in another
// form (a token-mode draft's text, whose ids alone go on the wire). A refusal is the *chat.Error
// the user gets (422 egress_blocked).
type Exit interface {
	Check(ctx context.Context, req wire.Request, extra ...string) error
}

// ErrNoExit means the client was built without an Exit.
var ErrNoExit = errors.New("dc: no exit check configured; nothing is sent")

// Config tunes the client.
type Config struct {
	// AcceptTimeout bounds the wait for the gateway's acknowledgement of a chat request (it
	// comes one round trip after sending, before the model starts). The effective bound is at
	// least four smoothed RTTs. 0 disables the check.
	AcceptTimeout time.Duration
}

// Client is one datacenter endpoint as the edge uses it.
type Client struct {
	l    *link.Client
	exit Exit
	cfg  Config
}

// New returns the client of the gateway l connects to.
func New(l *link.Client, exit Exit, cfg Config) (*Client, error) {
	if exit == nil {
		return nil, ErrNoExit
	}
	return &Client{l: l, exit: exit, cfg: cfg}, nil
}

// Addr is the gateway's address.
func (c *Client) Addr() string { return c.l.Addr() }

// Ready reports whether the QUIC link can take requests, and if not why: a *link.NotReadyError
// whose text is a reason code and a sentence (no addresses, no raw TLS errors).
func (c *Client) Ready() (bool, error) { return c.l.Readiness() }

// Connections changes each time the link (re)connects (see link.Client.Connections).
func (c *Client) Connections() uint64 { return c.l.Connections() }

// RTT is the link's smoothed round-trip time (0 when down).
func (c *Client) RTT() time.Duration { return c.l.RTT() }

// Chat sends a (redacted) chat request and relays the answer into w: chunks for a streamed
// request, one completion otherwise. Errors are *chat.Error, or the context's error.
func (c *Client) Chat(ctx context.Context, requestID string, req *chat.Request, w chat.Writer) error {
	body, err := req.Encode()
	if err != nil {
		return chat.Internal("could not encode the request for the datacenter")
	}
	return c.stream(ctx, wire.Request{Op: wire.OpChatCompletions, RequestID: requestID, Stream: req.Stream, Body: body},
		func(f wire.Frame) (bool, error) {
			switch f.Type {
			case wire.TypeChunk:
				// DecodeChunk keeps the gateway's bytes: a chunk no stage changes goes to the
				// user as it came, without being encoded again.
				ch, err := chat.DecodeChunk(f.Payload)
				if err != nil {
					return true, badGateway("the datacenter sent a chunk that is not valid JSON")
				}
				return false, w.WriteChunk(ch)
			case wire.TypeResponse:
				var r wire.Response
				var comp chat.Completion
				if f.Decode(&r) != nil || json.Unmarshal(r.Body, &comp) != nil {
					return true, badGateway("the datacenter sent a response that is not valid JSON")
				}
				return true, w.WriteCompletion(&comp)
			case wire.TypeDone:
				return true, nil
			}
			return true, badGateway("the datacenter sent an unexpected " + f.Type.String() + " frame")
		})
}

// Models returns the DC target's model list (the body of its GET /v1/models).
func (c *Client) Models(ctx context.Context) (json.RawMessage, error) {
	f, err := c.do(ctx, wire.Request{Op: wire.OpModels}, wire.TypeResponse)
	if err != nil {
		return nil, userError(ctx, err)
	}
	var r wire.Response
	if err := f.Decode(&r); err != nil {
		return nil, badGateway("the datacenter sent an unreadable model list")
	}
	return r.Body, nil
}

// Guard asks the DC's guard model for a verdict on text (redacted: the guard's DC fallback only
// ever passes redacted text). The verdict is as the gateway sent it; the caller checks it.
func (c *Client) Guard(ctx context.Context, kind, text string) (wire.GuardVerdict, error) {
	body, err := json.Marshal(wire.GuardRequest{Kind: kind, Text: text})
	if err != nil {
		return wire.GuardVerdict{}, fmt.Errorf("dc: encode guard request: %w", err)
	}
	f, err := c.do(ctx, wire.Request{Op: wire.OpGuard, Body: body}, wire.TypeResponse)
	if err != nil {
		return wire.GuardVerdict{}, userError(ctx, err)
	}
	var r wire.Response
	var gv wire.GuardVerdict
	if f.Decode(&r) != nil || json.Unmarshal(r.Body, &gv) != nil {
		return wire.GuardVerdict{}, badGateway("the datacenter guard sent an unreadable verdict")
	}
	return gv, nil
}

// open passes req (and extra) through the exit check, then opens its stream. Errors are the
// exit's refusal (a *chat.Error) or the link's.
func (c *Client) open(ctx context.Context, req wire.Request, extra ...string) (*link.Call, error) {
	if tp, ok := tracecontext.From(ctx); ok {
		req.Traceparent = tp.Child().String() // the edge's trace (never a client's), a new span per stream
	}
	if err := c.exit.Check(ctx, req, extra...); err != nil {
		return nil, err
	}
	return c.l.Open(ctx, req)
}

// frameError is the gateway's error frame; errUnexpectedFrame a frame the operation does not
// expect. Each method maps them to its callers' errors.
type frameError struct{ e wire.Error }

func (f *frameError) Error() string {
	return fmt.Sprintf("dc: the gateway answered %d %s", f.e.Status, wire.CodeOnly(f.e.Code))
}

var errUnexpectedFrame = errors.New("dc: the gateway answered with an unexpected frame")

// do sends a request answered by one frame of type want. Errors are raw: the exit's refusal, the
// link's errors, a *frameError, errUnexpectedFrame.
func (c *Client) do(ctx context.Context, req wire.Request, want wire.Type, extra ...string) (wire.Frame, error) {
	f, err := c.doOnce(ctx, req, want, true, extra...)
	if errors.Is(err, errRetry) && c.reconnected(ctx) {
		f, err = c.doOnce(ctx, req, want, false, extra...)
	}
	return f, err
}

// errRetry marks a call whose connection died before the gateway acknowledged it (see
// link.Call.Retryable); it wraps the link's error.
var errRetry = errors.New("dc: the connection died before the gateway acknowledged the request")

// reconnectWait bounds the wait for the link to come back before a request whose connection
// died unacknowledged is sent once more (a restarted gateway is usually back within it).
const reconnectWait = 2 * time.Second

// reconnected waits for the link to be ready again, at most reconnectWait.
func (c *Client) reconnected(ctx context.Context) bool {
	wctx, cancel := context.WithTimeout(ctx, reconnectWait)
	defer cancel()
	return c.l.WaitReady(wctx) == nil
}

func (c *Client) doOnce(ctx context.Context, req wire.Request, want wire.Type, mayRetry bool, extra ...string) (wire.Frame, error) {
	call, err := c.open(ctx, req, extra...)
	if err != nil {
		if mayRetry && errors.Is(err, link.ErrConnectionGone) {
			return wire.Frame{}, fmt.Errorf("%w: %w", errRetry, err)
		}
		return wire.Frame{}, err
	}
	defer call.Close()
	f, err := call.Next()
	if err != nil {
		if mayRetry && call.Retryable(err) {
			return wire.Frame{}, fmt.Errorf("%w: %w", errRetry, err)
		}
		return wire.Frame{}, err
	}
	switch f.Type {
	case want:
		return f, nil
	case wire.TypeError:
		var e wire.Error
		if f.Decode(&e) != nil {
			return wire.Frame{}, fmt.Errorf("%w: an unreadable error frame", errUnexpectedFrame)
		}
		return wire.Frame{}, &frameError{e}
	}
	return wire.Frame{}, fmt.Errorf("%w (%s)", errUnexpectedFrame, f.Type)
}

// stream sends a request and hands every frame to fn until fn says the answer is over. A
// gateway that does not acknowledge the request within the accept timeout is abandoned: one
// that crashed without closing the connection looks alive to QUIC until the idle timeout.
//
// A request whose connection died before the gateway acknowledged it (a gateway restarted
// since the link last heard from it resets the old connection at the first packet) is sent once
// more when the link is back within reconnectWait: nothing was served, nothing reached the user.
func (c *Client) stream(ctx context.Context, req wire.Request, fn func(wire.Frame) (done bool, err error)) error {
	err := c.streamOnce(ctx, req, fn, true)
	if errors.Is(err, errRetry) {
		if !c.reconnected(ctx) {
			return userError(ctx, err)
		}
		err = c.streamOnce(ctx, req, fn, false)
	}
	return err
}

func (c *Client) streamOnce(ctx context.Context, req wire.Request, fn func(wire.Frame) (done bool, err error), mayRetry bool) error {
	call, err := c.open(ctx, req)
	if err != nil {
		if mayRetry && errors.Is(err, link.ErrConnectionGone) {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		return userError(ctx, err)
	}
	defer call.Close()
	var unacknowledged atomic.Bool
	if c.cfg.AcceptTimeout > 0 {
		timer := time.AfterFunc(max(c.cfg.AcceptTimeout, 4*c.l.RTT()), func() {
			select {
			case <-call.Accepted():
			default:
				unacknowledged.Store(true)
				call.Unacknowledged()
			}
		})
		defer timer.Stop()
	}
	for {
		f, err := call.Next()
		if err != nil {
			if unacknowledged.Load() {
				return &chat.Error{Status: 504, Type: "api_error", Code: chat.CodeDCUnresponsive,
					Message: "the datacenter gateway did not acknowledge the request in time", RetryAfter: chat.DCRetryAfter}
			}
			if mayRetry && call.Retryable(err) {
				return fmt.Errorf("%w: %w", errRetry, err)
			}
			return userError(ctx, err)
		}
		if f.Type == wire.TypeError {
			var e wire.Error
			if f.Decode(&e) != nil {
				return badGateway("the datacenter sent an unreadable error")
			}
			return FromWire(e)
		}
		done, err := fn(f)
		if err != nil || done {
			return err
		}
	}
}
