package api

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// endless streams one chunk, then waits for its context to end (the shutdown grace running out).
type endless struct{ started chan struct{} }

func (e endless) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	if req.Chat.Stream {
		if err := w.WriteChunk(&chat.Chunk{ID: "c", Object: "chat.completion.chunk", Choices: []chat.ChunkChoice{{}}}); err != nil {
			return err
		}
	}
	close(e.started)
	<-ctx.Done()
	return ctx.Err()
}

// shutdownServer is the endpoint served as the agent serves it: request contexts derive from one
// base context that shutdown cancels with ErrShuttingDown.
func shutdownServer(t *testing.T, h pipeline.Handler) (*Server, string, context.CancelCauseFunc) {
	t.Helper()
	base, cancel := context.WithCancelCause(context.Background())
	s := New(DefaultConfig(), Deps{Chat: h, Models: fakeModels{}, Ready: func() (bool, error) { return true, nil }})
	srv := httptest.NewUnstartedServer(s)
	srv.Config.BaseContext = func(net.Listener) context.Context { return base }
	srv.Start()
	t.Cleanup(func() { cancel(nil); srv.Close() })
	return s, srv.URL, cancel
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

const (
	streamed = `{"model":"m","stream":true,"messages":[{"role":"user","content":"hola"}]}`
	unary    = `{"model":"m","messages":[{"role":"user","content":"hola"}]}`
)

func TestDrainRefusesNewRequests(t *testing.T) {
	s, url, _ := shutdownServer(t, &gate{})
	if r := post(t, url, unary); r.StatusCode != http.StatusOK {
		t.Fatalf("before Drain: %d", r.StatusCode)
	}
	s.Drain()
	r := post(t, url, unary)
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), `"code":"shutting_down"`) ||
		r.Header.Get("Retry-After") != "5" || !r.Close {
		t.Fatalf("after Drain: %d %s Retry-After=%q close=%v", r.StatusCode, b, r.Header.Get("Retry-After"), r.Close)
	}
	resp, err := http.Get(url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), `"reason":"shutting_down"`) {
		t.Fatalf("/readyz while draining: %d %s", resp.StatusCode, b)
	}
}

func TestGraceOverEndsRequests(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		cause      error
		want       string // the last thing the client reads; "" = nothing (the client is taken for gone)
	}{
		{"stream: terminal event", streamed, ErrShuttingDown, `data: {"error":{"message":"the edge agent is shutting down (the answer ran past the shutdown grace period); retry in a few seconds","type":"api_error","param":null,"code":"shutting_down"}}`},
		{"before the first byte: 503", unary, ErrShuttingDown, `{"error":{"message":"the edge agent is shutting down (the answer ran past the shutdown grace period); retry in a few seconds","type":"api_error","param":null,"code":"shutting_down"}}`},
		{"another cause: nothing", streamed, errors.New("gone"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := endless{started: make(chan struct{})}
			_, url, cancel := shutdownServer(t, h)
			type result struct {
				status int
				lines  []string
			}
			got := make(chan result, 1)
			go func() {
				resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(tc.body))
				if err != nil {
					got <- result{}
					return
				}
				defer resp.Body.Close()
				var lines []string
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					if sc.Text() != "" {
						lines = append(lines, sc.Text())
					}
				}
				got <- result{resp.StatusCode, lines}
			}()
			<-h.started
			cancel(tc.cause)
			r := <-got
			last := ""
			if len(r.lines) > 0 {
				last = r.lines[len(r.lines)-1]
			}
			if tc.want == "" {
				if strings.Contains(last, "error") {
					t.Fatalf("got %q, want no error event for a cause other than shutdown", last)
				}
				return
			}
			if last != tc.want {
				t.Fatalf("last line %q, want %q", last, tc.want)
			}
			if tc.body == unary && r.status != http.StatusServiceUnavailable {
				t.Fatalf("status %d, want 503", r.status)
			}
		})
	}
}
