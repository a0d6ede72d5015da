package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/admission"
	"github.com/sucursal/sucursal/internal/apikey"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

type fakeModels struct{}

func (fakeModels) Models(context.Context) (json.RawMessage, error) {
	return json.RawMessage(`{"object":"list","data":[]}`), nil
}

// gate is a pipeline that answers once released, and counts who is inside.
type gate struct {
	mu      sync.Mutex
	inside  int
	release chan struct{}
	err     error
}

func (g *gate) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	g.mu.Lock()
	g.inside++
	g.mu.Unlock()
	defer func() { g.mu.Lock(); g.inside--; g.mu.Unlock() }()
	if g.release != nil {
		select {
		case <-g.release:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if g.err != nil {
		return g.err
	}
	s := "hola"
	return w.WriteCompletion(&chat.Completion{ID: "c", Object: "chat.completion",
		Choices: []chat.Choice{{Message: chat.AnswerMessage{Role: "assistant", Content: chat.TextContent(s)}}}})
}

type env struct {
	url    string
	tokens map[string]string // tenant → key
	keys   *apikey.Store
	file   string
	adm    *admission.Controller
}

func newEnv(t *testing.T, cfg Config, acfg admission.Config, h pipeline.Handler, tenants ...string) *env {
	t.Helper()
	e := &env{tokens: map[string]string{}}
	if len(tenants) > 0 {
		e.file = filepath.Join(t.TempDir(), "keys.yaml")
		var f apikey.File
		for _, tn := range tenants {
			scopes := []string{apikey.ScopeChat}
			if tn == "monitor" {
				scopes = []string{apikey.ScopeMetrics}
			}
			k, tok, err := apikey.Generate(tn, "", scopes, "", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			f.Keys = append(f.Keys, k)
			e.tokens[tn] = tok
		}
		if err := apikey.WriteFile(e.file, f); err != nil {
			t.Fatal(err)
		}
		var err error
		if e.keys, err = apikey.Open(e.file); err != nil {
			t.Fatal(err)
		}
	}
	e.adm = admission.New(acfg, nil)
	reg := prometheus.NewRegistry()
	s := New(cfg, Deps{Chat: h, Models: fakeModels{}, Ready: func() (bool, error) { return true, nil },
		Metrics: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "metrics\n") }),
		Keys:    e.keys, Admission: e.adm, Registerer: reg})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	e.url = srv.URL
	return e
}

const body = `{"model":"m","messages":[{"role":"user","content":"hola"}]}`

type call struct {
	method, path, body, contentType, key, host, origin string
}

func (e *env) do(t *testing.T, c call) (int, string, http.Header) {
	t.Helper()
	if c.method == "" {
		c.method = http.MethodPost
	}
	if c.path == "" {
		c.path = "/v1/chat/completions"
	}
	if c.contentType == "" && c.method == http.MethodPost {
		c.contentType = "application/json"
	}
	req, _ := http.NewRequest(c.method, e.url+c.path, strings.NewReader(c.body))
	if c.contentType != "-" {
		req.Header.Set("Content-Type", c.contentType)
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if c.host != "" {
		req.Host = c.host
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var eb struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(b, &eb)
	return resp.StatusCode, eb.Error.Code, resp.Header
}

func lan() Config {
	c := DefaultConfig()
	c.Listen = "192.0.2.10:8080" // a LAN address: keys required
	c.AllowedHosts = []string{"nuc-0042.branch.example"}
	return c
}

func TestRefusals(t *testing.T) {
	e := newEnv(t, lan(), admission.Config{MaxActive: 4, MaxQueue: 4, MaxWait: time.Second,
		Default: admission.Limits{MaxInputTokens: 1000}}, &gate{}, "ventanilla", "monitor", "gone")
	// Revoke "gone".
	f, _ := apikey.ReadFile(e.file)
	for i := range f.Keys {
		if f.Keys[i].Tenant == "gone" {
			f.Keys[i].Revoked = time.Now()
		}
	}
	_ = apikey.WriteFile(e.file, f)
	_ = e.keys.Reload()
	ok := e.tokens["ventanilla"]
	tests := []struct {
		name   string
		c      call
		status int
		code   string
	}{
		{"a good request", call{body: body, key: ok}, 200, ""},
		{"no key", call{body: body}, 401, CodeMissingAPIKey},
		{"a wrong key", call{body: body, key: ok[:len(ok)-3] + "xyz"}, 401, CodeInvalidAPIKey},
		{"a malformed key", call{body: body, key: "sk-proj-123"}, 401, CodeInvalidAPIKey},
		{"a revoked key", call{body: body, key: e.tokens["gone"]}, 403, CodeAPIKeyRevoked},
		{"a metrics-only key on chat", call{body: body, key: e.tokens["monitor"]}, 403, CodePermissionDenied},
		{"text/plain (a web form's type)", call{body: body, key: ok, contentType: "text/plain"}, 415, CodeUnsupportedMedia},
		{"no content type", call{body: body, key: ok, contentType: "-"}, 415, CodeUnsupportedMedia},
		{"json with a charset", call{body: body, key: ok, contentType: "application/json; charset=utf-8"}, 200, ""},
		{"a body over the limit", call{body: `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("x", DefaultMaxBodyBytes) + `"}]}`, key: ok}, 413, chat.CodeRequestTooLarge},
		{"a prompt over max_input_tokens", call{body: `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("palabra ", 800) + `"}]}`, key: ok}, 400, admission.CodeInputTooLong},
		{"a foreign Host (DNS rebinding)", call{body: body, key: ok, host: "evil.example"}, 403, CodeHostNotAllowed},
		{"an allowed LAN name", call{body: body, key: ok, host: "nuc-0042.branch.example:8080"}, 200, ""},
		{"a page on another site", call{body: body, key: ok, origin: "https://evil.example"}, 403, CodeOriginNotAllowed},
		{"metrics without a key", call{method: "GET", path: "/metrics"}, 403, CodePermissionDenied},
		{"metrics with a chat key", call{method: "GET", path: "/metrics", key: ok}, 403, CodePermissionDenied},
		{"metrics with a metrics key", call{method: "GET", path: "/metrics", key: e.tokens["monitor"]}, 200, ""},
		{"models without a key", call{method: "GET", path: "/v1/models"}, 401, CodeMissingAPIKey},
		{"healthz is open", call{method: "GET", path: "/healthz"}, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, code, h := e.do(t, tt.c)
			if status != tt.status || code != tt.code {
				t.Fatalf("got %d %q, want %d %q", status, code, tt.status, tt.code)
			}
			if got := h.Get("WWW-Authenticate"); (status == 401) != (got != "") {
				t.Fatalf("status %d with WWW-Authenticate %q: a 401 must say how to authenticate, nothing else may", status, got)
			}
		})
	}
}

// /readyz tells anyone whether the branch is ready, and only operators why and which routes.
func TestReadyzDetails(t *testing.T) {
	e := newEnv(t, lan(), admission.DefaultConfig(), &gate{}, "ventanilla", "monitor")
	s := New(lan(), Deps{Chat: &gate{}, Models: fakeModels{}, Ready: func() (bool, error) { return false, context.DeadlineExceeded },
		Keys: e.keys, Registerer: prometheus.NewRegistry()})
	s.SetReadyDetail(func() any { return []string{"dc-primary: open"} })
	srv := httptest.NewServer(s)
	defer srv.Close()
	get := func(key string) map[string]any {
		req, _ := http.NewRequest("GET", srv.URL+"/readyz", nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 503 {
			t.Fatalf("not ready must be 503, got %d", resp.StatusCode)
		}
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return m
	}
	for _, key := range []string{"", e.tokens["ventanilla"]} {
		if m := get(key); m["status"] != "not_ready" || m["backends"] != nil || m["reason"] != nil {
			t.Fatalf("a caller without the metrics scope saw details: %v", m)
		}
	}
	if m := get(e.tokens["monitor"]); m["backends"] == nil || m["reason"] == nil {
		t.Fatalf("an operator did not see the details: %v", m)
	}
}

func TestCORS(t *testing.T) {
	cfg := DefaultConfig()
	cfg.CORSOrigins = []string{"https://intranet.branch.example"}
	e := newEnv(t, cfg, admission.DefaultConfig(), &gate{})
	status, _, h := e.do(t, call{method: http.MethodOptions, origin: "https://intranet.branch.example"})
	if status != 204 || h.Get("Access-Control-Allow-Origin") != "https://intranet.branch.example" || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Fatalf("preflight: %d %v", status, h)
	}
	if status, code, _ := e.do(t, call{method: http.MethodOptions, origin: "https://evil.example"}); status != 403 || code != CodeOriginNotAllowed {
		t.Fatalf("foreign preflight: %d %s", status, code)
	}
	if status, _, h := e.do(t, call{body: body, origin: "https://intranet.branch.example"}); status != 200 || h.Get("Access-Control-Allow-Origin") == "" {
		t.Fatalf("allowed origin: %d", status)
	}
	// With no cors_origins at all (the default), any page is refused.
	e = newEnv(t, DefaultConfig(), admission.DefaultConfig(), &gate{})
	if status, code, _ := e.do(t, call{body: body, origin: "http://localhost:3000"}); status != 403 || code != CodeOriginNotAllowed {
		t.Fatalf("default: %d %s", status, code)
	}
}

// 429 for the caller's own limits, 503 when the branch is full, each with Retry-After; a request
// that gives up frees its slot at once.
func TestAdmissionRefusalsAndCancellation(t *testing.T) {
	g := &gate{release: make(chan struct{})}
	e := newEnv(t, lan(), admission.Config{MaxActive: 2, MaxQueue: 1, MaxWait: 200 * time.Millisecond,
		Default: admission.Limits{MaxActive: 1}}, g, "a", "b", "c", "d")
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{}, 4)
	send := func(ctx context.Context, key string) {
		req, _ := http.NewRequestWithContext(ctx, "POST", e.url+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		started <- struct{}{}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}
	go send(ctx, e.tokens["a"]) // takes a slot, held until cancelled
	go send(context.Background(), e.tokens["b"])
	<-started
	<-started
	waitInside(t, g, 2)
	status, code, h := e.do(t, call{body: body, key: e.tokens["a"]})
	if status != 429 || code != admission.CodeTooConcurrent || h.Get("Retry-After") == "" {
		t.Fatalf("the tenant's own limit: %d %s %v", status, code, h)
	}
	status, code, h = e.do(t, call{body: body, key: e.tokens["c"]})
	if status != 503 || code != admission.CodeQueueTimeout || h.Get("Retry-After") == "" {
		t.Fatalf("the branch full: %d %s", status, code)
	}
	cancel() // a's client goes away: its slot must free at once
	waitInside(t, g, 1)
	go func() { time.Sleep(50 * time.Millisecond); close(g.release) }()
	if status, code, _ := e.do(t, call{body: body, key: e.tokens["d"]}); status != 200 {
		t.Fatalf("after the cancellation a new request must get the freed slot: %d %s", status, code)
	}
}

func waitInside(t *testing.T, g *gate, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		g.mu.Lock()
		in := g.inside
		g.mu.Unlock()
		if in == n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%d requests inside the pipeline, want %d", g.inside, n)
}

func TestLANWithoutKeysRefusesToStart(t *testing.T) {
	c := DefaultConfig()
	c.Listen = "0.0.0.0:8080"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "insecure-no-auth") {
		t.Fatalf("got %v", err)
	}
	c.Auth.InsecureNoAuth = true
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Auth = AuthConfig{KeysFile: "/etc/sucursal/api-keys.yaml"}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}
