package redact

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// Round 7 of issue #13: names that a layout or a small cue marks, read in one pass over the words
// with a byte test before any lookup —
//   - the Catalan elided article before a given name ("truca a l'Oriol", "la mare d'Andreu");
//   - a closing and a lone name on one line ("Thanks, Gav", "Salut, Quim");
//   - a chat speaker's "Name:" at a line's start with no time stamp ("Maialen: kaixo, …");
//   - a lower-case given name that opens the text as a vocative ("merche q ya ha llegado…");
//   - "message from"/"mensaje de" and a known name ("Mensaje de Nekane a las 9:15");
//   - a capitals name with an honorific and an initial ("MR T OKONKWO"), or a trailing initial
//     ("HALVORSEN INGRID M", a bank's payer field);
//   - an honorific, then lower-case surname particles ("Mrs van Leeuwen", "Sra. de la Vega");
//   - a name in brackets after a pronoun or after a name ("ella (candelaria)", "Kieran (kieran
//     doyle)", "Mei Lin Zhang (张美琳)"), and an alias in quotes ("alias \"txapas\"");
//   - a kinship word, a comma and a lower-case name ("my dad, des mccarthy, …");
//   - an inverted "SURNAMES, Given" entry whose two halves were found apart ("ROVIRA SOLÉ" and
//     "Josep"), or whose given names no list knows ("WHITAKER, Agnes Maud").

// r7Closings are a closing's last word before ", Name" at a line's end, beyond closingLast.
var r7Closings = words(`thx thanks ta cheers salut petons abraçada abraçades abrazo abrazos besos besitos bss apa agur
	ciao chao txao gracias gràcies gracies grazas mil eskerrik asko regards best love xx muxu muxuak bikain saludos saludo
	salutacions saudos aperta apertas`)

// r7MessageNouns are a message's or a call's nouns before "de"/"from" and the sender's name.
var r7MessageNouns = words(`mensaje mensajes recado recados llamada llamadas whatsapp correo email e-mail mail missatge
	missatges trucada trucades encàrrec encarrec mensaxe chamada message messages call calls text voicemail note nota
	notes audio àudio`)

// r7CapsHonorifics are the capitals honorifics of a card's or a cheque's name line.
var r7CapsHonorifics = words(`MR MRS MS MISS DR SR SRA SRTA DON DNA DOÑA MX`)

// r7CapsStops are capitals words of headings and forms that a single letter follows ("PART B",
// "GRUPO A", "VITAMINA D").
var r7CapsStops = words(`part parte section seccion sección anexo annex annexe apartado grupo group tipo type clase class
	categoria categoría category nivel level vitamina vitamin hepatitis modelo model form formulario zona zone planta
	bloque block escalera puerta letra serie series fase phase plan opcion opción option caso case table tabla figura
	figure articulo artículo article capitulo capítulo chapter punto point lote lot sala room box`)

// r7Pronouns are the pronouns a bracketed name follows ("ella (amparo)", "she (maureen)").
var r7Pronouns = words(`ella él she he ell ela bera hura`)

// r7Alias are the words before a nickname in quotes ("alias \"txipi\"", "aka 'Gaz'").
var r7Alias = words(`alias àlies alies aka ezizena alcume apodo mote`)

// r7KinComma are kinship words after a possessive whose name follows a comma ("my mum, pat
// hennessy,", "mi suegra, remedios,", "meu avó, manuel,").
var r7KinComma = words(`mum mom mother dad father son daughter wife husband partner gran grandma grandad nan nana
	brother sister aunt uncle niece nephew madre padre hijo hija mujer marido esposa esposo suegra suegro abuela abuelo
	hermano hermana tía tia tío tio sobrino sobrina nieto nieta cuñado cuñada nuera yerno mare pare fill filla dona marit
	àvia avia avi germà germa germana tieta tiet neta nét net sogra sogre nai pai avoa avó avo irmá irmán fillo muller
	home ama aita alaba semea amona aitona senarra emaztea`)

// r7KinPossessives come before such a kinship word.
var r7KinPossessives = words(`my mi meu meva mon ma miña mina nire our nuestra nuestro`)

// appendNamesR7 appends this round's names; out[first:] are the names found so far, in text
// order, and stay so.
func appendNamesR7(out []Span, first int, ws []word, fc *folder, text string) []Span {
	n0 := len(out)
	add := func(s, e int, score float64) {
		if !namedAt(out[first:], s) {
			out = appendPerson(out, text, s, e, score)
		}
	}
	for i := 0; i < len(ws); i++ {
		w := &ws[i]
		t := w.text
		c0 := t[0]
		if w.end+1 >= len(text) && i > 0 {
			break
		}
		// the byte test: most words pass none of these and cost nothing more
		if nb := text[min(w.end, len(text)-1)]; i > 0 && nb != ',' && nb != ':' && !(len(t) > 3 && t[1] == '\'') &&
			!((nb == ' ' || nb == '.') && r7After[text[w.end+1]]) && !(c0 >= 'A' && c0 <= 'Z' && len(t) >= 2 && t[1] >= 'A' && t[1] <= 'Z') {
			continue
		}
		switch {
		case len(t) > 3 && t[1] == '\'' && (c0 == 'l' || c0 == 'L' || c0 == 'd' || c0 == 'D') && capitalised(t[2:]):
			// "l'Oriol", "d'Andreu": the elided article or preposition, a known given name
			if f := w.fold(fc); len(f) > 3 && f[1] == '\'' && lexLookup(f[2:])&(lexGivenNames|lexPlaces|lexInstitution|lexNotNames) == lexGivenNames {
				add(w.start+2, w.end, 0.75)
			}
		case w.end+2 < len(text) && text[w.end] == ',' && text[w.end+1] == ' ' && i+1 < len(ws) && ws[i+1].start == w.end+2 &&
			w.is(fc, lexR7Cue) && r7Closings[string(w.fold(fc))]:
			if closingLone(text, ws, i+1, fc) {
				add(ws[i+1].start, ws[i+1].end, 0.75) // "Thanks, Gav"
			}
		case w.end+2 < len(text) && text[w.end] == ',' && text[w.end+1] == ' ' && i > 0 && i+1 < len(ws) && ws[i+1].start == w.end+2 &&
			w.is(fc, lexR7Cue) && r7KinComma[string(w.fold(fc))] && r7KinPossessives[string(ws[i-1].fold(fc))] && gap(text, ws[i-1], *w, false):
			if e, ok := kinCommaLower(text, ws, i+1, fc); ok {
				add(ws[i+1].start, ws[e].end, 0.75) // "my dad, des mccarthy, he's…"
				i = e
			}
		case w.end+1 < len(text) && text[w.end] == ':' && text[w.end+1] == ' ' && (w.start == 0 || text[w.start-1] == '\n'):
			// "Maialen: kaixo, …": a chat speaker at a line's start
			f := w.fold(fc)
			if (w.given(fc) || capitalised(t) && basqueGiven(w, fc)) && !lowerAmbiguous[string(f)] && !chatRoles[string(f)] &&
				!nameFieldKeys[string(f)] && !headerWords[string(f)] && !w.is(fc, lexCue|lexPlaces|lexInstitution) {
				add(w.start, w.end, 0.75)
			}
		case i == 0 && c0 >= 'a' && c0 <= 'z' && i+1 < len(ws):
			// "merche q ya ha llegado…", "nuria, et deixo…": a vocative opens the text
			g := text[w.end:ws[1].start]
			if (g == ", " || g == " " && (ws[1].text == "q" || ws[1].text == "k")) && w.given(fc) && !lowerAmbiguous[string(w.fold(fc))] &&
				!w.is(fc, lexNotNames|lexPlaces|lexCue) {
				add(w.start, w.end, 0.7)
			}
		case c0 >= 'A' && c0 <= 'Z' && len(t) >= 2 && t[1] >= 'A' && t[1] <= 'Z' && i+2 < len(ws) && allCaps(t):
			if e, s, ok := capsInitialName(text, ws, i, fc); ok {
				out = putPerson(out, first, text, ws[s].start, ws[e].end, 0.8)
				i = e
			}
		case i+2 < len(ws) && text[w.end] == ' ' && ws[i+1].start == w.end+1 && (ws[i+1].text == "de" || ws[i+1].text == "from") &&
			w.is(fc, lexR7Cue) && r7MessageNouns[string(w.fold(fc))]:
			// "Mensaje de Nekane a las 9:15", "call from Siân": a sender a list knows
			if j := i + 2; gap(text, ws[i+1], ws[j], false) && nameWord(&ws[j], fc) && !allCaps(ws[j].text) &&
				(ws[j].given(fc) || basqueGiven(&ws[j], fc)) && !ws[j].is(fc, lexPlaces|lexInstitution|lexCompanyWords|lexCue) {
				e := extendName(text, ws, j, fc)
				add(ws[j].start, ws[e].end, 0.75)
				i = e
			}
		case i+2 < len(ws) && len(t) <= 6 && len(ws[i+1].text) <= 3 && (ws[i+1].text[0] == 'd' || ws[i+1].text[0] == 'v' || ws[i+1].text[0] == 'l') &&
			nameParticles[ws[i+1].text] && w.is(fc, lexR7Cue) && honorifics[string(w.fold(fc))] && gap(text, *w, ws[i+1], true):
			// "Mrs van Leeuwen", "Sra. de la Vega": lower-case particles after a title
			j := i + 1
			for j < len(ws) && j <= i+3 && nameParticles[ws[j].text] && gap(text, ws[j-1], ws[j], j == i+1) {
				j++
			}
			if j < len(ws) && j > i+1 && gap(text, ws[j-1], ws[j], false) && nameWord(&ws[j], fc) && !ws[j].is(fc, lexPlaces|lexInstitution|lexCue) {
				e := extendName(text, ws, j, fc)
				out = putPerson(out, first, text, ws[i+1].start, ws[e].end, 0.8)
				i = e
			}
		case w.end+2 < len(text) && text[w.end] == ' ' && text[w.end+1] == '(' && i+1 < len(ws) && ws[i+1].start == w.end+2:
			// "ella (candelaria)", "Kieran (kieran doyle)", "Mei Lin Zhang (张美琳)"
			if e, ok := bracketName(text, ws, i, fc, out[first:]); ok {
				if !r7Pronouns[string(w.fold(fc))] {
					add(w.start, w.end, 0.75) // the given name before the brackets, if no rule read it
				}
				add(ws[i+1].start, ws[e].end, 0.75)
				i = e
			}
		case i+1 < len(ws) && len(t) <= 7 && (c0|0x20 == 'a' || c0 == 'm' || c0 == 'e' || c0 == 0xC3) && w.is(fc, lexR7Cue) && r7Alias[string(w.fold(fc))]:
			// `alias "txipi"`: a nickname in quotes
			j := i + 1
			if q := text[w.end:ws[j].start]; (q == " \"" || q == " “" || q == " «" || q == " '") && ws[j].end < len(text) &&
				utf8.RuneCountInString(ws[j].text) >= 3 && lettersOnly(ws[j].text) && !ws[j].is(fc, lexNotNames|lexPlaces|lexCue) {
				if r, _ := utf8.DecodeRuneInString(text[ws[j].end:]); r == '"' || r == '”' || r == '»' || r == '\'' {
					add(ws[j].start, ws[j].end, 0.75)
					i = j
				}
			}
		}
	}
	out = joinInverted(out, first, ws, fc, text)
	if len(out) > n0 {
		slices.SortStableFunc(out[first:], func(a, b Span) int { return a.Start - b.Start })
	}
	return out
}

// r7After are the bytes after a word's space that a rule of this round may follow: a bracket, a
// quote, the start of "de"/"from" or of a particle ("van", "la"), the space after "Sra.".
var r7After = func() (t [256]bool) {
	for _, c := range []byte("(\"'dfvl \xc2\xe2") {
		t[c] = true
	}
	return t
}()

// putPerson appends a name over [s, e) in place of the spans of out[first:] that lie inside it
// (a 0.4 guess at one of its words).
func putPerson(out []Span, first int, text string, s, e int, score float64) []Span {
	k := first
	for _, sp := range out[first:] {
		if sp.Start >= s && sp.End <= e {
			continue
		}
		out[k] = sp
		k++
	}
	return appendPerson(out[:k], text, s, e, score)
}

// closingLone: ws[j], after a closing and ", ", is one capitalised word alone at its line's end —
// a signature ("Thanks, Gav"), not a team ("Thanks, Team").
func closingLone(text string, ws []word, j int, fc *folder) bool {
	w := &ws[j]
	e := w.end
	if e < len(text) && (text[e] == '.' || text[e] == '!') {
		e++
	}
	if e < len(text) && text[e] != '\n' && text[e] != '\r' {
		return false
	}
	n := utf8.RuneCountInString(w.text)
	f := w.fold(fc)
	return n >= 2 && n <= 12 && nameWord(w, fc) && !allCaps(w.text) && lettersOnly(w.text) && !greetedNot[string(f)] &&
		!chatRoles[string(f)] && !r7SignNot[string(f)] && !w.is(fc, lexPlaces|lexInstitution|lexCompanyWords|lexCue|lexNameStop)
}

// r7SignNot are a department's or a group's name that signs like a person ("Saludos, Dirección").
var r7SignNot = words(`direccion dirección administracion administración contabilidad recepcion recepción secretaria
	secretaría gerencia rrhh hr it sistemas informatica informática comercial ventas sales accounts legal compliance
	riesgos tesoreria tesorería operaciones operations management managers directors all everyone guys folks team
	equipo equip taldea departamento departament department area área zona region región territorial central
	mostrador ventanilla caja admissions admisiones admissio admissió urgencias urgencies farmacia pharmacy`)

// kinCommaLower reads the lower-case name after "my dad, ": a given name a list knows or a word no
// list has, then at most one more such word, closed by a comma, a dot or the line's end.
func kinCommaLower(text string, ws []word, j int, fc *folder) (int, bool) {
	w := &ws[j]
	if capitalised(w.text) || !(w.given(fc) || lowerNameFree(text, w, fc) && len(w.text) >= 3) {
		return 0, false
	}
	e := j
	if k := j + 1; k < len(ws) && gap(text, *w, ws[k], false) && !capitalised(ws[k].text) && len(ws[k].text) >= 3 &&
		lowerNameFree(text, &ws[k], fc) && !ws[k].is(fc, lexNotNames) {
		e = k
	}
	if p := ws[e].end; p < len(text) && text[p] != ',' && text[p] != '.' && text[p] != '\n' && text[p] != ')' {
		return 0, false
	}
	return e, true
}

// capsInitialName reads a capitals name line: an honorific, an initial and a surname ("MR T
// OKONKWO", "MISS R FAIRWEATHER"), or two capitals words and a trailing initial ("HALVORSEN INGRID
// M", "BRENNAN MICHAEL J"). It returns the last word, the first word of the name and whether it is one.
func capsInitialName(text string, ws []word, i int, fc *folder) (int, int, bool) {
	w := &ws[i]
	capsWord := func(k int) bool {
		x := &ws[k]
		return len(x.text) >= 2 && allCaps(x.text) && lettersOnly(x.text) && !r7CapsStops[string(x.fold(fc))] &&
			!x.is(fc, lexNotNames|lexPlaces|lexInstitution|lexCompanyWords|lexCue|lexNameParticles|lexNameStop)
	}
	if initialWord(ws[i+1].text) && r7CapsHonorifics[w.text] {
		if gap(text, *w, ws[i+1], true) && gap(text, ws[i+1], ws[i+2], true) && capsWord(i+2) {
			e := i + 2
			if e+1 < len(ws) && gap(text, ws[e], ws[e+1], false) && capsWord(e+1) {
				e++
			}
			return e, i + 1, true
		}
		return 0, 0, false
	}
	if !initialWord(ws[i+2].text) || len(w.text) < 3 || len(ws[i+1].text) < 3 || !capsWord(i) || !(w.start == 0 || text[w.start-1] == ' ' || text[w.start-1] == '\n' || text[w.start-1] == ':') {
		return 0, 0, false
	}
	j := i + 1
	if !gap(text, *w, ws[j], false) || !capsWord(j) || len(ws[j].text) < 3 {
		return 0, 0, false
	}
	k := j + 1
	if !initialWord(ws[k].text) || !gap(text, ws[j], ws[k], false) {
		return 0, 0, false
	}
	if p := ws[k].end; p < len(text) && text[p] != ' ' && text[p] != '\n' && text[p] != ',' && text[p] != '\r' {
		return 0, 0, false // "J." or "J-": not a trailing initial
	}
	if k+1 < len(ws) && ws[k+1].start == ws[k].end+1 && allCaps(ws[k+1].text) {
		return 0, 0, false // a capitals heading goes on
	}
	return k, i, true
}

// bracketName reads the name in the brackets after ws[i]: ws[i] is a pronoun or a found name's
// last word, and the brackets hold one to three words, the first a given name a list knows, a
// surname, or a word no list has (or a run of Han characters after a name).
func bracketName(text string, ws []word, i int, fc *folder, found []Span) (int, bool) {
	w := &ws[i]
	pron := r7Pronouns[string(w.fold(fc))]
	if !pron && !namedAt(found, w.start) && !(w.given(fc) && !lowerAmbiguous[string(w.fold(fc))] && !w.is(fc, lexNotNames|lexPlaces)) {
		return 0, false // "ella (amparo)", "Kieran (kieran doyle)", "maialen (aizpurua)"
	}
	j := i + 1
	e := j
	for e < len(ws) && e < j+3 && ws[e].end < len(text) && text[ws[e].end] != ')' {
		if e+1 >= len(ws) || !gap(text, ws[e], ws[e+1], false) {
			return 0, false
		}
		e++
	}
	if e >= len(ws) || ws[e].end >= len(text) || text[ws[e].end] != ')' {
		return 0, false
	}
	x := &ws[j]
	if r, _ := utf8.DecodeRuneInString(x.text); unicode.Is(unicode.Han, r) {
		return e, !pron && e == j // "(张美琳)" after a name
	}
	for k := j; k <= e; k++ {
		y := &ws[k]
		if !lettersOnly(y.text) || len(y.text) < 3 || y.is(fc, lexNotNames|lexPlaces|lexInstitution|lexCue|lexCompanyWords) ||
			kinLower[string(y.fold(fc))] || chatRoles[string(y.fold(fc))] {
			return 0, false
		}
	}
	if !(x.given(fc) || x.is(fc, lexSurnames) || pron && !capitalised(x.text) && lowerNameFree(text, x, fc) && len(x.text) >= 4) {
		return 0, false
	}
	return e, true
}

// joinInverted joins an inverted entry's halves found apart ("ROVIRA SOLÉ" ", " "Josep"), and
// reads one whose given names no list knows after a key ("Executor: WHITAKER, Agnes Maud"): a
// capitals surname run, ", ", then one to three capitalised given names.
func joinInverted(out []Span, first int, ws []word, fc *folder, text string) []Span {
	for k := first; k+1 < len(out); k++ {
		a, b := out[k], out[k+1]
		if b.Start < a.End+2 || b.Start > a.End+40 || a.Score < 0.5 && b.Score < 0.5 || allCaps(text[b.Start:b.End]) || b.End-b.Start > 40 {
			continue
		}
		g := text[a.End:b.Start] // ", ", or " BILBAO, " (a capitals surname that is also a town)
		if g[len(g)-2:] != ", " || len(g) > 2 && (g[0] != ' ' || !allCaps(g[1:len(g)-2]) || !lettersOnly(g[1:len(g)-2])) {
			continue
		}
		if !allCaps(lastWord(text[a.Start:a.End])) && !(len(g) == 2 && quotedPair(text, a.Start, b.End)) {
			continue
		}
		out[k] = span(text, a.Start, b.End, max(a.Score, b.Score, 0.75), "gazetteer")
		out = slices.Delete(out, k+1, k+2)
		k--
	}
	// "HARGREAVES, Edith May": a second given name (a month, a flower) that no rule read alone
	for k := first; k < len(out); k++ {
		sp := out[k]
		c := indexCommaSpace(text[sp.Start:sp.End])
		if sp.Score < 0.5 || c < 2 || !allCaps(text[sp.Start:sp.Start+c]) || sp.End+2 >= len(text) || text[sp.End] != ' ' {
			continue
		}
		e := sp.End + 1
		for e < len(text) && (isASCIILetterByte(text[e]) || text[e] >= 0x80) {
			e++
		}
		nw := text[sp.End+1 : e]
		if len(nw) < 3 || !capitalised(nw) || allCaps(nw) || (k+1 < len(out) && out[k+1].Start < e) {
			continue
		}
		if e < len(text) && text[e] != ',' && text[e] != ';' && text[e] != '\n' && text[e] != ')' && text[e] != '\r' {
			continue
		}
		if l := lexLookup([]byte(fold(nw))); l&(lexPlaces|lexInstitution|lexCompanyWords|lexCue) != 0 {
			continue
		}
		out[k] = span(text, sp.Start, e, sp.Score, "gazetteer")
	}
	return out
}

// lastWord is s after its last space.
func lastWord(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ' ' {
			return s[i+1:]
		}
	}
	return s
}

// indexCommaSpace is the index of ", " in s, or -1.
func indexCommaSpace(s string) int {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ',' && s[i+1] == ' ' {
			return i
		}
	}
	return -1
}

// quotedPair: [s, e) stands alone in quotes or after "=" ("pacient=\"Batalla Roure, Ferran\"").
func quotedPair(text string, s, e int) bool {
	return s > 0 && (text[s-1] == '"' || text[s-1] == '=') && (e == len(text) || text[e] == '"' || text[e] == ' ' || text[e] == '\n')
}
