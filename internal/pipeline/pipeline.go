package pipeline

import (
	"context"
	"net/http"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
)

// Request is one chat completion request travelling down the pipeline.
type Request struct {
	ID       string
	Received time.Time
	Chat     *chat.Request

	// redacted is filled by Redact for the Guard stage's DC fallback (nil without a Guard stage);
	// verdict is the Guard stage's pending input verdict, awaited by AwaitChecks (nil: none).
	redacted *redactedTexts
	verdict  func(ctx context.Context) error
}

// ResponseWriter receives the answer. A streamed request gets WriteChunk calls; a non-streamed one
// a single WriteCompletion. Header may be changed until the first write.
type ResponseWriter interface {
	Header() http.Header
	WriteChunk(*chat.Chunk) error
	WriteCompletion(*chat.Completion) error
}

// Handler answers a request or returns an error; a *chat.Error reaches the user as it is, any
// other error as a 500 (or a terminal stream error event once streaming has begun).
type Handler interface {
	ServeChat(ctx context.Context, req *Request, w ResponseWriter) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, req *Request, w ResponseWriter) error

func (f HandlerFunc) ServeChat(ctx context.Context, req *Request, w ResponseWriter) error {
	return f(ctx, req, w)
}

// Stage wraps the rest of the pipeline.
type Stage func(next Handler) Handler

// Chain composes stages into one: Chain(a, b)(h) is a → b → h.
func Chain(stages ...Stage) Stage {
	return func(terminal Handler) Handler {
		h := terminal
		for i := len(stages) - 1; i >= 0; i-- {
			h = stages[i](h)
		}
		return h
	}
}
