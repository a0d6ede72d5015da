package kserve

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
)

// DefaultMaxResponse bounds the bytes read from one answer when NewClient is given 0.
const DefaultMaxResponse = 16 << 20

// ErrBadResponse means an answer is not what the protocol allows: not JSON, or tensor data that
// does not match its shape or datatype. A caller adds its own sentinel for outputs that are valid
// KServe but not what its model should give.
var ErrBadResponse = errors.New("kserve: malformed response")

// StatusError is an answer other than 200 OK. It keeps the code only: servers quote the request
// in their error messages, and requests carry user text.
type StatusError struct {
	StatusCode int
}

func (e *StatusError) Error() string { return fmt.Sprintf("kserve: status %d", e.StatusCode) }

// Client talks to one server.
type Client struct {
	base        string // no trailing slash
	http        *http.Client
	maxResponse int64
}

// NewClient returns a client for the server at base (e.g. http://127.0.0.1:9000, OVMS's REST
// port). hc nil means http.DefaultClient; maxResponse 0 means DefaultMaxResponse.
func NewClient(base *url.URL, hc *http.Client, maxResponse int64) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	if maxResponse <= 0 {
		maxResponse = DefaultMaxResponse
	}
	return &Client{base: strings.TrimRight(base.String(), "/"), http: hc, maxResponse: maxResponse}
}

// ServerLive asks GET /v2/health/live. A server that answers with another status is not live
// (false, nil); an error means it could not be asked.
func (c *Client) ServerLive(ctx context.Context) (bool, error) {
	return c.probe(ctx, "/v2/health/live")
}

// ServerReady asks GET /v2/health/ready, like ServerLive.
func (c *Client) ServerReady(ctx context.Context) (bool, error) {
	return c.probe(ctx, "/v2/health/ready")
}

// ModelReady asks GET /v2/models/{model}[/versions/{version}]/ready; an empty version is the
// server's default. An unknown model is not ready.
func (c *Client) ModelReady(ctx context.Context, model, version string) (bool, error) {
	return c.probe(ctx, modelPath(model, version)+"/ready")
}

// ModelMetadata asks GET /v2/models/{model}[/versions/{version}].
func (c *Client) ModelMetadata(ctx context.Context, model, version string) (*ModelMetadata, error) {
	var m ModelMetadata
	if err := c.do(ctx, http.MethodGet, modelPath(model, version), nil, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Infer asks POST /v2/models/{model}[/versions/{version}]/infer.
func (c *Client) Infer(ctx context.Context, model, version string, req *InferRequest) (*InferResponse, error) {
	var r InferResponse
	if err := c.do(ctx, http.MethodPost, modelPath(model, version)+"/infer", req, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func modelPath(model, version string) string {
	p := "/v2/models/" + url.PathEscape(model)
	if version != "" {
		p += "/versions/" + url.PathEscape(version)
	}
	return p
}

// probe is a readiness endpoint: the status code is the answer.
func (c *Client) probe(ctx context.Context, path string) (bool, error) {
	err := c.do(ctx, http.MethodGet, path, nil, nil)
	if _, ok := errors.AsType[*StatusError](err); ok {
		return false, nil
	}
	return err == nil, err
}

// do sends in (if any) as JSON and decodes a 200 answer into out (if any).
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("kserve: encode request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return fmt.Errorf("kserve: %w", err)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("kserve: %s %s: %w", method, path, ctx.Err())
		}
		return fmt.Errorf("kserve: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, c.maxResponse))
	if err != nil {
		return fmt.Errorf("kserve: read response: %w", err)
	}
	if err := checkError(resp); err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	return decode(raw, out)
}

// decode reads a 200 answer. The error says how long the answer was, never what it said.
func decode(raw []byte, out any) error {
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%w: not JSON (%d bytes)", ErrBadResponse, len(raw))
	}
	return nil
}

func checkError(resp *http.Response) error {
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	return &StatusError{StatusCode: resp.StatusCode}
}
