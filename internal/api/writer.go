package api

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
)

// responseWriter implements pipeline.ResponseWriter over HTTP: SSE for streamed requests, one JSON
// document otherwise. It remembers whether anything reached the user, so an error after the first
// byte becomes a terminal SSE error event instead of a broken HTTP status.
type responseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	stream  bool
	started bool
	start   time.Time
	ttft    time.Duration
	chunks  int
	m       *metrics
	buf     []byte
	// writeTimeout bounds each write (a client that stopped reading); 0 = none.
	writeTimeout time.Duration
	// armed is when the write deadline was last set (see armDeadline).
	armed time.Time
}

func newResponseWriter(w http.ResponseWriter, stream bool, start time.Time, m *metrics) *responseWriter {
	return &responseWriter{w: w, rc: http.NewResponseController(w), stream: stream, start: start, m: m}
}

func (rw *responseWriter) Header() http.Header { return rw.w.Header() }

func (rw *responseWriter) begin() {
	if rw.started {
		return
	}
	rw.started = true
	h := rw.w.Header()
	if rw.stream {
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("Connection", "keep-alive")
		h.Set("X-Accel-Buffering", "no")
	} else {
		h.Set("Content-Type", "application/json")
	}
	rw.w.WriteHeader(http.StatusOK)
}

func (rw *responseWriter) WriteChunk(c *chat.Chunk) error {
	// A relayed chunk that no stage changed is written as the gateway sent it.
	b, ok := c.Raw()
	if !ok {
		var err error
		if b, err = json.Marshal(c); err != nil {
			return chat.Internal("could not encode a chunk")
		}
	}
	if !rw.stream {
		// A terminal that streams for a non-streamed request is a bug in a stage.
		return chat.Internal("a streamed chunk was produced for a non-streamed request")
	}
	rw.begin()
	if rw.chunks == 0 {
		rw.ttft = time.Since(rw.start)
		rw.m.ttft.Observe(rw.ttft.Seconds())
	}
	rw.chunks++
	return rw.event(b)
}

func (rw *responseWriter) event(data []byte) error {
	rw.buf = append(rw.buf[:0], "data: "...)
	rw.buf = append(rw.buf, data...)
	rw.buf = append(rw.buf, '\n', '\n')
	rw.armDeadline()
	if _, err := rw.w.Write(rw.buf); err != nil {
		return err
	}
	return rw.rc.Flush()
}

// armDeadline keeps a write deadline at least writeTimeout after every write's start without
// moving the connection's timer at each chunk (issue #20: no per-chunk timers on the hot path):
// the deadline is set writeTimeout+writeTimeout/8 ahead, and moved again only once an eighth of
// the timeout has passed since. A client that stops reading is cut between writeTimeout and
// 9/8 of it after its last write began; one that reads is never cut.
func (rw *responseWriter) armDeadline() {
	if rw.writeTimeout <= 0 {
		return
	}
	now := time.Now()
	if !rw.armed.IsZero() && now.Sub(rw.armed) < rw.writeTimeout/8 {
		return
	}
	rw.armed = now
	_ = rw.rc.SetWriteDeadline(now.Add(rw.writeTimeout + rw.writeTimeout/8))
}

func (rw *responseWriter) WriteCompletion(c *chat.Completion) error {
	b, err := json.Marshal(c)
	if err != nil {
		return chat.Internal("could not encode the completion")
	}
	if rw.stream {
		return chat.Internal("a whole completion was produced for a streamed request")
	}
	rw.begin()
	rw.ttft = time.Since(rw.start)
	rw.m.ttft.Observe(rw.ttft.Seconds())
	_, err = rw.w.Write(append(b, '\n'))
	return err
}

// finish ends a successful answer.
func (rw *responseWriter) finish() error {
	if !rw.stream {
		if !rw.started {
			rw.fail(chat.Internal("the pipeline ended without an answer"))
		}
		return nil
	}
	rw.begin()
	_, err := rw.w.Write([]byte("data: [DONE]\n\n"))
	if err == nil {
		err = rw.rc.Flush()
	}
	return err
}

// fail reports e: as the HTTP response if nothing was sent yet, else as a terminal SSE error event
// (no [DONE] follows, so clients see the stream did not complete).
func (rw *responseWriter) fail(e *chat.Error) {
	if !rw.started {
		writeError(rw.w, e)
		rw.started = true
		return
	}
	if rw.stream {
		b, _ := json.Marshal(e)
		_ = rw.event(b)
	}
}
