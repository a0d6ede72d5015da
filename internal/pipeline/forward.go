package pipeline

import (
	"context"

	"github.com/sucursal/sucursal/internal/chat"
)

// DC is the datacenter as the terminal needs it (*dc.Client is one): send the (redacted)
// request, relay the answer into w. Errors are *chat.Error or the context's.
type DC interface {
	Chat(ctx context.Context, requestID string, req *chat.Request, w chat.Writer) error
}

// ForwardToDC is the terminal that sends the request to a datacenter endpoint. Whatever reaches
// it leaves the branch (through the DC client's exit check).
func ForwardToDC(dc DC) Handler {
	return HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
		return dc.Chat(ctx, req.ID, req.Chat, w)
	})
}
