package kserveguard

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/kserve"
)

// maxBody bounds an answer: one row of a few class scores.
const maxBody = 1 << 20

// Options configure a Scorer.
type Options struct {
	BaseURL string // http://127.0.0.1:8000 (the OVMS REST port)
	Model   string
	Version string // empty: the server's default version
	// Input is the name of the model's string input tensor. Output is the logits tensor; empty
	// takes the response's only output.
	Input  string
	Output string
	// MaliciousIndex is the logit of the malicious class: 1 for Prompt Guard 2 (LABEL_1).
	MaliciousIndex int
	// Probabilities says the output is already softmaxed.
	Probabilities bool
	Client        *http.Client
}

// Scorer implements guard.Scorer on POST /v2/models/{model}[/versions/{v}]/infer.
type Scorer struct {
	o Options
	c *kserve.Client
}

// New checks the options and returns a scorer.
func New(o Options) (*Scorer, error) {
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("kserveguard: base URL must be http(s)://host[:port]")
	}
	if o.Model == "" || o.Input == "" {
		return nil, errors.New("kserveguard: model and input tensor name are required")
	}
	if o.MaliciousIndex < 0 {
		return nil, errors.New("kserveguard: malicious index must not be negative")
	}
	return &Scorer{o: o, c: kserve.NewClient(u, o.Client, maxBody)}, nil
}

// Score returns P(malicious) for text.
func (s *Scorer) Score(ctx context.Context, text string) (float64, error) {
	req := &kserve.InferRequest{Inputs: []kserve.Tensor{kserve.BytesTensor(s.o.Input, text)}}
	if s.o.Output != "" {
		req.Outputs = []kserve.RequestedOutput{{Name: s.o.Output}}
	}
	r, err := s.c.Infer(ctx, s.o.Model, s.o.Version, req)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return 0, fmt.Errorf("kserveguard: %w", ctx.Err())
	case errors.Is(err, kserve.ErrBadResponse):
		return 0, fmt.Errorf("%w: kserveguard: %w", guard.ErrMalformedOutput, err)
	default:
		return 0, fmt.Errorf("%w: kserveguard: %w", guard.ErrBackend, err)
	}
	probs, err := ClassProbabilities(r, s.o.Output, s.o.Probabilities)
	if err != nil {
		return 0, err
	}
	if s.o.MaliciousIndex >= len(probs) {
		return 0, fmt.Errorf("%w: %d classes, malicious index %d", guard.ErrMalformedOutput, len(probs), s.o.MaliciousIndex)
	}
	return probs[s.o.MaliciousIndex], nil
}
