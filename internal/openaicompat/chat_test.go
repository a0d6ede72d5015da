package openaicompat

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/chat"
)

// TestChatCompletion: what a structured-output call puts on the wire (non-streamed even when the
// caller's request says otherwise, response_format as given, the bearer token) and how each kind
// of answer comes back.
func TestChatCompletion(t *testing.T) {
	schema, err := chat.ParseJSON([]byte(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`))
	if err != nil {
		t.Fatal(err)
	}
	temp, maxTok := 0.0, int64(16)
	req := &chat.Request{
		Model:         "ner",
		Messages:      []chat.Message{{Role: "system", Content: chat.TextContent("extract")}, {Role: "user", Content: chat.TextContent("SECRET text")}},
		Stream:        true,
		StreamOptions: &chat.StreamOptions{},
		Temperature:   &temp,
		MaxTokens:     &maxTok,
		ResponseFormat: &chat.ResponseFormat{Type: "json_schema",
			JSONSchema: &chat.JSONSchema{Name: "out", Schema: &schema}},
	}
	const wantBody = `{"model":"ner","messages":[{"role":"system","content":"extract"},{"role":"user","content":"SECRET text"}],` +
		`"temperature":0,"max_tokens":16,"response_format":{"type":"json_schema","json_schema":{"name":"out",` +
		`"schema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}}}`

	tests := []struct {
		name    string
		status  int
		answer  string
		content string
		finish  string
		errIs   error
		status2 int // the *chat.Error status, when the target refused
	}{
		{name: "completion", status: 200, answer: `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop",` +
			`"message":{"role":"assistant","content":"{\"a\":\"b\"}"}}],"timings":{"prompt_n":3}}`, content: `{"a":"b"}`, finish: "stop"},
		{name: "cut at max_tokens", status: 200, answer: `{"choices":[{"finish_reason":"length","message":{"role":"assistant","content":"{\"a\":\"bb"}}]}`,
			content: `{"a":"bb`, finish: "length"},
		{name: "not a completion", status: 200, answer: `SECRET text echoed`, errIs: ErrBadCompletion},
		{name: "target refuses", status: 400, answer: `{"error":{"message":"context too long","type":"invalid_request_error"}}`, status2: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" ||
					r.Header.Get("Content-Type") != "application/json" {
					t.Errorf("request %s %s auth %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
				}
				if string(b) != wantBody {
					t.Errorf("body\n got %s\nwant %s", b, wantBody)
				}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.answer)
			}))
			defer srv.Close()
			c := New(srv.URL+"/v1/", "k")
			got, err := c.ChatCompletion(context.Background(), req)
			switch {
			case tt.errIs != nil:
				if !errors.Is(err, tt.errIs) || strings.Contains(err.Error(), "SECRET") {
					t.Fatalf("err = %v, want %v without the body", err, tt.errIs)
				}
			case tt.status2 != 0:
				var ce *chat.Error
				if !errors.As(err, &ce) || ce.Status != tt.status2 {
					t.Fatalf("err = %v, want the target's %d", err, tt.status2)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Choices) != 1 || got.Choices[0].Message.Content.String() != tt.content ||
					got.Choices[0].FinishReason == nil || *got.Choices[0].FinishReason != tt.finish {
					b, _ := json.Marshal(got)
					t.Fatalf("completion %s", b)
				}
			}
		})
	}
	if !req.Stream || req.StreamOptions == nil {
		t.Error("ChatCompletion changed the caller's request")
	}
}

func TestChatCompletionUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := New(url, "").ChatCompletion(context.Background(), &chat.Request{Model: "m"})
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New(url, "").ChatCompletion(ctx, &chat.Request{Model: "m"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the context's", err)
	}
}
