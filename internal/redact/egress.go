package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unsafe"

	"github.com/sucursal/sucursal/internal/jsonlit"
)

// ErrEgressBlocked means the exit scan found personal data in what was about to leave the
// branch. Nothing was sent; it is a bug or a bypass to investigate, never a user error.
var ErrEgressBlocked = errors.New("redact: personal data found at the exit; nothing was sent")

// EgressBlockedError says which entity types the exit scan found, and how many of each —
// never where or what.
type EgressBlockedError struct {
	Types map[string]int
}

func (e *EgressBlockedError) Error() string {
	parts := make([]string, 0, len(e.Types))
	for _, t := range slices.Sorted(maps.Keys(e.Types)) {
		parts = append(parts, fmt.Sprintf("%s×%d", t, e.Types[t]))
	}
	return fmt.Sprintf("%v (%s)", ErrEgressBlocked, strings.Join(parts, ", "))
}

func (e *EgressBlockedError) Unwrap() error { return ErrEgressBlocked }

// ScanEgress is the last check before bytes leave the branch. Every string of doc — a JSON
// document: each key and string value, decoded, and each long number — or doc itself when it
// is not JSON, and every extra text, is read once more by the strict recognizers (checksummed
// identifiers, e-mails, phones, IPs, the operator's patterns and deny list) on its normalised
// view. Anything they find fails the check with an *EgressBlockedError: redaction should have
// replaced it, so it can only be a field or a form the redaction stage missed. Placeholders and
// allow-listed text are not hits.
func (r *Redactor) ScanEgress(ctx context.Context, doc []byte, extra ...string) error {
	s := r.strict
	if s == nil {
		s = r
	}
	found := map[string]int{}
	var err error
	if d := bytes.TrimLeft(doc, " \t\r\n"); len(d) > 0 && (d[0] == '{' || d[0] == '[') {
		// Wire bodies are JSON the agent encoded; a malformed one is still read string by string.
		err = eachJSONText(doc, func(text string) error { return s.scanTypes(ctx, text, found) })
	} else {
		err = s.scanTypes(ctx, string(doc), found)
	}
	for _, text := range extra {
		if err == nil {
			err = s.scanTypes(ctx, text, found)
		}
	}
	if err != nil {
		return err
	}
	if len(found) > 0 {
		return &EgressBlockedError{Types: found}
	}
	return nil
}

// scanTypes counts by type what r redacts in text, read as it is and, when it holds '_', with
// '_' as a space: identifiers (tool names, ids) are never redacted, and "cliente_12345678Z"
// glues a DNI to a word.
func (r *Redactor) scanTypes(ctx context.Context, text string, found map[string]int) error {
	if err := r.scanText(ctx, text, found); err != nil || !strings.Contains(text, "_") {
		return err
	}
	return r.scanText(ctx, strings.ReplaceAll(text, "_", " "), found)
}

func (r *Redactor) scanText(ctx context.Context, text string, found map[string]int) error {
	if len(r.cfg.Custom) == 0 && len(r.cfg.Deny) == 0 && !mayHoldIdentifier(text) {
		return nil
	}
	t := r.getText(text)
	defer r.putText(t)
	d, err := r.detect(ctx, t.view.text, t)
	if err != nil {
		return err
	}
	for _, sp := range r.filter(d.spans, t.p.lower) {
		if sp.Type != TypeLiteral {
			found[sp.Type]++
		}
	}
	return nil
}

// mayHoldIdentifier is false for text no built-in recognizer can match even after
// normalisation: ASCII with no digit, '@', '%' or '&'.
func mayHoldIdentifier(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= '0' && c <= '9' || c == '@' || c == '%' || c == '&' || c >= 0x80 {
			return true
		}
	}
	return false
}

// eachJSONText calls fn with every key and string value of a valid JSON document, decoded, and
// every number literal of seven characters or more (a phone or card number sent as a number) —
// except the request's own top-level "seed": a sampling parameter that client libraries fill with
// a random 63-bit integer, which looks like a card or phone number about one time in ten and is
// never text a person typed (the allow-list validates it as an integer).
func eachJSONText(doc []byte, fn func(string) error) error {
	// doc is only read here and is not kept: no copy.
	str := unsafe.String(unsafe.SliceData(doc), len(doc))
	depth := 0   // '{' and '[' open outside strings
	topKey := "" // the last key read at depth 1 of an object
	for i := 0; i < len(doc); {
		c := doc[i]
		switch {
		case c == '"':
			end, _ := jsonlit.End(str, i)
			if end < 0 {
				end = len(str) // malformed: read the rest as text
			}
			s, ok := jsonlit.Unquote(str[i:end])
			if !ok {
				s = str[i:end]
			}
			if err := fn(s); err != nil {
				return err
			}
			if depth == 1 && isKey(doc, end) {
				topKey = s
			}
			i = end
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(doc) && strings.IndexByte("0123456789.eE+-", doc[j]) >= 0 {
				j++
			}
			if j-i >= 7 && !(depth == 1 && topKey == "seed") {
				if err := fn(string(doc[i:j])); err != nil {
					return err
				}
			}
			i = j
		case c == '{' || c == '[':
			depth++
			i++
		case c == '}' || c == ']':
			depth--
			i++
		case c == ',':
			if depth == 1 {
				topKey = ""
			}
			i++
		default:
			i++
		}
	}
	return nil
}

// isKey reports whether the string literal ending at end is an object key (a ':' follows).
func isKey(doc []byte, end int) bool {
	for ; end < len(doc); end++ {
		switch doc[end] {
		case ' ', '\t', '\r', '\n':
			continue
		case ':':
			return true
		}
		return false
	}
	return false
}
