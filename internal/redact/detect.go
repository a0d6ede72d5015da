package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dlclark/regexp2"
)

// detection is what one scan of a text found, before the vault is consulted.
type detection struct {
	spans       []Span
	degraded    bool
	nerRejected int
}

// detect runs every detector that does not need the vault, on the text t was made for, and
// leaves the candidates in t.spans (d.spans is that slice). It never returns a partial
// result: any timeout or a required NER failure is an error.
func (r *Redactor) detect(ctx context.Context, text string, t *scanText) (detection, error) {
	var d detection
	if text == "" {
		return d, nil
	}
	t.spans = appendLookalikes(t.spans[:0], text)
	p := &t.p
	run := func(rec *recognizer) error {
		if rec.need != nil && !rec.need(p) {
			return nil
		}
		t.prepare(text)
		emit := func(index, length int) {
			start, end := t.off(index), t.off(index+length)
			if s, ok := r.score(rec, text, p, start, &end); ok {
				t.spans = append(t.spans, s)
			}
		}
		var err error
		if rec.first == nil || r.wholeText {
			var m *regexp2.Match
			m, err = rec.re.FindRunesMatch(t.runes)
			for ; m != nil && err == nil; m, err = rec.re.FindNextMatch(m) {
				emit(m.Index, m.Length)
				if t.limit > 0 && len(t.spans) > t.limit {
					break
				}
			}
		} else {
			gated := rec.score < r.threshold(rec.typ)
			next := 0 // a whole-text scan resumes after each match: starts before next are not tried
			for _, c := range t.candidates(rec, gated, r.cfg.ContextWindow) {
				if c < next {
					continue
				}
				if rec.exact != nil {
					// the hand-written form of the anchored pattern: no regexp2 call, no Match
					if n := rec.exact(t.runes, c); n >= 0 {
						emit(c, n)
						next = c + max(n, 1)
						if t.limit > 0 && len(t.spans) > t.limit {
							break
						}
					}
					continue
				}
				var m *regexp2.Match
				if m, err = rec.anchored.FindRunesMatchStartingAt(t.runes, c); err != nil {
					break
				}
				if m != nil {
					emit(m.Index, m.Length)
					next = m.Index + max(m.Length, 1)
					if t.limit > 0 && len(t.spans) > t.limit {
						break
					}
				}
			}
		}
		if t.limit > 0 && len(t.spans) > t.limit {
			return fmt.Errorf("%w (more than %d candidates in one text)", ErrTooManyEntities, t.limit)
		}
		if err != nil {
			// regexp2's error quotes the input; never let it out.
			r.m.timeouts.WithLabelValues(rec.typ).Inc()
			r.log.WarnContext(ctx, "redact: recognizer timed out; text refused", "recognizer", rec.name, "type", rec.typ,
				"text_bytes", len(text), "timeout", r.cfg.MatchTimeout)
			return fmt.Errorf("%w (recognizer %s, %d bytes)", ErrMatchTimeout, rec.name, len(text))
		}
		return ctx.Err()
	}
	for _, rec := range r.deny {
		if err := run(rec); err != nil {
			return d, err
		}
	}
	for _, rec := range r.recs {
		if err := run(rec); err != nil {
			return d, err
		}
	}
	if r.rules || r.cfg.Names {
		t.fold.lower = p.lower
		t.words = splitWords(t.words[:0], text)
	}
	if r.rules {
		n := len(t.spans)
		t.spans = r.appendRules(t.spans, text, t.words, &t.fold, n)
	}
	if r.cfg.Names {
		n := len(t.spans)
		t.spans = appendNames(t.spans, t.words, &t.fold, text)
		for i := n; i < len(t.spans); i++ {
			s := &t.spans[i]
			s.Score = r.boostIdx(s.Score, r.personCtx, p.lower, s.Start, s.End)
		}
		t.spans = dropNamesInAddresses(t.spans, n)
	}
	// The passes that read the names' spans: dates of birth on a record line, and an
	// identifier in brackets after a name. Each keeps to its own type's Disable.
	if n := len(t.spans); r.rules {
		if !slices.Contains(r.cfg.Disable, TypeDOB) {
			t.spans = appendRecordDOB(t.spans, text, t.words, &t.fold, r.threshold)
		}
		if !slices.Contains(r.cfg.Disable, TypePassport) {
			t.spans = appendPersonBracketIDs(t.spans, text, n, r.threshold)
		}
	}
	d.spans = t.spans
	if r.cfg.NER.Mode != NEROff {
		spans, rejected, err := r.callNER(ctx, text)
		d.nerRejected = rejected
		switch {
		case err == nil:
			t.spans = append(t.spans, spans...)
			d.spans = t.spans
		case ctx.Err() != nil:
			return d, ctx.Err()
		case r.cfg.NER.Mode == NERRequired:
			r.m.nerFallback.WithLabelValues("refused").Inc()
			r.log.WarnContext(ctx, "redact: NER backend unavailable; text refused", "text_bytes", len(text), "err_kind", errKind(err))
			return d, fmt.Errorf("%w: %w", ErrNERUnavailable, err)
		default:
			r.m.nerFallback.WithLabelValues("degraded").Inc()
			r.log.WarnContext(ctx, "redact: NER backend unavailable; gazetteer only (degraded)", "text_bytes", len(text), "err_kind", errKind(err))
			d.degraded = true
		}
	}
	return d, nil
}

// dropNamesInAddresses removes the names (spans[from:]) that lie inside an address the grammar
// read: a person's name in a street's name ("C/ Dr. Fleming 12") is part of the address, and the
// merged span must keep the address's type.
func dropNamesInAddresses(spans []Span, from int) []Span {
	kept := spans[:from]
	for _, sp := range spans[from:] {
		inside := false
		for _, a := range spans[:from] {
			if a.Type == TypeAddress && a.Source == "address" && a.Start <= sp.Start && sp.End <= a.End {
				inside = true
				break
			}
		}
		if !inside {
			kept = append(kept, sp)
		}
	}
	return kept
}

// errKind names an error's class for a log line without its message, which a backend could
// have filled with the text it was given.
func errKind(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	default:
		return fmt.Sprintf("%T", err)
	}
}

// callNER asks the backend and keeps only spans that are exact substrings of text.
func (r *Redactor) callNER(ctx context.Context, text string) ([]Span, int, error) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.NER.Timeout)
	defer cancel()
	got, err := r.ner.Entities(ctx, text)
	if err != nil {
		return nil, 0, err
	}
	var out []Span
	rejected := 0
	for _, s := range got {
		if s.Text == "" || !typeName.MatchString(s.Type) || s.Type == TypeLiteral {
			rejected++
			continue
		}
		score := s.Score
		if score <= 0 || score > 1 {
			score = 0.8
		}
		if s.Start >= 0 && s.End <= len(text) && s.Start < s.End && text[s.Start:s.End] == s.Text {
			out = append(out, Span{Start: s.Start, End: s.End, Type: s.Type, Text: s.Text, Score: score, Source: "ner"})
			continue
		}
		found := false
		for off := 0; off < len(text); {
			i := strings.Index(text[off:], s.Text)
			if i < 0 {
				break
			}
			found = true
			start := off + i
			out = append(out, Span{Start: start, End: start + len(s.Text), Type: s.Type, Text: s.Text, Score: score, Source: "ner"})
			off = start + len(s.Text)
		}
		if !found {
			rejected++
		}
	}
	if rejected > 0 {
		r.m.nerRejected.Add(float64(rejected))
	}
	return out, rejected, nil
}

// score applies refine, validator, checksum policy and context words to one match.
func (r *Redactor) score(rec *recognizer, text string, p *profile, start int, end *int) (Span, bool) {
	s := text[start:*end]
	if rec.refine != nil {
		n := rec.refine(s)
		if n == 0 {
			return Span{}, false
		}
		*end = start + n
		s = s[:n]
	}
	if rec.veto != nil && rec.veto(text, start, *end) {
		return Span{}, false
	}
	score := rec.score
	if rec.validate != nil && !rec.validate(s) {
		switch r.cfg.ChecksumFailure {
		case ChecksumIgnore:
			return Span{}, false
		case ChecksumLower:
			if rec.failVeto != nil && rec.failVeto(text, start, *end) {
				return Span{}, false
			}
			score -= r.cfg.ChecksumPenalty
		}
	}
	if rec.ctxIdx != nil {
		score = r.boostIdx(score, rec.ctxIdx, p.lower, start, *end)
	} else {
		score = r.boost(score, rec.typ, rec.context, p.lower, start, *end)
	}
	return Span{Start: start, End: *end, Type: rec.typ, Text: s, Score: score, Source: rec.name}, true
}

var personContext = []string{"nombre", "name", "apellido", "surname", "cliente", "titular", "paciente", "client", "patient", "firma", "signed"}

// boost adds ContextBoost when a context word occurs within ContextWindow bytes before the
// match or half of that after it.
func (r *Redactor) boost(score float64, typ string, words []string, lower []byte, start, end int) float64 {
	extra := r.ctxWords[typ]
	if len(words) == 0 && len(extra) == 0 {
		return score
	}
	// Clamp rather than trust offsets.
	lo, hi := max(0, start-r.cfg.ContextWindow), min(len(lower), end+r.cfg.ContextWindow/2)
	if lo >= hi {
		return score
	}
	before, after := lower[lo:min(start, len(lower))], lower[min(end, len(lower)):hi]
	for _, w := range words {
		if containsJoined(before, after, w) {
			return min(1, score+r.cfg.ContextBoost)
		}
	}
	for _, w := range extra {
		if containsJoined(before, after, w) {
			return min(1, score+r.cfg.ContextBoost)
		}
	}
	return score
}

// containsWordStart reports whether w occurs in b at the start of a word ("nació" in "nació
// el", not in "Encarnación"); a context word that starts with a non-letter matches anywhere.
func containsWordStart(b []byte, w string) bool {
	for off := 0; off < len(b); {
		k := bytes.Index(b[off:], []byte(w))
		if k < 0 {
			return false
		}
		k += off
		if k == 0 || !isWordByte(b[k-1]) && b[k-1] < 0x80 || !isWordByte(w[0]) {
			return true
		}
		off = k + 1
	}
	return false
}

// containsJoined reports whether w occurs in before + " " + after, without building it.
func containsJoined(before, after []byte, w string) bool {
	if containsWordStart(before, w) || containsWordStart(after, w) {
		return true
	}
	for k := 0; k < len(w); k++ { // a multi-word context word across the join
		if w[k] == ' ' && bytes.HasSuffix(before, []byte(w[:k])) && bytes.HasPrefix(after, []byte(w[k+1:])) {
			return true
		}
	}
	return false
}

func (r *Redactor) threshold(typ string) float64 {
	if t, ok := r.cfg.Thresholds[typ]; ok {
		return t
	}
	return r.cfg.Threshold
}

// appendLookalikes appends every run of two or more '@': each becomes a LITERAL, so that
// nothing the user typed can be read back as one of our placeholders.
func appendLookalikes(out []Span, text string) []Span {
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], "@@")
		if j < 0 {
			break
		}
		start := i + j
		end := start + 2
		for end < len(text) && text[end] == '@' {
			end++
		}
		// A whole typed placeholder ("@@PERSON-1@@") becomes one LITERAL, so that even a model
		// that drops the LITERAL's own delimiters cannot rebuild it.
		if p := parsePlaceholder(text[end-2:]); p.status == phFull {
			end += p.length - 2
			for end < len(text) && text[end] == '@' {
				end++
			}
		}
		out = append(out, Span{Start: start, End: end, Type: TypeLiteral, Text: text[start:end], Score: 1, Source: "lookalike"})
		i = end
	}
	return out
}

// Detect returns what Redact would replace in text, without a vault: thresholds, allow list and
// merging applied. It is for evaluation and the operator's command; the spans hold the values.
func (r *Redactor) Detect(ctx context.Context, text string) ([]Span, error) {
	t := r.getText(text)
	defer r.putText(t)
	d, err := r.detect(ctx, t.view.text, t)
	if err != nil {
		return nil, err
	}
	spans := r.filter(d.spans, t.p.lower)
	spans = t.view.toOriginal(text, spans)
	// What the request path's join pass adds for this text alone: values wrapped at a line
	// break (Session.RedactTexts does it for every text of a request).
	cuts, err := r.cutSpans(ctx, []TextRef{{S: &text}})
	if err != nil {
		return nil, err
	}
	spans = append(spans, cuts[0]...)
	return slices.Clone(merge(text, spans)), nil
}
