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

	// The fields below are how stages talk to each other through the request, the only way
	// they do.

	// Redacted is how Redact publishes the request's texts, redacted, to a stage above it that
	// needs them (the guard's DC fallback may only ever see redacted text). The stage that needs
	// them sets it before calling down; Redact fills it, or fails it. Nil when no stage asked.
	Redacted *RedactedTexts
	// Verdict is a check started above that must pass before anything leaves the branch (the
	// guard's input verdict); AwaitChecks waits for it. Nil when there is none.
	Verdict func(ctx context.Context) error
	// Backend names what served the answer ("dc-primary", "dc-secondary-<addr>",
	// "local-degraded"); the failover router sets it, and stages above read it on the way up.
	Backend string
}

// ResponseWriter receives the answer. A streamed request gets WriteChunk calls; a non-streamed one
// a single WriteCompletion. Header may be changed until the first write.
type ResponseWriter interface {
	Header() http.Header
	chat.Writer
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

// Chain composes stages into one: Chain(a, b)(h) is a → b → h. A nil stage is left out, so a
// composition can name a stage that configuration turns off (see When).
func Chain(stages ...Stage) Stage {
	return func(terminal Handler) Handler {
		h := terminal
		for i := len(stages) - 1; i >= 0; i-- {
			if stages[i] != nil {
				h = stages[i](h)
			}
		}
		return h
	}
}

// When is s if cond holds, else no stage.
func When(cond bool, s Stage) Stage {
	if !cond {
		return nil
	}
	return s
}
