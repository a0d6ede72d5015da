package redact

import (
	"bytes"
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
	cuesta pasaje passatge alameda bulevar boulevard bd bvd rue avenue allee chemin impasse quai strasse str straße
	viale piazza largo travessa praça praca estrada kale calzada paraje partida carreró carrero vial senda via`)

// areaWords start an area that a street or a number may follow.
var areaWords = words(`urbanizacion urb poligono pol barrio barri bº lugar lg residencial edificio edif colonia
	conjunto complejo finca parque caserio caseria aldea lugar apartamentos aptos`)

// postfixStreetWords end a Basque street's name ("Nagusia kalea", "Gernikako Arbola etorbidea").
var postfixStreetWords = words(`kalea etorbidea hiribidea bidea pasealekua enparantza plaza errepidea kalexka`)

// suffixStreetWords end an English street's name ("Church Lane", "Mission St").
var suffixStreetWords = words(`street st road rd lane ln avenue ave av drive dr court ct close way place pl square sq
	crescent terrace grove gardens park row hill boulevard blvd mews walk parade circus wharf green`)

// unitWords come with a number or a letter: puerta 14, hab. 402, Flat 12, Apt 5B.
var unitWords = words(`puerta pta piso planta esc escalera bloque blq portal letra hab habitacion apt apto apartamento
	apartment flat unit suite parcela nave casa km local porta pis escala`)

// floorWords stand alone as a floor or door.
var floorWords = words(`bajo bajos baixo baixos behea entresuelo entlo atico atic entresol soterrani principal pral
	sotano izq izqda izda izquierda dcha dcho derecha dta dreta esq esquerra esquerda esquerdo dereita direito dto ezk
	ezkerra eskuina eskubia centro ctro int ext exterior interior bis duplicado dup derecho`)

// addrStop are words that never sit inside a street's name: a sentence goes on there.
var addrStop = words(`que en con por para es esta está son hay muy mas más se le lo me te nos y o pero si no the in
	at on is are was and or but to for with from que ya q dice dijo vive vivo reside donde where which`)

type addrParser struct {
	text string
	p    *dateParser
}

// appendAddresses appends every address chain the grammar reads in text.
func appendAddresses(out []Span, text string, ws []word, fc *folder) []Span {
	a := addrParser{text: text, p: &dateParser{text: text, ws: ws, fc: fc}}
	first := len(out)
	last := 0
	var skipBuf [4][2]int
	skip := skipBuf[:0] // office addresses: no postcode inside them is read again
	for i := 0; i < len(ws); i++ {
		if ws[i].start < last || !mayStartAddress(ws, i, fc) {
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
	for i := 0; i+4 <= len(text); i++ {
		if !isDigitByte(text[i]) || i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.' || text[i-1] == ',' && i > 1 && isDigitByte(text[i-2])) {
			continue
		}
		// only a run of 1–5 digits (4-3 for a Portuguese code) then a space and a letter
		j := i
		for j < len(text) && isDigitByte(text[j]) {
			j++
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
		if e, ok := a.postcodeTown(i, true); ok {
			s := a.bareStreetBefore(i)
			if s == i {
				s = a.cpBefore(i) // "C.P. 46001 Valencia"
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
			out = append(out, Span{Start: s, End: e, Type: TypeAddress, Text: text[s:e], Score: 0.75, Source: "address"})
		}
	}
	return out
}

// cpBefore widens a postcode at i over a "CP", "C.P." or "cp." written right before it.
func (a *addrParser) cpBefore(i int) int {
	t := a.text
	for _, p := range []string{"C.P. ", "c.p. ", "CP ", "cp ", "Cp ", "C.P.", "CP. ", "cp. ", "C. P. "} {
		if s := i - len(p); s >= 0 && t[s:i] == p && (s == 0 || !isWordByte(t[s-1])) {
			return s
		}
	}
	return i
}

// cpAfter: a "CP", "C.P." or "cp." at i, then a postcode: where the postcode starts, or -1.
func (a *addrParser) cpAfter(i int) int {
	t := a.text
	for _, p := range []string{"C.P. ", "c.p. ", "CP ", "cp ", "Cp ", "C.P.", "CP. ", "cp. ", "C. P. "} {
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
	if ws[i].is(fc, lexUnitWords) {
		f := string(ws[i].fold(fc))
		return f == "flat" || f == "apt" || f == "apartment" || f == "unit" || f == "suite"
	}
	if !capitalised(ws[i].text) {
		return false
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
	s = a.unitsBefore(a.articleBefore(s))
	return append(out, Span{Start: s, End: e, Type: TypeAddress, Text: a.text[s:e], Score: score, Source: "address"})
}

// office: the address at s (widened as emit does) is an office's published one.
func (a *addrParser) office(s int) bool {
	return officeBefore(a.p.fc.lower, a.unitsBefore(a.articleBefore(s)))
}

// chainAt reads an address chain that starts at word i and returns its byte range.
func (a *addrParser) chainAt(start int) (int, int) {
	kind, e := a.first(start)
	if kind == segNone {
		return 0, 0
	}
	hasNumber := kind == segStreet
	area := kind == segArea
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
		case segStreetName:
			streetName = true
		case segArea:
			area = true
		}
		end, prev = e2, k
	}
	if !hasNumber {
		return 0, 0
	}
	end = a.trimEnd(end)
	if prev == segTown || prev == segPostcodeTown {
		end = a.bracketPlace(end) // "Getafe (Madrid)", "15886 Teo (A Coruña)"
	}
	return start, end
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
		if e := a.zip(i); e > 0 && prev == segTown {
			return segPostcodeTown, e
		}
		return segNone, 0
	}
	if e := a.bracketUnit(i); e > 0 && prev != segNone {
		return segUnit, e // "Avda. de la Paz s/n (edificio B), 26004 Logroño"
	}
	if anchored && (prev == segStreet || prev == segNumber || prev == segFloor) && strings.HasPrefix(t[i:], "de ") {
		if e := a.deTown(i + 3); e > 0 {
			return segTown, e // "la calle mayor 14 de fuentelapeña"
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
	if anchored {
		if e := a.town(i, prev == segPostcodeTown || prev == segTown, false); e > 0 {
			return segTown, e
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
	if f == "via" && !(capitalised(t[i:]) && e+2 < len(t) && t[e] == ' ' && capitalised(t[e+1:])) {
		return segNone, 0 // "Via Roma 10", not "por vía oral 10 mg"
	}
	if streetTypeWords[f] {
		j := e
		if j < len(t) && (t[j] == '.' || t[j] == '/') {
			j++
		}
		if f == "c" && (e >= len(t) || t[e] != '/') {
			return segNone, 0 // a lone "c" is not C/
		}
		for j < len(t) && t[j] == ' ' {
			j++
		}
		return a.nameThenNumber(j, 6)
	}
	// Basque: NAME kalea N
	k := i
	for n := 0; n < 3; n++ {
		w := a.p.wordAt(k)
		if w < 0 || !capitalised(a.p.ws[w].text) && n == 0 {
			return segNone, 0
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
	for n := 0; n < max && j < len(t); n++ {
		if n > 0 {
			if e := a.number(j); e > 0 {
				return segStreet, e
			}
		}
		if isDigitByte(t[j]) {
			// a street named by a number ("calle 4 nº 17")
			_, de, nd := a.p.digitsAt(j, 2)
			if n != 0 || nd == 0 || nd > 2 || de >= len(t) || t[de] != ' ' {
				return segNone, 0
			}
			nameEnd = de
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
		if n == 0 && (fw == "el" || fw == "els") && (we == len(t) || t[we] != ' ') {
			break // "camino el pozo sn": an article opens the name only if a word follows
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
		if j+1 < len(t) && t[j] == ',' && t[j+1] == ' ' {
			if e := a.number(j + 2); e > 0 && n > 0 {
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
	if j < len(t) && t[j] == ',' {
		j++
	}
	if j >= len(t) || t[j] != ' ' {
		return segNone, 0
	}
	j++
	f, e := a.p.foldAt(j)
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
	// English: capitalised words, then a suffix type
	k := j
	for n := 0; n < 4; n++ {
		w := a.p.wordAt(k)
		if w < 0 || !capitalised(a.p.ws[w].text) {
			return segNone, 0
		}
		fw := string(a.p.ws[w].fold(a.p.fc))
		we := a.p.ws[w].end
		if n > 0 && suffixStreetWords[fw] {
			if we < len(t) && t[we] == '.' {
				we++
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
	end := -1
	for n := 0; n < 4 && j < len(t) && t[j] == ' '; n++ {
		j++
		w := a.p.wordAt(j)
		if w < 0 {
			break
		}
		fw := string(a.p.ws[w].fold(a.p.fc))
		if addrStop[fw] || streetTypeWords[fw] || !capitalised(a.p.ws[w].text) && !nameParticles[fw] {
			break
		}
		if !nameParticles[fw] {
			end = a.p.ws[w].end
		}
		j = a.p.ws[w].end
	}
	return max(end, 0)
}

// number: [nº|n.º|no|num|número] DIGITS[letter|bis] or s/n.
func (a *addrParser) number(i int) int {
	t := a.text
	if i >= len(t) {
		return 0
	}
	low := strings.ToLower(t[i:min(len(t), i+4)])
	if strings.HasPrefix(low, "s/n") || strings.HasPrefix(low, "s.n") {
		e := i + 3
		if e < len(t) && t[e] == '.' {
			e++
		}
		if e == len(t) || !isWordByte(t[e]) {
			return e
		}
	}
	if strings.HasPrefix(low, "sn") && (i+2 == len(t) || !isWordByte(t[i+2])) && i > 0 && t[i-1] == ' ' {
		return i + 2 // "camino el pozo sn", typed without the slash
	}
	j := i
	for _, p := range []string{"nº", "n.º", "n°", "núm.", "número ", "numero ", "núm", "num.", "num ", "no.", "nr.", "n. "} {
		if len(t)-j >= len(p) && strings.EqualFold(t[j:j+len(p)], p) {
			j += len(p)
			for j < len(t) && t[j] == ' ' {
				j++
			}
			break
		}
	}
	_, e, nd := a.p.digitsAt(j, 4)
	if nd == 0 || nd > 4 {
		return 0
	}
	if e < len(t) && isASCIILetterByte(t[e]) && (e+1 == len(t) || !isWordByte(t[e+1])) {
		e++ // 5B, 12A
	}
	if e < len(t) && (isWordByte(t[e]) || t[e] == '/' || t[e] == '%' || t[e] == ':') {
		return 0
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
				strings.IndexByte("yoeiaYOEIA", t[fe+1]) < 0 {
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
	if ordinal && e < len(t) && t[e] >= 'a' && t[e] <= 'h' && (e+1 == len(t) || !isWordByte(t[e+1])) {
		return e + 1 // "1ºa", "4ºd": the door letter typed in lower case
	}
	if !marked && nd > 0 && e < len(t) && (t[e] >= 'b' && t[e] <= 'h' || t[e] >= 'A' && t[e] <= 'H') && (e+1 == len(t) || !isWordByte(t[e+1])) {
		return e + 1 // "3c", "5B": floor and door without the ordinal sign
	}
	if !marked && nd > 0 {
		// "2 a 18001", "3 b, 03001": a bare floor and door letter, then a postcode
		j := e
		for j < len(t) && t[j] == ' ' {
			j++
		}
		if j > e && j < len(t) && (t[j] >= 'a' && t[j] <= 'h' || t[j] >= 'A' && t[j] <= 'H') && (j+1 == len(t) || !isWordByte(t[j+1])) {
			if k, ok := a.sep(j + 1); ok {
				if _, _, pd := a.p.digitsAt(k, 5); pd == 5 {
					return j + 1
				}
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
	}
	return e
}

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
	if e < len(t) && isDigitByte(t[e]) {
		_, de, nd := a.p.digitsAt(e, 4)
		if nd > 4 {
			return 0
		}
		if de < len(t) && isASCIILetterByte(t[de]) && (de+1 == len(t) || !isWordByte(t[de+1])) {
			de++
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
		if alone && (v/1000 < 1 || v/1000 > 52) {
			return 0, false
		}
	case nd == 4 && !alone && e+4 <= len(t) && t[e] == '-' && isDigitByte(t[e+1]) && isDigitByte(t[e+2]) && isDigitByte(t[e+3]):
		e += 4 // 1100-048
	case nd == 4 && !alone:
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
	if j > e {
		if te := a.town(j, false, !alone); te > 0 {
			return te, true
		}
	}
	if alone || nd == 4 {
		return 0, false
	}
	return e, true
}

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
	for n := 0; n < 5 && j < len(t); n++ {
		w := a.p.wordAt(j)
		if w < 0 {
			break
		}
		ww := &a.p.ws[w]
		if n > 0 && (a.ukPostcode(ww.start) > 0 || a.stateZip(ww.start) > 0) {
			break // "Cardiff CF14 2FJ", "Springfield, IL 62704"
		}
		fw := string(ww.fold(a.p.fc))
		if n == 0 && !province && townArticle(fw) && ww.end+1 < len(t) && t[ww.end] == ' ' {
			if nw := a.p.wordAt(ww.end + 1); nw >= 0 && (capitalised(a.p.ws[nw].text) || lowerOK) && !a.p.ws[nw].is(a.p.fc, lexAddrStop|lexNameParticles) {
				j = ww.end + 1 // "30830 la ñora", "15001 A Coruña", "08001 L'Hospitalet"
				continue
			}
		}
		switch {
		case places[fw]:
		case nameParticles[fw] && n > 0:
			j = ww.end
			if j < len(t) && t[j] == ' ' {
				j++
				continue
			}
			return max(end, 0)
		case capitalised(ww.text) && !notNames[fw] && !(isGiven(ww.fold(a.p.fc)) && !places[fw] && n == 0 && province):
			if province && !(ww.end == len(t) || strings.IndexByte(",.;)\n", t[ww.end]) >= 0) {
				return max(end, 0)
			}
		case capitalised(ww.text) && notNames[fw] && n > 0 && (fw == "reina" || fw == "plana"):
		case lowerOK && n < 2 && !capitalised(ww.text) && !ww.is(a.p.fc, lexAddrStop|lexNotNames|lexNameParticles) && len(ww.text) >= 3:
			// after a postcode inside an address, a town in lower case ("15701 santiago")
		default:
			return max(end, 0)
		}
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
	for seg := 0; seg < 3; seg++ {
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
			if capitalised(ws[k].text) {
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
		switch {
		case seg == 0 && road, seg > 0 && (house || road || f == "the"):
			s = b
		default:
			return s
		}
	}
	return s
}

// townArticle: the articles a town's name may start with (La Ñora, A Coruña, O Grove, Els Hostalets).
func townArticle(f string) bool {
	switch f {
	case "la", "el", "las", "los", "a", "o", "as", "os", "els", "les", "l":
		return true
	}
	return false
}

// ukPostcode: SW15 2RD, OX7 5NJ, BS1 4DJ, EC1A 1BB.
func (a *addrParser) ukPostcode(i int) int {
	t := a.text
	j := i
	for j < len(t) && j-i < 2 && t[j] >= 'A' && t[j] <= 'Z' {
		j++
	}
	if j == i || j >= len(t) || !isDigitByte(t[j]) {
		return 0
	}
	j++
	if j < len(t) && (isDigitByte(t[j]) || t[j] >= 'A' && t[j] <= 'Z') {
		j++
	}
	if j+4 > len(t) || t[j] != ' ' || !isDigitByte(t[j+1]) || !(t[j+2] >= 'A' && t[j+2] <= 'Z') || !(t[j+3] >= 'A' && t[j+3] <= 'Z') {
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
	for _, art := range []string{"la ", "La ", "el ", "El ", "l'"} {
		if s >= len(art) && t[s-len(art):s] == art && (s == len(art) || !isWordByte(t[s-len(art)-1])) {
			return s - len(art)
		}
	}
	return s
}

// unitsBefore widens a number-first street over what British addresses put before it: "Flat
// 12, Beaumont Court, 44 Upper Richmond Road", "Hotel Miramar, hab. 402, Paseo Marítimo 12".
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
		for _, cue := range []string{" of ", " at ", " en ", " in ", "\n"} {
			if x := strings.LastIndex(t[lb:k], cue); x >= 0 {
				b = max(b, lb+x+len(cue))
			}
		}
		if b < 0 {
			return s
		}
		seg := t[b:k]
		if e := a.unit(b); e == k {
			s = b
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
			if f := fold(ws[0]); f == "hotel" || f == "edificio" || f == "residencia" || f == "hostal" {
				s = b
				continue
			}
		}
		return s
	}
	return s
}

// officeBefore: an office's published address ("nuestra oficina está en …", "Oficina Paseo de
// Roma 2", "la nuestra está en …") is public information, not a customer's.
func officeBefore(lower []byte, s int) bool {
	if s > len(lower) {
		return false
	}
	before := lower[max(0, s-160):s]
	if k := bytes.LastIndexAny(before, ".\n;"); k >= 0 && k < len(before)-1 {
		before = before[k+1:]
	}
	if b := bytes.TrimRight(before, " —–-:,("); len(b) != len(before) {
		for _, suf := range []string{" sl", " sa", " s.l.", " s.a.", " slu", " sau", " slp", " cb", " ltd", " inc", " gmbh", " s.l", " s.a"} {
			if bytes.HasSuffix(b, []byte(suf)) {
				return true // "Promociones Henares SL — C/ Industria 5"
			}
		}
	}
	// the later of a home word and an office word says whose address it is ("designa como
	// domicilio el despacho de sus letrados, …": the office's)
	// One pass over the window, trying only the words that start with each byte (the same result
	// as the last bytes.LastIndex of every word, at a fraction of the cost: this runs for every
	// address candidate).
	home, office := -1, -1
	for i := 0; i < len(before); i++ {
		for _, w := range ownerWordsByFirst[before[i]] {
			if bytes.HasPrefix(before[i:], []byte(w.text)) {
				if w.office {
					office = i
				} else {
					home = i
				}
			}
		}
	}
	return office > home
}

// ownerWord is a word that says whose address follows: the person's home or an office.
type ownerWord struct {
	text   string
	office bool
}

// ownerWordsByFirst indexes the home and office words by their first byte.
var ownerWordsByFirst = func() (t [256][]ownerWord) {
	for _, w := range []string{"vive", "domicilio", "reside", "cliente", "clienta", "su casa", "mi casa", "lives", "my address", "su dirección", "mudado", "muda"} {
		t[w[0]] = append(t[w[0]], ownerWord{w, false})
	}
	for _, w := range []string{"oficina", "office", "sede", "sucursal", "la nuestra", "branch", "headquarters", "delegación",
		"despacho", "despatx", "bufete", "notaría", "notaria", "gestoría", "gestoria", "registered office", "bulego",
		"social"} { // "domicilio social", "domicili social", "sede social"
		t[w[0]] = append(t[w[0]], ownerWord{w, true})
	}
	return t
}()
