package gateway

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/wire"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// A panic in a stream's frame watcher (the goroutine reading what the edge sends while the
// answer streams) resets that stream only: it is raised again in the stream's goroutine, counted
// and logged with its stack but not its value, and the gateway serves the edge's next request on
// the same connection. Unrecovered in the watcher, it would end this test binary.
func TestWatcherPanicResetsOnlyThatStream(t *testing.T) {
	var fired atomic.Bool
	watchedFrame = func(f wire.Frame) {
		if f.Type == wire.TypeCancel && fired.CompareAndSwap(false, true) {
			panic(fmt.Sprintf("watcher bug on frame %s", f.Payload))
		}
	}
	t.Cleanup(func() { watchedFrame = nil })

	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/models") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"echo","object":"model"}]}`))
			return
		}
		// A model that streams one chunk and then thinks until the request is cancelled.
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"echo\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hola\"}}]}\n\n"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}))
	t.Cleanup(target.Close)

	dir := filepath.Join(t.TempDir(), "pki")
	const edge = "branch-watch-01"
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: []string{edge}}); err != nil {
		t.Fatal(err)
	}
	serverTLS, err := pki.ServerTLS(dir)
	if err != nil {
		t.Fatal(err)
	}
	clientTLS, err := pki.ClientTLS(dir, edge)
	if err != nil {
		t.Fatal(err)
	}
	clientTLS.ServerName = "localhost"

	var logs syncBuffer
	reg := prometheus.NewRegistry()
	srv, err := New(Config{Target: openaicompat.New(target.URL+"/v1", "")}, serverTLS, reg, slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { defer close(served); _ = srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); srv.Abort(); ln.Close(); <-served })

	quiet := slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil))
	client := link.New(link.Config{Addr: ln.Addr().String(), EdgeID: edge, TLS: clientTLS, Tuning: link.DefaultTuning()},
		prometheus.NewRegistry(), quiet)
	ran := make(chan struct{})
	go func() { defer close(ran); _ = client.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-ran })
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	if err := client.WaitReady(wctx); err != nil {
		t.Fatalf("the link never came up: %v", err)
	}

	// A streamed answer under way; the edge's user goes away, and the watcher panics on the
	// cancel frame it reads.
	call, err := client.Open(wctx, wire.Request{Op: wire.OpChatCompletions, Stream: true,
		Body: []byte(`{"model":"echo","stream":true,"messages":[{"role":"user","content":"hola"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	for {
		f, err := call.Next()
		if err != nil {
			t.Fatalf("no chunk before the cancel: %v", err)
		}
		if f.Type == wire.TypeChunk {
			break
		}
	}
	call.Abandon()
	deadline := time.Now().Add(20 * time.Second)
	for testutil.ToFloat64(srv.m.panics) < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("sucursal_gateway_stream_panics_total = %v after the watcher panicked, want 1", testutil.ToFloat64(srv.m.panics))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !fired.Load() {
		t.Fatal("the watcher never saw the cancel frame")
	}

	// The same connection serves the next request.
	next, err := client.Open(wctx, wire.Request{Op: wire.OpModels})
	if err != nil {
		t.Fatalf("the request after the panic could not open: %v", err)
	}
	defer next.Close()
	f, err := next.Next()
	if err != nil {
		t.Fatalf("the request after the panic: %v", err)
	}
	var resp wire.Response
	if f.Type != wire.TypeResponse || f.Decode(&resp) != nil || resp.Status != http.StatusOK {
		t.Fatalf("the request after the panic got frame %v status %d", f.Type, resp.Status)
	}
	if n := client.Connections(); n != 1 {
		t.Fatalf("the edge dialled %d connections, want 1 (the panic must not close the connection)", n)
	}

	out := logs.String()
	if !strings.Contains(out, `"msg":"stream panicked"`) || !strings.Contains(out, "watch_panic_test.go") {
		t.Fatalf("the panic was not logged with its stack:\n%s", out)
	}
	if strings.Contains(out, "watcher bug") || strings.Contains(out, "client went away") {
		t.Fatal("the gateway's log holds the panic's value")
	}
}
