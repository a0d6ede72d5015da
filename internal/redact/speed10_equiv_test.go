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

// byteProfiled and byteNeeds leave out only bytes profile.reset and needs do nothing with.
func TestByteClassSkips(t *testing.T) {
	for i := 0; i < 256; i++ {
		c := byte(i)
		if byteClass[c]&byteProfiled == 0 {
			var p profile
			p.reset(string([]byte{c, c}))
			if p.upper+p.digits+p.at+p.colon+p.dots != 0 || string(p.lower) != string([]byte{c, c}) {
				t.Errorf("profile.reset counts or changes %#x", c)
			}
		}
		if byteClass[c]&byteNeeds == 0 {
			if c >= 0x80 {
				t.Errorf("%#x: a non-ASCII byte must be looked at", c)
			}
			switch c {
			case '%', '&', '?', '=', ' ', '+', '\v', '\f':
				t.Errorf("%#x: needs' switch has a case for it", c)
			}
		}
	}
}

// lookupCue's byte filters never turn away a key of cueIndex.
func TestLookupCueFindsEveryKey(t *testing.T) {
	for k, want := range cueIndex {
		got, ok := lookupCue([]byte(k))
		if !ok || len(got) != len(want) {
			t.Errorf("lookupCue(%q) = %v, %v", k, got, ok)
		}
	}
}
