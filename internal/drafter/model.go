package drafter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/ollama"
	"github.com/sucursal/sucursal/internal/vocab"
)

// Piece is one drafted token: its text and, when the model knows it, its id in the drafter's
// tokenizer (-1 otherwise; token mode cannot send such a piece).
type Piece struct {
	ID   int32
	Text string
}

// Model is the local draft model.
type Model interface {
	// Prompt renders the redacted messages as the draft model's own prompt text.
	Prompt(ctx context.Context, turns []chat.Turn) (string, error)
	// Draft returns up to n tokens the model emits greedily after prompt (fewer if it ends the
	// answer first). With ids, each piece carries its token id.
	Draft(ctx context.Context, prompt string, n int, ids bool) ([]Piece, error)
	// Fingerprint is the drafter's tokenizer fingerprint (vocab.Fingerprint.String()), "" when it
	// cannot be known (text mode only).
	Fingerprint(ctx context.Context) (string, error)
}

// Ollama drafts on a local Ollama with its native API: the chat template rendered once per
// request, then raw /api/generate at temperature 0 with logprobs, whose per-token bytes split the
// draft into tokens and, through the vocabulary read from /api/show, name their ids.
type Ollama struct {
	c     *api.Client
	model string

	mu    sync.Mutex
	vocab *vocab.Vocab
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

func (o *Ollama) Prompt(ctx context.Context, turns []chat.Turn) (string, error) {
	return ollama.RenderPrompt(ctx, o.c, o.model, turns)
}

// loadVocab reads the draft model's tokenizer once. The model can be replaced by fleet sync under
// the same name; Forget makes the next call read it again.
func (o *Ollama) loadVocab(ctx context.Context) (*vocab.Vocab, error) {
	o.mu.Lock()
	v := o.vocab
	o.mu.Unlock()
	if v != nil {
		return v, nil
	}
	v, err := vocab.FromOllama(ctx, o.c, o.model)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	o.vocab = v
	o.mu.Unlock()
	return v, nil
}

// Forget drops the cached tokenizer (the model may have been replaced).
func (o *Ollama) Forget() {
	o.mu.Lock()
	o.vocab = nil
	o.mu.Unlock()
}

func (o *Ollama) Fingerprint(ctx context.Context) (string, error) {
	v, err := o.loadVocab(ctx)
	if err != nil {
		return "", err
	}
	return v.Fingerprint().String(), nil
}

func (o *Ollama) Draft(ctx context.Context, prompt string, n int, ids bool) ([]Piece, error) {
	var v *vocab.Vocab
	if ids {
		var err error
		if v, err = o.loadVocab(ctx); err != nil {
			return nil, err
		}
	}
	var pieces []Piece
	stream := false
	err := o.c.Generate(ctx, &api.GenerateRequest{Model: o.model, Prompt: prompt, Raw: true, Stream: &stream, Logprobs: true,
		Options: map[string]any{"temperature": 0, "num_predict": n}},
		func(r api.GenerateResponse) error {
			if len(r.Logprobs) == 0 {
				// A runtime without logprobs: one piece, token boundaries unknown.
				if r.Response != "" {
					pieces = append(pieces, Piece{ID: -1, Text: r.Response})
				}
				return nil
			}
			for _, lp := range r.Logprobs {
				b := make([]byte, len(lp.Bytes))
				for i, c := range lp.Bytes {
					b[i] = byte(c)
				}
				p := Piece{ID: -1, Text: string(b)}
				if v != nil {
					if id, ok := v.ID(b); ok {
						p.ID = id
					}
				}
				pieces = append(pieces, p)
			}
			return nil
		})
	return pieces, err
}
