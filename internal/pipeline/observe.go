package pipeline

import (
	"context"
	"net/http"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
)

// Outcome is what a request did, as the fleet's rollout gates compare it: never its text.
type Outcome struct {
	// TTFT is the time to the first chunk or the completion (0: nothing was written).
	TTFT time.Duration
	// Failed: a server-side failure (not the client's own mistake, not the client going away).
	Failed bool
	// Backend served the answer (Request.Backend).
	Backend string
}

// Observer records outcomes.
type Observer interface {
	Observe(Outcome)
}

// Observe times the first byte of every answer and records, for every request, its outcome:
// server-side failures (5xx or an error that is not a user error) and which backend answered.
// It sits on top of the path so it sees what users saw.
func Observe(o Observer) Stage {
	return func(next Handler) Handler {
		return HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
			tw := &firstByte{ResponseWriter: w, start: time.Now()}
			err := next.ServeChat(ctx, req, tw)
			failed := false
			if err != nil && ctx.Err() == nil {
				ce, ok := err.(*chat.Error)
				failed = !ok || ce.Status >= http.StatusInternalServerError
			}
			o.Observe(Outcome{TTFT: tw.ttft, Failed: failed, Backend: req.Backend})
			return err
		})
	}
}

type firstByte struct {
	ResponseWriter
	start time.Time
	ttft  time.Duration
}

func (f *firstByte) mark() {
	if f.ttft == 0 {
		f.ttft = time.Since(f.start)
	}
}

func (f *firstByte) WriteChunk(c *chat.Chunk) error {
	f.mark()
	return f.ResponseWriter.WriteChunk(c)
}

func (f *firstByte) WriteCompletion(c *chat.Completion) error {
	f.mark()
	return f.ResponseWriter.WriteCompletion(c)
}
