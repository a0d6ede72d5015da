package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The one-pass forms of the hot loops (issue #11's cost) must compute what the forms they
// replaced computed; these tests keep the replaced forms as the reference.

// equivTexts: every corpus text, and random mixes of the characters the loops treat apart.
func equivTexts(t *testing.T) []string {
	var texts []string
	for _, it := range append(loadCorpus(t), loadItems(t, "handwritten.jsonl")...) {
		texts = append(texts, it.Text)
	}
	alphabet := []string{"a", "Z", "0", "9", "@", ":", ".", " ", "\n", "\t", "\r", "_", "-", "É", "é", "×", "Ø", "ñ", "Ñ", "ß", "İ", "€", "\xc3", "\xc3\x97", "\x80"}
	rng := rand.New(rand.NewPCG(11, 13))
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := rng.IntN(40); k >= 0; k-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	return texts
}

func TestProfileOnePassMatchesTwoPasses(t *testing.T) {
	var p profile
	for _, text := range equivTexts(t) {
		want := profile{lower: appendLowerSameLength(nil, text)}
		for i := 0; i < len(text); i++ {
			switch c := text[i]; {
			case c >= '0' && c <= '9':
				want.digits++
			case c == '@':
				want.at++
			case c == ':':
				want.colon++
			case c == '.':
				want.dots++
			case c >= 'A' && c <= 'Z':
				want.upper++
			}
		}
		p.reset(text)
		if p.digits != want.digits || p.at != want.at || p.colon != want.colon || p.dots != want.dots ||
			p.upper != want.upper || string(p.lower) != string(want.lower) {
			t.Fatalf("profile of a %d-byte text differs from the two-pass profile", len(text))
		}
	}
}

func TestHeadsOnePassMatchesSearch(t *testing.T) {
	var st scanText
	for _, text := range equivTexts(t) {
		st.prepared = false
		st.prepare(text)
		var heads []int32
		for i, r := range st.runes {
			if (i == 0 || !isWordRune(st.runes[i-1])) && r != ' ' && r != '\n' && r != '\t' && r != '\r' {
				heads = append(heads, int32(i))
			}
		}
		if !slices.Equal(heads, st.heads) {
			t.Fatalf("heads of a %d-byte text differ", len(text))
		}
		for i := 0; i <= len(st.runes); i++ {
			if j, _ := slices.BinarySearch(heads, int32(i)); int(st.headAt[i]) != j {
				t.Fatalf("headAt[%d] = %d, the search says %d", i, st.headAt[i], j)
			}
		}
	}
}
