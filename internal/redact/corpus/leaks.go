package corpus

import (
	"fmt"
	"strings"
	"unicode"
)

// Leaks reports every labelled value of item that appears in captured in any form: as typed,
// case-folded, with its separators removed or changed (compared on letters and digits only,
// accents folded), digits-only for identifiers, any nine of its digits in a row, and — for
// names — any part of four or more letters as a whole word. The report names the label and the form, never the value, so that
// it can be logged.
func Leaks(captured string, item Item) []string {
	var out []string
	lowerCap := strings.ToLower(captured)
	normCap := normalise(captured)
	for i, l := range item.Entities {
		form := ""
		switch v := l.Value; {
		case strings.Contains(captured, v):
			form = "as typed"
		case strings.Contains(lowerCap, strings.ToLower(v)):
			form = "case-folded"
		case len(normalise(v)) >= 4 && strings.Contains(normCap, normalise(v)):
			form = "without separators"
		case digitsOnly(v) != "" && strings.Contains(normCap, digitsOnly(v)):
			form = "digits only"
		case digitWindowIn(digitsOnly(v), normCap):
			form = "nine or more of its digits in a row" // a phone without its +34, an account without its IBAN head
		case l.Type == "PERSON":
			if p := namePartIn(v, lowerCap); p >= 0 {
				form = fmt.Sprintf("name part %d", p)
			}
		}
		if form != "" {
			out = append(out, fmt.Sprintf("%s entity %d (%s) leaked %s", item.ID, i, l.Type, form))
		}
	}
	return out
}

// normalise keeps letters and digits, lower-cased with accents folded: "ES91 2100-0418" and
// "es9121000418" are the same account.
func normalise(s string) string {
	s = strings.ToLower(foldASCII(strings.ToLower(s)))
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// digitsOnly returns the digits of an identifier-like value (at least six digits making up
// most of its letters and digits), or "" for values where digits alone say nothing (a street
// number and a postcode).
func digitsOnly(v string) string {
	var d strings.Builder
	alnum := 0
	for _, r := range v {
		if unicode.IsDigit(r) {
			d.WriteRune(r)
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			alnum++
		}
	}
	if d.Len() < 6 || d.Len()*10 < alnum*6 {
		return ""
	}
	return d.String()
}

// digitWindowIn reports whether any nine consecutive digits of d occur in normCap.
func digitWindowIn(d, normCap string) bool {
	for i := 0; i+9 <= len(d); i++ {
		if strings.Contains(normCap, d[i:i+9]) {
			return true
		}
	}
	return false
}

// namePartIn returns the index of the first part of a name (four letters or more) that occurs
// in lowerCap as a whole word, or -1.
func namePartIn(name, lowerCap string) int {
	for i, part := range strings.Fields(strings.ToLower(name)) {
		if len([]rune(part)) < 4 {
			continue
		}
		for off := 0; off < len(lowerCap); {
			j := strings.Index(lowerCap[off:], part)
			if j < 0 {
				break
			}
			s, e := off+j, off+j+len(part)
			if (s == 0 || !isLetterByteBefore(lowerCap, s)) && (e == len(lowerCap) || !isLetterAt(lowerCap, e)) {
				return i
			}
			off = e
		}
	}
	return -1
}

func isLetterByteBefore(s string, i int) bool {
	r := []rune(s[:i])
	return len(r) > 0 && (unicode.IsLetter(r[len(r)-1]) || unicode.IsDigit(r[len(r)-1]))
}

func isLetterAt(s string, i int) bool {
	for _, r := range s[i:] {
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}
