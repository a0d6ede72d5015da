package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/wire"
)

// DCLink is what the DC terminal needs of the QUIC link.
type DCLink interface {
	Open(ctx context.Context, req wire.Request) (*link.Call, error)
	RTT() time.Duration
}

// DCOptions tune ForwardToDC.
type DCOptions struct {
	// AcceptTimeout bounds the wait for the gateway's acknowledgement of a request (it comes one
	// round trip after sending, before the model starts). The effective bound is at least four
	// smoothed RTTs. 0 disables the check.
	AcceptTimeout time.Duration
}

// ForwardToDC is the terminal handler that sends the request to the datacenter over the link and
// relays the answer. Whatever reaches it leaves the branch.
func ForwardToDC(l DCLink, opts ...DCOptions) Handler {
	var o DCOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	return HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
		body, err := req.Chat.Encode()
		if err != nil {
			return chat.Internal("could not encode the request for the datacenter")
		}
		call, err := l.Open(ctx, wire.Request{Op: wire.OpChatCompletions, RequestID: req.ID, Stream: req.Chat.Stream, Body: body})
		if err != nil {
			return dcError(ctx, err)
		}
		defer call.Close()
		var unacknowledged atomic.Bool
		if o.AcceptTimeout > 0 {
			// A gateway that crashed without closing the connection looks alive to QUIC until the
			// idle timeout; its missing acknowledgement says so within a second.
			timer := time.AfterFunc(max(o.AcceptTimeout, 4*l.RTT()), func() {
				select {
				case <-call.Accepted():
				default:
					unacknowledged.Store(true)
					call.Abandon()
				}
			})
			defer timer.Stop()
		}
		return relay(ctx, call, w, &unacknowledged)
	})
}

// relay reads the gateway's frames into w until the answer ends.
func relay(ctx context.Context, call *link.Call, w ResponseWriter, unacknowledged *atomic.Bool) error {
	for {
		f, err := call.Next()
		if err != nil {
			if unacknowledged.Load() {
				return &chat.Error{Status: http.StatusGatewayTimeout, Type: "api_error", Code: "dc_unresponsive",
					Message: "the datacenter gateway did not acknowledge the request in time", RetryAfter: DCRetryAfter}
			}
			return dcError(ctx, err)
		}
		switch f.Type {
		case wire.TypeChunk:
			// DecodeChunk keeps the gateway's bytes: a chunk no stage changes goes to the user
			// as it came, without being encoded again.
			c, err := chat.DecodeChunk(f.Payload)
			if err != nil {
				return badGateway("the datacenter sent a chunk that is not valid JSON")
			}
			if err := w.WriteChunk(c); err != nil {
				return err
			}
		case wire.TypeResponse:
			var r wire.Response
			var c chat.Completion
			if f.Decode(&r) != nil || json.Unmarshal(r.Body, &c) != nil {
				return badGateway("the datacenter sent a response that is not valid JSON")
			}
			return w.WriteCompletion(&c)
		case wire.TypeDone:
			return nil
		case wire.TypeError:
			var e wire.Error
			if f.Decode(&e) != nil {
				return badGateway("the datacenter sent an unreadable error")
			}
			return FromWireError(e)
		default:
			return badGateway("the datacenter sent an unexpected " + f.Type.String() + " frame")
		}
	}
}

// FromWireError is the user-facing error for an error frame.
func FromWireError(e wire.Error) *chat.Error {
	return &chat.Error{Status: e.Status, Type: e.Type, Code: e.Code, Param: e.Param, Message: e.Message, RetryAfter: e.RetryAfter()}
}

// DCRetryAfter is the retry hint given to users when the datacenter is unreachable: about the
// time the link needs to notice and re-dial.
const DCRetryAfter = 5 * time.Second

func dcError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, redact.ErrEgressBlocked):
		return EgressBlocked(err)
	case errors.Is(err, link.ErrNotConnected):
		return chat.Unavailable("dc_unavailable", "the datacenter is unreachable from this branch; try again shortly", DCRetryAfter)
	case errors.Is(err, link.ErrStreamLost):
		return &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "dc_connection_lost",
			Message: "the connection to the datacenter broke during the request", RetryAfter: DCRetryAfter}
	}
	return badGateway("the datacenter request failed")
}

// EgressBlocked is the user's error for a request the exit check refused: redaction left
// personal data in it (a form or a field it missed), so nothing was sent. Entity types are named;
// values never are.
func EgressBlocked(err error) *chat.Error {
	msg := "the request still held personal data after redaction, so nothing was sent; the branch operator can see the entity types in the agent's log"
	var be *redact.EgressBlockedError
	if errors.As(err, &be) {
		types := make([]string, 0, len(be.Types))
		for t := range be.Types {
			types = append(types, t)
		}
		slices.Sort(types)
		msg = "the request still held personal data (" + strings.Join(types, ", ") + ") after redaction, so nothing was sent; rephrase it or tell the branch operator"
	}
	return &chat.Error{Status: http.StatusUnprocessableEntity, Type: "invalid_request_error", Code: "egress_blocked", Message: msg}
}

func badGateway(msg string) *chat.Error {
	return &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "dc_protocol_error", Message: msg}
}
