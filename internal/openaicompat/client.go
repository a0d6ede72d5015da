package openaicompat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/tracecontext"
)

// ErrUnreachable means the target could not be reached at all (connection refused, DNS, TLS).
var ErrUnreachable = errors.New("target: unreachable")

// Client calls one OpenAI-compatible base URL such as http://127.0.0.1:11434/v1.
type Client struct {
	BaseURL string
	APIKey  string
	HTTP    *http.Client
	// MaxEvent bounds one streamed event; MaxBody bounds a non-streamed body or an error body.
	MaxEvent int
	MaxBody  int64
}

// New returns a client with production defaults: no overall timeout (streams may be long; the
// caller's context bounds them), a response-header timeout, and kept-alive connections.
func New(baseURL, apiKey string) *Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	tr.ResponseHeaderTimeout = 5 * time.Minute // prompt processing of long contexts may take a while
	return &Client{
		BaseURL:  strings.TrimRight(baseURL, "/"),
		APIKey:   apiKey,
		HTTP:     &http.Client{Transport: tr},
		MaxEvent: 8 << 20,
		MaxBody:  64 << 20,
	}
}

func (c *Client) do(ctx context.Context, method, path string, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	if tp, ok := tracecontext.From(ctx); ok { // the caller's trace, to the model server
		req.Header.Set(tracecontext.Header, tp.String())
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s %s: %w", ErrUnreachable, method, c.BaseURL+path, err)
	}
	return resp, nil
}

// errorFrom turns a non-2xx response into the target's own OpenAI-shaped error.
func (c *Client) errorFrom(resp *http.Response) *chat.Error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return chat.ParseError(resp.StatusCode, b)
}

// Get performs a GET (e.g. /models) and returns status and body. Non-2xx is not an error here:
// the caller passes the target's answer through.
func (c *Client) Get(ctx context.Context, path string) (int, []byte, error) {
	resp, err := c.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, c.MaxBody))
	return resp.StatusCode, b, err
}

// Post performs a non-streamed POST and returns the body, or the target's error as *chat.Error.
func (c *Client) Post(ctx context.Context, path string, body []byte) ([]byte, error) {
	resp, err := c.do(ctx, http.MethodPost, path, body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, c.errorFrom(resp)
	}
	return io.ReadAll(io.LimitReader(resp.Body, c.MaxBody))
}

// Stream performs a streamed POST and calls onData with each event's data, in order, until the
// target sends [DONE] or ends the stream. An error event in the stream ({"error":…}) is returned
// as *chat.Error. onData's slice is only valid during the call.
func (c *Client) Stream(ctx context.Context, path string, body []byte, onData func([]byte) error) error {
	return c.StreamEvents(ctx, path, body, func(data []byte, _ bool) error { return onData(data) })
}

// drainAfterDone bounds the wait for the end of a body after [DONE] (see drain).
const drainAfterDone = 50 * time.Millisecond

// drain reads what is left of a streamed body after [DONE] (the end of the chunked body, which
// a server sends right after it). Closing the body before its end would close the connection,
// and every request would then open a new one (with TLS, one more handshake each). A target that
// keeps the stream open after [DONE] is cut off after drainAfterDone, closing the connection as
// before.
func drain(body io.Reader, cancel context.CancelFunc) {
	t := time.AfterFunc(drainAfterDone, cancel)
	defer t.Stop()
	_, _ = io.Copy(io.Discard, io.LimitReader(body, 64<<10))
}

// StreamEvents is Stream that also tells onData whether the next event has already arrived
// (more): a relay may then hold its write and send the events that came together at once. What
// it holds when StreamEvents returns is its own to write.
func (c *Client) StreamEvents(ctx context.Context, path string, body []byte, onData func(data []byte, more bool) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := c.do(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return c.errorFrom(resp)
	}
	sse := NewSSEReader(resp.Body, c.MaxEvent)
	for {
		data, err := sse.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				// A stream that ends without [DONE] is cut short (a dying server), not finished.
				return fmt.Errorf("target: stream ended without [DONE]: %w", io.ErrUnexpectedEOF)
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("target: reading stream: %w", err)
		}
		if string(data) == "[DONE]" {
			drain(resp.Body, cancel)
			return nil
		}
		if bytes.HasPrefix(data, []byte(`{"error"`)) {
			return chat.ParseError(http.StatusBadGateway, data)
		}
		if err := onData(data, sse.Ready()); err != nil {
			return err
		}
	}
}
