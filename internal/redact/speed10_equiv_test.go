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
