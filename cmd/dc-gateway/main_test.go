package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestValidateDraftVerifier(t *testing.T) {
	base := options{listen: ":4443", pkiDir: "/x", targetURL: "http://127.0.0.1:8000/v1", guardKind: "safety", logLevel: "info", maxStreams: 1}
	for _, tc := range []struct {
		name               string
		verifier, url, tok string
		wantErr            string
	}{
		{"off", "", "", "", ""},
		{"ollama", "ollama", "", "", ""},
		{"vllm with tokenizer", "vllm", "http://10.0.0.5:8000", "/models/llama/tokenizer.json", ""},
		{"vllm without tokenizer", "vllm", "", "", "needs --draft-verifier-tokenizer"},
		{"tokenizer without vllm", "ollama", "", "/t", "only for --draft-verifier vllm"},
		{"unknown verifier", "sglang", "", "", "is not ollama, vllm"},
		{"bad verifier url", "vllm", "10.0.0.5:8000", "/t", "--draft-verifier-url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			o.draftVerifier, o.draftVerifierURL, o.draftVerifierTokenizer = tc.verifier, tc.url, tc.tok
			err := o.validate()
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("validate() = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestNewDraftingVLLM(t *testing.T) {
	dir := t.TempDir()
	tok := `{"model":{"type":"BPE","vocab":{"Ġhello":0,"hi":1}},"added_tokens":[{"id":2,"content":"<|end|>","special":true}],
		"pre_tokenizer":{"type":"ByteLevel"},"decoder":{"type":"ByteLevel"}}`
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(tok), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(`{"eos_token":"<|end|>"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	o := options{targetURL: "http://127.0.0.1:8000/v1", draftVerifier: "vllm", draftVerifierTokenizer: dir}
	d, err := newDrafting(o, prometheus.NewRegistry(), log)
	if err != nil || d == nil {
		t.Fatalf("newDrafting: %v", err)
	}
	o.draftVerifierTokenizer = filepath.Join(dir, "missing")
	if _, err := newDrafting(o, prometheus.NewRegistry(), log); err == nil {
		t.Fatal("a missing tokenizer was accepted")
	}
	if d, err := newDrafting(options{}, prometheus.NewRegistry(), log); d != nil || err != nil {
		t.Fatalf("drafting off gave %v, %v", d, err)
	}
}
