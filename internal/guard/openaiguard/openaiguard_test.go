package openaiguard_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/openaiguard"
	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/testmodel"
)

const marker = "\n[verdict]"

// Ollama's /v1 endpoint is a real OpenAI-compatible server, which is what llama-server and OVMS
// expose; the generated models answer fixed verdicts.
func TestOpenAICompatibleOnRealOllama(t *testing.T) {
	s := ollamatest.Start(t)
	for name, out := range map[string]string{"guard-safe": "safe", "guard-unsafe-s2": "unsafe\nS2", "pg-malicious": "MALICIOUS"} {
		s.CreateModel(t, name, testmodel.FixedOutput(marker, out), testmodel.FixedOutputTemplate(marker))
	}
	gen := func(model string, logprobs bool) *openaiguard.Generator {
		g, err := openaiguard.New(openaiguard.Options{BaseURL: s.URL + "/v1", Model: model, Logprobs: logprobs, APIKey: "unused"})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	tests := []struct {
		name     string
		c        guard.Classifier
		mal      bool
		category string
	}{
		{"safe", guard.NewSafetyClassifier("lg", gen("guard-safe", false), guard.RoleUser), false, ""},
		{"unsafe S2", guard.NewSafetyClassifier("lg", gen("guard-unsafe-s2", false), guard.RoleUser), true, "S2"},
		{"unsafe S2 with logprobs", guard.NewSafetyClassifier("lg", gen("guard-unsafe-s2", true), guard.RoleAgent), true, "S2"},
		{"malicious label", guard.NewLabelInjectionClassifier("pg", gen("pg-malicious", true)), true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.c.Classify(context.Background(), "¿Puedo transferir 500 euros?")
			if err != nil {
				t.Fatal(err)
			}
			if v.Malicious != tt.mal || (tt.category != "" && (len(v.Categories) != 1 || v.Categories[0].Code != tt.category)) {
				t.Fatalf("verdict %+v", v)
			}
			if math.IsNaN(v.Score) || v.Score < 0 || v.Score > 1 || (v.Malicious && v.Score == 0) {
				t.Errorf("score %v", v.Score)
			}
		})
	}
	t.Run("logprobs come back", func(t *testing.T) {
		g, err := gen("guard-unsafe-s2", true).Generate(context.Background(), []guard.Message{{Role: "user", Content: "x"}})
		if err != nil || g.Text != "unsafe\nS2" || len(g.Tokens) == 0 {
			t.Fatalf("generation %+v err %v", g, err)
		}
		var joined strings.Builder
		for _, tok := range g.Tokens {
			joined.WriteString(tok.Text)
			if tok.Logprob > 0 {
				t.Errorf("logprob %v > 0", tok.Logprob)
			}
		}
		if joined.String() != g.Text {
			t.Errorf("tokens spell %q, text is %q", joined.String(), g.Text)
		}
	})
	t.Run("unknown model is a backend failure without the body", func(t *testing.T) {
		_, err := gen("no-such-model", false).Generate(context.Background(), []guard.Message{{Role: "user", Content: "SECRET"}})
		if !errors.Is(err, guard.ErrBackend) || strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "no-such-model") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("server down", func(t *testing.T) {
		s.Stop(t)
		if _, err := gen("guard-safe", false).Generate(context.Background(), []guard.Message{{Role: "user", Content: "x"}}); !errors.Is(err, guard.ErrBackend) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestParseResponse(t *testing.T) {
	g, err := openaiguard.ParseResponse([]byte(`{"choices":[{"message":{"role":"assistant","content":"unsafe\nS1"},"logprobs":{"content":[{"token":"unsafe","logprob":-0.5}]}}]}`))
	if err != nil || g.Text != "unsafe\nS1" || len(g.Tokens) != 1 || g.Tokens[0].Logprob != -0.5 {
		t.Fatalf("%+v %v", g, err)
	}
	g, err = openaiguard.ParseResponse([]byte(`{"choices":[{"finish_reason":"length","message":{"content":"unsafe\nS1"}}]}`))
	if err != nil || !g.Truncated {
		t.Errorf("finish_reason length: %+v %v", g, err)
	}
	for _, body := range []string{``, `[]`, `{"choices":[]}`, `{"choices":"SECRET"}`} {
		if _, err := openaiguard.ParseResponse([]byte(body)); !errors.Is(err, guard.ErrMalformedOutput) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%q: %v", body, err)
		}
	}
}

// FuzzParseResponse: never panics; errors are ErrMalformedOutput and never quote the body.
func FuzzParseResponse(f *testing.F) {
	f.Add([]byte(`{"choices":[{"message":{"content":"safe"}}]}`))
	f.Add([]byte(`{"choices":[{"message":{"content":"x"},"logprobs":{"content":[{"token":"x","logprob":-1}]}}]}`))
	f.Add([]byte(`{"error":{"message":"SECRET"}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := openaiguard.ParseResponse(body)
		if err != nil && (!errors.Is(err, guard.ErrMalformedOutput) || (strings.Contains(string(body), "SECRET") && strings.Contains(err.Error(), "SECRET"))) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestNewValidates(t *testing.T) {
	for _, o := range []openaiguard.Options{{}, {BaseURL: "127.0.0.1:8080", Model: "m"}, {BaseURL: "http://127.0.0.1:8080/v1"}} {
		if _, err := openaiguard.New(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
