package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
)

// hygieneStack is an agent (with short connection timeouts) before a capturing target.
func hygieneStack(t *testing.T, opts ...agentOpt) string {
	t.Helper()
	target := &captureTarget{}
	srv := httptest.NewServer(target)
	t.Cleanup(srv.Close)
	pkiDir := newPKI(t)
	gw := startGateway(t, pkiDir, srv.URL+"/v1")
	url, a := startAgent(t, pkiDir, gw, append([]agentOpt{func(c *agent.Config) {
		c.BodyReadTimeout, c.IdleTimeout = time.Second, time.Second
	}}, opts...)...)
	waitLink(t, a)
	return strings.TrimPrefix(url, "http://")
}

// closedWithin reads from conn until the server closes it, or fails after limit (ten times the
// configured timeout: this checks that the reaping happens, not how fast).
func closedWithin(t *testing.T, conn net.Conn, limit time.Duration) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	_, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the agent kept the connection open for %s", limit)
	}
}

// A body sent a byte at a time is cut at body_read_timeout, and a keep-alive connection left idle
// is closed at idle_timeout: neither holds the NUC forever.
func TestSlowBodyAndIdleConnectionsAreReaped(t *testing.T) {
	addr := hygieneStack(t)
	t.Run("slow body", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_, _ = io.WriteString(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
		go func() { // a byte a second, as a slowloris client sends
			for i := 0; i < 30; i++ {
				time.Sleep(time.Second)
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}()
		closedWithin(t, conn, 10*time.Second)
	})
	t.Run("idle keep-alive", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_, _ = io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%v %v", resp, err)
		}
		resp.Body.Close()
		closedWithin(t, conn, 10*time.Second)
	})
}

// Connections past max_connections wait in the backlog and are served when one closes.
func TestConnectionCap(t *testing.T) {
	addr := hygieneStack(t, func(c *agent.Config) { c.MaxConnections = 2; c.IdleTimeout = time.Minute })
	var held []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%v %v", resp, err)
		}
		held = append(held, c) // kept open: both slots taken
	}
	third, err := net.Dial("tcp", addr) // the kernel accepts it; the agent does not serve it yet
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	_, _ = io.WriteString(third, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(third)
	_ = third.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	if _, err := br.Peek(1); err == nil {
		t.Fatal("a third connection was served while two held the cap")
	}
	held[0].Close()
	_ = third.SetReadDeadline(time.Now().Add(10 * time.Second))
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("after a slot freed: %v %v", resp, err)
	}
	held[1].Close()
}

// A gateway at its per-edge stream limit answers at once: the request gets 503 dc_busy with
// Retry-After instead of waiting silently for a stream to free (issue #14).
func TestGatewayStreamLimitIsAFastRefusal(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // a stream that never ends
	}))
	defer slow.Close()
	pkiDir := newPKI(t)
	tlsConf, err := pki.ServerTLS(pkiDir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := gateway.New(gateway.Config{Target: openaicompat.New(slow.URL+"/v1", ""), MaxStreamsPerEdge: 2}, tlsConf, prometheus.NewRegistry(), testLogger())
	if err != nil {
		t.Fatal(err)
	}
	url, a := startAgent(t, pkiDir, serveGateway(t, srv, "127.0.0.1:0").addr, func(c *agent.Config) { c.Failover.MaxAttempts = 1 })
	waitLink(t, a)
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"a"}]}`
	// The hello stream stays open: it holds one of the two, so one user stream fills the limit.
	reqCtx, stopReqs := context.WithCancel(context.Background())
	defer stopReqs()
	opened := make(chan struct{})
	go func() {
		req, _ := http.NewRequestWithContext(reqCtx, http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := httpClient().Do(req)
		close(opened)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-opened
	var lastCode string
	for i := 0; i < 3; i++ { // a stream slot or two may be in use for the hello and the first request
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rctx, rcancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := httpClient().Do(req.WithContext(rctx))
		if err != nil {
			rcancel()
			t.Fatalf("request %d waited instead of being refused: %v", i, err)
		}
		var e struct {
			Error struct{ Code string } `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		rcancel()
		lastCode = e.Error.Code
		if resp.StatusCode == http.StatusServiceUnavailable && e.Error.Code == chat.CodeDCBusy && resp.Header.Get("Retry-After") != "" {
			return
		}
	}
	t.Fatalf("no fast dc_busy refusal at the stream limit (last code %q)", lastCode)
}
