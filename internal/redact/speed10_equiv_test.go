package redact

import "testing"

// The switch and the set must hold the same words.
func TestSeparateStreetWordSwitch(t *testing.T) {
	for w := range separateStreetWord {
		if !isSeparateStreetWord([]byte(w)) {
			t.Errorf("%q in the set, not in the switch", w)
		}
	}
	n := 0
	for _, w := range []string{"straße", "strasse", "str", "gasse", "allee", "platz", "weg", "ring", "damm", "ufer", "straat", "laan", "gracht", "stra", "Str", ""} {
		if isSeparateStreetWord([]byte(w)) != separateStreetWord[w] {
			t.Errorf("%q: switch and set disagree", w)
		}
		if isSeparateStreetWord([]byte(w)) {
			n++
		}
	}
	if n != len(separateStreetWord) {
		t.Errorf("switch holds %d words, set %d", n, len(separateStreetWord))
	}
}

// The byte tables answer as the range tests they replace.
func TestByteClassTables(t *testing.T) {
	for i := 0; i < 256; i++ {
		c := byte(i)
		alnum := c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if isAlnum(c) != alnum {
			t.Errorf("isAlnum(%#x) = %v", c, !alnum)
		}
		if word := alnum || c >= 0x80 || c == '_'; isWordByte(c) != word {
			t.Errorf("isWordByte(%#x) = %v", c, !word)
		}
	}
}
