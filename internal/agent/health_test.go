package agent

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/pipeline"
)

type hdrWriter struct{ h http.Header }

func (w *hdrWriter) Header() http.Header                    { return w.h }
func (w *hdrWriter) WriteChunk(*chat.Chunk) error           { return nil }
func (w *hdrWriter) WriteCompletion(*chat.Completion) error { return nil }

func TestHealthObservesRequests(t *testing.T) {
	h := newHealth()
	h.Health("drafter") // the role's window starts
	serve := func(backend string, err error, delay time.Duration) {
		term := pipeline.HandlerFunc(func(_ context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
			req.Backend = backend // what the failover router records
			if err != nil {
				return err
			}
			time.Sleep(delay)
			return w.WriteChunk(&chat.Chunk{})
		})
		_ = pipeline.Observe(h)(term).ServeChat(context.Background(), &pipeline.Request{}, &hdrWriter{h: http.Header{}})
	}
	for range 18 {
		serve(failover.PrimaryBackend, nil, time.Millisecond)
	}
	serve("dc-secondary-x", nil, 50*time.Millisecond)                                    // a failover, and the slowest
	serve(failover.PrimaryBackend, &chat.Error{Status: 404, Code: "model_not_found"}, 0) // the client's mistake
	serve(failover.PrimaryBackend, chat.Unavailable("dc_unavailable", "x", time.Second), 0)
	serve(failover.PrimaryBackend, errors.New("bug"), 0)

	got := h.Health("drafter")
	if got.Requests != 22 || got.Errors != 2 || got.Failovers != 1 {
		t.Fatalf("got %+v, want 22 requests, 2 errors (503 and an internal one), 1 failover", got)
	}
	if got.TTFTP95Ms < 1 || got.TTFTP95Ms >= 50 {
		t.Fatalf("TTFT p95 %.2f ms: want the 95th of 19 first bytes, not the 50 ms outlier", got.TTFTP95Ms)
	}
	h.switched("drafter")
	if got := h.Health("drafter"); got.Requests != 0 {
		t.Fatalf("after a switch the window must restart: %+v", got)
	}
}
