package api

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// secretPanic is what a buggy stage might panic with: a value that holds a piece of the prompt.
const secretPanic = "slice of 'Lucía Pérez, DNI 12345678Z' out of range"

// panicky panics on prompts that say "boom" (after one chunk when streamed) and answers the rest.
type panicky struct{}

func (panicky) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	switch req.Chat.Messages[0].Content.String() {
	case "boom":
	case "background boom": // a guard check's panic, carried to the request's goroutine
		panic(&gopanic.Panic{Value: secretPanic, Stack: []byte("goroutine 9 [running]:\nguard.backgroundCheck()\n")})
	default:
		return (&gate{}).ServeChat(ctx, req, w)
	}
	if req.Chat.Stream {
		if err := w.WriteChunk(&chat.Chunk{ID: "c", Object: "chat.completion.chunk", Choices: []chat.ChunkChoice{{}}}); err != nil {
			return err
		}
	}
	panic(secretPanic)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// A panic inside the pipeline answers an OpenAI-shaped 500 (or ends the stream with an error
// event and no [DONE]), is counted, is logged with its stack but without its value, and the
// server keeps serving.
func TestPipelinePanicAnswers500AndKeepsServing(t *testing.T) {
	var logs syncBuffer
	reg := prometheus.NewRegistry()
	s := New(DefaultConfig(), Deps{Chat: panicky{}, Models: fakeModels{}, Ready: func() (bool, error) { return true, nil },
		Registerer: reg, Log: slog.New(slog.NewJSONHandler(&logs, nil))})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)

	r := post(t, srv.URL, `{"model":"m","messages":[{"role":"user","content":"boom"}]}`)
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusInternalServerError || !strings.Contains(string(b), `"code":"internal_error"`) {
		t.Fatalf("unary panic: %d %s", r.StatusCode, b)
	}

	r = post(t, srv.URL, `{"model":"m","stream":true,"messages":[{"role":"user","content":"boom"}]}`)
	b, _ = io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusOK || !strings.Contains(string(b), `"code":"internal_error"`) || strings.Contains(string(b), "[DONE]") {
		t.Fatalf("streamed panic: %d %s", r.StatusCode, b)
	}

	r = post(t, srv.URL, unary)
	r.Body.Close()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("after two panics the next request got %d", r.StatusCode)
	}
	r = post(t, srv.URL, `{"model":"m","messages":[{"role":"user","content":"background boom"}]}`)
	b, _ = io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusInternalServerError || !strings.Contains(string(b), `"code":"internal_error"`) {
		t.Fatalf("carried panic: %d %s", r.StatusCode, b)
	}

	if n := testutil.ToFloat64(s.m.panics); n != 3 {
		t.Fatalf("sucursal_api_chat_panics_total = %v, want 3", n)
	}
	out := logs.String()
	if !strings.Contains(out, "guard.backgroundCheck()") {
		t.Fatalf("a carried panic was not logged with the stack of the goroutine that panicked:\n%s", out)
	}
	if !strings.Contains(out, `"msg":"request panicked"`) || !strings.Contains(out, `"panic_type":"string"`) ||
		!strings.Contains(out, "panic_test.go") {
		t.Fatalf("the panic was not logged with its type and stack:\n%s", out)
	}
	for _, secret := range []string{"Lucía", "12345678Z", "boom"} {
		if strings.Contains(out, secret) {
			t.Fatalf("the log holds %q from the panic value or the prompt", secret)
		}
	}
}
