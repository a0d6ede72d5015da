package e2e

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/sucursal/sucursal/internal/testmodel"
)

// tcpTap is a TCP forwarder in front of the target that reports when the gateway's connections
// to it close: the observable sign that an upstream request was cancelled.
type tcpTap struct {
	ln     net.Listener
	mu     sync.Mutex
	open   int
	conns  map[net.Conn]bool
	closed chan struct{} // receives once per closed upstream connection
	wg     sync.WaitGroup
}

func startTap(t *testing.T, upstream string) *tcpTap {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tp := &tcpTap{ln: ln, closed: make(chan struct{}, 64), conns: map[net.Conn]bool{}}
	tp.wg.Add(1)
	go func() {
		defer tp.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", upstream)
			if err != nil {
				c.Close()
				continue
			}
			tp.mu.Lock()
			tp.open++
			tp.conns[c] = true
			tp.mu.Unlock()
			tp.wg.Add(1)
			go func() {
				defer tp.wg.Done()
				done := make(chan struct{}, 2)
				go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
				go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
				<-done
				c.Close()
				up.Close()
				<-done
				tp.mu.Lock()
				tp.open--
				delete(tp.conns, c)
				tp.mu.Unlock()
				tp.closed <- struct{}{}
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		tp.mu.Lock()
		for c := range tp.conns {
			c.Close()
		}
		tp.mu.Unlock()
		tp.wg.Wait()
	})
	return tp
}

func (tp *tcpTap) openConns() int {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.open
}

// TestClientDisconnectCancelsUpstream: a branch client that goes away mid-stream makes the gateway
// cancel its request to the real Ollama (its connection to Ollama closes), and neither the agent
// nor the gateway leaves a goroutine behind.
func TestClientDisconnectCancelsUpstream(t *testing.T) {
	o := startOllama(t)
	// A model that never stops on its own: z → a closes the alphabet into a cycle.
	cycle := testmodel.Alphabet()
	cycle.Name = "sucursal-cycle"
	cycle.Successor["z"] = "a"
	o.CreateModel(t, "cycle", cycle, testmodel.PromptTemplate)

	tap := startTap(t, strings.TrimPrefix(o.URL, "http://"))
	s := &stack{ollama: o, pki: newPKI(t)}
	s.gateway = startGateway(t, s.pki, "http://"+tap.ln.Addr().String()+"/v1")
	s.url, s.agent = startAgent(t, s.pki, s.gateway)
	waitLink(t, s.agent)

	// Warm up (model loaded, connections made), then take the goroutine baseline.
	if resp, _ := post(t, s.url, []byte(`{"model":"cycle","messages":[{"role":"user","content":"a"}],"max_tokens":2}`)); resp.StatusCode != 200 {
		t.Fatalf("warm-up: %d", resp.StatusCode)
	}
	baseline := goleak.IgnoreCurrent()
	connsBefore := tap.openConns()

	ctx, cancel := context.WithCancel(context.Background())
	body := `{"model":"cycle","stream":true,"max_tokens":100000,"messages":[{"role":"user","content":"a"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	client := httpClient()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(resp.Body)
	for events := 0; events < 5; {
		line, err := rd.ReadBytes('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		if bytes.HasPrefix(line, []byte("data: {")) {
			events++
		}
	}
	// The user goes away mid-stream.
	cancel()
	resp.Body.Close()

	select {
	case <-tap.closed:
	case <-time.After(20 * time.Second):
		t.Fatal("the gateway did not cancel its request to Ollama after the client went away")
	}
	if n := tap.openConns(); n > connsBefore {
		t.Fatalf("%d connections to Ollama still open, %d before the request", n, connsBefore)
	}
	client.CloseIdleConnections()
	goleak.VerifyNone(t, baseline)

	// And the path still serves.
	if resp, _ := post(t, s.url, []byte(`{"model":"tiny","messages":[{"role":"user","content":"a"}],"max_tokens":3}`)); resp.StatusCode != 200 {
		t.Fatalf("after the cancel: %d", resp.StatusCode)
	}
}
