package vocab

import (
	"context"
	"testing"

	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/testmodel"
)

func TestDecodeAndIDs(t *testing.T) {
	// SentencePiece: "▁" is a space; byte tokens decode to their byte but lose to a normal token
	// with the same bytes, whatever the order.
	v, err := New("llama", []string{"<unk>", "<s>", "</s>", "<0x61>", "a", "▁b", "<0xC3>", "é"},
		[]int32{2, 3, 3, 6, 1, 1, 6, 1}, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bytes string
		id    int32
		ok    bool
	}{{"a", 4, true}, {" b", 5, true}, {"\xc3", 6, true}, {"é", 7, true}, {"</s>", 0, false}, {"", 0, false}} {
		id, ok := v.ID([]byte(tc.bytes))
		if ok != tc.ok || (ok && id != tc.id) {
			t.Errorf("ID(%q) = %d, %v; want %d, %v", tc.bytes, id, ok, tc.id, tc.ok)
		}
	}
	if p, _ := v.Piece(5); p != " b" {
		t.Errorf("Piece(5) = %q", p)
	}
	if p, ok := v.Piece(2); !ok || p != "" {
		t.Errorf("a control token decodes to %q, %v", p, ok)
	}
	if _, ok := v.Piece(99); ok {
		t.Error("an id out of range decoded")
	}

	// Byte-level BPE: "Ġ" is a space, "Ċ" a newline.
	g, err := New("gpt2", []string{"Ġhello", "Ċ", "hi"}, nil, -1, -1)
	if err != nil {
		t.Fatal(err)
	}
	for want, b := range map[int32]string{0: " hello", 1: "\n", 2: "hi"} {
		if id, ok := g.ID([]byte(b)); !ok || id != want {
			t.Errorf("gpt2 ID(%q) = %d, %v", b, id, ok)
		}
	}
}

func TestFingerprintFollowsLlamaCppsRule(t *testing.T) {
	base := func() (string, []string, []int32, int, int) {
		return "llama", []string{"<unk>", "<s>", "</s>", "a", "b"}, nil, 1, 2
	}
	fp := func(typ string, toks []string, types []int32, bos, eos int) string {
		v, err := New(typ, toks, types, bos, eos)
		if err != nil {
			t.Fatal(err)
		}
		return v.Fingerprint().String()
	}
	ref := fp(base())
	if fp(base()) != ref {
		t.Fatal("the fingerprint is not deterministic")
	}
	typ, toks, types, bos, eos := base()
	for name, other := range map[string]string{
		"vocab type":  fp("gpt2", toks, types, bos, eos),
		"bos":         fp(typ, toks, types, 0, eos),
		"eos":         fp(typ, toks, types, bos, 1),
		"size":        fp(typ, append(toks[:len(toks):len(toks)], "c"), types, bos, eos),
		"token texts": fp(typ, []string{"<unk>", "<s>", "</s>", "a", "c"}, types, bos, eos),
	} {
		if other == ref {
			t.Errorf("a different %s gives the same fingerprint", name)
		}
	}
	if _, err := New("llama", nil, nil, 0, 0); err == nil {
		t.Error("an empty vocabulary was accepted")
	}
	if _, err := New("llama", []string{"a"}, nil, 3, 0); err == nil {
		t.Error("a BOS out of range was accepted")
	}
}

// TestFromOllama reads generated models back from a real Ollama: the fingerprint is the one the
// generator computes from the spec, two models with the same tokenizer (but different weights)
// agree, and one with extra pieces does not.
func TestFromOllama(t *testing.T) {
	o := ollamatest.Start(t)
	tgt := testmodel.Alphabet()
	same, _ := testmodel.Perturbed(tgt, 0.3, 11)
	other := tgt.WithPieces("bc", "def")
	o.CreateModel(t, "tgt", tgt, testmodel.PromptTemplate)
	o.CreateModel(t, "same", same, testmodel.PromptTemplate)
	o.CreateModel(t, "other", other, testmodel.PromptTemplate)
	ctx := context.Background()
	got := map[string]*Vocab{}
	for _, m := range []string{"tgt", "same", "other"} {
		v, err := FromOllama(ctx, o.Client(), m)
		if err != nil {
			t.Fatal(err)
		}
		got[m] = v
	}
	if g, w := got["tgt"].Fingerprint().String(), tgt.Fingerprint().String(); g != w {
		t.Fatalf("fingerprint from Ollama %s, from the spec %s", g, w)
	}
	if got["same"].Fingerprint() != got["tgt"].Fingerprint() {
		t.Error("a drafter with the target's tokenizer has another fingerprint")
	}
	if got["other"].Fingerprint() == got["tgt"].Fingerprint() {
		t.Error("a drafter with extra pieces has the target's fingerprint")
	}
	// Every letter maps back to the id of its piece, not to its byte-fallback token.
	ids := map[string]int{}
	for i, p := range tgt.Vocab() {
		if _, dup := ids[p]; !dup {
			ids[p] = i
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		id, ok := got["tgt"].ID([]byte(string(c)))
		if !ok || int(id) != ids[string(c)] {
			t.Errorf("%q maps to %d, %v; the spec's piece is id %d", c, id, ok, ids[string(c)])
		}
	}
	if _, err := FromOllama(ctx, o.Client(), "missing"); err == nil {
		t.Error("an unknown model gave a vocabulary")
	}
}
