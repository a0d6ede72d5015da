package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
)

// buildAgent builds this command into dir: the tests below run it as branch IT's systemd would.
func buildAgent(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "edge-agent")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build edge-agent: %v\n%s", err, out)
	}
	return bin
}

// tap keeps the request bodies a target received: what reached the datacenter.
type tap struct {
	mu     sync.Mutex
	bodies []string
}

func (tp *tap) last() string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if len(tp.bodies) == 0 {
		return ""
	}
	return tp.bodies[len(tp.bodies)-1]
}

// pacedTarget is an OpenAI-compatible model server whose answers stream one piece every 50 ms:
// model "short" answers 10 pieces, model "endless" streams until the request is cancelled. It
// records every body in tp (nil: none).
func pacedTarget(t *testing.T, tp *tap) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
		}
		body, _ := io.ReadAll(r.Body)
		if tp != nil {
			tp.mu.Lock()
			tp.bodies = append(tp.bodies, string(body))
			tp.mu.Unlock()
		}
		if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil {
			http.Error(w, `{"error":{"message":"unexpected request","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(content, finish string) {
			f := "null"
			if finish != "" {
				f = `"` + finish + `"`
			}
			fmt.Fprintf(w, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":%q,"choices":[{"index":0,"delta":{"content":%q},"finish_reason":%s}]}`+"\n\n", req.Model, content, f)
			w.(http.Flusher).Flush()
		}
		for i := 0; req.Model == "endless" || i < 10; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
			chunk(string(rune('a'+i%26)), "")
		}
		chunk("", "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// startGateway runs a dc-gateway in-process in front of target.
func startGateway(t *testing.T, pkiDir, target string) string {
	t.Helper()
	tlsConf, err := pki.ServerTLS(pkiDir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := gateway.New(gateway.Config{Target: openaicompat.New(target, "")}, tlsConf, prometheus.NewRegistry(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); ln.Close(); <-done })
	return ln.Addr().String()
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// agentProcess is a running edge-agent binary and its log.
type agentProcess struct {
	cmd    *exec.Cmd
	url    string
	mu     sync.Mutex
	log    bytes.Buffer
	exited chan error
}

func (p *agentProcess) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.Write(b)
}

func (p *agentProcess) logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// startAgentProcess runs the binary with a config file holding yaml (and the edge's basics) and
// waits until its link to the gateway is up.
func startAgentProcess(t *testing.T, bin, pkiDir, gw, extra string) (*agentProcess, string) {
	t.Helper()
	addr := freeAddr(t)
	cfgFile := filepath.Join(t.TempDir(), "edge-agent.yaml")
	yaml := fmt.Sprintf("listen: %s\nedge_id: branch-0001\ndc: %s\ndc_server_name: localhost\npki: %s\n%s", addr, gw, pkiDir, extra)
	if err := os.WriteFile(cfgFile, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &agentProcess{url: "http://" + addr, exited: make(chan error, 1)}
	p.cmd = exec.Command(bin, "--config", cfgFile)
	p.cmd.Env = []string{"PATH=" + os.Getenv("PATH")} // no EDGE_AGENT_* from the test's environment
	p.cmd.Stdout, p.cmd.Stderr = p, p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("edge-agent log:\n%s", p.logs())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(p.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, cfgFile
			}
		}
		select {
		case err := <-p.exited:
			t.Fatalf("edge-agent exited before it was ready: %v\n%s", err, p.logs())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("edge-agent not ready within 60 s\n%s", p.logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stream is one streamed chat request, read event by event.
type stream struct {
	first  chan struct{} // closed at the first event
	events []string      // every data: payload, in order
	err    error
	done   chan struct{}
}

func startStream(url, model string) *stream { return startStreamSaying(url, model, "hola") }

func startStreamSaying(url, model, prompt string) *stream {
	s := &stream{first: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		body := `{"model":"` + model + `","stream":true,"messages":[{"role":"user","content":"` + prompt + `"}]}`
		resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			s.err = err
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			s.err = fmt.Errorf("status %d: %s", resp.StatusCode, b)
			return
		}
		sc := bufio.NewScanner(resp.Body)
		once := sync.Once{}
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				s.events = append(s.events, d)
				once.Do(func() { close(s.first) })
			}
		}
		s.err = sc.Err()
	}()
	return s
}

func (s *stream) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: the stream did not end", what)
	}
	if s.err != nil {
		t.Fatalf("%s: %v", what, s.err)
	}
}

// SIGTERM during two streams: the one that ends within shutdown_grace ends as usual ([DONE]); the
// one that does not ends with a terminal shutting_down error event; requests arriving after the
// signal are refused; the process exits 0.
func TestSIGTERMDrainsThenEndsStreams(t *testing.T) {
	dir := t.TempDir()
	bin := buildAgent(t, dir)
	pkiDir := filepath.Join(dir, "pki")
	if _, err := pki.Init(pki.Options{Dir: pkiDir, Edges: []string{"branch-0001"}}); err != nil {
		t.Fatal(err)
	}
	gw := startGateway(t, pkiDir, pacedTarget(t, nil))
	p, _ := startAgentProcess(t, bin, pkiDir, gw, "shutdown_grace: 3s\n")

	short, endless := startStream(p.url, "short"), startStream(p.url, "endless")
	for _, s := range []*stream{short, endless} {
		select {
		case <-s.first:
		case <-s.done:
			t.Fatalf("a stream ended before its first event: %v %q", s.err, s.events)
		case <-time.After(30 * time.Second):
			t.Fatal("no first event within 30 s")
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}

	// After the signal a new request is refused: the listener is closed (connection refused, or
	// reset for a connection the kernel had queued) or, on a connection that raced it, 503
	// shutting_down with Retry-After. Until the agent has seen
	// the signal it may still be served, so ask until it is refused.
	refused := ""
	for deadline := time.Now().Add(30 * time.Second); refused == "" && time.Now().Before(deadline); {
		req, _ := http.NewRequest(http.MethodPost, p.url+"/v1/chat/completions", strings.NewReader(`{"model":"short","stream":true,"messages":[{"role":"user","content":"hola"}]}`))
		req.Header.Set("Content-Type", "application/json")
		req.Close = true
		resp, err := http.DefaultClient.Do(req)
		var op *net.OpError
		switch {
		case errors.As(err, &op) && op.Op == "dial":
			refused = "connection refused"
		case errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET):
			// A connection the kernel had queued when the listener closed: reset, never served.
			refused = "connection reset"
		case err != nil:
			t.Fatalf("a request after SIGTERM: %v", err)
		default:
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable {
				if !strings.Contains(string(b), `"code":"shutting_down"`) || resp.Header.Get("Retry-After") == "" {
					t.Fatalf("a request after SIGTERM: 503 without shutting_down and Retry-After: %s %v", b, resp.Header)
				}
				refused = "503 shutting_down"
			} else if resp.StatusCode != http.StatusOK {
				t.Fatalf("a request after SIGTERM: status %d: %s", resp.StatusCode, b)
			}
		}
	}
	if refused == "" {
		t.Fatal("requests after SIGTERM were still served 30 s later")
	}
	t.Logf("a request after SIGTERM: %s", refused)

	short.wait(t, "short")
	if last := short.events[len(short.events)-1]; last != "[DONE]" || strings.Contains(strings.Join(short.events, "\n"), `"error"`) {
		t.Fatalf("the stream that fits in the grace period did not finish: %q", short.events)
	}
	endless.wait(t, "endless")
	last := endless.events[len(endless.events)-1]
	var ev struct {
		Error struct {
			Message, Type string
			Code          string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(last), &ev); err != nil || ev.Error.Code != "shutting_down" || ev.Error.Type != "api_error" || ev.Error.Message == "" {
		t.Fatalf("the stream past the grace period ended with %q, want a shutting_down error event", last)
	}
	for _, e := range endless.events {
		if e == "[DONE]" {
			t.Fatal("a stream cut at shutdown said [DONE]")
		}
	}

	select {
	case err := <-p.exited:
		if err != nil {
			t.Fatalf("edge-agent exit: %v, want status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("edge-agent did not exit within 30 s of SIGTERM")
	}
	logs := p.logs()
	for _, want := range []string{"letting the ones in flight finish", "shutdown grace period over", "stopped serving"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	if strings.Contains(logs, "hola") {
		t.Error("the log holds prompt text")
	}
}
