package testmodel

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Special tokens every model starts with, in this order (ids 0, 1, 2), then the 256 byte tokens.
const (
	Unk = "<unk>"
	BOS = "<s>"
	EOS = "</s>"

	// Space is SentencePiece's visible space: pieces spell " " as "▁".
	Space = "▁"
)

const (
	unkID      = 0
	bosID      = 1
	eosID      = 2
	firstByte  = 3
	firstPiece = firstByte + 256

	defaultOutputScale   = 40
	defaultContextLength = 2048
)

// ErrInvalidSpec is returned (wrapped) by Write and Validate for a Spec that cannot make a model.
var ErrInvalidSpec = errors.New("testmodel: invalid spec")

// Spec describes a tiny model: its vocabulary and what it emits after each piece.
type Spec struct {
	// Name goes into general.name; empty means "sucursal-tiny".
	Name string
	// Pieces are the vocabulary after <unk>, <s>, </s> and the 256 byte tokens: single characters
	// ("▁" for space) and multi-character pieces. SentencePiece forms a multi-character piece only by
	// merging two adjacent pieces that are both in the vocabulary, so every proper prefix of a
	// multi-character piece is added automatically, just before it.
	Pieces []string
	// Successor maps a piece to the piece the model emits after it; EOS ends generation. Pieces
	// without an entry (and <unk>, <s>, byte tokens) are followed by EOS.
	Successor map[string]string
	// OutputScale is roughly the logit of the successor; every other piece gets less than half of it.
	// 0 means 40 (sharp: greedy and default sampling agree). Lower values give softer logprobs with
	// the same argmax.
	OutputScale float32
	// ContextLength is llama.context_length; 0 means 2048.
	ContextLength int
}

// vocab is the resolved token table of a Spec.
type vocab struct {
	tokens []string
	types  []int32
	scores []float32
	index  map[string]int
}

// Token types as llama.cpp reads tokenizer.ggml.token_type.
const (
	typeNormal  = 1
	typeUnknown = 2
	typeControl = 3
	typeByte    = 6
)

func (s Spec) vocab() vocab {
	v := vocab{index: make(map[string]int)}
	add := func(tok string, typ int32, score float32) {
		if _, ok := v.index[tok]; ok {
			return
		}
		v.index[tok] = len(v.tokens)
		v.tokens = append(v.tokens, tok)
		v.types = append(v.types, typ)
		v.scores = append(v.scores, score)
	}
	add(Unk, typeUnknown, 0)
	add(BOS, typeControl, 0)
	add(EOS, typeControl, 0)
	for b := 0; b < 256; b++ {
		add(byteToken(byte(b)), typeByte, 0)
	}
	for _, p := range s.Pieces {
		// Prefixes first, so they exist for the merges and get the lower ids.
		n := 0
		for i := range p {
			if n > 0 {
				pre := p[:i]
				add(pre, typeNormal, pieceScore(pre))
			}
			n++
		}
		add(p, typeNormal, pieceScore(p))
	}
	return v
}

// pieceScore makes SentencePiece prefer longer merges, so whole words win over their fragments.
func pieceScore(p string) float32 { return float32(utf8.RuneCountInString(p)) }

func byteToken(b byte) string { return fmt.Sprintf("<0x%02X>", b) }

func (s Spec) outputScale() float32 {
	if s.OutputScale == 0 {
		return defaultOutputScale
	}
	return s.OutputScale
}

func (s Spec) contextLength() int {
	if s.ContextLength == 0 {
		return defaultContextLength
	}
	return s.ContextLength
}

// successorID returns the token the model emits after token id.
func (s Spec) successorID(v vocab, id int) int {
	if id < firstPiece {
		return eosID
	}
	next, ok := s.Successor[v.tokens[id]]
	if !ok {
		return eosID
	}
	return v.index[next]
}

// Validate reports every problem with the Spec at once.
func (s Spec) Validate() error {
	var errs []error
	if s.OutputScale < 0 {
		errs = append(errs, fmt.Errorf("output scale %v is negative", s.OutputScale))
	}
	if s.ContextLength < 0 {
		errs = append(errs, fmt.Errorf("context length %d is negative", s.ContextLength))
	}
	for i, p := range s.Pieces {
		switch {
		case p == "":
			errs = append(errs, fmt.Errorf("piece %d is empty", i))
		case !utf8.ValidString(p):
			errs = append(errs, fmt.Errorf("piece %d is not valid UTF-8", i))
		case p == Unk || p == BOS || p == EOS || isByteToken(p):
			errs = append(errs, fmt.Errorf("piece %d (%q) collides with a special or byte token", i, p))
		case strings.Contains(p, " "):
			errs = append(errs, fmt.Errorf("piece %d (%q) contains a space; spell it %q", i, p, Space))
		}
	}
	v := s.vocab()
	for _, from := range sortedKeys(s.Successor) {
		to := s.Successor[from]
		if _, ok := v.index[from]; !ok || v.types[v.index[from]] != typeNormal {
			errs = append(errs, fmt.Errorf("successor of %q: %q is not a piece", from, from))
		}
		if id, ok := v.index[to]; !ok || (to != EOS && v.types[id] != typeNormal) {
			errs = append(errs, fmt.Errorf("successor of %q: %q is neither a piece nor %s", from, to, EOS))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSpec, err)
	}
	return nil
}

func isByteToken(p string) bool {
	var b byte
	n, err := fmt.Sscanf(p, "<0x%02X>", &b)
	return err == nil && n == 1 && len(p) == 6
}

// Clone returns a deep copy, so derived specs never share maps with their base.
func (s Spec) Clone() Spec {
	c := s
	c.Pieces = append([]string(nil), s.Pieces...)
	c.Successor = make(map[string]string, len(s.Successor))
	for k, v := range s.Successor {
		c.Successor[k] = v
	}
	return c
}
