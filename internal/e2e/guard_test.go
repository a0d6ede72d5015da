package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/guardsetup"
	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// verdictMarker ends every guard prompt (the guard models' TEMPLATE), so a generated guard model's
// greedy answer is its fixed verdict whatever the text.
const verdictMarker = "\n[verdict]"

// Generated stand-ins for Llama Guard: real GGUF models on a real Ollama whose answers we chose, so
// every expectation below follows from the policy, not from the code under test.
var guardModels = map[string]string{
	"guard-safe":      "safe",
	"guard-unsafe-s2": "unsafe\nS2",
}

func createGuardModels(t testing.TB, o *ollamatest.Server) {
	t.Helper()
	for name, out := range guardModels {
		o.CreateModel(t, name, testmodel.FixedOutput(verdictMarker, out), testmodel.FixedOutputTemplate(verdictMarker))
	}
}

// capture is a reverse proxy in front of a real server that keeps every request body: what the
// datacenter received.
type capture struct {
	mu     sync.Mutex
	bodies []string
	URL    string
}

func newCapture(t testing.TB, upstream string) *capture {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	c := &capture{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodGet { // GETs are the gateway's health probes: nothing from a branch
			c.mu.Lock()
			c.bodies = append(c.bodies, string(b))
			c.mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

func (c *capture) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.bodies...)
}

func (c *capture) count() int { return len(c.all()) }

// guardEnv is the datacenter (one real Ollama serving the target model and the DC guard models,
// each behind its own capture) and the branch's own guard server (another real Ollama, which the
// tests stop).
type guardEnv struct {
	dc, local      *ollamatest.Server
	targetIn, dcIn *capture
	pki            string
}

func newGuardEnv(t testing.TB) *guardEnv {
	dc := startOllama(t)
	createGuardModels(t, dc)
	local := ollamatest.Start(t)
	createGuardModels(t, local)
	return &guardEnv{dc: dc, local: local, targetIn: newCapture(t, dc.URL), dcIn: newCapture(t, dc.URL), pki: newPKI(t)}
}

// start runs a gateway (with dcGuardModel as its guard, "" for none) and an agent with gc.
func (e *guardEnv) start(t testing.TB, gc guardsetup.Config, dcGuardModel string) string {
	t.Helper()
	tlsConf, err := pki.ServerTLS(e.pki)
	if err != nil {
		t.Fatal(err)
	}
	cfg := gateway.Config{Target: openaicompat.New(e.targetIn.URL+"/v1", "")}
	if dcGuardModel != "" {
		if cfg.Guard, err = guardsetup.DCClassifier(e.dcIn.URL+"/v1", dcGuardModel, "", "safety", nil); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := gateway.New(cfg, tlsConf, prometheus.NewRegistry(), testLogger())
	if err != nil {
		t.Fatal(err)
	}
	url, a := startAgent(t, e.pki, serveGateway(t, srv, "127.0.0.1:0").addr, func(c *agent.Config) { c.Guard = gc })
	waitLink(t, a)
	return url
}

// localGuard is a guard section with one Llama Guard stand-in on the branch's Ollama.
func (e *guardEnv) localGuard(p guard.Policy, classifiers ...guardsetup.ClassifierConfig) guardsetup.Config {
	for i := range classifiers {
		classifiers[i].Backend, classifiers[i].URL, classifiers[i].Kind = "ollama", e.local.URL, "safety"
	}
	return guardsetup.Config{Enabled: true, Policy: &guardsetup.InlinePolicy{Policy: p}, Classifiers: classifiers}
}

type answer struct {
	status  int
	header  http.Header
	body    string // non-streamed body, or the concatenated content of a stream
	events  []string
	done    bool // the stream ended with [DONE]
	errCode string
}

// ask posts one chat request and reads the answer, streamed or not.
func ask(t *testing.T, baseURL, prompt string, stream bool) answer {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "tiny", "stream": stream, "max_tokens": 8,
		"messages": []map[string]string{{"role": "user", "content": prompt}}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/v1/chat/completions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, header: resp.Header}
	if !stream || resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		a.body = string(b)
		var e struct {
			Error   struct{ Code string } `json:"error"`
			Choices []struct {
				Message struct{ Content string } `json:"message"`
			} `json:"choices"`
		}
		_ = json.Unmarshal(b, &e)
		a.errCode = e.Error.Code
		if len(e.Choices) > 0 {
			a.body = e.Choices[0].Message.Content
		}
		return a
	}
	sc := bufio.NewScanner(resp.Body)
	var content strings.Builder
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if line == "[DONE]" {
			a.done = true
			continue
		}
		a.events = append(a.events, line)
		var ev struct {
			Error   *struct{ Code string } `json:"error"`
			Choices []struct {
				Delta struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("an SSE event is not JSON: %v", err)
		}
		if ev.Error != nil {
			a.errCode = ev.Error.Code
		}
		for _, c := range ev.Choices {
			content.WriteString(c.Delta.Content)
		}
	}
	a.body = content.String()
	return a
}

func guardMetric(t *testing.T, baseURL, series string) bool {
	t.Helper()
	resp, err := httpClient().Get(baseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, series+" ") && !strings.HasSuffix(line, " 0") {
			return true
		}
	}
	return false
}

// TestGuardEndToEnd: branch user → edge-agent (guard on a real Ollama with generated guard models)
// → QUIC → dc-gateway → real Ollama. The expected answers come from the models' specs.
func TestGuardEndToEnd(t *testing.T) {
	e := newGuardEnv(t)
	spec := testmodel.Alphabet()
	const prompt = "a"
	want := spec.Greedy(prompt, 8)
	syncOut := guard.DefaultPolicy()
	syncOut.Output.Async, syncOut.Output.CheckEvery, syncOut.Output.Window = false, 4, 64

	t.Run("safe prompt and answer pass", func(t *testing.T) {
		url := e.start(t, e.localGuard(syncOut, guardsetup.ClassifierConfig{Name: "llamaguard", Stage: "both", Model: "guard-safe"}), "")
		before := e.targetIn.count()
		for _, stream := range []bool{false, true} {
			a := ask(t, url, prompt, stream)
			if a.status != 200 || a.body != want || (stream && !a.done) {
				t.Fatalf("stream=%v: %d %q (done=%v), want 200 %q", stream, a.status, a.body, a.done, want)
			}
			if h := a.header.Get("X-Sucursal-Guard"); h != "" {
				t.Errorf("stream=%v: guard header %q on a clean pass", stream, h)
			}
		}
		if e.targetIn.count()-before != 2 {
			t.Fatalf("the target got %d requests, want 2", e.targetIn.count()-before)
		}
		for _, stage := range []string{"input", "output"} {
			if !guardMetric(t, url, `sucursal_guard_decisions_total{action="allow",stage="`+stage+`"}`) {
				t.Errorf("no %s guard decision was counted: the %s guard did not run", stage, stage)
			}
		}
	})

	t.Run("unsafe prompt is blocked before it leaves the branch", func(t *testing.T) {
		url := e.start(t, e.localGuard(guard.DefaultPolicy(), guardsetup.ClassifierConfig{Name: "llamaguard", Stage: "input", Model: "guard-unsafe-s2"}), "")
		before := e.targetIn.count()
		for _, stream := range []bool{false, true} {
			a := ask(t, url, prompt, stream)
			if a.status != 400 || a.errCode != "content_policy_violation" {
				t.Fatalf("stream=%v: got %d %s, want 400 content_policy_violation", stream, a.status, a.errCode)
			}
			cat, _ := guard.LookupCategory("S2")
			if !strings.Contains(a.body, cat.Name) || strings.Contains(a.body, "unsafe") {
				t.Errorf("want the category name and not the classifier's output in %s", a.body)
			}
		}
		if n := e.targetIn.count() - before; n != 0 {
			t.Fatalf("%d blocked requests reached the DC target", n)
		}
	})

	t.Run("refusal mode answers as the assistant", func(t *testing.T) {
		p := guard.DefaultPolicy()
		p.OnBlock, p.RefusalMessage = "refusal", "Lo siento, no puedo ayudar con esa solicitud."
		url := e.start(t, e.localGuard(p, guardsetup.ClassifierConfig{Name: "llamaguard", Stage: "input", Model: "guard-unsafe-s2"}), "")
		before := e.targetIn.count()
		for _, stream := range []bool{false, true} {
			a := ask(t, url, prompt, stream)
			if a.status != 200 || a.body != p.RefusalMessage || (stream && !a.done) {
				t.Fatalf("stream=%v: %d %q done=%v, want the refusal", stream, a.status, a.body, a.done)
			}
		}
		if n := e.targetIn.count() - before; n != 0 {
			t.Fatalf("%d refused requests reached the DC target", n)
		}
	})

	t.Run("unsafe answer is cut with a terminal error", func(t *testing.T) {
		// Sync checks every 4 bytes cut mid-answer; the default (async, every 512 bytes) checks this
		// short answer once, at its finish_reason, before the last chunk goes out.
		for _, p := range []guard.Policy{syncOut, guard.DefaultPolicy()} {
			url := e.start(t, e.localGuard(p,
				guardsetup.ClassifierConfig{Name: "llamaguard-in", Stage: "input", Model: "guard-safe"},
				guardsetup.ClassifierConfig{Name: "llamaguard-out", Stage: "output", Model: "guard-unsafe-s2"}), "")
			a := ask(t, url, prompt, true)
			if a.status != 200 || a.errCode != "content_policy_violation" || a.done {
				t.Fatalf("async=%v streamed: %d %s done=%v; want a terminal content_policy_violation event and no [DONE]",
					p.Output.Async, a.status, a.errCode, a.done)
			}
			if !strings.HasPrefix(want, a.body) || (!p.Output.Async && len(a.body) >= len(want)) {
				t.Fatalf("async=%v streamed: the user got %q of %q", p.Output.Async, a.body, want)
			}
			a = ask(t, url, prompt, false)
			if a.status != 400 || a.errCode != "content_policy_violation" {
				t.Fatalf("async=%v non-streamed: %d %s", p.Output.Async, a.status, a.errCode)
			}
		}
	})

	// From here on the branch's guard server is down.
	e.local.Stop(t)
	const dni = "12345678Z"
	pii := "Mi DNI es " + dni + ", a"

	t.Run("guard down, fail closed", func(t *testing.T) {
		url := e.start(t, e.localGuard(guard.DefaultPolicy(), guardsetup.ClassifierConfig{Name: "llamaguard", Stage: "input", Model: "guard-safe"}), "")
		before := e.targetIn.count()
		a := ask(t, url, prompt, true)
		if a.status != 503 || a.errCode != "guard_unavailable" || a.header.Get("Retry-After") == "" {
			t.Fatalf("got %d %s Retry-After=%q", a.status, a.errCode, a.header.Get("Retry-After"))
		}
		if n := e.targetIn.count() - before; n != 0 {
			t.Fatalf("%d requests reached the DC target with the guard down", n)
		}
	})

	t.Run("guard down, fail open", func(t *testing.T) {
		p := guard.DefaultPolicy()
		p.FailMode = guard.FailOpen
		url := e.start(t, e.localGuard(p, guardsetup.ClassifierConfig{Name: "llamaguard", Stage: "input", Model: "guard-safe"}), "")
		a := ask(t, url, prompt, true)
		if a.status != 200 || a.body != want || a.header.Get("X-Sucursal-Guard") != "degraded" {
			t.Fatalf("got %d %q header=%q", a.status, a.body, a.header.Get("X-Sucursal-Guard"))
		}
		if !guardMetric(t, url, `sucursal_guard_fail_open_total{stage="input"}`) {
			t.Error("the fail-open metric did not count the pass")
		}
	})

	t.Run("guard down, DC guard decides on redacted text", func(t *testing.T) {
		for _, tc := range []struct {
			dcModel  string
			kind     string // what the edge asks the DC guard for
			status   int
			wantCode string
		}{
			{"guard-safe", "safety", 200, ""},
			{"guard-unsafe-s2", "safety", 400, "content_policy_violation"},
			{"", "safety", 503, "guard_unavailable"},              // a gateway without a guard: a classifier failure, fail closed
			{"guard-safe", "injection", 503, "guard_unavailable"}, // a guard of another kind: the same
		} {
			gc := e.localGuard(guard.DefaultPolicy(), guardsetup.ClassifierConfig{Name: "llamaguard", Stage: "input", Model: "guard-safe"})
			if tc.kind == "injection" {
				gc.Classifiers[0].Kind = "injection-label" // the local injection model fails over to the DC
			}
			gc.DCFallback, gc.DCFallbackKind = true, tc.kind
			url := e.start(t, gc, tc.dcModel)
			before := len(e.dcIn.all())
			a := ask(t, url, pii, false)
			if a.status != tc.status || a.errCode != tc.wantCode {
				t.Fatalf("dc guard %q: got %d %s, want %d %s", tc.dcModel, a.status, a.errCode, tc.status, tc.wantCode)
			}
			got := e.dcIn.all()[before:]
			if tc.dcModel != "" && tc.kind == "safety" && len(got) == 0 {
				t.Fatalf("dc guard %q was not asked", tc.dcModel)
			}
			for _, b := range got {
				if !strings.Contains(b, "@@DNI-") {
					t.Errorf("the DC guard got a request without the placeholder: %d bytes", len(b))
				}
			}
			if tc.wantCode != "guard_unavailable" && !guardMetric(t, url, `sucursal_guard_failovers_total{classifier="llamaguard",result="ok"}`) {
				t.Error("the failover metric did not count the failover")
			}
		}
		for _, b := range append(e.dcIn.all(), e.targetIn.all()...) {
			if strings.Contains(b, dni) {
				t.Fatal("the DNI reached the datacenter")
			}
		}
	})
}
