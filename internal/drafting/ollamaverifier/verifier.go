package ollamaverifier

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/drafting"
	"github.com/sucursal/sucursal/internal/ollama"
	"github.com/sucursal/sucursal/internal/vocab"
)

var _ drafting.Backend = (*Verifier)(nil)

// Verifier is the reference verifier backend on Ollama's native API: raw /api/generate at
// temperature 0 from the rendered prompt plus the accepted output (as text: Ollama takes no token
// ids), asking for the draft's length plus one tokens with logprobs, whose bytes name each target
// token's id in the target's vocabulary (read once per model with /api/show). It serves both
// modes: text mode compares text, token mode ids.
type Verifier struct {
	c *api.Client

	mu     sync.Mutex
	vocabs map[string]vocabAt
}

type vocabAt struct {
	v  *vocab.Vocab
	at time.Time
}

// New returns the verifier for Ollama's native base URL (http://host:11434, no /v1).
func New(baseURL string, hc *http.Client) (*Verifier, error) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gateway drafting: %q is not an http(s) URL", baseURL)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &Verifier{c: api.NewClient(u, hc), vocabs: map[string]vocabAt{}}, nil
}

// Name is "ollama", as the draft hello reports it.
func (o *Verifier) Name() string { return "ollama" }

// vocab returns model's vocabulary, re-read after drafting.FingerprintTTL (a model replaced in place).
func (o *Verifier) vocab(ctx context.Context, model string) (*vocab.Vocab, error) {
	o.mu.Lock()
	c, ok := o.vocabs[model]
	o.mu.Unlock()
	if ok && time.Since(c.at) < drafting.FingerprintTTL {
		return c.v, nil
	}
	v, err := vocab.FromOllama(ctx, o.c, model)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	if len(o.vocabs) > 64 {
		clear(o.vocabs)
	}
	o.vocabs[model] = vocabAt{v, time.Now()}
	o.mu.Unlock()
	return v, nil
}

// Fingerprint is the fingerprint of model's tokenizer as Ollama describes it (/api/show, verbose).
func (o *Verifier) Fingerprint(ctx context.Context, model string) (string, error) {
	v, err := o.vocab(ctx, model)
	if err != nil {
		return "", err
	}
	return v.Fingerprint().String(), nil
}

// Open renders the chat with the model's own template (as Ollama's chat endpoint would) into the
// text prompt every pass continues.
func (o *Verifier) Open(ctx context.Context, model string, turns []chat.Turn) (*drafting.PassState, error) {
	prompt, err := ollama.RenderPrompt(ctx, o.c, model, turns)
	if err != nil {
		return nil, err
	}
	return &drafting.PassState{Model: model, Prompt: prompt}, nil
}

// Pass asks for the target's greedy continuation. Greedy decoding of n tokens from the accepted
// context is the target's path along the draft up to its first departure, so every token it
// returns is valid; those past the departure are simply not used.
func (o *Verifier) Pass(ctx context.Context, st *drafting.PassState, d drafting.Draft, n int) (drafting.PassResult, error) {
	var v *vocab.Vocab
	if d.IDs != nil {
		var err error
		if v, err = o.vocab(ctx, st.Model); err != nil {
			return drafting.PassResult{}, err
		}
	}
	var res drafting.PassResult
	stream := true
	err := o.c.Generate(ctx, &api.GenerateRequest{Model: st.Model, Prompt: st.Prompt + st.OutputText(), Raw: true, Stream: &stream,
		Logprobs: v != nil, Options: map[string]any{"temperature": 0, "num_predict": n}},
		func(r api.GenerateResponse) error {
			if r.Response != "" {
				// An event is one token, except where Ollama held back bytes of an incomplete
				// UTF-8 character: those tokens come as one event (one Token, id unknown).
				tok := drafting.Token{ID: -1, Text: r.Response}
				if v != nil && len(r.Logprobs) == 1 {
					if id, ok := v.ID(intsToBytes(r.Logprobs[0].Bytes)); ok {
						tok.ID = id
					}
				}
				res.Tokens = append(res.Tokens, tok)
			}
			if r.Done {
				res.Stopped, res.PromptTokens = r.DoneReason == "stop", r.PromptEvalCount
			}
			return nil
		})
	return res, err
}

func intsToBytes(b []int) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = byte(c)
	}
	return out
}
