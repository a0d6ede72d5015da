package kserveguard

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
	o   Options
	url string
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
	if o.Client == nil {
		o.Client = http.DefaultClient
	}
	path := "/v2/models/" + url.PathEscape(o.Model)
	if o.Version != "" {
		path += "/versions/" + url.PathEscape(o.Version)
	}
	return &Scorer{o: o, url: strings.TrimSuffix(o.BaseURL, "/") + path + "/infer"}, nil
}

type tensor struct {
	Name     string `json:"name"`
	Shape    []int  `json:"shape"`
	Datatype string `json:"datatype"`
	Data     any    `json:"data"`
}

type inferRequest struct {
	Inputs  []tensor            `json:"inputs"`
	Outputs []map[string]string `json:"outputs,omitempty"`
}

// Score returns P(malicious) for text.
func (s *Scorer) Score(ctx context.Context, text string) (float64, error) {
	req := inferRequest{Inputs: []tensor{{Name: s.o.Input, Shape: []int{1}, Datatype: "BYTES", Data: []string{text}}}}
	if s.o.Output != "" {
		req.Outputs = []map[string]string{{"name": s.o.Output}}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return 0, fmt.Errorf("kserveguard: encode request: %w", err)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("kserveguard: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	resp, err := s.o.Client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return 0, fmt.Errorf("kserveguard: %w", ctx.Err())
		}
		return 0, fmt.Errorf("%w: kserveguard: %w", guard.ErrBackend, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return 0, fmt.Errorf("%w: kserveguard: read response: %w", guard.ErrBackend, err)
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%w: kserveguard: status %d", guard.ErrBackend, resp.StatusCode)
	}
	probs, err := ParseResponse(b, s.o.Output, s.o.Probabilities)
	if err != nil {
		return 0, err
	}
	if s.o.MaliciousIndex >= len(probs) {
		return 0, fmt.Errorf("%w: %d classes, malicious index %d", guard.ErrMalformedOutput, len(probs), s.o.MaliciousIndex)
	}
	return probs[s.o.MaliciousIndex], nil
}
