package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/sucursal/sucursal/internal/jsonlit"
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
	raw   bool // only in the ablate_allowlist build: forwarded without redaction
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
// is bounded by MaxJSONDepth. Strings are decoded as encoding/json does (invalid UTF-8 becomes
// U+FFFD); the HTTP layer refuses invalid UTF-8 before this. FuzzParseJSON checks it accepts
// exactly what encoding/json accepts (duplicates and depth aside) and reads the same values.
func ParseJSON(b []byte) (JSON, error) {
	// The tree's strings point into b instead of a copy of it (a 4 MiB body would cost 4 MiB
	// more): b must not change while the tree is in use. DecodeRequest's callers own their body
	// and never write to it after reading.
	p := parser{s: unsafe.String(unsafe.SliceData(b), len(b))}
	v, err := p.value(0, "")
	if err != nil {
		return JSON{}, err
	}
	p.space()
	if p.i != len(p.s) {
		return JSON{}, &jsonError{offset: int64(p.i), err: errors.New("data after the JSON document")}
	}
	return v, nil
}

type parser struct {
	s string
	i int
}

var errSyntax = errors.New("syntax error")

func (p *parser) fail(err error) error { return &jsonError{offset: int64(p.i), err: err} }

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int, path string) (JSON, error) {
	p.space()
	if p.i >= len(p.s) {
		return JSON{}, p.fail(io.ErrUnexpectedEOF)
	}
	switch c := p.s[p.i]; {
	case c == '"':
		str, err := p.str()
		return JSON{Kind: KindString, Str: str}, err
	case c == '{' || c == '[':
		if depth >= MaxJSONDepth {
			return JSON{}, &jsonError{offset: int64(p.i), err: errTooDeep, path: path}
		}
		p.i++
		if c == '[' {
			return p.array(depth, path)
		}
		return p.object(depth, path)
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []struct {
		word string
		v    JSON
	}{{"true", JSON{Kind: KindBool, Bool: true}}, {"false", JSON{Kind: KindBool}}, {"null", JSON{Kind: KindNull}}} {
		if strings.HasPrefix(p.s[p.i:], lit.word) {
			p.i += len(lit.word)
			return lit.v, nil
		}
	}
	for _, word := range []string{"true", "false", "null"} {
		if strings.HasPrefix(word, p.s[p.i:]) {
			return JSON{}, p.fail(io.ErrUnexpectedEOF) // the input ends inside the word
		}
	}
	return JSON{}, p.fail(errSyntax)
}

func (p *parser) str() (string, error) {
	end, _ := jsonlit.End(p.s, p.i)
	if end < 0 {
		if k := strings.IndexByte(p.s[p.i+1:], '"'); k < 0 && !strings.ContainsFunc(p.s[p.i+1:], func(r rune) bool { return r < 0x20 }) {
			return "", p.fail(io.ErrUnexpectedEOF)
		}
		return "", p.fail(errSyntax)
	}
	v, ok := jsonlit.Unquote(p.s[p.i:end])
	if !ok {
		return "", p.fail(errSyntax)
	}
	p.i = end
	return v, nil
}

func (p *parser) number() (JSON, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case digits() == 0:
		return JSON{}, p.numberError()
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return JSON{}, p.numberError()
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return JSON{}, p.numberError()
		}
	}
	return JSON{Kind: KindNumber, Str: p.s[start:p.i]}, nil
}

func (p *parser) numberError() error {
	if p.i >= len(p.s) {
		return p.fail(io.ErrUnexpectedEOF)
	}
	return p.fail(errSyntax)
}

func (p *parser) array(depth int, path string) (JSON, error) {
	v := JSON{Kind: KindArray, Arr: []JSON{}}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return v, nil
	}
	for {
		e, err := p.value(depth+1, path+"["+strconv.Itoa(len(v.Arr))+"]")
		if err != nil {
			return JSON{}, err
		}
		v.Arr = append(v.Arr, e)
		p.space()
		if p.i >= len(p.s) {
			return JSON{}, p.fail(io.ErrUnexpectedEOF)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return v, nil
		default:
			return JSON{}, p.fail(errSyntax)
		}
	}
}

func (p *parser) object(depth int, path string) (JSON, error) {
	v := JSON{Kind: KindObject, Obj: []Member{}}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return v, nil
	}
	var seen map[string]struct{}
	for {
		p.space()
		if p.i >= len(p.s) {
			return JSON{}, p.fail(io.ErrUnexpectedEOF)
		}
		if p.s[p.i] != '"' {
			return JSON{}, p.fail(errSyntax)
		}
		keyAt := p.i
		k, err := p.str()
		if err != nil {
			return JSON{}, err
		}
		if dup := p.seen(&seen, v.Obj, k); dup {
			return JSON{}, &jsonError{offset: int64(keyAt), err: errDuplicateKey, key: k, path: path}
		}
		p.space()
		if p.i >= len(p.s) {
			return JSON{}, p.fail(io.ErrUnexpectedEOF)
		}
		if p.s[p.i] != ':' {
			return JSON{}, p.fail(errSyntax)
		}
		p.i++
		e, err := p.value(depth+1, joinPath(path, k))
		if err != nil {
			return JSON{}, err
		}
		v.Obj = append(v.Obj, Member{Key: k, Value: e})
		p.space()
		if p.i >= len(p.s) {
			return JSON{}, p.fail(io.ErrUnexpectedEOF)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return v, nil
		default:
			return JSON{}, p.fail(errSyntax)
		}
	}
}

// seen reports whether k is already a key of obj (a linear scan for small objects, a set
// beyond eight keys).
func (p *parser) seen(set *map[string]struct{}, obj []Member, k string) bool {
	if len(obj) < 8 {
		for _, m := range obj {
			if m.Key == k {
				return true
			}
		}
		return false
	}
	if *set == nil {
		*set = make(map[string]struct{}, 16)
		for _, m := range obj {
			(*set)[m.Key] = struct{}{}
		}
	}
	if _, dup := (*set)[k]; dup {
		return true
	}
	(*set)[k] = struct{}{}
	return false
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
