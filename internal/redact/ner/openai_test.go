package ner_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/redact/ner"
)

const secretText = "el cliente Jon Arrizabalaga, de Zumarraga, con DNI 12345678Z pide su saldo."

// chatStub stands in for an OpenAI-compatible server (llama-server, OVMS /v3): it checks every
// request has the shape the backend promises and answers what the test sets.
type chatStub struct {
	t      *testing.T
	status atomic.Int64
	answer atomic.Value // string: the body
	calls  atomic.Int64
}

func newChatStub(t *testing.T) (*chatStub, *httptest.Server) {
	s := &chatStub{t: t}
	s.status.Store(200)
	s.answer.Store(completion(`{"entities":[]}`, "stop"))
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	return s, srv
}

func completion(content, finish string) string {
	b, _ := json.Marshal(map[string]any{"object": "chat.completion", "choices": []any{
		map[string]any{"index": 0, "finish_reason": finish, "message": map[string]any{"role": "assistant", "content": content}}}})
	return string(b)
}

func (s *chatStub) serve(w http.ResponseWriter, r *http.Request) {
	s.calls.Add(1)
	b, _ := io.ReadAll(r.Body)
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role, Content string
		} `json:"messages"`
		Temperature    *float64 `json:"temperature"`
		MaxTokens      int      `json:"max_tokens"`
		Stream         bool     `json:"stream"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string          `json:"name"`
				Schema json.RawMessage `json:"schema"`
				Strict bool            `json:"strict"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(b, &req); err != nil {
		s.t.Errorf("request is not JSON: %v", err)
	}
	rf := req.ResponseFormat
	switch {
	case r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost:
		s.t.Errorf("request %s %s", r.Method, r.URL.Path)
	case r.Header.Get("Authorization") != "Bearer k":
		s.t.Errorf("authorization %q", r.Header.Get("Authorization"))
	case req.Model != "ner-model" || req.Stream || req.Temperature == nil || *req.Temperature != 0 || req.MaxTokens != ner.DefaultMaxTokens:
		s.t.Errorf("request %s", b)
	case len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[0].Content != ner.Instruction ||
		req.Messages[1].Role != "user" || req.Messages[1].Content != secretText:
		s.t.Errorf("messages %+v: want the instruction, then the text alone", req.Messages)
	case rf.Type != "json_schema" || rf.JSONSchema.Name != "entities" || !rf.JSONSchema.Strict || string(rf.JSONSchema.Schema) != ner.Schema:
		s.t.Errorf("response_format %s", b)
	}
	w.WriteHeader(int(s.status.Load()))
	io.WriteString(w, s.answer.Load().(string))
}

func newOpenAI(t *testing.T, url string) redact.NER {
	t.Helper()
	b, err := ner.New(redact.NERConfig{Mode: redact.NERRequired, Backend: "openai", URL: url + "/v1", Model: "ner-model", APIKey: "k"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenAIEntities(t *testing.T) {
	stub, srv := newChatStub(t)
	backend := newOpenAI(t, srv.URL)
	tests := []struct {
		name    string
		status  int
		answer  string
		want    []string // "TYPE:text"
		errIs   error
		errText string
	}{
		{name: "entities", status: 200, answer: completion(`{"entities":[{"text":"Jon Arrizabalaga","type":"PERSON"},`+
			`{"text":"Zumarraga","type":"LOC"},{"text":"x","type":"DATE"}]}`, "stop"),
			want: []string{"PERSON:Jon Arrizabalaga", "LOCATION:Zumarraga"}},
		{name: "grammar trailing whitespace", status: 200, answer: completion("{\"entities\":[]}\n ", "stop")},
		{name: "cut at max_tokens", status: 200, answer: completion(`{"entities":[{"text":"Jon Arriz`, "length"), errIs: ner.ErrBadAnswer, errText: "finish_reason length, max_tokens 512"},
		{name: "content not JSON", status: 200, answer: completion("Jon Arrizabalaga is a person", "stop"), errIs: ner.ErrBadAnswer},
		{name: "body not a completion", status: 200, answer: "<html>" + secretText, errIs: ner.ErrBadAnswer},
		{name: "no choices", status: 200, answer: `{"choices":[]}`, errIs: ner.ErrBadAnswer},
		{name: "server error quoting the text", status: 400, answer: `{"error":{"message":"bad: ` + secretText + `"}}`, errText: "status 400"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub.status.Store(int64(tt.status))
			stub.answer.Store(tt.answer)
			spans, err := backend.Entities(context.Background(), secretText)
			if tt.errIs != nil || tt.errText != "" {
				if err == nil || (tt.errIs != nil && !errors.Is(err, tt.errIs)) || !strings.Contains(err.Error(), tt.errText) {
					t.Fatalf("err = %v, want %v %q", err, tt.errIs, tt.errText)
				}
				if strings.Contains(err.Error(), "Arrizabalaga") || strings.Contains(err.Error(), "12345678Z") {
					t.Fatalf("error carries the text: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range spans {
				got = append(got, s.Type+":"+s.Text)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("spans %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOpenAIUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := newOpenAI(t, url).Entities(context.Background(), secretText)
	if err == nil || strings.Contains(err.Error(), "Arrizabalaga") {
		t.Fatalf("err = %v", err)
	}
}

// TestOpenAIInTheRedactor: the backend inside the real redactor. Exact substrings are added to what
// the rules find, an invented name is dropped and counted; a garbage answer or a dead server
// degrades the session (fallback-degraded, counted) or refuses the text (required).
func TestOpenAIInTheRedactor(t *testing.T) {
	stub, srv := newChatStub(t)
	backend := newOpenAI(t, srv.URL)
	newRedactor := func(mode string) (*redact.Redactor, *prometheus.Registry) {
		cfg := redact.DefaultConfig()
		cfg.Names = false // only the model finds names here
		cfg.NER = redact.NERConfig{Mode: mode, Timeout: 5 * time.Second, Backend: "openai", URL: srv.URL + "/v1", Model: "ner-model"}
		reg := prometheus.NewRegistry()
		r, err := redact.New(cfg, backend, reg, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r, reg
	}
	stub.answer.Store(completion(`{"entities":[{"text":"Jon Arrizabalaga","type":"PERSON"},{"text":"Zumarraga","type":"LOCATION"},`+
		`{"text":"Pedro Inventado","type":"PERSON"}]}`, "stop"))
	for _, mode := range []string{redact.NERFallbackDegraded, redact.NERRequired} {
		r, _ := newRedactor(mode)
		s := r.NewSession(0)
		out, err := s.Redact(context.Background(), secretText)
		if err != nil {
			t.Fatal(err)
		}
		if want := "el cliente @@PERSON-1@@, de @@LOCATION-1@@, con DNI @@DNI-1@@ pide su saldo."; out != want {
			t.Errorf("%s: redacted %q, want %q", mode, out, want)
		}
		if st := s.Stats(); st.Degraded || st.NERRejected != 1 {
			t.Errorf("%s: stats %+v, want one rejected span and not degraded", mode, st)
		}
		s.Close()
	}

	for _, broken := range []struct {
		name   string
		status int
		answer string
	}{
		{"garbage", 200, completion("not json at all", "stop")},
		{"cut", 200, completion(`{"entities":[{"text":"Jon`, "length")},
		{"server error", 503, `{"error":{"message":"loading model"}}`},
	} {
		stub.status.Store(int64(broken.status))
		stub.answer.Store(broken.answer)

		r, reg := newRedactor(redact.NERFallbackDegraded)
		s := r.NewSession(0)
		out, err := s.Redact(context.Background(), secretText)
		if err != nil {
			t.Fatalf("%s: fallback-degraded must answer: %v", broken.name, err)
		}
		if want := "el cliente Jon Arrizabalaga, de Zumarraga, con DNI @@DNI-1@@ pide su saldo."; out != want || !s.Stats().Degraded {
			t.Errorf("%s: %q degraded=%v, want the rules' redaction, degraded", broken.name, out, s.Stats().Degraded)
		}
		s.Close()
		if n := fallbacks(t, reg, "degraded"); n != 1 {
			t.Errorf("%s: ner_fallbacks_total{outcome=degraded} = %v, want 1", broken.name, n)
		}

		r, reg = newRedactor(redact.NERRequired)
		s = r.NewSession(0)
		out, err = s.Redact(context.Background(), secretText)
		if !errors.Is(err, redact.ErrNERUnavailable) || out != "" || strings.Contains(err.Error(), "Arrizabalaga") {
			t.Errorf("%s: required: out=%q err=%v, want ErrNERUnavailable and nothing", broken.name, out, err)
		}
		s.Close()
		if n := fallbacks(t, reg, "refused"); n != 1 {
			t.Errorf("%s: ner_fallbacks_total{outcome=refused} = %v, want 1", broken.name, n)
		}
	}
}

func fallbacks(t *testing.T, reg *prometheus.Registry, outcome string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "sucursal_redact_ner_fallbacks_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == outcome {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}
