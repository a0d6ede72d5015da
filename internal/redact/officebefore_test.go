package redact

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// officeBeforeByLastIndex is officeBefore's owner-word rule as first written (the last index of
// every word): the one-pass table must decide the same.
func officeBeforeByLastIndex(before []byte) bool {
	home, office := -1, -1
	for _, ws := range ownerWordsByFirst {
		for _, w := range ws {
			if w.office {
				office = max(office, bytes.LastIndex(before, []byte(w.text)))
			} else {
				home = max(home, bytes.LastIndex(before, []byte(w.text)))
			}
		}
	}
	return office > home
}

func TestOfficeBeforeOnePassMatchesLastIndex(t *testing.T) {
	var words []string
	for _, ws := range ownerWordsByFirst {
		for _, w := range ws {
			words = append(words, w.text, w.text[:len(w.text)-1]) // and a near miss
		}
	}
	words = append(words, "el", "de", "calle", "sucursales", "oficinas", "su", "casa", "registered", "c/")
	rng := rand.New(rand.NewPCG(13, 13))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.IntN(12); k >= 0; k-- {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(4) > 0 {
				b.WriteByte(' ')
			}
		}
		text := []byte(b.String() + " C/ Mayor 5")
		s := len(text) - len(" C/ Mayor 5")
		// officeBefore reads at most 160 bytes back to the last sentence break; compare on
		// what it reads.
		before := text[max(0, s-160):s]
		want := officeBeforeByLastIndex(before)
		if got := officeBefore(text, s); got != want && !bytes.ContainsAny(before, ".\n;") && !endsWithCompanySuffix(before) {
			t.Fatalf("officeBefore(%q) = %v, the last-index rule says %v", before, got, want)
		}
	}
}

func endsWithCompanySuffix(b []byte) bool {
	b = bytes.TrimRight(b, " —–-:,(")
	for _, suf := range []string{" sl", " sa", " s.l.", " s.a.", " slu", " sau", " slp", " cb", " ltd", " inc", " gmbh", " s.l", " s.a"} {
		if bytes.HasSuffix(b, []byte(suf)) {
			return true
		}
	}
	return false
}
