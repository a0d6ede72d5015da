package ollamatest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/testmodel"
)

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Stream      bool          `json:"stream"`
	Temperature float64       `json:"temperature"`
	MaxTokens   int           `json:"max_tokens,omitempty"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// completeChat calls /v1/chat/completions and returns the assistant text, joining streamed deltas.
func completeChat(t *testing.T, url string, req chatRequest) string {
	t.Helper()
	body, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("POST /v1/chat/completions: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/chat/completions: %s", resp.Status)
	}
	if !req.Stream {
		var out struct {
			Choices []struct {
				Message chatMessage `json:"message"`
			} `json:"choices"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) != 1 {
			t.Fatalf("decode completion: %v (%d choices)", err, len(out.Choices))
		}
		return out.Choices[0].Message.Content
	}
	var text strings.Builder
	sc := bufio.NewScanner(resp.Body)
	done := false
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			break
		}
		var chunk struct {
			Choices []struct {
				Delta chatMessage `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			t.Fatalf("decode chunk %q: %v", data, err)
		}
		for _, c := range chunk.Choices {
			text.WriteString(c.Delta.Content)
		}
	}
	if err := sc.Err(); err != nil || !done {
		t.Fatalf("stream ended without [DONE]: %v", err)
	}
	return text.String()
}

func TestServerAnswersLikeGreedy(t *testing.T) {
	s := ollamatest.Start(t)
	spec := testmodel.Alphabet()
	s.CreateModel(t, "tiny", spec, testmodel.PromptTemplate)

	for _, tc := range []struct {
		prompt    string
		maxTokens int
	}{
		{"a", 0},
		{"a", 5},
		{"q", 0},
		{"Hello wor", 0},
		{"B", 3},
		{"7", 0},
		{"end.", 0},
		{"café", 0}, // é has no piece: byte fallback, and a byte token is followed by </s>
	} {
		want := spec.Greedy(tc.prompt, limit(tc.maxTokens))
		for _, stream := range []bool{false, true} {
			name := tc.prompt + "/max=" + strconv.Itoa(tc.maxTokens) + "/stream=" + strconv.FormatBool(stream)
			t.Run(name, func(t *testing.T) {
				got := completeChat(t, s.URL, chatRequest{
					Model:     "tiny",
					Messages:  []chatMessage{{Role: "user", Content: tc.prompt}},
					Stream:    stream,
					MaxTokens: tc.maxTokens,
				})
				if got != want {
					t.Errorf("answer = %q, Greedy = %q", got, want)
				}
			})
		}
	}
}

func limit(maxTokens int) int {
	if maxTokens == 0 {
		return 1 << 20
	}
	return maxTokens
}

func TestStopRefusesAndRestartKeepsModels(t *testing.T) {
	s := ollamatest.Start(t)
	spec := testmodel.Alphabet()
	s.CreateModel(t, "tiny", spec, "")
	port := s.Port

	s.Stop(t)
	if s.Running() {
		t.Fatal("Running() after Stop")
	}
	_, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial stopped server: %v, want connection refused", err)
	}
	if _, err := s.Client().Version(context.Background()); err == nil {
		t.Fatal("stopped server answered /api/version")
	}

	s.Restart(t)
	if s.Port != port || !strings.HasSuffix(s.URL, ":"+strconv.Itoa(port)) {
		t.Fatalf("restarted on %s, want port %d", s.URL, port)
	}
	list, err := s.Client().List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Models) != 1 || !strings.HasPrefix(list.Models[0].Name, "tiny") {
		t.Fatalf("models after restart = %+v, want tiny", list.Models)
	}
	want := spec.Greedy("k", 1<<20)
	got := completeChat(t, s.URL, chatRequest{Model: "tiny", Messages: []chatMessage{{Role: "user", Content: "k"}}})
	if got != want {
		t.Errorf("after restart: answer = %q, Greedy = %q", got, want)
	}
}

func TestBinaryOverrideMustExist(t *testing.T) {
	for _, tc := range []struct {
		name, path string
	}{
		{"missing", filepath.Join(t.TempDir(), "no-such-ollama")},
		{"directory", t.TempDir()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(ollamatest.BinaryEnv, tc.path)
			_, err := ollamatest.Binary()
			if !errors.Is(err, ollamatest.ErrNoBinary) {
				t.Fatalf("Binary() error = %v, want ErrNoBinary", err)
			}
			if !strings.Contains(err.Error(), "make deps") {
				t.Errorf("error %q does not tell the user to run make deps", err)
			}
		})
	}
}
