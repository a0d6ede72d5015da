package failover

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func serve(r *Router) error {
	return r.ServeChat(context.Background(), &pipeline.Request{Chat: &chat.Request{Model: "m"}}, &rec{h: http.Header{}})
}

// A gateway's answers are not link failures: a dead target, a busy or draining gateway leave
// the breaker closed; the target shows in Status; the user gets the gateway's own error.
func TestGatewayAnswersDoNotOpenTheBreaker(t *testing.T) {
	tests := []struct {
		name       string
		err        *chat.Error
		wantTarget string
	}{
		{"target unreachable", chat.Unavailable(chat.CodeTargetUnreachable, "x", 5*time.Second), "unreachable"},
		{"target timed out", &chat.Error{Status: 504, Code: chat.CodeUpstreamTimeout, Message: "x"}, "unreachable"},
		{"target failed", &chat.Error{Status: 502, Code: chat.CodeUpstreamError, Message: "x"}, "unreachable"},
		{"gateway busy", chat.Unavailable(chat.CodeDCBusy, "x", time.Second), ""},
		{"gateway draining", chat.Unavailable(chat.CodeDCDraining, "x", time.Second), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBreaker(PrimaryBackend, BreakerConfig{FailureThreshold: 1, OpenFor: time.Hour}, nil, nil)
			r := NewRouter([]Backend{{Name: PrimaryBackend, Handler: &fakeBackend{err: tt.err}, Breaker: b}}, Policy{}, nil, quiet)
			for range 3 {
				var ce *chat.Error
				if err := serve(r); !errors.As(err, &ce) || ce.Code != tt.err.Code {
					t.Fatalf("the user got %v, want the gateway's %s", err, tt.err.Code)
				}
			}
			if b.State() != Closed {
				t.Fatalf("breaker %v after gateway answers, want closed", b.State())
			}
			if st := r.Status()[0]; st.Target != tt.wantTarget {
				t.Fatalf("status target %q, want %q", st.Target, tt.wantTarget)
			}
			if ok, err := r.Ready(); !ok {
				t.Fatalf("not ready: %v", err)
			}
		})
	}
}

// A link failure still opens the breaker; a re-established connection closes it at once.
func TestReconnectClosesTheBreaker(t *testing.T) {
	var conns uint64 = 1
	fb := &fakeBackend{err: &chat.Error{Status: 502, Code: chat.CodeDCConnectionLost, Message: "x"}}
	b := NewBreaker(PrimaryBackend, BreakerConfig{FailureThreshold: 1, OpenFor: time.Hour}, nil, nil)
	r := NewRouter([]Backend{{Name: PrimaryBackend, Handler: fb, Breaker: b, Connections: func() uint64 { return conns }}}, Policy{}, nil, quiet)
	_ = serve(r)
	if b.State() != Open {
		t.Fatalf("breaker %v after a lost connection, want open", b.State())
	}
	ok, err := r.Ready()
	if ok || err == nil || !strings.HasPrefix(err.Error(), ReasonBreakerOpen) {
		t.Fatalf("Ready = %v %v, want %s", ok, err, ReasonBreakerOpen)
	}
	fb.err = nil
	if err := serve(r); err == nil || fb.calls != 1 {
		t.Fatalf("an open breaker let a request through (%v, %d calls)", err, fb.calls)
	}
	conns++ // the link re-dialled
	if ok, err := r.Ready(); !ok {
		t.Fatalf("not ready after the reconnect: %v", err)
	}
	if err := serve(r); err != nil || fb.calls != 2 {
		t.Fatalf("after the reconnect: %v (%d calls)", err, fb.calls)
	}
}

// Ready: the first DC's reason when no DC can serve; a local degraded model does not count.
func TestReadyReasons(t *testing.T) {
	down := errors.New("dc_link_down: no connection to the datacenter gateway")
	r := NewRouter([]Backend{
		{Name: PrimaryBackend, Handler: &fakeBackend{}, Ready: func() (bool, error) { return false, down }},
		{Name: "local", Handler: &fakeBackend{}, Degraded: true},
	}, Policy{}, nil, quiet)
	if ok, err := r.Ready(); ok || !errors.Is(err, down) {
		t.Fatalf("Ready = %v %v, want the link's reason", ok, err)
	}
	r = NewRouter([]Backend{
		{Name: PrimaryBackend, Handler: &fakeBackend{}, Ready: func() (bool, error) { return false, down }},
		{Name: "dc-secondary", Handler: &fakeBackend{}},
	}, Policy{}, nil, quiet)
	if ok, err := r.Ready(); !ok {
		t.Fatalf("a reachable secondary must make the branch ready: %v", err)
	}
}
