package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/sucursal/sucursal/internal/testmodel"
)

func sdk(baseURL string) openai.Client {
	return openai.NewClient(option.WithBaseURL(baseURL+"/v1/"), option.WithAPIKey("branch-app"),
		option.WithMaxRetries(0), option.WithHTTPClient(httpClient()))
}

// TestChatThroughTheWholePath: the official OpenAI Go SDK → edge-agent → QUIC (mTLS) → dc-gateway
// → real Ollama, streamed and not, on loopback and with 40 ms of emulated RTT. The answer must be
// exactly what the deterministic model produces (computed from its spec, not from a server).
func TestChatThroughTheWholePath(t *testing.T) {
	o := startOllama(t)
	spec := testmodel.Alphabet()
	for _, rtt := range []time.Duration{0, 40 * time.Millisecond} {
		t.Run("rtt="+rtt.String(), func(t *testing.T) {
			s := newStack(t, o, rtt)
			client := sdk(s.url)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for _, tc := range []struct {
				prompt string
				max    int64
			}{{"a", 100}, {"m", 5}, {"K", 100}, {"3", 100}} {
				want := spec.Greedy(tc.prompt, int(tc.max))
				if want == "" {
					t.Fatalf("the model spec predicts an empty answer for %q; pick another prompt", tc.prompt)
				}
				params := openai.ChatCompletionNewParams{
					Model:     "tiny",
					Messages:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage(tc.prompt)},
					MaxTokens: openai.Int(tc.max),
				}

				// Not streamed.
				resp, err := client.Chat.Completions.New(ctx, params)
				if err != nil {
					t.Fatalf("non-streamed %q: %v", tc.prompt, err)
				}
				if got := resp.Choices[0].Message.Content; got != want {
					t.Errorf("non-streamed %q: got %q, want %q", tc.prompt, got, want)
				}
				if resp.Usage.CompletionTokens == 0 {
					t.Errorf("non-streamed %q: no usage", tc.prompt)
				}

				// Streamed, with usage.
				params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
				stream := client.Chat.Completions.NewStreaming(ctx, params)
				var b strings.Builder
				chunks, usage := 0, int64(0)
				for stream.Next() {
					c := stream.Current()
					chunks++
					for _, ch := range c.Choices {
						b.WriteString(ch.Delta.Content)
					}
					if c.Usage.CompletionTokens > 0 {
						usage = c.Usage.CompletionTokens
					}
				}
				if err := stream.Err(); err != nil {
					t.Fatalf("streamed %q: %v", tc.prompt, err)
				}
				if b.String() != want {
					t.Errorf("streamed %q: got %q, want %q", tc.prompt, b.String(), want)
				}
				if chunks < 2 {
					t.Errorf("streamed %q: %d chunks; the answer was not streamed", tc.prompt, chunks)
				}
				if usage == 0 {
					t.Errorf("streamed %q with include_usage: no usage chunk", tc.prompt)
				}
			}

			// /v1/models lists what the DC target offers.
			page, err := client.Models.List(ctx)
			if err != nil {
				t.Fatalf("models: %v", err)
			}
			found := false
			for _, m := range page.Data {
				found = found || strings.HasPrefix(m.ID, "tiny")
			}
			if !found {
				t.Errorf("models: %+v does not list tiny", page.Data)
			}
		})
	}
}
