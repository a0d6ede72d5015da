package ollama

import (
	"context"
	"errors"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/chat"
)

// ErrNotRendered means the server answered without the rendered template (an Ollama too old
// for DebugRenderOnly).
var ErrNotRendered = errors.New("ollama: the server did not render the template")

// Messages converts turns to Ollama's message type.
func Messages(turns []chat.Turn) []api.Message {
	out := make([]api.Message, len(turns))
	for i, t := range turns {
		out[i] = api.Message{Role: t.Role, Content: t.Content}
	}
	return out
}

// RenderPrompt returns the prompt text model's template makes of turns, without generating
// anything (Ollama's debug_render_only).
func RenderPrompt(ctx context.Context, c *api.Client, model string, turns []chat.Turn) (string, error) {
	var prompt string
	var got bool
	stream := false
	err := c.Chat(ctx, &api.ChatRequest{Model: model, Messages: Messages(turns), Stream: &stream, DebugRenderOnly: true},
		func(r api.ChatResponse) error {
			if r.DebugInfo != nil {
				prompt, got = r.DebugInfo.RenderedTemplate, true
			}
			return nil
		})
	if err == nil && !got {
		err = ErrNotRendered
	}
	return prompt, err
}
