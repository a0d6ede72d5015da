package vllmverifier

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sucursal/sucursal/internal/drafting"
	"github.com/sucursal/sucursal/internal/testmodel"
	"github.com/sucursal/sucursal/internal/vocab"
	"github.com/sucursal/sucursal/internal/wire"
)

// writeTokenizerFiles writes spec's tokenizer as Hugging Face files (SentencePiece-style BPE),
// as an operator would point --draft-verifier-tokenizer at them.
func writeTokenizerFiles(t *testing.T, spec testmodel.Spec) string {
	t.Helper()
	dir := t.TempDir()
	voc := map[string]int{}
	var added []map[string]any
	for id, tok := range spec.Vocab() {
		if id < 3 {
			added = append(added, map[string]any{"id": id, "content": tok, "special": true})
		}
		if _, dup := voc[tok]; !dup {
			voc[tok] = id
		}
	}
	files := map[string]any{
		"tokenizer.json": map[string]any{"added_tokens": added,
			"decoder": map[string]any{"type": "Sequence", "decoders": []any{map[string]any{"type": "Replace", "pattern": map[string]any{"String": "▁"}, "content": " "}}},
			"model":   map[string]any{"type": "BPE", "byte_fallback": true, "unk_token": testmodel.Unk, "vocab": voc, "merges": []string{}}},
		"tokenizer_config.json":  map[string]any{"bos_token": testmodel.BOS, "eos_token": testmodel.EOS},
		"generation_config.json": map[string]any{"eos_token_id": testmodel.EOSID},
	}
	for name, v := range files {
		b, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestVLLMFromTokenizerFiles: a verifier configured from the model's tokenizer files offers token
// mode to an edge whose drafter (a GGUF with the same tokenizer) reports its fingerprint, text mode
// to one with another tokenizer, and its sessions over the fake rebuild the answer.
func TestVLLMFromTokenizerFiles(t *testing.T) {
	spec := testmodel.Alphabet()
	dir := writeTokenizerFiles(t, spec)
	v, err := vocab.FromHFTokenizerJSON(dir)
	if err != nil {
		t.Fatal(err)
	}
	stops, err := vocab.HFStopIDs(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeVLLM(t, spec)
	p, err := New(Options{URL: f.srv.URL, Vocab: v, StopIDs: stops})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := drafting.NewService(drafting.Options{Backend: p}, nil)
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		drafter testmodel.Spec
		mode    string
	}{
		{"same tokenizer", func() testmodel.Spec { s, _ := testmodel.Perturbed(spec, 0.3, 1); return s }(), wire.DraftModeToken},
		{"other tokenizer", spec.WithPieces("bc", "def"), wire.DraftModeText},
	} {
		res, cerr := d.Hello(ctx, mustJSON(t, wire.DraftHello{Model: "target", Fingerprint: tc.drafter.Fingerprint().String(),
			Modes: []string{wire.DraftModeToken, wire.DraftModeText}}))
		if cerr != nil || res.Mode != tc.mode || res.Verifier != "vllm" {
			t.Fatalf("%s: hello chose %+v, %v; want %s", tc.name, res, cerr, tc.mode)
		}
	}
	// A token-mode session whose ids come from the drafter's GGUF-side vocabulary.
	want := spec.Greedy("a", 4096)
	ids := specIDs(spec, spec.GreedyPieces("a", 4096))
	v0 := wire.Verify{Chat: chatBody(t, "a", 0), Round: 1, Mode: wire.DraftModeToken, Tokens: ids[:5], Fingerprint: spec.Fingerprint().String()}
	var out string
	for round := 1; round < 100; round++ {
		v0.Round = round
		res, cerr := d.Round(ctx, roundBody(t, v0))
		if cerr != nil {
			t.Fatal(cerr)
		}
		for _, id := range v0.Tokens[:res.AcceptedTokens] {
			s, _ := spec.PieceText(int(id))
			out += s
		}
		out += res.Next
		if res.Done {
			break
		}
		done := res.CompletionTokens
		v0.Session, v0.Chat, v0.Fingerprint, v0.Tokens = res.Session, nil, "", ids[done:min(done+5, len(ids))]
	}
	if out != want {
		t.Fatalf("rebuilt %q, want %q", out, want)
	}
}
