package failover

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// LocalModel is the degraded fallback: the same (redacted) request answered by a small model on
// the NUC's own OpenAI-compatible runtime (Ollama's /v1, llama.cpp server, OVMS). The request's
// model is replaced by model() — read per request, so a model installed by fleet sync takes over
// without a restart; everything else is kept.
func LocalModel(c *openaicompat.Client, model func() string) pipeline.Handler {
	return pipeline.HandlerFunc(func(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
		local := *req.Chat
		local.Model = model()
		if local.Model == "" {
			return &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: chat.CodeLocalModelFailed,
				Message: "the datacenter is unreachable and no local model is installed yet"}
		}
		body, err := local.Encode()
		if err != nil {
			return chat.Internal("could not encode the request for the local model")
		}
		if !local.Stream {
			b, err := c.Post(ctx, "/chat/completions", body)
			if err != nil {
				return localError(err)
			}
			var comp chat.Completion
			if err := json.Unmarshal(b, &comp); err != nil {
				return localError(errors.New("unreadable answer"))
			}
			return w.WriteCompletion(&comp)
		}
		err = c.Stream(ctx, "/chat/completions", body, func(data []byte) error {
			var ch chat.Chunk
			if err := json.Unmarshal(data, &ch); err != nil {
				return errors.New("unreadable chunk")
			}
			return w.WriteChunk(&ch)
		})
		if err != nil {
			return localError(err)
		}
		return nil
	})
}

func localError(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	var ce *chat.Error
	if errors.As(err, &ce) {
		// The local runtime's own 4xx (e.g. its model is missing) is still a failure of the
		// fallback, not of the user's request.
		return &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: chat.CodeLocalModelFailed,
			Message: "the datacenter is unreachable and the branch's local model failed: " + ce.Message}
	}
	return &chat.Error{Status: http.StatusServiceUnavailable, Type: "api_error", Code: chat.CodeLocalModelFailed,
		Message: "the datacenter is unreachable and the branch's local model failed"}
}
