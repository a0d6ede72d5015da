package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// Kind is the kind of a JSON value.
type Kind uint8

const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// JSON is a parsed JSON value that keeps the order of object members. It holds the free-form
// parts of a request (tool parameter schemas, metadata, response formats, operator-allowed
// fields): the agent does not know their shape, so it keeps them as a tree whose every string,
// key and number the redaction stage visits, and encodes the tree again — the bytes the client
// sent are never forwarded.
type JSON struct {
	Kind Kind
	Bool bool
	// Str is a string's value or a number's literal (as sent, validated).
	Str string
	Arr []JSON
	Obj []Member
}

// Member is one member of an object.
type Member struct {
	Key   string
	Value JSON
}

// MaxJSONDepth bounds nesting in a request: deeper documents are refused before they cost
// anything (encoding/json alone accepts 10 000 levels).
const MaxJSONDepth = 64

// errDuplicateKey and errTooDeep are what ParseJSON refuses besides syntax errors.
var (
	errDuplicateKey = errors.New("duplicate key")
	errTooDeep      = errors.New("nested too deep")
)

// jsonError says where parsing failed, never what was there.
type jsonError struct {
	offset int64
	err    error
	key    string // the duplicated key, for errDuplicateKey
	path   string
}

func (e *jsonError) Error() string { return fmt.Sprintf("%v at byte %d", e.err, e.offset) }
func (e *jsonError) Unwrap() error { return e.err }

// ParseJSON parses one JSON document strictly: nothing may follow it, an object may not repeat
// a key (two readers of the same body could otherwise see two different requests), and nesting
// is bounded by MaxJSONDepth. The input must be valid UTF-8 (the HTTP layer checks it).
func ParseJSON(b []byte) (JSON, error) {
	p := parser{dec: json.NewDecoder(bytes.NewReader(b))}
	p.dec.UseNumber()
	v, err := p.value(0, "")
	if err != nil {
		return JSON{}, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return JSON{}, &jsonError{offset: p.dec.InputOffset(), err: errors.New("data after the JSON document")}
	}
	return v, nil
}

type parser struct{ dec *json.Decoder }

func (p *parser) value(depth int, path string) (JSON, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return JSON{}, p.wrap(err)
	}
	return p.fromToken(tok, depth, path)
}

func (p *parser) wrap(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &jsonError{offset: se.Offset, err: errors.New("syntax error")}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &jsonError{offset: p.dec.InputOffset(), err: io.ErrUnexpectedEOF}
	}
	return &jsonError{offset: p.dec.InputOffset(), err: errors.New("malformed document")}
}

func (p *parser) fromToken(tok json.Token, depth int, path string) (JSON, error) {
	switch t := tok.(type) {
	case nil:
		return JSON{Kind: KindNull}, nil
	case bool:
		return JSON{Kind: KindBool, Bool: t}, nil
	case json.Number:
		return JSON{Kind: KindNumber, Str: string(t)}, nil
	case string:
		return JSON{Kind: KindString, Str: t}, nil
	case json.Delim:
		if depth >= MaxJSONDepth {
			return JSON{}, &jsonError{offset: p.dec.InputOffset(), err: errTooDeep, path: path}
		}
		if t == '[' {
			v := JSON{Kind: KindArray, Arr: []JSON{}}
			for i := 0; p.dec.More(); i++ {
				e, err := p.value(depth+1, path+"["+strconv.Itoa(i)+"]")
				if err != nil {
					return JSON{}, err
				}
				v.Arr = append(v.Arr, e)
			}
			if _, err := p.dec.Token(); err != nil {
				return JSON{}, p.wrap(err)
			}
			return v, nil
		}
		v := JSON{Kind: KindObject, Obj: []Member{}}
		var seen map[string]struct{}
		for p.dec.More() {
			kt, err := p.dec.Token()
			if err != nil {
				return JSON{}, p.wrap(err)
			}
			k, _ := kt.(string)
			if len(v.Obj) < 8 {
				for _, m := range v.Obj {
					if m.Key == k {
						return JSON{}, &jsonError{offset: p.dec.InputOffset(), err: errDuplicateKey, key: k, path: path}
					}
				}
			} else {
				if seen == nil {
					seen = make(map[string]struct{}, 16)
					for _, m := range v.Obj {
						seen[m.Key] = struct{}{}
					}
				}
				if _, dup := seen[k]; dup {
					return JSON{}, &jsonError{offset: p.dec.InputOffset(), err: errDuplicateKey, key: k, path: path}
				}
				seen[k] = struct{}{}
			}
			e, err := p.value(depth+1, joinPath(path, k))
			if err != nil {
				return JSON{}, err
			}
			v.Obj = append(v.Obj, Member{Key: k, Value: e})
		}
		if _, err := p.dec.Token(); err != nil {
			return JSON{}, p.wrap(err)
		}
		return v, nil
	}
	return JSON{}, &jsonError{offset: p.dec.InputOffset(), err: errors.New("malformed document")}
}

// Get returns the member named key of an object (exact match).
func (v *JSON) Get(key string) (*JSON, bool) {
	for i := range v.Obj {
		if v.Obj[i].Key == key {
			return &v.Obj[i].Value, true
		}
	}
	return nil, false
}

// MarshalJSON encodes the tree. Strings are encoded from their values, numbers from their
// validated literals.
func (v JSON) MarshalJSON() ([]byte, error) { return v.appendTo(nil), nil }

func (v *JSON) appendTo(b []byte) []byte {
	switch v.Kind {
	case KindNull:
		return append(b, "null"...)
	case KindBool:
		return strconv.AppendBool(b, v.Bool)
	case KindNumber:
		if !validNumber(v.Str) {
			return appendString(b, v.Str) // a literal a stage rewrote into text
		}
		return append(b, v.Str...)
	case KindString:
		return appendString(b, v.Str)
	case KindArray:
		b = append(b, '[')
		for i := range v.Arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Arr[i].appendTo(b)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i := range v.Obj {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v.Obj[i].Key)
		b = append(b, ':')
		b = v.Obj[i].Value.appendTo(b)
	}
	return append(b, '}')
}

// validNumber reports whether s is a JSON number literal.
func validNumber(s string) bool {
	if s == "" {
		return false
	}
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil && string(n) == s
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as encoding/json does.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' { // valid JSON, but not valid JavaScript
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
