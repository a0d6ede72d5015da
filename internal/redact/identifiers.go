package redact

import (
	"bytes"
	"strings"
)

// Identifier forms added for issue #13 (recall on realistic branch text). Each is a built-in
// recognizer like those in recognizers.go — a regexp2 pattern tried at candidate starts (first
// functions below, written from the pattern), validated in Go — so the candidate tests and the
// fuzzers cover them with the rest. The checksummed ones (7-digit DNI, ES-prefixed NIF, CCC)
// are read by the exit scan too; the others are loose (see builtin.loose).

// plateProvinces are the province codes of the old plates (M-1234-AB), before 2000.
const plateProvinces = `(?:A|AB|AL|AV|B|BA|BI|BU|C|CA|CC|CE|CO|CR|CS|CU|GC|GE|GI|GR|GU|H|HU|IB|J|L|LE|LO|LU|M|MA|ML|MU|NA|O|OR|OU|P|PM|PO|S|SA|SE|SG|SO|SS|T|TE|TF|TO|V|VA|VI|Z|ZA)`

var plateContext = []string{"matrícula", "matricula", "coche", "vehículo", "vehiculo", "moto", "furgoneta", "turismo",
	"plate", "car ", "vehicle", "registration", "cotxe", "matrícola", "auto"}

var phoneContext = []string{"tel", "teléfono", "telefono", "móvil", "movil", "llama", "fijo", "whatsapp", "contacto",
	"phone", "mobile", "call", "contact", "number", "número", "numero", "telèfon", "mòbil", "llamo desde", "llamó desde",
	"llamado desde", "called from", "rang from", "ringing from", "trucat des", "chamou desde", "chamoume desde"}

func moreBuiltins() []builtin {
	return []builtin{
		// A DNI written without its leading zero: 7 digits, compact or dotted, and the letter of
		// the zero-padded number. A space before the letter only for a capital ("1234567 A",
		// not "1 234 567 a" in an amount).
		{name: "es_dni7", first: firstDNI7, starts: startDigits, maxLen: 11, lead: leadDigits, cluster: cluster{7, 1, 0}, typ: TypeDNI, score: 0.7, validator: "dni", failVeto: dniVeto, need: minDigits(7),
			pattern: wb + `\d(?:\.\d{3}\.\d{3}|\d{6})(?:-?[A-Za-z]|[ ][A-Z])` + we,
			context: []string{"dni", "nif", "documento", "identidad", "d.n.i", "id card", "national id", "identity"}},
		// A NIF as VAT number: ES + DNI (ES12345678Z, ES-12.345.678-Z, ES 12345678Z).
		{name: "es_nif_vat", first: firstNIFVAT, starts: "Ee", maxLen: 14, lead: leadDigits, cluster: cluster{8, 3, 0}, typ: TypeDNI, score: 0.7, validator: "esnif", need: minDigits(8),
			pattern: wb + `(?:ES[- ]?|[Ee][Ss])\d{2}(?:\d{6}|\.\d{3}\.\d{3})-?[A-Za-z]` + we,
			context: []string{"nif", "vat", "iva", "dni", "fiscal"}},
		// The old 20-digit account (entity, office, 2 control digits, account), in any grouping.
		{name: "es_ccc", first: digitLed(20), starts: startDigits, maxLen: 40, lead: leadDigits, cluster: cluster{20, 1, 0}, typ: TypeCCC, score: 0.8, validator: "ccc", need: minDigits(20), veto: ibanHeadBefore,
			pattern: wb + `\d(?:[ -]?\d){19}` + we,
			context: []string{"cuenta", "ccc", "libreta", "account", "conta", "compte"}},
		{name: "es_plate", first: firstPlate, starts: startDigits, maxLen: 8, lead: leadDigits, cluster: cluster{4, 1, 0}, typ: TypePlate, score: 0.5, loose: true, need: minDigits(4),
			pattern: wb + `\d{4}[ -]?[BCDFGHJKLMNPRSTVWXYZ]{3}` + we,
			context: plateContext},
		// Old provincial plates (M-1234-AB), and the special plates of a letter (C moped, R
		// trailer, E special vehicle, H historic) + four digits + three consonants (C1928BCD,
		// R-4821-BBC), in one recognizer: one candidate pass.
		{name: "es_plate_old", first: firstOldPlate, starts: "ABCEGHIJLMNOPRSTVZ", maxLen: 11, lead: leadDigits, cluster: cluster{4, 3, 0}, typ: TypePlate, score: 0.5, loose: true, need: minDigits(4),
			pattern: wb + `(?:[CEHR][ -]?\d{4}[ -]?[BCDFGHJKLMNPRSTVWXYZ]{3}|` + plateProvinces + `[ -]?\d{4}[ -]?[A-Z]{1,2})` + we,
			context: plateContext},
		// UK national numbers: mobiles 07xxx xxxxxx, London 020 xxxx xxxx, other areas 01xxx.
		{name: "uk_phone", first: firstUKPhone, starts: "0", maxLen: 14, lead: leadDigits, cluster: cluster{10, 1, 0}, typ: TypePhone, score: 0.55, loose: true, need: minDigits(10),
			pattern: `(?<![\w+])0(?:7\d{3} ?\d{3} ?\d{3}|20 ?\d{4} ?\d{4}|1\d{3} ?\d{6}|1\d{3} \d{3} \d{3}|1\d{2} ?\d{3} ?\d{4})` + we,
			context: phoneContext, veto: phoneVeto},
		// Other countries' numbers, in one recognizer (one candidate pass), only next to a phone
		// word: national numbers with a trunk 0, 10 to 12 digits in groups (0151 2384 9172, 0721
		// 348 912, 06-41829374); North American ones without brackets (415-555-0172); groups
		// other than Spain's without a trunk 0 (Italian and Colombian mobiles 347 123 4567, Buenos
		// Aires or Mexico City 11 4567-8912, 55 1234 5678).
		{name: "foreign_phone", first: firstForeignPhone, starts: startDigits, maxLen: 16, lead: leadDigits, cluster: cluster{7, 1, 0}, typ: TypePhone, score: 0.2, loose: true, need: minDigits(7),
			refine: refineNationalPhone,
			pattern: `(?<![\w+])0[1-9]\d{1,3}(?:[ .-]?\d{2,4}){2,3}(?![\w]|[ .-]\d)|(?<![\w+])0[1-9]\d{0,3}[ -]\d{6,8}(?![\w]|[ .-]\d)|` +
				`(?<![\w+-])[2-9]\d{2}-\d{3}-\d{4}(?![\w-])|(?<![\w+])(?:[1-9]\d \d{4}[ -]\d{4}|[1-9]\d{2} \d{3} \d{4})(?![\w]|[ .-]\d)`,
			context: nationalPhoneContext, veto: phoneVeto},
		// Phone forms the others do not read, in one recognizer (one candidate pass): French
		// national numbers in five pairs (06 12 48 93 27, 01.42.68.53.00); international numbers
		// with the trunk 0 in brackets (+44 (0)20 7946 0123) or 00 for the '+' (00 44 7700
		// 900123); a Spanish number with the country code in brackets ((+34) 638 29 17 40).
		{name: "other_phone", first: firstOtherPhone, starts: "0+(", maxLen: 24, lead: leadDigits, cluster: cluster{6, 9, 0}, typ: TypePhone, score: 0.55, loose: true, need: minDigits(6), refine: refineIntl00,
			pattern: `(?<![\w+])0[1-9](?: \d{2}){4}(?![\w]| \d)|(?<![\w+])0[1-9](?:\.\d{2}){4}(?![\w]|\.\d)|` +
				`(?<![\w+])\+[1-9]\d{0,2} ?\(0\) ?\d{1,4}(?:[ .-]?\d{2,4}){1,4}(?![\w]|[ .-]\d)|(?<![\w+])00(?: [1-9]\d{0,2}[ .-]?|(?<![./-]00)[1-9]\d{0,2} )\d{1,4}(?:[ .-]?\d{2,4}){1,4}(?![\w]|[ .-]\d)|` +
				`\((?:\+|00) ?34\) ?(?:[6789]\d{8}|[6789]\d{2}[ .-]\d{3}[ .-]\d{3}|[6789]\d{2}[ .-]\d{2}[ .-]\d{2}[ .-]\d{2}|[89]\d[ .-]\d{3}[ .-]\d{2}[ .-]\d{2})` + we,
			context: phoneContext, veto: phoneVeto},
		// North American numbers with the area code in brackets: +1 (415) 555-0198.
		{name: "nanp_phone", first: firstNANP, starts: "+(", maxLen: 20, lead: leadDigits, cluster: cluster{7, 12, 0}, typ: TypePhone, score: 0.6, loose: true, need: minDigits(10),
			pattern: `(?<![\w+])(?:\+1[ .-]?)?\(\d{3}\)[ .-]?\d{3}[ .-]\d{4}` + we,
			context: phoneContext},
	}
}

// nationalPhoneContext: phoneContext and the words for a phone in the languages whose numbers
// national_phone and nanp_plain read.
var nationalPhoneContext = append(append([]string(nil), phoneContext...), "cell", "handy", "festnetz", "telefon", "portable",
	"portátil", "telemóvel", "telemovel", "telefonoa", "mugikorra", "tfno", "tlf", "telf", "home", "work", "office", "celular",
	"cellulare", "cellular", "telefono", "numero", "whatsapp")

// firstFRPhone: (?<![\w+]) + "0", a digit 1-9, then a space or a dot.
func firstFRPhone(t *scanText, i int) bool {
	if p := t.rune(i - 1); isWordRune(p) || p == '+' || t.rune(i) != '0' {
		return false
	}
	r, sep := t.rune(i+1), t.rune(i+2)
	return r >= '1' && r <= '9' && (sep == ' ' || sep == '.')
}

// firstForeignPhone: where one of foreign_phone's alternatives can start.
func firstForeignPhone(t *scanText, i int) bool {
	return firstNationalPhone(t, i) || firstNANPPlain(t, i) || firstGroupedPhone(t, i)
}

// firstOtherPhone: where one of other_phone's alternatives can start.
func firstOtherPhone(t *scanText, i int) bool {
	return firstFRPhone(t, i) || firstE164Trunk(t, i) || firstIntl00(t, i) || firstParenCC(t, i)
}

// firstNationalPhone: (?<![\w+]) + "0", a digit 1-9, then a digit, a space or a dash (not a
// date's "03/03").
func firstNationalPhone(t *scanText, i int) bool {
	if p := t.rune(i - 1); isWordRune(p) || p == '+' || t.rune(i) != '0' {
		return false
	}
	r, r2 := t.rune(i+1), t.rune(i+2)
	return r >= '1' && r <= '9' && (isDigit(r2) || r2 == ' ' || r2 == '-')
}

// firstNANPPlain: (?<![\w+-]) + three digits and a dash.
func firstNANPPlain(t *scanText, i int) bool {
	if p := t.rune(i - 1); isWordRune(p) || p == '+' || p == '-' {
		return false
	}
	return t.digitsAt(i, 3) && t.rune(i+3) == '-'
}

// firstGroupedPhone: (?<![\w+]) + "DD DDDD[ -]DDDD" or "DDD DDD DDDD", checked in full (these
// recognizers are gated, but a loose first would still try the pattern at every such run near a
// phone word).
func firstGroupedPhone(t *scanText, i int) bool {
	if p := t.rune(i - 1); isWordRune(p) || p == '+' || t.rune(i) == '0' {
		return false
	}
	sep := func(j int) bool { r := t.rune(j); return r == ' ' || r == '-' }
	return t.digitsAt(i, 2) && t.rune(i+2) == ' ' && t.digitsAt(i+3, 4) && sep(i+7) && t.digitsAt(i+8, 4) ||
		t.digitsAt(i, 3) && t.rune(i+3) == ' ' && t.digitsAt(i+4, 3) && t.rune(i+7) == ' ' && t.digitsAt(i+8, 4)
}

// firstE164Trunk: (?<![\w+]) + "+", one to three digits, an optional space and "(0)".
func firstE164Trunk(t *scanText, i int) bool {
	p := t.rune(i - 1)
	if t.rune(i) != '+' || isWordRune(p) || p == '+' || t.rune(i+1) < '1' || t.rune(i+1) > '9' {
		return false
	}
	j := i + 2
	for k := 0; k < 2 && isDigit(t.rune(j)); k++ {
		j++
	}
	j = t.skip(j, ' ')
	return t.rune(j) == '(' && t.rune(j+1) == '0' && t.rune(j+2) == ')'
}

// firstIntl00: (?<![\w+]) + "00 " and a digit 1-9, or (not after '.', '/' or '-') "00", a
// country code of one to three digits and a space ("0040 744 218 530", "00351 912 …").
func firstIntl00(t *scanText, i int) bool {
	p := t.rune(i - 1)
	if isWordRune(p) || p == '+' || t.rune(i) != '0' || t.rune(i+1) != '0' {
		return false
	}
	if t.rune(i+2) == ' ' {
		r := t.rune(i + 3)
		return r >= '1' && r <= '9'
	}
	if r := t.rune(i + 2); r < '1' || r > '9' || p == '.' || p == '/' || p == '-' {
		return false // glued to its country code, the number stands alone ("rebut FRA-0042-889120" is no phone)
	}
	for n := 1; n <= 3; n++ {
		if r := t.rune(i + 2 + n); r == ' ' {
			return true
		} else if !isDigit(r) {
			return false
		}
	}
	return false
}

// refineIntl00 keeps numbers of 10 to 15 digits (a French number's ten, or with the country
// code and the 00, the (0) or the (+34)).
func refineIntl00(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			n++
		}
	}
	if n < 10 || n > 15 {
		return 0
	}
	return len(s)
}

// firstParenCC: "(" then "+" or "00".
func firstParenCC(t *scanText, i int) bool {
	return t.rune(i) == '(' && (t.rune(i+1) == '+' || t.rune(i+1) == '0' && t.rune(i+2) == '0')
}

// refineNationalPhone keeps numbers of 10 to 12 digits (a German mobile: 0151 2384 9172).
func refineNationalPhone(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			n++
		}
	}
	if n < 10 || n > 12 {
		return 0
	}
	return len(s)
}

// phoneVeto drops a phone-shaped number that is an amount ("612.345.678 €") or that a word
// right before it gives as a business's line ("office switchboard 020 7946 0000",
// "centralita 91 …", "atención al cliente 900 …").
func phoneVeto(text string, start, end int) bool {
	if glued00(text[start:end]) && (!countryCode00(text[start+2:end]) || referenceBefore(text, start)) {
		return true // "referencia 0021 4471 8823 12": no country has code 21; a reference's digits
	}
	j := end
	for j < len(text) && text[j] == ' ' {
		j++
	}
	if strings.HasPrefix(text[j:], "€") || j+3 <= len(text) && (text[j]|0x20) == 'e' && (text[j+1]|0x20) == 'u' && (text[j+2]|0x20) == 'r' {
		return true
	}
	if j < len(text) && text[j] == '(' { // "91 588 02 11 (centralita)"
		k := j + 1
		for k < len(text) && k-j < 16 && isASCIILetterByte(text[k]) {
			k++
		}
		if businessLineSet[strings.ToLower(text[j+1:k])] {
			return true
		}
		if landline(text[start:end]) && institutionInBrackets(text, j+1) {
			return true // "944 00 60 00 (Basurtuko Ospitalea)", "91 493 10 00 (Juzgado de lo Social nº 5)"
		}
	}
	// the words right before: "office switchboard", "centralita", "atención al cliente"
	var pw prevWordReader
	pw.init(text, start)
	var fb [5][24]byte
	var last [5][]byte // folded words, last first
	n := 0
	for ; n < 5; n++ {
		w, ok := pw.next()
		if !ok {
			break
		}
		if businessLineSet[string(w)] {
			return true
		}
		last[n] = appendAccentFolded(fb[n][:0], w)
	}
	is := func(k int, ws ...string) bool {
		for _, w := range ws {
			if k < n && string(last[k]) == w {
				return true
			}
		}
		return false
	}
	// "call us back on …", "ring us at …", "llámanos al …": the writer's own line (a clinic's, an office's)
	for k := 0; k < n; k++ {
		if is(k, "us") && (is(k+1, "call", "ring", "phone", "contact", "text") || is(k+1, "back") && is(k+2, "call", "ring")) ||
			is(k, "llamanos", "llamenos", "contactenos", "contactanos", "truca'ns", "truqueu-nos", "chamanos", "deiguzu") {
			return true
		}
	}
	if is(0, "service") && is(1, "customer") || is(0, "center", "centre") && is(1, "call") ||
		is(0, "cliente", "client") && is(1, "al") && n >= 3 && strings.HasPrefix(string(last[2]), "atenci") {
		return true
	}
	// "Tel. despatx: 93 317 52 00", "trucar a l'hospital de dia: 93 248 30 00": a landline within
	// three words after a firm's, a hospital's or a hotel's word is that place's line (a mobile
	// there is still someone's)
	if !landline(text[start:end]) {
		return false
	}
	for k := 0; k < min(n, 3); k++ {
		w := last[k]
		if len(w) > 2 && w[1] == '\'' {
			w = w[2:] // l'hospital, d'empresa
		}
		if officeLineSet[string(w)] {
			return true
		}
	}
	// "la centralita de Seguros Ocaso, 91 538 01 00": a switchboard word earlier on the line,
	// past a company's name and a comma (the word reader above stops at the comma)
	return switchboardBefore(text, start) || institutionLineBefore(text, start) || officeLineAbove(text, start) ||
		companyLineBefore(text, start)
}

// institutionInBrackets: the bracket opened before i (closed within 48 bytes, on the line) names
// a hospital, a court, a clinic, a firm: the landline before it is that place's.
func institutionInBrackets(text string, i int) bool {
	k := i
	for k < len(text) && k-i < 48 && text[k] != ')' && text[k] != '\n' {
		k++
	}
	if k == len(text) || text[k] != ')' {
		return false
	}
	var buf [56]byte
	b := append(buf[:0], ' ')
	b = appendLowerSameLength(b, text[i:k])
	b = append(b, ' ')
	if personalNeedles.containsAny(b) { // a word of personalLineWords
		return false
	}
	for _, w := range roomWords {
		if bytes.Contains(b, w) {
			return false // "(Donostia Ospitalea, 512 gela)": a patient's room line is theirs
		}
	}
	if institutionNeedles.containsAny(b) { // a word of institutionWords
		return true
	}
	for _, w := range bracketInstitutionWords {
		if bytes.Contains(b, w) {
			return true
		}
	}
	return false
}

// bracketInstitutionWords name a public body or a firm in a bracket after its line, besides
// institutionWords ("(Basurtuko Ospitalea)", "(Hospital Clínic)", "(Tribunal Superior)").
var bracketInstitutionWords = byteWords("hospital", "ospitale", "osasun zentro", "tribunal", "audiencia", "hotel",
	"udaletxe", "mutua", "seguros", "asegurador", "insurer", " ltd", " llp", " s.l", " sl ", " sa ")

// roomWords name a patient's or guest's room, whose line is theirs.
var roomWords = byteWords(" gela", "habitaci", " hab", " room", " cama", " llit", " box ", " ohea")

// companyLineBefore: a landline on a line that names a company by its legal form before it, past a
// separator ("Asesoría Ferrer SL · Av. … · Tel. 963 …", "Harcourt & Lyle LLP, 3 Bridge Street, … |
// 0113 …"), with no person's word between the company and the number.
func companyLineBefore(text string, start int) bool {
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	if start-ls > 160 || start-ls < 6 {
		return false
	}
	var buf [168]byte
	b := appendLowerSameLength(buf[:0], text[ls:start])
	for k := 2; k < len(b); k++ {
		c := b[k]
		if !(c == ',' || c == '|' || c == 0xc2 && k+1 < len(b) && b[k+1] == 0xb7) {
			continue
		}
		// the line's first segment a firm's name or a job ("Gestoría Alameda · Pl. … · Tel. 963 …")
		first := !bytes.ContainsAny(b[:k], ",|·") && (c == '|' || c == 0xc2) && signatureLine(b[:k])
		if first || companyFormAtEnd(b[:k], false) {
			rest := append([]byte{' '}, b[k:]...)
			return !personalNeedles.containsAny(rest) // no word of personalLineWords
		}
	}
	return false
}

// officeLineAbove: a landline on a line of a firm's signature block, after the firm's address
// ("Astur Legal Abogados⏎C/ Fruela 5, 33007 Oviedo · 985 …", "Abogada⏎Paseo … · 91 …"): the
// address guard's own reading of the line above (a firm's name, a job title, an office line, no
// home word) decides, and no person's word may sit on the phone's line.
func officeLineAbove(text string, start int) bool {
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	if ls == 0 || start-ls > 100 || start == ls {
		return false
	}
	lo := max(0, ls-160)
	var buf [260]byte
	b := appendLowerSameLength(buf[:0], text[lo:start])
	own := b[ls-lo:]
	if personalNeedles.containsAny(own) { // a word of personalLineWords
		return false
	}
	return officeBefore(b, ls-lo)
}

// institutionWords name a branch, a firm or a clinic whose published landline may follow later in
// the same sentence ("Oficina 2095 · 943 …", "Despacho: Calle Génova 7, …, tel. 91 …", "Hospital
// Universitario de Cruces; avisar al 946 …").
var institutionWords = byteWords("oficina ", "despacho", "despatx", "bufete", "notaría", "notaria", "hospital ",
	"centro de salud", "centre de salut", "centro de saúde", "clínica", "clinica", "ambulatori", "consultorio",
	"juzgado", "ayuntamiento", "ajuntament", "concello", "health centre", "medical centre", "surgery", "farmacia",
	"pharmacy")

// personalLineWords say that a number in the same sentence is a person's ("su hija", "de casa",
// "cliente", "mobile").
var personalLineWords = byteWords(" su ", " sus ", "client", "pacient", "patient", "casa", "home", "móvil", "movil",
	"mobile", "mòbil", "hij", "fill", "marido", "esposa", "mujer", "madre", "padre", "mare ", "pare ", "wife",
	"husband", "daughter", " son ", "mother", "father", "particular", "personal", " his ", " her ", " mi ", " my ")

// institutionLineBefore: a landline in a sentence, on one line, that names a branch, a firm or a
// clinic before it and no person's word ("su hija … llama desde casa, 944 …" is hers).
func institutionLineBefore(text string, i int) bool {
	lo := max(0, i-120)
	seg := text[lo:i]
	if k := strings.LastIndexByte(seg, '\n'); k >= 0 {
		seg = seg[k+1:]
	}
	// a sentence ends at ". " before a capital ("… 91 310 00 00. Cliente: …"), not at "tel. 91"
	for k := len(seg) - 3; k >= 0; k-- {
		if seg[k] == '.' && seg[k+1] == ' ' && seg[k+2] >= 'A' && seg[k+2] <= 'Z' {
			seg = seg[k+2:]
			break
		}
	}
	var buf [120]byte
	b := append(buf[:0], ' ')
	b = appendLowerSameLength(b, seg)
	// a word of institutionWords, and none of personalLineWords
	return institutionNeedles.containsAny(b) && !personalNeedles.containsAny(b)
}

// switchboardWords name a business's line ("centralita", "switchboard", "recepción").
var switchboardWords = byteWords("centralita", "centraleta", "switchboard", "recepcion", "recepción", "recepció", "reception",
	"helpline", "atencion al cliente", "atención al cliente", "customer service")

// switchboardBefore: a word of switchboardWords within the 48 bytes before i, on the same line.
func switchboardBefore(text string, i int) bool {
	lo := max(0, i-48)
	if k := strings.LastIndexByte(text[lo:i], '\n'); k >= 0 {
		lo += k + 1
	}
	var buf [48]byte
	b := appendLowerSameLength(buf[:0], text[lo:i])
	for _, w := range switchboardWords {
		if bytes.Contains(b, w) {
			return true
		}
	}
	return false
}

// glued00: "00" glued to a country code ("0040 744 …"), not "00 40 …".
func glued00(s string) bool { return len(s) > 3 && s[0] == '0' && s[1] == '0' && isDigitByte(s[2]) }

// countryCodes2 are the two-digit country calling codes; a three-digit code never starts with
// one of them, nor with 1 or 7 (one-digit codes).
var countryCodes2 = words(`20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98`)

// countryCode00 reports whether s (after the "00") starts with a country calling code followed
// by a space, a dash or a dot ("0034-612-…").
func countryCode00(s string) bool {
	n := 0
	for n < len(s) && n < 4 && isDigitByte(s[n]) {
		n++
	}
	if n == 0 || n > 3 || n == len(s) || s[n] != ' ' && s[n] != '-' && s[n] != '.' {
		return false
	}
	switch n {
	case 1:
		return s[0] == '1' || s[0] == '7'
	case 2:
		return countryCodes2[s[:2]]
	}
	return s[0] != '1' && s[0] != '7' && s[0] != '0' && !countryCodes2[s[:2]]
}

// officeLineSet: words that name a place whose published landline follows ("despacho", "hotel").
var officeLineSet = words(`despacho despatx bufete gabinete notaria hospital ospitalea hotel hotela clinica clinic empresa company firm
	office offices oficinas sede headquarters ayuntamiento ajuntament concello udaletxea ambulatorio ambulatori`)

// landline: a Spanish fixed line (its first significant digit 8 or 9, after an optional +34,
// 0034 or (+34)) or a UK geographic one (01, 02).
func landline(s string) bool {
	var d [16]byte
	n := 0
	for i := 0; i < len(s) && n < len(d); i++ {
		if isDigitByte(s[i]) {
			d[n] = s[i]
			n++
		}
	}
	v := string(d[:n])
	switch {
	case strings.HasPrefix(s, "+34") || strings.HasPrefix(s, "(+34)"):
		v = v[2:]
	case strings.HasPrefix(v, "0034"):
		v = v[4:]
	case strings.HasPrefix(v, "01") || strings.HasPrefix(v, "02"):
		return len(v) >= 10
	}
	return len(v) == 9 && (v[0] == '8' || v[0] == '9') && !strings.HasPrefix(v, "80") && !strings.HasPrefix(v, "90")
}

// businessLineSet: words that name a business's line, not a person's ("switchboard",
// "centralita", "línea gratuita"); phoneVeto reads "atención al cliente", "customer service" and
// "call center" as phrases.
var businessLineSet = words(`switchboard centralita centraleta helpline freephone gratuita gratuito reception recepcion recepció centraleta`)

// byteNeedles are words to look for in a short window, by their first byte: one pass over the
// window instead of a bytes.Contains per word (the windows are a line or a sentence; the word
// lists have dozens of words).
type byteNeedles [256][][]byte

func newByteNeedles(ws ...[]byte) *byteNeedles {
	t := new(byteNeedles)
	for _, w := range ws {
		if len(w) == 0 {
			panic("redact: an empty needle")
		}
		t[w[0]] = append(t[w[0]], w)
	}
	return t
}

// containsAny: one of the words occurs in b (bytes.Contains of any of them).
func (t *byteNeedles) containsAny(b []byte) bool {
	for i := range b {
		for _, w := range t[b[i]] {
			if len(b)-i >= len(w) && string(b[i:i+len(w)]) == string(w) {
				return true
			}
		}
	}
	return false
}

var personalNeedles, institutionNeedles = newByteNeedles(personalLineWords...), newByteNeedles(institutionWords...)

// byteWords returns the words as byte slices, for bytes.Contains without a conversion per call.
func byteWords(ws ...string) [][]byte {
	out := make([][]byte, len(ws))
	for i, w := range ws {
		out[i] = []byte(w)
	}
	return out
}

// firstDNI7: wb + a digit, then six digits or ".ddd.ddd".
func firstDNI7(t *scanText, i int) bool {
	if t.digitsFrom(i) < 7 || isWordRune(t.rune(i-1)) {
		return false
	}
	switch {
	case t.digitsAt(i, 7):
		return dni7Letter(t, i+7)
	case t.rune(i+1) == '.' && t.digitsAt(i+2, 3) && t.rune(i+5) == '.' && t.digitsAt(i+6, 3):
		return dni7Letter(t, i+9)
	}
	return false
}

// dni7Letter: the pattern's (?:-?[A-Za-z]|[ ][A-Z]) + we can match at j, so a number without
// its letter is not handed to regexp2.
func dni7Letter(t *scanText, j int) bool {
	r, r1 := t.rune(j), t.rune(j+1)
	return r == '-' && isASCIILetter(r1) && !isWordRune(t.rune(j+2)) ||
		isASCIILetter(r) && !isWordRune(r1) ||
		r == ' ' && r1 >= 'A' && r1 <= 'Z' && !isWordRune(t.rune(j+2))
}

// firstNIFVAT: wb + "ES", "ES-", "ES " or "es", then eight digits, compact or as 12.345.678.
func firstNIFVAT(t *scanText, i int) bool {
	r0, r1 := t.rune(i), t.rune(i+1)
	if (r0 != 'E' && r0 != 'e') || (r1 != 'S' && r1 != 's') || isWordRune(t.rune(i-1)) {
		return false
	}
	j := i + 2
	if r := t.rune(j); r == '-' || r == ' ' && r0 == 'E' && r1 == 'S' {
		j++
	}
	return t.digitsAt(j, 8) || t.digitsAt(j, 2) && t.rune(j+2) == '.' && t.digitsAt(j+3, 3) && t.rune(j+6) == '.' && t.digitsAt(j+7, 3)
}

// firstPlate: wb + four digits, an optional space or dash, and a consonant of the plates.
func firstPlate(t *scanText, i int) bool {
	if !t.digitsAt(i, 4) || isWordRune(t.rune(i-1)) {
		return false
	}
	r := t.rune(t.skip(i+4, ' ', '-'))
	return r >= 'B' && r <= 'Z' && strings.ContainsRune("BCDFGHJKLMNPRSTVWXYZ", r)
}

// firstOldPlate: wb + one or two capitals, an optional space or dash, and four digits.
func firstOldPlate(t *scanText, i int) bool {
	if isWordRune(t.rune(i - 1)) {
		return false
	}
	j := i + 1
	if r := t.rune(j); r >= 'A' && r <= 'Z' {
		j++
	}
	d := t.skip(j, ' ', '-')
	if !t.digitsAt(d, 4) {
		return false
	}
	// Both alternatives go on with an optional space or dash and a capital.
	r := t.rune(t.skip(d+4, ' ', '-'))
	return r >= 'A' && r <= 'Z'
}

// firstUKPhone: (?<![\w+]) + "07", "020" or "01".
func firstUKPhone(t *scanText, i int) bool {
	if p := t.rune(i - 1); isWordRune(p) || p == '+' || t.rune(i) != '0' {
		return false
	}
	r := t.rune(i + 1)
	return r == '7' || r == '1' || r == '2' && t.rune(i+2) == '0'
}

// firstNANP: (?<![\w+]) + "+1" or "(" and three digits.
func firstNANP(t *scanText, i int) bool {
	if p := t.rune(i - 1); isWordRune(p) || p == '+' {
		return false
	}
	switch t.rune(i) {
	case '+':
		return t.rune(i+1) == '1'
	case '(':
		return t.digitsAt(i+1, 3)
	}
	return false
}

// validNIFVAT checks "ES" + a DNI.
func validNIFVAT(s string) bool {
	var buf [32]byte
	a := alnum(buf[:0], s)
	return len(a) == 11 && string(a[:2]) == "ES" && validDNI(string(a[2:]))
}

// validCCCText checks a 20-digit account written with any separators.
func validCCCText(s string) bool {
	var buf [48]byte
	a := alnum(buf[:0], s)
	return len(a) == 20 && allDigits(a) && validCCC(a)
}

// refineSpanishPhone drops the numbers of businesses (900, 800, 901, 902… freephone and shared
// cost): never a person's.
func refineSpanishPhone(s string) int {
	var buf [32]byte
	a := alnum(buf[:0], s)
	switch {
	case len(a) == 11 && string(a[:2]) == "34":
		a = a[2:]
	case len(a) == 13 && string(a[:4]) == "0034":
		a = a[4:]
	}
	if len(a) == 9 && (a[0] == '8' || a[0] == '9') && a[1] == '0' {
		switch a[2] {
		case '0', '1', '2', '3', '5', '6', '7':
			return 0
		}
	}
	return len(s)
}

// versionBefore: an IPv4-shaped match right after a version word ("version=4.12.0.3",
// "ver":"3.18.2.7", "actualización 2.14.3.0") is a software version.
func versionBefore(text string, start, _ int) bool {
	i := start
	for k := 0; k < 3 && i > 0 && strings.IndexByte(` =:"'`, text[i-1]) >= 0; k++ {
		i--
	}
	if i == start {
		return false
	}
	before := strings.ToLower(text[max(0, i-14):i])
	for _, w := range versionWords {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	// a version word a few words before: "Versión del documento 2.10.4.1", "firmware del
	// cajero 10.4.2.1" (not past a sentence end or another number)
	far := strings.ToLower(text[max(0, i-32):i])
	if strings.ContainsAny(far, "0123456789\n") {
		if k := strings.LastIndexAny(far, "0123456789\n"); k >= 0 {
			far = far[k+1:]
		}
	}
	if strings.Contains(far, ". ") {
		far = far[strings.LastIndex(far, ". ")+2:]
	}
	for _, w := range versionWords {
		if k := strings.Index(far, w); k >= 0 && (k == 0 || !isWordByte(far[k-1])) && len(w) > 3 {
			return true
		}
	}
	return false
}

var versionWords = []string{"version", "versión", "ver", "release", "build", "actualización", "actualizacion", "update", "versió",
	"bertsioa", "firmware", "fw", "revisión", "revision", "software"}

// ibanHeadBefore: the 20 digits follow an IBAN's country code and check digits ("ES91 2100…"):
// they are that IBAN's account, for the IBAN recognizer to judge (also when its check digits
// are mistyped).
func ibanHeadBefore(text string, start, _ int) bool {
	i := start
	if i > 0 && (text[i-1] == ' ' || text[i-1] == '-') {
		i--
	}
	if i < 4 || !isDigitByte(text[i-1]) || !isDigitByte(text[i-2]) {
		return false
	}
	j := i - 2
	if j >= 1 && text[j-1] == ' ' {
		j--
	}
	return j >= 2 && isASCIILetterByte(text[j-1]) && isASCIILetterByte(text[j-2]) && (j == 2 || !isWordByte(text[j-3]))
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// nextDigit returns the index of the first ASCII digit of text at or after i, or len(text): eight
// bytes at a time while none of them is a digit (a byte test, per word of the text, of the
// passes that read every figure's start: most bytes of a prompt are letters and spaces).
func nextDigit(text string, i int) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(text); i += 8 {
		x := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		// a byte from '0' (0x30) to '9' (0x39), exactly ("hasbetween" of the bit-twiddling hacks,
		// bounds 0x2F and 0x3A exclusive; a byte of 0x80 or more never counts)
		x7 := x & (ones * 0x7F)
		if (ones*(127+0x3A)-x7)&^x&(x7+ones*(127-0x2F))&high != 0 {
			break
		}
	}
	for ; i < len(text) && !isDigitByte(text[i]); i++ {
	}
	return i
}

// clockNotIPv6: an IPv6-shaped match that fails to parse and holds only decimal digits in at
// most three groups is a time of day ("2025-11-22 03:14:09" in a log line), not a mistyped
// address.
func clockNotIPv6(text string, start, end int) bool {
	groups := 1
	for i := start; i < end; i++ {
		switch c := text[i]; {
		case c == ':':
			groups++
		case !isDigitByte(c):
			return false
		}
	}
	return groups <= 3
}
