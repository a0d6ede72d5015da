package redact

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A value can be cut in two before it reaches a recognizer: wrapped by a line break in the
// middle of a group ("ES91 2100 04\n18 4502 …"), or split by the user between two messages or two
// content parts ("mi DNI es 1234" / "5678Z"). Each text's own scan sees two harmless halves.
// The join pass looks at every such cut: the few dozen characters on each side are put
// together without the break and read by the deterministic recognizers (the strict redactor:
// checksummed identifiers, e-mails, phones, operator patterns). A value found across the cut is
// redacted in place — one placeholder for a wrapped value (the line break stays inside its
// vault entry, so the answer gets it back as typed), one per half for a value split between
// two texts. Windows are read in one batch per request.

// joinWindow is how many runes each side of a cut is read, stretched to whole tokens. The
// longest value we look for (an IBAN written in groups) is 42 characters.
const joinWindow = 48

// TextRef is one text of a request for RedactTexts.
type TextRef struct {
	S *string
	// JSON: the text is usually a JSON document (RedactJSON).
	JSON bool
	// Content: a message's content; consecutive content texts are looked at across their
	// boundary.
	Content bool
}

// RedactTexts redacts every text in order through this session (Redact, or RedactJSON for
// JSON texts), also finding the values that line breaks or text boundaries cut in two. On error
// the texts are left as they were and nothing may be sent.
func (s *Session) RedactTexts(ctx context.Context, texts []TextRef) error {
	extra, err := s.r.cutSpans(ctx, texts)
	if err != nil {
		return err
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		var red string
		if t.JSON && len(extra[i]) == 0 {
			red, err = s.RedactJSON(ctx, *t.S)
		} else {
			red, err = s.redact(ctx, *t.S, extra[i])
		}
		if err != nil {
			return err
		}
		out[i] = red
	}
	for i, t := range texts {
		*t.S = out[i]
	}
	return nil
}

// cut is one place where a value may have been cut: the end of one text's left part and the
// start of (possibly another) text's right part.
type cut struct {
	left, right       int // text indexes
	leftLo, leftHi    int // left window: texts[left][leftLo:leftHi]
	rightLo, rightHi  int // right window
	winStart, joinPos int // offsets of the window and of the cut in the batch text
}

// cutSpans finds, for each text, the spans (original offsets) of values that cross a cut.
func (r *Redactor) cutSpans(ctx context.Context, texts []TextRef) ([][]Span, error) {
	extra := make([][]Span, len(texts))
	if r.strict == nil || ablateNormalize {
		return extra, nil
	}
	var cuts []cut
	for i, t := range texts {
		if !t.JSON {
			cuts = lineCuts(cuts, i, *t.S)
		}
		if t.Content && i+1 < len(texts) && texts[i+1].Content {
			if c, ok := boundaryCut(i, *t.S, *texts[i+1].S); ok {
				cuts = append(cuts, c)
			}
		}
	}
	if len(cuts) == 0 {
		return extra, nil
	}
	// Each cut is read twice: closed up ("1234" + "5678Z") and with one space ("1 2 3 4" +
	// "5 6 7 8 Z", a value typed with spaces and cut at one of them).
	var spaced []cut
	var b strings.Builder
	for k := range cuts {
		variants := []*cut{&cuts[k]}
		if singleAtCut(texts, &cuts[k]) {
			spaced = append(spaced, cuts[k])
			variants = append(variants, &spaced[len(spaced)-1])
		}
		for i, c := range variants {
			c.winStart = b.Len()
			b.WriteString((*texts[c.left].S)[c.leftLo:c.leftHi])
			if i == 1 {
				b.WriteByte(' ')
			}
			c.joinPos = b.Len()
			b.WriteString((*texts[c.right].S)[c.rightLo:c.rightHi])
			b.WriteString("\n\n")
		}
	}
	cuts = append(cuts, spaced...)
	batch := b.String()
	spans, err := r.strict.Detect(ctx, batch)
	if err != nil {
		return nil, err
	}
	for _, sp := range spans {
		if sp.Type == TypeLiteral {
			continue
		}
		for k := range cuts {
			c := &cuts[k]
			if !(sp.Start >= c.winStart && sp.Start < c.joinPos && sp.End > c.joinPos) {
				continue
			}
			lo := c.leftLo + sp.Start - c.winStart
			lo = min(lo, c.leftHi)
			hi := c.rightLo + sp.End - c.joinPos
			hi = min(hi, c.rightHi)
			if c.left == c.right {
				extra[c.left] = append(extra[c.left], Span{Start: lo, End: hi, Type: sp.Type, Score: 1, Source: "vault",
					Text: (*texts[c.left].S)[lo:hi]})
				continue
			}
			if lo < c.leftHi {
				extra[c.left] = append(extra[c.left], Span{Start: lo, End: c.leftHi, Type: sp.Type, Score: 1, Source: "vault",
					Text: (*texts[c.left].S)[lo:c.leftHi]})
			}
			extra[c.right] = append(extra[c.right], Span{Start: c.rightLo, End: hi, Type: sp.Type, Score: 1, Source: "vault",
				Text: (*texts[c.right].S)[c.rightLo:hi]})
		}
	}
	return extra, nil
}

// singleAtCut: a one-character token touches the cut on either side, so the value may have
// been typed with spaces ("1 2 3 4" / "5 6 7 8 Z").
func singleAtCut(texts []TextRef, c *cut) bool {
	l, r := *texts[c.left].S, *texts[c.right].S
	_, size := utf8.DecodeLastRuneInString(l[:c.leftHi])
	at := c.leftHi - size
	leftSingle := at == 0 || l[at-1] == ' '
	_, size = utf8.DecodeRuneInString(r[c.rightLo:])
	end := c.rightLo + size
	rightSingle := end == len(r) || r[end] == ' '
	return leftSingle || rightSingle
}

// lineCuts appends the line breaks of text that have a word character on both sides and a
// digit, '@' or an escape that may hide one near them (every deterministic type holds one).
func lineCuts(cuts []cut, i int, text string) []cut {
	for off := 0; ; {
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			return cuts
		}
		nl := off + j
		off = nl + 1
		lo, hi := nl, nl+1 // the whitespace run holding the break
		for lo > 0 && (text[lo-1] == ' ' || text[lo-1] == '\t' || text[lo-1] == '\r') {
			lo--
		}
		for hi < len(text) && (text[hi] == ' ' || text[hi] == '\t' || text[hi] == '\r') {
			hi++
		}
		if lo == 0 || hi == len(text) || text[hi] == '\n' {
			continue
		}
		c, ok := makeCut(i, i, text, lo, text, hi)
		if ok {
			cuts = append(cuts, c)
		}
	}
}

// boundaryCut is the cut between the end of text a (texts[i]) and the start of text b.
func boundaryCut(i int, a, b string) (cut, bool) {
	lo := len(strings.TrimRightFunc(a, unicode.IsSpace))
	hi := len(b) - len(strings.TrimLeftFunc(b, unicode.IsSpace))
	if lo == 0 || hi == len(b) {
		return cut{}, false
	}
	return makeCut(i, i+1, a, lo, b, hi)
}

// makeCut builds the windows around a cut between left[:lo] and right[hi:], or false when
// neither side could hold part of a deterministic value.
func makeCut(li, ri int, left string, lo int, right string, hi int) (cut, bool) {
	before, _ := utf8.DecodeLastRuneInString(left[:lo])
	after, _ := utf8.DecodeRuneInString(right[hi:])
	if !joinable(before) || !joinable(after) || (before == '.' || before == ';') && unicode.IsUpper(after) {
		return cut{}, false // a sentence ends there
	}
	// The tokens touching the cut must both look like parts of a value, and one of them hold
	// a digit, an '@' or something that may hide one ("…número 612 345 678\nGracias" is not a
	// cut value; "ES91 2100 04\n18 4502…" and "1234\n5678Z" are).
	lt := left[strings.LastIndexFunc(left[:lo], unicode.IsSpace)+1 : lo]
	rt := right[hi:]
	if k := strings.IndexFunc(rt, unicode.IsSpace); k >= 0 {
		rt = rt[:k]
	}
	if !valueLike(lt) || !valueLike(rt) || !hasKey(lt) && !hasKey(rt) {
		return cut{}, false
	}
	c := cut{left: li, right: ri, leftHi: lo, rightLo: hi}
	c.leftLo = windowStart(left, lo)
	c.rightHi = windowEnd(right, hi)
	return c, true
}

// hasKey: the token holds a digit, an '@', an escape, or a non-ASCII character (full-width or
// another script's digits).
func hasKey(tok string) bool {
	return strings.ContainsAny(tok, "0123456789@&%") || hasNonASCII(tok)
}

// valueLike: the token could be part of an identifier, e-mail or phone number: it holds a
// digit or e-mail punctuation, or is as short as a group of one.
func valueLike(tok string) bool {
	return hasKey(tok) || strings.ContainsAny(tok, ".-_+") || utf8.RuneCountInString(tok) <= 4
}

// joinable: a character that can be part of an identifier, an e-mail or a phone number (any
// letter or digit, so full-width and other scripts' digits count too).
func joinable(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("@.-_+%&;", r)
}

func hasNonASCII(s string) bool { return !isASCII(s) }

// windowStart goes back joinWindow runes from lo, then on to the start of that token, so a
// window never starts inside a number (a match there would read part of it as a whole).
func windowStart(s string, lo int) int {
	i := lo
	for n := 0; i > 0 && n < joinWindow; n++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	for k := 0; i > 0 && k < joinWindow; k++ {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if unicode.IsSpace(r) {
			break
		}
		i -= size
	}
	return i
}

// windowEnd is windowStart forwards.
func windowEnd(s string, hi int) int {
	i := hi
	for n := 0; i < len(s) && n < joinWindow; n++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	for k := 0; i < len(s) && k < joinWindow; k++ {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}
