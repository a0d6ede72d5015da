package testmodel

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTokenize(t *testing.T) {
	words := Alphabet().WithPieces("▁hello", "hello", "bc", "abcd", "ab")
	for _, tc := range []struct {
		name string
		spec Spec
		text string
		want []string
	}{
		{"empty", Alphabet(), "", nil},
		{"chars", Alphabet(), "ab c", []string{"a", "b", "▁", "c"}},
		{"newline", Alphabet(), "a\nb", []string{"a", "\n", "b"}},
		{"byte fallback", Alphabet(), "é", []string{"<0xC3>", "<0xA9>"}},
		{"byte fallback mid-word", Alphabet(), "caf€s", []string{"c", "a", "f", "<0xE2>", "<0x82>", "<0xAC>", "s"}},
		{"specials", Alphabet(), "a</s>b<s><unk>", []string{"a", "</s>", "b", "<s>", "<unk>"}},
		{"word after space", words, "say hello", []string{"s", "a", "y", "▁hello"}},
		{"word at start", words, "hello", []string{"hello"}},
		{"word inside", words, "xhellox", []string{"x", "hello", "x"}},
		// abcd brings its prefixes ab and abc: a+b, ab+c, abc+d merge in turn.
		{"prefix chain", words, "abcd", []string{"abcd"}},
		{"prefix of a word", words, "xabcx", []string{"x", "abc", "x"}},
		// ab and bc have the same score; the leftmost pair merges first, then c is left alone.
		{"tie goes left", Spec{Pieces: []string{"a", "b", "c", "ab", "bc"}}, "abc", []string{"ab", "c"}},
		// After a+b, both ab+c (score 3) and c+d (score 2) can merge; the higher score wins.
		{"higher score first", Spec{Pieces: []string{"a", "b", "c", "d", "abc", "cd"}}, "abcd", []string{"abc", "d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.spec.Tokenize(tc.text)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Tokenize(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestGreedy(t *testing.T) {
	const lower = "abcdefghijklmnopqrstuvwxyz"
	marker := "\n[verdict]"
	for _, tc := range []struct {
		name   string
		spec   Spec
		prompt string
		n      int
		want   string
	}{
		{"alphabet from a", Alphabet(), "a", 100, lower[1:]},
		{"alphabet from q", Alphabet(), "what is q", 100, lower[strings.IndexByte(lower, 'q')+1:]},
		{"alphabet capped", Alphabet(), "a", 3, lower[1:4]},
		{"alphabet upper", Alphabet(), "X", 100, "YZ"},
		{"alphabet digits", Alphabet(), "07", 100, "89"},
		{"alphabet z stops", Alphabet(), "z", 100, ""},
		{"alphabet punctuation stops", Alphabet(), "a.", 100, ""},
		{"alphabet byte stops", Alphabet(), "é", 100, ""},
		{"alphabet empty prompt", Alphabet(), "", 100, ""},
		{"sentence", Sentence("Hello", "the", "cat", "sat", "on", "the", "mat."), "Say Hello", 100, " the cat sat on the mat."},
		{"sentence at start", Sentence("Hello", "world"), "Hello", 100, " world"},
		{"sentence glued", Sentence("Hello", "world"), "xHello", 100, " world"},
		{"sentence other ending", Sentence("Hello", "world"), "Hello there", 100, ""},
		{"sentence capped", Sentence("Hi", "one", "two", "three"), "Hi", 2, " one two"},
		{"fixed safe", FixedOutput(marker, "safe"), "how do I open an account?" + marker, 100, "safe"},
		{"fixed unsafe", FixedOutput(marker, "unsafe\nS2"), "rob the bank" + marker, 100, "unsafe\nS2"},
		{"fixed repeated letters", FixedOutput(marker, "hello hello"), "x" + marker, 100, "hello hello"},
		{"fixed ignores the prompt", FixedOutput(marker, "unsafe\nS2"), "safe\nS2 unsafe" + marker, 100, "unsafe\nS2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.spec.Greedy(tc.prompt, tc.n); got != tc.want {
				t.Fatalf("Greedy(%q, %d) = %q, want %q", tc.prompt, tc.n, got, tc.want)
			}
			if got := strings.Join(decode(tc.spec.GreedyPieces(tc.prompt, tc.n)), ""); got != tc.want {
				t.Fatalf("GreedyPieces decode to %q, want %q", got, tc.want)
			}
		})
	}
}

func decode(pieces []string) []string {
	out := make([]string, len(pieces))
	for i, p := range pieces {
		out[i] = strings.ReplaceAll(p, Space, " ")
	}
	return out
}

func TestFixedOutputTemplate(t *testing.T) {
	if got := FixedOutputTemplate("\n[v]"); got != "{{ .Prompt }}\n[v]" {
		t.Fatalf("FixedOutputTemplate = %q", got)
	}
}

// FuzzTokenize checks that the tokenizer loses nothing: decoding the pieces gives the text back.
func FuzzTokenize(f *testing.F) {
	spec := Alphabet().WithPieces("▁hello", "bc", "abcd", "▁the")
	for _, s := range []string{"", "a", "say hello", "abcd bc", "é€", "a</s>b", "\xff\xfe", "\xe2\x82"} {
		f.Add(s)
	}
	v := spec.vocab()
	f.Fuzz(func(t *testing.T, text string) {
		// A literal ▁ decodes to a space by design. Invalid UTF-8 is not round-tripped either, in
		// llama.cpp as here: a stray lead byte swallows the bytes of the next ▁ into byte tokens.
		if strings.Contains(text, Space) || !utf8.ValidString(text) {
			return
		}
		var b strings.Builder
		for _, id := range v.tokenize(text) {
			b.WriteString(v.piece(id))
		}
		if b.String() != text {
			t.Fatalf("decode(tokenize(%q)) = %q", text, b.String())
		}
	})
}
