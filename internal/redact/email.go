package redact

import (
	"bytes"
	"strings"
)

// Obfuscated e-mail addresses (issue #13): "ana punto garcia arroba gmail punto com",
// "pablo.ferrer(arroba)gmail(punto)com", "s.mendez AT outlook DOT es", "x[at]gmail[dot]com". An
// "at" word is read as @ only in brackets, in capitals or spelled "arroba"; the domain must then
// hold at least one dot (written or spelled) and end in a known top-level domain.

// atWords are the spellings of @, as they appear in the lower-cased text.
var atWords = []string{"(arroba)", "[arroba]", "{arroba}", "<arroba>", " arroba ", "(at)", "[at]", "{at}", "<at>", " at "}

// dotWords are the spellings of the dot.
var dotWords = []string{"(punto)", "[punto]", "{punto}", " punto ", "(dot)", "[dot]", "{dot}", " dot ", "(punt)", " punt ", "."}

var topLevelDomains = words(`com es net org eu cat gal eus info fr de it pt uk co ie nl be ch at ro ma us io me edu gob gov biz ar mx cl pe ve br cn ua ru pl`)

func appendObfuscatedEmails(out []Span, text string, lower []byte) []Span {
	if len(lower) != len(text) || !mayHaveSpelledAt(lower, text) {
		return out
	}
	l := string(lower) // no copy needed for reading; strings.Index on a converted slice
	for _, at := range atWords {
		for off := 0; off < len(l); {
			k := strings.Index(l[off:], at)
			if k < 0 {
				break
			}
			k += off
			off = k + len(at)
			lowerAt := at == " at " && text[k+1:k+3] != "AT" // English prose, unless the dots are spelled too
			s := emailLocalStart(text, l, k)
			e, spelledDot := emailDomainEnd(text, l, k+len(at))
			if s < 0 || e < 0 || (at[0] == ' ' && !spelledDot && at != " arroba ") || lowerAt && !spelledDot {
				continue
			}
			out = append(out, Span{Start: s, End: e, Type: TypeEmail, Text: text[s:e], Score: 0.85, Source: "email_spelled"})
		}
	}
	return out
}

// mayHaveSpelledAt: "arroba", an "at" in brackets, or " AT " occur in the text (one pass).
func mayHaveSpelledAt(lower []byte, text string) bool {
	for off := 0; off < len(lower); {
		k := bytes.IndexByte(lower[off:], 'a')
		if k < 0 {
			return false
		}
		k += off
		off = k + 1
		if k+2 >= len(lower) {
			return false
		}
		switch {
		case lower[k+1] == 'r' && bytes.HasPrefix(lower[k:], []byte("arroba")):
			return true
		case lower[k+1] == 't' && k > 0 && strings.IndexByte("([{<", lower[k-1]) >= 0 && strings.IndexByte(")]}>", lower[k+2]) >= 0:
			return true
		case lower[k+1] == 't' && k > 0 && lower[k-1] == ' ' && lower[k+2] == ' ':
			return true // " AT ", or " at " with spelled dots (checked later)
		}
	}
	return false
}

func isLocalByte(c byte) bool { return isWordByte(c) || c == '.' || c == '+' || c == '-' }

// emailLocalStart returns where the local part that ends at k starts (-1 if none): letters,
// digits and . + - _, with spelled dots between parts (at most three parts).
func emailLocalStart(text, l string, k int) int {
	s := k
	for parts := 0; parts < 3; parts++ {
		j := s
		for j > 0 && isLocalByte(l[j-1]) {
			j--
		}
		if j == s || j > 0 && l[j-1] >= 0x80 {
			if parts == 0 {
				return -1
			}
			return s
		}
		s = j
		spelled := false
		for _, d := range dotWords[:len(dotWords)-1] {
			if strings.HasSuffix(l[:s], d) && s-len(d) > 0 && isLocalByte(l[s-len(d)-1]) {
				s -= len(d)
				spelled = true
				break
			}
		}
		if !spelled {
			break
		}
	}
	for s < k && (l[s] == '.' || l[s] == '-') {
		s++
	}
	return s
}

// emailDomainEnd reads the domain after the @ at i: labels separated by dots or spelled dots,
// the last one a known top-level domain. spelled reports a spelled dot.
func emailDomainEnd(text, l string, i int) (int, bool) {
	end, labels, spelled := -1, 0, false
	j := i
	for labels < 5 {
		k := j
		for k < len(l) && (isWordByte(l[k]) || l[k] == '-') {
			k++
		}
		if k == j {
			break
		}
		labels++
		if labels > 1 && topLevelDomains[l[j:k]] && (k == len(l) || !isWordByte(l[k])) {
			end = k
		}
		dot := false
		for _, d := range dotWords {
			if strings.HasPrefix(l[k:], d) && k+len(d) < len(l) && isWordByte(l[k+len(d)]) {
				if d != "." {
					spelled = true
				}
				j = k + len(d)
				dot = true
				break
			}
		}
		if !dot {
			break
		}
	}
	return end, spelled
}
