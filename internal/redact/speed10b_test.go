package redact

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestNextDigit holds nextDigit to the byte loop it replaces: every byte value at every place of
// a block, and random texts.
func TestNextDigit(t *testing.T) {
	ref := func(text string, i int) int {
		for ; i < len(text) && !isDigitByte(text[i]); i++ {
		}
		return i
	}
	for c := 0; c < 256; c++ {
		for at := 0; at < 19; at++ {
			b := []byte("abcdefghijklmnopqrs")
			b[at] = byte(c)
			for i := 0; i <= len(b); i++ {
				if got, want := nextDigit(string(b), i), ref(string(b), i); got != want {
					t.Fatalf("byte %#x at %d from %d: %d, want %d", c, at, i, got, want)
				}
			}
		}
	}
	rng := rand.New(rand.NewSource(13))
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.Intn(40))
		for k := range b {
			b[k] = byte(rng.Intn(256))
			if rng.Intn(3) == 0 {
				b[k] = "azAZ 09./-\xc3\xa9"[rng.Intn(12)]
			}
		}
		for i := 0; i <= len(b); i++ {
			if got, want := nextDigit(string(b), i), ref(string(b), i); got != want {
				t.Fatalf("%q from %d: %d, want %d", b, i, got, want)
			}
		}
	}
}

// TestDigFromRuns holds prepare's digit counts, read from the digit runs only, to the loop over
// every rune they replace.
func TestDigFromRuns(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	alpha := []string{"0", "1", "9", " ", ".", "-", "/", "a", "Z", "é", "\n", ",", "·"}
	ts := &scanText{}
	for n := 0; n < 20000; n++ {
		var b []byte
		for k := rng.Intn(60); k > 0; k-- {
			b = append(b, alpha[rng.Intn(len(alpha))]...)
		}
		*ts = scanText{runes: ts.runes, heads: ts.heads, headRune: ts.headRune, headAt: ts.headAt, dig: ts.dig, runs: ts.runs}
		ts.dig = append(ts.dig[:0], 7, 7, 7, 7, 7, 7, 7, 7) // stale values a pooled text may hold
		ts.prepare(string(b))
		runes := ts.runes
		m := len(runes)
		want := make([]uint8, m+1)
		for i := m - 1; i >= 0; i-- {
			switch {
			case !isDigit(runes[i]):
				want[i] = 0
			case i+1 < m && isDigit(runes[i+1]):
				want[i] = satInc(want[i+1])
			case i+2 < m && isSep(runes[i+1]) && isDigit(runes[i+2]):
				want[i] = satInc(want[i+2])
			default:
				want[i] = 1
			}
		}
		if string(ts.dig) != string(want) {
			t.Fatalf("%q: dig %v, want %v", b, ts.dig, want)
		}
	}
}

// TestSplitWordsFastPath holds splitWords, with its path for ASCII bytes that end a word, to the
// loop it had before (splitWordsRef) on random texts of letters, accents, joiners and punctuation.
func TestSplitWordsFastPath(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	alpha := []string{"a", "Z", "ñ", "É", "'", "’", "-", "·", " ", "1", ".", ",", "\n", "ª", "º", "ß", "Ж", "\xff", "@", "[", "`", "{", "_"}
	for n := 0; n < 30000; n++ {
		var b []byte
		for k := rng.Intn(30); k > 0; k-- {
			b = append(b, alpha[rng.Intn(len(alpha))]...)
		}
		got, want := splitWords(nil, string(b)), splitWordsRef(nil, string(b))
		if len(got) != len(want) {
			t.Fatalf("%q: %d words, want %d", b, len(got), len(want))
		}
		for k := range got {
			if got[k].start != want[k].start || got[k].end != want[k].end || got[k].text != want[k].text || got[k].ascii != want[k].ascii || got[k].latin1 != want[k].latin1 {
				t.Fatalf("%q: word %d %+v, want %+v", b, k, got[k], want[k])
			}
		}
	}
	for c := 0; c < 256; c++ {
		if got, want := isASCIILetterByte(byte(c)), c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'; got != want {
			t.Fatalf("isASCIILetterByte(%#x) = %v", c, got)
		}
	}
}

// splitWordsRef is splitWords as 21e641c had it.
func splitWordsRef(out []word, text string) []word {
	start := -1
	ascii, latin1 := true, true
	for i := 0; i < len(text); {
		if c := text[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			if start < 0 {
				start, ascii, latin1 = i, true, true
			}
			for i++; i < len(text) && (text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z'); i++ {
			}
			continue
		}
		var r rune
		n := 1
		var letter bool
		if c := text[i]; c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, n = utf8.DecodeRuneInString(text[i:])
			letter = unicode.IsLetter(r) || r == 'ª' || r == 'º'
		}
		joiner := (r == '\'' || r == '’' || r == '-' || r == '·') && start >= 0 && i+n < len(text)
		if joiner {
			next, _ := utf8.DecodeRuneInString(text[i+n:])
			joiner = unicode.IsLetter(next)
		}
		switch {
		case letter || joiner:
			if start < 0 {
				start, ascii, latin1 = i, true, true
			}
			ascii = ascii && n == 1
			latin1 = latin1 && r <= 0xFF && r != '·'
		case start >= 0:
			out = append(out, word{start: start, end: i, text: text[start:i], ascii: ascii, latin1: latin1})
			start = -1
		}
		i += n
	}
	if start >= 0 {
		out = append(out, word{start: start, end: len(text), text: text[start:], ascii: ascii, latin1: latin1})
	}
	return out
}

// TestIsWordRuneTable holds isWordRune's table to the range tests it replaced, and nextASCII to
// a loop over the runes.
func TestIsWordRuneTable(t *testing.T) {
	for r := rune(-2); r < 0x400; r++ {
		want := r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '_' || r >= 0xC0 && r <= 0x24F
		if got := isWordRune(r); got != want {
			t.Fatalf("isWordRune(%#x) = %v", r, got)
		}
	}
	for _, r := range []rune{0x10FFFF, 0xFFFD, 0x2000, -1 << 31} {
		if isWordRune(r) {
			t.Fatalf("isWordRune(%#x)", r)
		}
	}
	rng := rand.New(rand.NewSource(12))
	alpha := []string{"a", "@", ":", "é", "€", " ", "\xff", "1", "𝔸"}
	ts := &scanText{}
	for n := 0; n < 20000; n++ {
		var b []byte
		for k := rng.Intn(30); k > 0; k-- {
			b = append(b, alpha[rng.Intn(len(alpha))]...)
		}
		*ts = scanText{runes: ts.runes, heads: ts.heads, headRune: ts.headRune, headAt: ts.headAt, dig: ts.dig, runs: ts.runs, offs: ts.offs}
		ts.prepare(string(b))
		for _, ch := range []byte{'@', ':'} {
			for i := 0; i <= len(ts.runes)+1; i++ {
				want := i
				for want < len(ts.runes) && ts.runes[want] != rune(ch) {
					want++
				}
				if want > len(ts.runes) {
					want = len(ts.runes)
				}
				if got := ts.nextASCII(ch, i); got != want {
					t.Fatalf("%q: nextASCII(%c, %d) = %d, want %d", b, ch, i, got, want)
				}
			}
		}
	}
}

// TestDigitRunsSkip holds digitRunsInto, which skips the runes outside a run in a tight loop, to
// the loop it had.
func TestDigitRunsSkip(t *testing.T) {
	ref := func(runes []rune) []digitRun {
		var out []digitRun
		cur := digitRun{start: -1}
		for i := 0; i < len(runes); i++ {
			switch {
			case isDigit(runes[i]):
				if cur.start < 0 {
					cur = digitRun{start: i}
				}
				cur.digits++
				cur.end = i + 1
			case cur.start >= 0 && isSep(runes[i]) && i+1 < len(runes) && isDigit(runes[i+1]):
				if runes[i] == '.' {
					cur.dots++
				}
			case cur.start >= 0:
				out = append(out, cur)
				cur.start = -1
			}
		}
		if cur.start >= 0 {
			out = append(out, cur)
		}
		return out
	}
	rng := rand.New(rand.NewSource(14))
	alpha := []rune{'0', '5', '9', ' ', '.', '-', '/', 'a', 'é', '/' + 1, '0' - 1, -1}
	for n := 0; n < 30000; n++ {
		runes := make([]rune, rng.Intn(40))
		for k := range runes {
			runes[k] = alpha[rng.Intn(len(alpha))]
		}
		got, want := digitRunsInto(nil, runes), ref(runes)
		if len(got) != len(want) {
			t.Fatalf("%q: %v, want %v", runes, got, want)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("%q: %v, want %v", runes, got, want)
			}
		}
	}
}

// TestOwnerWordsByPair holds ownerWordsIn, which reads a letter's words by their first two
// bytes, to the loop over every word of the first byte it had, on random windows.
func TestOwnerWordsByPair(t *testing.T) {
	ref := func(b []byte) (home, office, venue int) {
		home, office, venue = -1, -1, -1
		for i := 0; i+1 < len(b); i++ {
			for _, w := range ownerKindsByFirst[b[i]] {
				if w.text[1] == b[i+1] && len(b)-i >= len(w.text) && string(b[i:i+len(w.text)]) == string(w.text) {
					if w.kind == ownerVenue && i > 0 && isWordByte(b[i]) && isWordByte(b[i-1]) {
						continue
					}
					switch w.kind {
					case ownerHome:
						home = i
					case ownerOffice:
						office = i
					default:
						venue = i
					}
				}
			}
		}
		return
	}
	var all [][]byte
	for _, ws := range ownerKindsByFirst {
		for _, w := range ws {
			all = append(all, w.text)
		}
	}
	rng := rand.New(rand.NewSource(15))
	fill := []string{" ", "a", "e", "de ", ", ", "\n", "x", "é", "1"}
	for n := 0; n < 30000; n++ {
		var b []byte
		for k := rng.Intn(12); k > 0; k-- {
			if rng.Intn(2) == 0 {
				w := all[rng.Intn(len(all))]
				b = append(b, w[:1+rng.Intn(len(w))]...)
			} else {
				b = append(b, fill[rng.Intn(len(fill))]...)
			}
		}
		h, o, v := ownerWordsIn(b)
		rh, ro, rv := ref(b)
		if h != rh || o != ro || v != rv {
			t.Fatalf("%q: %d %d %d, want %d %d %d", b, h, o, v, rh, ro, rv)
		}
	}
}

// TestByteNeedles holds containsAny to a bytes.Contains of every word, for the lists it reads.
func TestByteNeedles(t *testing.T) {
	lists := []struct {
		set   *byteNeedles
		words [][]byte
	}{{personalNeedles, personalLineWords}, {institutionNeedles, institutionWords}}
	var nb [][]byte
	nb = append(nb, unknownBytes...)
	for k, w := range notBirthBytes {
		if !dateWords[notBirthWords[k]] {
			nb = append(nb, w)
		}
	}
	lists = append(lists, struct {
		set   *byteNeedles
		words [][]byte
	}{notBirthNeedles, nb})
	rng := rand.New(rand.NewSource(16))
	fill := []string{" ", "a", "s", "de ", ", ", "\n", "x", "é", "1", "h", "c"}
	for _, l := range lists {
		for n := 0; n < 20000; n++ {
			var b []byte
			for k := rng.Intn(10); k > 0; k-- {
				if rng.Intn(3) == 0 {
					w := l.words[rng.Intn(len(l.words))]
					b = append(b, w[rng.Intn(len(w)):][:0]...)
					b = append(b, w[:1+rng.Intn(len(w))]...)
				} else {
					b = append(b, fill[rng.Intn(len(fill))]...)
				}
			}
			want := false
			for _, w := range l.words {
				if bytes.Contains(b, w) {
					want = true
				}
			}
			if got := l.set.containsAny(b); got != want {
				t.Fatalf("%q: %v, want %v", b, got, want)
			}
		}
	}
}

// TestSortSpansPermutation holds sortSpans to slices.SortFunc(spans, spanOrder): the same
// order, ties (same start and end, different types and scores) included, at every length up to
// past the index buffer.
func TestSortSpansPermutation(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	for n := 0; n < 3000; n++ {
		m := rng.Intn(80)
		if n%100 == 0 {
			m = 400 + rng.Intn(300)
		}
		spans := make([]Span, m)
		for k := range spans {
			s := rng.Intn(1 + m/3)
			spans[k] = Span{Start: s, End: s + rng.Intn(4), Type: string(rune('A' + rng.Intn(5))), Score: float64(k)}
		}
		want := slices.Clone(spans)
		slices.SortFunc(want, spanOrder)
		sortSpans(spans)
		if !slices.Equal(spans, want) {
			t.Fatalf("n=%d: the order differs", m)
		}
	}
}
