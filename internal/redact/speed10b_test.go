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
