package corpus

import "strings"

// Values makes valid synthetic identifiers, deterministically from a seed, for property tests
// that plant them in generated requests. Every value is in its compact canonical form (no
// separators); tests apply the written forms themselves.
type Values struct{ r rng }

// NewValues returns a generator for seed.
func NewValues(seed uint64) *Values { return &Values{r: rng{s: seed}} }

// Intn returns a number in [0, n) from the same stream (for the test's own choices).
func (v *Values) Intn(n int) int { return v.r.intn(n) }

// Chance is true pct times in a hundred.
func (v *Values) Chance(pct int) bool { return v.r.chance(pct) }

func compact(s string) string { return strings.NewReplacer(" ", "", "-", "", ".", "").Replace(s) }

// DNI is a Spanish NIF of a person with its mod-23 letter.
func (v *Values) DNI() string { return compact(v.r.dni(true)) }

// NIE is a foreigner's identity number with its letter.
func (v *Values) NIE() string { return compact(v.r.nie()) }

// IBAN is a valid Spanish, German, Portuguese or British IBAN.
func (v *Values) IBAN() string { return compact(v.r.iban()) }

// Card is a Luhn-valid card number.
func (v *Values) Card() string { return compact(v.r.card(true)) }

// Phone is a Spanish mobile number (nine digits).
func (v *Values) Phone() string { return "6" + v.r.digits(8) }

// Email is an e-mail address of a generated person.
func (v *Values) Email() string { return v.r.email(v.r.person()) }
