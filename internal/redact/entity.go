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
	TypeCCC      = "CCC"      // old Spanish 20-digit account (código cuenta cliente), both control digits
	TypePlate    = "PLATE"    // Spanish number plate, current (1234 BCD) or provincial (M-1234-AB)
	TypeMRN      = "MRN"      // medical record number (NHC, nº historia, NHS number, CIP/TIS)
	TypeCardExp  = "CARDEXP"  // a card's expiry date, next to a card or an expiry word (CARD_EXP in the corpora)
	TypeCVV      = "CVV"      // a card's security code, after its cue word
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

// LabelType is the name the labelled corpora (testdata/redact) give an entity type: the same,
// but for CARD_EXP, which a placeholder cannot spell (placeholder types are letters and digits).
func LabelType(typ string) string {
	if typ == TypeCardExp {
		return "CARD_EXP"
	}
	return typ
}
