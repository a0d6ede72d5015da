package redact

import (
	"bytes"
	"strings"
)

// Identifier rules of the third round of issue #13 (realistic-dev3-ids.jsonl): values that the
// recognizers find only when their check digit is right, or only when a cue word stands right
// before them, read further along the sentence that names them.

// sentenceReach is how far (bytes) after a cue the sentence-scope rules look for a value.
const sentenceReach = 120

// sentenceEnd reports whether text[i] ends a sentence: a line break, or '.', '?', '!' or ';'
// followed by a space and a capital or a line break.
func sentenceEnd(text string, i int) bool {
	switch c := text[i]; c {
	case '\n':
		return true
	case '.', '?', '!', ';':
		if i+1 >= len(text) {
			return true
		}
		if text[i+1] == '\n' || text[i+1] == '\r' {
			return true
		}
		return text[i+1] == ' ' && i+2 < len(text) && (text[i+2] >= 'A' && text[i+2] <= 'Z' || text[i+2] == '\n' || text[i+2] == 0xC2 || text[i+2] == 0xC3)
	}
	return false
}

// referenceWords, right before a number, say it is an order, a contract, a parcel or a file,
// not a person's card or document (used only for numbers whose check digit fails).
var referenceWords = []string{"pedido", "order", "referencia", "reference", "ref", "seguimiento", "tracking", "localizador",
	"expediente", "factura", "invoice", "contrato", "contract", "poliza", "póliza", "policy", "envio", "envío", "shipment",
	"albaran", "albarán", "ticket", "lote", "batch", "serie", "serial", "comanda", "encomenda", "eskaera", "mandato", "mandate",
	"claim", "case", "caso", "recurso", "procedimiento", "causa", "asunto", "autos", "sumario", "booking", "reserva",
	"reservation", "localizer", "token", "vuelo", "flight", "vol", "voo", "billete", "asiento", "seat", "operacion",
	"operación", "operacio", "operació", "operation", "transaccion", "transacción", "transaction", "transaccio", "transacció"}

// referenceBefore: one of referenceWords stands right before start, with only spaces,
// punctuation (: . # - º) and filler words between ("número de pedido 4000 1234…", "ref. nº
// 1234…"). It reads at most four words back, folded in a stack buffer: no allocation.
func referenceBefore(text string, start int) bool {
	var pw prevWordReader
	pw.init(text, start)
	for k := 0; k < 4; k++ {
		w, ok := pw.next()
		if !ok {
			return false
		}
		if referenceSet[string(w)] || len(w) > 1 && w[len(w)-1] == 's' && referenceSet[string(w[:len(w)-1])] {
			return true
		}
		if !fillerWords[string(w)] {
			return false
		}
	}
	return false
}

// referenceSet holds referenceWords.
var referenceSet = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range referenceWords {
		m[w] = true
	}
	return m
}()

// prevWordReader reads the words before an offset, last first, lower-cased (ASCII and Latin-1
// capitals), skipping spaces and : . # - º ª; it stops at a line break, a digit or any other
// character.
type prevWordReader struct {
	text string
	i    int
	buf  [24]byte
}

func (r *prevWordReader) init(text string, i int) { r.text, r.i = text, i }

func (r *prevWordReader) next() ([]byte, bool) {
	t := r.text
	i := r.i
	for i > 0 {
		c := t[i-1]
		if c == ' ' || c == ':' || c == '.' || c == '#' || c == '-' || c == '\t' {
			i--
			continue
		}
		if i >= 2 && t[i-2] == 0xC2 && (c == 0xBA || c == 0xAA) { // º ª
			i -= 2
			continue
		}
		break
	}
	e := i
	for i > 0 && (isASCIILetterByte(t[i-1]) || t[i-1] >= 0x80) && e-i < len(r.buf) {
		i--
	}
	for i < e && t[i] >= 0x80 && t[i] < 0xC0 { // never start inside a rune
		i++
	}
	if i == e || i > 0 && (isWordByte(t[i-1]) && t[i-1] < 0x80) {
		return nil, false
	}
	r.i = i
	return appendLowerSameLength(r.buf[:0], t[i:e]), true
}

// cardVeto: a number that fails Luhn right after a reference word is that reference, and one
// a form gives as a sample or that is a gift or loyalty card's; a number under a "token" key
// is a tokenised stand-in (built to pass Luhn), not the card.
func cardVeto(text string, start, end int) bool {
	if tokenKeyBefore(text, start) {
		return true
	}
	if strings.IndexByte(text[start:end], '.') >= 0 && !validLuhn(text[start:end]) {
		return true // grouped with dots (4111.1111.1111.1111) only when Luhn holds: dotted amounts and codes are many
	}
	return !validLuhn(text[start:end]) && (referenceBefore(text, start) || sampleBefore(text, start, end) || giftCardBefore(text, start) ||
		notTheirsAfter(text, start, end))
}

// notTheirsWords deny, right after a number, that it is the person's or that it exists at all:
// "4111 2222 3333 4440 no es suya", "…, is not the customer's", "el compte … no és seu", "que
// trae el recibo no existe". Asked only of a number whose check digits fail: a failing number
// that is denied is a stray one, not a typo of the person's.
var notTheirsWords = byteWords("no es suy", "no es mio", "no es mío", "no es de el", "no es del client", "no es de la client",
	"not the customer", "not the client", "not his", "not hers", "not theirs", "isn't his", "isn't hers", "isn't theirs",
	"no és seu", "no és seva", "no és del client", "non é seu", "non é súa", "non é del", "non é da", "ez da berea", "ez da bere",
	"no existe", "no existeix", "non existe", "doesn't exist", "does not exist")

// notTheirsAfter: a denial from notTheirsWords within the 48 bytes after end, on the same line
// (the signature of a failVeto: start is not read).
func notTheirsAfter(text string, _, end int) bool {
	hi := min(len(text), end+48)
	if k := strings.IndexByte(text[end:hi], '\n'); k >= 0 {
		hi = end + k
	}
	// every denial holds "no", "not", "non" or the Basque "ez": most texts have none there
	if !containsFoldASCII(text[end:hi], 'n', 'o') && !containsFoldASCII(text[end:hi], 'e', 'z') {
		return false
	}
	var buf [48]byte
	b := appendLowerSameLength(buf[:0], text[end:hi])
	for _, w := range notTheirsWords {
		if k := bytes.Index(b, w); k >= 0 && (k == 0 || !isWordByte(b[k-1])) {
			return true
		}
	}
	return false
}

// dniVeto: a DNI-shaped value whose letter is wrong, right after a reference word ("expediente
// 45123987-N") or given as a form's sample ("el DNI de ejemplo era 12345678A"), is not a
// person's.
func dniVeto(text string, start, end int) bool {
	return !validDNI(text[start:end]) && (referenceBefore(text, start) || sampleBefore(text, start, end) || notDNIBefore(text, start))
}

// notDNIWords deny that what follows is an identity document ("Nº de control interno (no es
// DNI): …", "not an ID number").
var notDNIWords = byteWords("no es dni", "no es un dni", "no es el dni", "no es nif", "not a dni", "not an id", "not a nif",
	"no es documento", "no és dni", "no és un dni", "no é dni", "non é dni", "non é o dni", "ez da nan", "not the dni")

// containsFoldASCII: s holds the two lower-case ASCII letters a, b in a row, in any case.
func containsFoldASCII(s string, a, b byte) bool {
	for k := 0; k+1 < len(s); k++ {
		if s[k]|0x20 == a && s[k+1]|0x20 == b {
			return true
		}
	}
	return false
}

// notDNIBefore: a denial from notDNIWords within the 40 bytes before i, on the same line.
func notDNIBefore(text string, i int) bool {
	lo := max(0, i-40)
	if k := strings.LastIndexByte(text[lo:i], '\n'); k >= 0 {
		lo += k + 1
	}
	// every denial holds "no" (or the Basque "ez"): most texts have neither right before a cue
	if !containsFoldASCII(text[lo:i], 'n', 'o') && !containsFoldASCII(text[lo:i], 'e', 'z') {
		return false
	}
	var buf [40]byte
	b := appendLowerSameLength(buf[:0], text[lo:i])
	for _, w := range notDNIWords {
		if bytes.Contains(b, w) {
			return true
		}
	}
	return false
}

// ibanVeto: an IBAN-shaped value failing mod 97 that is a piece of a longer dashed token (a
// UUID's "be04-4b5e-a0c1-7d3e…"), or that the text right after it denies is the person's.
func ibanVeto(text string, start, end int) bool {
	if validIBAN(text[start:end]) {
		return false
	}
	return start > 1 && text[start-1] == '-' && isAlnum(text[start-2]) || end < len(text) && isAlnum(text[end]) ||
		notTheirsAfter(text, start, end)
}

// sampleWords say that what follows is a sample or a placeholder, not someone's number.
var sampleWords = byteWords("ejemplo", "example", "sample", "muestra", "mostra", "exemple", "exemplo", "adibide", "plantilla",
	"template", "ficticio", "ficticia", "dummy", "de prueba", "de proba", "de prova", "p. ej", "e.g.", "placeholder",
	"folleto", "fullet", "brochure", "leaflet", "inventad", "made-up", "made up")

// sampleBefore: a sample word within the 48 bytes before i, on the same line (the signature of a
// failVeto: end is not read).
func sampleBefore(text string, i, _ int) bool {
	lo := max(0, i-48)
	if k := strings.LastIndexByte(text[lo:i], '\n'); k >= 0 {
		lo += k + 1
	}
	var buf [48]byte
	b := appendLowerSameLength(buf[:0], text[lo:i])
	for _, w := range sampleWords {
		if k := bytes.Index(b, w); k >= 0 && (k == 0 || !isWordByte(b[k-1])) {
			return true
		}
	}
	return false
}

// giftWords: a card that is not a payment card ("tarjeta regalo", "gift card", "loyalty").
var giftWords = byteWords("regalo", "gift", "loyalty", "fidelidad", "fidelizaci", "puntos", "regal ", "agasallo", "opari")

// giftCardBefore: a gift word within the 40 bytes before i, on the same line.
func giftCardBefore(text string, i int) bool {
	lo := max(0, i-40)
	if k := strings.LastIndexByte(text[lo:i], '\n'); k >= 0 {
		lo += k + 1
	}
	var buf [40]byte
	b := appendLowerSameLength(buf[:0], text[lo:i])
	for _, w := range giftWords {
		if bytes.Contains(b, w) {
			return true
		}
	}
	return false
}

// tokenKeyBefore: the value is that of a "token" key ("token":"4111…", token=…).
func tokenKeyBefore(text string, i int) bool {
	j := i
	for k := 0; k < 4 && j > 0 && strings.IndexByte(`"':= `, text[j-1]) >= 0; k++ {
		j--
	}
	if j == i || j < 5 || !strings.EqualFold(text[j-5:j], "token") {
		return false
	}
	return j == 5 || !isAlnum(text[j-6])
}

// appendSentenceDNI: after a DNI cue ("DNI", "NIF", "documento de identidad", "NAN"), the
// DNI-shaped values (8 digits, dotted or not, or 7, and a letter) further along the same
// sentence, also with a wrong letter ("el DNI … me dice que no cuadra: 43976475E") — a user's
// typo is still the person's number. Values with the right letter are the recognizer's.
func appendSentenceDNI(out []Span, text string, h cueHit) []Span {
	n := len(out)
	out = appendSentenceDNIValues(out, text, h)
	if len(out) > n && notDNIBefore(text, h.end) {
		return out[:n] // "(no es DNI): 13648031T": the cue is denied (asked only when a value was found)
	}
	return out
}

func appendSentenceDNIValues(out []Span, text string, h cueHit) []Span {
	end := min(len(text), h.end+sentenceReach)
	first := true
	for i := h.end; i < end; i++ {
		if sentenceEnd(text, i) {
			return out
		}
		if isDigitByte(text[i]) && i >= 3 && text[i-1] == '-' && (text[i-3]|0x20) == 'e' && (text[i-2]|0x20) == 's' && (i == 3 || !isWordByte(text[i-4])) {
			// the country prefix of a European-style ID: "DNI ES-4.501.227-N" — the prefix is
			// part of the value as written, valid letter or not
			if e := dniShapeAt(text, i); e > 0 {
				out = append(out, Span{Start: i - 3, End: e, Type: TypeDNI, Text: text[i-3 : e], Score: 0.85, Source: "cue"})
				i = e
				first = false
				continue
			}
		}
		if !isDigitByte(text[i]) || i > 0 && (isWordByte(text[i-1]) && text[i-1] != '_' || text[i-1] == '.' || text[i-1] == '-') {
			continue
		}
		if i > 0 && text[i-1] == '_' {
			// a file name: "escaneo_DNI_52118830W.pdf" (the recognizer's word boundary
			// counts '_' as a word character, so even a valid one is this rule's)
			if e := dniShapeAt(text, i); e > 0 {
				out = append(out, Span{Start: i, End: e, Type: TypeDNI, Text: text[i:e], Score: 0.85, Source: "cue"})
				i = e
			}
			continue
		}
		e := dniShapeAt(text, i)
		if e == 0 && first && i-h.end <= 40 {
			// the first number after the cue, 8 digits and no letter ("el DNI sin la letra:
			// 52918374", "Spanish ID number 38172946")
			if k := digitsOnlyAt(text, i); k-i == 8 {
				return append(out, Span{Start: i, End: k, Type: TypeDNI, Text: text[i:k], Score: 0.8, Source: "cue"})
			}
		}
		first = false
		if e == 0 {
			for i < end && (isDigitByte(text[i]) || text[i] == '.') {
				i++
			}
			continue
		}
		if !validDNI(text[i:e]) && !referenceBefore(text, i) && !sampleBefore(text, i, e) {
			out = append(out, Span{Start: i, End: e, Type: TypeDNI, Text: text[i:e], Score: 0.85, Source: "cue"})
		}
		i = e
	}
	return out
}

// dniShapeAt returns the end of a DNI-shaped value at i (8 digits, or 7, compact or dotted as
// 12.345.678; then an optional '-' or space and a letter; nothing word-like after), or 0.
func dniShapeAt(text string, i int) int {
	j, n := i, 0
	for j < len(text) && n < 9 {
		switch {
		case isDigitByte(text[j]):
			n++
			j++
			continue
		case text[j] == '.' && (n == 2 || n == 5 || n == 1 || n == 4) && j+1 < len(text) && isDigitByte(text[j+1]):
			j++
			continue
		}
		break
	}
	if n != 7 && n != 8 || j >= len(text) {
		return 0
	}
	if strings.HasPrefix(text[j:], " - ") {
		j += 3
	} else if text[j] == '-' || text[j] == ' ' || text[j] == '_' {
		j++
	}
	if j >= len(text) || !isASCIILetterByte(text[j]) || j+1 < len(text) && isWordByte(text[j+1]) && text[j+1] != '_' {
		return 0
	}
	return j + 1
}

// appendSentenceCard: after a card cue, a card-shaped number (13 to 19 digits, compact or in
// groups of 4, 4-6-5 or 4-6-4 with spaces or dashes) further along the same sentence whose Luhn
// check fails ("me ha dictado la tarjeta pero creo que un número está mal: 4138 6369 …"). Those
// that pass are the recognizer's.
func appendSentenceCard(out []Span, text string, h cueHit) []Span {
	end := min(len(text), h.end+sentenceReach)
	for i := h.end; i < end; i++ {
		if sentenceEnd(text, i) {
			return out
		}
		if !isDigitByte(text[i]) || i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.' || text[i-1] == '-') {
			continue
		}
		e, n := i, 0
		for e < len(text) {
			if isDigitByte(text[e]) {
				n++
				e++
				continue
			}
			if (text[e] == ' ' || text[e] == '-') && e+1 < len(text) && isDigitByte(text[e+1]) && e > i && isDigitByte(text[e-1]) {
				e++
				continue
			}
			break
		}
		if n >= 13 && n <= 19 && !(e < len(text) && isWordByte(text[e])) && !validLuhn(text[i:e]) && !cardVeto(text, i, e) && cardGroups(text[i:e]) {
			out = append(out, Span{Start: i, End: e, Type: TypeCard, Text: text[i:e], Score: 0.8, Source: "cue"})
		}
		i = e
	}
	return out
}

// cardGroups: the digits are compact or grouped as cards print them (4-4-4-4, 4-4-4-4-3, 4-6-5,
// 4-6-4), one separator kind.
func cardGroups(s string) bool {
	var lens []int
	n := 0
	sep := byte(0)
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			n++
			continue
		}
		if sep != 0 && s[i] != sep {
			return false
		}
		sep = s[i]
		lens = append(lens, n)
		n = 0
	}
	lens = append(lens, n)
	if len(lens) == 1 {
		return true
	}
	if lens[0] != 4 {
		return false
	}
	if len(lens) == 3 && lens[1] == 6 && (lens[2] == 5 || lens[2] == 4) {
		return true
	}
	for k := 1; k < len(lens); k++ {
		if lens[k] != 4 && !(k == len(lens)-1 && lens[k] >= 1 && lens[k] <= 4) {
			return false
		}
	}
	return true
}

// passportListWords join the numbers of a list after one passport cue ("pasaportes EK3948271 y
// E72819364", "passports 548213907 and 561027384").
var passportListWords = words(`y i e and or o u eta ta et und`)

// appendPassportList appends the values that follow a passport value at end in a list: ", "
// or a conjunction, then a token of the same kind (6 to 10 letters and digits, at least 4 of
// them digits).
func appendPassportList(out []Span, text string, end int, ws []word, fc *folder) []Span {
	for k := 0; k < 4; k++ {
		i := end
		for i < len(text) && (text[i] == ' ' || text[i] == ',' || text[i] == ';') {
			i++
		}
		far := false
		if i < len(text) && isASCIILetterByte(text[i]) {
			p := dateParser{text: text, ws: ws, fc: fc}
			if f, e := p.foldAt(i); e > 0 && passportListWords[f] {
				i = p.spaces(e)
				// "… y el de su marido CF3H8L1P2": a few words in lower case, then the next
				for k := 0; k < 5 && i < len(text) && text[i] >= 'a' && text[i] <= 'z'; k++ {
					_, e2 := p.foldAt(i)
					if e2 < 0 {
						break
					}
					i, far = p.spaces(e2), true
				}
			}
		}
		if i == end || i >= len(text) || i-end > 8 && !far || i-end > 40 {
			return out
		}
		e, digits, letters := tokenAt(text, i, 12)
		n := e - i
		if n < 6 || n > 10 || digits+letters != n || !wordEnd(text, e) || digits < 4 || digits < 6 && letters > 5 ||
			far && (letters == 0 || !allUpper(text[i:e])) {
			return out
		}
		out = append(out, Span{Start: i, End: e, Type: TypePassport, Text: text[i:e], Score: 0.85, Source: "cue"})
		end = e
	}
	return out
}

// appendPersonBracketIDs: an identifier in brackets right after a person's name ("Ms Joanne
// Reilly (533098217)", "Callum Reid (529184736)") — 8 to 10 digits, or 6 to 10 letters and
// digits with at least 6 digits, alone in the brackets. What the recognizers or rules typed
// already (a phone, a DNI) is left to them; the rest is read as a passport, the commonest
// document written that way. spans[:n] are the candidates so far.
func appendPersonBracketIDs(out []Span, text string, n int, minScore func(string) float64) []Span {
	for k := 0; k < n; k++ {
		sp := out[k]
		if sp.Type != TypePerson || sp.Score < minScore(TypePerson) {
			continue
		}
		i := sp.End
		if i+2 >= len(text) || text[i] != ' ' && text[i] != '(' {
			continue
		}
		if text[i] == ' ' {
			i++
		}
		if text[i] != '(' {
			continue
		}
		i++
		e, digits, letters := tokenAt(text, i, 12)
		if e >= len(text) || text[e] != ')' && !nationalityThen(text, e) || digits < 6 || e-i < 6 || e-i > 10 || digits+letters != e-i || digits < 8 && letters == 0 {
			continue
		}
		covered := false
		for q := 0; q < len(out); q++ {
			// a candidate below its type's threshold is dropped later, and covers nothing (the
			// whole-text scan scores candidates the windowed one never makes: both must agree)
			if out[q].Start <= i && e <= out[q].End && out[q].Type != TypePerson && out[q].Score >= minScore(out[q].Type) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, Span{Start: i, End: e, Type: TypePassport, Text: text[i:e], Score: 0.75, Source: "record"})
		}
	}
	return out
}

// phoneListWords join the numbers of a list of phones ("móvil 06 12 48 93 27 y el de su mujer
// +33 …", "Portugal +351 …, Rumanía 0721 348 912", "cell 415-555-0172, work (212) …").
var phoneListWords = words(`y i e o u and or ou eta edo et oder`)

// appendPhoneList: after a phone number at end, the next number of a list on the same line: a
// comma, a semicolon, a slash or a conjunction, then up to five words (a country, "el de su
// mujer", "work", "fix"), then a phone-shaped number — 9 to 13 digits in groups of 2 to 4 joined by one space, dot or dash (a bracketed area code too), no
// word or amount sign after it. The numbers it adds are followed in turn.
func appendPhoneList(out []Span, text string, end int, ws []word, fc *folder) []Span {
	p := dateParser{text: text, ws: ws, fc: fc}
	for k := 0; k < 4; k++ {
		i := end
		joined := false
		for i < len(text) && (text[i] == ' ' || text[i] == ',' || text[i] == ';' || text[i] == '/') {
			joined = joined || text[i] != ' '
			i++
		}
		for n := 0; n < 5 && i < len(text) && !isDigitByte(text[i]) && text[i] != '+' && text[i] != '('; n++ {
			f, e := p.foldAt(i)
			if e < 0 {
				return out
			}
			joined = joined || phoneListWords[f]
			i = e
			for i < len(text) && (text[i] == ' ' || text[i] == ',' || text[i] == ':') {
				i++
			}
		}
		if !joined || i >= len(text) || i-end > 40 {
			return out
		}
		e := phoneShapeAt(text, i)
		if e == 0 {
			return out
		}
		if !phoneVeto(text, i, e) {
			out = append(out, Span{Start: i, End: e, Type: TypePhone, Text: text[i:e], Score: 0.7, Source: "cue"})
		}
		end = e
	}
	return out
}

// phoneShapeAt returns the end of a phone-shaped number at i (see appendPhoneList), or 0: a
// '+', a bracket or a digit first, 9 to 13 digits.
func phoneShapeAt(text string, i int) int {
	j := i
	if text[j] == '+' {
		j++
	} else if text[j] == '(' {
		// "(212) 555-0148"
	} else if !isDigitByte(text[j]) || text[j] == '0' && (j+1 >= len(text) || text[j+1] == '0') {
		return 0
	}
	digits, group := 0, 0
	for j < len(text) {
		c := text[j]
		switch {
		case isDigitByte(c):
			digits++
			group++
			j++
			continue
		case c == '(' && digits == 0 || c == ')' && group >= 1 && group <= 4:
			group = 0
			j++
			if j < len(text) && text[j] == ' ' {
				j++
			}
			continue
		case (c == ' ' || c == '.' || c == '-') && group >= 1 && j+1 < len(text) && isDigitByte(text[j+1]):
			group = 0
			j++
			continue
		}
		break
	}
	if digits < 9 || digits > 13 || j < len(text) && isWordByte(text[j]) {
		return 0
	}
	return j
}

// appendPassportBefore: a value right before a bracketed passport cue ("NX4F81K27 (passport)").
func appendPassportBefore(out []Span, text string, h cueHit) []Span {
	i := h.start
	if i < 2 || text[i-1] != '(' {
		return out
	}
	i--
	for i > 0 && text[i-1] == ' ' {
		i--
	}
	e := i
	for i > 0 && isAlnum(text[i-1]) {
		i--
	}
	if i > 0 && isWordByte(text[i-1]) {
		return out
	}
	digits := 0
	for k := i; k < e; k++ {
		if isDigitByte(text[k]) {
			digits++
		}
	}
	if n := e - i; n < 6 || n > 10 || digits < 4 {
		return out
	}
	return append(out, Span{Start: i, End: e, Type: TypePassport, Text: text[i:e], Score: 0.85, Source: "cue"})
}

// appendPlate: after a plate cue, a current Spanish plate in any case (4 digits, an optional
// space or dash, 3 consonants of the plates: "matrícula 4821 kfl", "placa 1234-bcd") or a
// British one (AB12 CDE), and the next plates of a list on the same line ("… 9921-LMN and the UK
// one AB12 CDE").
func appendPlate(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	from, wi := h.end, h.last+1
	for k := 0; k < 4 && wi < len(ws) && ws[wi].start-from <= 3; k++ { // "matrícula francesa", "German plates"
		if !plateFillers[string(ws[wi].fold(fc))] || ws[wi].end < len(text) && isDigitByte(text[ws[wi].end]) {
			break
		}
		from, wi = ws[wi].end, wi+1
	}
	at := nextValue(text, from, 24, 3, false, fc, ws, wi)
	if at < 0 || at > 0 && isWordByte(text[at-1]) {
		return out
	}
	for k := 0; k < 3; k++ {
		e := plateAt(text, at)
		if e == 0 {
			e = foreignPlateAt(text, at)
		}
		if e == 0 {
			return out
		}
		out = append(out, Span{Start: at, End: e, Type: TypePlate, Text: text[at:e], Score: 0.85, Source: "cue"})
		// the next plate of a list: a comma or a conjunction, up to three more words
		next := -1
		for j, joined := e, false; j < min(len(text), e+32) && text[j] != '\n'; j++ {
			if text[j] == ',' || text[j] == '/' {
				joined = true
			}
			if j > e && text[j-1] == ' ' && joined && (plateAt(text, j) > 0 || foreignPlateAt(text, j) > 0) && !referenceBefore(text, j) {
				next = j
				break
			}
			if j > e && text[j-1] == ' ' && (text[j] == 'y' || text[j] == 'i' || text[j] == 'e' || text[j] == 'o' || strings.HasPrefix(text[j:], "and ") || strings.HasPrefix(text[j:], "or ")) {
				joined = true
			}
		}
		if next < 0 {
			return out
		}
		at = next
	}
	return out
}

// plateAt returns the end of a plate at i (see appendPlate), or 0.
func plateAt(text string, i int) int {
	consonant := func(c byte) bool {
		return strings.IndexByte("bcdfghjklmnprstvwxyz", c|0x20) >= 0 && isASCIILetterByte(c)
	}
	if i+7 <= len(text) && allDigits(text[i:i+4]) {
		j := i + 4
		if text[j] == ' ' || text[j] == '-' {
			j++
		}
		if j+3 <= len(text) && consonant(text[j]) && consonant(text[j+1]) && consonant(text[j+2]) && wordEnd(text, j+3) {
			return j + 3
		}
		return 0
	}
	// AB12 CDE
	up := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	if i+7 <= len(text) && up(text[i]) && up(text[i+1]) && isDigitByte(text[i+2]) && isDigitByte(text[i+3]) {
		j := i + 4
		if text[j] == ' ' {
			j++
		}
		if j+3 <= len(text) && up(text[j]) && up(text[j+1]) && up(text[j+2]) && wordEnd(text, j+3) {
			return j + 3
		}
	}
	return 0
}

// digitsOnlyAt returns the end of the run of digits at i when nothing word-like or another
// group of digits follows it, or i.
func digitsOnlyAt(text string, i int) int {
	k := i
	for k < len(text) && isDigitByte(text[k]) {
		k++
	}
	if k < len(text) && (isWordByte(text[k]) || (text[k] == '.' || text[k] == '-' || text[k] == '/' || text[k] == ' ') && k+1 < len(text) && isDigitByte(text[k+1])) {
		return i
	}
	return k
}

// cardWords name a payment card.
var cardWords = []string{"tarjeta", "card", "targeta", "tarxeta", "txartel", "visa", "mastercard", "amex", "maestro", "cvv", "cvc",
	"cartón", "carton", "cartão", "cartao", "karte", "kreditkarte"}

// cardNear: a card number among spans, or a card word, within 150 bytes of at.
func cardNear(lower []byte, at int, spans []Span) bool {
	for _, sp := range spans {
		if sp.Type == TypeCard && sp.End > at-150 && sp.Start < at+150 {
			return true
		}
	}
	lo, hi := max(0, at-150), min(len(lower), at+150)
	for _, w := range cardWords {
		if containsWordStart(lower[lo:hi], w) {
			return true
		}
	}
	return false
}

// legalForms end a company's name ("Banco Santander, S.A.", "Transportes Mayo SL").
var legalForms = words(`sa sl slu sau sll scoop coop cb sc ltd limited gmbh inc llc plc sas sarl srl spa bv nv ag`)

// namedCompanyBefore: a CIF whose company is named right before it, on the same line and within
// 70 bytes — a name ending in a legal form ("…, S.L., con CIF B12345678", "Gestión SL (CIF …)")
// — is that company's published tax id, not a person's data. A CIF with no company named (the
// company with tax id …) is left to the policy.
func namedCompanyBefore(text string, start, _ int) bool {
	lo := max(0, start-70)
	if k := strings.LastIndexByte(text[lo:start], '\n'); k >= 0 {
		lo += k + 1
	}
	seg := text[lo:start]
	for i := 0; i < len(seg); {
		for i < len(seg) && !isASCIILetterByte(seg[i]) {
			i++
		}
		j := i
		var buf [8]byte
		n := 0
		for j < len(seg) && (isASCIILetterByte(seg[j]) || seg[j] == '.' && j+1 < len(seg) && isASCIILetterByte(seg[j+1])) {
			if seg[j] != '.' && n < len(buf) {
				buf[n] = seg[j] | 0x20
				n++
			}
			j++
		}
		if j > i && j-i <= 8 && seg[i] >= 'A' && seg[i] <= 'Z' && (i == 0 || !isWordByte(seg[i-1])) && (j == len(seg) || !isWordByte(seg[j])) && legalForms[string(buf[:n])] {
			return true
		}
		if j == i {
			i++
		} else {
			i = j
		}
	}
	return false
}

// nationalityThen: ", <nationality or country>)" at e — the holder's nationality after the
// number in brackets ("Wang Lei (E91827364, china)", "(AB1234567, mexicana)").
func nationalityThen(text string, e int) bool {
	if e+3 >= len(text) || text[e] != ',' {
		return false
	}
	i := e + 1
	for i < len(text) && text[i] == ' ' {
		i++
	}
	k := i
	for k < len(text) && k-i < 24 && (isASCIILetterByte(text[k]) || text[k] >= 0x80) {
		k++
	}
	if k >= len(text) || text[k] != ')' || k == i {
		return false
	}
	return nationalities[fold(text[i:k])]
}

// nationalities: the nationality adjectives and countries a branch writes after a foreign
// customer's passport number (folded).
var nationalities = words(`china chino chinese mexicana mexicano mexican mexico colombiana colombiano colombia venezolana
	venezolano venezuela peruana peruano peru argentina argentino ecuatoriana ecuatoriano ecuador marroqui marroquina
	moroccan marruecos rumana rumano romanian rumania romania ucraniana ucraniano ukrainian ucrania ukraine rusa ruso
	russian rusia russia britanica britanico british uk francesa frances french francia france alemana aleman german
	alemania germany italiana italiano italian italia italy portuguesa portugues portuguese portugal estadounidense
	american usa us eeuu india indio indian pakistani paquistani pakistan brasilena brasileno brazilian brasil brazil
	filipina filipino philippines senegalesa senegales senegal nigeriana nigeriano nigerian nigeria argelina argelino
	cubana cubano cuba dominicana dominicano boliviana boliviano bolivia paraguaya paraguayo uruguaya uruguayo chilena
	chileno chile hondurena hondureno irlandesa irlandes irish irlanda ireland polaca polaco polish polonia poland bulgara
	bulgaro bulgaria japonesa japones japanese japon japan coreana coreano korean corea korea georgiana georgiano
	albanesa albanes armenia armenio turca turco turkish turquia vietnamita bangladesi egipcia egipcio siria sirio
	xinesa xines txinatarra chinesa chines mexicà mexicana`)

// Round 10 (issue #13): phone numbers as people type them when no pattern holds — a letter O
// for a zero ("60O 22 15 48"), groups of one and two ("6 44 81 20 93"), a Basque case ending
// glued to the last group ("943 56 18 02ra"), the digits read out in words after a phone word
// ("mi número es el seis cuatro nueve, doce, treinta y tres, ochenta y ocho"). Each is a Spanish
// number (nine digits, the first 6 to 9); all but the case ending need a phone word shortly
// before, on the same line (a list of small figures is not a phone without one).

// phoneCueWords: the words (folded) that say a phone number follows, and their stems.
var phoneCueWords = words(`tel telf tlf tfno tfn telefono telefon telephone phone movil mobil mobile mvl cell celular
	whatsapp wasap fijo numero number zenbakia llamar llamemos llame llamen llama llamad llamo call ring
	truca truqueu trucar truqui deitu deitzeko telefonoa mugikorra mugikor`)

// phoneCaseEndings: the case endings Basque writes glued to a figure ("688 21 04 73ra", "-ra"
// is written with a dash too, and then the number ends at its word boundary anyway).
var phoneCaseEndings = strings.Fields(`ra an ean n ko tik etik ri ari rekin ekin era ren z ez`)

// appendLoosePhoneAt appends to extra the phone of the forms above that starts at i (a digit 6
// to 9 at a word's start, see appendAddresses' pass over the figures) when no span of others
// holds it, and returns where it ends (0 if none).
func appendLoosePhoneAt(extra, others []Span, text string, ws []word, fc *folder, i int) ([]Span, int) {
	if i > 0 && text[i-1] == '+' {
		return extra, 0
	}
	e, oh, groups, glued := loosePhoneAt(text, i)
	if e == 0 || overlapsAny(others, i, e) {
		return extra, 0
	}
	// a standard grouping failed only because of a glued Basque ending; any other form needs a
	// phone word before it
	if !(glued && !oh && groups <= 4) && !phoneCueBefore(text, ws, fc, i) || referenceBefore(text, i) {
		return extra, 0
	}
	return append(extra, Span{Start: i, End: e, Type: TypePhone, Text: text[i:e], Score: 0.7, Source: "cue"}), e
}

// overlapsAny: some span of spans overlaps [s, e).
func overlapsAny(spans []Span, s, e int) bool {
	for _, sp := range spans {
		if sp.Start < e && s < sp.End {
			return true
		}
	}
	return false
}

// loosePhoneAt reads a nine-digit Spanish number at i: digits (an 'O' or 'o' next to a digit
// counts as a zero, at most two), in groups of one to four joined by one space, dot or dash (or
// " - "), ending at a word boundary or at a glued Basque case ending. It returns the end of the
// digits (0 if none), whether an O was read, the number of groups and whether an ending is glued.
func loosePhoneAt(text string, i int) (end int, oh bool, groups int, glued bool) {
	digits, group, os := 0, 0, 0
	j := i
	for j < len(text) && digits <= 9 {
		c := text[j]
		switch {
		case isDigitByte(c):
			digits++
			group++
			j++
			continue
		case (c == 'O' || c == 'o') && group > 0 && os < 2 && (j+1 >= len(text) || !isASCIILetterByte(text[j+1]) ||
			j+1 < len(text) && (text[j+1] == 'O' || text[j+1] == 'o') && (j+2 >= len(text) || !isASCIILetterByte(text[j+2]))):
			// "60O", "6O9": an O after a digit, not the first letter of a word ("6 octubre")
			digits++
			group++
			os++
			j++
			continue
		case group > 0 && group <= 4 && (c == ' ' || c == '.' || c == '-'):
			k := j + 1
			if c == ' ' && k+1 < len(text) && text[k] == '-' && text[k+1] == ' ' {
				k += 2 // "6 8 8 - 2 1 0"
			}
			if k < len(text) && isDigitByte(text[k]) {
				groups++
				group = 0
				j = k
				continue
			}
		}
		break
	}
	if group > 0 {
		groups++
	}
	if digits != 9 || group > 4 && groups > 1 {
		return 0, false, 0, false
	}
	if j < len(text) && isWordByte(text[j]) {
		k := j
		for k < len(text) && isASCIILetterByte(text[k]) {
			k++
		}
		if os > 0 || k == j || k-j > 5 || k < len(text) && isWordByte(text[k]) || !phoneCaseEnding(text[j:k]) {
			return 0, false, 0, false
		}
		glued = true
	}
	if os == 0 && !glued && groups <= 4 {
		return 0, false, 0, false // a standard form: the phone patterns' (or a grouping they refuse)
	}
	return j, os > 0, groups, glued
}

// phoneCaseEnding: w is one of phoneCaseEndings, in any case, without allocating.
func phoneCaseEnding(w string) bool {
	for _, e := range phoneCaseEndings {
		if strings.EqualFold(w, e) {
			return true
		}
	}
	return false
}

// phoneCueBefore: a phone word within the seven words (and 48 bytes) before i, on the same line
// ("el tlf de la filla (laia) es …").
func phoneCueBefore(text string, ws []word, fc *folder, i int) bool {
	k := lastWordBefore(ws, i)
	for step := 0; k >= 0 && step < 7 && i-ws[k].end <= 48; step, k = step+1, k-1 {
		if strings.IndexByte(text[ws[k].end:i], '\n') >= 0 {
			return false
		}
		if phoneCueWords[string(ws[k].fold(fc))] {
			return true
		}
	}
	return false
}

// wordBefore returns the index of the last word that ends at or before i, or -1.
func lastWordBefore(ws []word, i int) int {
	lo, hi := 0, len(ws)
	for lo < hi {
		m := (lo + hi) / 2
		if ws[m].end <= i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// round10Start: what the first three bytes (lower case) of a word of three bytes or more may
// start — a phone word before digits said in words (tel tlf tfn pho mov mob mvl cel num wha was
// fij zen lla mug, "mó"/"mò", "nú"; the verbs "call", "truca", "ring", "deitu" share their start
// with too many other words to be tried here), a document's name of seven bytes or more (ide
// idk per aus pas rei nor, "d'i"/"l'i"/"d’" before an elided one), "card"/"karte" after "ID" —
// or nothing (0), for most words, with one switch on an integer: no fold, no lookup.
func round10Start(b []byte) uint8 {
	if round10Pairs[b[0]][b[1]>>6]&(1<<(b[1]&63)) == 0 {
		return 0 // one bit test for most words
	}
	switch uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2]) {
	case 0x74656c, 0x746c66, 0x74666e, 0x74666f, 0x70686f, 0x6d6f76, 0x6d6f62, 0x6d766c, 0x63656c, 0x6e756d, 0x776861,
		0x776173, 0x66696a, 0x7a656e, 0x6c6c61, 0x6dc3b3, 0x6dc3b2, 0x6ec3ba, 0x6d7567:
		if hasAnyPrefix(b, round10PhonePrefixes) {
			return round10Phone
		}
	case 0x696465, 0x69646b, 0x706572, 0x617573, 0x706173, 0x726569, 0x6e6f72, 0x642769, 0x6c2769, 0x64e280:
		if len(b) >= 7 && hasAnyPrefix(b, round10DocPrefixes) {
			return round10Doc
		}
	case 0x636172, 0x6b6172:
		return round10Card
	}
	return 0
}

// round10Pairs: the first two bytes of round10Start's cases, as a 256-bit set per first byte.
var round10Pairs = func() (t [256][4]uint64) {
	for _, p := range [][2]byte{{'t', 'e'}, {'t', 'l'}, {'t', 'f'}, {'p', 'h'}, {'m', 'o'}, {'m', 'v'}, {'m', 0xc3}, {'m', 'u'},
		{'c', 'e'}, {'n', 'u'}, {'n', 0xc3}, {'w', 'h'}, {'w', 'a'}, {'f', 'i'}, {'z', 'e'}, {'l', 'l'}, {'i', 'd'}, {'p', 'e'},
		{'a', 'u'}, {'p', 'a'}, {'r', 'e'}, {'n', 'o'}, {'d', '\''}, {'l', '\''}, {'d', 0xe2}, {'c', 'a'}, {'k', 'a'}} {
		t[p[0]][p[1]>>6] |= 1 << (p[1] & 63)
	}
	return t
}()

// round10PhonePrefixes and round10DocPrefixes: what the word must start with once its first
// three bytes matched ("movimientos", "personal", "pasado", "reintegro", "normal" must not cost
// a fold and a lookup each).
var (
	round10PhonePrefixes = []string{"tel", "tlf", "tfn", "tfno", "phone", "movil", "mobil", "mvl", "cell", "celular",
		"numero", "number", "whatsapp", "wasap", "fijo", "zenbaki", "llam", "mugikor", "m\u00f3vil", "m\u00f3bil", "m\u00f2bil", "n\u00famero"}
	round10DocPrefixes = []string{"identi", "idkart", "personalausweis", "ausweis", "pasap", "passp", "passa", "passe",
		"paszp", "paspo", "reisepass", "nortasun", "d'identi", "l'identi", "d\u2019identi"}
)

// hasAnyPrefix: b starts with one of ps.
func hasAnyPrefix(b []byte, ps []string) bool {
	for _, p := range ps {
		if len(b) >= len(p) && string(b[:len(p)]) == p {
			return true
		}
	}
	return false
}

const (
	round10Phone = 1 + iota
	round10Doc
	round10Card
)

// round10Word runs the round's word rules on word k, whose start round10Start read as kind,
// from appendResidenceTowns' pass over the words: digits said in words after a phone word
// (appendWordPhoneAt) and a document's number after its name (appendIDDocumentAt). They append
// to extra; others are the spans found so far.
func round10Word(extra, others []Span, text string, ws []word, fc *folder, k int, kind uint8) []Span {
	switch kind {
	case round10Phone:
		return appendWordPhoneAt(extra, others, text, ws, fc, k)
	case round10Doc:
		return appendIDDocumentAt(extra, others, text, ws, fc, k)
	case round10Card:
		if k > 0 && ws[k-1].end-ws[k-1].start == 2 && fc.lower[ws[k-1].start] == 'i' && fc.lower[ws[k-1].start+1] == 'd' {
			return appendIDDocumentAt(extra, others, text, ws, fc, k)
		}
	}
	return extra
}

// digitWithin: a digit within n bytes after i, on the same line.
func digitWithin(text string, i, n int) bool {
	for e := min(len(text), i+n); i < e && text[i] != '\n'; i++ {
		if isDigitByte(text[i]) {
			return true
		}
	}
	return false
}

// numberWordDigits: a number word (folded) and how many digits it reads as, and its first digit;
// es, ca, gl, en, and the Basque units. "y"/"i"/"e"/"and" join a ten and its unit ("treinta y tres").
var numberWordDigits = map[string][2]int8{
	"cero": {1, 0}, "zero": {1, 0}, "uno": {1, 1}, "un": {1, 1}, "una": {1, 1}, "u": {1, 1}, "one": {1, 1},
	"dos": {1, 2}, "two": {1, 2}, "tres": {1, 3}, "three": {1, 3}, "cuatro": {1, 4}, "quatre": {1, 4}, "catro": {1, 4}, "four": {1, 4},
	"cinco": {1, 5}, "cinc": {1, 5}, "five": {1, 5}, "seis": {1, 6}, "sis": {1, 6}, "six": {1, 6},
	"siete": {1, 7}, "set": {1, 7}, "sete": {1, 7}, "seven": {1, 7}, "ocho": {1, 8}, "vuit": {1, 8}, "oito": {1, 8}, "eight": {1, 8},
	"nueve": {1, 9}, "nou": {1, 9}, "nove": {1, 9}, "nine": {1, 9}, "oh": {1, 0},
	"diez": {2, 1}, "once": {2, 1}, "doce": {2, 1}, "trece": {2, 1}, "catorce": {2, 1}, "quince": {2, 1}, "dieciseis": {2, 1},
	"diecisiete": {2, 1}, "dieciocho": {2, 1}, "diecinueve": {2, 1}, "ten": {2, 1}, "eleven": {2, 1}, "twelve": {2, 1},
	"veinte": {2, 2}, "veinti": {2, 2}, "veintiuno": {2, 2}, "veintidos": {2, 2}, "veintitres": {2, 2}, "veinticuatro": {2, 2},
	"veinticinco": {2, 2}, "veintiseis": {2, 2}, "veintisiete": {2, 2}, "veintiocho": {2, 2}, "veintinueve": {2, 2},
	"treinta": {-2, 3}, "cuarenta": {-2, 4}, "cincuenta": {-2, 5}, "sesenta": {-2, 6}, "setenta": {-2, 7}, "ochenta": {-2, 8},
	// Galician, Catalan and Basque that the lines above do not hold
	"unha": {1, 1}, "dous": {1, 2}, "dues": {1, 2}, "bat": {1, 1}, "bi": {1, 2}, "hiru": {1, 3}, "lau": {1, 4}, "bost": {1, 5},
	"sei": {1, 6}, "zazpi": {1, 7}, "zortzi": {1, 8}, "bederatzi": {1, 9}, "dez": {2, 1}, "deu": {2, 1}, "onze": {2, 1},
	"dotze": {2, 1}, "tretze": {2, 1}, "catorze": {2, 1}, "quinze": {2, 1}, "setze": {2, 1}, "disset": {2, 1}, "divuit": {2, 1},
	"dinou": {2, 1}, "dezaseis": {2, 1}, "dezasete": {2, 1}, "dezaoito": {2, 1}, "dezanove": {2, 1}, "vinte": {-2, 2},
	"vint": {-2, 2}, "trinta": {-2, 3}, "corenta": {-2, 4}, "oitenta": {-2, 8}, "hamar": {2, 1},
	"noventa": {-2, 9}, "twenty": {-2, 2}, "thirty": {-2, 3}, "forty": {-2, 4}, "fifty": {-2, 5}, "sixty": {-2, 6},
	"seventy": {-2, 7}, "eighty": {-2, 8}, "ninety": {-2, 9}, "trenta": {-2, 3}, "quaranta": {-2, 4}, "cinquanta": {-2, 5},
	"seixanta": {-2, 6}, "setanta": {-2, 7}, "vuitanta": {-2, 8}, "noranta": {-2, 9}, "double": {0, -1}, "doble": {0, -1},
}

// appendWordPhones: after a phone word, and at most six other words ("es el", "de su hija es el"), nine
// digits read out in number words, separated by spaces, commas or dashes. A ten (-2 above)
// takes its unit after "y"/"and" or a dash ("treinta y tres", "forty-two").
func appendWordPhoneAt(out, others []Span, text string, ws []word, fc *folder, k int) []Span {
	for once := true; once; once = false {
		if !phoneCueWords[string(ws[k].fold(fc))] || digitWithin(text, ws[k].end, 48) {
			continue // not a phone word, or the number in figures (the common case): no words to read
		}
		j := k + 1
		for f := 0; f < 6 && j < len(ws) && strings.IndexAny(text[ws[j-1].end:ws[j].start], ".\n;") < 0; f++ {
			if _, ok := numberWordDigits[string(ws[j].fold(fc))]; ok {
				break
			}
			j++ // "es el", "de palabra, el", "is"
		}
		digits, first, start, end, gap, tens, double := 0, -1, -1, -1, -1, false, false
		for ; j < len(ws) && digits < 10; j++ {
			if gap >= 0 && strings.Trim(text[gap:ws[j].start], " ,-") != "" {
				break
			}
			gap = ws[j].end
			f := string(ws[j].fold(fc))
			if tens && (f == "y" || f == "and" || f == "i" || f == "e") && j+1 < len(ws) {
				continue
			}
			d, ok := numberWordDigits[f]
			if !ok {
				if v := strings.IndexByte(f, '-'); v > 0 { // "forty-two", "vint-i-tres"
					d, ok = numberWordDigits[f[:v]]
				}
				if !ok {
					break
				}
			}
			if start < 0 {
				start = ws[j].start
			}
			if d[0] == 0 {
				double = true
				end = ws[j].end
				continue
			}
			if tens && d[0] == 1 && d[1] > 0 {
				tens = false // the unit of "treinta y tres": no new digit
				end = ws[j].end
				continue
			}
			if first < 0 {
				first = int(d[1])
			}
			n := int(d[0])
			tens = n < 0
			if tens {
				n = 2
			}
			if double {
				n *= 2
				double = false
			}
			digits += n
			end = ws[j].end
		}
		if digits == 9 && first >= 6 && !overlapsAny(out, start, end) && !overlapsAny(others, start, end) {
			out = append(out, Span{Start: start, End: end, Type: TypePhone, Text: text[start:end], Score: 0.7, Source: "cue"})
		}
	}
	return out
}

// Round 10 (issue #13): identity cards and passports of other countries, further along the
// sentence after their name — an Italian CIE ("carta d'identità CA18274PX", two letters, five
// digits, two letters), a German Personalausweis ("ID card L01X00T47", nine characters of its
// alphabet), a Russian passport as printed ("el pasaporte ruso … es el 75 4418203"), any number
// in capitals and digits after an identity card's name. The cue must stand in the same sentence
// with only words (and brackets, commas, "n.", "no.") between: an order's or an invoice's code of
// the same shape has no such cue, and one named by a reference word is left.

// idDocWords: the folded words that name an identity document (the Spanish DNI's own words are
// the DNI rules'; a DNI-shaped value is left to them).
var idDocWords = words(`identita identity identitat identidad identidade identite personalausweis ausweis
	idkarte pasaporte passport pasaport passaporto reisepass passeport paszport paspoort pasaportea
	nortasun`)

// notDocumentWords name a code that is not the document's number.
var notDocumentWords = words(`code codes codigo codi kodea pin clave password contrasena token verification verificacion
	check theft robo fraud fraude office oficina`)

// appendIDDocumentAt appends to out the document number after word k (a document's name, see
// round10Word) when no span of others (the other rules') or of out holds it.
func appendIDDocumentAt(out, others []Span, text string, ws []word, fc *folder, k int) []Span {
	w := &ws[k]
	for once := true; once; once = false {
		f := w.fold(fc)
		if h := bytes.IndexByte(f, '-'); h > 3 {
			f = f[:h] // "Personalausweis-Nr."
		}
		if len(f) > 4 && (f[0] == 'd' || f[0] == 'l') && !isASCIILetterByte(f[1]) { // "d'identità", "d’identitat"
			f = f[1:]
			for len(f) > 0 && !isASCIILetterByte(f[0]) {
				f = f[1:]
			}
		}
		if !idDocWords[string(f)] {
			if string(f) != "card" && string(f) != "karte" || k == 0 || string(ws[k-1].fold(fc)) != "id" {
				continue // "card" only as "ID card"
			}
		}
		at, end := idDocumentAfter(text, fc.lower, w.end)
		if at < 0 || referenceBefore(text, at) {
			continue
		}
		if idDocumentCovered(others, at, end) || idDocumentCovered(out, at, end) {
			continue
		}
		// a piece read by another rule ("09412773" of "N09412773") gives way to the whole
		for q := range others {
			if at <= others[q].Start && others[q].End <= end && others[q].Type != TypePerson {
				others[q].Score = 0
			}
		}
		out = append(out, Span{Start: at, End: end, Type: TypePassport, Text: text[at:end], Score: 0.85, Source: "cue"})
	}
	return out
}

// idDocumentCovered: a span of another rule already covers [at, end), or crosses it; a piece
// of it ("09412773" of "N09412773") does not count, nor a company's CIF of its shape (after a
// document's name, "N0941277" + "3" is the document's).
func idDocumentCovered(spans []Span, at, end int) bool {
	for _, sp := range spans {
		if sp.Start < end && at < sp.End && sp.Type != TypeCIF && !(at <= sp.Start && sp.End <= end && sp.End-sp.Start < end-at) {
			return true
		}
	}
	return false
}

// idDocumentAfter: the first figure within 80 bytes after from in the same sentence, after only
// words, spaces, commas, quotes, brackets and colons, when it is a document number (see
// above): its start and end, or -1, 0.
func idDocumentAfter(text string, lower []byte, from int) (int, int) {
	end := min(len(text), from+80)
	for i := from; i < end; i++ {
		c := text[i]
		if c == '\n' || c == ';' || c == '.' && !(i > 0 && isASCIILetterByte(text[i-1]) && i-from < 40 && i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == ':')) {
			return -1, 0 // a sentence's end ("n." and "no." abbreviate a number: read on)
		}
		if i > 0 && isWordByte(text[i-1]) || !isAlnum(c) {
			continue
		}
		if isASCIILetterByte(c) {
			// a word between the cue and the value that names another thing's code ("identity
			// verification code 4X7Y…", "passport office ref AB123…"): not the document's number
			w := i
			for w < len(text) && isASCIILetterByte(text[w]) && w-i < 16 {
				w++
			}
			if lw := lower[i:w]; notDocumentWords[string(lw)] || referenceSet[string(lw)] {
				return -1, 0
			}
		}
		if i+10 <= len(text) && allDigits(text[i:i+2]) && text[i+2] == ' ' && allDigits(text[i+3:i+10]) && wordEnd(text, i+10) {
			return i, i + 10 // the Russian "75 4418203"
		}
		e, digits, letters := tokenAt(text, i, 12)
		if digits == 0 {
			continue // a word
		}
		v := text[i:e]
		if k := e - i; k < 7 || k > 10 || digits+letters != k || digits < 3 || letters == 0 || !wordEnd(text, e) ||
			strings.IndexFunc(v, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 || isDNIOrNIE(v) {
			return -1, 0
		}
		return i, e
	}
	return -1, 0
}
