package redact

import (
	"context"
	"errors"
)

// Entity types. Placeholder names use them verbatim, so they are short upper-case ASCII.
const (
	TypeDNI      = "DNI"      // Spanish NIF of a person: 8 digits + mod-23 letter
	TypeNIE      = "NIE"      // foreigner's NIE: X/Y/Z + 7 digits + letter
	TypeCIF      = "CIF"      // company tax id: letter + 7 digits + control
	TypeNSS      = "NSS"      // Seguridad Social number, mod 97
	TypeIBAN     = "IBAN"     // any country, mod 97 (+ CCC digits for ES)
	TypeCard     = "CARD"     // payment card, Luhn
	TypePhone    = "PHONE"    // Spanish numbers and E.164
	TypeEmail    = "EMAIL"    //
	TypeIP       = "IP"       // IPv4 and IPv6
	TypeDOB      = "DOB"      // a date near birth context words
	TypeAddress  = "ADDRESS"  // Spanish postal address
	TypePassport = "PASSPORT" // Spanish passport
	TypePerson   = "PERSON"   // names (gazetteer, NER)
	TypeOrg      = "ORG"      // organisations (NER, deny list)
	TypeLocation = "LOCATION" // places (NER)
	// TypeLiteral holds text the user typed that looks like a placeholder, so that it travels
	// to the model as an opaque placeholder and comes back verbatim instead of pulling a value.
	TypeLiteral = "LITERAL"
)

// Span is one piece of personal data found in a text. Start and End are byte offsets into the
// text that was scanned; Text is always text[Start:End].
type Span struct {
	Start, End int
	Type       string
	Text       string
	Score      float64
	Source     string // recognizer, "gazetteer", "ner", "deny", "vault", "lookalike"
}

// NER is a named-entity backend on a local model server. Offsets are optional: a span whose
// Start/End do not select exactly Text is located by searching Text in the input, and a span
// whose Text is not an exact substring of the input is dropped.
type NER interface {
	Entities(ctx context.Context, text string) ([]Span, error)
}

var (
	// ErrMatchTimeout means a recognizer ran past its match timeout. The text is refused: a
	// partial scan could let personal data through.
	ErrMatchTimeout = errors.New("redact: recognizer match timeout")
	// ErrNERUnavailable means the NER backend failed and the configuration requires it.
	ErrNERUnavailable = errors.New("redact: NER backend unavailable")
	// ErrSessionClosed means the session's vault was already wiped (closed or expired).
	ErrSessionClosed = errors.New("redact: session closed or expired")
)
