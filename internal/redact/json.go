package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
)

// RedactJSON redacts a JSON document (tool-call arguments, a tool message's content) string by
// string. Each string literal is decoded before detection, so a name an application wrote as
// "Jos\u00e9 P\u00e9rez" is seen as "José Pérez", and re-encoded afterwards; everything else
// is copied as it is. Text that is not valid JSON is redacted as plain text.
func (s *Session) RedactJSON(ctx context.Context, doc string) (string, error) {
	if !json.Valid([]byte(doc)) {
		return s.Redact(ctx, doc)
	}
	var b strings.Builder
	b.Grow(len(doc))
	for i := 0; i < len(doc); {
		j := strings.IndexAny(doc[i:], "\"-0123456789")
		if j < 0 {
			b.WriteString(doc[i:])
			break
		}
		b.WriteString(doc[i : i+j])
		start := i + j
		if doc[start] != '"' {
			// A number: one long enough to be a phone or card number is read as text, and
			// replaced by its placeholder as a string when it is one.
			end := start + 1
			for end < len(doc) && strings.IndexByte("0123456789.eE+-", doc[end]) >= 0 {
				end++
			}
			lit := doc[start:end]
			red := lit
			if len(lit) >= 7 {
				var err error
				if red, err = s.Redact(ctx, lit); err != nil {
					return "", err
				}
			}
			if red == lit {
				b.WriteString(lit)
			} else {
				b.WriteString(quoteJSON(red))
			}
			i = end
			continue
		}
		end := stringEnd(doc, start)
		lit := doc[start:end]
		var val string
		if err := json.Unmarshal([]byte(lit), &val); err != nil {
			return s.Redact(ctx, doc) // cannot happen for valid JSON; stay safe anyway
		}
		red, err := s.Redact(ctx, val)
		if err != nil {
			return "", err
		}
		if red == val && !strings.Contains(lit, `\u`) {
			b.WriteString(lit) // unchanged: keep the original escapes
		} else {
			b.WriteString(quoteJSON(red))
		}
		i = end
	}
	return b.String(), nil
}

// stringEnd returns the index just after the JSON string literal that starts at doc[start].
func stringEnd(doc string, start int) int {
	for k := start + 1; k < len(doc); k++ {
		switch doc[k] {
		case '\\':
			k++
		case '"':
			return k + 1
		}
	}
	return len(doc)
}

func quoteJSON(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(buf.String(), "\n")
}
