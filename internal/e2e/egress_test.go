package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/redact/corpus"
)

// echoTarget is an OpenAI-compatible target in the "datacenter" that records every request body it
// receives — everything that left the branch — and answers with the last user message, streamed
// in small chunks cut at every possible place (placeholders split across chunks at any byte).
type echoTarget struct {
	mu       sync.Mutex
	captured [][]byte
}

func (e *echoTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		// The gateway's own health probe (GET /models): carries nothing from a branch.
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"echo","object":"model","created":1,"owned_by":"test"}]}`)
		return
	}
	body, _ := io.ReadAll(r.Body)
	e.mu.Lock()
	e.captured = append(e.captured, body)
	e.mu.Unlock()
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error","code":"bad"}}`, 400)
		return
	}
	answer := req.Messages[len(req.Messages)-1].Content
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "echo", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": answer}}},
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{"id": "echo", "object": "chat.completion.chunk", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	for i, size := 0, 1; i < len(answer); size = size%7 + 1 {
		j := min(i+size, len(answer))
		for j < len(answer) && !utf8.RuneStart(answer[j]) {
			j++ // never split a multi-byte character (JSON strings must stay valid UTF-8)
		}
		chunk(map[string]any{"content": answer[i:j]}, nil)
		i = j
	}
	chunk(map[string]any{}, "stop")
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// TestEgressAudit: the labelled corpus of branch prompts goes through edge-agent → QUIC →
// dc-gateway → a capturing target that echoes the prompt. What the target received must hold no
// labelled value in any form; what the user got back must be the original text exactly.
func TestEgressAudit(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "redact", "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	items, err := corpus.ReadJSONL(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(items) < 200 {
		t.Fatalf("the corpus has %d items; the audit needs at least 200", len(items))
	}
	echo := &echoTarget{}
	target := httptest.NewServer(echo)
	defer target.Close()
	pkiDir := newPKI(t)
	gw := startGateway(t, pkiDir, target.URL+"/v1")
	url, a := startAgent(t, pkiDir, gw)
	waitLink(t, a)

	leaks, mismatches, entities := 0, 0, 0
	for i, it := range items {
		stream := i%2 == 0
		body, _ := json.Marshal(map[string]any{"model": "echo", "stream": stream,
			"messages": []any{map[string]any{"role": "user", "content": it.Text}}})
		resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", it.ID, resp.StatusCode, raw)
		}
		got := answerText(t, raw, stream)
		if got != it.Text {
			mismatches++
			t.Errorf("%s (stream=%v): the user did not get the original text back", it.ID, stream)
		}
		echo.mu.Lock()
		captured := echo.captured[len(echo.captured)-1]
		echo.mu.Unlock()
		var sent struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(captured, &sent)
		entities += len(it.Entities)
		// Check both the bytes on the wire and the decoded text (JSON escapes could hide a value).
		for _, form := range []string{string(captured), sent.Messages[0].Content} {
			if l := corpus.Leaks(form, it); len(l) > 0 {
				leaks++
				t.Errorf("%s: %d labelled value(s) of type(s) %v left the branch", it.ID, len(l), leakTypes(it, l))
				break
			}
		}
	}
	t.Logf("audited %d prompts with %d labelled values: %d leaked, %d not restored exactly", len(items), entities, leaks, mismatches)
}

func leakTypes(it corpus.Item, leaked []string) []string {
	var types []string
	for _, l := range it.Entities {
		for _, v := range leaked {
			if strings.Contains(v, l.Value) || strings.Contains(l.Value, v) {
				types = append(types, l.Type)
			}
		}
	}
	return types
}

// answerText reads the assistant text out of a streamed or whole answer.
func answerText(t *testing.T, raw []byte, stream bool) string {
	t.Helper()
	if !stream {
		var c struct {
			Choices []struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(raw, &c); err != nil || len(c.Choices) == 0 {
			t.Fatalf("unreadable completion: %v", err)
		}
		return c.Choices[0].Message.Content
	}
	var b strings.Builder
	done := false
	for _, line := range strings.Split(string(raw), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					Content *string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("unreadable chunk: %v", err)
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				b.WriteString(*ch.Delta.Content)
			}
		}
	}
	if !done {
		t.Fatalf("the stream did not end with [DONE]")
	}
	return b.String()
}
