// Package vocab reads a model's tokenizer from its runtime and identifies it by a fingerprint, so
// an edge drafter and a datacenter target can tell at hello whether they share a tokenizer (token
// mode: token ids on the wire) or not (text mode). The fingerprint follows llama.cpp's rule for
// whether a draft model may serve a target: same vocabulary type, same BOS/EOS ids, same size,
// same token texts.
package vocab

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ollama/ollama/api"
)

// Fingerprint identifies a tokenizer.
type Fingerprint struct {
	VocabType string // tokenizer.ggml.model: "llama" is SentencePiece, "gpt2" byte-level BPE
	BOS, EOS  int
	Size      int
	// TokensSHA256 is the hex SHA-256 of the token texts, each followed by a NUL byte.
	TokensSHA256 string
}

// String is the fingerprint as it travels at hello: vocab/bos=N/eos=N/n=N/sha256:HEX.
func (f Fingerprint) String() string {
	return fmt.Sprintf("%s/bos=%d/eos=%d/n=%d/sha256:%s", f.VocabType, f.BOS, f.EOS, f.Size, f.TokensSHA256)
}

// Token types as GGUF's tokenizer.ggml.token_type gives them.
const (
	typeNormal      = 1
	typeUnknown     = 2
	typeControl     = 3
	typeUserDefined = 4
	typeUnused      = 5
	typeByte        = 6
)

// Vocab is a tokenizer's vocabulary: enough to fingerprint it and to map a token's bytes (as a
// runtime reports each generated token) back to its id.
type Vocab struct {
	fp      Fingerprint
	typ     string
	tokens  []string
	types   []int32
	byBytes map[string]int32
}

// New builds a vocabulary. types may be nil (every token normal).
func New(vocabType string, tokens []string, types []int32, bos, eos int) (*Vocab, error) {
	if len(tokens) == 0 {
		return nil, errors.New("vocab: no tokens")
	}
	if types != nil && len(types) != len(tokens) {
		return nil, fmt.Errorf("vocab: %d token types for %d tokens", len(types), len(tokens))
	}
	if bos < -1 || bos >= len(tokens) || eos < -1 || eos >= len(tokens) {
		return nil, fmt.Errorf("vocab: bos %d / eos %d out of range for %d tokens", bos, eos, len(tokens))
	}
	h := sha256.New()
	for _, t := range tokens {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	v := &Vocab{
		fp:      Fingerprint{VocabType: vocabType, BOS: bos, EOS: eos, Size: len(tokens), TokensSHA256: hex.EncodeToString(h.Sum(nil))},
		typ:     vocabType,
		tokens:  tokens,
		types:   types,
		byBytes: make(map[string]int32, len(tokens)),
	}
	// Two passes: normal and user-defined tokens win over byte tokens that decode to the same
	// bytes (SentencePiece's byte fallback "<0x61>" and "a"), because that is what a runtime emits
	// for them; among equals the lowest id wins. Both ends of the link use this same rule, so an
	// id computed here names the same token on either side.
	for pass := 0; pass < 2; pass++ {
		for id := range tokens {
			t := v.tokenType(id)
			if (pass == 0) != (t == typeNormal || t == typeUserDefined) || t == typeControl || t == typeUnknown || t == typeUnused {
				continue
			}
			b, ok := v.decode(id)
			if !ok || b == "" {
				continue
			}
			if _, dup := v.byBytes[b]; !dup {
				v.byBytes[b] = int32(id)
			}
		}
	}
	return v, nil
}

func (v *Vocab) tokenType(id int) int32 {
	if v.types == nil {
		return typeNormal
	}
	return v.types[id]
}

// Fingerprint returns the tokenizer's fingerprint.
func (v *Vocab) Fingerprint() Fingerprint { return v.fp }

// Size is the number of tokens.
func (v *Vocab) Size() int { return len(v.tokens) }

// ID returns the token a runtime emitted as these bytes, if the vocabulary has one.
func (v *Vocab) ID(b []byte) (int32, bool) {
	id, ok := v.byBytes[string(b)]
	return id, ok
}

// Piece returns the bytes token id decodes to ("" for control tokens), false when id is out of
// range.
func (v *Vocab) Piece(id int32) (string, bool) {
	if id < 0 || int(id) >= len(v.tokens) {
		return "", false
	}
	switch v.tokenType(int(id)) {
	case typeControl, typeUnknown, typeUnused:
		return "", true
	}
	return v.decode(int(id))
}

func (v *Vocab) decode(id int) (string, bool) {
	tok := v.tokens[id]
	if v.tokenType(id) == typeByte {
		// "<0xNN>"
		if len(tok) == 6 && strings.HasPrefix(tok, "<0x") && tok[5] == '>' {
			n, err := strconv.ParseUint(tok[3:5], 16, 8)
			if err == nil {
				return string([]byte{byte(n)}), true
			}
		}
		return "", false
	}
	switch v.typ {
	case "llama":
		return strings.ReplaceAll(tok, "▁", " "), true
	case "gpt2":
		var b []byte
		for _, r := range tok {
			c, ok := gpt2Byte[r]
			if !ok {
				return "", false
			}
			b = append(b, c)
		}
		return string(b), true
	}
	return tok, true
}

// gpt2Byte inverts GPT-2's byte-to-unicode table: printable Latin-1 bytes stand for themselves,
// the others are shifted to U+0100 and up.
var gpt2Byte = func() map[rune]byte {
	m := make(map[rune]byte, 256)
	n := 0
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			m[rune(b)] = byte(b)
		} else {
			m[rune(256+n)] = byte(b)
			n++
		}
	}
	return m
}()

// FromModelInfo reads the vocabulary from GGUF metadata as Ollama's /api/show returns it with
// verbose set (model_info["tokenizer.ggml.*"]).
func FromModelInfo(mi map[string]any) (*Vocab, error) {
	typ, _ := mi["tokenizer.ggml.model"].(string)
	raw, ok := mi["tokenizer.ggml.tokens"].([]any)
	if typ == "" || !ok || len(raw) == 0 {
		return nil, errors.New("vocab: the model information has no tokenizer (was /api/show asked with verbose?)")
	}
	tokens := make([]string, len(raw))
	for i, t := range raw {
		s, ok := t.(string)
		if !ok {
			return nil, fmt.Errorf("vocab: token %d is not a string", i)
		}
		tokens[i] = s
	}
	var types []int32
	if rt, ok := mi["tokenizer.ggml.token_type"].([]any); ok {
		types = make([]int32, len(rt))
		for i, t := range rt {
			f, ok := t.(float64)
			if !ok {
				return nil, fmt.Errorf("vocab: token type %d is not a number", i)
			}
			types[i] = int32(f)
		}
	}
	id := func(key string) int {
		if f, ok := mi[key].(float64); ok {
			return int(f)
		}
		return -1
	}
	return New(typ, tokens, types, id("tokenizer.ggml.bos_token_id"), id("tokenizer.ggml.eos_token_id"))
}

// FromOllama reads model's vocabulary from an Ollama server.
func FromOllama(ctx context.Context, c *api.Client, model string) (*Vocab, error) {
	resp, err := c.Show(ctx, &api.ShowRequest{Model: model, Verbose: true})
	if err != nil {
		return nil, fmt.Errorf("vocab: ollama show %s: %w", model, err)
	}
	v, err := FromModelInfo(resp.ModelInfo)
	if err != nil {
		return nil, fmt.Errorf("%w (model %s)", err, model)
	}
	return v, nil
}
