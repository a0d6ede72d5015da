package ollamaverifier

import "testing"

// The verifier itself runs against a real Ollama in internal/e2e (draft_test.go: every drafting
// test there verifies with it); here only its configuration.
func TestNewTakesOllamasNativeBase(t *testing.T) {
	for _, u := range []string{"ftp://x", "http://", "127.0.0.1:11434", ""} {
		if _, err := New(u, nil); err == nil {
			t.Errorf("%q was accepted", u)
		}
	}
	for _, u := range []string{"http://127.0.0.1:11434", "http://127.0.0.1:11434/", "https://ollama.dc/v1", "http://h:1/v1/"} {
		v, err := New(u, nil)
		if err != nil {
			t.Fatalf("%q: %v", u, err)
		}
		if v.Name() != "ollama" {
			t.Fatalf("name %q", v.Name())
		}
	}
}
