package e2e

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
)

// panicOnBoom is the target's transport with a bug: it panics, in the goroutine serving the
// stream, on a request whose body says "boom", with a value that holds part of the request.
type panicOnBoom struct{ next http.RoundTripper }

func (p panicOnBoom) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		if strings.Contains(string(b), "boom") {
			panic("transport bug on body " + string(b))
		}
		r.Body = io.NopCloser(strings.NewReader(string(b)))
	}
	return p.next.RoundTrip(r)
}

// A panic while the gateway serves one stream resets that stream (the branch user gets an
// OpenAI-shaped error), is counted and logged with its stack but not its value, and the gateway
// and the edge's link go on serving the next request over the same connection.
func TestGatewayStreamPanicResetsOnlyThatStream(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(b), `"stream":true`) {
			(&traceTarget{}).ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"echo\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"hola\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(target.Close)
	client := openaicompat.New(target.URL+"/v1", "")
	client.HTTP.Transport = panicOnBoom{next: client.HTTP.Transport}

	dir := newPKI(t)
	tlsConf, err := pki.ServerTLS(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	var logs logBuffer
	srv, err := gateway.New(gateway.Config{Target: client}, tlsConf, reg, slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	gwAddr := serveGateway(t, srv, "127.0.0.1:0").addr
	url, a := startAgent(t, dir, gwAddr)
	waitLink(t, a)

	for _, stream := range []bool{false, true} {
		got := ask(t, url, "boom", stream)
		if got.status < 500 || got.errCode == "" {
			t.Fatalf("stream=%v: a panicking stream answered %d %q (code %q), want a 5xx with an OpenAI error code", stream, got.status, got.body, got.errCode)
		}
		t.Logf("stream=%v: the user got %d %s", stream, got.status, got.errCode)
		if ok := ask(t, url, "hola", stream); ok.status != http.StatusOK || ok.errCode != "" {
			t.Fatalf("stream=%v: the request after the panic got %d %q (code %q)", stream, ok.status, ok.body, ok.errCode)
		}
	}
	if n := registryCounter(t, reg, "sucursal_gateway_stream_panics_total", "", ""); n != 2 {
		t.Fatalf("sucursal_gateway_stream_panics_total = %v, want 2", n)
	}
	lines := logs.lines("stream panicked")
	if len(lines) != 2 {
		t.Fatalf("%d 'stream panicked' log lines, want 2", len(lines))
	}
	if lines[0]["panic_type"] != "string" || !strings.Contains(lines[0]["stack"].(string), "gateway_panic_test.go") {
		t.Fatalf("the panic was not logged with its type and stack: %v", lines[0]["panic_type"])
	}
	logs.mu.Lock()
	all := logs.b.String()
	logs.mu.Unlock()
	if strings.Contains(all, "boom") || strings.Contains(all, "transport bug") {
		t.Fatal("the gateway's log holds the panic's value or the request's text")
	}
}
