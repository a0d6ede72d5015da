package redact

import (
	"strings"
	"unicode"
)

// Start conditions of the built-in patterns (see candidates.go). Each one must hold wherever
// its pattern in recognizers.go can match, so it is written from the pattern's first
// characters; when a pattern changes, its start condition must be checked against it
// (FuzzWindowsEquivalent does so against a whole-text scan).

// digitLed: wb + at least n digits of one cluster from i (NSS, card).
func digitLed(n int) func(*scanText, int) bool {
	return func(t *scanText, i int) bool { return t.digitsFrom(i) >= n && !isWordRune(t.rune(i-1)) }
}

// firstDNI: wb + \d{2}[. ]?\d{3}[. ]?\d{3}(?:[ -]| - )?[A-Za-z]. A separator is never a digit, so
// each optional one is taken exactly when it is there.
func firstDNI(t *scanText, i int) bool {
	if t.digitsFrom(i) < 8 || isWordRune(t.rune(i-1)) || !t.digitsAt(i, 2) {
		return false
	}
	j := t.skip(i+2, '.', ' ')
	if !t.digitsAt(j, 3) {
		return false
	}
	j = t.skip(j+3, '.', ' ')
	if !t.digitsAt(j, 3) {
		return false
	}
	k := j + 3
	if t.rune(k) == ' ' && t.rune(k+1) == '-' && t.rune(k+2) == ' ' { // "12.345.678 - Z"
		k += 3
	} else {
		k = t.skip(k, ' ', '-')
	}
	return isASCIILetter(t.rune(k))
}

// firstNSS: wb + \d{2}[ /-]?\d{8}[ /-]?\d{2}.
func firstNSS(t *scanText, i int) bool {
	if t.digitsFrom(i) < 12 || isWordRune(t.rune(i-1)) || !t.digitsAt(i, 2) {
		return false
	}
	j := t.skip(i+2, ' ', '/', '-')
	switch {
	case t.digitsAt(j, 8):
		j += 8
	case t.digitsAt(j, 4) && (t.rune(j+4) == ' ' || t.rune(j+4) == '-' || t.rune(j+4) == '/') && t.digitsAt(j+5, 4): // 28 1234 5678 40
		j += 9
	default:
		return false
	}
	return t.digitsAt(t.skip(j, ' ', '/', '-'), 2)
}

// letterThenDigits: wb + one of letters + an optional separator from seps + n digits (NIE, CIF).
func letterThenDigits(letters, seps string, n int) func(*scanText, int) bool {
	var first, sep [128]bool
	for _, c := range letters {
		first[c] = true
	}
	for _, c := range seps {
		sep[c] = true
	}
	return func(t *scanText, i int) bool {
		if r := t.rune(i); r < 0 || r >= 128 || !first[r] || isWordRune(t.rune(i-1)) {
			return false
		}
		if t.digitsFrom(i+1) >= n {
			return true
		}
		r := t.rune(i + 1)
		return r >= 0 && r < 128 && sep[r] && t.digitsFrom(i+2) >= n
	}
}

// firstNIE: wb + X, Y or Z, an optional separator, then seven digits — in one run, or grouped
// as people write a DNI ("Z.2040.278-E", "X-1.234.567-L").
var firstNIE7 = letterThenDigits("XYZxyz", " .-", 7)

func firstNIE(t *scanText, i int) bool {
	if firstNIE7(t, i) {
		return true
	}
	if r := t.rune(i); r < 0 || r >= 128 || !strings.ContainsRune("XYZxyz", r) || isWordRune(t.rune(i-1)) {
		return false
	}
	j := i + 1
	if r := t.rune(j); r == ' ' || r == '.' || r == '-' {
		j++
	}
	sep := func(k int) bool { r := t.rune(k); return r == ' ' || r == '.' }
	switch t.digitsFrom(j) {
	case 4:
		return sep(j+4) && t.digitsFrom(j+5) >= 3
	case 1:
		return sep(j+1) && t.digitsFrom(j+2) == 3 && sep(j+5) && t.digitsFrom(j+6) >= 3
	}
	return false
}

// firstCard: wb + [1-9] + 12 to 18 more digits.
func firstCard(t *scanText, i int) bool {
	return t.digitsFrom(i) >= 13 && t.rune(i) != '0' && !isWordRune(t.rune(i-1))
}

// firstIBAN: wb + two ASCII letters + two digits, or two capitals, a space and two digits
// ("ES 91 2100 …").
func firstIBAN(t *scanText, i int) bool {
	if !isASCIILetter(t.rune(i)) || !isASCIILetter(t.rune(i+1)) || isWordRune(t.rune(i-1)) {
		return false
	}
	if t.digitsFrom(i+2) >= 2 {
		return true
	}
	r0, r1 := t.rune(i), t.rune(i+1)
	return t.rune(i+2) == ' ' && t.digitsFrom(i+3) >= 2 && r0 >= 'A' && r0 <= 'Z' && r1 >= 'A' && r1 <= 'Z'
}

// firstSpanishPhone: (?<![\w+]), then "+" [space] "34" and nine digits (eleven digits in one
// cluster), or "0034" and nine digits, or nine digits starting with 6, 7, 8 or 9.
func firstSpanishPhone(t *scanText, i int) bool {
	if p := t.rune(i - 1); isWordRune(p) || p == '+' {
		return false
	}
	switch t.rune(i) {
	case '+':
		return t.digitsFrom(i+1) >= 11 || t.rune(i+1) == ' ' && t.digitsFrom(i+2) >= 11
	case '0':
		return t.rune(i+1) == '0' && t.digitsFrom(i) >= 13
	case '6', '7', '8', '9':
		return t.digitsFrom(i) >= 9
	}
	return false
}

// firstE164: (?<![\w+]) + "+" + [1-9] and at least six more digits.
func firstE164(t *scanText, i int) bool {
	if t.rune(i) != '+' || t.rune(i+1) == '0' || t.digitsFrom(i+1) < 7 {
		return false
	}
	p := t.rune(i - 1)
	return !isWordRune(p) && p != '+'
}

// firstEmail: (?<![\w.%+-]) + [\w.%+-]{1,64}@[\w-]. '@' is no local-part character, so the
// local part is the whole run of them from i: a placeholder's "@@PERSON-1@@" (one per value in
// every text the exit scan reads) or "x+1" is not handed to regexp2.
func firstEmail(t *scanText, i int) bool {
	if !isEmailRune(t.rune(i)) || isEmailRune(t.rune(i-1)) {
		return false
	}
	e := i + 1
	for e-i <= 64 && isEmailRune(t.rune(e)) {
		e++
	}
	if e-i > 64 || t.rune(e) != '@' {
		return false
	}
	d := t.rune(e + 1)
	return isWordRune(d) || d == '-'
}

func isEmailRune(r rune) bool { return isWordRune(r) || r == '.' || r == '%' || r == '+' || r == '-' }

// firstIPv4: (?<![\w.]) + four dotted groups (at least four digits).
func firstIPv4(t *scanText, i int) bool {
	p := t.rune(i - 1)
	return t.digitsFrom(i) >= 4 && !isWordRune(p) && p != '.'
}

// firstIPv6: (?<![\w:]) + a hex digit or ':'.
func firstIPv6(t *scanText, i int) bool {
	r, p := t.rune(i), t.rune(i-1)
	return (r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == ':') && !isWordRune(p) && p != ':'
}

// firstDate: wb, then a numeric date — \d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d{2} or
// (?:19|20)\d{2}-\d{2}-\d{2}, six digits or more in one cluster — or one or two digits
// that end their cluster, then "º" or "°" or a space (a written date).
func firstDate(t *scanText, i int) bool {
	d := t.digitsFrom(i)
	if isWordRune(t.rune(i - 1)) {
		return false
	}
	switch {
	case d >= 6:
		sep := func(r rune) bool { return r == '/' || r == '.' || r == '-' }
		return sep(t.rune(i+1)) || sep(t.rune(i+2)) || t.rune(i+4) == '-'
	case d == 1 || d == 2:
		r := t.rune(i + d)
		return r == ' ' || r == 'º' || r == '°'
	}
	return false
}

// firstMonth: wb + a month name or abbreviation, case-insensitive.
func firstMonth(t *scanText, i int) bool {
	r := t.rune(i)
	if r < 0 || isWordRune(t.rune(i-1)) {
		return false
	}
	if r = unicode.ToLower(r); r >= 'a' && r <= 'z' {
		r2 := unicode.ToLower(t.rune(i + 1)) // as in firstStreet: the second rune first
		for _, m := range monthPrefixes[r-'a'] {
			if len(m) >= 2 && m[1] != r2 {
				continue
			}
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
	if r < 0 || isWordRune(t.rune(i-1)) {
		return false
	}
	if r = unicode.ToLower(r); r >= 'a' && r <= 'z' {
		// the keywords of one first letter differ mostly in their second: compared first,
		// lower-cased once, it turns most of them away without a foldPrefix call
		r2 := unicode.ToLower(t.rune(i + 1)) // -1 past the text: no keyword's second rune
		for _, k := range streetPrefixes[r-'a'] {
			if len(k) >= 2 && k[1] != r2 {
				continue
			}
			if t.foldPrefix(i, k) {
				return true
			}
		}
	}
	return false
}

// firstPassport: wb + three ASCII letters + six digits.
func firstPassport(t *scanText, i int) bool {
	return t.digitsFrom(i+3) >= 6 && isASCIILetter(t.rune(i)) && isASCIILetter(t.rune(i+1)) &&
		isASCIILetter(t.rune(i+2)) && !isWordRune(t.rune(i-1))
}

// Sets of the characters a match can start with, so that candidates() calls first only
// where it can hold. A rune that lower-cases to an ASCII letter (the Kelvin sign, 'İ') can
// start a case-insensitive keyword.
const (
	startDigits  = "0123456789"
	startLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	startPhone   = startDigits + "+"
	startEmail   = startDigits + startLetters + "_.%+-"
	startIPv6    = startDigits + "ABCDEFabcdef:"
)

// startStreet and startMonth are the first letters of the street keywords and the months, in
// both cases.
var startStreet, startMonth = firstLetters(streetKeywords), firstLetters(strings.Split(months[3:len(months)-1], "|"))

func firstLetters(words []string) string {
	var b strings.Builder
	for _, w := range words {
		b.WriteString(strings.ToLower(w[:1]) + strings.ToUpper(w[:1]))
	}
	return b.String()
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
