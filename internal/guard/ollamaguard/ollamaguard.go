package ollamaguard

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/guard"
)

// Generator implements guard.Generator on an Ollama model.
type Generator struct {
	client *api.Client
	model  string
	opts   Options
}

// Options tune the call; the zero value is sensible.
type Options struct {
	// MaxTokens caps the answer: "unsafe\nS1,S2,S3" is about ten tokens, all fourteen categories
	// about forty. An answer that hits the cap is treated as malformed. Default 48.
	MaxTokens int
	// KeepAlive keeps the model loaded between checks; a guard that has to load its model on the
	// request path blows its latency budget. Default: Ollama's own (5 minutes).
	KeepAlive *api.Duration
}

// New returns a generator for model on the server behind client.
func New(client *api.Client, model string, opts Options) *Generator {
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = 48
	}
	return &Generator{client: client, model: model, opts: opts}
}

// Generate asks for the model's greedy answer to msgs, with log probabilities.
func (g *Generator) Generate(ctx context.Context, msgs []guard.Message) (guard.Generation, error) {
	stream, truncate, shift := false, false, false
	req := &api.ChatRequest{
		// Ollama would otherwise drop the start of a text longer than the context and classify
		// the rest: an attack at the start would pass unseen. An error is a failure the policy
		// handles; the guard's windowing keeps texts short enough.
		Truncate:  &truncate,
		Shift:     &shift,
		Model:     g.model,
		Messages:  make([]api.Message, len(msgs)),
		Stream:    &stream,
		KeepAlive: g.opts.KeepAlive,
		Options:   map[string]any{"temperature": 0, "top_k": 1, "num_predict": g.opts.MaxTokens, "seed": 0},
		Logprobs:  true,
	}
	for i, m := range msgs {
		req.Messages[i] = api.Message{Role: m.Role, Content: m.Content}
	}
	var out guard.Generation
	err := g.client.Chat(ctx, req, func(r api.ChatResponse) error {
		out.Text += r.Message.Content
		if r.Done && r.DoneReason == "length" {
			out.Truncated = true
		}
		for _, lp := range r.Logprobs {
			out.Tokens = append(out.Tokens, guard.TokenProb{Text: lp.Token, Logprob: lp.Logprob})
		}
		return nil
	})
	if err != nil {
		return guard.Generation{}, scrub(ctx, err)
	}
	return out, nil
}

// scrub keeps what an operator needs (timeout, status code, connection error) and drops any
// response body.
func scrub(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("ollama: %w", ctx.Err())
	}
	var se api.StatusError
	if errors.As(err, &se) {
		return fmt.Errorf("%w: ollama answered status %d", guard.ErrBackend, se.StatusCode)
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return fmt.Errorf("%w: ollama answered status %d", guard.ErrBackend, ae.StatusCode)
	}
	var ue *url.Error
	if errors.As(err, &ue) { // connection refused, reset: from the transport, no body in it
		return fmt.Errorf("%w: ollama: %w", guard.ErrBackend, ue)
	}
	// The client turns a line it cannot decode, or an error line mid-stream, into an error holding
	// that line, which may be model output.
	return fmt.Errorf("%w: ollama stream failed (%d bytes of detail withheld)", guard.ErrBackend, len(err.Error()))
}
