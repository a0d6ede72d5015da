package redact

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Candidates let a built-in recognizer try its pattern only where a match can start.
// regexp2 is a backtracking engine: handed a text, it runs its program from every position
// that passes the first-character test, and in prose most positions do. A Go scan over the
// runes instead finds every position where a pattern could start — a necessary condition
// read off the pattern: the character its lookbehind forbids before it, its first
// characters, how many digits must follow (see digitsFrom) — and the recognizer's anchored
// form (\G + pattern) is tried there and only there, on the whole text, so lookarounds see
// exactly what a whole-text scan sees. Candidates inside a match already found are skipped,
// as a scan that resumes after each match skips them. A recognizer that cannot reach its
// threshold without a context word (dates, passports) is tried only at starts that have one
// in reach (nearContext). A first() that ruled out a position where the pattern matches would
// lose a redaction: TestCandidatesAgreeWithWholeText (mutated examples of every pattern) and
// FuzzWindowsEquivalent compare the result with whole-text scans.

// scanText is one text prepared for detection, and the scratch space of one Redact call. It
// is pooled by the Redactor (a 4 KiB text needs ~100 KiB of slices, which would otherwise
// drive the GC, and the p99, on a busy NUC) and zeroed when it goes back to the pool, so no
// copy of a prompt outlives its request there.
type scanText struct {
	p        profile
	prepared bool // runes, offs, runs and dig are filled (only when a recognizer runs)
	runes    []rune
	text     string  // what runes hold (nextASCII searches it)
	offs     []int32 // rune index -> byte offset; offs[len(runes)] = len(text); empty for ASCII text (see off)
	runs     []digitRun
	dig      []uint8 // dig[i]: digits from rune i to the end of its cluster (saturating at 255); 0 if runes[i] is not a digit
	heads    []int32 // the runes a built-in match can start at: no word rune before, not a space
	headAt   []int32 // headAt[i]: index in heads of the first head at rune i or after (len(runes)+1 entries)
	headRune []uint8 // headRune[k]: the rune at heads[k] if ASCII, else 128 (read in order by startsIn)
	cands    []int
	occ      [][2]int // context word occurrences (nearContext)
	words    []word   // the gazetteer's words
	fold     folder   // and their folded forms
	spans    []Span   // candidates, then what Redact replaces
	norm     normalizer
	view     view // the text the recognizers read (see normalize.go)
	// limit bounds the candidate spans of one text (0: none): a text with more is refused with
	// ErrTooManyEntities before its candidates fill memory.
	limit int
}

// getText prepares text for detection: t.view is its normalised view, profiled.
// maxPooledRunes bounds the scratch kept in the pool: 64 Ki runes covers a long prompt.
const maxPooledRunes = 64 << 10

func (r *Redactor) getText(text string) *scanText {
	t, _ := r.texts.Get().(*scanText)
	if t == nil {
		t = &scanText{}
	}
	if r.skipNormalize || ablateNormalize {
		t.view = view{text: text}
	} else {
		t.view = t.norm.normalize(text)
	}
	t.p.reset(t.view.text)
	return t
}

// putText zeroes what holds the text or points into it, and pools t.
func (r *Redactor) putText(t *scanText) {
	clear(t.p.lower)
	clear(t.runes)
	clear(t.headRune)
	clear(t.words)
	clear(t.spans)
	clear(t.fold.arena)
	t.p.lower, t.runes, t.words, t.spans = t.p.lower[:0], t.runes[:0], t.words[:0], t.spans[:0]
	t.fold = folder{arena: t.fold.arena[:0]}
	t.norm.wipe()
	t.view = view{}
	t.prepared = false
	t.text = ""
	t.limit = 0
	// A text far larger than a prompt leaves its buffers to the collector instead of the pool.
	if cap(t.runes) > maxPooledRunes {
		return
	}
	r.texts.Put(t)
}

// prepare fills the rune view of text that the recognizers need.
func (t *scanText) prepare(text string) {
	if t.prepared {
		return
	}
	t.prepared = true
	t.text = text
	// Sized once: growing by doubling would leave as much garbage again as a long text needs.
	// One pass fills the runes, their offsets and the heads: heads is sized for every rune
	// (pooled, so the slack is not garbage), and headAt[i] is the index in heads of the first
	// head at or after rune i, so startsIn jumps to a range's start without a search.
	n := utf8.RuneCountInString(text)
	runes := slices.Grow(t.runes[:0], n)[:n]
	heads := slices.Grow(t.heads[:0], n)
	headRune := slices.Grow(t.headRune[:0], n)
	headAt := slices.Grow(t.headAt[:0], n+1)[:n+1]
	t.offs = t.offs[:0]
	prevWord := false
	if n == len(text) {
		// ASCII: a rune's index is its byte offset, and offs stays empty (see off).
		for i := 0; i < len(text); i++ {
			r := rune(text[i])
			runes[i] = r
			headAt[i] = int32(len(heads))
			if !prevWord && r != ' ' && r != '\n' && r != '\t' && r != '\r' {
				heads = append(heads, int32(i))
				headRune = append(headRune, uint8(r)) // ASCII
			}
			prevWord = isWordRune(r)
		}
	} else {
		offs := slices.Grow(t.offs, n+1)[:n+1]
		k := 0
		for i, r := range text {
			runes[k], offs[k], headAt[k] = r, int32(i), int32(len(heads))
			if !prevWord && r != ' ' && r != '\n' && r != '\t' && r != '\r' {
				heads = append(heads, int32(k))
				headRune = append(headRune, uint8(min(r, 128)))
			}
			prevWord = isWordRune(r)
			k++
		}
		offs[n] = int32(len(text))
		t.offs = offs
	}
	headAt[n] = int32(len(heads))
	t.runes, t.heads, t.headAt, t.headRune = runes, heads, headAt, headRune
	t.runs = digitRunsInto(t.runs[:0], t.runes)
	// dig is 0 outside the digit runs (every digit is in one, and a digit's count reads only
	// digits of its own run), so only the runs are read, each from its end
	dig := slices.Grow(t.dig[:0], n+1)[:n+1]
	clear(dig)
	for _, run := range t.runs {
		for i := run.end - 1; i >= run.start; i-- {
			switch {
			case !isDigit(runes[i]):
				dig[i] = 0
			case i+1 < n && isDigit(runes[i+1]):
				dig[i] = satInc(dig[i+1])
			case i+2 < n && isSep(runes[i+1]) && isDigit(runes[i+2]): // the rule of digitRunsInto
				dig[i] = satInc(dig[i+2])
			default:
				dig[i] = 1
			}
		}
	}
	t.dig = dig
}

// off is the byte offset of rune i (i may be len(runes): the text's length).
func (t *scanText) off(i int) int {
	if len(t.offs) == 0 {
		return i
	}
	return int(t.offs[i])
}

// satInc is n+1, saturating: no pattern needs to know of more than a few dozen digits in a row,
// and a byte per rune keeps the scratch of a long text small.
func satInc(n uint8) uint8 {
	if n == 255 {
		return n
	}
	return n + 1
}

// rune returns the rune at i, or -1 outside the text.
func (t *scanText) rune(i int) rune {
	if i < 0 || i >= len(t.runes) {
		return -1
	}
	return t.runes[i]
}

// digitsFrom is how many digits the digit cluster holding rune i has from i to its end
// (0 if rune i is not a digit). Every separator a built-in pattern allows between digits
// joins a cluster, so a pattern that needs n digits from i needs digitsFrom(i) >= n.
func (t *scanText) digitsFrom(i int) int {
	if i < 0 || i >= len(t.runes) {
		return 0
	}
	return int(t.dig[i])
}

// digitsAt reports whether the n runes from j are all digits.
func (t *scanText) digitsAt(j, n int) bool {
	if j < 0 || j+n > len(t.runes) {
		return false
	}
	for _, r := range t.runes[j : j+n] {
		if !isDigit(r) {
			return false
		}
	}
	return true
}

// skip returns j+1 if the rune at j is one of set (an optional separator), else j.
func (t *scanText) skip(j int, set ...rune) int {
	r := t.rune(j)
	for _, c := range set {
		if r == c {
			return j + 1
		}
	}
	return j
}

// foldPrefix reports whether the runes from i, lower-cased as regexp2's (?i) lower-cases them
// (unicode.ToLower, so 'İ' is 'i' and the Kelvin sign is 'k'), start with the lower-case w.
func (t *scanText) foldPrefix(i int, w []rune) bool {
	if i+len(w) > len(t.runes) {
		return false
	}
	for k, c := range w {
		r := t.runes[i+k]
		if r < 0x80 { // unicode.ToLower's ASCII case, inline
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
		} else {
			r = unicode.ToLower(r)
		}
		if r != c {
			return false
		}
	}
	return true
}

// candidates returns, in increasing order, the rune indices where rec's pattern may match.
// gated means rec's score is below its threshold without a context word, so only starts
// near its context words can produce a redaction.
func (t *scanText) candidates(rec *recognizer, gated bool, ctxWindow int) []int {
	c := t.cands[:0]
	n := len(t.runes)
	k := 0 // into t.heads
	switch rec.lead {
	case leadDigits:
		// A match holds a cluster of at least cluster.min digits and starts at most
		// cluster.left runes before it.
		// startsIn's loop, written out: a call per run cost as much as its loop over the few
		// heads a run has
		next := 0
		heads, headRune, headAt := t.heads, t.headRune[:len(t.heads)], t.headAt
		starts, high, first := &rec.starts, rec.high, rec.first
		for _, run := range t.runs {
			if run.digits < rec.cluster.min || run.dots < rec.cluster.dots {
				continue
			}
			lo, hi := max(run.start-rec.cluster.left, next), run.end
			if lo > 0 && k < len(heads) && int(heads[k]) < lo { // skip to lo: ranges are sparse
				k = int(headAt[min(lo, n)])
			}
			for ; k < len(heads); k++ {
				i := int(heads[k])
				if i >= hi {
					break
				}
				if r := headRune[k]; r < 128 && !starts[r] || r >= 128 && !high {
					continue
				}
				if first(t, i) {
					c = append(c, i)
				}
			}
			next = max(next, run.end)
		}
	case leadAt, leadColon:
		// A match lies inside one whitespace-free token that holds the character.
		ch := '@'
		if rec.lead == leadColon {
			ch = ':'
		}
		next := 0
		for i := t.nextASCII(byte(ch), 0); i < n; i = t.nextASCII(byte(ch), i+1) {
			s, e := i, i+1
			for s > next && !unicode.IsSpace(t.runes[s-1]) {
				s--
			}
			for e < n && !unicode.IsSpace(t.runes[e]) {
				e++
			}
			c = t.startsIn(c, rec, s, e, &k)
			next, i = e, e
		}
	default:
		c = t.startsIn(c, rec, 0, n, &k)
	}
	if gated && rec.maxLen > 0 && !rec.anyContext {
		c = t.nearContext(c, rec, ctxWindow)
	}
	t.cands = c
	return c
}

// nextASCII returns the index of the first rune at or after i that is the ASCII character ch,
// or len(t.runes): an index search of the text's bytes (an ASCII byte is always a rune of its
// own), instead of a loop over every rune.
func (t *scanText) nextASCII(ch byte, i int) int {
	n := len(t.runes)
	if i >= n {
		return n
	}
	b := t.off(i)
	k := strings.IndexByte(t.text[b:], ch)
	if k < 0 {
		return n
	}
	b += k
	if len(t.offs) == 0 {
		return b
	}
	j, _ := slices.BinarySearch(t.offs[:n], int32(b))
	return j
}

// startsIn appends the starts in [lo, hi), looking only at heads from heads[*k] on; ranges
// must come in increasing order. Every built-in pattern starts with a lookbehind that rules
// out a word rune before the match, and never with a space (heads), then with one of
// rec.starts, then whatever rec.first checks.
func (t *scanText) startsIn(c []int, rec *recognizer, lo, hi int, k *int) []int {
	heads, runes, headRune := t.heads, t.runes, t.headRune[:len(t.heads)]
	// a local index: the loop stores nothing through k
	kk := *k
	if lo > 0 && kk < len(heads) && int(heads[kk]) < lo { // skip to lo: ranges are sparse
		kk = int(t.headAt[min(lo, len(runes))])
	}
	starts, high, first := &rec.starts, rec.high, rec.first
	for ; kk < len(heads); kk++ {
		i := int(heads[kk])
		if i >= hi {
			break
		}
		if r := headRune[kk]; r < 128 && !starts[r] || r >= 128 && !high {
			continue
		}
		if first(t, i) {
			c = append(c, i)
		}
	}
	*k = kk
	return c
}

// nearContext keeps the sorted starts c where a match of at most rec.maxLen runes could have
// one of rec's context words within reach of Redactor.boost: ctxWindow bytes before the
// match, half that after it. rec.gate holds the context words and, for a word with a space,
// its part before each space (or, for a leading space, the rest): boost looks in
// before+" "+after, so such a word can also be split across the match, and that part is then
// in reach. Each byte of the text is
// looked at once, however many starts' reaches overlap.
func (t *scanText) nearContext(c []int, rec *recognizer, ctxWindow int) []int {
	lower := t.p.lower
	kept := c[:0]
	occ := t.occ[:0] // occurrences [start, end) of gate words, by start
	searched, p := 0, 0
	for _, i := range c {
		lo := max(0, t.off(i)-ctxWindow)
		hi := min(len(lower), t.off(min(i+rec.maxLen, len(t.runes)))+ctxWindow/2)
		// Occurrences starting in [from, hi); one that ends after hi may be in the reach of
		// a later start.
		pairs := rec.gatePairs
		for a := max(lo, searched); a < hi; a++ {
			if pairs != nil {
				// the bytes whose pair starts no gate word, in a tight loop (a+1 < hi, so
				// the pair is in the text): most bytes of the reach
				for a+1 < hi {
					if pair := int(lower[a])<<8 | int(lower[a+1]); pairs[pair>>6]>>(pair&63)&1 != 0 {
						break
					}
					a++
				}
				if a+1 < len(lower) {
					if pair := int(lower[a])<<8 | int(lower[a+1]); pairs[pair>>6]>>(pair&63)&1 == 0 {
						continue // no gate word starts with these two bytes
					}
				}
			}
			for _, k := range rec.gateByFirst[lower[a]] {
				// bytes.HasPrefix, with the second byte compared first: most first-byte
				// hits in prose end there, without a call.
				if w := rec.gate[k]; len(w) <= len(lower)-a && (len(w) < 2 || lower[a+1] == w[1]) && string(lower[a:a+len(w)]) == string(w) {
					occ = append(occ, [2]int{a, a + len(w)})
				}
			}
		}
		searched = max(searched, hi)
		for p < len(occ) && occ[p][0] < lo {
			p++
		}
		for q := p; q < len(occ) && occ[q][0] < hi; q++ {
			if occ[q][1] <= hi {
				kept = append(kept, i)
				break
			}
		}
	}
	t.occ = occ
	return kept
}

// A digit cluster is a run of digits joined by single separators ("12.345.678", "4111 1111
// 1111 1111", "28/12345678/40", "34 600 12 34 56").
type digitRun struct{ start, end, digits, dots int } // rune indices; dots: '.' separators

// cluster says which digit clusters can hold a match of a digit-led recognizer: at least min
// digits and dots '.' separators, with the match starting at most left runes before the
// cluster ("ES", "X-", "3 de septiembre de ").
type cluster struct{ min, left, dots int }

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isSep(r rune) bool { return r == ' ' || r == '.' || r == '-' || r == '/' }

func digitRunsInto(out []digitRun, runes []rune) []digitRun {
	cur := digitRun{start: -1}
	for i := 0; i < len(runes); i++ {
		if cur.start < 0 {
			// outside a run only a digit matters: the others in a tight loop
			for i < len(runes) && uint32(runes[i]-'0') > 9 {
				i++
			}
			if i == len(runes) {
				break
			}
		}
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

// isWordRune is the \w of the built-in patterns (see asciiClasses).
func isWordRune(r rune) bool {
	if uint32(r) < 0x80 { // (a negative r, t.rune's "outside the text", is none)
		return byteClass[r]&byteWord != 0 // digits, letters, '_': one load
	}
	return r >= 0xC0 && r <= 0x24F
}

func isASCIILetter(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }
