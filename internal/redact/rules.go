package redact

import (
	"bytes"
	"maps"
	"slices"
	"strings"
)

// Context rules (issue #13): personal data that only the words around it reveal — a record
// number after "NHC", a security code after "CVV", a passport number after "pasaporte", a date
// after "nacido el", a name after "habla con", a cell under a column headed "dni". They are
// written in Go over the text's words (the same words the name detector reads), run only in the
// redactor of the request path, never in the strict redactor of the exit scan (a hit there must
// not depend on the words around it), and produce candidates like any recognizer: scored,
// filtered by the threshold, merged.

// cueKind says what a cue phrase announces.
type cueKind uint8

const (
	cueNone cueKind = iota
	cueMRN
	cueCVV
	cueExpiry
	cuePassport
	cueDOB
	cueDOBYear   // a cue after which a bare year of birth is enough ("nacida en el 63", "es del '49")
	cueDOBBefore // a cue after its date: Basque "1990eko maiatzaren 21ean jaioa", "a '52 baby"
	cueDNI       // a DNI further along the sentence, also with a wrong letter (rules_ids.go)
	cueCard      // a card number further along the sentence, also failing Luhn (rules_ids.go)
	cuePlate     // a plate after its cue, in any case ("matrícula 4821 kfl")
	cueVehicle   // a vehicle word (not "auto", a court's order in legal text): a plate further along the sentence
	cuePatient   // a patient word right before a hospital's id in capitals and digits ("Pcte. HGU0093377")
	cueBornAbbr  // "b." or "n." in brackets or after a comma, then the birth ("(b. 1939)", dates.go)
)

// cuePhrases are folded word sequences (lower case, no accents). The words of a phrase may be
// separated by a space, a dot, an underscore or a dash (N.H.C., f_nacimiento, fecha-nac).
var cuePhrases = map[cueKind][]string{
	cueMRN: {"nhc", "n h c", "nº historia", "n historia", "no historia", "num historia", "numero de historia",
		"numero historia", "historia clinica", "historia", "historia n", "hc", "h c", "mrn", "hospital no",
		"hospital number", "hospital n", "nhs number", "nhs no", "nhs", "cip", "tis", "sip", "nuhsa", "chi", "chi no",
		"tarjeta sanitaria", "patient id", "id paciente", "medical record", "record number", "historial",
		"nº de historia", "n de historia", "historia clinica n", "zenbakia", "historia klinikoa",
		"tarxeta sanitaria", "targeta sanitaria", "tarjeta individual sanitaria", "tsi", "cipa", "cip autonomico", "hk",
		"hk zk", "paciente id", "pacient id", "id pacient", "historia clinica numero", "health card", "chi number",
		"hcn", "medical record number", "hospital id", "patient number", "numero de paciente", "n paciente",
		"historial clinic", "historia clinica electronica", "osasun txartela", "osasun txartel", "patient no", "patient nr",
		"cip autonomic", "codi cip", "codigo cip", "numero de utente", "n de utente", "n utente", "numero utente", "utente",
		"cartao de utente", "cartao utente",
		// (round 8) abbreviations of the record's own name in every language: "Hª" (with its ª:
		// "ha" is a verb), "hosp no", Basque "OHZ"/"HKZ" (ospitaleko / historia klinikoaren
		// zenbakia); and France's social-security number (NIR, on the Carte Vitale), which the
		// record readers take only when its key checks (nirAt)
		"hª", "hosp no", "hosp n", "hosp num", "hosp number", "ohz", "hkz", "ohz zk", "hkz zk",
		"historia kliniko", "historia klinikoaren zenbakia", "carte vitale", "vitale", "nir", "securite sociale",
		"numero de securite sociale", "n de securite sociale", "insee", "numero insee"},
	cueCVV: {"cvv", "cvv2", "cvc", "cvc2", "cv2", "codigo de seguridad", "codigo seguridad", "security code",
		"por detras", "detras", "reverso", "dorso", "csc", "cid", "codi de seguretat", "codi seguretat", "card security code",
		"card verification", "codigo cvv", "codigo de verificacion", "codigo verificacion", "on the back", "back of the card",
		"al dorso", "darrere", "codigo de seguridade", "codigo seguridade", "segurtasun kodea", "segurtasun zenbakia",
		"security number", "card code", "codi de verificacio", "codigo de verificacion de la tarjeta", "cvn", "cvk",
		"codigo de atras", "codigo de detras", "numero de atras", "numeros de atras", "codi de darrere", "codi del darrere",
		"codigo do reverso", "three digits", "tres digitos", "tres numeros", "tres xifres", "hiru digitu"},
	cueExpiry: {"cad", "caduca", "caducidad", "fecha de caducidad", "caducidad tarjeta", "vence", "vencimiento", "venc",
		"exp", "expiry", "expires", "expiration", "expiry date", "expirydate", "expiration date", "valid thru",
		"valid until", "valida hasta", "good thru", "caducitat", "caduca el", "vto", "vencto", "caducidade", "iraungitze",
		"expiring", "expire", "expira", "exp date", "iraungitze data", "iraungitzea", "data de caducidade", "data caducidade",
		"data de caducitat", "data caducitat", "fecha de vencimiento", "valid to", "valida fins", "valida fins a", "caduca en",
		"vencimiento tarjeta", "validade",
		// (round 8) the card's end date in the other languages staff read off a foreign card
		"amaiera data", "amaiera", "iraungipen data", "gultig bis", "gueltig bis", "ablaufdatum", "good through",
		"valid through", "good until", "scadenza", "data di scadenza", "date d expiration", "fin de validite",
		"valable jusqu", "venceix", "caduca a", "data de validade", "valido ate", "venciment", "data de venciment", "vencemento", "data de vencemento", "valid fins", "valid thru", "expiry date", "mm aa", "mm yy", "mm aaaa", "mm yyyy"},
	cuePassport: {"pasaporte", "passport", "passaport", "passeport", "reisepass", "passaporto", "pasaportea",
		"pasaporte n", "pass no", "travel document", "documento", "pasaportes", "pasaporte numero",
		// (round 8) the passport's name in the languages of the customers' countries and its
		// Basque inflections; the value is read by its shape (6 to 10 capitals and digits)
		"passaporte", "paszport", "paspoort", "pasaport", "pasaportul", "passnummer", "reisepassnummer",
		"pasaportearen", "pasaportez", "pasaportean", "pasaportearekin", "passaportes", "paszportu", "passports",
		"passeports", "passaports", "pass", "reisepass nr", "reisepass-nr", "reisepassnr", "pass nr", "passport nr", "pașaport", "pasaportul", "pașaportul"},
	cueDOB: {"nacimiento", "nacido", "nacida", "nacio", "naci", "nace", "f nac", "fecha nac", "fec nac", "fn",
		"fnac", "f nacimiento", "fecha de nacimiento", "born", "birth", "dob", "d o b", "date of birth",
		"birthday", "birthdate", "cumpleanos", "cumple", "naixement", "nascut", "nascuda", "neixer", "va neixer",
		"nacemento", "naceu", "nado", "nada", "neix", "naix", "va neixer", "va naixer", "jaiotze", "jaio", "jaiotzea", "jaiotze data", "geboren",
		"jaiotza", "jaiotza data", "jaiotza urtea", "jaiotze urtea", "jaiotze eguna", "jaioteguna", "year of birth", "data naixement",
		"data de nac", "data nac", "fecha de nac", "data de naix", "data naix", "d nac", "nacin", "naci o", "naixo", "vaig neixer",
		"date de naissance", "geburtsdatum", "data di nascita", "data de nascimento", "birth date", "nac", "f n",
		"ne le", "nee le", "nato", "nata", "nascido", "nascida", "data de naixement", "data de nacemento",
		"fecha nacimiento", "f de nacimiento", "f nac", "edad", "anos", "años", "cumpleaños",
		// (round 8) Basque participles also put before their date ("jaioa 1990eko urtarrilaren 15ean")
		"jaioa", "jaiotakoa"},
	cuePlate: {"matricula", "placa", "plate", "number plate", "registration", "matricola", "matrikula", "plates", "placas",
		"matriculas", "reg", "reg no", "registration number", "registration mark", "kennzeichen", "nummernschild",
		"immatriculation", "plaque", "targa", "matricule", "license plate", "licence plate", "plaka", "matricula n"},
	cueBornAbbr: {"b", "n"},
	cuePatient:  {"paciente", "pcte", "pte", "patient", "pt", "pacient", "pacienta", "gaixoa", "doente", "paziente", "patiente"},
	cueVehicle: {"coche", "vehiculo", "car", "furgoneta", "van", "moto", "camion", "truck", "turismo", "cotxe", "voiture",
		"vehicule", "fahrzeug", "carro", "veicolo", "lorry", "motorbike", "motorcycle", "caravana", "remolque", "trailer",
		"autocaravana", "ibilgailua", "autoa", "vehicle", "coches", "vehiculos", "cars", "motocicleta"},
	cueDOBBefore: {"jaio", "jaioa", "jaiotakoa", "jaiotako", "jaiota", "baby", "babe"},
	cueDNI: {"dni", "d n i", "nif", "documento de identidad", "documento nacional de identidad", "id card", "identity card",
		"spanish id", "nan", "nana", "nortasun agiria", "document d identitat", "document nacional d identitat", "carne de identidade"},
	cueCard: {"tarjeta", "card", "targeta", "tarxeta", "txartel", "txartela", "carte", "visa", "mastercard", "amex",
		"tarjeta de credito", "tarjeta de debito"},
	cueDOBYear: {"nacido", "nacida", "nacio", "naci", "nascut", "nascuda", "naceu", "born", "es del", "son del",
		"era del", "soy del", "nacido en el", "nacida en el", "nacio en el", "naci en el", "dob", "d o b",
		"e do", "son do", "era do", "sou do",
		"jaio", "jaioa", "jaiotakoa", "jaiotzez",
		"nacieron", "nacimos", "nacidos", "nacidas", "nacisteis", "naceron", "nacemos", "nados", "nadas", "nascuts", "nascudes"},
}

type cuePhrase struct {
	words []string
	kind  cueKind
}

// cueIndex holds the phrases by their first word, each word's in the order of their kinds (not
// the map's random order: cueAt reports kinds in this order, and what it reports must not
// change from one process to the next).
var cueIndex = func() map[string][]cuePhrase {
	m := map[string][]cuePhrase{}
	for _, kind := range slices.Sorted(maps.Keys(cuePhrases)) {
		for _, p := range cuePhrases[kind] {
			ws := strings.Fields(p)
			m[ws[0]] = append(m[ws[0]], cuePhrase{ws, kind})
		}
	}
	return m
}()

// cueKeyLens[c] has bit min(n, 63) set when a cueIndex key of n bytes starts with byte c: most
// words of a text start no cue, and this answers for them without hashing the word.
var cueKeyLens = func() (t [256]uint64) {
	for k := range cueIndex {
		t[k[0]] |= 1 << min(len(k), 63)
	}
	return t
}()

// cueKeyEnds[c][d>>6] has bit d&63 set when a cueIndex key starts with byte c and ends with
// byte d: a word of a length some key has is then still hashed only if its ends match a key's.
var cueKeyEnds = func() (t [256][4]uint64) {
	for k := range cueIndex {
		d := k[len(k)-1]
		t[k[0]][d>>6] |= 1 << (d & 63)
	}
	return t
}()

// lookupCue is cueIndex[string(f)].
func lookupCue(f []byte) ([]cuePhrase, bool) {
	if len(f) > 0 && (cueKeyLens[f[0]]>>min(len(f), 63)&1 == 0 || cueKeyEnds[f[0]][f[len(f)-1]>>6]>>(f[len(f)-1]&63)&1 == 0) {
		return nil, false
	}
	phrases, ok := cueIndex[string(f)]
	return phrases, ok
}

// cueGap: what may separate the words of a cue phrase.
func cueGap(g string) bool {
	if len(g) == 0 || len(g) > 3 {
		return false
	}
	for i := 0; i < len(g); i++ {
		if !strings.ContainsRune(" ._-:/", rune(g[i])) {
			return false
		}
	}
	return true
}

// cueAt returns the kinds of the cue phrases that start at word i and the byte offset where each
// ends (at most one per kind: the longest).
func cueAt(text string, ws []word, i int, fc *folder, out []cueHit) []cueHit {
	f := ws[i].fold(fc)
	phrases, ok := lookupCue(f)
	if !ok && len(f) > 2 && f[1] == '\'' && (f[0] == 'd' || f[0] == 'l') {
		phrases, ok = lookupCue(f[2:]) // an elided article: "número d'història clínica"
	}
	if !ok {
		return out
	}
	for _, p := range phrases {
		j := i
		for k := 1; k < len(p.words); k++ {
			if j+1 >= len(ws) || !cueGap(text[ws[j].end:ws[j+1].start]) || string(ws[j+1].fold(fc)) != p.words[k] {
				j = -1
				break
			}
			j++
		}
		if j < 0 {
			continue
		}
		merged := false
		for h := range out {
			if out[h].kind == p.kind && out[h].word == i {
				if ws[j].end > out[h].end {
					out[h].end, out[h].last = ws[j].end, j
				}
				merged = true
			}
		}
		if !merged {
			out = append(out, cueHit{kind: p.kind, word: i, last: j, start: ws[i].start, end: ws[j].end})
		}
	}
	return out
}

type cueHit struct {
	kind       cueKind
	word, last int // first and last word of the phrase
	start, end int // byte offsets
}

// fillerWords may stand between a cue and its value ("NHC nº 123", "pasaporte británico número
// 123", "nacido en Cuenca el 8-XI-1981").
var fillerWords = words(`n nº no num numero number nr nro is es de del the my his her su sus el la le o a en at son are sao
was were fue era on of con with tiene has hat ist am le les dia dias day un una number: code codigo zk zenb`)

// nextValue returns where a value may start after a cue that ends at from: after spaces and
// punctuation (: = " ' ( # - º .) and at most maxWords filler words (or any lower-case or
// capitalised words when anyWords), within limit bytes, not past a line end. -1 if none.
func nextValue(text string, from, limit, maxWords int, anyWords bool, fc *folder, ws []word, wi int) int {
	end := min(len(text), from+limit)
	i := from
	words := 0
	for i < end {
		c := text[i]
		switch {
		case c == '\n' || c == '\r':
			return -1
		case strings.IndexByte(" \t:=\"'()#-.*>|", c) >= 0: // º ª ° below, two bytes each
			i++
		case c == 0xC2 && i+1 < len(text) && (text[i+1] == 0xBA || text[i+1] == 0xAA || text[i+1] == 0xB0): // º ª °
			i += 2
		case isDigitByte(c):
			return i
		default:
			// a word: filler, or the value itself
			for wi < len(ws) && ws[wi].start < i {
				wi++
			}
			if wi >= len(ws) || ws[wi].start != i {
				return i // not a letter word (a value starting with a letter glued to digits is a word too)
			}
			w := ws[wi]
			if w.end < len(text) && isDigitByte(text[w.end]) {
				return i // letters glued to digits: the value
			}
			if words >= maxWords || !(anyWords || fillerWords[string(w.fold(fc))]) {
				return i
			}
			words++
			i = w.end
		}
	}
	return -1
}

// tokenAt returns the end of the identifier token at i: letters and digits, joined by single
// '-', '/', '.' or (between digits) ' ', and how many digits and letters it holds.
func tokenAt(text string, i, maxLen int) (end, digits, letters int) {
	end = i
	for j := i; j < len(text) && j-i < maxLen; {
		c := text[j]
		switch {
		case isDigitByte(c):
			digits++
			j++
			end = j
		case isASCIILetterByte(c):
			letters++
			j++
			end = j
		case (c == '-' || c == '/' || c == '.') && j+1 < len(text) && isAlnum(text[j+1]) && j > i:
			j++
		case c == ' ' && j > i && isDigitByte(text[j-1]) && j+1 < len(text) && isDigitByte(text[j+1]):
			j++
		default:
			return end, digits, letters
		}
	}
	return end, digits, letters
}

// wordEnd reports whether no letter or digit follows end.
func wordEnd(text string, end int) bool { return end >= len(text) || !isWordByte(text[end]) }

// appendRules appends what the context rules find in text; out[:found] are the recognizers'
// candidates so far (an expiry date is looked for after a card number). Types the policy
// disables are dropped.
func (r *Redactor) appendRules(out []Span, text string, ws []word, fc *folder, found int) []Span {
	n := len(out)
	out = r.appendCueValues(out, text, ws, fc, out[:found])
	out = appendTables(out, text, ws, fc)
	out = appendAddresses(out, text, ws, fc)
	out = appendObfuscatedEmails(out, text, fc.lower)
	// a recognizer's address that is an office's published one
	kept := out[:0]
	for _, sp := range out {
		if sp.Type == TypeAddress && sp.Source != "address" && officeBefore(fc.lower, sp.Start) {
			continue
		}
		kept = append(kept, sp)
	}
	out = kept
	if len(r.cfg.Disable) > 0 {
		kept := out[:n]
		for _, sp := range out[n:] {
			if !slices.Contains(r.cfg.Disable, sp.Type) {
				kept = append(kept, sp)
			}
		}
		out = kept
	}
	return out
}

// appendCueValues appends the values that cue phrases announce: record numbers, security codes,
// expiry dates, passports, dates of birth.
func (r *Redactor) appendCueValues(out []Span, text string, ws []word, fc *folder, spans []Span) []Span {
	var buf [8]cueHit // a word starts at most a few cue phrases: no allocation per text
	hits := buf[:0]
	for i := 0; i < len(ws); i++ {
		hits = cueAt(text, ws, i, fc, hits[:0])
		for _, h := range hits {
			switch h.kind {
			case cueMRN:
				out = appendMRN(out, text, h, ws, fc)
			case cueCVV:
				out = appendCVV(out, text, h, ws, fc)
			case cueExpiry:
				if !cardNear(fc.lower, h.start, spans) {
					// "el recibo vence el 05/04", "caducidad 03/2027" of a vaccine's lot: with no
					// card number or card word within 150 bytes, an expiry is a bill's, a loan's,
					// a product's (every dev file's card expiries have one in reach)
					break
				}
				if documentExpiry(fc.lower, h.start, spans) {
					break // "pasaporte: PAA482917, caduca el 12/2029": the document's expiry
				}
				if billBefore(text, h.start) {
					break // "el rebut de la llum vence el 05/12": a bill's, a loan's, an offer's date, with a card in reach
				}
				from, wi := h.end, h.last+1
				for k := 0; k < 6 && wi < len(ws) && ws[wi].start-from <= 3 && expiryFillers[string(ws[wi].fold(fc))]; k++ {
					from, wi = ws[wi].end, wi+1 // "expires end of 04/2028", "caduca a finales de 05/27"
				}
				n := len(out)
				out = appendExpiry(out, text, from, ws, fc, wi, 0.8)
				if len(out) == n {
					// "Fecha de caducidad de la tarjeta: 11/26": the value after a colon further on
					if c := strings.IndexByte(text[from:min(len(text), from+30)], ':'); c >= 0 && !strings.ContainsAny(text[from:from+c], "\n.0123456789") {
						from += c + 1
						for wi < len(ws) && ws[wi].start < from {
							wi++
						}
						out = appendExpiry(out, text, from, ws, fc, wi, 0.8)
					}
				}
			case cuePassport:
				out = appendPassport(out, text, h, ws, fc)
				out = appendPassportBefore(out, text, h)
			case cueDOB:
				out = appendDOB(out, text, h, ws, fc)
			case cueDOBYear:
				out = appendBirthYear(out, text, h, ws, fc)
			case cueDOBBefore:
				out = appendDOBBefore(out, text, h, ws, fc)
			case cuePlate:
				out = appendPlate(out, text, h, ws, fc)
			case cueVehicle:
				out = appendVehiclePlate(out, text, h.end)
			case cuePatient:
				out = appendPatientID(out, text, h.end)
			case cueBornAbbr:
				out = appendBornAbbrev(out, text, h, ws, fc)
			case cueDNI:
				if r.cfg.ChecksumFailure != ChecksumIgnore { // these rules read values whose check fails
					out = appendSentenceDNI(out, text, h)
				}
			case cueCard:
				if r.cfg.ChecksumFailure != ChecksumIgnore {
					out = appendSentenceCard(out, text, h)
				}
			}
		}
	}
	// An expiry date right after a card number ("4111 1111 1111 1111 09/27").
	for _, sp := range spans {
		if sp.Type == TypeCard && sp.Score >= r.threshold(TypeCard) {
			from := sp.End
			if from < len(text) && (text[from] == ',' || text[from] == ';' || text[from] == '\t') {
				from++ // the next cell of a CSV/TSV row ("4396…8730,0427,AMAZON")
			}
			n := len(out)
			out = appendExpiry(out, text, from, ws, fc, 0, 0.7)
			if len(out) == n {
				if at, wi := expiryAfterConnective(text, from, ws, fc); at > 0 {
					out = appendExpiry(out, text, at, ws, fc, wi, 0.8) // "4913 … hasta 0130"
				}
			}
		}
		if sp.Type == TypePhone && sp.Score >= r.threshold(TypePhone) {
			out = appendPhoneList(out, text, sp.End, ws, fc)
		}
	}
	out = appendStarBirth(out, text, ws, fc)
	return appendCardTailCodes(out, text, ws, fc, spans)
}

func appendMRN(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	if h.last == h.word && len(ws[h.word].text) <= 3 && referenceBefore(text, h.start) {
		return out // "the claim HC-2024-000918": a court's or a file's letters, after a case word
	}
	at := nextValue(text, h.end, 24, 2, false, fc, ws, h.last+1)
	if at < 0 {
		return out
	}
	if end := nirAt(text, at); end > 0 {
		// a French NIR in its printed groups ("1 84 12 75 115 023 34"): its key proves it
		return append(out, Span{Start: at, End: end, Type: TypeMRN, Text: text[at:end], Score: 0.85, Source: "cue"})
	}
	if end := mrnValueAt(text, at); end > 0 {
		return append(out, Span{Start: at, End: end, Type: TypeMRN, Text: text[at:end], Score: 0.85, Source: "cue"})
	}
	// "el CIPA de la paciente es ASMR 640211 0 7": a few lower-case words on, a number that can
	// only be a record's — capitals then digits, or six digits or more without a date's or an
	// amount's separators
	if at2 := nextValue(text, h.end, 40, 4, true, fc, ws, h.last+1); at2 > at {
		if b := capitalsBefore(text, at2); b >= at && mrnValueAt(text, b) > 0 {
			at2 = b // "CIP autonòmic: GAPE 0 850312 00 1": the region's letters were skipped as a word
		}
		if b := codePrefixBefore(text, at2); b >= h.end && !otherDocPrefix(text[b:at2-1]) && mrnValueAt(text, b) > 0 {
			at2 = b // "NHC allí GM-4402193", "NHC provisional PROV-26-00913": a hospital's own prefix
		}
		if end := mrnValueAt(text, at2); end > 0 && strongMRN(text[at2:end]) && !sentenceBetween(text, h.end, at2) &&
			!(at2 > 1 && text[at2-1] == '-' && isASCIILetterByte(text[at2-2])) {
			// (not past a sentence's end, nor the digits of a prefixed code such as "LAB-551204":
			// that is another document's number — a request's, an invoice's)
			return append(out, Span{Start: at2, End: end, Type: TypeMRN, Text: text[at2:end], Score: 0.85, Source: "cue"})
		}
	}
	if strings.ContainsAny(text[h.end:at], "\n") || !questionAfter(text, h.end) {
		return out
	}
	// "em dius el CIP de la iaia?" / "[10:03] Marta: CAGR 0 401207 00 3": asked for, the number
	// is the answer alone on one of the next three lines
	line := h.end + strings.IndexByte(text[h.end:], '\n') + 1
	for k := 0; k < 3 && line > h.end && line < len(text); k++ {
		le := strings.IndexByte(text[line:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += line
		}
		i := answerStart(text, line, le)
		if e := mrnValueAt(text, i); e > 0 && strings.TrimRight(text[e:le], " .\r") == "" {
			return append(out, Span{Start: i, End: e, Type: TypeMRN, Text: text[i:e], Score: 0.8, Source: "cue"})
		}
		line = le + 1
	}
	return out
}

// closingQuoteAt: text[i:] starts with a closing guillemet or curly quote (» ” ’), which ends a
// value read off a card as a quote ("«gültig bis 05/29»") though its bytes are not ASCII.
func closingQuoteAt(text string, i int) bool {
	return strings.HasPrefix(text[i:], "»") || strings.HasPrefix(text[i:], "”") || strings.HasPrefix(text[i:], "’")
}

// codePrefixBefore: the start of the 2 to 5 capitals and the dash right before i ("GM-" of
// "GM-4402193"), or -1.
func codePrefixBefore(text string, i int) int {
	if i < 3 || text[i-1] != '-' {
		return -1
	}
	b := i - 1
	for b > 0 && i-1-b < 6 && text[b-1] >= 'A' && text[b-1] <= 'Z' {
		b--
	}
	if n := i - 1 - b; n < 2 || n > 5 || b > 0 && isWordByte(text[b-1]) {
		return -1
	}
	return b
}

// otherDocPrefixes open the numbers of other documents a clinic writes next to a record's: lab
// requests, invoices, orders, tickets, claims, incidents.
var otherDocPrefixes = words(`lab fac fra ord ped inc ref clm trv ic exp inv req pet ot oc alb tkt case rec rx ana pf`)

func otherDocPrefix(p string) bool { return otherDocPrefixes[strings.ToLower(p)] }

// sentenceBetween: a sentence ends somewhere in text[from:to].
func sentenceBetween(text string, from, to int) bool {
	for i := from; i < to && i < len(text); i++ {
		if sentenceEnd(text, i) {
			return true
		}
	}
	return false
}

// nirAt returns the end of a French social-security number (NIR) at i, or 0: 15 digits, as one
// run or in groups split by single spaces or dots, the first 1, 2, 7 or 8 (sex, or a provisional
// number), the last two the key 97 − (the first 13 mod 97).
func nirAt(text string, i int) int {
	if i < 0 || i >= len(text) || !isDigitByte(text[i]) || (i > 0 && isWordByte(text[i-1])) {
		return 0
	}
	switch text[i] {
	case '1', '2', '7', '8':
	default:
		return 0
	}
	var n, key uint64
	d, j := 0, i
	for j < len(text) && d < 15 {
		c := text[j]
		if isDigitByte(c) {
			if d < 13 {
				n = n*10 + uint64(c-'0')
			} else {
				key = key*10 + uint64(c-'0')
			}
			d++
			j++
			continue
		}
		if (c == ' ' || c == '.') && j+1 < len(text) && isDigitByte(text[j+1]) && d > 0 {
			j++
			continue
		}
		break
	}
	if d != 15 || !wordEnd(text, j) || j < len(text) && (text[j] == ' ' || text[j] == '.') && j+1 < len(text) && isDigitByte(text[j+1]) {
		return 0
	}
	if key != 97-n%97 {
		return 0
	}
	return j
}

// questionAfter: the line holding a cue that ends at i ends in a question mark (within 80 bytes).
func questionAfter(text string, i int) bool {
	le := strings.IndexByte(text[i:min(len(text), i+80)], '\n')
	if le < 0 {
		le = min(len(text), i+80) - i
	}
	return strings.Contains(text[i:i+le], "?")
}

// mrnValueAt returns the end of a record number at i, or 0: a token of at least 5 digits and at
// most 8 letters ("HIS0087421", "2048113", "AB 1234-567890"), or one or two groups of 2 to 4
// capitals, then a space and the digits, themselves in groups ("GV 2031-448120", "TSI GAPC
// 4501120033", "CAGR 0 401207 00 3").
func mrnValueAt(text string, at int) int {
	if at >= len(text) {
		return 0
	}
	end, digits, letters := tokenAt(text, at, 24)
	for g := 0; g < 2 && digits == 0 && letters >= 2 && letters <= 4 && end+1 < len(text) && text[end] == ' '; g++ {
		// a centre's or a region's letters, a space, then the number
		e, d, l := tokenAt(text, end+1, 24)
		switch {
		case d >= 5 && l == 0:
			end, digits = e, d
		case g == 0 && d == 0 && l >= 2 && l <= 4 && allUpper(text[at:e]):
			end, letters = e, l // "TSI GAPC …"
			continue
		}
		break
	}
	if digits < 5 || letters > 8 || !wordEnd(text, end) {
		return 0
	}
	if letters == 1 && isDNIOrNIE(text[at:end]) {
		return 0 // "NAN zenbakia: 30.678.124-B": an identity number, the recognizers' to type
	}
	return end
}

// isDNIOrNIE: s, without its dots, dashes and spaces, is a DNI or NIE whose letter is right.
func isDNIOrNIE(s string) bool {
	var buf [24]byte
	a := alnum(buf[:0], s)
	return len(a) == 9 && (validDNI(string(a)) || validNIE(string(a)))
}

// appendPatientID: right after a patient word (only spaces, ':', '.', '(', '=' or '"' between), a hospital's
// id — two to five capitals then at least five digits, dashes between them allowed, nothing
// after ("Pcte. HGU0093377", "Patient: RTX0048812"). A name or a DNI there is left alone.
func appendPatientID(out []Span, text string, from int) []Span {
	i := from
	for i < len(text) && i-from < 4 && strings.IndexByte(" :.(=\"", text[i]) >= 0 { // "patient=RJZ…", "patient": "RJZ…"
		i++
	}
	j := i
	for j < len(text) && text[j] >= 'A' && text[j] <= 'Z' {
		j++
	}
	if j-i < 2 || j-i > 5 {
		return out
	}
	if j < len(text) && text[j] == '-' {
		j++
	}
	k := j
	for k < len(text) && (isDigitByte(text[k]) || text[k] == '-' && k+1 < len(text) && isDigitByte(text[k+1])) {
		k++
	}
	digits := 0
	for q := j; q < k; q++ {
		if isDigitByte(text[q]) {
			digits++
		}
	}
	if digits < 5 || !wordEnd(text, k) || validNIE(text[i:k]) {
		return out
	}
	return append(out, Span{Start: i, End: k, Type: TypeMRN, Text: text[i:k], Score: 0.8, Source: "cue"})
}

// capitalsBefore returns the start of a group of 2 to 4 capitals and a space right before i (a
// centre's or a region's letters before the digits), or -1.
func capitalsBefore(text string, i int) int {
	if i < 3 || text[i-1] != ' ' {
		return -1
	}
	b := i - 1
	for b > 0 && i-1-b < 5 && text[b-1] >= 'A' && text[b-1] <= 'Z' {
		b--
	}
	if n := i - 1 - b; n < 2 || n > 4 || b > 0 && isWordByte(text[b-1]) {
		return -1
	}
	return b
}

// strongMRN: a record number read a few words after its cue: it starts with a capital and holds
// no lower-case letter, or is six digits or more grouped by spaces or dashes only.
func strongMRN(v string) bool {
	if strings.ContainsAny(v, "/.") {
		return false
	}
	if v[0] >= 'A' && v[0] <= 'Z' {
		return allUpper(v)
	}
	n := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case isDigitByte(c):
			n++
		case c != ' ' && c != '-':
			return false
		}
	}
	return n >= 6
}

// allUpper: s holds no lower-case ASCII letter.
func allUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			return false
		}
	}
	return true
}

// expiryFillers may stand between an expiry cue and its value, besides fillerWords.
var expiryFillers = words(`end fin finales final on in el en a de del of the date data fecha do da la le es is e ist
	tarjeta targeta tarxeta carton cartao cartão card cards karte txartela txartelaren credito debito credit debit`)

// cvvFillers may stand between a security-code cue and its value, besides fillerWords ("codi de
// seguretat de quatre xifres: 7391", "4-digit code").
var cvvFillers = words(`cifras xifres digitos digits digit cuatro quatre catro four tres three lau hiru`)

func appendCVV(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	from, wi := h.end, h.last+1
	if from+1 < len(text) && text[from] == '2' && !isDigitByte(text[from+1]) {
		from++ // "CVV2", "CVC2": the words stop before the digit
	}
	for k := 0; k < 4 && wi < len(ws) && ws[wi].start-from <= 3; k++ { // skip "de quatre xifres"
		if f := string(ws[wi].fold(fc)); !cvvFillers[f] && !(fillerWords[f] && wi+1 < len(ws) && cvvFillers[string(ws[wi+1].fold(fc))]) {
			break
		}
		from = ws[wi].end
		wi++
	}
	cvvAt := func(at int) int {
		if at < 0 {
			return 0
		}
		end, digits, letters := tokenAt(text, at, 5)
		if letters > 0 || digits < 3 || digits > 4 || end-at != digits || !wordEnd(text, end) {
			return 0
		}
		return end
	}
	for try := 0; try < 2; try++ {
		at := nextValue(text, from, 16, 2, false, fc, ws, wi)
		if end := cvvAt(at); end > 0 {
			return append(out, Span{Start: at, End: end, Type: TypeCVV, Text: text[at:end], Score: 0.85, Source: "cue"})
		}
		if try == 0 {
			// "el cvv q me dice es 318": a few words in lower case, then the code
			if at2 := nextValue(text, from, 32, 5, true, fc, ws, wi); at2 > at && !strings.ContainsAny(text[from:at2], ",;(\n") &&
				!hasUpperASCII(text[from:at2]) {
				if end := cvvAt(at2); end > 0 {
					return append(out, Span{Start: at2, End: end, Type: TypeCVV, Text: text[at2:end], Score: 0.85, Source: "cue"})
				}
			}
		}
		// "el cvv lo tengo apuntado: 731": the value after a colon further along the line
		c := strings.IndexByte(text[from:min(len(text), from+40)], ':')
		if c < 0 || strings.ContainsAny(text[from:from+c], "\n.0123456789") {
			return out
		}
		from += c + 1
		for wi < len(ws) && ws[wi].start < from {
			wi++
		}
	}
	return out
}

// appendExpiry reads a card expiry at from: MM/YY, MM/YYYY, MM-YY, or (in a JSON value, right
// after its key) YYMM.
func appendExpiry(out []Span, text string, from int, ws []word, fc *folder, wi int, score float64) []Span {
	at := nextValue(text, from, 16, 2, false, fc, ws, wi)
	if at < 0 || at+4 > len(text) {
		return out
	}
	d := func(k int) bool { return at+k < len(text) && isDigitByte(text[at+k]) }
	if !d(0) && score >= 0.8 {
		// after an expiry cue: a month name and a year ("caduca en marzo de 2027", "expires May 2028")
		p := dateParser{text: text, ws: ws, fc: fc}
		if e := p.monthYearShort(at); e > 0 {
			return append(out, Span{Start: at, End: e, Type: TypeCardExp, Text: text[at:e], Score: score, Source: "cue"})
		}
		return out
	}
	if d(0) && at+1 < len(text) && (text[at+1] == '/' || text[at+1] == '-') && d(2) && d(3) && !d(4) && text[at] != '0' && score >= 0.8 {
		// M/YY after a cue ("exp 3/27")
		if yy := int(text[at+2]-'0')*10 + int(text[at+3]-'0'); yy >= 15 && yy <= 45 && wordEnd(text, at+4) {
			return append(out, Span{Start: at, End: at + 4, Type: TypeCardExp, Text: text[at : at+4], Score: score, Source: "cue"})
		}
	}
	if d(0) && d(1) && d(2) && d(3) && at+6 < len(text) && (text[at+4] == '/' || text[at+4] == '-') && d(5) && d(6) && !d(7) && score >= 0.8 {
		// YYYY/MM after a cue ("iraungitze data 2027/08")
		y, m := atoi(text[at:at+4]), atoi(text[at+5:at+7])
		if y >= 2015 && y <= 2045 && m >= 1 && m <= 12 && wordEnd(text, at+7) {
			return append(out, Span{Start: at, End: at + 7, Type: TypeCardExp, Text: text[at : at+7], Score: score, Source: "cue"})
		}
	}
	if !d(0) || !d(1) {
		return out
	}
	m := int(text[at]-'0')*10 + int(text[at+1]-'0')
	end := -1
	switch {
	case at+6 < len(text) && text[at+2] == ' ' && text[at+3] == '/' && text[at+4] == ' ' && d(5) && d(6) && !d(7) && score >= 0.8:
		end = at + 7 // "11 / 26"
		if m < 1 || m > 12 {
			end = -1
		}
	case at+2 < len(text) && (text[at+2] == '/' || text[at+2] == '-') && d(3) && d(4):
		end = at + 5
		if d(5) && d(6) && text[at+3:at+5] == "20" {
			end = at + 7
		}
		if m < 1 || m > 12 {
			end = -1
		}
	case d(2) && d(3) && !d(4) && strings.HasSuffix(strings.TrimRight(text[from:at], " "), `"`):
		// a JSON value: YYMM as card processors store it, or MMYY as people type it ("1126")
		a, b := m, int(text[at+2]-'0')*10+int(text[at+3]-'0')
		if a >= 15 && a <= 45 && b >= 1 && b <= 12 || a >= 1 && a <= 12 && b >= 15 && b <= 45 {
			end = at + 4
		}
	case d(2) && d(3) && !d(4):
		// MMYY, as card forms and chats write it after "cad." or a card ("cad. 0828")
		if yy := int(text[at+2]-'0')*10 + int(text[at+3]-'0'); m >= 1 && m <= 12 && yy >= 15 && yy <= 45 {
			end = at + 4
		}
	}
	if end < 0 || !wordEnd(text, end) && !closingQuoteAt(text, end) || end < len(text) && (text[end] == '/' || text[end] == '-') && end+1 < len(text) && isDigitByte(text[end+1]) {
		return out
	}
	return append(out, Span{Start: at, End: end, Type: TypeCardExp, Text: text[at:end], Score: score, Source: "cue"})
}

func appendPassport(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	n := len(out)
	out = appendPassportAtCue(out, text, h, ws, fc)
	if len(out) > n || h.end-h.start == 4 {
		return out
	}
	// "el pasaporte lo tiene en vigor hasta 2031, número PE2290447", "passport expiring 2029,
	// number 557812340": a number word further along the sentence, then the value
	if at := numberWordLater(fc.lower, text, h.end); at > 0 {
		end, digits, letters := tokenAt(text, at, 12)
		if e := nationalPassportAt(text, at); e > 0 {
			end = e
		} else if k := end - at; k < 6 || k > 10 || digits+letters != k || digits < 4 || !wordEnd(text, end) || isDNIOrNIE(text[at:end]) {
			return out
		}
		out = append(out, Span{Start: at, End: end, Type: TypePassport, Text: text[at:end], Score: 0.85, Source: "cue"})
	}
	return out
}

// numberWordsLater: the words that introduce a document's number in a sentence.
var numberWordsLater = byteWords("número", "numero", "number", "nº", "n.º", "numéro", "nummer", "zenbakia", "núm")

// numberWordLater: the start of the value right after a number word (numberWordsLater, then
// spaces, ':' or '.') within 100 bytes after from in the same sentence, or -1.
func numberWordLater(lower []byte, text string, from int) int {
	end := min(len(text), from+100)
	for i := from; i < end; i++ {
		if sentenceEnd(text, i) || text[i] == ';' || text[i] == '(' {
			return -1
		}
		if i > 0 && isWordByte(lower[i-1]) {
			continue
		}
		for _, w := range numberWordsLater {
			if bytes.HasPrefix(lower[i:], w) {
				if referenceBefore(text, i) || thingBefore(text, i) {
					return -1 // "order number ORD12345": another thing's number
				}
				j := i + len(w)
				for j < len(text) && (text[j] == ' ' || text[j] == ':' || text[j] == '.') {
					j++
				}
				if j > i+len(w) && j < len(text) && isAlnum(text[j]) {
					return j
				}
			}
		}
	}
	return -1
}

func appendPassportAtCue(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	if h.last == h.word && h.end-h.start == 4 && (h.end >= len(text) || text[h.end] != '.') && string(ws[h.word].fold(fc)) == "pass" {
		return out // "pass." abbreviates a passport; a bare "pass" is a boarding pass, a pass mark
	}
	from, wi := h.end, h.last+1
	if at := nextValue(text, from, 40, 4, true, fc, ws, wi); at >= 0 {
		if e := nationalPassportAt(text, at); e > 0 && !referenceBefore(text, at) && !thingBefore(text, at) {
			out = append(out, Span{Start: at, End: e, Type: TypePassport, Text: text[at:e], Score: 0.85, Source: "cue"})
			return appendPassportList(out, text, e, ws, fc)
		}
	}
	for try := 0; try < 2; try++ {
		at := nextValue(text, from, 40, 4, true, fc, ws, wi)
		if at > 2 && isDigitByte(text[at]) && text[at-1] == ' ' && text[at-2] >= 'A' && text[at-2] <= 'Z' {
			// the letters of "PAA 482917" were skipped as a word
			b := at - 2
			for b > 0 && at-1-b < 3 && text[b-1] >= 'A' && text[b-1] <= 'Z' {
				b--
			}
			if b >= from && (b == 0 || !isWordByte(text[b-1])) && spacedPassportAt(text, b) > 0 {
				at = b
			}
		}
		if e := spacedPassportAt(text, at); e > 0 {
			out = append(out, Span{Start: at, End: e, Type: TypePassport, Text: text[at:e], Score: 0.85, Source: "cue"})
			return appendPassportList(out, text, e, ws, fc)
		}
		if at >= 0 {
			end, digits, letters := tokenAt(text, at, 12)
			n := end - at
			if !(n < 6 || n > 10 || digits+letters != n || !wordEnd(text, end) || digits < 4 || digits < 6 && letters > 5) {
				if isDNIOrNIE(text[at:end]) {
					return out // "documento": "X5512048Y": the NIE, its recognizer's to type
				}
				out = append(out, Span{Start: at, End: end, Type: TypePassport, Text: text[at:end], Score: 0.85, Source: "cue"})
				return appendPassportList(out, text, end, ws, fc)
			}
		}
		if try == 0 {
			// "el pasaporte de la clienta alemana es C4J8K2L7M", "passport, as shown at signing,
			// is YA4417290": further along the sentence, a token in capitals and digits
			if at, end := passportFurther(text, from); at > 0 {
				out = append(out, Span{Start: at, End: end, Type: TypePassport, Text: text[at:end], Score: 0.85, Source: "cue"})
				return appendPassportList(out, text, end, ws, fc)
			}
		}
		// "Passport numbers for the two buyers: 548213907 and …": the value after a colon
		// further along the line
		c := strings.IndexByte(text[from:min(len(text), from+60)], ':')
		if c < 0 || strings.ContainsAny(text[from:from+c], "\n.") {
			return out
		}
		from = from + c + 1
		for wi < len(ws) && ws[wi].start < from {
			wi++
		}
	}
	return out
}

// nationalPassportAt: the national passport numbers the generic shape (6 to 10 capitals and
// digits, 4 digits at least) misses, read only right after a passport cue: a German one, nine
// characters of its alphabet (no vowels but none of B D Q S U: C F G H J K L M N P R T V W X Y Z
// and digits), first C F G H J or K, with a digit; a Russian one in its printed form, two digits,
// a space, seven digits ("75 4812639"); nine digits read out in threes. Its end, or 0.
func nationalPassportAt(text string, at int) int {
	if at+9 > len(text) {
		return 0
	}
	if e := at + 9; strings.IndexByte("CFGHJK", text[at]) >= 0 && wordEnd(text, e) {
		digits := 0
		for i := at; i < e; i++ {
			c := text[i]
			if isDigitByte(c) {
				digits++
			} else if strings.IndexByte("CFGHJKLMNPRTVWXYZ", c) < 0 {
				digits = -100
			}
		}
		if digits >= 1 && digits < 9 {
			return e
		}
	}
	if at+10 <= len(text) && isDigitByte(text[at]) && isDigitByte(text[at+1]) && text[at+2] == ' ' && allDigits(text[at+3:at+10]) && wordEnd(text, at+10) {
		return at + 10
	}
	// a US or British one read out in threes: "567 012 389"
	if at+11 <= len(text) && allDigits(text[at:at+3]) && text[at+3] == ' ' && allDigits(text[at+4:at+7]) && text[at+7] == ' ' &&
		allDigits(text[at+8:at+11]) && wordEnd(text, at+11) && !(at+12 < len(text) && text[at+11] == ' ' && isDigitByte(text[at+12])) {
		return at + 11
	}
	return 0
}

// passportFurther: after a passport cue ending at from, the first token within 80 bytes of the
// same sentence that is passport-shaped and typed as one — 6 to 10 capitals and digits, at least
// one capital and 4 digits — after nothing but words in lower case, commas and spaces. Its
// start and end, or 0, 0.
func passportFurther(text string, from int) (int, int) {
	end := min(len(text), from+80)
	for i := from; i < end; i++ {
		c := text[i]
		switch {
		case sentenceEnd(text, i) || isDigitByte(c):
			return 0, 0
		case c >= 'A' && c <= 'Z' && (i == 0 || !isWordByte(text[i-1])):
			e, digits, letters := tokenAt(text, i, 12)
			if n := e - i; n >= 6 && n <= 10 && digits+letters == n && digits >= 4 && allUpper(text[i:e]) && wordEnd(text, e) {
				if referenceBefore(text, i) || thingBefore(text, i) {
					return 0, 0 // "passport renewal, see ticket INC1234567"
				}
				return i, e
			}
			if digits > 0 {
				return 0, 0
			}
		case c == '(' || c == ':' || c == '/' || c == '$':
			return 0, 0
		}
	}
	return 0, 0
}

// billWords name things that fall due or end (bills, loans, offers, policies) and whose dates
// are no card's expiry even when a card is mentioned nearby.
var billWords = words(`recibo recibos rebut rebuts recibo factura facturas factura bill bills invoice prestamo loan
	hipoteca mortgage oferta offer promo promocion promocio deal seguro poliza policy insurance contrato contract
	plazo deposito deposit alquiler rent lloguer cuota quota llum luz agua aigua gas telefono fibra suscripcion
	subscription abonament abono matricula ordainagiria faktura mailegua eskaintza`)

// billBefore: one of billWords stands among the five words before an expiry cue at i, in the
// same clause (prevWordReader stops at a digit, a comma or a line break).
func billBefore(text string, i int) bool {
	var pw prevWordReader
	pw.init(text, i)
	for k := 0; k < 5; k++ {
		w, ok := pw.next()
		if !ok {
			return false
		}
		if billWords[string(w)] {
			return true
		}
		for _, c := range cardWords {
			if string(w) == c {
				return false
			}
		}
	}
	return false
}

// documentWords name an identity document or a licence, whose expiry date is no card's.
var documentWords = byteWords("pasaporte", "passport", "passaport", "passeport", "dni", "nie", "tie ", "documento",
	"document", "permiso", "licencia", "licence", "license", "carnet", "carné", "residencia", "residence", "visado", "visa de",
	"id card", "nan", "pasaportea", "nortasun")

// documentExpiry: an expiry cue at i follows, in the same sentence and within 100 bytes, a word
// naming an identity document with no card word or card number after it.
func documentExpiry(lower []byte, i int, spans []Span) bool {
	lo := max(0, i-100)
	b := lower[lo:i]
	if k := bytes.LastIndexAny(b, "\n"); k >= 0 {
		b, lo = b[k+1:], lo+k+1
	}
	if k := bytes.LastIndex(b, []byte(". ")); k >= 0 {
		b, lo = b[k+2:], lo+k+2
	}
	doc := -1
	for _, w := range documentWords {
		if k := bytes.LastIndex(b, w); k > doc && (k == 0 || !isWordByte(b[k-1])) {
			doc = k
		}
	}
	if doc < 0 {
		return false
	}
	for _, w := range cardWords {
		if k := bytes.LastIndex(b, []byte(w)); k > doc {
			return false
		}
	}
	for _, sp := range spans {
		if sp.Type == TypeCard && sp.Start >= lo+doc && sp.Start < i {
			return false
		}
	}
	return true
}

// spacedPassportAt returns the end of a passport number written with a space between its
// letters and its digits ("PAA 482917", "GB 123456789"): one to three capitals, a space, six to
// nine digits, nothing word-like after; or 0.
func spacedPassportAt(text string, at int) int {
	if at < 0 {
		return 0
	}
	j := at
	for j < len(text) && j-at < 4 && text[j] >= 'A' && text[j] <= 'Z' {
		j++
	}
	if j == at || j-at > 3 || j+1 >= len(text) || text[j] != ' ' {
		return 0
	}
	k := j + 1
	for k < len(text) && isDigitByte(text[k]) {
		k++
	}
	if n := k - j - 1; n < 6 || n > 9 || !wordEnd(text, k) || k+1 < len(text) && (text[k] == ' ' || text[k] == '.' || text[k] == '-') && isDigitByte(text[k+1]) {
		return 0
	}
	return k
}
