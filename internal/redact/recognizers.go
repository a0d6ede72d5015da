package redact

import (
	"fmt"
	"strings"

	"github.com/dlclark/regexp2"
)

// recognizer is one compiled pattern. Patterns are written for a backtracking engine: no
// nested unbounded quantifiers, disjoint alternatives, word-boundary lookbehinds so that a run
// of letters or digits is entered only at its start.
type recognizer struct {
	name     string
	typ      string
	re       *regexp2.Regexp
	score    float64
	validate validator
	// refine trims a match to the candidate the validator should see (an IBAN swallowed the
	// next word, a card number runs into a year); it returns the byte length to keep.
	refine  func(s string) int
	context []string
	ctxIdx  *ctxIndex // context and the policy's words for typ (see context.go); set by New
	gate    [][]byte  // context words and their parts around a space (see nearContext)
	// anyContext: a context word is empty or all spaces, so every match is in reach of one.
	anyContext bool
	// gateByFirst indexes gate by first byte.
	gateByFirst [256][]int
	// gatePairs has bit b0<<8|b1 set when a gate word can start with bytes b0, b1 (a one-byte
	// word with any b1): nearContext skips the other pairs without reading gateByFirst.
	gatePairs *[1 << 16 / 64]uint64
	// need is a cheap test on the whole text: the recognizer cannot match without it.
	need func(p *profile) bool
	veto func(text string, start, end int) bool // see builtin.veto
	// failVeto drops a match whose check digit fails when the text around it shows it is no
	// typo of the person's (see builtin.failVeto).
	failVeto func(text string, start, end int) bool
	// first holds wherever the pattern can start a match (see candidates.go); anchored is
	// the pattern tried at those positions only. Recognizers without first (custom, deny)
	// scan the whole text.
	first    func(t *scanText, i int) bool
	starts   [128]bool // ASCII characters a match can start with: first is asked only there
	high     bool      // a match can start with a non-ASCII rune too
	anchored *regexp2.Regexp
	// exact is the hand-written form of anchored (see exact.go), nil where there is none.
	exact   func(rs []rune, i int) int
	lead    int
	cluster cluster // for leadDigits
	maxLen  int     // longest match in runes; 0: unbounded (never context-gated)
}

func (rec *recognizer) canStart(r rune) bool {
	if r < 128 {
		return rec.starts[r]
	}
	return rec.high
}

// profile is a one-pass summary of a text that lets most recognizers skip it outright.
type profile struct {
	digits, at, colon, dots, upper int
	lower                          []byte // lowerSameLength(text), for context words and the allow list
}

// reset profiles text, reusing p's buffer.
func (p *profile) reset(text string) {
	// One pass over the copy: it counts and lower-cases as appendLowerSameLength does (the
	// byte it skips after 0xC3 is never one that is counted).
	b := append(p.lower[:0], text...)
	*p = profile{}
	for i := 0; i < len(b); i++ {
		if byteClass[b[i]]&byteProfiled == 0 {
			continue // most bytes (lower-case letters, spaces) are neither counted nor changed
		}
		switch c := b[i]; {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
			p.upper++
		case c >= '0' && c <= '9':
			p.digits++
		case c == '@':
			p.at++
		case c == ':':
			p.colon++
		case c == '.':
			p.dots++
		case c == 0xC3 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9E && b[i+1] != 0x97: // not ×
			b[i+1] += 0x20
			i++
		}
	}
	p.lower = b
}

const (
	wb = `(?<![\w])` // start of a word
	we = `(?![\w])`  // end of a word
)

// asciiClasses rewrites the built-in patterns' \d, \w, \p{L}, \p{Lu} and \s into explicit
// ranges (ASCII plus Latin-1 and Latin Extended-A/B letters). regexp2 resolves Unicode classes
// through category tables on every character; explicit ranges made the 4 KiB benchmark ~3x
// faster, and Spanish, Catalan, Basque, Galician and English text needs nothing beyond them.
var asciiClasses = strings.NewReplacer(
	`\d`, `[0-9]`,
	`\w{`, `[0-9A-Za-z_\u00C0-\u024F]{`,
	`\w`, `0-9A-Za-z_\u00C0-\u024F`,
	`\p{Lu}`, `[A-Z\u00C0-\u00DE]`,
	`\p{L}`, `A-Za-z\u00C0-\u024F`,
	`\s`, ` `,
)

// Leads: where a recognizer looks for the starts of its matches (see candidates.go).
const (
	leadAll    = iota // every position of the text
	leadDigits        // near digit clusters (see cluster) of at least a given size
	leadAt            // in a whitespace-free token holding '@'
	leadColon         // in a whitespace-free token holding ':'
)

type builtin struct {
	name, typ, pattern string
	first              func(t *scanText, i int) bool
	starts             string // ASCII characters a match can start with
	high               bool   // a match can start with a non-ASCII rune
	score              float64
	validator          string
	refine             func(string) int
	context            []string
	need               func(p *profile) bool
	lead               int
	cluster            cluster
	maxLen             int // longest match in runes, 0 if unbounded
	// veto drops a match that the text around it shows is something else (a version number
	// read as an IP). It sees the text and the match's offsets and is deterministic, so the
	// exit scan applies it too.
	veto func(text string, start, end int) bool
	// failVeto is asked only for a match whose check fails, under the checksum policy "lower"
	// (the default): a sample on a form, a file number after its word. Under "redact" every
	// failing value is kept as the operator asked.
	failVeto func(text string, start, end int) bool
	// loose: no check digit and a shape other data can have (plates, national phone formats
	// of other countries): left out of the strict redactor, whose hits block a request.
	loose bool
	// exact: see recognizer.exact; set by compileRecognizers.
	exact func(rs []rune, i int) int
}

// appendLowerSameLength appends text lower-cased in ASCII and the Latin-1 capitals (À–Þ,
// which covers Á É Í Ó Ú Ñ Ü Ç), every other byte left alone, so byte offsets into the result
// are offsets into text. It is what context words and the allow list are matched against.
func appendLowerSameLength(b []byte, text string) []byte {
	at := len(b)
	b = append(b, text...)
	for i := at; i < len(b); i++ {
		switch c := b[i]; {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == 0xC3 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9E && b[i+1] != 0x97: // not ×
			b[i+1] += 0x20
			i++
		}
	}
	return b
}

func minDigits(n int) func(*profile) bool { return func(p *profile) bool { return p.digits >= n } }

var months = `(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|` +
	`january|february|march|april|may|june|july|august|september|october|november|december|` +
	`ene|feb|mar|abr|jun|jul|ago|sep|sept|oct|nov|dic|dec|jan|apr|aug)`

var dobContext = []string{"nacimiento", "nacido", "nacida", "nació", "nacio", "f. nac", "fecha nac", "born", "birth", "dob", "d.o.b", "cumpleaños", "birthday"}

var streetTypes = `(?:calle|c/|avda\.?|avenida|av\.|paseo|p[º°]\.?|plaza|pza\.?|pl\.|ronda|camino|carretera|ctra\.?|` +
	`traves[ií]a|glorieta|carrer|rambla|r[úu]a|kalea|passeig|pla[çc]a|callej[óo]n|urbanizaci[óo]n|urb\.)`

// builtins is the recognizer table. Scores are what a match is worth with a valid check digit
// and no context word; see docs/REDACTION.md for why each is where it is.
func builtins() []builtin {
	return []builtin{
		{name: "es_dni", first: firstDNI, starts: startDigits, maxLen: 16, lead: leadDigits, cluster: cluster{8, 1, 0}, typ: TypeDNI, score: 0.7, validator: "dni", failVeto: dniVeto, need: minDigits(8),
			pattern: wb + `\d{2}[. ]?\d{3}[. ]?\d{3}(?:[ -]| - )?[A-Za-z]` + we,
			context: []string{"dni", "nif", "documento", "identidad", "d.n.i", "id card", "national id", "identity"}},
		{name: "es_nie", first: firstNIE, starts: "XYZxyz", maxLen: 12, lead: leadDigits, cluster: cluster{7, 3, 0}, typ: TypeNIE, score: 0.7, validator: "nie", need: minDigits(7),
			pattern: wb + `[XYZxyz][ .-]?(?:\d{7}|\d{4}[ .]\d{3}|\d[ .]\d{3}[ .]\d{3})[ .-]?[A-Za-z]` + we,
			context: []string{"nie", "extranjer", "residencia", "tie", "foreigner", "residence"}},
		{name: "es_cif", first: letterThenDigits("ABCDEFGHJNPQRSUVWabcdefghjnpqrsuvw", " -", 7), starts: "ABCDEFGHJNPQRSUVWabcdefghjnpqrsuvw", maxLen: 12, lead: leadDigits, cluster: cluster{7, 3, 0}, typ: TypeCIF, score: 0.7, validator: "cif", veto: namedCompanyBefore, need: minDigits(7),
			pattern: wb + `[ABCDEFGHJNPQRSUVWabcdefghjnpqrsuvw][ -]?\d{7}[ -]?[0-9A-Ja-j]` + we,
			context: []string{"cif", "nif", "empresa", "sociedad", "company", "tax id", "vat"}},
		{name: "es_nss", first: firstNSS, starts: startDigits, maxLen: 16, lead: leadDigits, cluster: cluster{12, 1, 0}, typ: TypeNSS, score: 0.65, validator: "nss", need: minDigits(12),
			pattern: wb + `\d{2}[ /-]?(?:\d{8}|\d{4}[ /-]\d{4})[ /-]?\d{2}` + we,
			context: []string{"seguridad social", "nss", "afiliaci", "social security", "naf"}},
		{name: "iban", first: firstIBAN, starts: startLetters, lead: leadDigits, cluster: cluster{2, 3, 0}, maxLen: 70, typ: TypeIBAN, score: 0.9, validator: "iban", refine: refineIBAN, veto: ibanVeto, failVeto: sampleBefore, need: minDigits(10),
			pattern: wb + `(?:[A-Za-z]{2}|[A-Z]{2} )\d{2}(?:(?:[ .-]|[ ]?/[ ]?)?[A-Za-z0-9]){11,30}` + we,
			context: []string{"iban", "cuenta", "transferencia", "domicilia", "account", "bank", "transfer"}},
		{name: "card", first: firstCard, starts: startDigits, maxLen: 40, lead: leadDigits, cluster: cluster{13, 1, 0}, typ: TypeCard, score: 0.75, validator: "luhn", refine: refineCard, veto: cardVeto, need: minDigits(13),
			pattern: wb + `(?:[1-9](?:[ -]?\d){12,18}|[1-9]\d{3}(?:\.\d{4}){3}(?:\.\d{1,3})?)` + we,
			context: []string{"tarjeta", "card", "visa", "mastercard", "amex", "crédito", "credito", "débito", "debito", "credit", "debit",
				"targeta", "tarxeta", "txartel"}},
		{name: "es_phone", first: firstSpanishPhone, starts: startPhone, maxLen: 24, lead: leadDigits, cluster: cluster{9, 6, 0}, typ: TypePhone, score: 0.55, need: minDigits(9), refine: refineSpanishPhone, veto: phoneVeto,
			pattern: `(?<![\w+])(?:(?:\+|00) ?34[ .-]?)?(?:[6789]\d{8}|[6789]\d{2}[ .-]\d{3}[ .-]\d{3}|[6789]\d{2}[ .-]\d{2}[ .-]\d{2}[ .-]\d{2}|[89]\d[ .-]\d{3}[ .-]\d{2}[ .-]\d{2})` + we,
			context: []string{"tel", "teléfono", "telefono", "móvil", "movil", "llama", "fijo", "whatsapp", "contacto", "phone", "mobile", "call", "contact"}},
		{name: "e164", first: firstE164, starts: "+", maxLen: 32, lead: leadDigits, cluster: cluster{7, 2, 0}, typ: TypePhone, score: 0.6, need: minDigits(7), veto: phoneVeto,
			pattern: `(?<![\w+])\+[1-9](?:[ .-]?\d){6,14}` + we,
			context: []string{"tel", "teléfono", "telefono", "móvil", "movil", "phone", "mobile", "call", "whatsapp"}},
		{name: "email", first: firstEmail, starts: startEmail, high: true, lead: leadAt, typ: TypeEmail, score: 0.9, veto: emailRoleVeto, need: func(p *profile) bool { return p.at > 0 },
			pattern: `(?<![\w.%+-])[\w.%+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}`,
			context: []string{"email", "e-mail", "correo", "mail"}},
		{name: "ipv4", first: firstIPv4, starts: startDigits, maxLen: 15, lead: leadDigits, cluster: cluster{4, 1, 3}, typ: TypeIP, score: 0.6, validator: "ipv4", veto: versionBefore, need: func(p *profile) bool { return p.dots >= 3 },
			pattern: `(?<![\w.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\w]|\.\d)`,
			context: []string{"ip", "servidor", "router", "equipo", "server", "host", "address"}},
		{name: "ipv6", first: firstIPv6, starts: startIPv6, lead: leadColon, typ: TypeIP, score: 0.7, validator: "ipv6", failVeto: clockNotIPv6, need: func(p *profile) bool { return p.colon >= 2 },
			pattern: `(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])`,
			context: []string{"ip", "ipv6", "servidor", "router", "server", "host"}},
		// Dates of birth in two recognizers so that each pattern starts with one kind of
		// character: regexp2 then skips every position that cannot start a match.
		{name: "dob", first: firstDate, starts: startDigits, maxLen: 40, lead: leadDigits, cluster: cluster{4, 32, 0}, typ: TypeDOB, score: 0.25, need: minDigits(2), refine: refineDate, veto: dobVeto,
			pattern: wb + `(?:\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2}|\d{1,2}(?:º|°)? (?i:de )?(?i:` + months + `)\.?,? (?i:de |del )?(?:19|20)\d{2})` + we,
			context: dobContext},
		{name: "dob_month_first", first: firstMonth, starts: startMonth, maxLen: 40, lead: leadDigits, cluster: cluster{4, 24, 0}, typ: TypeDOB, score: 0.25, need: minDigits(4), veto: dobVeto,
			pattern: wb + `(?i:` + months + `)\.? \d{1,2}(?i:st|nd|rd|th)?,? (?:19|20)\d{2}` + we,
			context: dobContext},
		{name: "es_address", first: firstStreet, starts: startStreet, high: true, typ: TypeAddress, score: 0.7, need: minDigits(1),
			pattern: wb + `(?i:` + streetTypes + `) ?(?:(?:de|del|de la|de los|de las|do|da|dos|das|d') ?)?\p{Lu}[\p{L}'’-]*(?: (?:(?:de|del|la|los|las|y|i|el|do|da|dos|das|d')\s)?\p{Lu}[\p{L}'’.-]*){0,5},? (?:n[º°o]\.? ?)?\d{1,4}(?: ?[A-Za-z]` + we + `)?(?:,? (?:\d{1,2} ?[º°ª]\.?(?: ?(?:[A-Za-z]` + we + `|(?i:izq(?:da)?|dcha|dcho|centro)\.?))?|(?i:piso|planta|puerta|esc\.?|escalera|bloque|portal) \w{1,3}|(?i:bajo|entresuelo|[áa]tico)(?: [A-Za-z]` + we + `)?)){0,3}(?:,? (?:CP |C\.P\. )?\d{5}(?: \p{Lu}[\p{L}-]*(?: (?:de |del |la |de la )?\p{Lu}[\p{L}-]*){0,3})?)?`,
			context: []string{"dirección", "direccion", "domicilio", "vive en", "reside", "address", "lives at", "envío", "envio"}},
		{name: "es_passport", first: firstPassport, starts: startLetters, maxLen: 9, lead: leadDigits, cluster: cluster{6, 4, 0}, typ: TypePassport, score: 0.3, need: minDigits(6),
			pattern: wb + `[A-Za-z]{3}\d{6}` + we,
			context: []string{"pasaporte", "passport"}},
	}
}

// compileRecognizers compiles the built-in recognizers that cfg does not disable (for the strict
// redactor, only those that decide on their own: see builtin.loose) and cfg's custom ones.
func compileRecognizers(cfg Config, strict bool) ([]*recognizer, error) {
	disabled := map[string]bool{}
	for _, t := range cfg.Disable {
		disabled[t] = true
	}
	var out []*recognizer
	add := func(b builtin) error {
		re, err := regexp2.Compile(b.pattern, regexp2.None)
		if err != nil {
			return fmt.Errorf("redact: recognizer %s: %w", b.name, err)
		}
		re.MatchTimeout = cfg.MatchTimeout
		var anchored *regexp2.Regexp
		if b.first != nil {
			// \G: a match must start where the search starts, so a miss costs one attempt,
			// not a scan of the rest of the text.
			if anchored, err = regexp2.Compile(`\G(?:`+b.pattern+`)`, regexp2.None); err != nil {
				return fmt.Errorf("redact: recognizer %s: %w", b.name, err)
			}
			anchored.MatchTimeout = cfg.MatchTimeout
		}
		words := append(append([]string(nil), b.context...), cfg.ContextWords[b.typ]...)
		for i := range words {
			words[i] = strings.ToLower(words[i])
		}
		rec := &recognizer{name: b.name, typ: b.typ, re: re, anchored: anchored, first: b.first, high: b.high,
			score: b.score, validate: validators[b.validator], refine: b.refine, context: words, need: b.need, veto: b.veto, failVeto: b.failVeto,
			lead: b.lead, cluster: b.cluster, maxLen: b.maxLen, exact: b.exact}
		for _, c := range b.starts {
			rec.starts[c] = true
		}
		for _, w := range words {
			if strings.Trim(w, " ") == "" {
				rec.anyContext = true // boost finds "" and " " everywhere
			}
			rec.gate = append(rec.gate, []byte(w))
			for k := 0; k < len(w); k++ {
				switch {
				case w[k] != ' ':
				case k > 0:
					rec.gate = append(rec.gate, []byte(w[:k]))
				default:
					rec.gate = append(rec.gate, []byte(w[1:]))
				}
			}
		}
		for k, w := range rec.gate {
			if len(w) > 0 {
				rec.gateByFirst[w[0]] = append(rec.gateByFirst[w[0]], k)
			}
		}
		if rec.maxLen > 0 && !rec.anyContext { // only nearContext reads it
			rec.gatePairs = new([1 << 16 / 64]uint64)
		}
		for _, w := range rec.gate {
			if rec.gatePairs == nil {
				break
			}
			switch {
			case len(w) >= 2:
				pair := int(w[0])<<8 | int(w[1])
				rec.gatePairs[pair>>6] |= 1 << (pair & 63)
			case len(w) == 1:
				for b1 := 0; b1 < 256; b1++ {
					pair := int(w[0])<<8 | b1
					rec.gatePairs[pair>>6] |= 1 << (pair & 63)
				}
			}
		}
		out = append(out, rec)
		return nil
	}
	for _, b := range append(builtins(), moreBuiltins()...) {
		if disabled[b.typ] || b.loose && strict {
			continue
		}
		if m, ok := exactMatchers[b.name]; ok && m.pattern == b.pattern && b.first != nil {
			b.exact = m.match
		}
		b.pattern = asciiClasses.Replace(b.pattern)
		if err := add(b); err != nil {
			return nil, err
		}
	}
	for _, c := range cfg.Custom {
		b := builtin{name: "custom:" + c.Name, typ: c.Type, pattern: c.Pattern, score: c.Score,
			validator: c.Validator, context: c.ContextWords}
		if err := add(b); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// refineIBAN keeps exactly the country's IBAN length of alphanumerics, so that a following
// word ("ES91 2100 … 1332 a nombre de") is not read as part of the account.
func refineIBAN(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	want, ok := ibanLengths[strings.ToUpper(s[:2])]
	if !ok {
		// an unknown country: the value ends before a group in lower case, a word of the
		// sentence ("SJ 4410-908172 for Bethany Moore"). Not a country that issues IBANs, so a failing
		// check is no typo of one: an invoice or case code ("FE24-00877120").
		end := len(s)
		for i := 1; i+1 < len(s); i++ {
			if (s[i] == ' ' || s[i] == '-') && s[i+1] >= 'a' && s[i+1] <= 'z' {
				end = i
				break
			}
		}
		if !validIBAN(s[:end]) {
			return 0
		}
		return end
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if isAlnum(s[i]) {
			n++
			if n == want {
				if !validIBAN(s[:i+1]) && !plausibleIBAN(s[:i+1]) {
					return 0
				}
				return i + 1
			}
		}
	}
	if !validIBAN(s) {
		return 0 // shorter than the country's IBAN and failing mod 97: a code ("ES45ZZZB23456780")
	}
	return len(s)
}

// plausibleIBAN: an IBAN of the country's length whose check fails may be a typo of one (still
// the person's account) only if it is written as one: upper case or all lower case, never words
// of a sentence taken in to make up the length ("MT202 ref TRX25A0093KL a la cuenta be"), and
// a Spanish one all digits after "ES".
func plausibleIBAN(s string) bool {
	upper, lower := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		}
	}
	if upper && lower {
		return false
	}
	// check digits 00, 01 and 99 are never computed (98 - n mod 97 is 2 to 98): a form's sample
	// ("ES00 0000 …", "GB00 BANK …"), not a mistyped account
	if k := s[2:4]; k == "00" || k == "01" || k == "99" {
		return false
	}
	// groups joined by dots or slashes are read as an IBAN only when its check holds
	if strings.ContainsAny(s, "./") {
		return false
	}
	if strings.EqualFold(s[:2], "ES") {
		for i := 2; i < len(s); i++ {
			if c := s[i]; c != ' ' && c != '-' && !isDigitByte(c) {
				return false
			}
		}
	}
	return true
}

// refineCard keeps the longest prefix, ending at a group boundary, that passes Luhn: a card
// number followed by an expiry year or a CVV in the same run of digit groups.
func refineCard(s string) int {
	if validLuhn(s) {
		return len(s)
	}
	for i := len(s) - 1; i > 0; i-- {
		if (s[i] == ' ' || s[i] == '-') && validLuhn(s[:i]) {
			return i
		}
	}
	return len(s)
}

// refineDate rejects impossible calendar dates (day > 31, month > 12) by returning 0.
func refineDate(s string) int {
	nums := make([]int, 0, 4)
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n, in = n*10+int(s[i]-'0'), true
			continue
		}
		if in {
			nums = append(nums, n)
		}
		n, in = 0, false
	}
	if in {
		nums = append(nums, n)
	}
	if len(nums) == 3 {
		d, m := nums[0], nums[1]
		if d > 1000 { // ISO yyyy-mm-dd
			d, m = nums[2], nums[1]
		}
		if d < 1 || d > 31 || m < 1 || m > 12 {
			return 0
		}
	}
	return len(s)
}

func isAlnum(c byte) bool { return byteClass[c]&byteAlnum != 0 }

// byteClass holds isAlnum and isWordByte of every byte: one load instead of three range tests
// in the scans that ask them of every byte of a text.
var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
			t[c] |= byteAlnum | byteWord
		}
		if c >= 0x80 || c == '_' {
			t[c] |= byteWord
		}
		if c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '@' || c == ':' || c == '.' || c == 0xC3 {
			t[c] |= byteProfiled
		}
		if c >= 0x80 || c == '%' || c == '&' || c == '?' || c == '=' || c == ' ' || c == '+' || c == '\v' || c == '\f' {
			t[c] |= byteNeeds
		}
	}
	return t
}()

const (
	byteAlnum = 1 << iota
	byteWord
	byteProfiled // a byte profile.reset counts or lower-cases (0xC3: a Latin-1 capital may follow)
	byteNeeds    // a byte needs looks at: one of its switch's ASCII cases, or a non-ASCII rune's first
)
