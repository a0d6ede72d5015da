package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/sucursal/sucursal/internal/admission"
	"github.com/sucursal/sucursal/internal/apikey"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/tracecontext"
)

// handleChat is POST /v1/chat/completions. Each check comes before what it protects: the key
// before the body is read, the body's memory before it is read, admission before any work.
func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := newRequestID()
	w.Header().Set("X-Request-Id", id)
	// The edge starts its own trace for the DC (tracecontext: no value a client chose leaves the
	// branch); a client's valid traceparent is kept in this NUC's log lines, to join the two.
	trace := tracecontext.New()
	log := s.d.Log.With("request_id", id, "trace_id", trace.TraceID)
	if client, ok := tracecontext.Parse(r.Header.Get(tracecontext.Header)); ok {
		log = log.With("client_trace_id", client.TraceID)
	}
	s.m.inflight.Inc()
	defer s.m.inflight.Dec()
	s.active.Add(1)
	defer s.active.Add(-1)
	tenant := anonymous.Tenant
	refuse := func(e *chat.Error) {
		s.m.requests.WithLabelValues(tenant, e.Code).Inc()
		log.Info("request refused", "tenant", tenant, "status", e.Status, "code", e.Code)
		writeError(w, e)
	}
	if s.draining.Load() {
		w.Header().Set("Connection", "close") // and the client's next request goes to a new connection
		refuse(shuttingDown("no new requests"))
		return
	}
	if e := jsonBody(r); e != nil {
		refuse(e)
		return
	}
	key, e := s.authorize(r, apikey.ScopeChat)
	if e != nil {
		refuse(e)
		return
	}
	tenant = key.Tenant
	if s.d.Admission != nil {
		size := s.cfg.MaxBodyBytes
		if r.ContentLength >= 0 && r.ContentLength < size {
			size = r.ContentLength
		}
		release, err := s.d.Admission.HoldBody(size)
		if err != nil {
			refuse(asChatError(err))
			return
		}
		defer release()
	}
	req, cerr := s.readRequest(w, r)
	if cerr != nil {
		refuse(cerr)
		return
	}
	ctx := tracecontext.WithRequestID(tracecontext.With(r.Context(), trace), id) // for the stages' log lines
	if s.d.Admission != nil {
		g, err := s.d.Admission.Admit(ctx, admission.Ticket{Tenant: key.Tenant, Class: key.Class,
			InputTokens: estimateTokens(req), MaxTokens: askedTokens(req)})
		if err != nil {
			if stopped(ctx) {
				refuse(shuttingDown("the request waited past the shutdown grace period"))
				return
			}
			if ctx.Err() != nil {
				s.m.requests.WithLabelValues(tenant, "client_gone").Inc()
				return
			}
			refuse(asChatError(err))
			return
		}
		defer g.Release()
		limitTokens(req, g.MaxTokens)
	}
	if s.cfg.RequestTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.RequestTimeout)
		defer cancel()
	}
	rw := newResponseWriter(w, req.Stream, start, s.m)
	rw.writeTimeout = s.cfg.SlowClientTimeout
	err := s.serveChat(ctx, &pipeline.Request{ID: id, Received: start, Chat: req}, rw)
	code := "ok"
	var pe *panicError
	switch {
	case errors.As(err, &pe):
		// A bug in a stage (a recognizer reading past a text's end, say): the request ends with
		// an OpenAI-shaped 500 (or a terminal error event), the panic is counted and logged
		// without its value, and the process keeps serving. Nothing was forwarded for the part
		// of the request that panicked: the stage that panicked never returned its text.
		ce := chat.Internal("the edge agent hit an internal error serving this request; it was not forwarded")
		code = ce.Code
		s.m.panics.Inc()
		log.Error("request panicked", "panic_type", pe.kind, "stack", pe.stack)
		rw.fail(ce)
	case err == nil:
		err = rw.finish()
	case stopped(r.Context()):
		// The shutdown grace is over: the answer ends with a terminal error event (or a 503 if
		// nothing was sent yet), never silently.
		ce := shuttingDown("the answer ran past the shutdown grace period")
		code = ce.Code
		rw.fail(ce)
	case r.Context().Err() != nil:
		code = "client_gone"
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		ce := &chat.Error{Status: http.StatusGatewayTimeout, Type: "api_error", Code: chat.CodeRequestTimeout,
			Message: fmt.Sprintf("the request took longer than the configured %s", s.cfg.RequestTimeout)}
		code = ce.Code
		rw.fail(ce)
	default:
		ce := asChatError(err)
		code = ce.Code
		rw.fail(ce)
	}
	s.m.requests.WithLabelValues(tenant, boundedCode(code)).Inc()
	s.m.duration.Observe(time.Since(start).Seconds())
	log.Info("request served", "tenant", tenant, "model", req.Model, "stream", req.Stream,
		"messages", len(req.Messages), "body_bytes", r.ContentLength, "code", code, "chunks", rw.chunks,
		"ttft_ms", ms(rw.ttft), "duration_ms", ms(time.Since(start)))
}

// panicError is a panic in the pipeline, turned into an error so the request can be answered.
// It keeps the panic value's type and the goroutine's stack, never the value itself: a value
// built by a stage could hold a piece of the prompt.
type panicError struct {
	kind  string
	stack string
}

func (e *panicError) Error() string { return "panic in the pipeline: " + e.kind }

// serveChat runs the pipeline and turns a panic in the request's goroutine into a *panicError.
// A stage's background goroutines (the guard's checks) carry their panics here (gopanic); a
// guard classifier's own panic is that classifier's failure (guard.ErrClassifierPanicked).
func (s *Server) serveChat(ctx context.Context, req *pipeline.Request, rw *responseWriter) (err error) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler { // net/http's own way to abort a response: keep its meaning
				panic(v)
			}
			kind, stack := gopanic.Describe(v) // a background check's panic is raised again here too
			err = &panicError{kind: kind, stack: string(stack)}
		}
	}()
	return s.d.Chat.ServeChat(ctx, req, rw)
}

// estimateTokens is the prompt's size in tokens, roughly: four bytes of text a token.
func estimateTokens(r *chat.Request) int {
	n := 0
	_ = r.Walk(func(t chat.Text) error {
		n += len(*t.S)
		return nil
	})
	return (n + 3) / 4
}

// askedTokens is the output bound the request asks for (0: none).
func askedTokens(r *chat.Request) int {
	for _, p := range []*int64{r.MaxCompletionTokens, r.MaxTokens} {
		if p != nil {
			return int(*p)
		}
	}
	return 0
}

// limitTokens gives the request the output bound admission granted (a smaller limit, never a
// larger one).
func limitTokens(r *chat.Request, n int) {
	if n <= 0 {
		return
	}
	v := int64(n)
	switch {
	case r.MaxCompletionTokens != nil:
		if *r.MaxCompletionTokens > v {
			r.MaxCompletionTokens = &v
		}
	case r.MaxTokens != nil:
		if *r.MaxTokens > v {
			r.MaxTokens = &v
		}
	default:
		r.MaxTokens = &v
	}
}

// boundedCode keeps the metric's code label to codes this project defines: a target's own error
// codes (passed through to the user) would make the label unbounded.
func boundedCode(code string) string {
	if len(code) > 40 {
		return "other"
	}
	for i := 0; i < len(code); i++ {
		if c := code[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return "other"
		}
	}
	return code
}
