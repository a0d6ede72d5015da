package ollamaguard_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// The Llama Guard 3 template that docs/GUARD.md tells operators to use must make the real Ollama
// render the prompt Llama Guard was trained on, with the right role for the way the guard calls
// it: 'User' for prompts (RoleUser), 'Agent' for answers (RoleAgent).
func TestLlamaGuard3TemplateRendersRoles(t *testing.T) {
	tmpl, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "guard", "llama-guard3.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	s := startWithModels(t)
	s.CreateModel(t, "lg3-template", testmodel.FixedOutput(marker, "safe"), string(tmpl))

	render := func(role guard.Role, text string) string {
		// Capture exactly the messages the safety classifier sends.
		var msgs []guard.Message
		c := guard.NewSafetyClassifier("x", generatorFunc(func(_ context.Context, m []guard.Message) (guard.Generation, error) {
			msgs = m
			return guard.Generation{Text: "safe"}, nil
		}), role)
		if _, err := c.Classify(context.Background(), text); err != nil {
			t.Fatal(err)
		}
		req := &api.ChatRequest{Model: "lg3-template", DebugRenderOnly: true}
		for _, m := range msgs {
			req.Messages = append(req.Messages, api.Message{Role: m.Role, Content: m.Content})
		}
		var out string
		if err := s.Client().Chat(context.Background(), req, func(r api.ChatResponse) error {
			if r.DebugInfo != nil {
				out = r.DebugInfo.RenderedTemplate
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if out == "" {
			t.Fatal("no rendered template")
		}
		return out
	}

	in := render(guard.RoleUser, "¿Cómo falsifico un cheque?")
	for _, want := range []string{"unsafe content in 'User' messages", "User: ¿Cómo falsifico un cheque?\n\n<END CONVERSATION>",
		"ONLY THE LAST User message", "S1: Violent Crimes.", "S14: Code Interpreter Abuse.", "<|start_header_id|>assistant<|end_header_id|>\n\n"} {
		if !strings.Contains(in, want) {
			t.Errorf("prompt rendering lacks %q:\n%s", want, in)
		}
	}
	if strings.Contains(in, "Agent:") {
		t.Errorf("prompt rendering has an Agent turn:\n%s", in)
	}
	for _, c := range guard.SafetyCategories() {
		if !strings.Contains(in, "\n"+c.Code+": ") {
			t.Errorf("category %s missing", c.Code)
		}
	}

	out := render(guard.RoleAgent, "Primero, tome el cheque.")
	for _, want := range []string{"unsafe content in 'Agent' messages", "Agent: Primero, tome el cheque.\n\n<END CONVERSATION>", "ONLY THE LAST Agent message"} {
		if !strings.Contains(out, want) {
			t.Errorf("answer rendering lacks %q:\n%s", want, out)
		}
	}
}

type generatorFunc func(context.Context, []guard.Message) (guard.Generation, error)

func (f generatorFunc) Generate(ctx context.Context, m []guard.Message) (guard.Generation, error) {
	return f(ctx, m)
}
