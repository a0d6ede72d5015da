// Package jsonlit reads and writes JSON string literals without encoding/json's reflection and
// buffering: the request reader and the exit scan each see every string of every request, and
// most strings have no escape at all.
//
// It must stay a leaf: no imports beyond the standard library.
package jsonlit

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// End returns the index just after the string literal that starts with the quote at s[start],
// and whether the literal holds an escape; end is -1 when the literal is not closed or holds a
// raw control character (invalid JSON).
func End(s string, start int) (end int, escaped bool) {
	for k := start + 1; k < len(s); k++ {
		switch c := s[k]; {
		case c == '\\':
			escaped = true
			k++
		case c == '"':
			return k + 1, escaped
		case c < 0x20:
			return -1, escaped
		}
	}
	return -1, escaped
}

// Unquote decodes the literal lit (quotes included). Invalid UTF-8 and lone surrogates become
// U+FFFD, as encoding/json does; ok is false for a malformed escape.
func Unquote(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	simple := true
	for i := 0; i < len(body); i++ {
		if c := body[i]; c == '\\' || c >= utf8.RuneSelf {
			simple = false
			break
		}
	}
	if simple {
		return body, true
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return "", false
			}
			switch e := body[i+1]; e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := hex4(body, i+2)
				if !ok {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2, ok := hex4(body, i+2); ok && i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b.WriteRune(dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				b.WriteRune(r)
				continue
			default:
				return "", false
			}
			i += 2
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(body[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString("\uFFFD")
			} else {
				b.WriteString(body[i : i+size])
			}
			i += size
		}
	}
	return b.String(), true
}

func hex4(s string, at int) (rune, bool) {
	if at+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[at : at+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
