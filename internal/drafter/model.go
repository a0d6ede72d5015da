package drafter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/ollama/ollama/api"
)

// Model is the local draft model.
type Model interface {
	// Prompt renders the redacted messages as the draft model's own prompt text.
	Prompt(ctx context.Context, msgs []api.Message) (string, error)
	// Draft returns the text of up to n tokens the model emits greedily after prompt (less if it
	// ends the answer first).
	Draft(ctx context.Context, prompt string, n int) (string, error)
}

// Ollama drafts on a local Ollama with its native API: the chat template rendered once per
// request, then raw /api/generate at temperature 0.
type Ollama struct {
	c     *api.Client
	model string
}

// NewOllama returns a draft model on the Ollama at baseURL (http://127.0.0.1:11434; a trailing
// /v1 is dropped).
func NewOllama(baseURL, model string, hc *http.Client) (*Ollama, error) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("drafter: %q is not an http(s) URL", baseURL)
	}
	if model == "" {
		return nil, errors.New("drafter: no draft model named")
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &Ollama{c: api.NewClient(u, hc), model: model}, nil
}

func (o *Ollama) Prompt(ctx context.Context, msgs []api.Message) (string, error) {
	var prompt string
	var got bool
	stream := false
	err := o.c.Chat(ctx, &api.ChatRequest{Model: o.model, Messages: msgs, Stream: &stream, DebugRenderOnly: true},
		func(r api.ChatResponse) error {
			if r.DebugInfo != nil {
				prompt, got = r.DebugInfo.RenderedTemplate, true
			}
			return nil
		})
	if err == nil && !got {
		err = errors.New("drafter: ollama did not render the template")
	}
	return prompt, err
}

func (o *Ollama) Draft(ctx context.Context, prompt string, n int) (string, error) {
	var b strings.Builder
	stream := false
	err := o.c.Generate(ctx, &api.GenerateRequest{Model: o.model, Prompt: prompt, Raw: true, Stream: &stream,
		Options: map[string]any{"temperature": 0, "num_predict": n}},
		func(r api.GenerateResponse) error {
			b.WriteString(r.Response)
			return nil
		})
	return b.String(), err
}
