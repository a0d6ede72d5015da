package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Windows let a recognizer scan only the parts of a text where it could match. regexp2 is a
// backtracking engine that tries every position, so on a 4 KiB prompt the scan, not the
// validation, is the cost; most of a prompt has no digit, '@' or street keyword at all.
//
// A window is snapped outwards to whitespace (or the ends of the text), so the word-boundary
// lookarounds every built-in pattern starts and ends with see exactly what they would see in
// the whole text; windows never overlap, so no match can span two of them. Each lead's rule is
// chosen so that every match of its patterns lies inside one window (FuzzWindowsEquivalent
// checks this against a whole-text scan).

// A digit cluster is a run of digits joined by single separators ("12.345.678", "4111 1111
// 1111 1111", "28/12345678/40", "34 600 12 34 56"). Every match of a digit-led pattern holds a
// cluster of at least min digits, and extends at most left runes before it and right runes
// after it ("ES", "GB82 WEST ", "X-", "3 de septiembre de ", "-Z").
type cluster struct{ min, left, right, dots int }

type digitRun struct{ start, end, digits, dots int } // rune indices; dots: '.' separators

// streetTokens bounds an address after its street keyword, counted in whitespace-separated
// tokens (the pattern allows at most about 35), so that long words cannot push it out.
const streetTokens = 48

// streetKeywords are lower-case prefixes of the street types in the address pattern.
var streetKeywords = []string{"calle", "c/", "avda", "avenida", "av.", "paseo", "pº", "p°", "plaza", "pza",
	"pl.", "ronda", "camino", "carretera", "ctra", "travesía", "travesia", "glorieta", "carrer", "rambla",
	"rúa", "rua", "kalea", "passeig", "plaça", "placa", "callej", "urbaniz", "urb."}

var keywordsByFirst = func() (t [256][]string) {
	for _, k := range streetKeywords {
		t[k[0]] = append(t[k[0]], k)
	}
	return t
}()

type window struct{ start, end int } // rune indices

const mergeGap = 8

// windowsFor returns the rune ranges rec must scan, or nil and false when it must scan the
// whole text. gated means rec's score is below its threshold without a context word, so only
// the neighbourhood of its context words can produce a redaction.
func windowsFor(rec *recognizer, gated bool, ctxWindow int, runes []rune, runs []digitRun, p *profile, offs []int) ([]window, bool) {
	if gated && rec.maxLen > 0 && len(p.lower) == offs[len(offs)-1] {
		ctx := contextWindows(rec.context, ctxWindow, rec.maxLen, runes, p.lower, offs)
		if rec.lead == leadDigits { // a match lies in one window of each kind: scan where both are
			return intersect(ctx, clusterWindows(runes, runs, rec.cluster)), true
		}
		return ctx, true
	}
	switch rec.lead {
	case leadDigits:
		return clusterWindows(runes, runs, rec.cluster), true
	case leadAt:
		return tokenWindows(runes, '@'), true
	case leadColon:
		return tokenWindows(runes, ':'), true
	case leadIBAN:
		return ibanWindows(runes, rec.maxLen), true
	case leadStreet:
		if len(p.lower) != offs[len(offs)-1] { // lower-casing changed byte lengths: offsets differ
			return nil, false
		}
		return streetWindows(runes, p.lower, offs), true
	}
	return nil, false
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isSep(r rune) bool { return r == ' ' || r == '.' || r == '-' || r == '/' }

// digitRuns finds the digit clusters of a text.
func digitRuns(runes []rune) []digitRun {
	var out []digitRun
	cur := digitRun{start: -1}
	for i := 0; i < len(runes); i++ {
		switch {
		case isDigit(runes[i]):
			if cur.start < 0 {
				cur = digitRun{start: i}
			}
			cur.digits++
			cur.end = i + 1
		case cur.start >= 0 && isSep(runes[i]) && i+1 < len(runes) && isDigit(runes[i+1]):
			if runes[i] == '.' {
				cur.dots++
			}
		case cur.start >= 0:
			out = append(out, cur)
			cur.start = -1
		}
	}
	if cur.start >= 0 {
		out = append(out, cur)
	}
	return out
}

func clusterWindows(runes []rune, runs []digitRun, c cluster) []window {
	var raw []window
	for _, r := range runs {
		if r.digits >= c.min && r.dots >= c.dots {
			raw = append(raw, window{r.start - c.left, r.end + c.right})
		}
	}
	return snap(runes, raw)
}

// tokenWindows returns the whitespace-delimited tokens that hold c.
func tokenWindows(runes []rune, c rune) []window {
	var raw []window
	for i, r := range runes {
		if r == c {
			raw = append(raw, window{i, i + 1})
		}
	}
	return snap(runes, raw)
}

// tokensAfter returns the rune index after n whitespace-separated tokens from i.
func tokensAfter(runes []rune, i, n int) int {
	inTok := false
	for ; i < len(runes); i++ {
		sp := unicode.IsSpace(runes[i])
		if !sp && !inTok {
			if n == 0 {
				return i
			}
			n--
		}
		inTok = !sp
	}
	return len(runes)
}

// isWordRune is the \w of the built-in patterns (see asciiClasses).
func isWordRune(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '_' || r >= 0xC0 && r <= 0x24F
}

func isASCIILetter(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }

// ibanWindows start where a word starts with two letters and two digits (country and check
// digits) and run for the longest IBAN with separators.
func ibanWindows(runes []rune, maxLen int) []window {
	var raw []window
	for i := 0; i+3 < len(runes); i++ {
		if isASCIILetter(runes[i]) && isASCIILetter(runes[i+1]) && isDigit(runes[i+2]) && isDigit(runes[i+3]) &&
			(i == 0 || !isWordRune(runes[i-1])) {
			raw = append(raw, window{i, i + maxLen})
		}
	}
	return snap(runes, raw)
}

func streetWindows(runes []rune, lower string, offs []int) []window {
	var raw []window
	for i := 0; i < len(lower); i++ {
		// The address pattern starts at a word start; a byte >= 0x80 before i may end a
		// non-letter rune, so it does not rule i out.
		if i > 0 && lower[i-1] < 0x80 && isWordByte(lower[i-1]) {
			continue
		}
		for _, k := range keywordsByFirst[lower[i]] {
			if strings.HasPrefix(lower[i:], k) {
				ri := runeIndex(offs, i)
				raw = append(raw, window{ri, tokensAfter(runes, ri, streetTokens)})
				break
			}
		}
	}
	return snap(runes, raw)
}

// contextWindows surround each context word with the reach of Redactor.boost (ctxWindow bytes
// after it, half that before it) plus the longest match a gated pattern makes.
func contextWindows(words []string, ctxWindow, maxMatch int, runes []rune, lower string, offs []int) []window {
	maxMatch *= utf8.UTFMax // bytes
	var raw []window
	for _, k := range words {
		for off := 0; ; {
			j := strings.Index(lower[off:], k)
			if j < 0 {
				break
			}
			a, b := off+j, off+j+len(k)
			lo, hi := max(0, a-ctxWindow/2-maxMatch), min(len(lower), b+ctxWindow+maxMatch)
			raw = append(raw, window{runeIndex(offs, lo), runeIndex(offs, hi) + 1})
			off = b
		}
	}
	return snap(runes, raw)
}

// runeIndex maps a byte offset to the index of the rune that starts at or contains it.
func runeIndex(offs []int, b int) int {
	lo, hi := 0, len(offs)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if offs[m] <= b {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return lo
}

// snap clamps windows to the text, widens each to whitespace on both sides, sorts and merges
// them.
func snap(runes []rune, ws []window) []window {
	if len(ws) == 0 {
		return nil
	}
	for i := range ws {
		s, e := max(0, ws[i].start), min(len(runes), ws[i].end)
		for s > 0 && !unicode.IsSpace(runes[s-1]) {
			s--
		}
		for e < len(runes) && !unicode.IsSpace(runes[e]) {
			e++
		}
		ws[i] = window{s, e}
	}
	sortWindows(ws)
	out := ws[:1]
	for _, w := range ws[1:] {
		// Close windows are joined: each regexp2 call has a fixed cost that a few dozen extra
		// runes of scanning do not.
		if last := &out[len(out)-1]; w.start <= last.end+mergeGap {
			last.end = max(last.end, w.end)
			continue
		}
		out = append(out, w)
	}
	return out
}

// intersect returns the parts of the text inside both a window of a and a window of b. Both
// are sorted and disjoint; every boundary of the result is one of theirs, so it stays on
// whitespace.
func intersect(a, b []window) []window {
	var out []window
	for i, j := 0, 0; i < len(a) && j < len(b); {
		s, e := max(a[i].start, b[j].start), min(a[i].end, b[j].end)
		if s < e {
			out = append(out, window{s, e})
		}
		if a[i].end < b[j].end {
			i++
		} else {
			j++
		}
	}
	return out
}

func sortWindows(ws []window) {
	// insertion sort: windows arrive nearly sorted and are few
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && ws[j].start < ws[j-1].start; j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
}
