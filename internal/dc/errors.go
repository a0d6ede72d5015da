package dc

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/wire"
)

// userError is the one mapping from what can go wrong on the way to the DC to what a branch
// user is told. The context's own error passes through (the caller went away); a *chat.Error
// (the exit check's refusal, egress_blocked) passes as it is.
func userError(ctx context.Context, err error) error {
	var ce *chat.Error
	var fe *frameError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.Canceled):
		return err
	case errors.As(err, &ce):
		return ce
	case errors.As(err, &fe):
		return FromWire(fe.e)
	case errors.Is(err, errUnexpectedFrame):
		return badGateway("the datacenter answered with an unexpected frame")
	case errors.Is(err, link.ErrNotConnected):
		return chat.Unavailable(chat.CodeDCUnavailable, "the datacenter is unreachable from this branch; try again shortly", chat.DCRetryAfter)
	case errors.Is(err, link.ErrDraining):
		return chat.Unavailable(chat.CodeDCDraining, "the datacenter gateway is restarting; try again shortly", time.Second)
	case errors.Is(err, link.ErrBusy):
		return chat.Unavailable(chat.CodeDCBusy, "the datacenter gateway is serving as many requests from this branch as it allows; try again shortly", time.Second)
	case errors.Is(err, link.ErrStreamLost):
		return &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: chat.CodeDCConnectionLost,
			Message: "the connection to the datacenter broke during the request", RetryAfter: chat.DCRetryAfter}
	}
	return badGateway("the datacenter request failed")
}

// FromWire is the user-facing error for a gateway's error frame.
func FromWire(e wire.Error) *chat.Error {
	return &chat.Error{Status: e.Status, Type: e.Type, Code: e.Code, Param: e.Param, Message: e.Message, RetryAfter: e.RetryAfter()}
}

func badGateway(msg string) *chat.Error {
	return &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: chat.CodeDCProtocolError, Message: msg}
}
