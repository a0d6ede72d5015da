package openaicompat

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// A streamed answer that ended with [DONE] leaves its connection to the target reusable, so the
// next request does not pay for a new TCP (in production, TLS) connection.
func TestStreamReusesTheConnection(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			fmt.Fprintf(w, "data: {\"n\":%d}\n\n", i)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
		// The end of the body comes in a write of its own, after [DONE] (as from Ollama): the
		// client has read [DONE] before it.
		w.(http.Flusher).Flush()
		time.Sleep(5 * time.Millisecond)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := New(srv.URL, "")
	const requests = 5
	for range requests {
		events := 0
		if err := c.Stream(context.Background(), "/chat/completions", []byte(`{}`), func([]byte) error { events++; return nil }); err != nil {
			t.Fatal(err)
		}
		if events != 3 {
			t.Fatalf("got %d events, want 3", events)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d requests opened %d connections, want 1", requests, n)
	}
}

// A target that keeps the stream open after [DONE] does not hold the answer: Stream returns.
func TestStreamReturnsAfterDoneOnAnOpenStream(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "data: {}\n\ndata: [DONE]\n\n")
		w.(http.Flusher).Flush()
		select { // never ends the body on its own
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	if err := New(srv.URL, "").Stream(context.Background(), "/chat/completions", []byte(`{}`), func([]byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
}
