package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/procs"
	"github.com/sucursal/sucursal/internal/tracecontext"
	"github.com/sucursal/sucursal/internal/wire"
)

// serveStream serves one request stream: read the request, call the target, relay the answer.
// A watcher reads the rest of the stream so that a Cancel frame, or the edge resetting the stream,
// cancels the upstream request at once.
func (s *Server) serveStream(ctx context.Context, e *edgeConn, str *quic.Stream, log *slog.Logger) {
	s.m.activeStreams.Inc()
	defer s.m.activeStreams.Dec()
	procs.Begin() // how many Ps the gateway runs on follows the streams in flight (package procs)
	defer procs.End()
	fr := wire.NewReader(str)
	f, err := fr.Read()
	if err != nil {
		str.CancelRead(wire.CodeProtocol)
		str.CancelWrite(wire.CodeProtocol)
		return
	}
	var req wire.Request
	if f.Type != wire.TypeRequest || f.Decode(&req) != nil {
		s.m.streams.WithLabelValues("unknown", "bad_request").Inc()
		_ = writeError(str, &chat.Error{Status: http.StatusBadRequest, Type: "invalid_request_error", Code: "protocol_error",
			Message: "the first frame of a request stream must be a request"})
		_ = str.Close()
		str.CancelRead(wire.CodeProtocol)
		return
	}
	// The edge's trace, or a new one for an edge that sends none; the target gets a child of it.
	trace, ok := tracecontext.Parse(req.Traceparent)
	if !ok {
		trace = tracecontext.New()
	}
	log = log.With("request_id", req.RequestID, "trace_id", trace.TraceID, "op", req.Op)
	if s.draining.Load() {
		// A stream the edge opened before it read the GoAway (or an edge without a control
		// stream): refused before the target is called, so the edge can send it elsewhere.
		_ = writeError(str, chat.Unavailable(chat.CodeDCDraining,
			"the datacenter gateway is restarting; this branch will use another datacenter or retry shortly", time.Second))
		_ = str.Close()
		str.CancelRead(wire.CodeOK)
		s.m.streams.WithLabelValues(req.Op, "draining").Inc()
		return
	}
	// Acknowledge at once: the edge learns the gateway is alive one round trip after sending,
	// however long the model takes (see wire.TypeAccepted).
	_ = wire.Write(str, wire.TypeAccepted, nil)

	reqCtx, cancel := context.WithCancelCause(tracecontext.With(ctx, trace.Child()))
	defer cancel(nil)
	watched := make(chan struct{})
	// A panic of the watcher (reading the edge's frames) is raised again in this stream's
	// goroutine, whose recoverStream resets only this stream; unrecovered in the watcher it
	// would stop the gateway and every edge's requests with it.
	var watchPanic *gopanic.Panic
	go func() {
		defer close(watched)
		defer func() {
			if watchPanic != nil {
				cancel(errWatcherPanicked)
			}
		}()
		defer gopanic.Recover(&watchPanic)
		for {
			f, err := fr.Read()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					cancel(errEdgeCancelled)
				}
				return
			}
			if watchedFrame != nil {
				watchedFrame(f)
			}
			if f.Type == wire.TypeCancel {
				cancel(errEdgeCancelled)
				return
			}
		}
	}()

	start := time.Now()
	outcome := s.dispatch(reqCtx, e, str, req, log)
	switch cause := context.Cause(reqCtx); {
	case errors.Is(cause, errEdgeCancelled):
		outcome = "cancelled"
		str.CancelWrite(wire.CodeCancelled)
	case errors.Is(cause, errWatcherPanicked):
		// Never a clean end: the answer was cut, and the edge must not take it as whole.
		// recoverStream resets the stream once the panic is raised again below.
		str.CancelWrite(wire.CodeProtocol)
	default:
		_ = str.Close()
	}
	// Stop the watcher: the edge may keep its side open; reading further is pointless now.
	str.CancelRead(wire.CodeOK)
	<-watched
	watchPanic.Repanic()
	s.m.streams.WithLabelValues(req.Op, outcome).Inc()
	if req.Op == wire.OpChatCompletions || req.Op == wire.OpModels {
		s.target.observe(outcome)
	}
	log.Debug("stream served", "outcome", outcome, "duration_ms", time.Since(start).Milliseconds())
}

// watchedFrame, when set (by this package's tests only, before any server starts), sees each
// frame the watcher reads: the test of a watcher that panics.
var watchedFrame func(wire.Frame)

var (
	errEdgeCancelled   = errors.New("edge cancelled the request")
	errWatcherPanicked = errors.New("the stream's frame watcher panicked")
)

func (s *Server) dispatch(ctx context.Context, e *edgeConn, str *quic.Stream, req wire.Request, log *slog.Logger) (outcome string) {
	switch req.Op {
	case wire.OpModels:
		status, body, err := s.cfg.Target.Get(ctx, "/models")
		if err != nil {
			return s.fail(str, err, log)
		}
		if status/100 != 2 {
			return s.fail(str, chat.ParseError(status, body), log)
		}
		_ = wire.WriteJSON(str, wire.TypeResponse, wire.Response{Status: status, Body: json.RawMessage(body)})
		return "ok"
	case wire.OpGuard:
		return s.serveGuard(ctx, str, req.Body)
	case wire.OpDraft:
		return s.serveDraft(ctx, str, req.Body)
	case wire.OpDraftHello:
		return s.serveDraftHello(ctx, str, req.Body)
	case wire.OpChatCompletions:
		if req.Stream {
			return s.stream(ctx, e, str, req.Body, log)
		}
		body, err := s.cfg.Target.Post(ctx, "/chat/completions", req.Body)
		if err != nil {
			return s.fail(str, err, log)
		}
		_ = wire.WriteJSON(str, wire.TypeResponse, wire.Response{Status: http.StatusOK, Body: json.RawMessage(body)})
		return "ok"
	}
	_ = writeError(str, &chat.Error{Status: http.StatusBadRequest, Type: "invalid_request_error", Code: "unsupported_operation",
		Message: "this gateway does not support the operation " + safeOp(req.Op)})
	return "bad_request"
}

// e learns of every flush (edgeConn.deliveredData): while data flows, heartbeats wait.
func (s *Server) stream(ctx context.Context, e *edgeConn, str *quic.Stream, body []byte, log *slog.Logger) string {
	start := time.Now()
	var done wire.Done
	// Chunks that arrived from the target together leave in one stream write (one QUIC packet
	// for short ones instead of one each); a chunk is never held once nothing more has arrived.
	bw := bufio.NewWriterSize(str, 4<<10)
	err := s.cfg.Target.StreamEvents(ctx, "/chat/completions", body, func(data []byte, more bool) error {
		if done.Chunks == 0 {
			ttft := time.Since(start)
			s.m.upstreamTTFT.Observe(ttft.Seconds())
			done.UpstreamTTFTMillis = float64(ttft.Microseconds()) / 1000
		}
		done.Chunks++
		s.m.chunks.Inc()
		if err := wire.Write(bw, wire.TypeChunk, data); err != nil {
			return &edgeGoneError{err}
		}
		if more {
			return nil
		}
		if err := bw.Flush(); err != nil {
			return &edgeGoneError{err}
		}
		e.deliveredData()
		return nil
	})
	if ferr := bw.Flush(); err == nil && ferr != nil {
		err = &edgeGoneError{ferr}
	}
	if err != nil {
		return s.fail(str, err, log)
	}
	_ = wire.WriteJSON(str, wire.TypeDone, done)
	return "ok"
}

// edgeGoneError is a failed write towards the edge: the edge reset the stream (it cut a slow
// client, or its user went away) or the connection broke. The target did nothing wrong.
type edgeGoneError struct{ err error }

func (e *edgeGoneError) Error() string { return "write to the edge: " + e.err.Error() }
func (e *edgeGoneError) Unwrap() error { return e.err }

// fail sends the error frame that matches err and names the outcome for metrics. Failures of the
// target are logged at warn — status, code and the error's class, never a body.
func (s *Server) fail(str *quic.Stream, err error, log *slog.Logger) string {
	var gone *edgeGoneError
	var se *quic.StreamError
	if errors.As(err, &gone) || errors.As(err, &se) {
		return "client_gone" // nobody left to tell; not the target's fault
	}
	if errors.Is(err, context.Canceled) {
		return "cancelled"
	}
	var ce *chat.Error
	switch {
	case errors.As(err, &ce):
		log.Warn("target answered an error", "status", ce.Status, "code", ce.Code)
		_ = writeError(str, ce)
		return "upstream_error"
	case errors.Is(err, openaicompat.ErrUnreachable):
		log.Warn("target unreachable", "error", err.Error())
		_ = writeError(str, chat.Unavailable(chat.CodeTargetUnreachable,
			"the datacenter gateway cannot reach its model server; try again shortly", 5*time.Second))
		return "upstream_unreachable"
	case errors.Is(err, context.DeadlineExceeded):
		log.Warn("target timed out")
		_ = writeError(str, &chat.Error{Status: http.StatusGatewayTimeout, Type: "api_error", Code: chat.CodeUpstreamTimeout,
			Message: "the datacenter model server did not answer in time", RetryAfter: 5 * time.Second})
		return "upstream_timeout"
	}
	// The error's text can name the target's address: it goes to the log, not to the branch.
	log.Warn("target request failed", "error", err.Error())
	_ = writeError(str, &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: chat.CodeUpstreamError,
		Message: "the datacenter model server failed during the request", RetryAfter: 5 * time.Second})
	return "upstream_error"
}

func writeError(str *quic.Stream, e *chat.Error) error {
	return wire.WriteJSON(str, wire.TypeError, wire.Error{
		Status: e.Status, Type: e.Type, Code: e.Code, Param: e.Param, Message: e.Message,
		RetryAfterSeconds: int(e.RetryAfter / time.Second),
	})
}

// safeOp keeps an unknown operation name printable and short (it comes from the edge).
func safeOp(op string) string {
	if len(op) > 40 {
		op = op[:40]
	}
	b := []byte(op)
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '?'
		}
	}
	return string(b)
}
