package pipeline

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/redact"
)

// recorder is a ResponseWriter that keeps what reached the user.
type recorder struct {
	h      http.Header
	chunks []*chat.Chunk
	comp   *chat.Completion
}

func (r *recorder) Header() http.Header {
	if r.h == nil {
		r.h = http.Header{}
	}
	return r.h
}
func (r *recorder) WriteChunk(c *chat.Chunk) error           { r.chunks = append(r.chunks, c); return nil }
func (r *recorder) WriteCompletion(c *chat.Completion) error { r.comp = c; return nil }

func (r *recorder) text() string {
	var b strings.Builder
	for _, c := range r.chunks {
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				b.WriteString(*ch.Delta.Content)
			}
		}
	}
	return b.String()
}

func newRedactor(t testing.TB) *redact.Redactor {
	t.Helper()
	r, err := redact.New(redact.DefaultConfig(), nil, prometheus.NewRegistry(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var placeholderRE = regexp.MustCompile(`@@[A-Z_]+-\d+@@`)

// echoTerminal answers with the concatenated texts it received (what would leave the branch),
// streamed in chunks of `size` bytes, and records the request.
func echoTerminal(size int, seen *chat.Request) Handler {
	return HandlerFunc(func(_ context.Context, req *Request, w ResponseWriter) error {
		*seen = *req.Chat
		var all []string
		_ = req.Chat.Texts(func(_ string, s *string) error { all = append(all, *s); return nil })
		answer := strings.Join(all, "|")
		if !req.Chat.Stream {
			return w.WriteCompletion(&chat.Completion{ID: "x", Object: "chat.completion",
				Choices: []chat.Choice{{Message: chat.AnswerMessage{Role: "assistant", Content: chat.TextContent(answer)}}}})
		}
		for i := 0; i < len(answer); i += size {
			part := answer[i:min(i+size, len(answer))]
			c := &chat.Chunk{ID: "x", Object: "chat.completion.chunk", Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &part}}}}
			if i+size >= len(answer) {
				stop := "stop"
				c.Choices[0].FinishReason = &stop
			}
			if err := w.WriteChunk(c); err != nil {
				return err
			}
		}
		return nil
	})
}

// The Redact stage: the terminal sees placeholders only; the user gets the original text back,
// streamed at every chunk size and whole; one value has one placeholder across messages and tool
// calls.
func TestRedactStage(t *testing.T) {
	r := newRedactor(t)
	const dni, iban = "12345678Z", "ES9121000418450200051332"
	user := "Soy titular del DNI " + dni + " y mi cuenta es " + iban + "."
	system := "El cliente con DNI " + dni + " es preferente."
	args := `{"iban":"` + iban + `"}`
	email := "ana.garcia@example.com"
	for _, stream := range []bool{false, true} {
		for _, size := range []int{1, 2, 3, 5, 7, 64} {
			if !stream && size > 1 {
				continue
			}
			req := &chat.Request{Model: "m", Stream: stream, Messages: []chat.Message{
				{Role: "system", Content: chat.TextContent(system)},
				{Role: "user", Content: chat.TextContent(user)},
				{Role: "assistant", ToolCalls: []chat.ToolCall{{ID: "c1", Type: "function", Function: &chat.FunctionCall{Name: "f", Arguments: args}}}},
			}, User: new(email)}
			var seen chat.Request
			rec := &recorder{}
			h := Chain(Redact(r))(echoTerminal(size, &seen))
			if err := h.ServeChat(context.Background(), &Request{ID: "t", Chat: req}, rec); err != nil {
				t.Fatal(err)
			}
			sent, _ := json.Marshal(&seen)
			for _, v := range []string{dni, iban, "ana.garcia@example.com"} {
				if strings.Contains(string(sent), v) {
					t.Fatalf("stream=%v size=%d: %q reached the terminal", stream, size, v)
				}
			}
			phs := placeholderRE.FindAllString(string(sent), -1)
			counts := map[string]int{}
			for _, p := range phs {
				counts[p]++
			}
			if len(counts) != 3 || len(phs) != 5 {
				t.Fatalf("want 3 distinct placeholders used 5 times (DNI twice, IBAN twice, the user field once), got %v", counts)
			}
			want := strings.Join([]string{system, user, args, email}, "|") // the echo repeats every text, user field included
			var got string
			if stream {
				got = rec.text()
			} else {
				got = *rec.comp.Choices[0].Message.Content.Text
			}
			if got != want {
				t.Fatalf("stream=%v size=%d: the user got\n%q\nwant\n%q", stream, size, got, want)
			}
		}
	}
}

// A placeholder still held when a target ends without a finish_reason comes out in a closing chunk.
func TestRedactStageFlushesWithoutFinishReason(t *testing.T) {
	r := newRedactor(t)
	const dni = "12345678Z"
	req := &chat.Request{Model: "m", Stream: true, Messages: []chat.Message{{Role: "user", Content: chat.TextContent("DNI " + dni)}}}
	var placeholder string
	term := HandlerFunc(func(_ context.Context, req *Request, w ResponseWriter) error {
		placeholder = placeholderRE.FindString(*req.Chat.Messages[0].Content.Text)
		// The answer ends inside… nothing: the whole placeholder, cut in two, no finish_reason.
		for _, part := range []string{"tu DNI es " + placeholder[:5], placeholder[5:]} {
			p := part
			if err := w.WriteChunk(&chat.Chunk{ID: "x", Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &p}}}}); err != nil {
				return err
			}
		}
		return nil
	})
	rec := &recorder{}
	if err := Chain(Redact(r))(term).ServeChat(context.Background(), &Request{Chat: req}, rec); err != nil {
		t.Fatal(err)
	}
	if got := rec.text(); got != "tu DNI es "+dni {
		t.Fatalf("got %q", got)
	}
}
