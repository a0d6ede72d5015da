package testmodel

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestPerturbed(t *testing.T) {
	base := Alphabet()
	n := len(base.Successor)
	for _, tc := range []struct {
		fraction float64
		seed     int64
	}{
		{0, 1}, {0.1, 1}, {0.25, 7}, {0.5, 1}, {0.5, 2}, {1, 3}, {-1, 1}, {2, 1},
	} {
		p, changed := Perturbed(base, tc.fraction, tc.seed)
		wantN := int(math.Round(min(max(tc.fraction, 0), 1) * float64(n)))
		if len(changed) != wantN {
			t.Errorf("fraction %v: %d changed, want %d", tc.fraction, len(changed), wantN)
		}
		for piece, next := range base.Successor {
			differs := p.Successor[piece] != next
			if differs != slices.Contains(changed, piece) {
				t.Errorf("fraction %v: %q differs=%v but reported=%v", tc.fraction, piece, differs, !differs)
			}
		}
		if p.Fingerprint() != base.Fingerprint() {
			t.Errorf("fraction %v: perturbing changed the tokenizer", tc.fraction)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("fraction %v: %v", tc.fraction, err)
		}
		again, changedAgain := Perturbed(base, tc.fraction, tc.seed)
		if !slices.Equal(changed, changedAgain) || !mapsEqual(p.Successor, again.Successor) {
			t.Errorf("fraction %v seed %d: not deterministic", tc.fraction, tc.seed)
		}
	}
	if base.Successor["a"] != "b" {
		t.Fatal("Perturbed modified its base")
	}
	tiny := Spec{Pieces: []string{"a"}, Successor: map[string]string{"a": "a"}}
	if p, changed := Perturbed(tiny, 1, 1); p.Successor["a"] != EOS || !slices.Equal(changed, []string{"a"}) {
		t.Errorf("one-piece vocabulary: successor %q, changed %q", p.Successor["a"], changed)
	}
	_, c1 := Perturbed(base, 0.3, 1)
	_, c2 := Perturbed(base, 0.3, 2)
	if slices.Equal(c1, c2) {
		t.Error("seeds 1 and 2 perturbed the same pieces")
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestWithPiecesKeepsTextBehaviour(t *testing.T) {
	base := Alphabet()
	wide := base.WithPieces("bc", "xyz", "▁hello", "klm", "Hel")
	if wide.Fingerprint() == base.Fingerprint() {
		t.Fatal("WithPieces kept the fingerprint")
	}
	if err := wide.Validate(); err != nil {
		t.Fatal(err)
	}
	prompts := []string{"a", "ab", "abc", "say hello", "hello", "xy", "xyz", "kl", "klm", "Hel", "Help", "9", "", "é"}
	for _, p := range prompts {
		if got, want := wide.Greedy(p, 100), base.Greedy(p, 100); got != want {
			t.Errorf("Greedy(%q): wide %q, base %q", p, got, want)
		}
	}
	if slices.Equal(wide.Tokenize("abcd"), base.Tokenize("abcd")) {
		t.Error("the new pieces do not change tokenization")
	}
}

func TestFingerprint(t *testing.T) {
	a := Alphabet().Fingerprint()
	if a.VocabType != "llama" || a.BOS != 1 || a.EOS != 2 || a.Size != len(Alphabet().Vocab()) {
		t.Fatalf("fingerprint %+v", a)
	}
	if !strings.HasPrefix(a.String(), "llama/bos=1/eos=2/n=") {
		t.Errorf("String() = %q", a.String())
	}
	s := Alphabet()
	s.OutputScale = 2
	s.Successor = map[string]string{}
	if s.Fingerprint() != a {
		t.Error("fingerprint depends on more than the vocabulary")
	}
	if Sentence("Hi", "there").Fingerprint() == a {
		t.Error("different vocabularies share a fingerprint")
	}
}

func TestUniqueChain(t *testing.T) {
	for _, tc := range []struct {
		segs, avoid, want []string
	}{
		{[]string{"a", "b", "c"}, nil, []string{"a", "b", "c"}},
		{[]string{"a", "b", "a"}, nil, []string{"a", "ba"}},
		{[]string{"a", "a", "a"}, nil, []string{"aa", "a"}},
		{[]string{"x"}, []string{"x"}, []string{"x▁"}},
	} {
		got := uniqueChain(tc.segs, tc.avoid)
		if !slices.Equal(got, tc.want) {
			t.Errorf("uniqueChain(%q, %q) = %q, want %q", tc.segs, tc.avoid, got, tc.want)
		}
		seen := map[string]bool{}
		for _, g := range append(got, tc.avoid...) {
			if seen[g] {
				t.Errorf("uniqueChain(%q): %q repeats", tc.segs, g)
			}
			seen[g] = true
		}
		if strings.TrimRight(strings.Join(got, ""), Space) != strings.Join(tc.segs, "") {
			t.Errorf("uniqueChain(%q) changed the text: %q", tc.segs, got)
		}
	}
}

func TestSegments(t *testing.T) {
	got := segments("unsafe\nS2, ok")
	want := []string{"unsafe", "\n", "S2", ",", " ", "ok"}
	if !slices.Equal(got, want) {
		t.Fatalf("segments = %q, want %q", got, want)
	}
}
