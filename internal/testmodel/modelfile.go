package testmodel

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// PromptTemplate is the Modelfile TEMPLATE that makes /api/generate, /api/chat and
// /v1/chat/completions all feed the model exactly the user's text, so Greedy(userText, n) is the
// answer (see docs/TESTMODELS.md). It is also Ollama's default when a Modelfile has no TEMPLATE.
const PromptTemplate = "{{ .Prompt }}"

// Modelfile returns a Modelfile for `ollama create -f`: FROM the GGUF and, if template is not empty,
// the TEMPLATE.
func Modelfile(ggufPath, template string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "FROM %s\n", ggufPath)
	if template != "" {
		fmt.Fprintf(&b, "TEMPLATE \"\"\"%s\"\"\"\n", template)
	}
	return b.String()
}

// Fingerprint identifies a tokenizer the way llama.cpp decides whether a draft model may be used with
// a target: same vocabulary type, same BOS/EOS, same size, same token texts.
type Fingerprint struct {
	VocabType string // tokenizer.ggml.model: "llama" is SentencePiece
	BOS, EOS  int
	Size      int
	// TokensSHA256 is the hex SHA-256 of the token texts, each followed by a NUL byte.
	TokensSHA256 string
}

func (f Fingerprint) String() string {
	return fmt.Sprintf("%s/bos=%d/eos=%d/n=%d/sha256:%s", f.VocabType, f.BOS, f.EOS, f.Size, f.TokensSHA256)
}

// Fingerprint returns the tokenizer fingerprint of the model Write makes from s.
func (s Spec) Fingerprint() Fingerprint {
	return fingerprint("llama", bosID, eosID, s.vocab().tokens)
}

func fingerprint(model string, bos, eos int, tokens []string) Fingerprint {
	h := sha256.New()
	for _, t := range tokens {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	return Fingerprint{VocabType: model, BOS: bos, EOS: eos, Size: len(tokens), TokensSHA256: hex.EncodeToString(h.Sum(nil))}
}
