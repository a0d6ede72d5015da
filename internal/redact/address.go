package redact

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Addresses as a grammar (issue #13). An address is a chain of segments separated by ", ", " "
// or " - ": a street (a street-type word, its name, a number or "s/n": "calle San Bernardo 61",
// "c/ pintor sorolla 9", "Nagusia kalea 7", "rue des Lilas", "44 Upper Richmond Road"), an area
// (urbanización, polígono, barrio, lugar + its name), a unit (puerta 14, hab. 402, Flat 12,
// Apt 5B, parcela 14), a floor and door (3º izq., 2.º Esq., 3r 1a, 4. ezk., bajo, baixos), a
// postcode and its town (28013 Madrid, 1000 Bruxelles, 1100-048 Lisboa), a town, a UK postcode
// (SW15 2RD) or a US state and ZIP (IL 62704). A chain is an address when it holds a street with
// a number (or s/n), an area with a number or unit, or a postcode followed by a town — so
// "28013 Madrid" alone is one, and "la calle Mayor" or "Gran Vía" without a number is not.
// Case does not matter ("carrer de provença 214 3r 2a barcelona"), except that a town in lower
// case must be a known place.

type segKind uint8

const (
	segNone segKind = iota
	segStreet
	segStreetName // a street type and name without a number yet
	segArea
	segNumber
	segFloor
	segUnit
	segPostcodeTown
	segTown
	segUKPostcode
	segStateZip
)

// streetTypeWords are the folded words that start a street ("c" is C/, "av" Av.).
var streetTypeWords = words(`calle c cl cll avenida avda av avd avgda paseo po pº plaza pza pl plaça placa plazuela
	ronda camino cami carretera ctra travesia trav glorieta carrer rambla rua passeig pg avinguda callejon costanilla
	riera travessera travessia baixada pujada bajada
	cuesta pasaje passatge alameda bulevar boulevard bd bvd rue avenue allee chemin impasse quai strasse str straße
	viale piazza largo travessa praça praca estrada kale calzada paraje partida carreró carrero vial senda via
	corso vicolo contrada praza ptge psg pje cno rda pso gta plza calcada travesa heol ffordd stryd camiño corredoira carrera
	vul vulytsia vulytsya vulitsa prospekt prosp provulok
	chaussee dreve strada bulevardul calea soseaua splaiul aleea intrarea bv bvar`)

// areaWords start an area that a street or a number may follow.
var areaWords = words(`urbanizacion urb poligono pol barrio barri bº barriada bda lugar lg residencial edificio edif colonia
	conjunto complejo finca parque caserio caseria aldea lugar apartamentos aptos parroquia`)

// separateStreetWord: German and Dutch street words written as a word of their own after the
// name ("Mariahilfer Straße 101", "Bahnhof Str. 3").
var separateStreetWord = words(`straße strasse str gasse allee platz weg ring damm ufer straat laan gracht`)

// isSeparateStreetWord is separateStreetWord[string(f)] without hashing f (a switch on the
// length first): mayStartAddress asks it of the word after every capitalised one.
func isSeparateStreetWord(f []byte) bool {
	switch string(f) {
	case "straße", "strasse", "str", "gasse", "allee", "platz", "weg", "ring", "damm", "ufer", "straat", "laan", "gracht":
		return true
	}
	return false
}

// postfixStreetWords end a Basque street's name ("Nagusia kalea", "Gernikako Arbola etorbidea").
var postfixStreetWords = words(`kalea etorbidea hiribidea bidea pasealekua enparantza plaza errepidea kalexka auzoa`)

// suffixStreetWords end an English street's name ("Church Lane", "Mission St").
var suffixStreetWords = words(`street st road rd lane ln avenue ave av drive dr court ct close way place pl square sq
	crescent terrace grove gardens park row hill boulevard blvd mews walk parade circus wharf green`)

// unitWords come with a number or a letter: puerta 14, hab. 402, Flat 12, Apt 5B.
var unitWords = words(`puerta pta piso planta esc escalera bloque blq portal letra hab habitacion apt apto apartamento
	apartment flat unit suite parcela nave casa km local porta pis escala poligono pol appt app bat batiment escalier etage
	kv kvartyra bte boite boîte depto dpto`)

// floorWords stand alone as a floor or door.
var floorWords = words(`bajo bajos baixo baixos behea entresuelo entlo atico atic entresol soterrani principal pral
	sotano izq izqda izda izquierda dcha dcho derecha dta dreta esq esquerra esquerda esquerdo dereita direito dto ezk
	ezkerra eskuina eskubia centro ctro int ext exterior interior bis duplicado dup derecho entl entr bj bjo baix bxs
	sobreatic ppal drcha drch dch izqd esk entreplanta entrepis altillo buhardilla sobreatico eskuma eskumako ezkerreko
	eskuin ezker pisua solairua`)

// addrStop are words that never sit inside a street's name: a sentence goes on there.
var addrStop = words(`que en con por para es esta está son hay muy mas más se le lo me te nos y o pero si no the in
	at on is are was and or but to for with from que ya q dice dijo vive vivo reside donde where which
	hasta desde hacia sobre entre antes despues después until before after around about since`)

type addrParser struct {
	text string
	p    *dateParser
	// lowerArea: the last area read has a name in lower case ("edificio mirador"); a chain it
	// starts is an address only with a postcode.
	lowerArea bool
	// slashNumber: a number may carry a flat after a slash ("ul. Piękna 7/12"); set only while a
	// Polish street is read.
	slashNumber bool
	// extra holds the phones and documents the round-10 rules (rules_ids.go) read during the
	// passes over the figures and the words that this file makes anyway (a pass of their own
	// cost 3 % of a 4 KiB prompt); appended after the addresses are merged, never merged. Nil
	// until one is found (rare): a buffer of its own in the parser made the parser escape.
	extra []Span
}

// appendAddresses appends every address chain the grammar reads in text.
func appendAddresses(out []Span, text string, ws []word, fc *folder) []Span {
	a := addrParser{text: text, p: &dateParser{text: text, ws: ws, fc: fc}}
	first := len(out)
	for k := range out {
		if out[k].Type == TypeAddress {
			out[k] = a.trimConjunction(out[k])
		}
	}
	last := 0
	var skipBuf [4][2]int
	skip := skipBuf[:0] // office addresses: no postcode inside them is read again
	for i := 0; i < len(ws); i++ {
		if ws[i].start < last {
			continue
		}
		if !mayStartAddress(ws, i, fc) {
			if c := fc.lower[ws[i].start]; (c == 'h' || c == 'p' || c == 'a') && ws[i].end-ws[i].start >= 5 && stayStart(fc.lower[ws[i].start+1]) {
				if e := a.hotelRoom(i); e > 0 {
					out = append(out, Span{Start: ws[i].start, End: e, Type: TypeAddress, Text: text[ws[i].start:e], Score: 0.85, Source: "address"})
					last = e
				}
			}
			continue
		}
		s, e := a.chainAt(ws[i].start)
		if e <= s {
			continue
		}
		if !a.office(s) {
			out = a.emit(out, s, e, 0.85)
		} else {
			skip = append(skip, [2]int{s, e})
			fc.offices = append(fc.offices, [2]int{s, e})
		}
		last = e
	}
	// chains that start with a number (44 Upper Richmond Road, 12 rue des Lilas), and a
	// postcode and town on their own ("28013 Madrid", "46022 valencia")
	n := len(out)
	for i := 0; i+1 < len(text); i++ {
		if !isDigitByte(text[i]) {
			i = nextDigit(text, i) - 1 // the loop's i++ lands on the next digit
			continue
		}
		if i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.' || text[i-1] == ',' && i > 1 && isDigitByte(text[i-2])) {
			continue
		}
		if text[i] >= '6' {
			// a phone no pattern holds ("60O 22 15 48", "6 44 81 20 93", "943 56 18 02ra")
			var e int
			if a.extra, e = appendLoosePhoneAt(a.extra, out[:first], text, ws, fc, i); e > 0 {
				i = e - 1
				continue
			}
		}
		// only a run of 1–5 digits (4-3 for a Portuguese code) then a space and a letter
		j := i
		for j < len(text) && isDigitByte(text[j]) {
			j++
		}
		if j-i <= 4 && i >= 2 && text[i-1] == ' ' && (isASCIILetterByte(text[i-2]) || text[i-2] >= 0x80) &&
			(j == len(text) || strings.IndexByte(" ,.;)\n", text[j]) >= 0 || j+1 < len(text) && isASCIILetterByte(text[j]) && (text[j+1] == ' ' || text[j+1] == ',')) &&
			!insideAny(out[first:n], skip, i) {
			// a street without a street-type word: "Velázquez 88 2º izq", "Cuba 7 bajo b, 36204 vigo"
			if s, e := a.bareStreetAt(i); e > s {
				if !a.office(s) {
					out = a.emit(out, s, e, 0.8)
				} else {
					skip = append(skip, [2]int{s, e})
					fc.offices = append(fc.offices, [2]int{s, e})
				}
				i = e
				continue
			}
		}
		if j-i == 5 && !insideAny(out[first:n], skip, i) {
			if e := a.townPostcode(i); e > 0 {
				// "en Toledo 45007": a known town, then its postcode
				s := a.wordEndingAt(i - 1)
				if st := a.p.ws[s].start; !officeBefore(fc.lower, st) {
					out = append(out, Span{Start: st, End: e, Type: TypeAddress, Text: text[st:e], Score: 0.75, Source: "address"})
				}
				i = e
				continue
			}
		}
		if j-i <= 4 && j+1 < len(text) && (text[j] >= 'A' && text[j] <= 'H' && text[j+1] == ' ' || text[j] == '/' && isDigitByte(text[j+1])) {
			// "221B Baker Street": a house number with a letter; "8/2 Marchmont Road": a flat
			if s, e := a.chainAt(i); e > s && !insideAny(out[first:n], skip, i) {
				if !a.office(s) {
					out = a.emit(out, s, e, 0.85)
				} else {
					skip = append(skip, [2]int{s, e})
					fc.offices = append(fc.offices, [2]int{s, e})
				}
				i = e
				continue
			}
		}
		if j-i == 5 && (j == len(text) || !isWordByte(text[j])) && postcodeFieldBefore(fc.lower, i) &&
			!insideAny(out[first:n], skip, i) && !officeBefore(fc.lower, i) {
			// the postcode alone as a labelled field's value ("postalCode":"50003", zip: 29601, C.P.: 33201)
			out = append(out, Span{Start: i, End: j, Type: TypeAddress, Text: text[i:j], Score: 0.75, Source: "address"})
			i = j
			continue
		}
		if j-i > 5 || j+2 > len(text) || !(text[j] == ' ' || text[j] == ',' && text[j+1] == ' ') {
			i = j
			continue
		}
		if k := j + 1; text[j] == ',' && k+1 < len(text) {
			j = k
		}
		if c := text[j+1]; !(isASCIILetterByte(c) || c >= 0x80) {
			i = j
			continue
		}
		inside := false
		for _, sp := range out[first:n] {
			if sp.Start <= i && i < sp.End {
				inside = true
				break
			}
		}
		for _, r := range skip {
			inside = inside || r[0] <= i && i < r[1]
		}
		if inside {
			continue
		}
		if s, e := a.chainAt(i); e > s {
			if !a.office(s) {
				out = a.emit(out, s, e, 0.85)
			} else {
				skip = append(skip, [2]int{s, e})
				fc.offices = append(fc.offices, [2]int{s, e})
			}
			i = e
			continue
		}
		if e, ok := a.postcodeTown(i, true); ok && !a.codeWordBefore(i) {
			s := a.bareStreetBefore(i)
			if s == i {
				s = a.cpBefore(i) // "C.P. 46001 Valencia"
			}
			if s == i {
				s = a.knownTownBefore(i)
			}
			if !officeBefore(fc.lower, s) {
				out = append(out, Span{Start: s, End: e, Type: TypeAddress, Text: text[s:e], Score: 0.75, Source: "address"})
			} else {
				fc.offices = append(fc.offices, [2]int{s, e})
			}
			i = e
			continue
		}
		for i+1 < len(text) && isDigitByte(text[i+1]) {
			i++
		}
	}
	// a British postcode on its own ("New postcode SW1A 1AA")
	n = len(out)
	for i := range ws {
		c := text[ws[i].start]
		if c < 'A' || c > 'Z' || ws[i].end-ws[i].start > 4 {
			continue
		}
		e := a.ukPostcode(ws[i].start)
		if e == 0 {
			e = eircode(text, ws[i].start)
		}
		if e == 0 {
			continue
		}
		inside := false
		for _, sp := range out[first:n] {
			inside = inside || sp.Start <= ws[i].start && ws[i].start < sp.End
		}
		for _, r := range skip {
			inside = inside || r[0] <= ws[i].start && ws[i].start < r[1]
		}
		if !inside && !officeBefore(fc.lower, ws[i].start) {
			s := a.ukBefore(ws[i].start)
			if k := len(out) - 1; k >= first && out[k].Type == TypeAddress && out[k].End <= s && s-out[k].End <= 6 &&
				dublinDistrict(strings.Trim(text[out[k].End:s], ", ")) {
				// the town and postcode after an address the chain ended before ("…, Howth, Dublin D13 X2K7")
				out[k].End, out[k].Text = e, text[out[k].Start:e]
				continue
			}
			out = append(out, Span{Start: s, End: e, Type: TypeAddress, Text: text[s:e], Score: 0.75, Source: "address"})
		}
	}
	out = a.appendResidenceTowns(out, first, skip)
	return append(mergeAdjacentAddresses(out, first, text), a.extra...)
}

// trimConjunction: a street pattern's address that ends with a one-letter conjunction after its
// number, read as a door letter ("calle Luna 3 y trabaja en…", "rúa Nova 3 e traballa"), ends
// before it: a door letter is not followed by a lower-case word that is no floor or door word.
func (a *addrParser) trimConjunction(sp Span) Span {
	t, e := a.text, sp.End
	if e-sp.Start < 6 || t[e-2] != ' ' || !isDigitByte(t[e-3]) || strings.IndexByte("yeiou", t[e-1]) < 0 ||
		e+2 >= len(t) || t[e] != ' ' || t[e+1] < 'a' || t[e+1] > 'z' {
		return sp
	}
	if f, fe := a.p.foldAt(e + 1); fe < 0 || fe-(e+1) < 2 || floorWords[f] || unitWords[f] {
		return sp
	}
	sp.End = e - 2
	sp.Text = t[sp.Start:sp.End]
	return sp
}

// floorOrdinals: a floor said first, in words ("la del bajo c de Fuencarral 101", "el vecino del
// primero A de Bravo Murillo 85", "la del ático de Princesa 3").
var floorOrdinals = words(`bajo bajos baixo baixos entresuelo entlo principal atico primero segundo tercero cuarto
	quinto sexto septimo octavo noveno decimo primer tercer segon quart cinque sise entresol baix
	terceiro cuarto quinto`)

// floorDoors may follow a floor said first: a door word, or (in floorFirst) a door letter.
var floorDoors = words(`izquierda derecha izq izqda izda dcha dcho centro interior exterior int ext esquerra dreta
	esquerda dereita primera segona tercera quarta`)

// floorFirst reads at word i (after "del", "el", "al", Galician "do"/"da": appendResidenceTowns
// asks) a floor said first, its door, then
// "de" and the street's capitalised name and its number, and what follows it in a chain (a
// postcode and town): the end, or 0. The capital and the number make it a street: "la del
// segundo de la escalera", "el primero de la lista 3" are not.
func (a *addrParser) floorFirst(i int) int {
	ws, fc, t := a.p.ws, a.p.fc, a.text
	if !floorOrdinals[string(ws[i].fold(fc))] {
		return 0
	}
	j := i + 1
	for n := 0; n < 2 && j < len(ws) && ws[j].start == ws[j-1].end+1; n++ {
		w := ws[j]
		if f := string(w.fold(fc)); floorDoors[f] || w.end-w.start == 1 && (f[0] >= 'a' && f[0] <= 'h') && f != "de" {
			j++
			continue
		}
		break
	}
	if j+1 >= len(ws) || ws[j].start != ws[j-1].end+1 || string(ws[j].fold(fc)) != "de" || ws[j+1].start != ws[j].end+1 {
		return 0
	}
	k := j + 1
	if _, month := monthNames[string(ws[k].fold(fc))]; month {
		return 0 // "el segundo de Mayo 12 veces": a date's words
	}
	for n := 0; n < 4 && k < len(ws); n++ {
		f := string(ws[k].fold(fc))
		if capitalised(ws[k].text) && !addrStop[f] || n > 0 && nameParticles[f] {
			if e := ws[k].end; e+1 < len(t) && t[e] == ' ' && isDigitByte(t[e+1]) && capitalised(ws[j+1].text) {
				ne := a.number(e + 1)
				if ne <= 0 || !a.houseNumber(e+1, ne) {
					return 0
				}
				_, end := a.chainFrom(ws[j+1].start, segStreet, ne)
				return max(end, ne)
			}
			if k+1 < len(ws) && ws[k+1].start == ws[k].end+1 {
				k++
				continue
			}
		}
		return 0
	}
	return 0
}

// hotelWords name a place of stay whose room is where a guest (a tourist patient, a customer
// on a trip) can be found.
var hotelWords = words(`hotel hotela hostal hostel aparthotel parador pension pensió pousada albergue apartamentos`)

// stayRoomWords number the room of a stay.
var stayRoomWords = words(`habitacion habitació habitacio hab room rm gela quarto cuarto chambre zimmer camera`)

// hotelRoom reads a stay address at word i: a hotel word, its name (one to four capitalised
// words, particles between), a comma or a space, then a room word and its number ("Hotel
// Miramar, habitación 305", "Hotel Las Arenas, hab. 512", "Hotel Sol, room 412"). A hotel's
// name alone is a business, not an address: the room number makes it the person's.
func (a *addrParser) hotelRoom(i int) int {
	ws, fc, t := a.p.ws, a.p.fc, a.text
	if !hotelWords[string(ws[i].fold(fc))] {
		return 0
	}
	j, names := i+1, 0
	for ; j < len(ws) && j <= i+6; j++ {
		g := t[ws[j-1].end:ws[j].start]
		if g != " " && g != "-" {
			break
		}
		fw := string(ws[j].fold(fc))
		if capitalised(ws[j].text) && !stayRoomWords[fw] {
			names++
			continue
		}
		if !(nameParticles[fw] || townArticle(fw)) || names == 0 && fw != "las" && fw != "los" && fw != "el" && fw != "la" {
			break
		}
	}
	if names == 0 || names > 4 || j >= len(ws) {
		return 0
	}
	if g := t[ws[j-1].end:ws[j].start]; g != " " && g != ", " && g != " - " && g != " (" {
		return 0
	}
	if !stayRoomWords[string(ws[j].fold(fc))] {
		return 0
	}
	k := ws[j].end
	if k < len(t) && t[k] == '.' {
		k++
	}
	for k < len(t) && (t[k] == ' ' || t[k] == ':') {
		k++
	}
	if k < len(t) && (t[k] == 'n' || t[k] == 'N') && k+1 < len(t) && (t[k+1] == 'o' || t[k+1] == 0xC2) {
		for k < len(t) && t[k] != ' ' && !isDigitByte(t[k]) {
			k++ // "nº", "no."
		}
		for k < len(t) && t[k] == ' ' {
			k++
		}
	}
	_, e, nd := a.p.digitsAt(k, 5)
	if nd == 0 || nd > 4 || e < len(t) && isWordByte(t[e]) && !(e+1 == len(t) || !isWordByte(t[e+1])) {
		return 0
	}
	if e < len(t) && isASCIILetterByte(t[e]) {
		e++ // "room 12B"
	}
	return e
}

// residenceVerbs, then one of residencePreps, put a person's town right after them: "es vecina
// de Sestao", "vive en Ponferrada con su mujer", "viu a Vilanova i la Geltrú", "resides in Hove";
// Basque puts the town first, in the inessive, before "bizi" ("Tolosan bizi da"). Not English
// "living in", "moved to" nor "se ha mudado a": the realistic files leave a town said in passing
// that way unlabelled (a region of residence more than an address), while "vecina de", "vive
// en", "reside en" are how a record or a deed gives the domicile.
var residenceVerbs = words(`vive viven vivo vivia vivía vivimos reside residen resido residente vecina vecino vecinas
	vecinos veciña veciño veciñas veciños viu viuen visc vei veina veins veines empadronado empadronada empadronados
	afincado afincada afincados resides residing resident`)
var residencePreps = words(`en de a in to na no`)

// townFollowers may follow a residence town: a clause goes on ("vive en Ponferrada con su
// hija", "es vecina de Sestao desde hace años").
var townFollowers = words(`con desde y e i amb des hace fa with since and for but pero aunque donde on o ou cerca near
	por per que`)

// appendResidenceTowns appends the town said after a residence verb (residenceVerbs): one to five
// capitalised words (particles and articles between) that are no given name, institution or
// country, followed by punctuation, the end, or a clause word (townFollowers); a known town
// (addrTowns, places) is enough on its own. Not when a number follows (a street, read by the
// grammar), nor inside an address or office already found, nor after an office word.
func (a *addrParser) appendResidenceTowns(out []Span, first int, skip [][2]int) []Span {
	ws, fc, t := a.p.ws, a.p.fc, a.text
	for i := 0; i+1 < len(ws); i++ {
		l := ws[i].end - ws[i].start
		if l < 2 {
			continue
		}
		c0, c1 := fc.lower[ws[i].start], fc.lower[ws[i].start+1]
		if l <= 3 {
			switch {
			case l == 2 && i > 0 && (c0 == 'i' && c1 == 'n' || c0 == 't' && c1 == 'o'):
				if s, e := a.englishHomeTown(i); e > s && !insideAny(out[first:], skip, s) {
					out = append(out, Span{Start: s, End: e, Type: TypeAddress, Text: t[s:e], Score: 0.75, Source: "address"})
				}
				continue
			case (l == 2 && ((c0 == 'e' || c0 == 'a') && c1 == 'l' || c0 == 'd' && (c1 == 'o' || c1 == 'a')) ||
				l == 3 && c0 == 'd' && c1 == 'e' && fc.lower[ws[i].start+2] == 'l') && ws[i].end+1 == ws[i+1].start:
				// "la del bajo c de Fuencarral 101": a floor said first after "del", "el", "al", "do", "da"
				if e := a.floorFirst(i + 1); e > 0 && !insideAny(out[first:], skip, ws[i+1].start) {
					out = append(out, Span{Start: ws[i+1].start, End: e, Type: TypeAddress, Text: t[ws[i+1].start:e], Score: 0.8, Source: "address"})
				}
				continue
			}
			if l < 3 {
				continue
			}
		}
		if round10Pairs[c0][c1>>6]&(1<<(c1&63)) != 0 {
			if kind := round10Start(fc.lower[ws[i].start:ws[i].end]); kind != 0 {
				a.extra = round10Word(a.extra, out[:first], t, ws, fc, i, kind)
			}
		}
		if !residenceStart(c0, c1) {
			continue // cheap byte test before the set lookups
		}
		f := string(ws[i].fold(fc))
		if f == "parroquia" || f == "freguesia" { // (Catalan "parròquia" folds to it)
			if s, e := a.parishPostcode(i); e > s && !insideAny(out[first:], skip, s) {
				out = append(out, Span{Start: s, End: e, Type: TypeAddress, Text: t[s:e], Score: 0.75, Source: "address"})
			}
			continue
		}
		if f == "bizi" {
			if s, e := a.basqueResidenceTown(i); e > s && !insideAny(out[first:], skip, s) {
				out = append(out, Span{Start: s, End: e, Type: TypeAddress, Text: t[s:e], Score: 0.75, Source: "address"})
			}
			continue
		}
		if !residenceVerbs[f] || t[ws[i].end] != ' ' || !residencePreps[string(ws[i+1].fold(fc))] || ws[i+1].start != ws[i].end+1 {
			continue
		}
		s := ws[i+1].end + 1
		if s >= len(t) || t[s-1] != ' ' || !capitalised(t[s:]) || insideAny(out[first:], skip, s) {
			continue
		}
		w := a.p.wordAt(s)
		if w < 0 {
			continue
		}
		fw := a.p.ws[w].fold(fc)
		if countries[string(fw)] || notNames[string(fw)] || isGiven(fw) && !places[string(fw)] && !addrTowns[string(fw)] {
			continue // "vive en Francia", "vecina de Marta", "reside en Hospital …"
		}
		e := a.town(s, false, false)
		if e <= s || officeBefore(fc.lower, s) {
			continue
		}
		known := places[string(fw)] || addrTowns[string(fw)]
		k := e
		for k < len(t) && t[k] == ' ' {
			k++
		}
		switch {
		case k < len(t) && isDigitByte(t[k]):
			continue // "vive en Goya 20": a street, the grammar's
		case k == len(t) || strings.IndexByte(",.;:)\n!?", t[k]) >= 0:
		case known:
		default:
			if nw := a.p.wordAt(k); nw < 0 || !townFollowers[string(a.p.ws[nw].fold(fc))] {
				continue
			}
		}
		if e+2 < len(t) && t[e] == ',' && t[e+1] == ' ' && capitalised(t[e+2:]) {
			// a quarter or parish, then its town: "veciña de Bouzas, Vigo", "vive en Gràcia,
			// Barcelona, con …" — the town known, then the sentence goes on
			if f2, _ := a.p.foldAt(e + 2); places[f2] || addrTowns[f2] {
				if e2 := a.town(e+2, false, false); e2 > e && (e2 == len(t) || strings.IndexByte(",.;:)\n!?", t[e2]) >= 0) {
					e = e2
				}
			}
		}
		out = append(out, Span{Start: s, End: e, Type: TypeAddress, Text: t[s:e], Score: 0.75, Source: "address"})
	}
	return out
}

// englishHomeVerbs put a known town after "in" as where someone lives ("has lived in Mojácar
// since…", "living in Benidorm"), englishHomeNouns after "a"/"an"/a possessive and "in" ("had a
// flat in Torrevieja", "rents a house in Altea"), englishMoveVerbs after "to" ("retired to
// Nerja"). Only a known town (addrTowns, places): "lived in the area", "a flat in London" of a
// company are not read; "back home in Leeds" (no article) is not either.
var (
	englishHomeVerbs = words(`lived lives living live resides resided residing settled`)
	englishHomeNouns = words(`flat house apartment home villa cottage bungalow property chalet`)
	englishMoveVerbs = words(`retired relocated`)
	englishHomeDets  = words(`a an his her their my our its own`)
)

// englishHomeTown: word i is "in" or "to" after an English home cue (above); the known town
// after it, its start and end, or 0, 0.
func (a *addrParser) englishHomeTown(i int) (int, int) {
	ws, fc, t := a.p.ws, a.p.fc, a.text
	if ws[i].start != ws[i-1].end+1 || t[ws[i].end] != ' ' {
		return 0, 0
	}
	prev := string(ws[i-1].fold(fc))
	if ws[i].text[0]|0x20 == 't' {
		if !englishMoveVerbs[prev] {
			return 0, 0
		}
	} else if !englishHomeVerbs[prev] && !(englishHomeNouns[prev] && i > 1 && englishHomeDets[string(ws[i-2].fold(fc))]) {
		return 0, 0
	}
	s := ws[i].end + 1
	if !capitalised(t[s:]) {
		return 0, 0
	}
	f, _ := a.p.foldAt(s)
	if !places[f] && !addrTowns[f] || countries[f] {
		return 0, 0
	}
	e := a.town(s, false, false)
	if e <= s || officeBefore(fc.lower, s) {
		return 0, 0
	}
	if k := e + 1; k < len(t) && t[e] == ' ' && isDigitByte(t[k]) && !yearAt4(t, k) {
		return 0, 0 // "lives in Goya 20": a street, the grammar's
	}
	return s, e
}

// yearAt4: four digits at k, a year of the 1900s or 2000s ("retired to Nerja in 2015" is not,
// "since 2011" neither; only the figure right after the town is asked).
func yearAt4(t string, k int) bool {
	return k+4 <= len(t) && allDigits(t[k:k+4]) && (t[k:k+2] == "19" || t[k:k+2] == "20") && (k+4 == len(t) || !isWordByte(t[k+4]))
}

// parishPostcode: after a parish word (word i) and "de"/"da"/"do", the parish's name (one to six
// words, any case: "Santa Baia de Arteixo", "san xoán de río") and then, after a comma, a
// postcode (and its town, if one follows): the rural address of Galicia and Asturias. Without
// the postcode the parish is only a place's name. Its start and end, or 0, 0.
func (a *addrParser) parishPostcode(i int) (int, int) {
	ws, fc, t := a.p.ws, a.p.fc, a.text
	if i+2 >= len(ws) {
		return 0, 0
	}
	if p := string(ws[i+1].fold(fc)); p != "de" && p != "da" && p != "do" && p != "d" {
		return 0, 0
	}
	s := ws[i+2].start
	for j := i + 2; j < len(ws) && j < i+8; j++ {
		if j > i+2 && t[ws[j-1].end:ws[j].start] != " " {
			return 0, 0
		}
		if addrStop[string(ws[j].fold(fc))] && !nameParticles[string(ws[j].fold(fc))] {
			return 0, 0
		}
		if e := ws[j].end; e+2 < len(t) && t[e] == ',' && t[e+1] == ' ' && isDigitByte(t[e+2]) {
			if pe, ok := a.postcodeTown(e+2, false); ok {
				return s, pe
			}
			if _, pe, nd := a.p.digitsAt(e+2, 6); nd == 5 && (pe == len(t) || !isWordByte(t[pe])) {
				return s, pe
			}
			return 0, 0
		}
	}
	return 0, 0
}

// residenceStart: the first two bytes (lower case) of a word that may be a residence verb, "bizi",
// or a parish word — vi ve re em af bi pa fr — so that most words cost no fold nor lookup.
func residenceStart(a, b byte) bool {
	switch a {
	case 'v':
		return b == 'i' || b == 'e'
	case 'r':
		return b == 'e'
	case 'e':
		return b == 'm'
	case 'a':
		return b == 'f'
	case 'b':
		return b == 'i'
	case 'p':
		return b == 'a'
	case 'f':
		return b == 'r'
	}
	return false
}

// stayStart: the second byte (lower case) of a hotel word (hotelWords: ho-, pa-, pe-, po-, al-, ap-).
func stayStart(b byte) bool { return b == 'o' || b == 'a' || b == 'e' || b == 'l' || b == 'p' }

// basqueResidenceTown: the word before "bizi" (word i) is a known town in the inessive
// ("Tolosan", "Eibarren", "Bilbon", "Gasteizen"): its start and end, or 0, 0.
func (a *addrParser) basqueResidenceTown(i int) (int, int) {
	ws := a.p.ws
	inessiveTown := func(w *word) bool {
		if !capitalised(w.text) {
			return false
		}
		f := string(w.fold(a.p.fc))
		for _, suf := range [...]string{"ren", "en", "n"} {
			if b, ok := strings.CutSuffix(f, suf); ok && len(b) >= 3 && (addrTowns[b] || places[b]) {
				return true
			}
		}
		return false
	}
	if i > 0 && ws[i-1].end+1 == ws[i].start && inessiveTown(&ws[i-1]) {
		return ws[i-1].start, ws[i-1].end // "Tolosan bizi da"
	}
	// "bizi da Arrasaten", "bizi naiz Bilbon": the auxiliary, then the town
	if i+2 < len(ws) && basqueAux[string(ws[i+1].fold(a.p.fc))] && ws[i+2].start == ws[i+1].end+1 && inessiveTown(&ws[i+2]) {
		return ws[i+2].start, ws[i+2].end
	}
	return 0, 0
}

// basqueAux are the auxiliaries of "bizi" (to live).
var basqueAux = words(`da naiz dira zen ziren gara zara dago`)

// cpBefore widens a postcode at i over a "CP", "C.P." or "cp." written right before it.
func (a *addrParser) cpBefore(i int) int {
	t := a.text
	for _, p := range cpWords {
		if s := i - len(p); s >= 0 && t[s:i] == p && (s == 0 || !isWordByte(t[s-1])) {
			return s
		}
	}
	return i
}

// cpAfter: a "CP", "C.P." or "cp." at i, then a postcode: where the postcode starts, or -1.
func (a *addrParser) cpAfter(i int) int {
	t := a.text
	for _, p := range cpWords {
		if strings.HasPrefix(t[i:], p) && i+len(p) < len(t) && isDigitByte(t[i+len(p)]) {
			return i + len(p)
		}
	}
	return -1
}

// bareStreetBefore widens a postcode and town at i back over a street written without a street
// type — its name (capitalised words and particles), its number, and floor or door segments
// ("Zurbano 45, 2º izq., 28010 Madrid", "en Ribera de Curtidores 18, 1º dcha, 28005 Madrid") —
// and returns the new start (i if there is none).
func (a *addrParser) bareStreetBefore(i int) int {
	t, ws := a.text, a.p.ws
	k := i
	if k < 2 || t[k-1] != ' ' || t[k-2] != ',' {
		return i
	}
	k -= 2
	for n := 0; n < 2; n++ { // floor and door segments: "2º izq.", "bajo B", "3r 2a"
		c := strings.LastIndex(t[max(0, k-16):k], ", ")
		if c < 0 {
			break
		}
		seg := max(0, k-16) + c + 2
		e := a.floor(seg)
		if e > 0 && e+2 == k && t[e] == ' ' && isASCIILetterByte(t[e+1]) {
			e = k // a door letter after the floor ("bajo A")
		}
		if e == 0 || e < k-1 || e > k {
			break
		}
		k = seg - 2
	}
	// the number
	m := k
	if m > 0 && isASCIILetterByte(t[m-1]) && m > 1 && isDigitByte(t[m-2]) {
		m-- // 45B
	}
	d := m
	for d > 0 && isDigitByte(t[d-1]) {
		d--
	}
	if d == m && m >= 5 && (t[m-3:m] == "s/n" || t[m-3:m] == "S/N") {
		d = m - 3 // "San Martiño s/n, 36449 As Neves": no number, the postcode anchors it
	}
	if d == m || m-d > 4 || d < 2 || t[d-1] != ' ' {
		return i
	}
	// the name: capitalised words and particles, one space apart, ending right before the number
	w := sort.Search(len(ws), func(j int) bool { return ws[j].end >= d-1 })
	if w >= len(ws) || ws[w].end != d-1 {
		return i
	}
	start := -1
	for n := 0; n < 5 && w >= 0; n++ {
		f := string(ws[w].fold(a.p.fc))
		switch {
		case capitalised(ws[w].text) && !addrStop[f]:
			start = w
		case nameParticles[f] && start >= 0:
		default:
			n = 5
			continue
		}
		if w == 0 || ws[w-1].end != ws[w].start-1 || t[ws[w-1].end] != ' ' {
			break
		}
		w--
	}
	if start < 0 {
		return i
	}
	return ws[start].start
}

// mayStartAddress: word i is a street type, an area, a unit that starts a British address, or a
// capitalised word within three words of a Basque street type (kalea).
func mayStartAddress(ws []word, i int, fc *folder) bool {
	if ws[i].is(fc, lexStreetTypeWords|lexAreaWords) {
		return true
	}
	if e := ws[i].end; e-ws[i].start == 2 && polishStreetType(fc.lower, e) {
		if f := fc.lower[ws[i].start:e]; string(f) == "ul" || string(f) == "al" || string(f) == "os" {
			return i+1 < len(ws) && capitalised(ws[i+1].text)
		}
	}
	if c := fc.lower[ws[i].start]; c == 'p' && ws[i].end-ws[i].start <= 2 && bytes.Contains(fc.lower[ws[i].end:min(len(fc.lower), ws[i].end+9)], []byte("box ")) {
		return true // "PO Box 123", "P.O. Box 123"
	}
	if e := ws[i].end; e-ws[i].start <= 2 && e+1 < len(fc.lower) && (fc.lower[e] == '.' || fc.lower[e] == 0xC2) && (fc.lower[ws[i].start] == 'p') &&
		(bytes.HasPrefix(fc.lower[e:], []byte(".º ")) || bytes.HasPrefix(fc.lower[e:], []byte("º "))) {
		return true // "P.º de la Castellana"
	}
	if ws[i].is(fc, lexUnitWords) {
		f := string(ws[i].fold(fc))
		return f == "flat" || f == "apt" || f == "apartment" || f == "unit" || f == "suite"
	}
	if !capitalised(ws[i].text) {
		// a Basque street typed in lower case ("iparragirre kalea 9"), a German one too
		// ("hauptstraße 5, 80331 münchen"): street() wants the number, and for the German
		// compound a postcode or floor after it
		if l := fc.lower[ws[i].start:ws[i].end]; len(l) > 6 && l[len(l)-1] == 'e' && (bytes.HasSuffix(l, []byte("straße")) || bytes.HasSuffix(l, []byte("strasse"))) {
			return true
		}
		for j := i + 1; j < len(ws) && j <= i+3; j++ { // (the words' classes are cached bits)
			if ws[j].is(fc, lexPostfixStreetWords) {
				return string(ws[j].fold(fc)) != "plaza"
			}
		}
		return false
	}
	if streetSuffix(ws[i].fold(fc)) || i+1 < len(ws) && isSeparateStreetWord(ws[i+1].fold(fc)) {
		return true
	}
	if l := ws[i].end - ws[i].start; (l == 3 || l == 5) && (ws[i].text[0] == 'M' || ws[i].text[0] == 'C') {
		if f := string(ws[i].fold(fc)); f == "mas" || f == "masia" || f == "can" || f == "cal" {
			return true // a Catalan rural house: street() wants its number and a postcode or town after
		}
	}
	for j := i + 1; j < len(ws) && j <= i+3; j++ {
		if ws[j].is(fc, lexPostfixStreetWords) {
			return true
		}
	}
	return false
}

// emit appends the address text[s:e], widened over an article and the units British
// addresses put first, unless it is an office's published address.
func (a *addrParser) emit(out []Span, s, e int, score float64) []Span {
	s = a.townBefore(a.unitsBefore(a.articleBefore(s)))
	return append(out, Span{Start: s, End: e, Type: TypeAddress, Text: a.text[s:e], Score: score, Source: "address"})
}

// office: the address at s (widened as emit does) is an office's published one.
func (a *addrParser) office(s int) bool {
	w := a.townBefore(a.unitsBefore(a.articleBefore(s)))
	if officeBefore(a.p.fc.lower, w) {
		return true
	}
	// a name widened over as a house's ("Riverside Health Centre, 2 Mill Lane, …") may be a
	// venue's: read the venue words in it, with no home word before
	if w < s && s <= len(a.p.fc.lower) {
		home, office, venue := ownerWordsIn(a.p.fc.lower[w:s])
		return home < 0 && (office >= 0 || venue >= 0) && officeBefore(a.p.fc.lower, s)
	}
	return false
}

// chainAt reads an address chain that starts at word i and returns its byte range.
func (a *addrParser) chainAt(start int) (int, int) {
	kind, e := a.first(start)
	if kind == segNone {
		return 0, 0
	}
	return a.chainFrom(start, kind, e)
}

// chainFrom reads the rest of a chain whose first segment (kind) spans start..e.
func (a *addrParser) chainFrom(start int, kind segKind, e int) (int, int) {
	hasNumber := kind == segStreet
	area := kind == segArea
	needPostcode := area && a.lowerArea
	a.lowerArea = false
	streetName := kind == segStreetName
	end := e
	prev := kind
	for n := 0; n < 8; n++ {
		s, ok := a.sep(end)
		if !ok {
			break
		}
		k, e2 := a.next(s, prev, hasNumber || area || streetName)
		if k == segNone {
			break
		}
		if k == segTown && !hasNumber && prev != segPostcodeTown {
			break
		}
		switch k {
		case segStreet:
			hasNumber = true
		case segNumber:
			if streetName || area {
				hasNumber = true
			}
		case segUnit, segFloor:
			if area {
				hasNumber = true
			}
		case segPostcodeTown:
			hasNumber = hasNumber || streetName || area
			needPostcode = false
		case segStreetName:
			streetName = true
		case segArea:
			area = true
		case segTown:
			// a lower-case area ("bda la plata bloque 3 2ºc sevilla", "lugar de sobrado 12
			// arteixo") is an address with a number and a known town as much as with a postcode
			if needPostcode && hasNumber {
				if f, _ := a.p.foldAt(s); places[f] || addrTowns[f] {
					needPostcode = false
				}
			}
		}
		end, prev = e2, k
	}
	if kind == segStreetName && !hasNumber {
		// "2º izq. del número 15 de la calle Goya": the number and floor written first
		if s := a.numberOfStreet(start); s >= 0 {
			end = a.trimEnd(end)
			if k, ok := a.sep(end); ok {
				if kk, e2 := a.next(k, segNumber, true); kk == segTown {
					end = e2 // "…de la calle San Juan, en Toledo"
				}
			}
			return s, end
		}
	}
	if hasNumber && !needPostcode {
		end = a.nextLines(a.trimEnd(end))
	}
	if !hasNumber || needPostcode {
		return 0, 0
	}
	end = a.trimEnd(end)
	end = a.irishCounty(end)
	if prev == segTown || prev == segPostcodeTown {
		end = a.bracketPlace(end) // "Getafe (Madrid)", "15886 Teo (A Coruña)"
	} else if be := a.bracketPlace(end); be > end {
		// "Avenida de Burgos, 12 (Madrid)": a known town in brackets after the number or floor
		if f, _ := a.p.foldAt(end + 2); places[f] || addrTowns[f] {
			end = be
		}
	}
	return start, end
}

// irishCounties are the counties of Ireland and Northern Ireland ("Co. Mayo": Mayo is a month
// in Spanish, so no list of non-names will do).
var irishCounties = words(`carlow cavan clare cork donegal dublin galway kerry kildare kilkenny laois leitrim limerick
	longford louth mayo meath monaghan offaly roscommon sligo tipperary waterford westmeath wexford wicklow antrim
	armagh down fermanagh londonderry derry tyrone`)

// irishCounty widens an address that ends at e with "Co" (read as a town word) over the county
// it abbreviates and an Eircode after it: "…, Dún Laoghaire, Co. Dublin", "…, Co. Cork P17 XY82".
func (a *addrParser) irishCounty(e int) int {
	t := a.text
	if e < 4 || e+3 >= len(t) || t[e-2:e] != "Co" || t[e-3] != ' ' || t[e] != '.' || t[e+1] != ' ' || !capitalised(t[e+2:]) {
		return e
	}
	w := a.p.wordAt(e + 2)
	if w < 0 || !irishCounties[string(a.p.ws[w].fold(a.p.fc))] {
		return e
	}
	end := a.p.ws[w].end
	if end+1 < len(t) && t[end] == ' ' {
		if k := eircode(t, end+1); k > 0 {
			end = k
		}
	}
	return end
}

// bracketPlace widens an address that ends at e with a town over a province or town in brackets
// right after it (" (Madrid)", " (A Coruña)").
func (a *addrParser) bracketPlace(e int) int {
	t := a.text
	if e+3 >= len(t) || t[e] != ' ' || t[e+1] != '(' {
		return e
	}
	k := strings.IndexByte(t[e+2:min(len(t), e+34)], ')')
	if k <= 0 {
		return e
	}
	in := t[e+2 : e+2+k]
	for _, w := range strings.Fields(in) {
		if f := fold(w); !(capitalised(w) && !notNames[f] || places[f] || townArticle(f) || nameParticles[f]) {
			return e
		}
	}
	return e + 2 + k + 1
}

// bracketUnit reads a unit in brackets inside an address ("(edificio B)", "(bloque 2)", "(local 3)").
func (a *addrParser) bracketUnit(i int) int {
	t := a.text
	if i >= len(t) || t[i] != '(' {
		return 0
	}
	k := strings.IndexByte(t[i:min(len(t), i+28)], ')')
	if k <= 1 {
		return 0
	}
	f, fe := a.p.foldAt(i + 1)
	if fe < 0 || !(unitWords[f] || areaWords[f] || floorWords[f]) {
		return 0
	}
	return i + k + 1
}

func (a *addrParser) trimEnd(e int) int {
	for e > 0 && (a.text[e-1] == ' ' || a.text[e-1] == ',') {
		e--
	}
	return e
}

// sep skips a segment separator at i: ", ", ",", " ", " - ", " – ".
func (a *addrParser) sep(i int) (int, bool) {
	t := a.text
	j := i
	if j+2 < len(t) && t[j] == '-' && isDigitByte(t[j+1]) && i > 0 && isDigitByte(t[i-1]) && a.floor(j+1) > 0 {
		return j + 1, true // "5-2ºA": the number, a dash, the floor
	}
	if j+2 < len(t) && (t[j] == ';' || t[j] == '.') && t[j+1] == ' ' && isDigitByte(t[j+2]) {
		if _, _, nd := a.p.digitsAt(j+2, 5); nd == 5 {
			return j + 2, true // "Calle Mayor 5; 28013 Madrid", "Calle Mayor, 5. 28013 Madrid"
		}
	}
	if j < len(t) && t[j] == ',' {
		j++
	}
	for j < len(t) && t[j] == ' ' {
		j++
	}
	if j+1 < len(t) && (t[j] == '-' && t[j+1] == ' ') {
		j += 2
	} else if strings.HasPrefix(t[j:], "– ") {
		j += len("– ")
	}
	if j == i || j >= len(t) {
		return 0, false
	}
	return j, true
}

// first reads the segment that may start a chain at byte i: a street, an area, a unit (Flat 12)
// or a number-first street (44 Upper Richmond Road, 12 rue des Lilas).
func (a *addrParser) first(i int) (segKind, int) {
	if e := a.poBox(i); e > 0 {
		return segStreet, e
	}
	if k, e := a.street(i); k != segNone {
		return k, e
	}
	if e := a.area(i); e > 0 {
		return segArea, e
	}
	if e := a.unit(i); e > 0 && a.unitStartsChain(i) {
		return segUnit, e
	}
	return segNone, 0
}

// unitStartsChain: only "Flat", "Apt", "Apartment", "Unit", "Suite" start an address.
func (a *addrParser) unitStartsChain(i int) bool {
	f, _ := a.p.foldAt(i)
	return f == "flat" || f == "apt" || f == "apartment" || f == "unit" || f == "suite"
}

// next reads a segment after a separator.
func (a *addrParser) next(i int, prev segKind, anchored bool) (segKind, int) {
	t := a.text
	if i >= len(t) {
		return segNone, 0
	}
	if isDigitByte(t[i]) {
		if e, ok := a.postcodeTown(i, false); ok {
			return segPostcodeTown, e
		}
		if e := a.floor(i); e > 0 {
			return segFloor, e
		}
		if k, e := a.street(i); k == segStreet {
			return segStreet, e
		}
		if e := a.number(i); e > 0 && (prev == segStreetName || prev == segArea || prev == segUnit) {
			return segNumber, e
		}
		if e := a.dashDoor(i); e > 0 && (prev == segStreet || prev == segNumber) {
			return segFloor, e // "C/ Sant Pere 17, 2-1, 08911 Badalona": floor 2, door 1
		}
		if e := a.zip(i); e > 0 && prev == segTown {
			return segPostcodeTown, e
		}
		if prev == segTown && i+6 <= len(t) && allDigits(t[i:i+6]) && (i+6 == len(t) || !isWordByte(t[i+6])) {
			return segPostcodeTown, i + 6 // a Romanian code after the town: "Strada Lipscani 21, Bucharest 030031"
		}
		return segNone, 0
	}
	if e := a.bracketUnit(i); e > 0 && prev != segNone {
		return segUnit, e // "Avda. de la Paz s/n (edificio B), 26004 Logroño"
	}
	if t[i] == '(' && prev != segNone && prev != segTown && prev != segPostcodeTown {
		// a remark in brackets inside the address, when a postcode follows it ("Calle Toledo, 88
		// (esquina con Ronda de Segovia), 28005 Madrid")
		if k := strings.IndexByte(t[i:min(len(t), i+64)], ')'); k > 0 {
			if j, ok := a.sep(i + k + 1); ok && j < len(t) && isDigitByte(t[j]) {
				if _, ok := a.postcodeTown(j, false); ok {
					return segUnit, i + k + 1
				}
			}
		}
	}
	if anchored && (prev == segStreet || prev == segNumber || prev == segFloor) && strings.HasPrefix(t[i:], "de ") {
		if e := a.deTown(i + 3); e > 0 {
			return segTown, e // "la calle mayor 14 de fuentelapeña"
		}
	}
	if anchored && (prev == segStreet || prev == segNumber || prev == segFloor) {
		// a town whose name has an article: "carrer nou 12 de la bisbal", "… del vendrell"
		for _, p := range []string{"de la ", "de las ", "de los ", "de les ", "de l'", "del ", "dels "} {
			if len(t)-i > len(p) && strings.EqualFold(t[i:i+len(p)], p) {
				if e := a.deTown(i + len(p)); e > 0 {
					return segTown, e
				}
				break
			}
		}
	}
	if anchored && (prev == segStreet || prev == segNumber || prev == segFloor || prev == segUnit) && (strings.HasPrefix(t[i:], "en ") || strings.HasPrefix(t[i:], "de ")) {
		// "calle Ancha, 3, en Cádiz", "…, puerta 2, de Madrid": a known town, or a capitalised
		// one before punctuation or the end
		if e := a.town(i+3, true, false); e > 0 {
			if f, _ := a.p.foldAt(i + 3); places[f] || addrTowns[f] || e == len(t) || strings.IndexByte(",.;)\n", t[e]) >= 0 {
				return segTown, e
			}
		}
	}
	if j := a.cpAfter(i); j > 0 {
		if e, ok := a.postcodeTown(j, false); ok {
			return segPostcodeTown, e // "…, CP 41013 Sevilla"
		}
	}
	if e := a.number(i); e > 0 && (prev == segStreet || prev == segUnit) && (t[i] == 's' || t[i] == 'S') {
		return segNumber, e // "Carretera de Murcia km 3, s/n"
	}
	if e := a.ukPostcode(i); e > 0 {
		return segUKPostcode, e
	}
	if e := eircode(t, i); e > 0 {
		return segUKPostcode, e
	}
	if prev == segTown || prev == segStreet || prev == segUnit {
		if e := ukPostcodeLower(t, i); e > 0 {
			return segUKPostcode, e // "london nw1 6xe"
		}
		if e := stateZipLower(t, i); e > 0 && prev == segTown {
			return segStateZip, e
		}
	}
	if anchored && prev != segTown && !capitalised(t[i:]) {
		// "…apt 4b springfield il 62704": a lower-case town right before a postcode
		if f, fe := a.p.foldAt(i); fe > 0 && fe+1 < len(t) && t[fe] == ' ' && !addrStop[f] && !floorWords[f] && !unitWords[f] {
			if ukPostcodeLower(t, fe+1) > 0 || stateZipLower(t, fe+1) > 0 || a.ukPostcode(fe+1) > 0 || a.stateZip(fe+1) > 0 {
				return segTown, fe
			}
			// a town of two words: "14 mill road, great shelford CB22 5JX"
			if f2, fe2 := a.p.foldAt(fe + 1); fe2 > 0 && fe2+1 < len(t) && t[fe2] == ' ' && t[fe+1] >= 'a' && t[fe+1] <= 'z' &&
				!addrStop[f2] && !floorWords[f2] && !unitWords[f2] && (ukPostcodeLower(t, fe2+1) > 0 || a.ukPostcode(fe2+1) > 0) {
				return segTown, fe2
			}
		}
	}
	if e := a.stateZip(i); e > 0 {
		return segStateZip, e
	}
	if e := a.floor(i); e > 0 {
		return segFloor, e
	}
	if e := a.unit(i); e > 0 {
		return segUnit, e
	}
	if e := a.number(i); e > 0 && (prev == segStreetName || prev == segArea) {
		return segNumber, e
	}
	if k, e := a.street(i); k != segNone {
		return k, e
	}
	if e := a.area(i); e > 0 {
		return segArea, e
	}
	if anchored && (prev == segFloor || prev == segUnit) && t[i] >= 'a' && t[i] <= 'z' {
		// "c/ pintor sorolla 8 bajo izda alzira": after a floor or door, one or two lower-case
		// words that are no everyday word, then punctuation or the end, are the town, known or not
		if e := a.townTail(i); e > i && !floorWords[string(a.p.ws[a.p.wordAt(i)].fold(a.p.fc))] && !remarkWord(t[i:e]) {
			return segTown, e
		}
	}
	if anchored {
		if e := a.town(i, prev == segPostcodeTown || prev == segTown, false); e > 0 {
			if (prev == segStreet || prev == segNumber || prev == segFloor) && e+1 < len(t) && t[e] == ' ' && t[e+1] >= 'a' && t[e+1] <= 'z' && !capitalised(t[i:]) {
				e = a.townTail(e + 1) // "calle olivo 5 puerto real.", "… 12 puerto de la cruz."
			}
			return segTown, e
		}
	}
	if prev == segTown || prev == segPostcodeTown || prev == segUKPostcode || prev == segStateZip {
		if f, fe := a.p.foldAt(i); fe > 0 && countries[f] {
			return segTown, fe // "…, 28013 Madrid, España"
		}
	}
	return segNone, 0
}

// street reads a street at i: TYPE [.|/] NAME (NUMBER|s/n)?, NAME postfix-TYPE NUMBER, or
// NUMBER NAME suffix-TYPE / NUMBER fr-TYPE NAME. segStreetName when no number follows.
func (a *addrParser) street(i int) (segKind, int) {
	t := a.text
	if isDigitByte(t[i]) {
		return a.numberFirst(i)
	}
	f, e := a.p.foldAt(i)
	if e < 0 {
		return segNone, 0
	}
	if (f == "p" || f == "pg") && (strings.HasPrefix(t[e:], ".º ") || strings.HasPrefix(t[e:], "º ")) {
		j := e + strings.IndexByte(t[e:], ' ') + 1 // "P.º de la Castellana 200"
		return a.nameThenNumber(j, 6)
	}
	if f == "via" && !(e+2 < len(t) && t[e] == ' ' && capitalised(t[e+1:])) &&
		!(capitalised(t[i:]) && (strings.HasPrefix(t[e:], " de ") || strings.HasPrefix(t[e:], " del ")) && a.capitalisedAfterParticle(e+1)) {
		return segNone, 0 // "Via Roma 10", "Gran Vía de Don Diego López de Haro 41", not "por vía oral 10 mg"
	}
	if (f == "mas" || f == "masia" || f == "can" || f == "cal") && capitalised(t[i:]) {
		// a Catalan rural house named after its family ("Mas Can Ribes s/n", "Cal Ferrer 4"):
		// a capitalised name, its number or s/n, then a postcode or known town — "Can" and
		// "Mas" are everyday words otherwise
		if e+2 < len(t) && t[e] == ' ' && capitalised(t[e+1:]) {
			if k, ke := a.nameThenNumber(e+1, 3); k == segStreet && a.strongAfter(ke) {
				return k, ke
			}
		}
		return segNone, 0
	}
	if f == "via" && !capitalised(t[i:]) {
		if k, ke := a.nameThenNumber(e+1, 4); k == segStreet {
			return k, ke // "via Garibaldi 12"
		}
		return segNone, 0
	}
	if (f == "plaza" || f == "plaça" || f == "placa" || f == "praza") && parkingSpace(a.p.fc.lower, e) {
		return segNone, 0 // "la plaza de garaje número 12", "plaça d'aparcament 3"
	}
	if (f == "ul" || f == "al" || f == "os") && polishStreetType(t, e) {
		// Polish "ul. Piękna 7/12", "al. Jerozolimskie 65/79", "os. Centrum 7/12"
		a.slashNumber = true
		k, ke := a.nameThenNumber(e+2, 4)
		a.slashNumber = false
		if k == segStreet {
			return k, ke
		}
		return segNone, 0
	}
	if streetTypeWords[f] {
		j := e
		if j < len(t) && (t[j] == '.' || t[j] == '/') {
			j++
		}
		if f == "c" && (e >= len(t) || t[e] != '/') {
			// a lone "c" is not C/; "c." is a carrer when a particle or a capitalised name and
			// then a number follow ("c. de la riera 14", "C. Major 5")
			if e+2 < len(t) && t[e] == ' ' && !isDigitByte(t[e+1]) {
				// "c mayor 5 madrid": a lone c only with a floor, postcode or known town after the number
				if k, ke := a.nameThenNumber(e+1, 4); k == segStreet && a.strongAfter(ke) {
					return k, ke
				}
				return segNone, 0
			}
			if e+2 >= len(t) || t[e] != '.' || t[e+1] != ' ' {
				return segNone, 0
			}
			nf, ne := a.p.foldAt(e + 2)
			if ne < 0 || !(nf == "de" || nf == "del" || nf == "dels" || nf == "d" || capitalised(t[e+2:])) {
				return segNone, 0
			}
			if k, ke := a.nameThenNumber(e+2, 6); k == segStreet {
				return k, ke
			}
			return segNone, 0
		}
		for j < len(t) && t[j] == ' ' {
			j++
		}
		return a.nameThenNumber(j, 6)
	}
	// German and Dutch compounds: Hauptstraße 17, Lindenallee 9, Prinsengracht 263
	if capitalised(t[i:]) && streetSuffix([]byte(f)) && e+2 < len(t) {
		k := e
		if t[k] == '.' {
			k++ // "Hauptstr. 5a"
		}
		if k+1 < len(t) && t[k] == ' ' {
			if ne := a.number(k + 1); ne > 0 {
				return segStreet, ne
			}
		}
	}
	if !capitalised(t[i:]) && (strings.HasSuffix(f, "straße") || strings.HasSuffix(f, "strasse")) && e+2 < len(t) && t[e] == ' ' {
		// in lower case, only with a postcode or a floor after the number
		if ne := a.number(e + 1); ne > 0 && a.strongAfter(ne) {
			return segStreet, ne
		}
	}
	// German, Austrian, Swiss and Dutch streets written apart: "Mariahilfer Straße 101", "Neue
	// Gasse 4", "Van Baerlestraat 12" is a compound (above)
	if capitalised(t[i:]) && e+2 < len(t) && t[e] == ' ' && !addrStop[f] {
		if nf, ne := a.p.foldAt(e + 1); ne > 0 && separateStreetWord[nf] && capitalised(t[e+1:]) {
			k := ne
			if k < len(t) && t[k] == '.' {
				k++
			}
			if k+1 < len(t) && t[k] == ' ' {
				if n := a.number(k + 1); n > 0 {
					return segStreet, n
				}
			}
		}
	}
	// Basque: NAME kalea N
	k := i
	for n := 0; n < 3; n++ {
		w := a.p.wordAt(k)
		if w < 0 {
			return segNone, 0
		}
		if n == 0 && !capitalised(a.p.ws[w].text) {
			// lower case only before a Basque street word other than "plaza" (mayStartAddress),
			// and not an article or a particle ("la plaza 3")
			if fw := string(a.p.ws[w].fold(a.p.fc)); len(fw) < 3 || nameParticles[fw] || townArticle(fw) || addrStop[fw] {
				return segNone, 0
			}
		}
		if fw := string(a.p.ws[w].fold(a.p.fc)); addrStop[fw] || postfixStreetWords[fw] && n == 0 {
			return segNone, 0
		}
		e := a.p.ws[w].end
		if e >= len(t) || t[e] != ' ' {
			return segNone, 0
		}
		nf, ne := a.p.foldAt(e + 1)
		if ne > 0 && postfixStreetWords[nf] {
			j := ne
			for j < len(t) && t[j] == ' ' {
				j++
			}
			if ne2 := a.number(j); ne2 > 0 {
				return segStreet, ne2
			}
			return segStreetName, ne
		}
		k = e + 1
	}
	return segNone, 0
}

// nameThenNumber reads a street's name at j (at most max words: capitalised or lower-case
// words, particles, "Sant", abbreviations) and the number after it.
func (a *addrParser) nameThenNumber(j, max int) (segKind, int) {
	t := a.text
	nameEnd := -1
	content := false // a word of the name that is no particle: "paseo de 20 minutos" has none
	for n := 0; n < max && j < len(t); n++ {
		if n > 0 && content {
			if e := a.number(j); e > 0 && a.houseNumber(j, e) {
				return segStreet, e
			}
		}
		if isDigitByte(t[j]) {
			// a street named by a number ("calle 4 nº 17", "calle 4, número 17")
			_, de, nd := a.p.digitsAt(j, 2)
			if n == 0 && nd > 0 && nd <= 2 && (strings.HasPrefix(t[de:], "º de ") || strings.HasPrefix(t[de:], "ª de ")) {
				de += len("º") // "c/ 1º de Mayo 15"
			}
			if n == 0 && nd > 0 && nd <= 2 && de+2 < len(t) && t[de] == ',' && t[de+1] == ' ' && !isDigitByte(t[de+2]) {
				if e := a.number(de + 2); e > 0 {
					return segStreet, e
				}
			}
			if n == 0 && nd > 0 && nd <= 3 && de+1 < len(t) && (t[de] == '#' || t[de+1] == '#') {
				if e := a.number(j); e > de+2 {
					return segStreet, e // "Calle 72 #10-34": a numbered street, the crossing and the house
				}
			}
			if n != 0 || nd == 0 || nd > 2 || de >= len(t) || t[de] != ' ' {
				return segNone, 0
			}
			nameEnd, content = de, true
			j = de + 1
			continue
		}
		w := a.p.wordAt(j)
		if w < 0 {
			break
		}
		fw := string(a.p.ws[w].fold(a.p.fc))
		if addrStop[fw] && !nameParticles[fw] {
			break
		}
		we := a.p.ws[w].end
		if n > 0 && fw == "a" && we+1 < len(t) && t[we] == ' ' {
			if nf, _ := a.p.foldAt(we + 1); nf == "las" || nf == "la" || nf == "los" || nf == "eso" || isDigitByte(t[we+1]) {
				break // "en la Plaza Mayor a las 10": a time, not a number
			}
		}
		if n > 0 && fw == "km" {
			if e := a.kmFigure(we); e > 0 {
				return segStreet, e // "ctra. de extremadura km 14,5"
			}
		}
		if n == 0 && (fw == "el" || fw == "els") && (we == len(t) || t[we] != ' ') {
			break // "camino el pozo sn": an article opens the name only if a word follows
		}
		if !nameParticles[fw] && !townArticle(fw) {
			content = true
		}
		nameEnd = we
		j = we
		if j < len(t) && t[j] == '.' {
			j++ // Pza. Mayor, Av. Dr. Fleming
		}
		if j < len(t) && t[j] == '\'' {
			j++
			continue // d'Aragó
		}
		if j < len(t) && t[j] == '-' && n == 0 && isDigitByte(t[min(j+1, len(t)-1)]) && a.p.ws[w].end-a.p.ws[w].start <= 2 && t[a.p.ws[w].start] >= 'A' && t[a.p.ws[w].start] <= 'Z' {
			// a road's code: "Ctra. N-340", "A-7", "AP-7"
			_, de, nd := a.p.digitsAt(j+1, 4)
			if nd == 0 || nd > 4 || de < len(t) && isWordByte(t[de]) {
				break
			}
			nameEnd, j = de, de
			if j+4 < len(t) && t[j] == ',' && t[j+1] == ' ' {
				if kf, ke := a.p.foldAt(j + 2); kf == "km" {
					if e := a.kmFigure(ke); e > 0 {
						return segStreet, e // "Ctra. N-340, km 1.025"
					}
				}
			}
			if j >= len(t) || t[j] != ' ' {
				break
			}
			j++
			continue
		}
		if j+1 < len(t) && t[j] == ',' && t[j+1] == ' ' {
			if e := a.number(j + 2); e > 0 && content && a.houseNumber(j+2, e) {
				return segStreet, e // "Calle Mayor, 7"
			}
			break
		}
		if j >= len(t) || t[j] != ' ' {
			break
		}
		j++
	}
	if nameEnd < 0 {
		return segNone, 0
	}
	return segStreetName, nameEnd
}

// numberFirst: 44 Upper Richmond Road, 1423 Maple Avenue, 2750 Mission St, 12 rue des Lilas.
func (a *addrParser) numberFirst(i int) (segKind, int) {
	t := a.text
	_, j, nd := a.p.digitsAt(i, 5)
	if nd == 0 || nd > 5 || j >= len(t) {
		return segNone, 0
	}
	if nd <= 4 && j+1 < len(t) && t[j] >= 'A' && t[j] <= 'H' && t[j+1] == ' ' {
		j++ // "221B Baker Street"
	}
	if nd <= 3 && j+2 < len(t) && t[j] == '/' && isDigitByte(t[j+1]) {
		if _, fe, fn := a.p.digitsAt(j+1, 2); fn <= 2 && fe < len(t) && t[fe] == ' ' {
			j = fe // "8/2 Marchmont Road": a Scottish flat
		}
	}
	if j < len(t) && t[j] == ',' {
		j++
	}
	if j >= len(t) || t[j] != ' ' {
		return segNone, 0
	}
	j++
	f, e := a.p.foldAt(j)
	if (f == "bis" || f == "ter") && e+1 < len(t) && t[e] == ' ' {
		j = e + 1 // "27 bis rue Lepic"
		f, e = a.p.foldAt(j)
	}
	if e < 0 {
		return segNone, 0
	}
	switch f {
	case "rue", "avenue", "boulevard", "bd", "allee", "chemin", "impasse", "place", "quai", "route", "rua", "avenida", "via",
		"heol", "ffordd", "stryd":
		k := e
		for k < len(t) && t[k] == ' ' {
			k++
		}
		end := -1
		for n := 0; n < 5; n++ {
			w := a.p.wordAt(k)
			if w < 0 || a.p.ws[w].is(a.p.fc, lexAddrStop) && !a.p.ws[w].is(a.p.fc, lexNameParticles) {
				break
			}
			end = a.p.ws[w].end
			if end >= len(t) || t[end] != ' ' {
				break
			}
			k = end + 1
		}
		if end < 0 {
			return segNone, 0
		}
		return segStreet, end
	}
	// English: capitalised words, then a suffix type; in lower case ("23 baker st"), only the
	// suffixes that are no everyday word ("a 5 minute walk", "2 hour drive" are none)
	k := j
	lower := !capitalised(t[j:])
	for n := 0; n < 4; n++ {
		if n > 0 && k+3 < len(t) && isDigitByte(t[k]) {
			// an ordinal street's name: "West 57th Street"
			_, de, nd := a.p.digitsAt(k, 3)
			if nd <= 3 && de+3 < len(t) && (t[de:de+3] == "th " || t[de:de+3] == "st " || t[de:de+3] == "nd " || t[de:de+3] == "rd ") {
				k = de + 3
				continue
			}
			return segNone, 0
		}
		w := a.p.wordAt(k)
		if w < 0 || capitalised(a.p.ws[w].text) == lower {
			return segNone, 0
		}
		fw := string(a.p.ws[w].fold(a.p.fc))
		if lower && addrStop[fw] {
			return segNone, 0
		}
		we := a.p.ws[w].end
		if n > 0 && suffixStreetWords[fw] && (!lower || lowerSuffixes[fw] || a.lowerUKTail(we)) {
			if we < len(t) && t[we] == '.' {
				we++
			}
			if lower && we < len(t) && t[we] == ' ' {
				// in lower case the sentence must not go on: a town, a postcode or a unit follows
				if k, _ := a.next(we+1, segStreet, true); k == segNone || k == segStreetName || k == segStreet {
					return segNone, 0 // "12 high street shops", "2 big st signs"
				}
			}
			return segStreet, we
		}
		if we >= len(t) || t[we] != ' ' {
			return segNone, 0
		}
		k = we + 1
	}
	return segNone, 0
}

// area: urbanización El Paraíso, Polígono Campollano, Barrio La Ermita, Lugar de Cortiñas.
func (a *addrParser) area(i int) int {
	t := a.text
	f, e := a.p.foldAt(i)
	if e < 0 || !areaWords[f] {
		return 0
	}
	if e < len(t) && t[e] == '.' {
		e++
	}
	j := e
	end, lower := -1, false
	for n := 0; n < 4 && j < len(t) && t[j] == ' '; n++ {
		j++
		w := a.p.wordAt(j)
		if w < 0 {
			break
		}
		ww := &a.p.ws[w]
		fw := string(ww.fold(a.p.fc))
		if addrStop[fw] || streetTypeWords[fw] {
			break
		}
		if !capitalised(ww.text) && !nameParticles[fw] {
			if n > 1 || len(ww.text) < 3 || ww.is(a.p.fc, lexNotNames|lexUnitWords|lexFloorWords|lexAreaWords|lexCue) {
				break
			}
			lower = true // "edificio mirador", "lugar de penas"
		}
		if !nameParticles[fw] {
			end = ww.end
		}
		j = ww.end
	}
	if j = e; end < 0 && j+1 < len(t) && t[j] == ' ' && isDigitByte(t[j+1]) && (f == "pol" || f == "poligono") {
		// a rural plot: "pol. 4 parcela 118", "polígono 12, parcela 7" — a number for a name;
		// like a lower-case area, an address only with a postcode (an industrial estate is
		// numbered too)
		if _, de, nd := a.p.digitsAt(j+1, 3); nd > 0 && nd <= 3 && (de == len(t) || !isWordByte(t[de])) {
			a.lowerArea = true
			return de
		}
	}
	if end > 0 {
		a.lowerArea = lower
	}
	return max(end, 0)
}

// number: [nº|n.º|no|num|número] DIGITS[letter|bis] or s/n.
func (a *addrParser) number(i int) int {
	t := a.text
	if i >= len(t) {
		return 0
	}
	if c := t[i]; c == 's' || c == 'S' {
		if i+2 < len(t) && (t[i+1] == '/' || t[i+1] == '.') && (t[i+2] == 'n' || t[i+2] == 'N') {
			e := i + 3
			if e < len(t) && t[e] == '.' {
				e++
			}
			if e == len(t) || !isWordByte(t[e]) {
				return e
			}
		}
		if i+1 < len(t) && (t[i+1] == 'n' || t[i+1] == 'N') && (i+2 == len(t) || !isWordByte(t[i+2])) && i > 0 && t[i-1] == ' ' {
			return i + 2 // "camino el pozo sn", typed without the slash
		}
		return 0
	}
	j := i
	if c := t[i]; c == 'n' || c == 'N' {
		for _, p := range []string{"nº", "n.º", "n°", "núm.", "número ", "numero ", "núm", "num.", "num ", "no.", "nr.", "n. "} {
			if len(t)-j >= len(p) && strings.EqualFold(t[j:j+len(p)], p) {
				j += len(p)
				for j < len(t) && t[j] == ' ' {
					j++
				}
				break
			}
		}
		if j > i && j < len(t) && t[j] >= 'a' && t[j] <= 'z' {
			// "la calle Tejares número nueve": a house number in words, only after a number word
			// (número, núm., nº) so that a street's name never reads as one
			if v, we := a.p.numberWords(j, 999); v > 0 && we > 0 {
				for we > j && t[we-1] == ' ' {
					we-- // numberWords returns the offset after the spaces
				}
				if we == len(t) || !isWordByte(t[we]) {
					return we
				}
			}
			return 0
		}
	}
	_, e, nd := a.p.digitsAt(j, 4)
	if nd == 0 || nd > 4 {
		return 0
	}
	for _, suf := range []string{"ean", "an"} {
		if strings.HasPrefix(t[e:], suf) && (e+len(suf) == len(t) || !isWordByte(t[e+len(suf)])) {
			return e + len(suf) // Basque "Kale Nagusia 3an"
		}
	}
	if e < len(t) && isASCIILetterByte(t[e]) && (e+1 == len(t) || !isWordByte(t[e+1])) {
		e++ // 5B, 12A
	} else if e+1 < len(t) && t[e] == '-' && t[e+1] >= 'A' && t[e+1] <= 'Z' {
		// a Dutch house number's suffix: "263-H", "9-II", "123-AB"
		k := e + 1
		for k < len(t) && k-e <= 4 && t[k] >= 'A' && t[k] <= 'Z' {
			k++
		}
		if k-e <= 4 && (k == len(t) || !isWordByte(t[k]) && t[k] != '-') {
			e = k
		}
	}
	if e+1 < len(t) && t[e] == '-' && isDigitByte(t[e+1]) {
		if _, re, rn := a.p.digitsAt(e+1, 4); rn <= 4 && (re == len(t) || !isWordByte(t[re]) && t[re] != '-' && t[re] != '/') {
			e = re // "6-8", "31-33": a range of numbers
		}
	}
	if a.slashNumber && e+1 < len(t) && t[e] == '/' && isDigitByte(t[e+1]) {
		if _, re, rn := a.p.digitsAt(e+1, 3); rn <= 3 && (re == len(t) || !isWordByte(t[re]) && t[re] != '/') {
			e = re // "7/12": a flat after the house number
		}
	}
	if e < len(t) && (isWordByte(t[e]) || t[e] == '/' || t[e] == '%' || t[e] == ':') {
		return 0
	}
	if e+3 < len(t) && (t[e] == '#' || t[e] == ' ' && t[e+1] == '#') {
		// a Colombian address gives the crossing street and the house: "Carrera 45 #26-18",
		// "Calle 72 # 10-34" — the dash makes it one, not a list of numbers
		k := e + 1
		if t[e] == ' ' {
			k++
		}
		if k < len(t) && t[k] == ' ' {
			k++
		}
		if _, ce, cn := a.p.digitsAt(k, 3); cn > 0 && cn <= 3 && ce+1 < len(t) && t[ce] == '-' && isDigitByte(t[ce+1]) {
			if _, he, hn := a.p.digitsAt(ce+1, 3); hn <= 3 && (he == len(t) || !isWordByte(t[he])) {
				return he
			}
		}
	}
	if e+1 < len(t) && (t[e] == '.' || t[e] == ',') && isDigitByte(t[e+1]) {
		return 0 // an amount or a date, not a number
	}
	if strings.HasPrefix(t[e:], " €") || strings.HasPrefix(t[e:], "€") || strings.HasPrefix(t[e:], " euros") || strings.HasPrefix(t[e:], " años") {
		return 0
	}
	return e
}

// floor: 3º, 3ºA, 1º B, 2.º Esq., 3r, 2a, 6è, 4. ezk., 3. B, bajo, baixos, izquierda.
func (a *addrParser) floor(i int) int {
	t := a.text
	if !isDigitByte(t[i]) {
		if f, fe := a.p.foldAt(i); fe > 0 && floorWords[f] {
			if fe < len(t) && t[fe] == '.' {
				fe++
			}
			// a door letter after it ("bajo B", "bajo b"), not a conjunction ("y", "o", "e", "i", "a")
			if fe+2 <= len(t) && t[fe] == ' ' && isASCIILetterByte(t[fe+1]) && (fe+2 == len(t) || !isWordByte(t[fe+2])) &&
				(strings.IndexByte("yoeiaYOEIA", t[fe+1]) < 0 || (t[fe+1] == 'a' || t[fe+1] == 'A') && a.doorEnds(fe+2)) {
				fe += 2
			}
			return fe
		}
		return 0
	}
	_, e, nd := a.p.digitsAt(i, 2)
	if nd > 2 {
		return 0
	}
	marked, ordinal := false, false
	for _, m := range []string{".º", ".ª", "º", "ª", "°", "er", "r", "n", "t", "è", "a", "o", "."} {
		if !strings.HasPrefix(t[e:], m) {
			continue
		}
		after := e + len(m)
		if m == "." && !(after < len(t) && t[after] == ' ') {
			continue
		}
		if len(m) <= 2 && m[0] < 0x80 && m != "." && after < len(t) && isWordByte(t[after]) {
			continue
		}
		e, marked, ordinal = after, true, m[len(m)-1] >= 0x80
		break
	}
	if !marked && nd > 0 && e+2 < len(t) && isASCIILetterByte(t[e]) && isASCIILetterByte(t[e+1]) {
		// a floor and its door word typed as one: "4dcha", "3izq", "1izda."
		le := e
		for le < len(t) && isASCIILetterByte(t[le]) && le-e < 10 {
			le++
		}
		if f := string(a.p.fc.lower[e:le]); (le == len(t) || !isWordByte(t[le])) && floorWords[f] && f != "bis" && f != "int" && f != "ext" {
			if le < len(t) && t[le] == '.' {
				le++
			}
			return le
		}
	}
	if nd > 0 && e+1 < len(t) && t[e] == '-' {
		// floor and door joined by a dash: "3º-B", "2-1ª", "3-B", "2n-1a"
		if c := t[e+1]; (c >= 'A' && c <= 'H' || c >= 'a' && c <= 'h') && (e+2 == len(t) || !isWordByte(t[e+2])) {
			return e + 2
		}
		if isDigitByte(t[e+1]) {
			if _, de, dn := a.p.digitsAt(e+1, 2); dn <= 2 && de < len(t) && !isDigitByte(t[de]) {
				if fe := a.floor(e + 1); fe > de {
					return fe
				}
			}
		}
	}
	if ordinal && e < len(t) && t[e] >= 'a' && t[e] <= 'h' && (e+1 == len(t) || !isWordByte(t[e+1])) {
		return e + 1 // "1ºa", "4ºd": the door letter typed in lower case
	}
	if !marked && nd > 0 && e < len(t) && (t[e] >= 'b' && t[e] <= 'h' || t[e] >= 'A' && t[e] <= 'H') && (e+1 == len(t) || !isWordByte(t[e+1])) {
		return e + 1 // "3c", "5B": floor and door without the ordinal sign
	}
	if nd > 0 && e+1 < len(t) && t[e] == '.' && isASCIILetterByte(t[e+1]) {
		// Basque "5.C", "2.B", "2.izq": floor, a dot, a door letter or word
		if c := t[e+1]; (c >= 'A' && c <= 'H' || c >= 'a' && c <= 'h') && (e+2 == len(t) || !isWordByte(t[e+2])) {
			return e + 2
		}
		if f, fe := a.p.foldAt(e + 1); fe > 0 && floorWords[f] && f != "bis" {
			return fe
		}
	}
	if !marked && nd > 0 {
		// "2 a 18001", "3 b, 03001": a bare floor and door letter, then a postcode
		j := e
		for j < len(t) && t[j] == ' ' {
			j++
		}
		if j == e+1 {
			if de := a.bareDoor(j); de > 0 {
				return de // "12 3 2, 28005 madrid": floor and door as bare numbers, then a postcode
			}
		}
		if j > e && j < len(t) && (t[j] >= 'a' && t[j] <= 'h' || t[j] >= 'A' && t[j] <= 'H') && (j+1 == len(t) || !isWordByte(t[j+1])) {
			if k, ok := a.sep(j + 1); ok {
				if _, _, pd := a.p.digitsAt(k, 5); pd == 5 {
					return j + 1
				}
				// "77 4 c granada": a known town after it
				if f, _ := a.p.foldAt(k); places[f] || addrTowns[f] {
					return j + 1
				}
				if t[j] != 'a' && t[j] != 'A' && t[j] != 'e' && a.doorEnds(j+1) {
					return j + 1 // "ronda de segovia 22 1 d y no paga"
				}
			} else if j+1 == len(t) || strings.IndexByte(",.;\n", t[j+1]) >= 0 {
				return j + 1
			}
		}
	}
	if !marked {
		// "4 izq", "3 dcha": a bare floor number, then a door word
		j := e
		for j < len(t) && t[j] == ' ' {
			j++
		}
		if j > e {
			if f, fe := a.p.foldAt(j); fe > 0 && floorWords[f] && f != "bis" {
				if fe < len(t) && t[fe] == '.' {
					fe++
				}
				return fe
			}
		}
		return 0
	}
	if e < len(t) && t[e] == '.' && (e+1 == len(t) || t[e+1] == ' ' || t[e+1] == ',') {
		e++ // 1º. / 2ª.
	}
	if j := e + 1; e < len(t) && t[e] == ' ' {
		if f, fe := a.p.foldAt(j); fe > 0 && (f == "planta" || f == "piso" || f == "pis" || f == "floor") {
			e = fe // 6ª planta, 3er piso
		}
	}
	// a door after it: A, B, izq., dcha, 1a
	j := e
	if j < len(t) && isASCIILetterByte(t[j]) && t[j] >= 'A' && t[j] <= 'Z' && (j+1 == len(t) || !isWordByte(t[j+1])) {
		return j + 1 // 3ºA
	}
	for j < len(t) && t[j] == ' ' {
		j++
	}
	if j == e {
		return e
	}
	if j < len(t) && t[j] >= 'A' && t[j] <= 'Z' && (j+1 == len(t) || !isWordByte(t[j+1])) {
		return j + 1 // 2º C, 3. B
	}
	if ordinal && j < len(t) && t[j] >= 'a' && t[j] <= 'h' && (j+1 == len(t) || !isWordByte(t[j+1])) &&
		(t[j] != 'a' && t[j] != 'e' || a.doorEnds(j+1)) {
		return j + 1 // "4º d, 41010 sevilla": the door letter typed in lower case
	}
	if f, fe := a.p.foldAt(j); fe > 0 && floorWords[f] {
		if fe < len(t) && t[fe] == '.' {
			fe++
		}
		return fe
	}
	if j < len(t) && isDigitByte(t[j]) {
		if e2 := a.floor(j); e2 > 0 {
			return e2 // 3r 1a
		}
		if de := a.bareDoor(j); de > 0 {
			return de // "3º 1, 28004 Madrid"
		}
	}
	return e
}

// bareDoor reads a door typed as a bare number of one or two digits at j ("3º 1", "12 3 2"), only
// when a postcode or a known town follows it, so that "hay 3 2 cajeros" stays a sentence.
func (a *addrParser) bareDoor(j int) int {
	t := a.text
	_, de, dn := a.p.digitsAt(j, 2)
	if dn == 0 || dn > 2 || de < len(t) && isWordByte(t[de]) {
		return 0
	}
	k, ok := a.sep(de)
	if !ok || k >= len(t) {
		return 0
	}
	if isDigitByte(t[k]) {
		if _, pe, pd := a.p.digitsAt(k, 5); pd == 5 && (pe == len(t) || !isDigitByte(t[pe])) {
			return de
		}
		return 0
	}
	if f, _ := a.p.foldAt(k); places[f] || addrTowns[f] {
		return de
	}
	return 0
}

// doorEnds: a door letter ending at e closes the address: the text ends, or punctuation, a
// postcode or a word that goes on the sentence follows ("bajo a desde 2019", "1 d y no paga"),
// not an article or a noun ("bajo a la derecha", "2º a mano izquierda").
func (a *addrParser) doorEnds(e int) bool {
	t := a.text
	if e == len(t) || strings.IndexByte(",.;:)\n\r", t[e]) >= 0 {
		return true
	}
	if t[e] != ' ' || e+1 >= len(t) {
		return false
	}
	if isDigitByte(t[e+1]) {
		_, _, nd := a.p.digitsAt(e+1, 5)
		return nd == 5
	}
	f, _ := a.p.foldAt(e + 1)
	return doorFollowers[f]
}

// remarkEndings end the participles, adverbs and nouns a note puts after an address ("1º dcha
// pendiente", "bajo izda confirmado", "2º b urgentemente"), and no town's name of the lists.
var remarkEndings = []string{"ado", "ada", "ido", "ida", "ente", "ante", "mente", "cion", "ción", "ando", "endo"}

// remarkWord: the lower-case words w read as a town after a door end like a remark, and the
// first is no known town.
func remarkWord(w string) bool {
	if k := strings.IndexByte(w, ' '); k > 0 {
		if f := fold(w[:k]); addrTowns[f] || places[f] {
			return false
		}
	} else if f := fold(w); addrTowns[f] || places[f] {
		return false
	}
	for len(w) > 0 { // every word: "pendiente de firma"
		k := strings.IndexByte(w, ' ')
		if k < 0 {
			k = len(w)
		}
		for _, x := range remarkEndings {
			if strings.HasSuffix(w[:k], x) {
				return true
			}
		}
		w = w[min(k+1, len(w)):]
	}
	return false
}

// dashDoor reads a floor and door written as two numbers joined by a dash after a street's
// number ("17, 2-1", "23 4-2"): only with a postcode or a known town after it, since "2-1" alone is
// a score or a range.
func (a *addrParser) dashDoor(i int) int {
	t := a.text
	_, de, dn := a.p.digitsAt(i, 2)
	if dn == 0 || dn > 2 || de+1 >= len(t) || t[de] != '-' || !isDigitByte(t[de+1]) {
		return 0
	}
	_, e, n := a.p.digitsAt(de+1, 2)
	if n == 0 || n > 2 {
		return 0
	}
	if e < len(t) && t[e] >= 'a' && t[e] <= 'z' && (e+1 == len(t) || !isWordByte(t[e+1])) {
		e++ // "3-2a"
	}
	if e < len(t) && (isWordByte(t[e]) || t[e] == '-' || t[e] == '/') || !a.strongAfter(e) {
		return 0
	}
	return e
}

// doorFollowers go on a sentence after an address's door letter.
var doorFollowers = words(`y e i desde con pero porque hace since and with from but no ni que q`)

// unit: puerta 14, hab. 402, Flat 12, Apt 5B, parcela 14, km 3.
func (a *addrParser) unit(i int) int {
	t := a.text
	f, e := a.p.foldAt(i)
	if e < 0 || !unitWords[f] {
		return 0
	}
	if e < len(t) && t[e] == '.' {
		e++
	}
	for e < len(t) && t[e] == ' ' {
		e++
	}
	if f == "km" {
		return a.kmFigure(e)
	}
	if e < len(t) && isDigitByte(t[e]) {
		_, de, nd := a.p.digitsAt(e, 4)
		if nd > 4 {
			return 0
		}
		for _, m := range []string{"º", "ª", "°"} {
			if strings.HasPrefix(t[de:], m) {
				de += len(m) // "piso 3º"
				break
			}
		}
		if de < len(t) && isASCIILetterByte(t[de]) && (de+1 == len(t) || !isWordByte(t[de+1])) {
			de++
		} else if de+2 < len(t) && t[de] == ' ' && (t[de+1] >= 'a' && t[de+1] <= 'h' || t[de+1] >= 'A' && t[de+1] <= 'H') &&
			(f == "piso" || f == "pis" || f == "planta" || f == "apto" || f == "apartamento") && a.doorEnds(de+2) {
			de += 2 // "piso 5 b", "planta 2 A": the door letter apart, where the address ends
		}
		if de < len(t) && isWordByte(t[de]) {
			return 0
		}
		return de
	}
	if e < len(t) && t[e] >= 'A' && t[e] <= 'Z' && (e+1 == len(t) || !isWordByte(t[e+1])) {
		return e + 1 // escalera B
	}
	if e < len(t) && t[e] >= 'a' && t[e] <= 'h' && (e+1 == len(t) || !isWordByte(t[e+1])) && (f == "esc" || f == "escalera" || f == "bloque" || f == "blq" || f == "portal" || f == "letra" || f == "escala") {
		return e + 1 // "esc b"
	}
	if e+3 <= len(t) && (f == "esc" || f == "escalera" || f == "escala") {
		if g, ge := a.p.foldAt(e); ge > 0 && (g == "izq" || g == "izda" || g == "dcha" || g == "dch" || g == "dr" || g == "izquierda" || g == "derecha") {
			if ge < len(t) && t[ge] == '.' {
				ge++ // "esc. dcha."
			}
			return ge // "esc izq"
		}
	}
	return 0
}

// postcodeTown: a Spanish (or French) postcode and the town after it; with alone, only a
// Spanish postcode (01–52) and a town (capitalised, or a known place in lower case). Without
// alone (inside a chain) also a 4-digit (BE, CH, AT) or NNNN-NNN (PT) code, and a postcode
// without a town.
func (a *addrParser) postcodeTown(i int, alone bool) (int, bool) {
	t := a.text
	v, e, nd := a.p.digitsAt(i, 5)
	switch {
	case nd == 5:
		if alone && (v/1000 < 1 || v/1000 > 52) && !a.countryAfterTown(e) {
			return 0, false // a French or other code alone only with its country after the town
		}
	case nd == 4 && !alone && e+4 <= len(t) && t[e] == '-' && isDigitByte(t[e+1]) && isDigitByte(t[e+2]) && isDigitByte(t[e+3]):
		e += 4 // 1100-048
	case nd == 4 && !alone && e+3 < len(t) && t[e] == ' ' && t[e+1] >= 'A' && t[e+1] <= 'Z' && t[e+2] >= 'A' && t[e+2] <= 'Z' &&
		t[e+3] == ' ' && e+4 < len(t) && t[e+4] >= 'A' && t[e+4] <= 'Z':
		e += 3 // Dutch "1016 GV Amsterdam"
	case nd == 4 && !alone:
	case nd == 3 && !alone && e+3 < len(t) && t[e] == ' ' && isDigitByte(t[e+1]) && isDigitByte(t[e+2]) && t[e+3] == ' ' &&
		e+4 < len(t) && capitalised(t[e+4:]):
		e += 3 // Swedish "411 38 Göteborg": only inside a chain, and with its town
	case nd == 2 && !alone && e+4 <= len(t) && t[e] == '-' && isDigitByte(t[e+1]) && isDigitByte(t[e+2]) && isDigitByte(t[e+3]) &&
		(e+4 == len(t) || t[e+4] == ' '):
		e += 4 // Polish 00-549
	default:
		return 0, false
	}
	if e < len(t) && (isWordByte(t[e]) || t[e] == '.' && e+1 < len(t) && isDigitByte(t[e+1]) || t[e] == '/' || t[e] == '-' || t[e] == ',' && e+1 < len(t) && isDigitByte(t[e+1])) {
		return 0, false
	}
	j := e
	for j < len(t) && t[j] == ' ' {
		j++
	}
	if j > e && nd == 5 && (v/1000 == 1 || v/1000 == 20 || v/1000 == 31 || v/1000 == 48) {
		if te := a.basqueCaseTown(j); te > 0 {
			return te, true // "48300 gernika-lumoko pazienteari": the town, not its case ending
		}
	}
	if j > e {
		lowerOK := !alone
		if alone && !capitalised(t[j:]) {
			// alone, a town in lower case is one after a word that says someone lives there, or a
			// known town ("vive en 38003 santa cruz de tenerife", "29601 marbella")
			f, _ := a.p.foldAt(j)
			if townArticle(f) {
				if k := strings.IndexByte(t[j:min(len(t), j+4)], ' '); k > 0 {
					f, _ = a.p.foldAt(j + k + 1)
				}
			}
			lowerOK = addrTowns[f] || places[f] || !notTownWords[f] && a.prepBefore(i) && a.homeCueBefore(i)
		}
		if te := a.town(j, false, lowerOK); te > 0 {
			if nd == 5 && te+1 < len(t) && t[te] == ' ' && t[te+1] >= 'a' && t[te+1] <= 'z' && !capitalised(t[j:]) {
				te = a.townTail(te + 1) // "28014 madrid centro", "08970 sant joan despi."
			}
			return te, true
		}
	}
	if alone || nd == 4 {
		return 0, false
	}
	return e, true
}

// capitalisedAfterParticle: the word after the particle at i ("de ", "del ") is capitalised.
func (a *addrParser) capitalisedAfterParticle(i int) bool {
	for n := 0; n < 3 && i < len(a.text); n++ { // "de les Corts", "de la Reina"
		if capitalised(a.text[i:]) {
			return true
		}
		f, e := a.p.foldAt(i)
		if e < 0 || !(nameParticles[f] || townArticle(f)) || e >= len(a.text) || a.text[e] != ' ' {
			return false
		}
		i = e + 1
	}
	return false
}

// basqueCaseEndings are the Basque case endings glued to a town's name: of (Tolosako,
// Irungo), to (Donostiara, Bilbora), from (Gernikatik), in (Tolosan), for (Eibarrerako).
var basqueCaseEndings = []string{"rako", "tik", "ko", "go", "ra", "an", "n"}

// basqueCaseTown reads at j a town (hyphens within) that carries a Basque case ending after a
// postcode of the Basque Country or Navarre, and returns where the town's own name ends, before
// the ending — the stem a known town, or a hyphenated name ("gernika-lumoko"); 0 if none.
func (a *addrParser) basqueCaseTown(j int) int {
	t := a.text
	e := j
	for e < len(t) && (isWordByte(t[e]) || t[e] == '-' && e+1 < len(t) && isWordByte(t[e+1]) && e > j) {
		e++
	}
	if e-j < 5 || e < len(t) && t[e] >= 0x80 {
		return 0
	}
	w := t[j:e]
	if f := fold(w); addrTowns[f] || places[f] {
		return 0 // the town itself ("48200 Durango")
	}
	for _, x := range basqueCaseEndings {
		if len(w) < len(x)+4 || !strings.EqualFold(w[len(w)-len(x):], x) {
			continue
		}
		stem := w[:len(w)-len(x)]
		// an unknown hyphenated name only before the endings no town's name ends in ("ko",
		// "tik", "rako"): "estella-lizarra" ends in "ra" of its own
		if f := fold(stem); addrTowns[f] || places[f] || (x == "ko" || x == "tik" || x == "rako") && strings.IndexByte(stem, '-') > 0 && stem[len(stem)-1] != '-' {
			return j + len(stem)
		}
	}
	return 0
}

// countryAfterTown: the postcode ending at e is followed by a capitalised town and its country,
// in brackets or after a comma ("64100 Baiona (Frantzia)", "75011 Paris, Francia").
func (a *addrParser) countryAfterTown(e int) bool {
	t := a.text
	if e+2 >= len(t) || t[e] != ' ' || !capitalised(t[e+1:]) {
		return false
	}
	te := a.town(e+1, false, false)
	if te <= 0 || te+3 >= len(t) {
		return false
	}
	k := te + 1
	if t[te] == ' ' && t[te+1] == '(' {
		k = te + 2
	} else if t[te] == ',' && t[te+1] == ' ' {
		k = te + 2
	} else {
		return false
	}
	f, _ := a.p.foldAt(k)
	return countries[f]
}

// townTail reads at i the rest of a town typed in lower case after its postcode, one or two
// words that are no everyday word ("madrid centro", "sant joan despi"), ending at punctuation,
// the end of the text or an everyday word; it returns the new end, or i-1 (the town as read).
func (a *addrParser) townTail(i int) int {
	t := a.text
	end := i - 1
	j := i
	for n := 0; n < 2 && j < len(t); n++ {
		w := a.p.wordAt(j)
		if w < 0 {
			break
		}
		ww := &a.p.ws[w]
		if ww.is(a.p.fc, lexNameParticles) && n < 2 && ww.end+1 < len(t) && t[ww.end] == ' ' {
			n-- // "puerto de la cruz": particles between the town's words
			j = ww.end + 1
			continue
		}
		if ww.is(a.p.fc, lexAddrStop|lexNameStop|lexNotNames|lexNameParticles|lexUnitWords|lexStreetTypeWords|lexCue) &&
			!townTailWords[string(ww.fold(a.p.fc))] || utf8.RuneCountInString(ww.text) < 3 || capitalised(ww.text) || isDigitByte(ww.text[0]) {
			break
		}
		end = ww.end
		if end >= len(t) || t[end] != ' ' {
			break
		}
		j = end + 1
	}
	if end < i {
		return i - 1
	}
	if end == len(t) || strings.IndexByte(",.;:)\n", t[end]) >= 0 {
		return end
	}
	if w := a.p.wordAt(end + 1); end+1 < len(t) && t[end] == ' ' && w >= 0 && a.p.ws[w].is(a.p.fc, lexAddrStop|lexNameStop) {
		return end
	}
	return i - 1
}

// townTailWords end a town's name typed after it though the names' lists read them as everyday
// words ("madrid centro", "estepona pueblo").
var townTailWords = words(`centro pueblo ciudad casco norte sur este oeste nord sud playa platja alto alta bajo baja real`)

// zip: a US ZIP code (5 digits) after a state.
func (a *addrParser) zip(i int) int {
	_, e, nd := a.p.digitsAt(i, 5)
	if nd != 5 || e < len(a.text) && isWordByte(a.text[e]) {
		return 0
	}
	return e
}

// town: one to four words, capitalised (not sentence furniture, not a given name) or a known
// place in lower case, particles between ("Talavera de la Reina", "Castelló de la Plana",
// "Vitoria-Gasteiz"). After a town (province), only a known place or a single capitalised word
// before punctuation.
func (a *addrParser) town(i int, province, lowerOK bool) int {
	t := a.text
	end := -1
	j := i
	// a town typed in lower case goes on only after a particle or a prefix ("alcala de guadaira",
	// "santa cruz de tenerife"), and never after a capitalised word ("03730 Jávea explaining")
	sawCap, afterJoin, known := false, false, false
	for n := 0; n < 5 && j < len(t); n++ {
		w := a.p.wordAt(j)
		if w < 0 {
			break
		}
		ww := &a.p.ws[w]
		if n > 0 && (a.ukPostcode(ww.start) > 0 || a.stateZip(ww.start) > 0 || eircode(t, ww.start) > 0) {
			break // "Cardiff CF14 2FJ", "Springfield, IL 62704"
		}
		fw := string(ww.fold(a.p.fc))
		if n == 0 && !province && townArticle(fw) && ww.end+1 < len(t) && t[ww.end] == ' ' {
			if nw := a.p.wordAt(ww.end + 1); nw >= 0 && (capitalised(a.p.ws[nw].text) || lowerOK) && !a.p.ws[nw].is(a.p.fc, lexAddrStop|lexNameParticles) {
				j = ww.end + 1 // "30830 la ñora", "15001 A Coruña", "08001 L'Hospitalet"
				continue
			}
		}
		lower := !capitalised(ww.text)
		switch {
		case places[fw] || (addrTowns[fw] || townPrefixes[fw]) && (!lower || !sawCap):
		case (nameParticles[fw] || townParticles[fw]) && n > 0:
			j = ww.end
			if j < len(t) && t[j] == ' ' {
				j++
				afterJoin = true
				continue
			}
			return max(end, 0)
		case !lower && !notNames[fw] && !(isGiven(ww.fold(a.p.fc)) && !places[fw] && n == 0 && province):
			if province && !(ww.end == len(t) || strings.IndexByte(",.;)\n", t[ww.end]) >= 0) &&
				!(t[ww.end] == ' ' && a.postcodeAt(ww.end+1)) {
				return max(end, 0) // a province, or a town before its postcode ("Dublin D13 X2K7")
			}
		case !lower && notNames[fw] && n > 0 && (fw == "reina" || fw == "plana"):
		case n > 0 && end > 0 && elidedTownWord(ww.text, lowerOK):
			// "Port d'Andratx", "Sant Joan d'Alacant", "Castell d'Aro"
		case (lowerOK || known && afterJoin) && lower && !sawCap && (end < 0 || afterJoin) && !ww.is(a.p.fc, lexAddrStop|lexNotNames|lexNameParticles) && len(ww.text) >= 3:
			// after a postcode inside an address, a town in lower case ("15701 santiago")
		default:
			return max(end, 0)
		}
		if end < 0 {
			known = places[fw] || addrTowns[fw] // "alcala de henares" after a floor
		}
		sawCap = sawCap || !lower
		afterJoin = townPrefixes[fw]
		end = ww.end
		if province {
			return end
		}
		j = ww.end
		if j >= len(t) || t[j] != ' ' {
			break
		}
		j++
	}
	return max(end, 0)
}

// deTown reads the town after "de" at the end of an address ("… 2 de villanueva, …", "… 3 de
// villanueva del pardillo está …"): one to four words, particles between, that are no everyday word
// or month, then punctuation, the end of the text or an everyday word.
func (a *addrParser) deTown(i int) int {
	t := a.text
	end := -1
	j := i
	for n := 0; n < 4 && j < len(t); n++ {
		w := a.p.wordAt(j)
		if w < 0 {
			break
		}
		ww := &a.p.ws[w]
		if ww.is(a.p.fc, lexNameParticles) && n > 0 && end > 0 {
			j = ww.end + 1
			continue
		}
		if ww.is(a.p.fc, lexAddrStop|lexNameStop|lexNotNames|lexNameParticles|lexFloorWords|lexUnitWords|lexStreetTypeWords|lexCue) ||
			utf8.RuneCountInString(ww.text) < 3 {
			break
		}
		end = ww.end
		if end >= len(t) || t[end] != ' ' {
			break
		}
		j = end + 1
	}
	if end < 0 {
		return 0
	}
	if end == len(t) || strings.IndexByte(",.;:)\n", t[end]) >= 0 {
		return end
	}
	if w := a.p.wordAt(end + 1); end+1 < len(t) && t[end] == ' ' && w >= 0 && a.p.ws[w].is(a.p.fc, lexAddrStop|lexNameStop) {
		return end
	}
	return 0
}

// houseWords name a British house ("Rose Cottage", "The Old Rectory", "Ivy House").
var houseWords = words(`cottage cottages house farm farmhouse rectory vicarage lodge barn mill manor hall grange villa
	court mansions bungalow chapel croft`)

// ukBefore widens a British postcode at p back over the town right before it and, comma by
// comma, over a road (capitalised words ending in a street word, a number optional) and up to two
// segments before it: a house's name or a flat ("The Old Rectory, Church Road, Ledbury HR8 1DT",
// "Flat 2, Ivy House, High Street, Kendal LA9 4DL").
func (a *addrParser) ukBefore(p int) int {
	t, ws, fc := a.text, a.p.ws, a.p.fc
	wordEndingAt := func(e int) int {
		k := sort.Search(len(ws), func(j int) bool { return ws[j].end >= e })
		if k < len(ws) && ws[k].end == e {
			return k
		}
		return -1
	}
	if p < 2 || t[p-1] != ' ' {
		return p
	}
	k := wordEndingAt(p - 1)
	start := -1
	for n := 0; k >= 0 && n < 3 && capitalised(ws[k].text) && !ws[k].is(fc, lexNotNames|lexSuffixStreetWords); n++ {
		start = k
		if k == 0 || t[ws[k-1].end:ws[k].start] != " " {
			break
		}
		k--
	}
	if start < 0 {
		return p
	}
	s := ws[start].start
	roadBefore := false
	locality := false
	for seg := 0; seg < 4; seg++ {
		if s < 3 || t[s-2:s] != ", " {
			break
		}
		if d := s - 2; seg > 0 && isDigitByte(t[d-1]) {
			for d > 0 && isDigitByte(t[d-1]) {
				d--
			}
			if fw := wordEndingAt(d - 1); d > 1 && t[d-1] == ' ' && fw >= 0 {
				if f := string(ws[fw].fold(fc)); f == "flat" || f == "apartment" || f == "unit" {
					s = ws[fw].start // "Flat 2, Ivy House, …"
					continue
				}
			}
			break
		}
		k := wordEndingAt(s - 2)
		if k < 0 {
			break
		}
		first, house, road := -1, false, ws[k].is(fc, lexSuffixStreetWords)
		for n := 0; k >= 0 && n < 4; n++ {
			if capitalised(ws[k].text) || n > 0 && k > 0 && ws[k].is(fc, lexNameParticles) && capitalised(ws[k-1].text) {
				first = k
				house = house || houseWords[string(ws[k].fold(fc))]
			} else {
				break
			}
			if k == 0 || t[ws[k-1].end:ws[k].start] != " " {
				break
			}
			k--
		}
		if first < 0 {
			break
		}
		b := ws[first].start
		if d := b - 1; d > 0 && t[d] == ' ' && isDigitByte(t[d-1]) {
			for d > 0 && isDigitByte(t[d-1]) {
				d--
			}
			b = d // "12 Church Road"
		}
		f := string(ws[first].fold(fc))
		numbered := b < ws[first].start
		switch {
		case seg == 0 && (road || numbered || ws[first].is(fc, lexStreetTypeWords)), seg > 0 && (house || road || f == "the" || houseFirst[f]):
			// "12 Church Road", "27 Kingsway", "Heol y Bryn"; a house's name before them (a
			// house's name is no road: what stands before it is not another house's, "Dear Mr
			// Smith, Rose Cottage, Mill Lane, …")
			s = b
			roadBefore = !numbered && (seg == 0 || road)
		case seg > 0 && roadBefore:
			// a house's name before a road without a number ("Ty Gwyn, Heol y Bryn, …")
			s = b
			roadBefore = false
		case seg == 0 && !locality && a.roadEndsAt(b):
			// a village between the road and the post town ("…, Church Lane, Little Shelford,
			// Cambridge CB22 5HG", "…, High Street, Wick, Bristol BS30 5QW"): read as the town
			// was, and the road before it is the first segment again
			s = b
			locality = true
			seg--
		default:
			return s
		}
	}
	return s
}

// roadEndsAt: ", " before b ends a road — capitalised words ending in a street word ("Church
// Lane", "22 Dunmore Street").
func (a *addrParser) roadEndsAt(b int) bool {
	t, ws, fc := a.text, a.p.ws, a.p.fc
	if b < 3 || t[b-2:b] != ", " {
		return false
	}
	k := sort.Search(len(ws), func(j int) bool { return ws[j].end >= b-2 })
	return k < len(ws) && ws[k].end == b-2 && capitalised(ws[k].text) && ws[k].is(fc, lexSuffixStreetWords)
}

// townArticle: the articles a town's name may start with (La Ñora, A Coruña, O Grove, Els Hostalets).
// elidedTownWord: "d'Andratx", "l'Escala", "d’Aro" inside a town's name (capitalised after the
// apostrophe, or in lower case where a lower-case town may be).
func elidedTownWord(w string, lowerOK bool) bool {
	if len(w) < 4 || w[0] != 'd' && w[0] != 'l' && w[0] != 'D' && w[0] != 'L' {
		return false
	}
	r := w[2:]
	if w[1] != '\'' {
		if !strings.HasPrefix(w[1:], "’") {
			return false
		}
		r = w[1+len("’"):]
	}
	return len(r) >= 2 && (capitalised(r) || lowerOK)
}

func townArticle(f string) bool {
	switch f {
	case "la", "el", "las", "los", "a", "o", "as", "os", "els", "les", "l":
		return true
	}
	return false
}

// ukPostcode: SW15 2RD, OX7 5NJ, BS1 4DJ, EC1A 1BB.
func (a *addrParser) ukPostcode(i int) int { return ukPostcodeIn(a.text, i, 'A', 'Z') }

// ukPostcodeIn reads a British postcode at i whose letters are all in lo..hi (one case: 'A'..'Z'
// or 'a'..'z'); it returns its end, or 0.
func ukPostcodeIn(t string, i int, lo, hi byte) int {
	letter := func(c byte) bool { return c >= lo && c <= hi }
	j := i
	for j < len(t) && j-i < 2 && letter(t[j]) {
		j++
	}
	if j == i || j >= len(t) || !isDigitByte(t[j]) {
		return 0
	}
	j++
	if j < len(t) && (isDigitByte(t[j]) || letter(t[j])) {
		j++
	}
	if j+4 > len(t) || t[j] != ' ' || !isDigitByte(t[j+1]) || !letter(t[j+2]) || !letter(t[j+3]) {
		return 0
	}
	if j+4 < len(t) && isWordByte(t[j+4]) {
		return 0
	}
	return j + 4
}

// stateZip: IL 62704, CA 94110.
func (a *addrParser) stateZip(i int) int {
	t := a.text
	if i+8 > len(t) || !(t[i] >= 'A' && t[i] <= 'Z') || !(t[i+1] >= 'A' && t[i+1] <= 'Z') || t[i+2] != ' ' {
		return 0
	}
	return a.zip(i + 3)
}

// articleBefore widens an address over "la"/"el" right before it ("vive en la calle las flores 3").
func (a *addrParser) articleBefore(s int) int {
	t := a.text
	if s >= 5 && (t[s-5:s] == "Gran " || t[s-5:s] == "gran ") && (s == 5 || !isWordByte(t[s-6])) {
		s -= 5 // "la Gran Vía Marqués del Turia 49": the street's type is "Gran Vía"
	}
	for _, art := range []string{"la ", "La ", "el ", "El ", "l'"} {
		if s >= len(art) && t[s-len(art):s] == art && (s == len(art) || !isWordByte(t[s-len(art)-1])) {
			return s - len(art)
		}
	}
	return s
}

// unitsBefore widens a number-first street over what British addresses put before it: "Flat
// 12, Beaumont Court, 44 Upper Richmond Road", "Hotel Sol, hab. 12, Calle Mayor 20".
// theHouseBefore: seg ends with a house's or practice's name, "The" and one to three capitalised
// words; the index of "The" in seg, or -1.
func theHouseBefore(seg string) int {
	x := strings.LastIndex(seg, "The ")
	if x < 0 || x > 0 && isWordByte(seg[x-1]) {
		return -1
	}
	ws := strings.Fields(seg[x+4:])
	if len(ws) < 1 || len(ws) > 3 || strings.ContainsAny(seg[x:], ",.;:\n") {
		return -1
	}
	for _, w := range ws {
		if !capitalised(w) {
			return -1
		}
	}
	return x
}

func (a *addrParser) unitsBefore(s int) int {
	t := a.text
	if s >= 2 && t[s-1] == ' ' && isDigitByte(t[s]) {
		// "Flat 12, Beaumont Court, …" read from its number: take the unit word too
		k := s - 1
		for k > 0 && isASCIILetterByte(t[k-1]) {
			k--
		}
		if f, _ := a.p.foldAt(k); k < s-1 && unitWords[f] {
			s = k
		}
	}
	roomTaken := false
	for n := 0; n < 3; n++ {
		if s < 3 || t[s-2:s] != ", " {
			return s
		}
		k := s - 2
		// the segment before: from the previous ", " or line start / "of "
		lb := max(0, k-40)
		b := -1
		if x := strings.LastIndex(t[lb:k], ", "); x >= 0 {
			b = lb + x + 2
		}
		for _, cue := range []string{" of ", " at ", " en ", " in ", "\n", ": ", " a ", " to "} {
			if x := strings.LastIndex(t[lb:k], cue); x >= 0 {
				b = max(b, lb+x+len(cue))
			}
		}
		if h := theHouseBefore(t[lb:k]); h >= 0 {
			s = lb + h // "The Old Rectory, 5 Church Walk, …", "The Old Rectory, 5 Church Walk, …"
			continue
		}
		if b < 0 {
			return s
		}
		seg := t[b:k]
		if e := a.unit(b); e == k {
			s, roomTaken = b, true
			continue
		}
		if e := a.floor(b); e == k && b < len(t) && isDigitByte(t[b]) {
			s = b // "Bloque 3, portal 2, 5º A, Barrio del Pilar, …"
			continue
		}
		ws := strings.Fields(seg)
		if len(ws) >= 2 && len(ws) <= 4 {
			last := fold(ws[len(ws)-1])
			switch last {
			case "court", "house", "building", "mansions", "lodge", "tower", "towers", "hall", "cottage", "farm":
				s = b
				continue
			}
			// a hotel's name is the guest's address only with a room in it ("Hotel Sol, hab.
			// 12, Calle Mayor 20"); before the street alone it is the hotel's ("staying at
			// Hotel Marbella Playa, avda. del mar 12")
			if f := fold(ws[0]); (f == "hotel" || f == "hostal") && roomTaken || f == "edificio" || f == "residencia" || houseFirst[f] && capitalised(ws[1]) {
				s = b
				continue
			}
		}
		return s
	}
	return s
}

// parkingSpace: after a "plaza" ending at e come words that make it a parking space.
func parkingSpace(lower []byte, e int) bool {
	rest := lower[e:min(len(lower), e+24)]
	for _, p := range []string{" de garaje", " de aparcamiento", " de parking", " de garatge", " d'aparcament", " de pàrquing",
		" de parquing", " de garaxe", " de aparcadoiro", " garaje", " de cochera"} {
		if bytes.HasPrefix(rest, []byte(p)) {
			return true
		}
	}
	return false
}

// polishStreetType: the two-letter word ending at e is written as a Polish street type (ul., al.,
// os.): a dot, a space and a letter.
func polishStreetType[T string | []byte](t T, e int) bool {
	return e+2 < len(t) && t[e] == '.' && t[e+1] == ' ' && (isASCIILetterByte(t[e+2]) || t[e+2] >= 0x80)
}

// officeBefore: an office's published address ("nuestra oficina está en …", "Oficina Paseo de
// Roma 2", "la nuestra está en …") is public information, not a customer's. So is a firm's,
// a hotel's, a venue's or a public body's: a company's legal form right before it, an office or
// firm word or a profession later in the sentence than any home word, a venue word in a
// sentence with no home word at all, or, for an address that starts a line, a line above it that
// is a firm's signature (a firm's name, a job title, an office line) with no home word.
func officeBefore(lower []byte, s int) bool {
	if s > len(lower) {
		return false
	}
	window := lower[max(0, s-160):s]
	before := window
	if k := lastBreak(before); k >= 0 && k < len(before)-1 {
		before = before[k+1:]
	} else if k >= 0 {
		// the address starts a line: the line above speaks for it ("Domicilio:⏎C/ …",
		// "Oficina 0049⏎Paseo …"), not the lines before that (a bank's letterhead above the
		// customer's name and address)
		if j := lastBreak(before[:k]); j >= 0 {
			before = before[j+1:]
		}
	}
	if companyFormAtEnd(before, true) {
		return true // "Promociones Henares SL — C/ Industria 5"
	}
	// "Mapfre España, S.A., Carretera …": the legal form's own dots cut the sentence above
	if n := len(before); n < len(window) && n < 48 && n+3 <= len(window) && window[len(window)-n-1] == '.' &&
		window[len(window)-n-3] == '.' && strings.IndexByte("alu", window[len(window)-n-2]) >= 0 {
		tail := window[max(0, len(window)-48):]
		if k := bytes.LastIndexByte(tail, '\n'); k >= 0 {
			tail = tail[k+1:]
		}
		if companyFormAtEnd(tail, true) {
			return true
		}
	}
	// a one-line signature: "Leire Mendía | Directora de oficina | Calle Mayor 20, …"
	if t := bytes.TrimRight(before, " "); len(t) > 0 && t[len(t)-1] == '|' && pipeSignature(t) {
		return true
	}
	// the later of a home word and an office word says whose address it is ("designa como
	// domicilio el despacho de sus letrados, …": the office's)
	home, office, venue := ownerWordsIn(before)
	if office > home || venue >= 0 && home < 0 || home < 0 && switchboardAfter(lower, s) {
		return true
	}
	// a signature block: "Abogada⏎Calle Mayor 20, …", "> Xestor, oficina
	// 1200⏎> Rúa Nova 3, …"
	k := len(window)
	for k > 0 && (window[k-1] == ' ' || window[k-1] == '>' || window[k-1] == '\t') {
		k--
	}
	if k > 0 && window[k-1] == ',' {
		// "Floor 3, 20 Canada Square": a floor or suite first on the address's line
		if j := bytes.LastIndexByte(window[:k], '\n'); j >= 0 && k-j <= 16 {
			seg := window[j+1 : k]
			for _, u := range []string{"floor ", "level ", "suite ", "unit ", "planta ", "piso ", "pis "} {
				if bytes.HasPrefix(seg, []byte(u)) {
					k = j + 1
					break
				}
			}
		}
	}
	if k == 0 || window[k-1] != '\n' {
		return false
	}
	line := bytes.TrimRight(window[:k-1], "\r ")
	if j := bytes.LastIndexByte(line, '\n'); j >= 0 {
		line = line[j+1:]
	} else if len(window) == 160 {
		return false // the line above is longer than the window: no signature line
	}
	line = bytes.TrimLeft(line, "> \t-")
	if len(line) == 0 || len(line) > 80 {
		return false
	}
	return signatureLine(line)
}

// pipeSignature: a one-line signature before an address, its parts between bars, one of them a
// job title or an office's line ("Gestor de clientes", "Relationship Manager", "Oficina 0049").
func pipeSignature(line []byte) bool {
	for len(line) > 0 {
		k := bytes.LastIndexByte(line[:len(line)-1], '|')
		seg := bytes.Trim(line[k+1:len(line)-1], " >")
		for i := 0; i < len(seg); i++ {
			if i > 0 && isWordByte(seg[i-1]) {
				continue
			}
			for _, w := range signatureWordsByFirst[seg[i]] {
				if bytes.HasPrefix(seg[i:], []byte(w)) {
					return true
				}
			}
		}
		if _, office, _ := ownerWordsIn(seg); office >= 0 {
			return true
		}
		if k < 0 {
			break
		}
		line = line[:k+1]
	}
	return false
}

// signatureLine: a firm's signature line — no home word, and an office word or a firm's or
// job's word ("Abogada", "Solicitor, … LLP", "Directora de oficina").
func signatureLine(line []byte) bool {
	home, office, _ := ownerWordsIn(line)
	if home >= 0 {
		return false
	}
	if office >= 0 {
		return true
	}
	for i := 0; i < len(line); i++ {
		for _, w := range signatureWordsByFirst[line[i]] {
			if bytes.HasPrefix(line[i:], []byte(w)) && (i == 0 || !isWordByte(line[i-1])) {
				return true
			}
		}
	}
	return false
}

// switchboardAfter: a switchboard or opening hours right after the address at s, in the same line
// and after only a comma, a bracket or a dot ("…, centralita 91 …", "(switchboard +34 …)", ",
// horario de atención de 8 a 15"), with no verb or conjunction between ("… y llamó a la
// centralita" says nothing about the address).
func switchboardAfter(lower []byte, s int) bool {
	fwd := lower[s:min(len(lower), s+80)]
	if k := bytes.IndexByte(fwd, '\n'); k >= 0 {
		fwd = fwd[:k]
	}
	// one pass over the separators, trying the words only after one
	for j := 0; j < len(fwd); {
		k := bytes.IndexAny(fwd[j:], ",(;\xb7")
		if k < 0 {
			return false
		}
		k += j
		j = k + 1
		w := bytes.TrimLeft(fwd[j:], " ")
		hit := false
		for _, x := range []string{"centralita", "switchboard", "centraleta", "horario de atención", "opening hours"} {
			hit = hit || bytes.HasPrefix(w, []byte(x))
		}
		if !hit {
			continue
		}
		for _, x := range []string{" y ", " and ", " que ", " llam", " call ", " called", " su ", " his ", " her ", " i ", " e "} {
			if bytes.Contains(fwd[:k], []byte(x)) {
				return false
			}
		}
		return true
	}
	return false
}

// companyFormAtEnd: b ends with a company's legal form ("… Henares SL —"); with sep, only
// before a space or punctuation (an address's start in the same line).
func companyFormAtEnd(b []byte, sep bool) bool {
	t := bytes.TrimRight(b, " —–-:,(·\r")
	if sep && len(t) == len(b) {
		return false
	}
	for _, suf := range []string{" sl", " sa", " s.l.", " s.a.", " slu", " sau", " slp", " cb", " ltd", " inc", " gmbh", " s.l", " s.a", " llp", " plc", " s.l.u."} {
		if bytes.HasSuffix(t, []byte(suf)) {
			return true
		}
	}
	return false
}

// ownerWordsIn: the last index in b of a home word, of an office word and of a venue word (-1
// for none). One pass over b, trying only the words that start with each byte (the same result
// as the last bytes.LastIndex of every word, at a fraction of the cost: this runs for every
// address candidate).
func ownerWordsIn(b []byte) (home, office, venue int) {
	home, office, venue = -1, -1, -1
	for i := 0; i+1 < len(b); i++ { // every word has two bytes or more
		// the first two bytes of some word: one bit test for most bytes of the text
		if c := b[i+1]; ownerPairs[b[i]][c>>6]&(1<<(c&63)) == 0 {
			continue
		}
		list := ownerKindsByFirst[b[i]]
		if c0 := b[i]; c0 >= 'a' && c0 <= 'z' {
			// a letter first: only the words that start with both bytes (the others of
			// ownerKindsByFirst would fail the second byte's test)
			k := ownerByPair[c0-'a'][b[i+1]]
			if k == 0 {
				continue
			}
			list = ownerPairLists[k-1]
		}
		for _, w := range list {
			// the second byte first: most tries end there, without a call
			if w.text[1] == b[i+1] && len(b)-i >= len(w.text) && string(b[i:i+len(w.text)]) == string(w.text) {
				if w.kind == ownerVenue && i > 0 && isWordByte(b[i]) && isWordByte(b[i-1]) {
					continue // a venue word inside a word: "firm " of "confirm it's Flat 5, …"
				}
				switch w.kind {
				case ownerHome:
					home = i
				case ownerOffice:
					office = i
				default:
					venue = i
				}
			}
		}
	}
	return home, office, venue
}

const (
	ownerHome = iota
	ownerOffice
	ownerVenue
)

// ownerByPair[c0-'a'][c1] is 1 + the index in ownerPairLists of the owner words (of
// ownerKindsByFirst, in its order) that start with the letter c0 and the byte c1, or 0 for none.
var (
	ownerPairLists [][]struct {
		text []byte
		kind uint8
	}
	ownerByPair = func() (t [26][256]uint8) {
		for c0 := byte('a'); c0 <= 'z'; c0++ {
			for _, w := range ownerKindsByFirst[c0] {
				c1 := w.text[1]
				if t[c0-'a'][c1] == 0 {
					if len(ownerPairLists) == 255 {
						panic("redact: more than 255 owner word pairs")
					}
					ownerPairLists = append(ownerPairLists, nil)
					t[c0-'a'][c1] = uint8(len(ownerPairLists))
				}
				k := t[c0-'a'][c1] - 1
				ownerPairLists[k] = append(ownerPairLists[k], w)
			}
		}
		return t
	}()
)

// ownerPairs: for each first byte, the second bytes of the owner words that start with it (a
// 256-bit set), so that ownerWordsIn skips a byte with one test.
var ownerPairs = func() (t [256][4]uint64) {
	for c0, ws := range ownerKindsByFirst {
		for _, w := range ws {
			c1 := w.text[1]
			t[c0][c1>>6] |= 1 << (c1 & 63)
		}
	}
	return t
}()

// ownerKindsByFirst joins the home, office and venue words in one table by first byte, so that
// ownerWordsIn looks each byte up once.
var ownerKindsByFirst = func() (t [256][]struct {
	text []byte
	kind uint8
}) {
	add := func(w string, k uint8) {
		t[w[0]] = append(t[w[0]], struct {
			text []byte
			kind uint8
		}{[]byte(w), k})
	}
	for _, ws := range ownerWordsByFirst {
		for _, w := range ws {
			if w.office {
				add(w.text, ownerOffice)
			} else {
				add(w.text, ownerHome)
			}
		}
	}
	for _, ws := range venueWordsByFirst {
		for _, w := range ws {
			add(w, ownerVenue)
		}
	}
	return t
}()

// ownerWord is a word that says whose address follows: the person's home or an office.
type ownerWord struct {
	text   string
	office bool
}

// ownerWordsByFirst indexes the home and office words by their first byte.
var ownerWordsByFirst = func() (t [256][]ownerWord) {
	for _, w := range []string{"vive", "domicili", "reside", "cliente", "clienta", "su casa", "mi casa", "lives", "my address", "su dirección", "mudado", "muda",
		"residing", "resident", "domiciled", "living at", "live at", "vecino", "vecina", "veciño", "veciña", " viu ", "bizi", "empadronad", "client ",
		// a guest's stay is where the person is ("Turista alojado en el Hotel Sol, Calle Mayor 20")
		"alojad", "se aloja", "hospedad", "allotjad", "staying at", "stays at", "aloxad",
		// a notice served on someone at an address is served at theirs ("notificación a X en C/ …")
		"notificaci", "notifíque", "notifique", "notificar a", "notifica a",
		// a person's home said in other words: a home of their own, a friend's or relative's house,
		// a register of residence, a property they own or sell ("her home is …", "staying with a
		// friend at …", "certificado de empadronamiento …", "la venda del pis situat a …")
		"her home", "his home", "their home", "home is", "home address", "staying with", "stays with",
		"en casa de", "a casa de", "empadronami", "padrón", "padro ", "property at", "flat at",
		"pis situat", "piso situado", "piso sito", "vivienda situada", "vivienda sita", "habitatge situat", "immoble situat"} {
		t[w[0]] = append(t[w[0]], ownerWord{w, false})
	}
	for _, w := range []string{"oficina", "office", "sede", "sucursal", "la nuestra", "branch", "headquarters", "delegación",
		"despacho", "despatx", "bufete", "notaría", "notaria", "gestoría", "gestoria", "registered office", "bulego",
		"notària", "notari:", "notaire", "notário", "notariado",
		"social", // "domicilio social", "domicili social", "sede social"
		"oficines", "seu central", "siège", "siege social", "escritório", "escritorio", "registered address",
		// a firm's people and meeting words: the address after them is the firm's or the venue's
		"notario", "notary", "notari ", "lawyer", "solicitor", "abogad", "advocat", "procurador", "la seu ",
		"nos vemos en", "reunión en", "reunion en", "evento en", "meeting at", "see you at", "nuestras instalaciones",
		// a signing's venue: "la firma de la escritura será en …", "signs on 4 March at …"
		"la firma ", "firmará en", "firmaran en", "firmarán en", "signs on", "signs at", "sign at", "signing at", "completion at",
		// an employer's address: "vive en … y trabaja en Mercadona, calle …"
		"trabaja en", "works at", "treballa a", "traballa en"} {
		t[w[0]] = append(t[w[0]], ownerWord{w, true})
	}
	return t
}()

// venueWordsByFirst: hotels, venues, companies and public bodies. The address after one is
// theirs only in a sentence with no home word ("vive junto al Ayuntamiento, calle …" is a home).
var venueWordsByFirst = func() (t [256][]string) {
	for _, w := range []string{"hotel", "hostal", "parador", "restaurante", "restaurant", " venue", "event at",
		"juzgado", "audiencia", "ayuntamiento", "ajuntament", "concello", "tribunal", "empresa", "company", "firm ",
		// clinics, hospitals, insurers, schools, registries ("Derivado a Centro de Salud Torrero,
		// calle …", "Referred to St Mary's Hospital, Praed Street …")
		"centro de sa", "centre de salut", "osasun zentro", "health cent", "medical cent", "hospital ", "hospital,",
		"clínic", "clinic", "ambulatori", "consultorio", " cap ", "mutua ", "aseguradora", "asseguradora", "insurer",
		"universi",
		// banks and insurers by name: "Private Banking, Bankinter, Paseo …", "Banca Privada · Ibercaja · Plaza …"
		"bankinter", "ibercaja", "kutxabank", "caixabank", "banco sabadell", "bbva", "unicaja", "abanca", "cajamar",
		"laboral kutxa", "openbank", "banca march", "deutsche bank", "banco de españa", "caja rural", "cajasur",
		"mapfre", "banca privada", "private banking", "wealth management",
		// British courts: "Filed at the County Court, Bristol Civil Justice Centre, 2 Redcliff Street, …"
		"county court", "crown court", "high court", "magistrates", "justice centre", "justice center"} {
		t[w[0]] = append(t[w[0]], w)
	}
	return t
}()

// signatureWordsByFirst: words of a firm's signature line (a firm's name, a job title) at a
// word's start; an address on the next line is the firm's.
var signatureWordsByFirst = func() (t [256][]string) {
	for _, w := range []string{"abogad", "advocat", "lawyer", "solicitor", "notari", "notary", "procurador", "gestor",
		"xestor", "asesor", "asesoría", "assessor", "director", "directora", "manager", "legal", "llp", "partners",
		"consult", "abokatu", "kudeatzaile", "responsable", "jefe", "jefa", "cap d", "head of", "associate", "asociad",
		"adviser", "advisor", "officer", "gerente", "plc", "ltd"} {
		t[w[0]] = append(t[w[0]], w)
	}
	return t
}()

// cpWords are written right before a postcode.
var cpWords = []string{"C.P. ", "c.p. ", "CP ", "cp ", "Cp ", "C.P.", "CP. ", "cp. ", "C. P. ", "CP: ", "C.P.: ",
	"código postal ", "codigo postal ", "Código postal ", "Código Postal ", "codi postal ", "Codi postal ",
	"código postal: ", "Código postal: ", "postcode ", "Postcode ", "zip ", "ZIP "}

// streetSuffixes end a German or Dutch street's name written as one word (Hauptstraße, Lindenallee).
var streetSuffixes = []string{"straße", "strasse", "str", "weg", "platz", "allee", "gasse", "gracht", "straat",
	"laan", "plein", "kade", "damm", "ufer", "steig", "pfad",
	// Swedish: Drottninggatan, Kungsvägen (folded vagen), Järntorget
	"gatan", "vagen", "vägen", "torget", "grand", "gränd"}

// streetSuffixByLast indexes streetSuffixes by their last byte.
var streetSuffixByLast = func() (t [256][]string) {
	for _, x := range streetSuffixes {
		t[x[len(x)-1]] = append(t[x[len(x)-1]], x)
	}
	return t
}()

// streetSuffix: the folded word f is a compound ending in a street suffix, with a name before it.
func streetSuffix(f []byte) bool {
	if len(f) < 6 {
		return false
	}
	for _, x := range streetSuffixByLast[f[len(f)-1]] {
		if len(f) >= len(x)+3 && string(f[len(f)-len(x):]) == x {
			return true
		}
	}
	return false
}

// eircode: an Irish postcode (D02 VF65, A65 F4E2, D6W XK20).
func eircode(t string, i int) int {
	if i+8 > len(t) || !(t[i] >= 'A' && t[i] <= 'Z') || !isDigitByte(t[i+1]) || !(isDigitByte(t[i+2]) || t[i+2] == 'W') || t[i+3] != ' ' {
		return 0
	}
	letters, digits := 0, 0
	for k := i + 4; k < i+8; k++ {
		switch c := t[k]; {
		case c >= 'A' && c <= 'Z':
			letters++
		case isDigitByte(c):
			digits++
		default:
			return 0
		}
	}
	if letters == 0 || digits == 0 || !(t[i+4] >= 'A' && t[i+4] <= 'Z') || i+8 < len(t) && isWordByte(t[i+8]) {
		return 0
	}
	return i + 8
}

// postcodeAt: a postcode starts at i (British, Irish, a US state and ZIP, or 4–5 digits).
func (a *addrParser) postcodeAt(i int) bool {
	t := a.text
	if i >= len(t) {
		return false
	}
	if isDigitByte(t[i]) {
		_, e, nd := a.p.digitsAt(i, 5)
		return (nd == 4 || nd == 5) && (e == len(t) || !isWordByte(t[e]))
	}
	return a.ukPostcode(i) > 0 || eircode(t, i) > 0 || a.stateZip(i) > 0
}

// homeCueBefore: a word saying that someone lives at what follows is written shortly before i,
// in the same sentence.
func (a *addrParser) homeCueBefore(i int) bool {
	lower := a.p.fc.lower
	if i > len(lower) {
		return false
	}
	before := lower[max(0, i-48):i]
	if k := lastBreak(before); k >= 0 {
		before = before[k+1:]
	}
	for _, c := range homeCues {
		if bytes.Contains(before, []byte(c)) {
			return true
		}
	}
	return false
}

// dublinDistrict: what may sit between a town and its Eircode: nothing, or a district's number
// ("…, Dublin 6, D06 C9X4").
func dublinDistrict(gap string) bool {
	return gap == "" || len(gap) <= 3 && isDigitByte(gap[0]) && (isDigitByte(gap[len(gap)-1]) || gap[len(gap)-1] == 'W' && len(gap) > 1) // "Dublin 6W"
}

// houseFirst open a house's or estate's name written before its street ("Villa Rosalinda, Camino
// del Faro 9", "Casa Olivo, Urb. …", "Ty Gwyn, Heol y Bryn, …").
var houseFirst = words(`casa villa vila finca mas masia chalet cortijo quinta pazo caserio caseria ty bwthyn plas`)

// insideAny: i lies inside one of spans or of skip's ranges.
func insideAny(spans []Span, skip [][2]int, i int) bool {
	for _, sp := range spans {
		if sp.Start <= i && i < sp.End {
			return true
		}
	}
	for _, r := range skip {
		if r[0] <= i && i < r[1] {
			return true
		}
	}
	return false
}

// wordEndingAt returns the index of the word that ends at e, or -1.
func (a *addrParser) wordEndingAt(e int) int {
	ws := a.p.ws
	k := sort.Search(len(ws), func(j int) bool { return ws[j].end >= e })
	if k < len(ws) && ws[k].end == e {
		return k
	}
	return -1
}

// bareStreetAt reads a street written without a street-type word from its number at i: one to
// four capitalised words (particles between) right before the number, then a floor and door or a
// postcode ("Velázquez 88 2º izq", "Prim 12 3 dcha donostia", "Cuba 7 bajo b, 36204 vigo",
// "Arturo Soria 140, 5º B, 28043 Madrid"), then the rest of the chain. A floor without a door
// ("Artículo 14, 2º", "Sala 4, 6ª planta") is not enough.
func (a *addrParser) bareStreetAt(i int) (int, int) {
	t := a.text
	w := a.wordEndingAt(i - 1)
	if w < 0 || !capitalised(a.p.ws[w].text) {
		return 0, 0 // the name right before the number is capitalised: a cheap test first
	}
	ne := a.number(i)
	if ne <= 0 || !isDigitByte(t[i]) {
		return 0, 0
	}
	k, ok := a.sep(ne)
	strong := false
	if !ok || k >= len(t) {
		k = len(t)
	} else if fe := a.floor(k); fe > 0 {
		fl := t[k:fe]
		last := fl[len(fl)-1]
		door := last >= 'A' && last <= 'H' || last >= 'b' && last <= 'h'
		if isDigitByte(t[k]) {
			// a floor number with a door: "2º izq", "4 izq", "3ºA", "3c", "2n 1a"
			strong = strings.IndexByte(fl, ' ') > 0 && !strings.HasSuffix(fl, "planta") && !strings.HasSuffix(fl, "piso") && !strings.HasSuffix(fl, "floor") && !strings.HasSuffix(fl, "pis") ||
				door || len(fl) >= 2 && last == 'a' && !isDigitByte(fl[len(fl)-2])
		} else {
			// a floor word with a door letter ("bajo b"); a door word alone after a number ("Mesa 5
			// dcha", "Box 4 izq.") only with a postcode or a known town after it
			strong = door && strings.IndexByte(fl, ' ') > 0
		}
		if !strong {
			if k2, ok := a.sep(fe); ok && k2 < len(t) {
				f, _ := a.p.foldAt(k2)
				strong = a.postcodeAt(k2) || places[f] || addrTowns[f]
			}
		}
	}
	if !strong && k < len(t) {
		// "Zurbano 45, 28010 Madrid": a postcode and a capitalised town
		if _, _, nd := a.p.digitsAt(k, 5); nd == 5 && t[ne] == ',' {
			_, ok := a.postcodeTown(k, false)
			strong = ok && k+6 < len(t) && capitalised(t[k+6:])
		}
	}
	if !strong && !strings.Contains(t[max(0, i-48):i], " de") && !a.homeVerbBeforeWord(w) {
		return 0, 0 // nor a floor before it ("el 4ºC de Alberto Aguilera 20")
	}
	// the name
	start := -1
	for n := 0; n < 5 && w >= 0; n++ {
		ww := &a.p.ws[w]
		switch {
		case capitalised(ww.text) && (!ww.is(a.p.fc, lexAddrStop|lexNotNames|lexCue|lexUnitWords|lexFloorWords|lexCompanyWords|lexInstitution|lexGreeting) ||
			ww.is(a.p.fc, lexStreetTypeWords|lexPlaces) && !ww.is(a.p.fc, lexAddrStop)):
			start = w // "Gran Vía 41, 3º dcha": a street-type word inside the name
		case start >= 0 && capitalised(ww.text) && a.p.ws[start].is(a.p.fc, lexStreetTypeWords) && !ww.is(a.p.fc, lexAddrStop|lexCue|lexGreeting):
			start = w // "Gran" before "Vía"
		case start >= 0 && ww.is(a.p.fc, lexNameParticles) && w > 0 && (capitalised(a.p.ws[w-1].text) || a.p.ws[w-1].is(a.p.fc, lexNameParticles)):
			// "Virgen de la Esperanza 3": particles between the name's words
		case start >= 0 && start > w+1 && capitalised(ww.text) && !ww.is(a.p.fc, lexAddrStop|lexCue|lexGreeting):
			start = w // a word of any class before the particles ("Virgen de la …")
			n = 5
			continue
		case start == w+1 && capitalised(ww.text) && (ww.is(a.p.fc, lexCue|lexInstitution) || saintWords[string(ww.fold(a.p.fc))]) && !ww.is(a.p.fc, lexAddrStop|lexGreeting):
			// a title or a firm's head word right before the name ("Doctor Areilza 12", "Hermanos
			// Machado 14"): the names' lists read them as a cue or an institution, but before a
			// name and a number they are the street's
			start = w
			n = 5
			continue
		default:
			n = 5
			continue
		}
		if w == 0 || a.p.ws[w-1].end != ww.start-1 || t[a.p.ws[w-1].end] != ' ' || n == 4 {
			break
		}
		w--
	}
	if start < 0 {
		return 0, 0
	}
	ns := a.p.ws[start].start
	if !strong && homeVerbEndsAt(a.p.fc.lower, ns) && a.bareHomeStreet(start, i, ne) {
		// "vive en Hermanos Machado 14 con su hermana", "lives at Marqués de Larios 4"
		return a.chainFrom(ns, segStreet, ne)
	}
	if !strong {
		// "el 4ºC de Alberto Aguilera 20", "el 2º izq. del 14 de Goya": a floor, "de", the street
		f := -1
		for _, p := range []string{" de ", " del "} {
			if ns >= len(p)+2 && t[ns-len(p):ns] == p {
				f = ns - len(p)
			}
		}
		if f < 0 {
			return 0, 0
		}
		for p := max(0, f-14); p < f; p++ {
			if (p == 0 || t[p-1] == ' ') && isDigitByte(t[p]) {
				if fe := a.floor(p); fe == f || fe == f-1 && t[f-1] == '.' {
					return a.chainFrom(p, segStreet, ne)
				}
			}
			if (p == 0 || t[p-1] == ' ') && isASCIILetterByte(t[p]) && a.unit(p) == f {
				return a.chainFrom(p, segStreet, ne) // "el portal 3 de Fuencarral 20"
			}
		}
		return 0, 0
	}
	return a.chainFrom(ns, segStreet, ne)
}

// homeVerbs say that the place right after them is where someone lives ("vive en Hermanos
// Machado 14"); only they let a street with no type word, floor or postcode be read.
var homeVerbs = []string{"vive en ", "vivo en ", "viven en ", "vivimos en ", "reside en ", "resido en ", "residen en ",
	"domicilio en ", "domiciliado en ", "domiciliada en ", "vive na ", "vive no ", "viu a ", "viuen a ", "visc a ",
	"resideix a ", "lives at ", "living at ", "live at ", "lives on ", "resides at ", "bizi da ",
	// a field's name ("Dirección: Goya 20", "enderezo: Curros Enríquez 12")
	"domicilio: ", "dirección: ", "direccion: ", "address: ", "adreça: ", "enderezo: ", "helbidea: ", "domicili: "}

// saintWords open a street named after a saint ("Sant Antoni Maria Claret 167").
var saintWords = words(`san sant santa santo sao são`)

// homeVerbBeforeWord: a home verb right before word w or one of the five words before it.
func (a *addrParser) homeVerbBeforeWord(w int) bool {
	for n := 0; n < 6 && w >= 0; n, w = n+1, w-1 {
		if homeVerbEndsAt(a.p.fc.lower, a.p.ws[w].start) {
			return true
		}
	}
	return false
}

// homeVerbEndsAt: a home verb right before s ("vive en |Hermanos Machado 14").
func homeVerbEndsAt(lower []byte, s int) bool {
	if s < 3 || s > len(lower) || lower[s-1] != ' ' {
		return false
	}
	// every home verb ends in "en ", "a ", "at ", "on ", "na ", "no ", "da " or ": "
	if c := lower[s-2]; c != 'n' && c != 'a' && c != 't' && c != 'o' && c != ':' {
		return false
	}
	b := lower[max(0, s-16):s]
	for _, v := range homeVerbs {
		if bytes.HasSuffix(b, []byte(v)) {
			return true
		}
	}
	return false
}

// bareHomeStreet: the name from word start and the number from i to ne are a street, not a town
// and a count ("lives at Madrid 2"; "vive en Móstoles 15 años" is stopped by number): more than
// one word or not a known place, and no measure after the number.
func (a *addrParser) bareHomeStreet(start, i, ne int) bool {
	t := a.text
	if _, _, nd := a.p.digitsAt(i, 4); nd > 3 {
		return false // "address: Bank of Spain 2020 report": a year, not a house number
	}
	if a.wordEndingAt(i-1) == start {
		if f := string(a.p.ws[start].fold(a.p.fc)); places[f] || addrTowns[f] {
			return false
		}
	}
	if ne+1 < len(t) && t[ne] == ' ' {
		if f, _ := a.p.foldAt(ne + 1); measureWords[f] {
			return false
		}
	}
	return true
}

// measureWords after a number make it a count, not a house number.
var measureWords = words(`años anos año ano anys any urte years year meses mes months month dias días days semanas weeks
	horas hours hores minutos minutes min km metros meters m euros eur libras pounds personas people veces times`)

// townPostcode: a 5-digit Spanish postcode at i after a known town ("en Toledo 45007", "Lugo
// 27002,"), then punctuation or the end: where the postcode ends, or 0.
func (a *addrParser) townPostcode(i int) int {
	t := a.text
	v, e, nd := a.p.digitsAt(i, 5)
	if nd != 5 || v/1000 < 1 || v/1000 > 52 || i < 3 || t[i-1] != ' ' {
		return 0
	}
	if !(e == len(t) || strings.IndexByte(",.;)\n", t[e]) >= 0) {
		// or a sentence that goes on: "vive en Toledo 45002 con su hija"
		if f, fe := a.p.foldAt(e + 1); t[e] != ' ' || fe < 0 || !addrStop[f] {
			return 0
		}
	}
	w := a.wordEndingAt(i - 1)
	if w < 0 {
		return 0
	}
	f := string(a.p.ws[w].fold(a.p.fc))
	if !places[f] && !addrTowns[f] {
		return 0
	}
	if !capitalised(a.p.ws[w].text) && !a.prepBefore(a.p.ws[w].start) {
		// in lower case only after a preposition of place: "vive en toledo 45002", "mándala a
		// burgos 09003"
		return 0
	}
	return e
}

// townBefore widens an address at s over the town written before it, after "en", "de", "in" or
// "a" ("con domicilio en Alcobendas (Madrid), avenida de España 12", "vecino de Mieres, calle …").
func (a *addrParser) townBefore(s int) int {
	t := a.text
	if s < 6 || t[s-2:s] != ", " {
		return s
	}
	k := s - 2
	if t[k-1] == ')' {
		o := strings.LastIndexByte(t[max(0, k-32):k], '(')
		if o < 0 {
			return s
		}
		o += max(0, k-32)
		if o < 2 || t[o-1] != ' ' || !capitalised(t[o+1:]) {
			return s
		}
		k = o - 1
	}
	w := a.wordEndingAt(k)
	b := -1
	for n := 0; n < 4 && w >= 0; n++ {
		ww := &a.p.ws[w]
		switch {
		case capitalised(ww.text) && (!ww.is(a.p.fc, lexNotNames|lexAddrStop|lexCue|lexGreeting) || ww.is(a.p.fc, lexPlaces) || addrTowns[string(ww.fold(a.p.fc))]):
			b = w
		case b >= 0 && ww.is(a.p.fc, lexNameParticles):
		default:
			n = 4
			continue
		}
		if w == 0 || a.p.ws[w-1].end != ww.start-1 {
			break
		}
		w--
	}
	if b < 0 || b == 0 {
		return s
	}
	if f := string(a.p.ws[b-1].fold(a.p.fc)); a.p.ws[b-1].end == a.p.ws[b].start-1 && (f == "en" || f == "de" || f == "in" || f == "a" || f == "at" || f == "em") {
		return a.p.ws[b].start
	}
	return s
}

// numberOfStreet: a street's name at s (no number after it) written after its number and maybe
// a floor ("2º izq. del número 15 de la calle Goya", "el número 21 de la calle Lepanto"): where
// that starts, or -1.
func (a *addrParser) numberOfStreet(s int) int {
	t := a.text
	k := s
	for _, p := range []string{"de la ", "del ", "de ", "de l'", "da "} {
		if k >= len(p) && t[k-len(p):k] == p {
			k -= len(p)
			break
		}
	}
	if k == s || k < 2 || t[k-1] != ' ' {
		return -1
	}
	d := k - 1
	for d > 0 && isDigitByte(t[d-1]) {
		d--
	}
	if d == k-1 || k-1-d > 4 || d < 2 || t[d-1] != ' ' {
		return -1
	}
	n := d - 1 // before the number: "número ", "nº ", "n.º ", "num. "
	low := a.p.fc.lower
	for _, p := range []string{"número", "numero", "nº", "n.º", "num.", "núm.", "no."} {
		if n >= len(p) && string(low[n-len(p):n]) == p {
			n -= len(p)
			break
		}
	}
	if n == d-1 && n >= 2 && (t[n-2:n] == "el" || t[n-2:n] == "El") && (n == 2 || t[n-3] == ' ') {
		return n - 2 // "vive en el 3 de la calle Toledo"
	}
	if n == d-1 || n < 1 || t[n-1] != ' ' {
		return -1
	}
	start := n
	// a floor before it: "2º izq. del", "3º B del"
	if n >= 5 && string(low[n-4:n]) == "del " {
		f := n - 5
		for p := max(0, f-14); p < f; p++ {
			if (p == 0 || t[p-1] == ' ') && isDigitByte(t[p]) {
				if fe := a.floor(p); fe == f+1 || fe == f {
					return p
				}
			}
		}
	}
	return start
}

// kmFigure reads the figure after "km" at i (" 14", ". 14,5", " 3.2"): where it ends, or 0.
func (a *addrParser) kmFigure(i int) int {
	t := a.text
	if i < len(t) && t[i] == '.' {
		i++
	}
	for i < len(t) && t[i] == ' ' {
		i++
	}
	_, e, nd := a.p.digitsAt(i, 4)
	if nd == 0 || nd > 4 {
		return 0
	}
	if e+1 < len(t) && (t[e] == ',' || t[e] == '.') && isDigitByte(t[e+1]) {
		e += 2
		for e < len(t) && isDigitByte(t[e]) {
			e++
		}
	}
	if e < len(t) && isWordByte(t[e]) {
		return 0
	}
	return e
}

// codeWordBefore: the word right before i names a code, not a place ("el pedido 28012 …",
// "order 46001 …"), so a number there is no postcode.
func (a *addrParser) codeWordBefore(i int) bool {
	w := a.wordEndingAt(i - 1)
	if w < 0 {
		return false
	}
	switch string(a.p.ws[w].fold(a.p.fc)) {
	case "pedido", "order", "ref", "referencia", "reference", "expediente", "expte", "factura", "invoice", "lote", "codigo",
		"cuenta", "contrato", "poliza", "ticket", "caso", "case", "albaran", "num", "numero", "id", "nº", "cliente",
		"client", "customer", "socio", "usuario", "codi":
		return true
	}
	return false
}

// knownTownBefore widens a postcode and town at i back over a known town or island written
// before it ("Tenerife, 38670 Adeje"): the new start, or i.
func (a *addrParser) knownTownBefore(i int) int {
	t := a.text
	if i < 4 || t[i-2:i] != ", " {
		return i
	}
	w := a.wordEndingAt(i - 2)
	if w < 0 || !capitalised(a.p.ws[w].text) {
		return i
	}
	if f := string(a.p.ws[w].fold(a.p.fc)); !places[f] && !addrTowns[f] {
		return i
	}
	return a.p.ws[w].start
}

// townParticles join the words of a foreign town's name ("Frankfurt am Main", "Stratford upon
// Avon", "Boulogne sur Mer").
var townParticles = words(`am an der im sur upon di`)

// notTownWords follow a number far more often than a town does ("cobra 15000 euros").
var notTownWords = words(`euros euro eur dolares dollars libras pounds años anos anys urte years meses months dias days
	horas hours veces times personas people habitantes clientes clients puntos points unidades units km metros metres
	kilos kg litros acciones shares participaciones votos votes visitas pasos`)

// prepBefore: a preposition or a colon right before i ("vive en 38003 …", "me mudé a 50009 …",
// "helbidea: 20800 …").
func (a *addrParser) prepBefore(i int) bool {
	low := a.p.fc.lower
	for _, p := range []string{" en ", " a ", " at ", " in ", " to ", ": ", " na ", " em ", " al ", " à ", " ao "} {
		if i >= len(p) && i <= len(low) && string(low[i-len(p):i]) == p {
			return true
		}
	}
	return false
}

// nextLines widens an address that ends at e, at the end of a line, over the lines after it that
// finish it in a letter's address block: a postcode and town ("C/ Mayor 5, 2º B⏎28013 Madrid"),
// or a town then a British or Irish postcode, on one line or two ("12 Church Lane⏎Ledbury⏎HR8 1DT").
func (a *addrParser) nextLines(e int) int {
	t := a.text
	for n := 0; n < 2; n++ {
		k := e
		if k < len(t) && t[k] == ',' {
			k++
		}
		if k < len(t) && t[k] == '\r' {
			k++
		}
		if k >= len(t) || t[k] != '\n' {
			return e
		}
		k++
		if k >= len(t) {
			return e
		}
		if !isDigitByte(t[k]) && n == 0 {
			// a floor word and door on a line of their own ("Calle Mayor 7⏎bajo B⏎28013 Madrid")
			if f, _ := a.p.foldAt(k); floorWords[f] {
				if fe := a.floor(k); fe > 0 && fe+1 < len(t) && t[fe] == '\n' && isDigitByte(t[fe+1]) {
					e = fe
					continue
				}
			}
		}
		if isDigitByte(t[k]) {
			if pe, ok := a.postcodeTown(k, false); ok {
				return a.bracketPlace(pe)
			}
			// a floor and door on a line of its own ("Avda. de Portugal 31⏎3º D⏎37006 Salamanca")
			if fe := a.floor(k); fe > 0 && n == 0 && (fe == len(t) || t[fe] == '\n' || t[fe] == '\r') {
				e = fe
				continue
			}
			return e
		}
		if pe := max(a.ukPostcode(k), eircode(t, k)); pe > 0 {
			return pe
		}
		te := a.town(k, false, false)
		if te <= 0 {
			return e
		}
		if te+1 < len(t) && t[te] == ' ' {
			if pe := max(a.ukPostcode(te+1), eircode(t, te+1), a.stateZip(te+1)); pe > 0 {
				return pe // "Ledbury HR8 1DT"
			}
		}
		if te < len(t) && (t[te] == '\n' || t[te] == '\r' || t[te] == ',') {
			e = te // a town on its own line: the postcode must follow on the next
			continue
		}
		return e
	}
	return e
}

// lowerSuffixes end an English street typed in lower case; the other suffixes (drive, walk,
// way, park, close…) are everyday words there.
var lowerSuffixes = words(`st street rd road ave avenue ln lane blvd boulevard crescent terrace gardens`)

// ukPostcodeLower: a British postcode typed in lower case (nw1 6xe, ox1 4ap).
// lowerUKTail: after a lower-case English street ending at e come one to three lower-case town
// words and a British postcode in lower case (", leicester le2 1xa"): any suffix word counts
// then ("42 willow close", "9 hazel grove"), the postcode says the sentence is an address.
func (a *addrParser) lowerUKTail(e int) bool {
	t := a.text
	if e < len(t) && t[e] == ',' {
		e++
	}
	if e >= len(t) || t[e] != ' ' {
		return false
	}
	j := e + 1
	for n := 0; n < 3 && j < len(t); n++ {
		k := j
		for k < len(t) && (t[k] >= 'a' && t[k] <= 'z' || t[k] >= 0x80) {
			k++
		}
		if k == j || k >= len(t) {
			return false
		}
		if t[k] == ',' {
			k++
		}
		if k >= len(t) || t[k] != ' ' {
			return false
		}
		if ukPostcodeLower(t, k+1) > 0 {
			return true
		}
		j = k + 1
	}
	return false
}

func ukPostcodeLower(t string, i int) int { return ukPostcodeIn(t, i, 'a', 'z') }

// stateZipLower: a US state and ZIP typed in lower case (il 62704).
func stateZipLower(t string, i int) int {
	if i+8 > len(t) || !(t[i] >= 'a' && t[i] <= 'z') || !(t[i+1] >= 'a' && t[i+1] <= 'z') || t[i+2] != ' ' {
		return 0
	}
	_, e, nd := (&dateParser{text: t}).digitsAt(i+3, 5)
	if nd != 5 || e < len(t) && isWordByte(t[e]) {
		return 0
	}
	return e
}

// countries may close an address after its town or postcode.
var countries = words(`españa espana spain portugal francia france italia italy alemania germany deutschland irlanda
	ireland uk england inglaterra escocia scotland gales wales usa eeuu belgica belgium holanda netherlands suiza
	switzerland andorra marruecos morocco mexico argentina colombia venezuela peru ecuador rumania romania polonia poland
	suecia sweden sverige ucrania ukraine frantzia espainia franca suecia alemanya italia portugalia irlanda noruega norway
	dinamarca denmark finlandia finland austria chile bolivia uruguay paraguay cuba`)

// mergeAdjacentAddresses joins the addresses (out[first:]) that only a comma, semicolon, dash or
// space apart ("28013 Madrid, C/ Arenal 4"): one address read in two pieces is one value.
func mergeAdjacentAddresses(out []Span, first int, text string) []Span {
	if len(out)-first < 2 {
		return out
	}
	sp := out[first:]
	slices.SortStableFunc(sp, func(a, b Span) int { return a.Start - b.Start }) // no reflection, no allocation
	k := 0
	for i := 1; i < len(sp); i++ {
		prev := &sp[k]
		if gap := sp[i].Start - prev.End; gap >= 0 && gap <= 3 && strings.Trim(text[prev.End:sp[i].Start], ",;- ") == "" {
			prev.End = max(prev.End, sp[i].End)
			prev.Text = text[prev.Start:prev.End]
			prev.Score = max(prev.Score, sp[i].Score)
			continue
		}
		k++
		sp[k] = sp[i]
	}
	return out[:first+k+1]
}

// strongAfter: after an address's number at e comes a floor and door, a postcode or a known town.
func (a *addrParser) strongAfter(e int) bool {
	k, ok := a.sep(e)
	if !ok || k >= len(a.text) {
		return false
	}
	if a.postcodeAt(k) {
		return true
	}
	if fe := a.floor(k); fe > 0 {
		if isDigitByte(a.text[k]) {
			return true
		}
		// floor words ("bajo", "atico", "bajo izq") then a postcode: "c mayor 27 bajo 28013 madrid"
		for n := 0; n < 3 && fe > 0; n++ {
			k2, ok := a.sep(fe)
			if !ok || k2 >= len(a.text) {
				break
			}
			if a.postcodeAt(k2) {
				return true
			}
			fe = a.floor(k2)
		}
	}
	f, _ := a.p.foldAt(k)
	return places[f] || addrTowns[f]
}

// poBox: "PO Box 123", "P.O. Box 123", "po box 123" at i: where its number ends, or 0.
func (a *addrParser) poBox(i int) int {
	low := a.p.fc.lower
	for _, p := range []string{"po box ", "p.o. box ", "p.o.box ", "p o box "} {
		if i+len(p) < len(low) && string(low[i:i+len(p)]) == p && isDigitByte(a.text[i+len(p)]) {
			_, e, nd := a.p.digitsAt(i+len(p), 6)
			if nd > 6 || e < len(a.text) && isWordByte(a.text[e]) {
				return 0
			}
			return e
		}
	}
	return 0
}

// houseNumber: the number at i..e after a street's name is its number — not a year with nothing
// of an address after it ("la carrera de San Silvestre 2024").
func (a *addrParser) houseNumber(i, e int) bool {
	t := a.text
	if e-i == 4 && (strings.HasPrefix(t[i:], "19") || strings.HasPrefix(t[i:], "20")) {
		return a.strongAfter(e)
	}
	return true
}

// lastBreak: the index of the last '.', '\n' or ';' in b, or -1 (bytes.LastIndexAny builds its
// byte set on every call; this runs for every address candidate).
func lastBreak(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if c := b[i]; c == '.' || c == '\n' || c == ';' {
			return i
		}
	}
	return -1
}

// postcodeFields name a field whose value is a postcode, folded to lower case with no space, dot,
// dash or underscore: JSON keys, YAML and form labels in the five languages.
var postcodeFields = words(`postalcode postcode zip zipcode cp codigopostal codipostal codpostal cpostal postakodea kodepostala codepostal codigopostal`)

// postcodeFieldBefore: the five digits at i are a Spanish postcode (01–52) typed as the value of a
// field named for one right before it ("postalCode":"50003", zip: "29601", C.P.: 33201).
func postcodeFieldBefore(lower []byte, i int) bool {
	if i+2 > len(lower) {
		return false
	}
	if pv := int(lower[i]-'0')*10 + int(lower[i+1]-'0'); pv < 1 || pv > 52 {
		return false
	}
	k := i
	for n := 0; k > 0 && n < 4 && strings.IndexByte("\"': =\t", lower[k-1]) >= 0; n++ {
		k--
	}
	if k == i || k == 0 {
		return false
	}
	var buf [24]byte
	n := len(buf)
	for k > 0 && n > 0 {
		c := lower[k-1]
		switch {
		case c >= 'a' && c <= 'z':
			n--
			buf[n] = c
		case c == '.' || c == '_' || c == '-' || c == ' ' && k > 1 && lower[k-2] != ' ' && lower[k-2] != ',':
		case c == 0xb3 && k > 1 && lower[k-2] == 0xc3: // ó
			k--
			n--
			buf[n] = 'o'
		default:
			return postcodeFields[string(buf[n:])]
		}
		k--
	}
	return postcodeFields[string(buf[n:])]
}
