package tracecontext

import (
	"context"
	"log/slog"
)

type requestIDKey struct{}

// WithRequestID returns ctx carrying the request's id, for LogHandler.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id ctx carries ("" without one).
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// LogHandler wraps h so that a record logged with a request's context (log.WarnContext(ctx, …))
// carries that request's request_id and trace_id: the stages deep in the request path need not
// be handed the ids to log them. Records logged without such a context pass unchanged.
func LogHandler(h slog.Handler) slog.Handler {
	if _, ok := h.(idHandler); ok {
		return h
	}
	return idHandler{h}
}

type idHandler struct{ slog.Handler }

func (h idHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
		if tp, ok := From(ctx); ok {
			r.AddAttrs(slog.String("trace_id", tp.TraceID))
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h idHandler) WithAttrs(as []slog.Attr) slog.Handler { return idHandler{h.Handler.WithAttrs(as)} }
func (h idHandler) WithGroup(name string) slog.Handler    { return idHandler{h.Handler.WithGroup(name)} }
