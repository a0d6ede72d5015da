package ner_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/redact/ner"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// TestOllamaNER runs against a real `ollama serve` and a real (tiny, deterministic) model
// whose answer is fixed: one name that is in the prompt and one the model "invents". It shows
// the exact-substring rule, and what each NER mode does when Ollama goes down.
func TestOllamaNER(t *testing.T) {
	const marker = "\n[entities]"
	const answer = `{"entities":[{"text":"Jon Arrizabalaga","type":"PERSON"},{"text":"Pedro Inventado","type":"PERSON"}]}`
	srv := ollamatest.Start(t)
	srv.CreateModel(t, "sucursal-ner", testmodel.FixedOutput(marker, answer), testmodel.FixedOutputTemplate(marker))
	backend := ner.NewOllama(srv.Client(), "sucursal-ner")

	const text = "el cliente jon arrizabalaga no, Jon Arrizabalaga pide su saldo"
	spans, err := backend.Entities(context.Background(), text)
	if err != nil {
		t.Fatalf("Entities: %v", err)
	}
	if len(spans) != 2 {
		t.Fatalf("the model's fixed answer has 2 entities, got %+v", spans)
	}

	newRedactor := func(mode string) *redact.Redactor {
		cfg := redact.DefaultConfig()
		cfg.Names = false // only the model finds names here
		cfg.NER = redact.NERConfig{Mode: mode, Timeout: 30 * time.Second, Backend: "ollama", URL: srv.URL, Model: "sucursal-ner"}
		r, err := redact.New(cfg, backend, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	s := newRedactor(redact.NERRequired).NewSession(0)
	out, err := s.Redact(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	if want := "el cliente jon arrizabalaga no, @@PERSON-1@@ pide su saldo"; out != want {
		t.Errorf("redacted = %q, want %q (only the exact substring is used)", out, want)
	}
	if st := s.Stats(); st.NERRejected != 1 || st.Degraded {
		t.Errorf("stats = %+v, want the invented name rejected and not degraded", st)
	}
	s.Close()

	srv.Stop(t)

	s = newRedactor(redact.NERFallbackDegraded).NewSession(0)
	if _, err := s.Redact(context.Background(), text); err != nil {
		t.Fatalf("fallback-degraded must answer when Ollama is down: %v", err)
	}
	if !s.Stats().Degraded {
		t.Error("session not marked degraded with Ollama down")
	}
	s.Close()

	s = newRedactor(redact.NERRequired).NewSession(0)
	out, err = s.Redact(context.Background(), text)
	if !errors.Is(err, redact.ErrNERUnavailable) || out != "" {
		t.Fatalf("required with Ollama down: out=%q err=%v, want ErrNERUnavailable", out, err)
	}
	if strings.Contains(err.Error(), "Arrizabalaga") {
		t.Fatalf("error carries the text: %v", err)
	}
	s.Close()
}
