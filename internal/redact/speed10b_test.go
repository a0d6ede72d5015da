package redact

import (
	"math/rand"
	"testing"
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
