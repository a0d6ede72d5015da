package openaiguard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/sucursal/sucursal/internal/guard"
)

// maxBody bounds what is read from the server: a verdict is a few tokens.
const maxBody = 1 << 20

// Options configure a Generator.
type Options struct {
	// BaseURL is the API root that /chat/completions is appended to:
	// http://127.0.0.1:8080/v1 (llama-server), http://127.0.0.1:8000/v3 (OVMS).
	BaseURL string
	Model   string
	APIKey  string // sent as a bearer token when set
	// MaxTokens caps the answer; an answer that hits it is treated as malformed. Default 48.
	MaxTokens int
	// Logprobs asks for log probabilities (llama-server supports them; leave off for servers
	// that reject the field).
	Logprobs bool
	Client   *http.Client // default http.DefaultClient
}

// Generator implements guard.Generator on POST {BaseURL}/chat/completions.
type Generator struct {
	o   Options
	url string
}

// New checks the options and returns a generator.
func New(o Options) (*Generator, error) {
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openaiguard: base URL must be http(s)://host[:port]/path")
	}
	if o.Model == "" {
		return nil, errors.New("openaiguard: model is required")
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = 48
	}
	if o.Client == nil {
		o.Client = http.DefaultClient
	}
	return &Generator{o: o, url: strings.TrimSuffix(o.BaseURL, "/") + "/chat/completions"}, nil
}

type chatRequest struct {
	Model       string          `json:"model"`
	Messages    []guard.Message `json:"messages"`
	Temperature float64         `json:"temperature"`
	MaxTokens   int             `json:"max_tokens"`
	Stream      bool            `json:"stream"`
	Logprobs    bool            `json:"logprobs,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Content string `json:"content"`
		} `json:"message"`
		Logprobs *struct {
			Content []struct {
				Token   string  `json:"token"`
				Logprob float64 `json:"logprob"`
			} `json:"content"`
		} `json:"logprobs"`
	} `json:"choices"`
}

// Generate asks for the model's greedy answer to msgs.
func (g *Generator) Generate(ctx context.Context, msgs []guard.Message) (guard.Generation, error) {
	body, err := json.Marshal(chatRequest{Model: g.o.Model, Messages: msgs, MaxTokens: g.o.MaxTokens, Logprobs: g.o.Logprobs})
	if err != nil {
		return guard.Generation{}, fmt.Errorf("openaiguard: encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.url, bytes.NewReader(body))
	if err != nil {
		return guard.Generation{}, fmt.Errorf("openaiguard: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if g.o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+g.o.APIKey)
	}
	resp, err := g.o.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return guard.Generation{}, fmt.Errorf("openaiguard: %w", ctx.Err())
		}
		return guard.Generation{}, fmt.Errorf("%w: openaiguard: %w", guard.ErrBackend, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return guard.Generation{}, fmt.Errorf("%w: openaiguard: read response: %w", guard.ErrBackend, err)
	}
	if resp.StatusCode != http.StatusOK {
		return guard.Generation{}, fmt.Errorf("%w: openaiguard: status %d", guard.ErrBackend, resp.StatusCode)
	}
	return ParseResponse(b)
}

// ParseResponse reads the first choice of a chat completion. A body that is not one is
// guard.ErrMalformedOutput; the error never quotes it.
func ParseResponse(b []byte) (guard.Generation, error) {
	var r chatResponse
	if err := json.Unmarshal(b, &r); err != nil {
		return guard.Generation{}, fmt.Errorf("%w: chat completion of %d bytes is not JSON", guard.ErrMalformedOutput, len(b))
	}
	if len(r.Choices) == 0 {
		return guard.Generation{}, fmt.Errorf("%w: chat completion without choices", guard.ErrMalformedOutput)
	}
	c := r.Choices[0]
	g := guard.Generation{Text: c.Message.Content, Truncated: c.FinishReason == "length"}
	if c.Logprobs != nil {
		for _, t := range c.Logprobs.Content {
			g.Tokens = append(g.Tokens, guard.TokenProb{Text: t.Token, Logprob: t.Logprob})
		}
	}
	return g, nil
}
