package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Session is one request's vault. Use one Session for every message of a request (system,
// user, assistant history, tool-call arguments) so that a value gets one placeholder across
// all of them, and Close it when the request ends.
type Session struct {
	r *Redactor

	mu          sync.Mutex
	v           *vault
	timer       *time.Timer
	closed      bool
	degraded    bool
	rehydrated  bool
	redacted    map[string]int // occurrences replaced, by type
	maxEntities int            // SetLimits; 0: none
	maxBytes    int
	invented    map[string]int // by known type or OTHER
	nerRejected int
}

// Stats describes a session without any value in it.
type Stats struct {
	Redacted    map[string]int // occurrences replaced, by entity type
	Entities    map[string]int // distinct values in the vault, by entity type
	Degraded    bool           // the NER backend failed and detection fell back to the gazetteer
	Dropped     int            // placeholders sent to the model that never came back
	Invented    int            // placeholder-shaped text in answers that names no vault entry
	DroppedBy   map[string]int // by entity type
	InventedBy  map[string]int // by entity type, OTHER for types we never issue
	NERRejected int            // NER spans that were not exact substrings
}

// NewSession starts a vault that wipes itself after ttl (0: the configured session_ttl) even
// if Close is never called.
func (r *Redactor) NewSession(ttl time.Duration) *Session {
	if ttl <= 0 {
		ttl = r.cfg.SessionTTL
	}
	v, _ := r.vaults.Get().(*vault)
	if v == nil {
		v = newVault()
	}
	s := &Session{r: r, v: v, redacted: map[string]int{}} // invented: made by the first one (stream.go)
	s.timer = time.AfterFunc(ttl, s.expire)
	return s
}

func (s *Session) expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

// Close wipes the vault (overwriting the values it holds) and records placeholder drift. It is
// safe to call more than once.
func (s *Session) Close() {
	s.timer.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

func (s *Session) closeLocked() {
	if s.closed {
		return
	}
	if s.rehydrated { // what statsLocked counts as dropped
		for _, e := range s.v.entries {
			if e.sent && !e.seen {
				s.r.m.drift.WithLabelValues(e.typ, "dropped").Inc()
			}
		}
	}
	for t, n := range s.invented {
		s.r.m.drift.WithLabelValues(t, "invented").Add(float64(n))
	}
	s.closed = true
	// The wiped vault is recycled for a later session; this one keeps an empty vault, which
	// is all a closed session may still read (streams hold the session, never the vault).
	v := s.v
	s.v = &vault{}
	v.wipe()
	// An oversized vault is dropped, not pooled: one request full of values must not keep its
	// memory live for the requests after it.
	if cap(v.arena) <= maxPooledVaultBytes && cap(v.entries) <= maxPooledVaultEntries {
		s.r.vaults.Put(v)
	}
}

// Pool bounds: vaults bigger than this are left to the garbage collector.
const (
	maxPooledVaultBytes   = 64 << 10
	maxPooledVaultEntries = 1024
)

// ErrTooManyEntities means a request holds more distinct values, or more bytes of them, than
// its session allows (SetLimits): it is refused rather than held in memory.
var ErrTooManyEntities = errors.New("redact: too many personal values in one request")

// SetLimits bounds what this session's vault may hold: distinct values and their bytes (0: no
// bound). A Redact that would pass a bound fails with ErrTooManyEntities.
func (s *Session) SetLimits(maxEntities, maxBytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maxEntities, s.maxBytes = maxEntities, maxBytes
}

// Redact returns text with every detected value replaced by its placeholder. On any error the
// text must not be sent anywhere: the error says why (ErrMatchTimeout, ErrNERUnavailable,
// ErrSessionClosed or the context's error) and never contains the text.
func (s *Session) Redact(ctx context.Context, text string) (string, error) {
	return s.redact(ctx, text, nil)
}

// redact is Redact with extra spans (original offsets) found outside this text's own scan:
// the parts of a value split across texts or line breaks (see joins.go).
func (s *Session) redact(ctx context.Context, text string, extra []Span) (string, error) {
	start := time.Now()
	t := s.r.getText(text)
	defer s.r.putText(t)
	s.mu.Lock()
	if s.maxEntities > 0 {
		// Candidates come from several recognizers and repeat values: allow a few per value.
		t.limit = 4 * s.maxEntities
	}
	s.mu.Unlock()
	d, err := s.r.detect(ctx, t.view.text, t)
	if err != nil {
		return "", err
	}
	spans := s.r.filter(d.spans, t.p.lower)
	spans = t.view.toOriginal(text, spans)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", ErrSessionClosed
	}
	s.degraded = s.degraded || d.degraded
	s.nerRejected += d.nerRejected
	spans = s.sweep(text, spans)
	spans = append(spans, extra...)
	spans = merge(text, spans)
	t.spans = spans // the grown buffer goes back to the pool
	size := 0
	for _, sp := range spans {
		size += sp.End - sp.Start
	}
	if s.maxEntities > 0 && len(s.v.entries)+len(spans) > s.maxEntities && s.newValues(text, spans) > s.maxEntities ||
		s.maxBytes > 0 && len(s.v.arena)+size > s.maxBytes {
		return "", fmt.Errorf("%w (more than %d values or %d bytes)", ErrTooManyEntities, s.maxEntities, s.maxBytes)
	}
	s.v.reserve(len(spans), size)
	var b strings.Builder
	b.Grow(len(text) + len(text)/4) // placeholders are a little longer than most values
	at := 0
	for _, sp := range spans {
		b.WriteString(text[at:sp.Start])
		s.v.writePlaceholder(&b, text[sp.Start:sp.End], sp.Type)
		s.redacted[sp.Type]++
		at = sp.End
	}
	b.WriteString(text[at:])
	s.r.m.countRedactions(spans)
	s.r.m.seconds.Observe(time.Since(start).Seconds())
	return b.String(), nil
}

// newValues counts the distinct values the vault would hold after spans are added.
func (s *Session) newValues(text string, spans []Span) int {
	n := len(s.v.entries)
	seen := map[string]bool{}
	for _, sp := range spans {
		v := text[sp.Start:sp.End]
		if !seen[v] && s.v.lookup(v) < 0 {
			seen[v] = true
			n++
		}
	}
	return n
}

// sweep adds every occurrence of a value the vault already holds: a name detected in one
// message (thanks to "Sr.") is redacted in the next one too, where nothing announces it.
func (s *Session) sweep(text string, spans []Span) []Span {
	for i := range s.v.entries {
		e := &s.v.entries[i]
		if len(e.value) < 3 {
			continue
		}
		// A view of the arena, not a copy: it is only searched for (string(e.value) copied
		// every value on every text, ~8 KB a request of eight messages, and the copies were
		// never wiped as the arena is), and a span's Text is the equal slice of text.
		val := unsafe.String(unsafe.SliceData(e.value), len(e.value))
		for off := 0; off < len(text); {
			j := strings.Index(text[off:], val)
			if j < 0 {
				break
			}
			st, en := off+j, off+j+len(val)
			if boundary(text, st, en) {
				spans = append(spans, Span{Start: st, End: en, Type: e.typ, Text: text[st:en], Score: 1, Source: "vault"})
			}
			off = en
		}
	}
	return spans
}

// boundary reports whether text[st:en] is not glued to letters or digits on either side.
func boundary(text string, st, en int) bool {
	return (st == 0 || !isWordByte(text[st-1])) && (en == len(text) || !isWordByte(text[en]))
}

func isWordByte(c byte) bool { return byteClass[c]&byteWord != 0 }

// keep drops allow-listed and below-threshold candidates and merges the rest (filter, then
// merge); lower is appendLowerSameLength(text).
func (r *Redactor) keep(text string, spans []Span, lower []byte) []Span {
	return merge(text, r.filter(spans, lower))
}

// filter drops allow-listed and below-threshold candidates, in place. Values the vault already
// holds, deny-list entries and placeholder look-alikes are always kept.
func (r *Redactor) filter(spans []Span, lower []byte) []Span {
	var allowed [][2]int
	for _, a := range r.allow {
		for off := 0; off < len(lower); {
			j := bytes.Index(lower[off:], a)
			if j < 0 {
				break
			}
			allowed = append(allowed, [2]int{off + j, off + j + len(a)})
			off += j + len(a)
		}
	}
	kept := spans[:0]
	for _, sp := range spans {
		if sp.Source != "lookalike" && sp.Source != "vault" && sp.Source != "deny" {
			if sp.Score < r.threshold(sp.Type) {
				continue
			}
			if slices.ContainsFunc(allowed, func(a [2]int) bool { return a[0] <= sp.Start && sp.End <= a[1] }) {
				continue
			}
		}
		kept = append(kept, sp)
	}
	return kept
}

// merge sorts spans and merges overlapping ones into one span (their union) with the type of the
// best-ranked one, so that no part of an overlapping value is left behind. It works in place.
func merge(text string, spans []Span) []Span {
	sortSpans(spans)
	out := spans[:0] // never overtakes the span being read
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.Start < out[n-1].End {
			last := &out[n-1]
			if sp.End > last.End {
				last.End = sp.End
			}
			if rank(sp) > rank(*last) {
				last.Type, last.Score, last.Source = sp.Type, sp.Score, sp.Source
			}
			last.Text = text[last.Start:last.End]
			continue
		}
		out = append(out, sp)
	}
	return out
}

// spanOrder is merge's order: by start, the longer first. slices.SortFunc is not stable: spans
// with the same start and end keep the order its pdqsort leaves them in.
func spanOrder(a, b Span) int {
	if a.Start != b.Start {
		return a.Start - b.Start
	}
	return b.End - a.End
}

// sortSpans is slices.SortFunc(spans, spanOrder), the same permutation: the same pdqsort runs
// on the spans' indexes (4 bytes a move and no 88-byte copies per comparison, instead of moving
// the spans themselves), and the permutation is then applied once, cycle by cycle. pdqsort's
// choices depend only on the comparisons' results and the length, so equal spans end in the
// same order as before.
func sortSpans(spans []Span) {
	var buf [512]int32
	if len(spans) > len(buf) {
		slices.SortFunc(spans, spanOrder)
		return
	}
	idx := buf[:len(spans)]
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		sa, sb := &spans[a], &spans[b]
		if sa.Start != sb.Start {
			return sa.Start - sb.Start
		}
		return sb.End - sa.End
	})
	// spans[j] becomes the old spans[idx[j]]; a placed j is marked with idx[j] = j
	for i := range idx {
		if int(idx[i]) == i {
			continue
		}
		tmp := spans[i]
		j := i
		for {
			k := int(idx[j])
			idx[j] = int32(j)
			if k == i {
				spans[j] = tmp
				break
			}
			spans[j] = spans[k]
			j = k
		}
	}
}

// rank orders candidates for the type of a merged span: a LITERAL always wins (it must come
// back verbatim), then a value the vault already knows, then the score.
func rank(sp Span) float64 {
	switch sp.Source {
	case "lookalike":
		return 3
	case "vault":
		return 2
	}
	return sp.Score
}

// Stats reports counts only.
func (s *Session) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statsLocked()
}

func (s *Session) statsLocked() Stats {
	st := Stats{Redacted: map[string]int{}, Entities: map[string]int{}, DroppedBy: map[string]int{},
		InventedBy: map[string]int{}, Degraded: s.degraded, NERRejected: s.nerRejected}
	for t, n := range s.redacted {
		st.Redacted[t] = n
	}
	for _, e := range s.v.entries {
		st.Entities[e.typ]++
		if s.rehydrated && e.sent && !e.seen {
			st.Dropped++
			st.DroppedBy[e.typ]++
		}
	}
	for t, n := range s.invented {
		st.Invented += n
		st.InventedBy[t] = n
	}
	return st
}

// PlaceholderOf returns the placeholder this session gave value, if it gave one.
func (s *Session) PlaceholderOf(value string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", false
	}
	if i := s.v.lookup(value); i >= 0 {
		e := &s.v.entries[i]
		return placeholder(e.typ, e.n), true
	}
	return "", false
}
