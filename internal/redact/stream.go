package redact

import (
	"encoding/json"
	"strings"
)

// Stream rehydrates one streamed choice. Write forwards at once everything except a suffix that
// could still become a known placeholder; Flush applies the end-of-stream policy to that
// suffix. Rehydrate is Write of the whole text followed by Flush, so a streamed answer and the
// same answer in one piece always come out identical.
type Stream struct {
	s       *Session
	pending string // held: a proper prefix of a known placeholder
	carry   string // raw suffix kept only to count invented placeholders split across chunks
	json    bool   // values are inserted JSON-string-escaped (tool-call arguments)
}

// NewStream starts the rehydration of one choice (one per choice index).
func (s *Session) NewStream() *Stream { return &Stream{s: s} }

// NewJSONStream is NewStream for text that is the inside of a JSON document, such as streamed
// tool-call arguments: values are escaped so that the document stays valid.
func (s *Session) NewJSONStream() *Stream { return &Stream{s: s, json: true} }

// Rehydrate puts the values back into a whole (non-streamed) answer.
func (s *Session) Rehydrate(text string) string {
	st := s.NewStream()
	return st.Write(text) + st.Flush()
}

// RehydrateJSON is Rehydrate for JSON text such as tool-call arguments.
func (s *Session) RehydrateJSON(text string) string {
	st := s.NewJSONStream()
	return st.Write(text) + st.Flush()
}

// Write takes the next delta and returns what can be forwarded now.
func (st *Stream) Write(delta string) string {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rehydrated = true
	if st.pending == "" && st.carry == "" && strings.IndexByte(delta, '@') < 0 {
		return delta // the common chunk: nothing to look at
	}
	st.countInvented(delta, false)
	buf := st.pending + delta
	st.pending = ""
	if s.closed {
		return buf
	}
	var b strings.Builder
	b.Grow(len(buf))
	for i := 0; i < len(buf); {
		j := strings.IndexByte(buf[i:], '@')
		if j < 0 {
			b.WriteString(buf[i:])
			break
		}
		b.WriteString(buf[i : i+j])
		i += j
		p := parsePlaceholder(buf[i:])
		switch p.status {
		case phFull:
			if k, ok := s.v.byKey[p.key]; ok {
				st.emit(&b, k)
				i += p.length
				continue
			}
		case phPartial:
			if s.v.couldBecome(p) {
				st.pending = buf[i:]
				return b.String()
			}
		}
		b.WriteByte('@')
		i++
	}
	return b.String()
}

// Flush ends the stream and returns what was held, per the end_of_stream policy.
func (st *Stream) Flush() string {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st.countInvented("", true)
	held := st.pending
	st.pending = ""
	if held == "" || s.closed {
		return held
	}
	switch s.r.cfg.EndOfStream {
	case EndDrop:
		return ""
	case EndRehydrate:
		p := parsePlaceholder(held)
		if k := s.v.unique(p); k >= 0 {
			var b strings.Builder
			st.emit(&b, k)
			return b.String()
		}
	}
	return held
}

func (st *Stream) emit(b *strings.Builder, k int) {
	e := &st.s.v.entries[k]
	e.seen = true
	if st.json {
		q, _ := json.Marshal(string(e.value))
		b.Write(q[1 : len(q)-1])
		return
	}
	b.Write(e.value)
}

// countInvented looks for complete placeholder shapes that name no vault entry. It keeps its
// own raw carry so that a shape split across chunks is still counted once.
func (st *Stream) countInvented(delta string, final bool) {
	buf := st.carry + delta
	st.carry = ""
	for i := 0; i < len(buf); {
		j := strings.Index(buf[i:], "@@")
		if j < 0 {
			if !final && strings.HasSuffix(buf, "@") {
				st.carry = "@"
			}
			return
		}
		i += j
		p := parsePlaceholder(buf[i:])
		switch p.status {
		case phFull:
			if _, ok := st.s.v.byKey[p.key]; !ok && !st.s.closed {
				t := string(p.key.typ[:p.typeLen])
				if !knownTypes[t] {
					t = "OTHER"
				}
				if st.s.invented == nil {
					st.s.invented = map[string]int{}
				}
				st.s.invented[t]++
			}
			i += p.length
			continue
		case phPartial:
			if !final {
				st.carry = buf[i:]
			}
			return
		}
		i++
	}
}
