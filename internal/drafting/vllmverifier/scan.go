package vllmverifier

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// errNotJSON is splitPromptLogprobs' answer to anything encoding/json would refuse (and to a
// repeated prompt_logprobs or choices key, which it would resolve silently).
var errNotJSON = errors.New("not JSON")

// splitPromptLogprobs finds choices[0].prompt_logprobs in a completion answer and returns the
// answer with that value replaced by null, plus each position's raw element. encoding/json scans,
// validates and copies the whole list, which cost the gateway ~1.3 ms per 1k context tokens per
// round (BenchmarkParseVLLMCompletion); this scanner checks the same grammar in one pass without
// copying, and the small remainder is decoded normally.
func splitPromptLogprobs(body []byte) (rest []byte, positions [][]byte, err error) {
	s := &jsonScan{b: body}
	from, to := -1, -1
	seenChoices := false
	err = s.object(func(key []byte) error {
		if !jsonKeyIs(key, "choices") {
			return s.value()
		}
		if seenChoices {
			return errNotJSON
		}
		seenChoices = true
		return s.array(func(k int) error {
			if k != 0 {
				return s.value()
			}
			seen := false
			return s.object(func(key []byte) error {
				if !jsonKeyIs(key, "prompt_logprobs") {
					return s.value()
				}
				if seen {
					return errNotJSON
				}
				seen = true
				s.ws()
				from = s.i
				defer func() { to = s.i }()
				if s.peek() != '[' {
					return s.value()
				}
				positions = [][]byte{}
				return s.array(func(int) error {
					s.ws()
					at := s.i
					if err := s.value(); err != nil {
						return err
					}
					positions = append(positions, s.b[at:s.i])
					return nil
				}, false)
			}, true)
		}, true)
	}, false)
	if s.ws(); err != nil || s.i != len(body) {
		return nil, nil, errNotJSON
	}
	if from < 0 {
		return body, nil, nil
	}
	return slices.Concat(body[:from], []byte("null"), body[to:]), positions, nil
}

// jsonKeyIs matches a raw object key to a field name the way encoding/json does (escapes
// decoded, case folded), so the scanner and the decoder of the remainder agree on which member
// is prompt_logprobs.
func jsonKeyIs(raw []byte, name string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return bytes.EqualFold(raw, []byte(name))
	}
	var k string
	if json.Unmarshal(slices.Concat([]byte{'"'}, raw, []byte{'"'}), &k) != nil {
		return false
	}
	return strings.EqualFold(k, name)
}

// jsonScan walks JSON without building values, checking RFC 8259's grammar as encoding/json does
// (strings are not checked for valid UTF-8, as encoding/json does not refuse them either).
type jsonScan struct {
	b     []byte
	i     int
	depth int
}

func (s *jsonScan) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *jsonScan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *jsonScan) eat(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// value skips one value.
func (s *jsonScan) value() error {
	switch c := s.peek(); {
	case c == '"':
		_, err := s.str()
		return err
	case c == '{':
		return s.object(nil, false)
	case c == '[':
		return s.array(nil, false)
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return errNotJSON
}

func (s *jsonScan) lit(l string) error {
	if !bytes.HasPrefix(s.b[s.i:], []byte(l)) {
		return errNotJSON
	}
	s.i += len(l)
	return nil
}

// str skips a string (s.i at its opening quote) and returns its contents as written.
func (s *jsonScan) str() ([]byte, error) {
	s.i++
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], nil
		case c == '\\':
			if s.i+1 >= len(s.b) {
				return nil, errNotJSON
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) {
					return nil, errNotJSON
				}
				for _, h := range s.b[s.i+2 : s.i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return nil, errNotJSON
					}
				}
				s.i += 6
			default:
				return nil, errNotJSON
			}
		case c < 0x20:
			return nil, errNotJSON
		default:
			s.i++
		}
	}
	return nil, errNotJSON
}

func (s *jsonScan) number() error {
	b, i := s.b, s.i
	digits := func() bool {
		n := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i > n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return errNotJSON
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return errNotJSON
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return errNotJSON
		}
	}
	s.i = i
	return nil
}

// object walks an object; member (nil: skip) must consume each member's value. A non-object is
// skipped as a value when lenient, an error otherwise.
func (s *jsonScan) object(member func(key []byte) error, lenient bool) error {
	if s.peek() != '{' {
		if lenient {
			return s.value()
		}
		return errNotJSON
	}
	if s.depth++; s.depth > 10000 {
		return errNotJSON
	}
	defer func() { s.depth-- }()
	s.i++
	if s.eat('}') {
		return nil
	}
	for {
		if s.peek() != '"' {
			return errNotJSON
		}
		key, err := s.str()
		if err != nil || !s.eat(':') {
			return errNotJSON
		}
		if member != nil {
			err = member(key)
		} else {
			err = s.value()
		}
		switch {
		case err != nil:
			return err
		case s.eat(','):
		case s.eat('}'):
			return nil
		default:
			return errNotJSON
		}
	}
}

// array walks an array like object.
func (s *jsonScan) array(elem func(k int) error, lenient bool) error {
	if s.peek() != '[' {
		if lenient {
			return s.value()
		}
		return errNotJSON
	}
	if s.depth++; s.depth > 10000 {
		return errNotJSON
	}
	defer func() { s.depth-- }()
	s.i++
	if s.eat(']') {
		return nil
	}
	for k := 0; ; k++ {
		var err error
		if elem != nil {
			err = elem(k)
		} else {
			err = s.value()
		}
		switch {
		case err != nil:
			return err
		case s.eat(','):
		case s.eat(']'):
			return nil
		default:
			return errNotJSON
		}
	}
}
