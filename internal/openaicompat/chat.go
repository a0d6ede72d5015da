package openaicompat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sucursal/sucursal/internal/chat"
)

// ErrBadCompletion means a 2xx answer to a non-streamed chat completion was not one. The error
// says how large the body was, never what it held (it may echo the prompt).
var ErrBadCompletion = errors.New("target: answer is not a chat completion")

// ChatCompletion sends req as a non-streamed POST /chat/completions (Stream and StreamOptions
// are cleared on a copy) and decodes the answer. A response_format in req travels as written:
// llama.cpp's llama-server turns a json_schema into a grammar, OVMS and Ollama constrain the
// answer to it too. Errors: ErrUnreachable, the target's own *chat.Error for a non-2xx answer,
// ErrBadCompletion, or the context's error.
func (c *Client) ChatCompletion(ctx context.Context, req *chat.Request) (*chat.Completion, error) {
	r := *req
	r.Stream, r.StreamOptions = false, nil
	body, err := r.Encode()
	if err != nil {
		return nil, fmt.Errorf("target: encode chat request: %w", err)
	}
	b, err := c.Post(ctx, "/chat/completions", body)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	var out chat.Completion
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%w (%d bytes)", ErrBadCompletion, len(b))
	}
	return &out, nil
}
