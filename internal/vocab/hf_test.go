package vocab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/testmodel"
)

// writeHFFiles writes a Hugging Face tokenizer folder the way the transformers library saves a
// SentencePiece-style BPE tokenizer (Llama 2, Mistral): token→id vocabulary, <unk>/<s>/</s> as
// special added tokens, byte fallback, the "▁" decoder.
func writeHFFiles(t *testing.T, tokens []string, files map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	voc := map[string]int{}
	var added []map[string]any
	for id, tok := range tokens {
		if tok == testmodel.Unk || tok == testmodel.BOS || tok == testmodel.EOS {
			added = append(added, map[string]any{"id": id, "content": tok, "special": true, "normalized": false})
		}
		if _, dup := voc[tok]; !dup {
			voc[tok] = id
		}
	}
	tj := map[string]any{
		"version":      "1.0",
		"added_tokens": added,
		"normalizer":   map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "Replace", "pattern": map[string]any{"String": " "}, "content": "▁"}}},
		"decoder": map[string]any{"type": "Sequence", "decoders": []any{
			map[string]any{"type": "Replace", "pattern": map[string]any{"String": "▁"}, "content": " "},
			map[string]any{"type": "ByteFallback"}, map[string]any{"type": "Fuse"}}},
		"model": map[string]any{"type": "BPE", "byte_fallback": true, "unk_token": testmodel.Unk, "vocab": voc, "merges": []string{}},
	}
	all := map[string]any{"tokenizer.json": tj,
		"tokenizer_config.json": map[string]any{"bos_token": testmodel.BOS, "eos_token": map[string]any{"content": testmodel.EOS, "special": true}}}
	for k, v := range files {
		all[k] = v
	}
	for name, v := range all {
		if v == nil {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ggufFingerprint is what an edge sees for spec: the fingerprint vocab.New gives for the tokenizer
// metadata of the GGUF file the generator writes.
func ggufFingerprint(t *testing.T, spec testmodel.Spec) string {
	t.Helper()
	var buf bytes.Buffer
	if err := testmodel.Write(&buf, spec); err != nil {
		t.Fatal(err)
	}
	h, err := testmodel.ReadHeader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	md := h.Metadata
	var tokens []string
	for _, x := range md["tokenizer.ggml.tokens"].([]any) {
		tokens = append(tokens, x.(string))
	}
	var types []int32
	for _, x := range md["tokenizer.ggml.token_type"].([]any) {
		types = append(types, x.(int32))
	}
	v, err := New(md["tokenizer.ggml.model"].(string), tokens, types,
		int(md["tokenizer.ggml.bos_token_id"].(uint32)), int(md["tokenizer.ggml.eos_token_id"].(uint32)))
	if err != nil {
		t.Fatal(err)
	}
	return v.Fingerprint().String()
}

func TestHFFingerprintEqualsGGUF(t *testing.T) {
	for name, spec := range map[string]testmodel.Spec{
		"alphabet": testmodel.Alphabet(),
		"sentence": testmodel.Sentence("hello", "the", "quick", "brown", "fox"),
		"pieces":   testmodel.Alphabet().WithPieces("bc", "def", "▁a"),
	} {
		t.Run(name, func(t *testing.T) {
			want := ggufFingerprint(t, spec)
			for _, path := range []string{"", "tokenizer.json"} {
				dir := writeHFFiles(t, spec.Vocab(), nil)
				v, err := FromHFTokenizerJSON(filepath.Join(dir, path))
				if err != nil {
					t.Fatal(err)
				}
				if got := v.Fingerprint().String(); got != want {
					t.Fatalf("HF files give %s, the GGUF %s", got, want)
				}
			}
		})
	}
	// A different tokenizer never matches.
	dir := writeHFFiles(t, testmodel.Alphabet().WithPieces("xyz").Vocab(), nil)
	v, err := FromHFTokenizerJSON(dir)
	if err != nil {
		t.Fatal(err)
	}
	if v.Fingerprint().String() == ggufFingerprint(t, testmodel.Alphabet()) {
		t.Fatal("a tokenizer with an extra piece has the alphabet's fingerprint")
	}
}

// TestHFDecodesLikeTheGGUF: the texts and ids a verifier reads from the HF files are the ones the
// edge's vocabulary (from the GGUF) gives, so both ends name the same bytes by the same id.
func TestHFDecodesLikeTheGGUF(t *testing.T) {
	spec := testmodel.Sentence("hello", "the quick brown fox")
	v, err := FromHFTokenizerJSON(writeHFFiles(t, spec.Vocab(), nil))
	if err != nil {
		t.Fatal(err)
	}
	for i, tok := range spec.Vocab() {
		got, ok := v.Piece(int32(i))
		want := strings.ReplaceAll(tok, testmodel.Space, " ")
		switch {
		case i < 3:
			want = "" // <unk>, <s>, </s>: control tokens have no text
		case i < 3+256:
			want = string([]byte{byte(i - 3)})
		}
		if !ok || got != want {
			t.Fatalf("Piece(%d) = %q, %v; want %q", i, got, ok, want)
		}
		if raw, _ := v.Token(int32(i)); raw != tok {
			t.Fatalf("Token(%d) = %q, want %q", i, raw, tok)
		}
	}
	if _, ok := v.Token(int32(len(spec.Vocab()))); ok {
		t.Error("a token past the end was found")
	}
}

func TestHFPaddingSpecialsAndStops(t *testing.T) {
	tokens := testmodel.Alphabet().Vocab()
	n := len(tokens)
	// config.json's vocab_size pads the table, as convert_hf_to_gguf.py does.
	dir := writeHFFiles(t, tokens, map[string]any{
		"config.json":            map[string]any{"vocab_size": n + 3, "bos_token_id": 1, "eos_token_id": 2},
		"generation_config.json": map[string]any{"eos_token_id": []int{2, n + 1, n + 99}},
	})
	v, err := FromHFTokenizerJSON(dir)
	if err != nil {
		t.Fatal(err)
	}
	padded := append(slices.Clone(tokens), fmt.Sprintf("[PAD%d]", n), fmt.Sprintf("[PAD%d]", n+1), fmt.Sprintf("[PAD%d]", n+2))
	want, _ := New("llama", padded, nil, 1, 2)
	if v.Fingerprint() != want.Fingerprint() {
		t.Fatalf("padded fingerprint %s, want %s", v.Fingerprint(), want.Fingerprint())
	}
	stops, err := HFStopIDs(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(stops, []int32{2, int32(n + 1)}) {
		t.Fatalf("stop ids %v (out-of-range ids must be dropped)", stops)
	}

	// Ids past config.json's vocab_size are dropped (the embedding has no row for them), and a
	// user-defined (not special) added token is stored with its "▁" as spaces, as the converter does.
	tj := map[string]any{"model": map[string]any{"type": "BPE", "byte_fallback": true, "vocab": map[string]int{"a": 0, "▁b": 1, "c": 2}},
		"added_tokens": []any{map[string]any{"id": 2, "content": "▁c▁", "special": false}, map[string]any{"id": 3, "content": "<extra>", "special": true}}}
	dir2 := t.TempDir()
	for name, v := range map[string]any{"tokenizer.json": tj, "config.json": map[string]any{"vocab_size": 3}} {
		b, _ := json.Marshal(v)
		os.WriteFile(filepath.Join(dir2, name), b, 0o600)
	}
	v2, err := FromHFTokenizerJSON(dir2)
	if err != nil {
		t.Fatal(err)
	}
	want2, _ := New("llama", []string{"a", "▁b", " c "}, nil, -1, -1)
	if v2.Fingerprint() != want2.Fingerprint() {
		t.Fatalf("got %s, want %s", v2.Fingerprint(), want2.Fingerprint())
	}

	// Without tokenizer_config.json, config.json names BOS/EOS.
	dir = writeHFFiles(t, tokens, map[string]any{"config.json": map[string]any{"bos_token_id": 1, "eos_token_id": []int{2, 5}}})
	os.Remove(filepath.Join(dir, "tokenizer_config.json"))
	v, err = FromHFTokenizerJSON(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fp := v.Fingerprint(); fp.BOS != 1 || fp.EOS != 2 {
		t.Fatalf("bos/eos %d/%d from config.json", fp.BOS, fp.EOS)
	}

	// Byte-level BPE is "gpt2".
	g := t.TempDir()
	os.WriteFile(filepath.Join(g, "tokenizer.json"), []byte(`{"model":{"type":"BPE","vocab":{"Ġhello":0,"hi":1}},
		"added_tokens":[{"id":2,"content":"<|end|>","special":true}],"pre_tokenizer":{"type":"ByteLevel"},"decoder":{"type":"ByteLevel"}}`), 0o600)
	os.WriteFile(filepath.Join(g, "tokenizer_config.json"), []byte(`{"eos_token":"<|end|>","bos_token":null}`), 0o600)
	gv, err := FromHFTokenizerJSON(g)
	if err != nil {
		t.Fatal(err)
	}
	wantG, _ := New("gpt2", []string{"Ġhello", "hi", "<|end|>"}, nil, -1, 2)
	if gv.Fingerprint() != wantG.Fingerprint() {
		t.Fatalf("gpt2 fingerprint %s, want %s", gv.Fingerprint(), wantG.Fingerprint())
	}
	if p, _ := gv.Piece(0); p != " hello" {
		t.Fatalf("Piece(0) = %q", p)
	}
}

func TestHFRefusals(t *testing.T) {
	for name, content := range map[string]string{
		"not JSON":        `{`,
		"unigram":         `{"model":{"type":"Unigram","vocab":[["a",0]]}}`,
		"wordpiece":       `{"model":{"type":"WordPiece","vocab":{"a":0}}}`,
		"plain BPE":       `{"model":{"type":"BPE","vocab":{"a":0}}}`,
		"negative id":     `{"model":{"type":"BPE","byte_fallback":true,"vocab":{"a":-1}}}`,
		"vocab not a map": `{"model":{"type":"BPE","byte_fallback":true,"vocab":[1,2]}}`,
		"empty":           `{"model":{"type":"BPE","byte_fallback":true,"vocab":{}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(content), 0o600)
			if _, err := FromHFTokenizerJSON(dir); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	if _, err := FromHFTokenizerJSON(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("a missing folder was accepted")
	}
}
