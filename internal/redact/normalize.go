package redact

import (
	"bytes"
	"html"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The recognizers read a normalised view of the text, never the text itself, so that the ways
// people and software write the same value all look alike to them:
//
//  1. NFKC: full-width and mathematical digits and letters, ligatures, compatibility spaces.
//  2. Format characters (Unicode Cf: zero-width space and joiners, soft hyphen, BOM, bidi
//     marks) and combining marks left over after composition are removed.
//  3. Every Unicode space (NBSP, narrow NBSP, thin space…) becomes ' ', every dash and minus
//     sign '-', line and paragraph separators '\n', ideographic full stops '.'.
//  4. Decimal digits of any script (Arabic-Indic, Devanagari…) become ASCII digits.
//  5. Cyrillic and Greek letters that look like Latin ones become those Latin letters.
//  6. Percent-encoding (%40, %C3%A9) and HTML character references (&#64;, &commat;, &nbsp;)
//     are decoded.
//  7. Characters typed one by one with single spaces between ("1 2 3 4 5 6 7 8 Z") are joined.
//
// Each view byte remembers the original bytes it came from, so a value found in the view is
// replaced in the original text — as it was typed — and rehydration gives back exactly what the
// user wrote. Values cut by a line break or split between two messages are found separately
// (see joins.go).

// view is a text as the recognizers see it.
type view struct {
	text string
	// src[i] and end[i] are the original bytes [src, end) that view byte i came from; both
	// are nil when the view is the original text.
	src, end []int32
}

// orig maps the view range [start, end) to the original text.
func (v *view) orig(start, end int) (int, int) {
	if v.src == nil {
		return start, end
	}
	if start >= end {
		if start < len(v.src) {
			return int(v.src[start]), int(v.src[start])
		}
		return int(v.end[len(v.end)-1]), int(v.end[len(v.end)-1])
	}
	return int(v.src[start]), int(v.end[end-1])
}

// toOriginal maps spans found in the view to the original text, in place: each covers every
// original byte its view bytes came from, and its Text is what the user typed.
func (v *view) toOriginal(text string, spans []Span) []Span {
	if v.src == nil {
		return spans
	}
	for i := range spans {
		sp := &spans[i]
		sp.Start, sp.End = v.orig(sp.Start, sp.End)
		sp.Text = text[sp.Start:sp.End]
	}
	return spans
}

// normalizer holds the buffers of one normalisation (pooled with the scanText, wiped before).
type normalizer struct {
	a, b, c          []byte
	aSrc, bSrc, cSrc []int32
	aEnd, bEnd, cEnd []int32
}

func (n *normalizer) wipe() {
	for _, b := range [][]byte{n.a, n.b, n.c} {
		clear(b)
	}
	n.a, n.b, n.c = n.a[:0], n.b[:0], n.c[:0]
}

// normalize returns the view of text. When nothing needs changing (the usual ASCII or Latin-1
// prompt) the view is text itself and costs one scan.
func (n *normalizer) normalize(text string) view {
	runes, codes, spaced := needs(text)
	if !runes && !codes && !spaced {
		return view{text: text}
	}
	cur := []byte(text)
	var src, end []int32
	if runes {
		n.a, n.aSrc, n.aEnd = mapRunes(n.a[:0], n.aSrc[:0], n.aEnd[:0], text)
		cur, src, end = n.a, n.aSrc, n.aEnd
		codes = codes || bytes.ContainsAny(cur, "%&+")
	}
	if codes {
		n.b, n.bSrc, n.bEnd = decodeReferences(n.b[:0], n.bSrc[:0], n.bEnd[:0], cur, src, end)
		cur, src, end = n.b, n.bSrc, n.bEnd
		if bytes.ContainsAny(cur, "%&") {
			// A second pass for what the first one revealed: an HTML reference inside a URL
			// ("%26%2364%3B" is "&#64;"), or a value encoded twice.
			n.a, n.aSrc, n.aEnd = decodeReferences(n.a[:0], n.aSrc[:0], n.aEnd[:0], cur, src, end)
			cur, src, end = n.a, n.aSrc, n.aEnd
		}
	}
	if codes && bytes.IndexByte(cur, '+') >= 0 {
		n.c, n.cSrc, n.cEnd = formSpaces(n.c[:0], n.cSrc[:0], n.cEnd[:0], cur, src, end)
		cur, src, end = n.c, n.cSrc, n.cEnd
		n.b, n.c = n.c, n.b
		n.bSrc, n.cSrc, n.bEnd, n.cEnd = n.cSrc, n.bSrc, n.cEnd, n.bEnd
	}
	var changed bool
	n.c, n.cSrc, n.cEnd, changed = joinSpaced(n.c[:0], n.cSrc[:0], n.cEnd[:0], cur, src, end)
	if changed {
		cur, src, end = n.c, n.cSrc, n.cEnd
	}
	if src == nil || string(cur) == text {
		return view{text: text}
	}
	return view{text: string(cur), src: src, end: end}
}

// needs reports which steps text needs: a rune mapping (steps 1–5), decoding (6), joining (7).
func needs(text string) (runes, codes, spaced bool) {
	for i := 0; i < len(text); {
		c := text[i]
		if byteClass[c]&byteNeeds == 0 {
			i++ // an ASCII byte the switch below does nothing with
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '%', '&':
				codes = true
			case '?', '=':
				codes = codes || strings.IndexByte(text[i:], '+') >= 0 // a URL query may hold form-encoded spaces
			case ' ', '+':
				if !spaced && i >= 1 && i+2 < len(text) && isAlnum(text[i-1]) && isAlnum(text[i+1]) && (i+2 == len(text) || !isAlnum(text[i+2])) &&
					(i < 2 || !isAlnum(text[i-2])) {
					spaced = spacedRun([]byte(text[i-1:min(len(text), i-1+4*minSpaced)]), 0) > 0
				}
			case '\v', '\f':
				runes = true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !runes && (r == utf8.RuneError || foldNeeded(r) || !keepsNFKC(text[i:i+size])) {
			runes = true
		}
		i += size
	}
	return runes, codes, spaced
}

// minSpaced is how many single characters in a row, one space apart, are read as one value
// typed with spaces. Five keeps ordinary text ("a y o") out; no identifier is shorter.
const minSpaced = 5

// keepsNFKC reports whether the character c (one rune) is left alone by mapRunes' NFKC step.
// The ordinal indicators º and ª are kept: NFKC would make "3º B" read "3o B".
func keepsNFKC(c string) bool {
	if c == "º" || c == "ª" {
		return true
	}
	r, size := utf8.DecodeRuneInString(c)
	if r >= 0xC0 && r < 0x250 {
		return true // Latin letters: composed, and what the recognizers expect
	}
	if size != len(c) || r == utf8.RuneError || r >= 1<<16 {
		return norm.NFKC.IsNormalString(c)
	}
	// One BMP rune: its answer never changes, and IsNormalString allocates (five times per
	// 4 KiB prompt of euro signs and typographic quotes), so each rune is asked once.
	w, shift := &nfkcMemo[r>>4], uint(r&15)*2
	if v := w.Load() >> shift & 3; v != 0 {
		return v == nfkcKept
	}
	keep := norm.NFKC.IsNormalString(c)
	v := uint32(nfkcChanged)
	if keep {
		v = nfkcKept
	}
	for old := w.Load(); !w.CompareAndSwap(old, old|v<<shift); old = w.Load() {
	}
	return keep
}

// nfkcMemo holds keepsNFKC's answer for each BMP rune, two bits each: 0 not asked yet, then
// nfkcKept or nfkcChanged.
var nfkcMemo [1 << 16 / 16]atomic.Uint32

const (
	nfkcKept    = 1
	nfkcChanged = 2
)

// foldNeeded reports whether a non-ASCII rune is changed or removed by foldRune. Letters of
// Latin-1 and Latin Extended (the accents of Spanish, Catalan, Galician, Basque) are not.
func foldNeeded(r rune) bool {
	if r >= 0xC0 && r < 0x250 && r != 0xD7 && r != 0xF7 {
		return false
	}
	_, changed := foldRune(r)
	return changed
}

// foldRune maps one rune of NFKC text (steps 2–5); r2 < 0 removes it.
func foldRune(r rune) (r2 rune, changed bool) {
	switch {
	case r < utf8.RuneSelf:
		if r == '\v' || r == '\f' {
			return ' ', true
		}
		return r, false
	case r == '\u2028' || r == '\u2029' || r == '\u0085':
		return '\n', true
	case r == '\u3002' || r == '\uFF61':
		return '.', true
	case r == '\u2212' || r == '\u2043' || r == '\u02D7' || unicode.Is(unicode.Pd, r):
		return '-', true
	case unicode.Is(unicode.Zs, r):
		return ' ', true
	case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Mn, r) || r == '\u034F':
		return -1, true
	case unicode.Is(unicode.Nd, r):
		return '0' + digitValue(r), true
	}
	if l, ok := homoglyphs[r]; ok {
		return l, true
	}
	return r, false
}

// digitValue is the value of a decimal digit: Unicode lists the Nd characters in runs of ten,
// each starting at its zero (TestDigitRuns checks this for the tables Go ships).
func digitValue(r rune) rune {
	for _, rg := range unicode.Nd.R16 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return (r - rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return (r - rune(rg.Lo)) % 10
		}
	}
	return 0
}

// homoglyphs are Cyrillic and Greek letters drawn like Latin ones: an "ЕS91…" typed with a
// Cyrillic Е is still an IBAN to whoever reads it.
var homoglyphs = map[rune]rune{
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X',
	'У': 'Y', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x',
	'ѕ': 's', 'і': 'i', 'ј': 'j', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'ι': 'i',
}

// mapRunes applies steps 1–5 to text: NFKC segment by segment (so each output byte knows the
// original segment it came from), then foldRune on every rune.
func mapRunes(out []byte, src, end []int32, text string) ([]byte, []int32, []int32) {
	var seg [utf8.UTFMax * 8]byte
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf && (i+1 == len(text) || text[i+1] < utf8.RuneSelf) {
			// An ASCII character not followed by a combining mark is its own segment.
			r, _ := foldRune(rune(c))
			out, src, end = appendMapped(out, src, end, r, i, i+1)
			i++
			continue
		}
		n := norm.NFKC.NextBoundaryInString(text[i:], true)
		if n <= 0 {
			n = len(text) - i
		}
		s := text[i : i+n]
		var normed string
		if keepsNFKC(s) || norm.NFKC.IsNormalString(s) {
			normed = s
		} else {
			normed = string(norm.NFKC.AppendString(seg[:0], s))
		}
		for _, r := range normed {
			if r == utf8.RuneError {
				r = '\uFFFD'
			}
			r2, _ := foldRune(r)
			out, src, end = appendMapped(out, src, end, r2, i, i+n)
		}
		i += n
	}
	return out, src, end
}

func appendMapped(out []byte, src, end []int32, r rune, from, to int) ([]byte, []int32, []int32) {
	if r < 0 {
		return out, src, end
	}
	before := len(out)
	out = utf8.AppendRune(out, r)
	for k := before; k < len(out); k++ {
		src = append(src, int32(from))
		end = append(end, int32(to))
	}
	return out, src, end
}

// origOf maps input byte range [i, j) of a stage to the original text (nil maps: identity).
func origOf(src, end []int32, i, j int) (int, int) {
	if src == nil {
		return i, j
	}
	return int(src[i]), int(end[j-1])
}

// decodeReferences applies step 6: %XX sequences that spell a printable ASCII character or a
// whole UTF-8 character, and HTML character references.
func decodeReferences(out []byte, osrc, oend []int32, in []byte, src, end []int32) ([]byte, []int32, []int32) {
	for i := 0; i < len(in); {
		switch in[i] {
		case '%':
			if r, n := percentRune(in[i:]); n > 0 {
				a, b := origOf(src, end, i, i+n)
				out, osrc, oend = appendFolded(out, osrc, oend, r, a, b)
				i += n
				continue
			}
		case '&':
			if r, n := entityRune(in[i:]); n > 0 {
				a, b := origOf(src, end, i, i+n)
				out, osrc, oend = appendFolded(out, osrc, oend, r, a, b)
				i += n
				continue
			}
		}
		a, b := origOf(src, end, i, i+1)
		out = append(out, in[i])
		osrc, oend = append(osrc, int32(a)), append(oend, int32(b))
		i++
	}
	return out, osrc, oend
}

// appendFolded appends a decoded character as steps 1–5 would have read it (NFKC, then
// foldRune), all of it mapped to the original bytes [from, to).
func appendFolded(out []byte, src, end []int32, r rune, from, to int) ([]byte, []int32, []int32) {
	c := string(r)
	if !keepsNFKC(c) {
		c = norm.NFKC.String(c)
	}
	for _, r := range c {
		r2, _ := foldRune(r)
		out, src, end = appendMapped(out, src, end, r2, from, to)
	}
	return out, src, end
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// percentRune decodes the %XX sequences at the start of b into one character, if they spell a
// printable one (ASCII space included), and returns how many bytes they took.
func percentRune(b []byte) (rune, int) {
	var buf [utf8.UTFMax]byte
	n := 0
	for k := 0; n < utf8.UTFMax && k+2 < len(b) && b[k] == '%'; k += 3 {
		hi, ok1 := unhex(b[k+1])
		lo, ok2 := unhex(b[k+2])
		if !ok1 || !ok2 {
			break
		}
		buf[n] = hi<<4 | lo
		n++
		if utf8.FullRune(buf[:n]) {
			r, size := utf8.DecodeRune(buf[:n])
			if r == utf8.RuneError || size != n || r < ' ' || r == 0x7F {
				return 0, 0
			}
			return r, 3 * n
		}
	}
	return 0, 0
}

// entityRune decodes an HTML character reference (&#64; &#x40; &commat; &nbsp; …) at the
// start of b.
func entityRune(b []byte) (rune, int) {
	j := 1
	for j < len(b) && j <= 32 && (b[j] == '#' || isAlnum(b[j])) {
		j++
	}
	if j >= len(b) || b[j] != ';' || j == 1 {
		return 0, 0
	}
	ref := string(b[:j+1])
	dec := html.UnescapeString(ref)
	if dec == ref {
		return 0, 0
	}
	r, size := utf8.DecodeRuneInString(dec)
	if size != len(dec) || r == utf8.RuneError {
		return 0, 0
	}
	return r, j + 1
}

// formSpaces reads '+' as the space it stands for in a URL query (after '?' or '=' in the same
// whitespace-free token): "q=612+345+678". A '+' that is data is %2B there.
func formSpaces(out []byte, osrc, oend []int32, in []byte, src, end []int32) ([]byte, []int32, []int32) {
	query := false
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case isRunBreak(c):
			query = false
		case c == '?' || c == '=':
			query = true
		case c == '+' && query && i > 0 && i+1 < len(in) && !isRunBreak(in[i-1]) && !isRunBreak(in[i+1]):
			c = ' '
		}
		a, b := origOf(src, end, i, i+1)
		out = append(out, c)
		osrc, oend = append(osrc, int32(a)), append(oend, int32(b))
	}
	return out, osrc, oend
}

// joinSpaced applies step 7: in a run of at least minSpaced single characters separated by
// single spaces, the spaces are dropped.
func joinSpaced(out []byte, osrc, oend []int32, in []byte, src, end []int32) ([]byte, []int32, []int32, bool) {
	changed := false
	for i := 0; i < len(in); {
		if k := spacedRun(in, i); k > 0 {
			changed = true
			// Copy the characters of the run, skipping the spaces between them — except before a
			// letter once digits were seen, unless the run is an e-mail: "1 2 3 4 5 6 7 8 Z y"
			// reads "12345678 Z y" (the way identifiers with a letter after the digits are also
			// written, and a word typed after the value does not glue to it), "E S 9 1 2 1…"
			// reads "ES9121…".
			email := bytes.IndexByte(in[i:k], '@') >= 0
			prevDigit, sawDigit := false, false
			for j := i; j < k; {
				_, size := utf8.DecodeRune(in[j:])
				for m := j; m < j+size; m++ {
					a, b := origOf(src, end, m, m+1)
					out = append(out, in[m])
					osrc, oend = append(osrc, int32(a)), append(oend, int32(b))
				}
				r, _ := utf8.DecodeRune(in[j:])
				prevDigit = unicode.IsDigit(r)
				sawDigit = sawDigit || prevDigit
				j += size
				if j < k && (in[j] == ' ' || in[j] == '+') {
					next, _ := utf8.DecodeRune(in[j+1:])
					if !email && unicode.IsLetter(next) && (prevDigit || sawDigit && unicode.IsLetter(r)) {
						a, b := origOf(src, end, j, j+1)
						out = append(out, ' ')
						osrc, oend = append(osrc, int32(a)), append(oend, int32(b))
					}
					j++
				}
			}
			i = k
			continue
		}
		_, size := utf8.DecodeRune(in[i:])
		for m := i; m < i+size; m++ {
			a, b := origOf(src, end, m, m+1)
			out = append(out, in[m])
			osrc, oend = append(osrc, int32(a)), append(oend, int32(b))
		}
		i += size
	}
	return out, osrc, oend, changed
}

// spacedRun returns the end of a spaced run starting at i, or 0: at least minSpaced letters,
// digits or e-mail punctuation (@ . _ -), each alone, one separator apart — one space throughout, or one '+' throughout (a
// form-encoded URL's space). The run must start and end at word boundaries; punctuation may touch
// it ("(1 2 3 4 5 6 7 8 Z).").
func spacedRun(in []byte, i int) int {
	if i > 0 {
		if r, _ := utf8.DecodeLastRune(in[:i]); isAlnumRune(r) {
			return 0
		}
	}
	var sep byte
	n, j := 0, i
	for {
		r, size := utf8.DecodeRune(in[j:])
		if !isAlnumRune(r) && !strings.ContainsRune("@._-", r) {
			return 0
		}
		n++
		j += size
		if j+1 < len(in) && (in[j] == ' ' || in[j] == '+') && (sep == 0 || in[j] == sep) {
			if r2, _ := utf8.DecodeRune(in[j+1:]); isAlnumRune(r2) || strings.ContainsRune("@._-", r2) {
				// The next character must stand alone too, or the run ends here.
				_, size2 := utf8.DecodeRune(in[j+1:])
				if k := j + 1 + size2; k == len(in) || !startsAlnum(in[k:]) {
					sep = in[j]
					j++
					continue
				}
			}
		}
		if j < len(in) && startsAlnum(in[j:]) {
			return 0 // the last character is glued to a word
		}
		break
	}
	if n < minSpaced {
		return 0
	}
	return j
}

func startsAlnum(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return isAlnumRune(r)
}

func isAlnumRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isRunBreak(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
