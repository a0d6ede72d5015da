package failover

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

type fakeBackend struct {
	err       error
	partial   bool // writes a chunk before failing
	calls     int
	notReady  bool
	cancelCtx context.CancelFunc
}

func (f *fakeBackend) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	f.calls++
	if f.cancelCtx != nil {
		f.cancelCtx()
		return ctx.Err()
	}
	if f.partial {
		s := "partial"
		_ = w.WriteChunk(&chat.Chunk{Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &s}}}})
	}
	if f.err != nil {
		return f.err
	}
	s := "ok"
	return w.WriteChunk(&chat.Chunk{Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &s}}}})
}

type rec struct {
	h      http.Header
	chunks int
}

func (r *rec) Header() http.Header                    { return r.h }
func (r *rec) WriteChunk(*chat.Chunk) error           { r.chunks++; return nil }
func (r *rec) WriteCompletion(*chat.Completion) error { return nil }

var (
	lost     = &chat.Error{Status: 502, Code: "dc_connection_lost", Message: "x"}
	down     = chat.Unavailable("dc_unavailable", "x", time.Second)
	notFound = &chat.Error{Status: 404, Code: "model_not_found", Message: "x"}
)

// TestRoutingPolicy: one row per routing rule.
func TestRoutingPolicy(t *testing.T) {
	tests := []struct {
		name        string
		primary     fakeBackend
		secondary   fakeBackend
		local       *fakeBackend // nil: no degraded fallback allowed
		openPrimary bool
		cancel      bool
		wantCode    string // "" = served
		wantCalls   [3]int
		degraded    bool
		primaryOK   bool // primary breaker stays closed
	}{
		{name: "primary serves", wantCalls: [3]int{1, 0, 0}, primaryOK: true},
		{name: "primary down: secondary serves", primary: fakeBackend{notReady: true}, wantCalls: [3]int{0, 1, 0}, primaryOK: true},
		{name: "primary fails before any byte: retried once on the secondary", primary: fakeBackend{err: lost}, wantCalls: [3]int{1, 1, 0}},
		{name: "primary fails after a byte: no retry, the error ends the stream", primary: fakeBackend{err: lost, partial: true}, wantCode: "dc_connection_lost", wantCalls: [3]int{1, 0, 0}},
		{name: "the target says 404: passed through, the backend is healthy", primary: fakeBackend{err: notFound}, wantCode: "model_not_found", wantCalls: [3]int{1, 0, 0}, primaryOK: true},
		{name: "everything down, no local model: 503", primary: fakeBackend{notReady: true}, secondary: fakeBackend{notReady: true}, wantCode: "dc_unavailable", primaryOK: true},
		{name: "both DCs fail: only two attempts, then 503", primary: fakeBackend{err: lost}, secondary: fakeBackend{err: down}, wantCode: "dc_unavailable", wantCalls: [3]int{1, 1, 0}},
		{name: "both DCs down: local degraded model, flagged", primary: fakeBackend{notReady: true}, secondary: fakeBackend{notReady: true}, local: &fakeBackend{}, wantCalls: [3]int{0, 0, 1}, degraded: true, primaryOK: true},
		{name: "both DCs fail: local degraded after the retry budget", primary: fakeBackend{err: lost}, secondary: fakeBackend{err: lost}, local: &fakeBackend{}, wantCalls: [3]int{1, 1, 1}, degraded: true},
		{name: "open breaker: primary skipped", openPrimary: true, wantCalls: [3]int{0, 1, 0}},
		{name: "the user went away: no retry, no breaker failure", cancel: true, wantCode: "canceled", wantCalls: [3]int{1, 0, 0}, primaryOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				tt.primary.cancelCtx = cancel
			}
			pb := NewBreaker("primary", BreakerConfig{FailureThreshold: 1, OpenFor: time.Hour}, nil, nil)
			if tt.openPrimary {
				pb.Trip()
			}
			p, s := tt.primary, tt.secondary
			backends := []Backend{
				{Name: "primary", Handler: &p, Breaker: pb, Ready: func() (bool, error) { return !p.notReady, nil }},
				{Name: "secondary", Handler: &s, Ready: func() (bool, error) { return !s.notReady, nil }},
			}
			if tt.local != nil {
				backends = append(backends, Backend{Name: "local", Handler: tt.local, Degraded: true})
			}
			r := NewRouter(backends, Policy{}, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
			w := &rec{h: http.Header{}}
			err := r.ServeChat(ctx, &pipeline.Request{Chat: &chat.Request{Model: "m", Stream: true}}, w)
			code := ""
			var ce *chat.Error
			switch {
			case errors.As(err, &ce):
				code = ce.Code
				if code == "dc_unavailable" && ce.RetryAfter <= 0 {
					t.Errorf("503 without Retry-After")
				}
			case errors.Is(err, context.Canceled):
				code = "canceled"
			case err != nil:
				t.Fatalf("unexpected error %v", err)
			}
			if code != tt.wantCode {
				t.Fatalf("code %q, want %q", code, tt.wantCode)
			}
			localCalls := 0
			if tt.local != nil {
				localCalls = tt.local.calls
			}
			if got := [3]int{p.calls, s.calls, localCalls}; got != tt.wantCalls {
				t.Fatalf("calls %v, want %v", got, tt.wantCalls)
			}
			if got := w.h.Get(DegradedHeader) != ""; got != tt.degraded {
				t.Fatalf("degraded header %v, want %v", got, tt.degraded)
			}
			if tt.primaryOK != (pb.State() == Closed) && !tt.openPrimary {
				t.Fatalf("primary breaker %v", pb.State())
			}
		})
	}
}
