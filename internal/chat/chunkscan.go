package chat

import (
	"encoding/json"
	"strings"
)

// scanner reads a document that json.Valid and utf8.Valid accepted, so it never checks syntax;
// it only has to find where things start and end. Every method returns false for a shape it does
// not handle, and DecodeChunk then takes the generic path.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) peek() byte {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return c
		}
	}
	return 0
}

// open consumes c ('{' or '[') if it comes next.
func (s *scanner) open(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// first reports whether the container just opened has a first member (else consumes its end).
func (s *scanner) first(end byte) bool {
	if s.peek() == end {
		s.i++
		return false
	}
	return true
}

// next consumes the separator after a member and reports whether another follows.
func (s *scanner) next() bool {
	c := s.peek()
	s.i++
	return c == ','
}

// skipString moves past the string starting at s.i and reports whether it had escapes.
func (s *scanner) skipString() (escaped bool) {
	s.i++
	for {
		switch s.b[s.i] {
		case '\\':
			escaped = true
			s.i += 2
		case '"':
			s.i++
			return escaped
		default:
			s.i++
		}
	}
}

// key reads an object key and its colon. Keys with escapes are left to the generic path.
func (s *scanner) key() ([]byte, bool) {
	s.peek()
	start := s.i
	if s.skipString() {
		return nil, false
	}
	k := s.b[start+1 : s.i-1]
	s.peek()
	s.i++ // ':'
	return k, true
}

// skip moves past one value and returns its bytes.
func (s *scanner) skip() []byte {
	s.peek()
	start, depth := s.i, 0
	for {
		switch s.b[s.i] {
		case '"':
			s.skipString()
		case '{', '[':
			depth++
			s.i++
		case '}', ']':
			depth--
			s.i++
		default:
			if depth == 0 { // a number or a literal
				for s.i < len(s.b) && !strings.ContainsRune(" \t\n\r,]}", rune(s.b[s.i])) {
					s.i++
				}
				return s.b[start:s.i]
			}
			s.i++
		}
		if depth == 0 {
			return s.b[start:s.i]
		}
	}
}

func (s *scanner) null() bool {
	if s.peek() != 'n' {
		return false
	}
	s.i += len("null")
	return true
}

// str reads a string; escapes are decoded by encoding/json itself so the result is the same.
func (s *scanner) str(dst *string) bool {
	if s.peek() != '"' {
		return false
	}
	start := s.i
	if !s.skipString() {
		*dst = string(s.b[start+1 : s.i-1])
		return true
	}
	return json.Unmarshal(s.b[start:s.i], dst) == nil
}

// optString reads a string or null (null leaves dst alone, as encoding/json does).
func (s *scanner) optString(dst *string) bool { return s.null() || s.str(dst) }

// optStringPtr reads a string into a new pointer, or null as nil.
func (s *scanner) optStringPtr(dst **string) bool {
	if s.null() {
		*dst = nil
		return true
	}
	var v string
	if !s.str(&v) {
		return false
	}
	*dst = &v
	return true
}

// int reads a plain integer; fractions, exponents and anything near overflow go the generic way
// (which rejects or accepts them as encoding/json does).
func (s *scanner) int(dst *int64) bool {
	if s.null() {
		return true
	}
	lit := s.skip()
	digits := lit
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return false
	}
	var v int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
		v = v*10 + int64(c-'0')
	}
	if lit[0] == '-' {
		v = -v
	}
	*dst = v
	return true
}

// extra keeps an unknown field. A key that encoding/json would match to a known field without
// regard to case, a non-ASCII key (json folds a few of those too) or a repeated key goes the
// generic way.
func (s *scanner) extra(m *Extra, key []byte, known ...string) bool {
	for _, c := range key {
		if c >= 0x80 {
			return false
		}
	}
	for _, k := range known {
		if strings.EqualFold(string(key), k) {
			return false
		}
	}
	if *m == nil {
		*m = Extra{}
	} else if _, dup := (*m)[string(key)]; dup {
		return false
	}
	(*m)[string(key)] = json.RawMessage(s.skip())
	return true
}

// seen marks a known field as read; a repeated one goes the generic way (last one wins there).
func seen(mask *uint8, bit uint8) bool {
	if *mask&bit != 0 {
		return false
	}
	*mask |= bit
	return true
}

// decodeFast reads the chunk in one pass. keepRaw is false for chunks whose changes Raw cannot
// see (tool calls, usage).
func (c *Chunk) decodeFast(data []byte) (keepRaw, ok bool) {
	s := &scanner{b: data}
	if !s.open('{') {
		return false, false
	}
	keepRaw = true
	var mask uint8
	for more := s.first('}'); more; more = s.next() {
		key, ok := s.key()
		if !ok {
			return false, false
		}
		switch string(key) {
		case "id":
			ok = seen(&mask, 1) && s.optString(&c.ID)
		case "object":
			ok = seen(&mask, 2) && s.optString(&c.Object)
		case "created":
			ok = seen(&mask, 4) && s.int(&c.Created)
		case "model":
			ok = seen(&mask, 8) && s.optString(&c.Model)
		case "system_fingerprint":
			ok = seen(&mask, 16) && s.optString(&c.SystemFingerprint)
		case "choices":
			ok = seen(&mask, 32) && c.decodeChoices(s, &keepRaw)
		case "usage":
			keepRaw = false
			ok = seen(&mask, 64) && json.Unmarshal(s.skip(), &c.Usage) == nil
		default:
			ok = s.extra(&c.Extra, key, "id", "object", "created", "model", "system_fingerprint", "choices", "usage")
		}
		if !ok {
			return false, false
		}
	}
	return keepRaw, true
}

func (c *Chunk) decodeChoices(s *scanner, keepRaw *bool) bool {
	if s.null() {
		return true
	}
	if !s.open('[') {
		return false
	}
	c.Choices = make([]ChunkChoice, 0, 1) // [] decodes to an empty, non-nil slice
	for more := s.first(']'); more; more = s.next() {
		c.Choices = append(c.Choices, ChunkChoice{})
		if !c.Choices[len(c.Choices)-1].decodeFast(s, keepRaw) {
			return false
		}
	}
	return true
}

func (ch *ChunkChoice) decodeFast(s *scanner, keepRaw *bool) bool {
	if !s.open('{') {
		return false
	}
	var mask uint8
	for more := s.first('}'); more; more = s.next() {
		key, ok := s.key()
		if !ok {
			return false
		}
		switch string(key) {
		case "index":
			var v int64
			ok = seen(&mask, 1) && s.int(&v)
			ch.Index = int(v)
		case "delta":
			ok = seen(&mask, 2) && ch.Delta.decodeFast(s, keepRaw)
		case "finish_reason":
			ok = seen(&mask, 4) && s.optStringPtr(&ch.FinishReason)
		default:
			ok = s.extra(&ch.Extra, key, "index", "delta", "finish_reason")
		}
		if !ok {
			return false
		}
	}
	return true
}

func (d *Delta) decodeFast(s *scanner, keepRaw *bool) bool {
	if s.null() {
		return true
	}
	if !s.open('{') {
		return false
	}
	var mask uint8
	for more := s.first('}'); more; more = s.next() {
		key, ok := s.key()
		if !ok {
			return false
		}
		switch string(key) {
		case "role":
			ok = seen(&mask, 1) && s.optString(&d.Role)
		case "content":
			ok = seen(&mask, 2) && s.optStringPtr(&d.Content)
		case "tool_calls":
			*keepRaw = false
			ok = seen(&mask, 4) && json.Unmarshal(s.skip(), &d.ToolCalls) == nil
		default:
			ok = s.extra(&d.Extra, key, "role", "content", "tool_calls")
		}
		if !ok {
			return false
		}
	}
	return true
}
