package ner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ollama/ollama/api"
	"github.com/sucursal/sucursal/internal/redact"
)

// Schema is the JSON schema the model's answer is constrained to (Ollama's `format`).
const Schema = `{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object",` +
	`"properties":{"text":{"type":"string"},"type":{"type":"string","enum":["PERSON","ORG","LOCATION","ADDRESS"]}},` +
	`"required":["text","type"]}}},"required":["entities"]}`

// Prompt is the extraction instruction; the text follows it.
const Prompt = "Extract every person name, organisation, location and postal address from the text below. " +
	"Copy each one exactly as written in the text, character for character. Answer with JSON only.\n\nText:\n"

// Ollama asks a local Ollama model for entities.
type Ollama struct {
	client *api.Client
	model  string
}

// NewOllama uses client (a local Ollama) and model.
func NewOllama(client *api.Client, model string) *Ollama {
	return &Ollama{client: client, model: model}
}

// ErrBadAnswer means the model's answer was not the JSON the schema asks for.
var ErrBadAnswer = errors.New("ner: model answer is not the expected JSON")

// Entities implements redact.NER.
func (o *Ollama) Entities(ctx context.Context, text string) ([]redact.Span, error) {
	stream := false
	req := &api.GenerateRequest{
		Model:   o.model,
		Prompt:  Prompt + text,
		Stream:  &stream,
		Format:  json.RawMessage(Schema),
		Options: map[string]any{"temperature": 0, "num_predict": 512},
	}
	var answer strings.Builder
	err := o.client.Generate(ctx, req, func(r api.GenerateResponse) error {
		answer.WriteString(r.Response)
		return nil
	})
	if err != nil {
		var se api.StatusError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("ner: ollama generate: status %d", se.StatusCode)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("ner: ollama generate: %w", ctx.Err())
		}
		return nil, fmt.Errorf("ner: ollama generate: %T", err)
	}
	return ParseOllamaAnswer(answer.String())
}

// ParseOllamaAnswer reads {"entities":[{"text":…,"type":…}]} (Schema: what the Ollama and the
// OpenAI backends both ask for). Types are normalised to the redact entity types; entities of any
// other type are dropped.
func ParseOllamaAnswer(answer string) ([]redact.Span, error) {
	var out struct {
		Entities []struct {
			Text string `json:"text"`
			Type string `json:"type"`
		} `json:"entities"`
	}
	if err := json.Unmarshal([]byte(answer), &out); err != nil {
		return nil, fmt.Errorf("%w (%d bytes)", ErrBadAnswer, len(answer))
	}
	spans := make([]redact.Span, 0, len(out.Entities))
	for _, e := range out.Entities {
		t := normaliseType(e.Type)
		if t == "" || e.Text == "" {
			continue
		}
		spans = append(spans, redact.Span{Start: -1, End: -1, Type: t, Text: e.Text, Source: "ner"})
	}
	return spans, nil
}

func normaliseType(t string) string {
	switch strings.ToUpper(strings.TrimSpace(t)) {
	case "PERSON", "PER", "PERSONA", "NAME":
		return redact.TypePerson
	case "ORG", "ORGANIZATION", "ORGANISATION", "ORGANIZACION", "ORGANIZACIÓN":
		return redact.TypeOrg
	case "LOCATION", "LOC", "GPE", "LUGAR":
		return redact.TypeLocation
	case "ADDRESS", "DIRECCION", "DIRECCIÓN":
		return redact.TypeAddress
	}
	return ""
}
