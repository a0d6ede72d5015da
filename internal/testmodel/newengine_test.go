package testmodel_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// Ollama 0.17.4 runs the llama architecture on llama.cpp unless OLLAMA_NEW_ENGINE=1; the models
// must behave the same on its Go engine (whose SentencePiece tokenizer is a separate implementation).
func TestOllamaGoEngineMatchesGreedy(t *testing.T) {
	s := ollamatest.Start(t, ollamatest.Env("OLLAMA_NEW_ENGINE=1"))
	spec := testmodel.Alphabet().WithPieces("▁hello", "hello", "bc", "abcd", "xyz")
	s.CreateModel(t, "words", spec, testmodel.PromptTemplate)
	log, err := os.ReadFile(s.Log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "runner --ollama-engine --model") {
		t.Fatal("the model was not loaded on Ollama's Go engine")
	}
	c := s.Client()
	for _, prompt := range []string{"say hello", "abc", "x"} {
		want := spec.Greedy(prompt, 1<<20)
		got, ids := generate(t, c, "words", prompt)
		if got != want {
			t.Errorf("%q: /api/generate = %q, Greedy = %q", prompt, got, want)
		}
		if wantIDs := spec.TokenIDs(prompt + want); !slices.Equal(ids, wantIDs) {
			t.Errorf("%q: context = %v, want %v", prompt, ids, wantIDs)
		}
	}
}
