package redact

import (
	"strings"
	"unicode"
)

// Start conditions of the built-in patterns (see candidates.go). Each one must hold wherever
// its pattern in recognizers.go can match, so it is written from the pattern's first
// characters; when a pattern changes, its start condition must be checked against it
// (FuzzWindowsEquivalent does so against a whole-text scan).

// digitLed: wb + at least n digits of one cluster from i (DNI, NSS, card, date).
func digitLed(n int) func(*scanText, int) bool {
	return func(t *scanText, i int) bool { return t.digitsFrom(i) >= n && t.wordStart(i) }
}

// letterThenDigits: wb + one of letters + an optional separator from seps + n digits (NIE, CIF).
func letterThenDigits(letters, seps string, n int) func(*scanText, int) bool {
	return func(t *scanText, i int) bool {
		if !strings.ContainsRune(letters, t.rune(i)) || !t.wordStart(i) {
			return false
		}
		return t.digitsFrom(i+1) >= n || strings.ContainsRune(seps, t.rune(i+1)) && t.digitsFrom(i+2) >= n
	}
}

// firstCard: wb + [1-9] + 12 to 18 more digits.
func firstCard(t *scanText, i int) bool {
	return t.rune(i) != '0' && t.digitsFrom(i) >= 13 && t.wordStart(i)
}

// firstIBAN: wb + two ASCII letters + two digits.
func firstIBAN(t *scanText, i int) bool {
	return isASCIILetter(t.rune(i)) && isASCIILetter(t.rune(i+1)) && t.digitsFrom(i+2) >= 2 && t.wordStart(i)
}

// firstSpanishPhone: (?<![\w+]), then "+" [space] "34" and nine digits (eleven digits in one
// cluster), or "0034" and nine digits, or nine digits.
func firstSpanishPhone(t *scanText, i int) bool {
	if !t.after(i, "+") {
		return false
	}
	if t.rune(i) == '+' {
		return t.digitsFrom(i+1) >= 11 || t.rune(i+1) == ' ' && t.digitsFrom(i+2) >= 11
	}
	return t.digitsFrom(i) >= 9
}

// firstE164: (?<![\w+]) + "+" + [1-9] and at least six more digits.
func firstE164(t *scanText, i int) bool {
	return t.rune(i) == '+' && t.rune(i+1) != '0' && t.digitsFrom(i+1) >= 7 && t.after(i, "+")
}

// firstEmail: (?<![\w.%+-]) + a local-part character.
func firstEmail(t *scanText, i int) bool {
	r := t.rune(i)
	return (isWordRune(r) || r == '.' || r == '%' || r == '+' || r == '-') && t.after(i, ".%+-")
}

// firstIPv4: (?<![\w.]) + four dotted groups (at least four digits).
func firstIPv4(t *scanText, i int) bool { return t.digitsFrom(i) >= 4 && t.after(i, ".") }

// firstIPv6: (?<![\w:]) + a hex digit or ':'.
func firstIPv6(t *scanText, i int) bool {
	r := t.rune(i)
	return (r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == ':') && t.after(i, ":")
}

// firstDate: wb + a numeric date (at least six digits in one cluster: d/m/yyyy, yyyy-mm-dd),
// or one or two digits that end their cluster, before "º", a space and a month.
func firstDate(t *scanText, i int) bool {
	d := t.digitsFrom(i)
	return (d >= 6 || d == 1 || d == 2) && t.wordStart(i)
}

// firstMonth: wb + a month name or abbreviation, case-insensitive.
func firstMonth(t *scanText, i int) bool {
	r := t.rune(i)
	if r < 0 || !t.wordStart(i) {
		return false
	}
	r = unicode.ToLower(r)
	if r >= 'a' && r <= 'z' {
		for _, m := range monthPrefixes[r-'a'] {
			if t.foldPrefix(i, m) {
				return true
			}
		}
	}
	return false
}

// firstStreet: wb + a street-type keyword, case-insensitive.
func firstStreet(t *scanText, i int) bool {
	r := t.rune(i)
	if r < 0 || !t.wordStart(i) {
		return false
	}
	r = unicode.ToLower(r)
	if r >= 'a' && r <= 'z' {
		for _, k := range streetPrefixes[r-'a'] {
			if t.foldPrefix(i, k) {
				return true
			}
		}
	}
	return false
}

// firstPassport: wb + three ASCII letters + six digits.
func firstPassport(t *scanText, i int) bool {
	return isASCIILetter(t.rune(i)) && isASCIILetter(t.rune(i+1)) && isASCIILetter(t.rune(i+2)) &&
		t.digitsFrom(i+3) >= 6 && t.wordStart(i)
}

// monthPrefixes holds, by first letter, the first three letters of every alternative of
// months: every alternative has at least three.
var monthPrefixes = func() (t [26][][]rune) {
	alts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(months, "(?:"), ")"), "|")
	seen := map[string]bool{}
	for _, m := range alts {
		p := strings.TrimSpace(m)[:3]
		if !seen[p] {
			seen[p] = true
			t[p[0]-'a'] = append(t[p[0]-'a'], []rune(p))
		}
	}
	return t
}()

// streetKeywords are lower-case prefixes of every alternative of streetTypes.
var streetKeywords = []string{"calle", "c/", "avda", "avenida", "av.", "paseo", "pº", "p°", "plaza", "pza",
	"pl.", "ronda", "camino", "carretera", "ctra", "travesía", "travesia", "glorieta", "carrer", "rambla",
	"rúa", "rua", "kalea", "passeig", "plaça", "placa", "callej", "urbaniz", "urb."}

var streetPrefixes = func() (t [26][][]rune) {
	for _, k := range streetKeywords {
		t[k[0]-'a'] = append(t[k[0]-'a'], []rune(k))
	}
	return t
}()
