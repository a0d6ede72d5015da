package ner

import (
	"context"
	"errors"
	"fmt"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/redact"
)

// Instruction is the system message of the OpenAI-compatible backend; the user message is the
// text alone, so no wording of ours sits between the text and the answer.
const Instruction = "Extract every person name, organisation, location and postal address from the user's text. " +
	"Copy each one exactly as written in the text, character for character. Answer with JSON only."

// DefaultMaxTokens bounds an OpenAI backend's answer when MaxTokens is 0.
const DefaultMaxTokens = 512

// schemaJSON is Schema as the chat request carries it.
var schemaJSON = func() chat.JSON {
	v, err := chat.ParseJSON([]byte(Schema))
	if err != nil {
		panic("ner: Schema is not JSON: " + err.Error())
	}
	return v
}()

// OpenAI asks a model on an OpenAI-compatible server on the branch — llama.cpp's llama-server
// (…/v1), OpenVINO Model Server (…/v3), Ollama (…/v1) — for entities: a non-streamed chat
// completion with response_format json_schema = Schema, temperature 0. The server compiles the
// schema into a grammar, so whatever the model, the answer has the schema's shape or is cut short
// at MaxTokens or the server's context (then it is ErrBadAnswer).
type OpenAI struct {
	Client    *openaicompat.Client // BaseURL is the API root, e.g. http://127.0.0.1:8080/v1
	Model     string
	MaxTokens int // 0: DefaultMaxTokens
}

// Entities implements redact.NER.
func (o *OpenAI) Entities(ctx context.Context, text string) ([]redact.Span, error) {
	temp := 0.0
	maxTok := int64(o.MaxTokens)
	if maxTok <= 0 {
		maxTok = DefaultMaxTokens
	}
	strict := true
	c, err := o.Client.ChatCompletion(ctx, &chat.Request{
		Model: o.Model,
		Messages: []chat.Message{
			{Role: "system", Content: chat.TextContent(Instruction)},
			{Role: "user", Content: chat.TextContent(text)},
		},
		Temperature: &temp,
		MaxTokens:   &maxTok,
		ResponseFormat: &chat.ResponseFormat{Type: "json_schema",
			JSONSchema: &chat.JSONSchema{Name: "entities", Schema: &schemaJSON, Strict: &strict}},
	})
	if err != nil {
		// Only the error's class leaves: a server's message may quote the request.
		var ce *chat.Error
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("ner: openai chat: %w", ctx.Err())
		case errors.As(err, &ce):
			return nil, fmt.Errorf("ner: openai chat: status %d", ce.Status)
		case errors.Is(err, openaicompat.ErrBadCompletion):
			return nil, fmt.Errorf("%w: %w", ErrBadAnswer, err)
		case errors.Is(err, openaicompat.ErrUnreachable):
			return nil, fmt.Errorf("ner: openai chat: %w", openaicompat.ErrUnreachable)
		}
		return nil, fmt.Errorf("ner: openai chat: %T", err)
	}
	if len(c.Choices) == 0 {
		return nil, fmt.Errorf("%w: no choices", ErrBadAnswer)
	}
	ch := c.Choices[0]
	if ch.FinishReason != nil && *ch.FinishReason == "length" {
		// max_tokens or the server's context, whichever came first
		return nil, fmt.Errorf("%w: cut short (finish_reason length, max_tokens %d)", ErrBadAnswer, maxTok)
	}
	return ParseOllamaAnswer(ch.Message.Content.String())
}
