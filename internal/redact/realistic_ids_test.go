package redact

import (
	"strings"
	"testing"
)

// realisticIDsFloor is what the default policy (rules only, no NER) must keep on the identifier
// items of the third dev round (realistic-dev3-ids.jsonl, issue #13) and on dev2 (the spent
// first held-out half, now tuning data): covered share per type for the types these rules read,
// items fully covered, decoys redacted at most. PERSON and ADDRESS are held by the name and
// address rules' own tests; the items and decoys floors sit a little under the figures measured
// (in the comments) because names and addresses count in them too.
var realisticIDsFloor = map[string]struct {
	covered     map[string]float64
	fullyItems  int
	maxDecoyHit int
}{
	"realistic-dev3-ids.jsonl": {
		covered: map[string]float64{
			"DOB": 1, "DNI": 1, "NIE": 1, "NSS": 1, "PASSPORT": 1, "MRN": 1, "IBAN": 1, "CCC": 1,
			"CARD": 1, "CARD_EXP": 1, "CVV": 1,
		},
		fullyItems:  177, // 179 of 180 at 2026-12-02 01:20 UTC (names at HEAD); a margin for the names' share
		maxDecoyHit: 4,   // 2
	},
	"realistic-dev2.jsonl": {
		covered: map[string]float64{
			"DOB": 1, "DNI": 1, "NIE": 1, "NSS": 1, "PASSPORT": 1, "MRN": 1, "IBAN": 1, "CCC": 1,
			"CARD": 1, "CARD_EXP": 1, "CVV": 1, "PHONE": 1, "EMAIL": 1, "PLATE": 1, "IP": 1,
		},
		fullyItems:  188, // 190 of 192 at 2026-12-02 01:20 UTC; the two left are PERSON and ADDRESS
		maxDecoyHit: 4,   // 3
	},
}

// TestRealisticIDs scores the default policy on realistic-dev3-ids.jsonl and dev2 and holds
// them to realisticIDsFloor. REDACT_DEV_VALUES=1 also logs the missed values and redacted
// decoys (invented data; for a developer's terminal).
func TestRealisticIDs(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, name := range []string{"realistic-dev3-ids.jsonl", "realistic-dev2.jsonl"} {
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			floor := realisticIDsFloor[name]
			rep := evaluate(t, r, loadItems(t, name))
			checkFloor(t, rep, floor.covered, floor.fullyItems, floor.maxDecoyHit)
		})
	}
}

// TestRealisticIDsCheckDigits: the values of realistic-dev3-ids.jsonl that carry a check digit
// pass it with this package's validators unless labelled valid: false (then they fail it), so
// the generator's arithmetic is checked independently.
func TestRealisticIDsCheckDigits(t *testing.T) {
	check := map[string]func(string) bool{
		"DNI":  func(s string) bool { return validDNI(s) || validNIFVAT(s) },
		"NIE":  validNIE,
		"NSS":  validNSS,
		"IBAN": validIBAN,
		"CCC":  validCCCText,
		"CARD": validLuhn,
	}
	n := 0
	for _, it := range loadItems(t, "realistic-dev3-ids.jsonl") {
		for _, e := range it.Entities {
			f, ok := check[e.Type]
			if !ok {
				continue
			}
			v := compactValue(e.Value)
			if e.Type == "DNI" && allDigits(v) {
				continue // a DNI written without its letter has no check digit
			}
			want := e.Valid == nil || *e.Valid
			if f(v) != want {
				t.Errorf("%s: %s value (%d bytes): check digit valid=%v, labelled %v", it.ID, e.Type, len(e.Value), !want, want)
			}
			n++
		}
	}
	if n < 30 {
		t.Errorf("only %d values with a check digit", n)
	}
}

// compactValue drops spaces, dots, dashes, slashes and line breaks and upper-cases.
func compactValue(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '.' || c == '-' || c == '/' || c == '\n' || c == '\r':
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
