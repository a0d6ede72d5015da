package redact

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

type word struct {
	start, end int
	text       string
	folded     []byte // fold(text), computed once on first use
	ascii      bool   // every rune is ASCII
	latin1     bool   // every rune is at most U+00FF
	cls        uint32 // lexicon classes, valid when clsDone
	clsDone    bool
}

// class returns the word's lexicon classes (lex* flags), looked up once.
func (w *word) class(fc *folder) uint32 {
	if w.clsDone { // the common case, small enough to inline
		return w.cls
	}
	return w.lookupClass(fc)
}

func (w *word) lookupClass(fc *folder) uint32 {
	w.cls, w.clsDone = lexLookup(w.fold(fc)), true
	return w.cls
}

// is reports whether the word is in the class flag.
func (w *word) is(fc *folder, flag uint32) bool { return w.class(fc)&flag != 0 }

// given: a known given name, or a compound of them ("Ana-Belén").
func (w *word) given(fc *folder) bool {
	if w.is(fc, lexGivenNames) {
		return true
	}
	f := w.fold(fc)
	if n := len(f); n > 4 && f[n-2] == '\'' && f[n-1] == 's' {
		return lexLookup(f[:n-2])&lexGivenNames != 0 // "gareth's direct debit": a possessive
	}
	return bytes.IndexByte(f, '-') > 0 && isGiven(f)
}

// folder folds the words of one text. lower is the text lower-cased by
// appendLowerSameLength; for a word in Latin-1 it holds the word lower-cased as
// strings.ToLower would, at the same offsets, so an ASCII word folds to a slice of it and an
// accented one into arena, without an allocation per word. Folded words are only used as map
// keys (m[string(b)] does not allocate).
type folder struct {
	lower []byte
	arena []byte
	// offices are the office addresses appendAddresses read and did not redact (public
	// information): appendNames reads no name inside them ("Rúa do Vilar 12, 15705 Santiago").
	offices [][2]int
}

func (w *word) fold(fc *folder) []byte {
	if w.folded != nil { // the common case, small enough to inline
		return w.folded
	}
	return w.foldOnce(fc)
}

func (w *word) foldOnce(fc *folder) []byte {
	{
		switch {
		case w.ascii:
			w.folded = fc.lower[w.start:w.end]
		case w.latin1:
			at := len(fc.arena)
			fc.arena = appendAccentFolded(fc.arena, fc.lower[w.start:w.end])
			w.folded = fc.arena[at:len(fc.arena):len(fc.arena)]
		default:
			w.folded = []byte(fold(w.text))
		}
	}
	return w.folded
}

// appendAccentFolded appends s with accentFolder's replacements for lower-case Latin-1 letters
// (the only ones in a lower-cased Latin-1 word).
func appendAccentFolded(b, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0xC3 && i+1 < len(s) {
			if c := latin1Fold[s[i+1]]; c != 0 {
				b = append(b, c)
				i++
				continue
			}
		}
		b = append(b, s[i])
	}
	return b
}

// latin1Fold maps the second byte of a lower-case Latin-1 letter (0xC3 xx) to the byte
// accentFolder replaces it with, 0 if it keeps it.
var latin1Fold = func() (t [256]byte) {
	for i := 0; i+1 < len(accents); i += 2 {
		if from, to := accents[i], accents[i+1]; len(from) == 2 && from[0] == 0xC3 && len(to) == 1 {
			t[from[1]] = to[0]
		}
	}
	return t
}()

// splitWords appends to out the runs of letters (with inner apostrophes and hyphens, as in
// O'Brien or Pérez-Reverte) of text and their byte offsets.
func splitWords(out []word, text string) []word {
	start := -1
	ascii, latin1 := true, true
	for i := 0; i < len(text); {
		if isASCIILetterByte(text[i]) { // most of a text: a run of ASCII letters at once
			if start < 0 {
				start, ascii, latin1 = i, true, true
			}
			for i++; i < len(text) && isASCIILetterByte(text[i]); i++ {
			}
			continue
		}
		if c := text[i]; c < utf8.RuneSelf && c != '\'' && c != '-' {
			// an ASCII byte that is no letter and joins none (a space, a digit, punctuation):
			// it ends the word, if one is open
			if start >= 0 {
				out = append(out, word{start: start, end: i, text: text[start:i], ascii: ascii, latin1: latin1})
				start = -1
			}
			i++
			continue
		}
		var r rune
		n := 1
		var letter bool
		if c := text[i]; c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, n = utf8.DecodeRuneInString(text[i:])
			letter = unicode.IsLetter(r) || r == 'ª' || r == 'º'
		}
		joiner := (r == '\'' || r == '’' || r == '-' || r == '·') && start >= 0 && i+n < len(text)
		if joiner {
			next, _ := utf8.DecodeRuneInString(text[i+n:])
			joiner = unicode.IsLetter(next)
		}
		switch {
		case letter || joiner:
			if start < 0 {
				start, ascii, latin1 = i, true, true
			}
			ascii = ascii && n == 1
			latin1 = latin1 && r <= 0xFF && r != '·' // l·l folds as a pair: fold(w.text)
		case start >= 0:
			out = append(out, word{start: start, end: i, text: text[start:i], ascii: ascii, latin1: latin1})
			start = -1
		}
		i += n
	}
	if start >= 0 {
		out = append(out, word{start: start, end: len(text), text: text[start:], ascii: ascii, latin1: latin1})
	}
	return out
}

// isASCIILetterByte: c is an ASCII letter — one compare: c|0x20 takes A-Z to a-z, and no other
// byte into a-z.
func isASCIILetterByte(c byte) bool { return (c|0x20)-'a' < 26 }

func capitalised(w string) bool {
	if w != "" && w[0] < utf8.RuneSelf {
		return w[0]-'A' <= 'Z'-'A' // the common case, inlined (one compare keeps it under the inlining budget)
	}
	return capitalisedRune(w)
}

func capitalisedRune(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// gap reports whether only a name-internal gap (one space, or ". " after an abbreviated
// honorific) separates two words.
func gap(text string, a, b word, afterCue bool) bool {
	g := text[a.end:b.start]
	if g == " " {
		return true
	}
	if g == ". " || g == "." {
		// only an abbreviation's dot ("Sr. García", "Fdo. Ana"), not a sentence's ("…su hija. Control el martes")
		return afterCue && (utf8.RuneCountInString(a.text) <= 3 || a.text == "Srta" || a.text == "srta" || a.text == "Prof")
	}
	return afterCue && (g == ", " || g == ": ")
}

// findNames is the gazetteer detector. It reports runs of capitalised words that either follow
// an honorific or role word, or start with a known given name, or are two known surnames.
func findNames(text string) []Span {
	return appendNames(nil, splitWords(nil, text), &folder{lower: appendLowerSameLength(nil, text)}, text)
}

// appendNames appends findNames(text) to out; ws are splitWords(text), fc.lower is
// appendLowerSameLength(text).
func appendNames(out []Span, ws []word, fc *folder, text string) []Span {
	first := len(out)
	// what the text holds at all, once, so that rules whose cue is absent cost nothing per word
	hasCaption := strings.Contains(text, " v ") || strings.Contains(text, " v. ") || strings.Contains(text, " vs")
	hasDigits := strings.IndexAny(text, "0123456789") >= 0
	var cands [96]int32 // words a round-6 rule may start from (appendNamesR6)
	nc, candsAll := 0, false
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		c0 := w.text[0]
		if !capitalised(w.text) && !nameCueStart[c0] && !introStart[c0] && !(c0 >= 'a' && c0 <= 'z' || c0 >= 0x80) {
			continue // only capitalised words, cue words, introductions and lower-case names can start a name
		}
		if c0 >= 'a' && c0 <= 'z' && len(w.text) <= 5 && ws[i].is(fc, lexZhSurname) {
			if end, ok := chineseName(text, ws, i, fc); ok {
				out = appendPerson(out, text, w.start, ws[end].end, 0.7)
				i = end
				continue
			}
		}
		if len(w.text) <= 2 && c0 >= 'a' && c0 <= 'z' && !shortStart(w.text) && !(w.text == "o" && w.start >= 2 && text[w.start-2:w.start] == "c/") {
			continue // "de", "la", "en": no name, cue or introduction starts there
		}
		if w.end < len(text) && isDigitByte(text[w.end]) || w.start > 0 && isDigitByte(text[w.start-1]) ||
			w.end+1 < len(text) && (text[w.end] == '-' || text[w.end] == '/') && isDigitByte(text[w.end+1]) {
			continue // a code's letters ("FE25-00412339", "PV25", "POL-88213"), not a name
		}
		if monthBetweenNumbers(text, w.start, w.end) || strings.HasPrefix(text[w.end:], ".-") || strings.HasPrefix(text[w.end:], ".–") ||
			monthBeforeYear(text, w.end) && monthAbbrevs[string(w.fold(fc))] {
			continue // "5 Mar 2025", "3 de març de 2025", "next dose Jan 2027": a month; "SEGUNDO.-": a heading's ordinal
		}
		if end, ok := introducedName(text, ws, i, fc); ok {
			// "soy maría josé fernández", "this is tom baker": people introduce themselves in
			// lower case; only gazetteer words are taken after the phrase.
			out = appendPerson(out, text, ws[i+introLen(ws, i)].start, ws[end].end, 0.8)
			i = end
			continue
		}
		f := ws[i].fold(fc)
		if end, ok := surnamesCommaName(text, ws, i, fc); ok && strings.Contains(text[w.end:min(len(text), w.end+60)], ", ") {
			// "GARCÍA LÓPEZ, María", "Bermúdez Lara, Trinidad", "SMITH, John Edward"
			start := w.start
			if i > 0 && allCaps(ws[i-1].text) && gap(text, ws[i-1], w, false) && ws[i-1].is(fc, lexCapsParticles) {
				start = ws[i-1].start // "EL MOUSSAOUI, Karim", "DE LA FUENTE, Ana"
			}
			out = appendPerson(out, text, start, ws[end].end, 0.8)
			i = end
			continue
		}
		if end, ok := capsName(text, ws, i, fc); ok {
			// "MORENO CASADO JULIAN", "RAMIRO C ESCUDERO", "LOURDES VIDAL"
			if institutionBefore(text, ws, i, fc) {
				i = end // "HOSPITAL GENERAL UNIVERSITARIO GREGORIO MARAÑÓN"
				continue
			}
			out = appendPerson(out, text, w.start, ws[end].end, 0.75)
			i = end
			continue
		}
		if first, end, ok := greeted(text, ws, i, fc); ok {
			out = appendPerson(out, text, ws[first].start, ws[end].end, 0.8)
			i = end
			continue
		}
		if first, end, ok := headerOrSignature(text, ws, i, fc); ok {
			out = appendPerson(out, text, ws[first].start, ws[end].end, 0.8)
			i = end
			continue
		}
		wp := &ws[i]
		if r6Candidate(text, wp, wp.class(fc)) {
			if nc < len(cands) {
				cands[nc] = int32(i)
				nc++
			} else {
				candsAll = true
			}
		}
		cueScore, isCue := 0.0, false
		if wp.is(fc, lexCue) {
			cueScore, isCue = nameCues[string(f)]
		} else if w.text == "o" && w.start >= 2 && text[w.start-2:w.start] == "c/" && (w.start == 2 || !isWordByte(text[w.start-3])) {
			cueScore, isCue = 0.85, true // "c/o Morwenna Trevithick": care of
		}
		if streetNameAt(text, ws, i, fc) {
			i = extendName(text, ws, i, fc) // "la calle Rosario está en obras", "Avenida Juan Carlos I": a street's name
			continue
		}
		if capitalised(w.text) && lawNumberAfter(text, w.end) {
			continue // "Lei 5/2019", "Llei 10/2008": a law's number follows
		}
		if hasDigits && monthAfterDay(text, ws, i, fc) {
			continue // "14 Jan.", "3 Mar": a month after a day
		}
		if !hasCaption {
		} else if end, ok := caseCaption(text, ws, i, fc); ok {
			out = appendPerson(out, text, w.start, ws[end].end, 0.7) // "Re: Kowalewski v Ryanair DAC"
			i = end
			continue
		}
		if len(w.text) == 2 && w.end < len(text) && text[w.end] == ',' && (string(f) == "jo" || string(f) == "yo" || string(f) == "eu") {
			continue // "Jo, Ferran Batlle i Serra, …": the pronoun of a declaration
		}
		if end, ok := initialSurname(text, ws, i, fc); ok {
			out = appendPerson(out, text, w.start, ws[end].end, 0.75) // "R. Quintero", "> M. Dubois"
			i = end
			continue
		}
		if c0 == 'l' || c0 == 'L' {
			if end, ok := letKnow(text, ws, i, fc); ok {
				out = appendPerson(out, text, ws[i+1].start, ws[end].end, 0.75) // "I'll let Femi know"
				i = end
				continue
			}
		}
		if end, ok := addressedCap(text, ws, i, fc); ok {
			out = appendPerson(out, text, w.start, ws[end].end, 0.7) // "dile a Quintero que…", "Llamó Ferrándiz"
			i = end
			continue
		}
		if end, ok := addressedLower(text, ws, i, fc); ok {
			out = appendPerson(out, text, w.start, ws[end].end, 0.7) // "dile a pérez", "ask siobhan"
			i = end
			continue
		}
		switch {
		case isCue && wifeOfCue(f) && i+2 < len(ws) && string(ws[i+1].fold(fc)) == "de" && gap(text, w, ws[i+1], false) &&
			gap(text, ws[i+1], ws[i+2], false) && nameWord(&ws[i+2], fc):
			// "la señora de Ordóñez": Mrs Ordóñez
			end := extendName(text, ws, i+2, fc)
			out = appendPerson(out, text, ws[i+2].start, ws[end].end, cueScore)
			i = end
		case isCue && i+2 < len(ws) && copula(ws[i+1].fold(fc)) && gap(text, w, ws[i+1], false) && gap(text, ws[i+1], ws[i+2], false) &&
			nameStart(text, ws, i+2, fc) && !nameCueWord(&ws[i+2], fc) && !ws[i+2].is(fc, lexInstitution):
			// "la parte actora es Eufrasia Lucientes", "the tenant is Owen Price"
			end := extendName(text, ws, i+2, fc)
			out = appendPerson(out, text, ws[i+2].start, ws[end].end, cueScore)
			i = end
		case isCue && i+1 < len(ws) && nameStart(text, ws, i+1, fc) && gap(text, w, ws[i+1], true) && !nameCueWord(&ws[i+1], fc):
			if institutionBefore(text, ws, i, fc) {
				i = extendName(text, ws, i+1, fc) // "Hospital Dr. Peset"
				continue
			}
			end := extendName(text, ws, i+1, fc)
			if end > i+1 && (institutionTails[string(ws[end].fold(fc))] || institutionBefore(text, ws, end, fc)) {
				i = end // "Defendant: Iberia Líneas Aéreas": a company
				continue
			}
			out = appendPerson(out, text, ws[i+1].start, ws[end].end, cueScore)
			i = end
		case isCue && i+1 < len(ws) && !capitalised(ws[i+1].text) && knownName(&ws[i+1], fc) && gap(text, w, ws[i+1], true) &&
			!ordinalWords[string(ws[i+1].fold(fc))]:
			// "mrs patterson", "sra. garcía": a cue then a known name in lower case
			end := unknownSurnameAfter(text, ws, extendLower(text, ws, i+1, fc), fc)
			out = appendPerson(out, text, ws[i+1].start, ws[end].end, cueScore)
			i = end
		case isCue && kinCues[string(f)] && i+2 < len(ws) && string(ws[i+1].fold(fc)) == "de" && gap(text, w, ws[i+1], false) &&
			gap(text, ws[i+1], ws[i+2], false) && nameWord(&ws[i+2], fc) && !ws[i+2].is(fc, lexPlaces|lexInstitution|lexCue):
			// "son a filla de Generosa", "la hija de Remedios": a parent named after the kinship word
			end := extendName(text, ws, i+2, fc)
			out = appendPerson(out, text, ws[i+2].start, ws[end].end, 0.75)
			i = end
		case isCue && i+1 < len(ws) && roleLowerEnd(text, ws, i, fc) > i:
			// "la paciente yaritza mondragón, 29 años", "su hija yamila que …"
			end := roleLowerEnd(text, ws, i, fc)
			out = appendPerson(out, text, ws[i+1].start, ws[end].end, 0.7)
			i = end
		case isCue && i+1 < len(ws) && honorificLower(text, ws, i+1, fc):
			// "la dra villaverde", "mrs okonjo": a title, then one lower-case word no list knows
			end := extendLower(text, ws, i+1, fc)
			out = appendPerson(out, text, ws[i+1].start, ws[end].end, 0.8)
			i = end
		case isCue && i+2 < len(ws) && len(ws[i+1].text) == 1 && ws[i+1].end < len(text) && text[ws[i+1].end] == '.' &&
			gap(text, w, ws[i+1], true) && gap(text, ws[i+1], ws[i+2], true) && knownName(&ws[i+2], fc):
			// "firmado: j. martínez": an initial, then a known surname
			end := extendLower(text, ws, i+2, fc)
			if capitalised(ws[i+2].text) {
				end = max(end, extendName(text, ws, i+2, fc)) // "El arrendador, D. Constantino Peral Iglesias"
			}
			out = appendPerson(out, text, ws[i+1].start, ws[end].end, cueScore)
			i = end
		case capitalised(w.text) && (wp.given(fc) || basqueGiven(wp, fc)) && !placeNameBefore(text, ws, i, fc) && !saintBefore(text, ws, i, fc):
			end := extendName(text, ws, i, fc)
			if placeAfter(text, ws, end, fc) || end == i && (acronymInProse(text, ws, i) || len(w.text) <= 2) || institutionBefore(text, ws, i, fc) || orgNamed(ws, i, fc) {
				// a two-letter given name alone is a word ("Li adjuntem", Catalan "to him")
				i = end
				continue
			}
			score := 0.55
			for j := i + 1; j <= end; j++ {
				if ws[j].is(fc, lexSurnames) {
					score = 0.85
					break
				}
				score = 0.65
			}
			out = appendPerson(out, text, w.start, ws[end].end, score)
			i = end
		case i+2 < len(ws) && (ws[i+1].text == "ha" || ws[i+1].text == "Ha") && !capitalised(w.text) && unknownSpoken(text, ws, i, fc):
			out = appendPerson(out, text, w.start, w.end, 0.7) // "eustasio ha llamado, q…"
		case len(w.text) >= 5 && basqueLowerEnding(w.text) && !capitalised(w.text) && !wp.given(fc) && basqueGiven(wp, fc) && !inAddressToken(text, wp):
			out = appendPerson(out, text, w.start, w.end, 0.6) // "idatzi aitorri", "ane-ri": a given name with a Basque case ending
		case !capitalised(w.text) && wp.given(fc) && (lowerNameOK(text, ws, i, fc) || lowerSpoken(text, ws, i, fc) || lowerFullName(text, ws, i, fc)):
			// "habla con lucía", "el cliente es julian", "jose luis moreno"
			end := extendLower(text, ws, i, fc)
			if i > 0 && gap(text, ws[i-1], w, true) && ws[i-1].is(fc, lexCue) {
				end = unknownSurnameAfter(text, ws, end, fc) // "el client pere vilaró (…"
			} else {
				end = lowerSurnameBeforeID(text, ws, end, fc) // "bronwen pryce dob '56"
			}
			out = appendPerson(out, text, w.start, ws[end].end, 0.6)
			i = end
		case nameWord(&ws[i], fc) && i+1 < len(ws) && gap(text, w, ws[i+1], false) && nameWord(&ws[i+1], fc) && !saintWord(&ws[i], fc) &&
			!arrivalVerbs[string(f)] && !verbLike(w.text):
			// Two or more capitalised words that are not sentence furniture: most often a name
			// the gazetteer does not know ("Leocadia Albarracín"). Worth more if a part is
			// known; alone, only a context word ("cliente", "titular") lifts it over the threshold.
			end := extendName(text, ws, i, fc)
			if end == i || institutionBefore(text, ws, i, fc) || institutionTails[string(ws[end].fold(fc))] {
				i = end // "Letrada Sra. …": a cue word ends the run; "Fundació Josep Carreras"
				continue
			}
			score := 0.45
			for j := i; j <= end; j++ {
				if ws[j].is(fc, lexSurnames) || ws[j].given(fc) {
					score = 0.65
				}
			}
			if idAfter(fc.lower, ws[end].end) {
				score = 0.8 // "Bartholomew Quayle (passport …", "Wenceslao Picó, con DNI …"
			}
			out = appendPerson(out, text, w.start, ws[end].end, score)
			i = end
		case c0 >= 'A' && c0 <= 'Z' || c0 >= 0xC3 && capitalised(w.text):
			// a capitalised word alone: a surname before a person's verb, or a known surname (0.4,
			// which only a context word lifts)
			if subjectSurname(text, ws, i, fc) && !institutionBefore(text, ws, i, fc) && !placeNameBefore(text, ws, i, fc) {
				out = appendPerson(out, text, w.start, w.end, 0.7) // "Olaizola refiere …", "Nowak denies …"
				break
			}
			if wp.class(fc)&(lexSurnames|lexPlaces|lexNotNames) == lexSurnames && !sentenceWords[string(f)] &&
				!institutionBefore(text, ws, i, fc) && !placeNameBefore(text, ws, i, fc) && !saintBefore(text, ws, i, fc) {
				out = appendPerson(out, text, w.start, w.end, 0.4)
			}
		}
	}
	if strings.IndexByte(text, '=') >= 0 || strings.IndexByte(text, '^') >= 0 || strings.Contains(text, ": ") {
		out = appendFieldNames(out, first, text, fc.lower) // "user=ramon.tejedor", "patient=SURNAME^GIVEN"
	}
	out = appendNamesR6(out, first, ws, fc, text, cands[:nc], candsAll)
	out = appendNamesR7(out, first, ws, fc, text)
	out = appendNamesR8(out, first, ws, fc, text)
	out = appendNamesR9(out, first, ws, fc, text)
	out = appendNamesR10(out, first, ws, fc, text)
	liftListedNames(out[first:], text)
	out = dropFamousInNews(out, first, text, fc.lower)
	out = adjustNamesR5(out, first, text)
	out = dropInOffices(out, first, fc.offices)
	return appendRepeats(out, first, ws, fc, text)
}

// copula: "es", "is", "era"… between a role word and the name it introduces.
func copula(f []byte) bool {
	switch string(f) {
	case "es", "is", "era", "fue", "sera", "será", "was", "és", "e", "da":
		return true
	}
	return false
}

// idAfter: an identity document's cue right after a run of capitalised words ("…, con DNI",
// " (passport", ", NIE", ", nacida el"): the run is the holder's name.
func idAfter(lower []byte, e int) bool {
	rest := lower[e:min(len(lower), e+24)]
	for _, p := range idAfterPrefixes {
		if bytes.HasPrefix(rest, []byte(p)) {
			return true
		}
	}
	return false
}

var idAfterPrefixes = []string{", con dni", ", dni", ", nie", ", con nie", " (dni", " (nie", " (passport", " (pasaporte",
	", passport", ", pasaporte", ", con pasaporte", ", nacido", ", nacida", ", born", ", mayor de edad", ", amb dni",
	", con nif", ", nif", " (nif", ", nascut", ", nascuda", ", nado", ", nada", " dni ", ", de nacionalidad", ", titular del dni",
	", nhs", " (nhs", ", nhc", " (nhc", ", mrn", " (mrn", ", hospital number", ", nss", " (nss", ", sip", ", cip", ", dob", " (dob",
	", fecha de nacimiento", ", f. nac", ", data de naixement", ", data de nacemento"}

// headerOrSignature reads a name that a mail header key opens at the start of a line ("De:
// Leocadia Albarrán <…>", "From: Oluwaseun Adebayo", "Per a: …"), or a signature: a line of two to
// four capitalised words alone after a closing line ("Kind regards,\nFfion Gwilliam"). Names of
// teams, branches, institutions and companies are not read.
func headerOrSignature(text string, ws []word, i int, fc *folder) (int, int, bool) {
	w := &ws[i]
	if !capitalised(w.text) {
		return 0, 0, false
	}
	ls := w.start
	for ls > 0 && (text[ls-1] == ' ' || text[ls-1] == '>') {
		ls--
	}
	if ls > 0 && text[ls-1] != '\n' {
		return 0, 0, false
	}
	first, k := i, i
	f := string(w.fold(fc))
	if f == "per" && k+1 < len(ws) && string(ws[k+1].fold(fc)) == "a" {
		k++ // Catalan "Per a:"
	}
	if headerWords[f] || k > i {
		// a header key: "De:", "From:", "Per a:"
		if e := ws[k].end; e+2 > len(text) || text[e:e+2] != ": " || k+1 >= len(ws) || ws[k+1].start != e+2 {
			return 0, 0, false
		}
		first = k + 1
	} else {
		// a signature: the line before ends a closing ("Kind regards,")
		if ls < 2 || text[ls-2] != ',' {
			return 0, 0, false
		}
		p := ls - 2
		for p > 0 && text[p-1] != '\n' {
			p--
		}
		if ls-2-p > 40 {
			return 0, 0, false
		}
		closing := false
		for _, c := range closingWords {
			closing = closing || strings.Contains(string(fc.lower[p:ls-2]), c)
		}
		if !closing {
			return 0, 0, false
		}
	}
	if !nameWord(&ws[first], fc) || ws[first].is(fc, lexCue|lexInstitution) {
		return 0, 0, false
	}
	end := extendName(text, ws, first, fc)
	if end == first && first != i || institutionTails[string(ws[end].fold(fc))] || institutionBefore(text, ws, end, fc) || companyAfter(text, ws[end].end) {
		return 0, 0, false // a header takes two or more words; a signature may be one ("Thanks,\nPriyanka")
	}
	if first == i {
		// a signature is alone on its line
		if e := ws[end].end; e < len(text) && text[e] != '\n' && text[e] != '\r' {
			return 0, 0, false
		}
	}
	return first, end, true
}

// greetings open a message to someone ("Hola Yurena,", "Dear Tadhg,", "Bon dia Quirze,", "Kaixo
// Oihane,"): one or two words, folded.
var greetings = words(`hola buenas dear hi hello hey ola kaixo querido querida estimado estimada benvolgut benvolguda
	apreciado apreciada sorry perdona perdone disculpa disculpe thanks cheers gracias grazas gràcies gracies merci`)

var greetings2 = words(`buenos|dias buenas|tardes buenas|noches bon|dia bona|tarda bos|dias boas|tardes egun|on arratsalde|on
	good|morning good|afternoon`)

// notAddressees are what a greeting may address that is not a person.
var notAddressees = words(`sir madam sirs team all everyone todos todas equipo compañeros compañeras chicos chicas amigos
	colleagues caballero caballeros senores soporte support departamento oficina`)

// greeted reads the name right after a greeting, then a comma, '!' or the end of the line: one or
// two capitalised words, known or not ("Hola Yurena, …"); not a team or a department.
func greeted(text string, ws []word, i int, fc *folder) (int, int, bool) {
	if !ws[i].is(fc, lexGreeting) {
		return 0, 0, false
	}
	f := ws[i].fold(fc)
	j := i + 1
	if !greetings[string(f)] {
		if i+1 >= len(ws) || len(f) > 10 || !gap(text, ws[i], ws[i+1], false) {
			return 0, 0, false
		}
		var buf [32]byte
		if !greetings2[string(append(append(append(buf[:0], f...), '|'), ws[i+1].fold(fc)...))] {
			return 0, 0, false
		}
		j = i + 2
	}
	if j >= len(ws) || !gap(text, ws[j-1], ws[j], false) || !nameStart(text, ws, j, fc) || ws[j].is(fc, lexCue|lexInstitution) ||
		notAddressees[string(ws[j].fold(fc))] {
		return 0, 0, false
	}
	end := j
	if j+1 < len(ws) && gap(text, ws[j], ws[j+1], false) && nameWord(&ws[j+1], fc) {
		end = j + 1
	}
	if e := ws[end].end; e < len(text) && strings.IndexByte(",!:\n\r", text[e]) < 0 {
		return 0, 0, false
	}
	return j, end, true
}

// monthBetweenNumbers: the word text[s:e] sits between a day and a year ("5 Mar 2025", "3 de
// març de 2025", "12-Jun-1980" is read by the date rules): a month, whatever the lists say.
func monthBetweenNumbers(text string, s, e int) bool {
	if s < 2 || text[s-1] != ' ' || !isDigitByte(text[s-2]) && text[s-2] != 'e' {
		return false
	}
	b, a := text[max(0, s-5):s], text[e:min(len(text), e+6)]
	before := len(b) >= 2 && b[len(b)-1] == ' ' && isDigitByte(b[len(b)-2]) ||
		len(b) >= 5 && strings.HasSuffix(b, " de ") && isDigitByte(b[len(b)-5])
	if !before {
		return false
	}
	if len(a) >= 2 && a[0] == ' ' && isDigitByte(a[1]) || strings.HasPrefix(a, " de ") && len(a) >= 5 && isDigitByte(a[4]) {
		return true
	}
	// "el 15 de març.": a day, "de", the word, then the sentence ends
	return strings.HasSuffix(b, " de ") && (len(a) == 0 || strings.IndexByte(".,;)\n", a[0]) >= 0)
}

// monthBeforeYear: a four-digit year (19xx, 20xx) follows text[:e] after one space or a dot and
// a space ("Jan 2027", "Dec. 1999"), and no digit after it.
func monthBeforeYear(text string, e int) bool {
	if e < len(text) && text[e] == '.' {
		e++
	}
	if e+5 > len(text) || text[e] != ' ' {
		return false
	}
	y := text[e+1 : e+5]
	if !(y[:2] == "19" || y[:2] == "20") || !isDigitByte(y[2]) || !isDigitByte(y[3]) {
		return false
	}
	return e+5 == len(text) || !isDigitByte(text[e+5])
}

// shortStart: the one- and two-letter lower-case words a name, cue or introduction can start with
// ("sr garcía", "me llamo", "mi nombre es", "le habla").
func shortStart(w string) bool {
	switch w {
	case "sr", "dr", "mr", "ms", "d", "me", "mi", "le", "te", "i", "dn", "se", "es", "em", "is":
		return true
	}
	return false
}

// appendPerson appends a PERSON span, widened over an abbreviated given name right before it
// ("M.ª Ángeles", "Fco. Javier", "Mª Luisa").
func appendPerson(out []Span, text string, start, end int, score float64) []Span {
	if companyAfter(text, end) {
		return out
	}
	if end-start > 4 && text[end-2:end] == "'s" {
		end -= 2 // "gareth's": the possessive is not part of the name
	}
	if end < len(text) && text[end] == '.' && end-start >= 4 && text[end-2] == ' ' && text[end-1] >= 'A' && text[end-1] <= 'Z' {
		end++ // "Marta R.": the initial's dot
	}
	if start >= 3 && text[start-2:start] == ". " && initialWord(text[start-3:start-2]) && (start == 3 || text[start-4] == '\n' ||
		text[start-4] == ' ' && lowerWordOrMarkBefore(text, start-4)) {
		start -= 3 // "es J. García Pérez": a first initial (not a sentence ending in a capital: "Banco X. Juan")
	}
	for _, p := range nameAbbrevs {
		if len(p) <= start && strings.EqualFold(text[start-len(p):start], p) && (start == len(p) || !isWordByte(text[start-len(p)-1])) {
			start -= len(p)
			break
		}
	}
	return append(out, span(text, start, end, score, "gazetteer"))
}

// streetWords are the words before a street's name ("rúa do franco", "calle pilar").
var streetWords = words(`calle c rua do da carrer avenida av avda plaza pza paseo camino kalea kale ronda travesia`)

// companyAfter: the capitalised run that ends at end is a company's name ("Costa Homes S.L.",
// "Reformas Saez SL", "Bufete Alarcón & Asociados").
func companyAfter(text string, end int) bool {
	if companySuffixAt(text, end) {
		return true
	}
	// "Telefónica de España S.A.U.": the suffix after more words of the same run
	j := end
	for n := 0; n < 3 && j+2 < len(text) && text[j] == ' '; n++ {
		k := j + 1
		for k < len(text) && text[k] != ' ' && text[k] != ',' && text[k] != ';' {
			k++
		}
		w := text[j+1 : k]
		if !capitalised(w) && !nameParticles[w] {
			return false
		}
		if companySuffixAt(text, j) {
			return true
		}
		j = k
	}
	return false
}

// companySuffixAt: a company's legal form (S.L., SA, Ltd, Lda…) right after end, or the run
// ending at end took its first letter.
func companySuffixAt(text string, end int) bool {
	rest := text[end:min(len(text), end+12)]
	k := 0
	for k < len(rest) && (rest[k] == ' ' || rest[k] == ',') {
		k++
	}
	if k == len(rest) || strings.IndexByte("SCLIGPy&.DBNAZKO", rest[k]) < 0 {
		return false
	}
	if strings.HasPrefix(rest, ".L") || strings.HasPrefix(rest, ".A.") || strings.HasPrefix(rest, ".C.") {
		return true // the run took the S of S.L.
	}
	rest = strings.TrimLeft(rest, " ,")
	for _, suf := range []string{"S.L", "SL", "S.A", "SA", "SLU", "SAU", "SLP", "S.C", "CB", "C.B", "Ltd", "LTD", "LLC", "Inc", "GmbH", "PLC", "plc", "& ", "y Asociados", "S. Coop", "Lda", "Ltda", "LDA",
		// the legal forms of Ireland, Italy, France, the Netherlands, Belgium, Germany, Austria, Hungary,
		// Finland and Poland ("Ryanair DAC", "Enel SpA", "Wizz Air Hungary Zrt")
		"DAC", "SpA", "S.p.A", "SAS", "S.A.S", "SARL", "SRL", "Srl", "S.r.l", "BV", "B.V", "NV", "N.V", "AG", "KG", "Zrt", "Kft", "Oyj", "LLP", "Sp. z o.o"} {
		if strings.HasPrefix(rest, suf) && (len(rest) == len(suf) || !isWordByte(rest[len(suf)])) {
			return true
		}
	}
	return false
}

var nameAbbrevs = []string{"M.ª ", "Mª ", "Mª. ", "M.ª", "Fco. ", "Fco ", "Fdez. ", "Mª.", "Jº "}

var capsParticles = words(`el al ben bin abu de del la van von da das dos du le di`)

// isGiven: a known given name, or a compound of them ("ana-belén", "sarah-jane").
func isGiven(f []byte) bool {
	if givenNames[string(f)] {
		return true
	}
	k := strings.IndexByte(string(f), '-')
	return k > 0 && givenNames[string(f[:k])] && isGiven(f[k+1:])
}

func knownName(w *word, fc *folder) bool {
	return (w.given(fc) || w.is(fc, lexSurnames)) && !w.is(fc, lexNotNames)
}

// lowerNever are given names that in lower case are always a Spanish, Catalan or Galician
// word ("el saldo de ella"): pronouns and adjectives.
var lowerNever = words(`ella ello sola solo buena bella mayo nieve sole pena luz fer`)

// lowerCues are the words after which a lower-case given name that is also an everyday word
// ("rosa", "pilar") is a name.
var lowerCues = words(`soy llamo llama llamada llamado hola holi buenas hey hi hello dear querida querido estimada estimado
	con para a de parte sra sr dona don mrs mr ms miss its is es yo atentamente saludos gracias thanks cliente clienta
	paciente hija hijo hermano hermana marido mujer esposa esposo madre padre vecino vecina tia tio nieta nieto novia novio
	abuela abuelo amiga amigo compañera compañero wife husband son daughter dile avisa pregunta por diu dice nombre name
	escribe aita ama ta i'm im tal oye oiga ei eh ey hey pues muller neta neto irma home`)

// lowerNameOK decides on a lower-case known given name at ws[i]: never inside an e-mail address,
// a URL or a handle; an everyday word ("rosa") only after a cue word.
func lowerNameOK(text string, ws []word, i int, fc *folder) bool {
	w := ws[i]
	if inAddressToken(text, &w) {
		return false
	}
	if len(w.text) < 3 || ws[i].is(fc, lexNotNames) || saintBefore(text, ws, i, fc) || i > 0 && ws[i-1].is(fc, lexStreetWords) {
		return false
	}
	if lowerNever[string(ws[i].fold(fc))] || ordinalWords[string(ws[i].fold(fc))] {
		return false // "de segunda mano": an ordinal in lower case is never a name
	}
	if !ws[i].is(fc, lexLowerAmbiguous) {
		return true
	}
	if idAfter(fc.lower, w.end) || strings.HasPrefix(text[w.end:], ", de ") && len(text) > w.end+6 && isDigitByte(text[w.end+5]) {
		return true // "…, consuelo, nacida en 1955", "rosario, de 82 años"
	}
	if i == 0 || !gap(text, ws[i-1], w, true) {
		return false
	}
	return ws[i-1].is(fc, lexLowerCues)
}

// extendLower grows a lower-case name over known given names, surnames, "mª" and particles
// followed by one of them ("jose luis moreno", "mohamed el amrani", "maria de la o").
func extendLower(text string, ws []word, i int, fc *folder) int {
	end := i
	for j := i + 1; j < len(ws) && j-i < 5 && gap(text, ws[j-1], ws[j], false); j++ {
		f := ws[j].fold(fc)
		if string(f) == "mª" || string(f) == "ma" && j == i+1 {
			continue
		}
		if (ws[j].given(fc) || ws[j].is(fc, lexSurnames)) && !ws[j].is(fc, lexNotNames) && !lowerAmbiguousAfter(f) {
			end = j
			continue
		}
		if ws[j].is(fc, lexNameParticles) || string(f) == "el" {
			continue
		}
		if compoundTails[string(f)] && j >= 2 && ws[j-1].is(fc, lexNameParticles) && end >= i && end < j-1 {
			end = j // "ricardo sanz de la fuente", "rocío del mar": a compound surname's tail after its article
			continue
		}
		if (patronymic(f) || irishSurname(f)) && !ws[j].is(fc, lexNotNames|lexAddrStop) {
			end = j // "maría del pilar gonzálvez", "jacinta o'rourke": an unknown surname of the -ez, O' or Mc form
			continue
		}
		break
	}
	return end
}

// patronymic: a Spanish surname of the -ez/-az/-iz/-oz form (folded, at least five letters).
func patronymic(f []byte) bool {
	n := len(f)
	return n >= 5 && f[n-1] == 'z' && strings.IndexByte("aeio", f[n-2]) >= 0
}

// lowerAmbiguousAfter: words that are surnames but far more often the next word of a sentence.
func lowerAmbiguousAfter(f []byte) bool {
	switch string(f) {
	case "a", "y", "o", "e", "i", "de", "la", "el", "en", "con", "para", "mas", "mata", "mira", "moral", "vera", "paz", "sol", "mar":
		return true
	}
	return false
}

// placeNameBefore: a capitalised given name right after "del"/"de" that follows a capitalised
// word is part of a place's name ("Puerta del Ángel", "Hospital de Sant Joan").
func placeNameBefore(text string, ws []word, i int, fc *folder) bool {
	if i < 2 || !gap(text, ws[i-1], ws[i], false) || !gap(text, ws[i-2], ws[i-1], false) {
		return false
	}
	p := string(ws[i-1].fold(fc))
	if f := ws[i-2].fold(fc); p == "de" && (placeOf[string(f)] || len(f) > 2 && f[1] == '\'' && placeOf[string(f[2:])]) {
		return true // "la oficina de Gràcia", "el barrio de Santiago"
	}
	if (p == "la" || p == "los" || p == "las") && i >= 3 && string(ws[i-2].fold(fc)) == "de" && gap(text, ws[i-3], ws[i-2], false) {
		return capitalised(ws[i-3].text) && ws[i-3].is(fc, lexNotNames) // "Virgen de la Macarena"
	}
	return (p == "del" || p == "de") && capitalised(ws[i-2].text) && ws[i-2].is(fc, lexNotNames)
}

// placeOf are the words after which "de" + a capitalised word names a place (a branch, a
// district, a town), not a person.
var placeOf = words(`oficina oficines oficinas sucursal sucursales barrio barri bairro auzoa pueblo poble ciudad ciutat
	cidade municipio municipi concello provincia comarca zona distrito districte parroquia`)

// institutionTails end the name of a branch, desk or team ("Costa Blanca International Branch").
var institutionTails = words(`branch office desk team department dept services service support centre center bureau
hospital hospitals infirmary hospice clinic surgery trust
	airlines airways aereas aeries lineas holdings group logistics motors press`)

// ordinalWords after a role word are the role's number ("el firmante segundo"), not a name
// (Segundo, Primitivo… are given names only when capitalised).
var ordinalWords = words(`primero primera segundo segunda tercero tercera cuarto cuarta quinto quinta primer tercer`)

// acronymInProse: word i, in capitals, alone, among mixed-case words on its line ("derivada
// desde CHUS o …") is an acronym; a name in capitals in a statement has capitals around it.
func acronymInProse(text string, ws []word, i int) bool {
	if len(ws[i].text) < 3 || !allCaps(ws[i].text) {
		return false
	}
	mixed := func(j int) bool {
		return j >= 0 && j < len(ws) && !allCaps(ws[j].text) && !strings.ContainsAny(text[min(ws[i].end, ws[j].end):max(ws[i].start, ws[j].start)], "\n")
	}
	return mixed(i-1) && mixed(i+1)
}

// saintBefore: a given name right after San/Sant/Santa/Santo/São is a saint's name, part of a
// place, a hospital or a street ("Sant Pau", "San Carlos", "c/ sant antoni").
func saintBefore(text string, ws []word, i int, fc *folder) bool {
	if i < 1 || !gap(text, ws[i-1], ws[i], false) {
		return false
	}
	switch string(ws[i-1].fold(fc)) {
	case "san", "sant", "santa", "santo", "sao", "são", "st", "sto", "sta", "saint", "sainte", "virgen", "virxe", "verge":
		return true
	}
	return false
}

// saintWord: San, Sant, Santa, Santo, São, St: a saint's name follows, part of a place.
func saintWord(w *word, fc *folder) bool {
	switch string(w.fold(fc)) {
	case "san", "sant", "santa", "santo", "sao", "são", "st", "sto", "sta", "saint", "sainte", "virgen", "virxe", "verge":
		return true
	}
	return false
}

// placeAfter: the name at ws[i:end+1] goes on with "de" and a place ("Santiago de Compostela").
func placeAfter(text string, ws []word, end int, fc *folder) bool {
	if end+2 >= len(ws) || !gap(text, ws[end], ws[end+1], false) || !gap(text, ws[end+1], ws[end+2], false) {
		return false
	}
	p := string(ws[end+1].fold(fc))
	return (p == "de" || p == "del") && ws[end+2].is(fc, lexPlaces)
}

// allCaps: a word of capital letters only (two or more, or one for an initial).
func allCaps(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n > 0
}

// capsName reads a name in capitals at ws[i]: two to five words of capitals (particles not counted), single-letter
// initials allowed inside, at least two of them known names and none sentence furniture.
func capsName(text string, ws []word, i int, fc *folder) (int, bool) {
	if t := ws[i].text; len(t) < 2 || t[0] >= 'a' && t[0] <= 'z' || t[1] >= 'a' && t[1] <= 'z' || !allCaps(t) {
		return 0, false
	}
	if !allCaps(ws[i].text) || len(ws[i].text) < 2 {
		return 0, false
	}
	known, end, parts := 0, -1, 0
	for j := i; j < len(ws) && j-i < 8; j++ {
		if j > i && !gap(text, ws[j-1], ws[j], false) && text[ws[j-1].end:ws[j].start] != ". " {
			break
		}
		t := ws[j].text
		if !allCaps(t) {
			break
		}
		f := ws[j].fold(fc)
		if !ws[j].is(fc, lexNameParticles) {
			if parts == 5 {
				break // five words besides the particles ("MARÍA DEL CARMEN VARGAS OSUNA")
			}
			parts++
		}
		if ws[j].is(fc, lexNotNames|lexCompanyWords) && !(j > i && ws[j].is(fc, lexNameParticles)) {
			break
		}
		switch {
		case ws[j].given(fc) || ws[j].is(fc, lexSurnames):
			known++
			end = j
		case utf8.RuneCountInString(t) == 1 && j > i:
			// an initial: kept only if a known name follows
		case ws[j].is(fc, lexNameParticles) || string(f) == "el":
		default:
			if utf8.RuneCountInString(t) < 3 {
				return 0, false
			}
			end = j // an unknown word in capitals, part of the run
		}
	}
	if known < 2 || end <= i {
		return 0, false
	}
	return end, true
}

// surnamesCommaName reads "SURNAMES, Name" at ws[i]: one to three capitalised words or words in
// capitals (particles between), ", ", then a known given name (and more given names). The part
// before the comma must be in capitals, hold a known surname, or start a line or a list item.
func surnamesCommaName(text string, ws []word, i int, fc *folder) (int, bool) {
	if !capitalised(ws[i].text) {
		return 0, false
	}
	if s := ws[i].start; s > 0 && (text[s-1] == '-' || text[s-1] == '/' || isDigitByte(text[s-1])) {
		return 0, false // the end of a code or a plate ("B-8812-KZ, Santiago"), not surnames
	}
	if c := ws[i].end; c+2 > len(text) || strings.IndexByte(text[c:min(len(text), c+60)], ',') < 0 || ws[i].is(fc, lexNotNames) || sentenceWords[string(ws[i].fold(fc))] {
		return 0, false
	}
	caps, knownSurname := true, false
	j := i
	for ; j < len(ws) && j-i < 4; j++ {
		if j > i && !gap(text, ws[j-1], ws[j], false) {
			return 0, false
		}
		if ws[j].is(fc, lexNameParticles) && j > i {
			caps = caps && allCaps(ws[j].text)
			continue
		}
		if ws[j].is(fc, lexNotNames|lexCompanyWords) {
			return 0, false
		}
		if !capitalised(ws[j].text) {
			return 0, false
		}
		if utf8.RuneCountInString(ws[j].text) < 2 {
			return 0, false
		}
		caps = caps && allCaps(ws[j].text)
		knownSurname = knownSurname || ws[j].is(fc, lexSurnames)
		if ws[j].end+2 <= len(text) && text[ws[j].end:ws[j].end+2] == ", " {
			break
		}
	}
	if j >= len(ws)-1 || j-i >= 4 || text[ws[j].end:ws[j+1].start] != ", " {
		return 0, false
	}
	g := j + 1
	if !capitalised(ws[g].text) {
		return 0, false
	}
	if !ws[g].given(fc) {
		// "MONTERO SALAS, Yurema", "HARRISON, Kasia Lorelei": surnames in capitals, one of them
		// known, then capitalised words no list knows
		// round 5: or, at a line, cell or label start, surnames in capitals no list knows
		// ("Tenant: O'SULLIVAN, Fionnuala") or a given name that is also a word ("| Quintana
		// Arbeloa, Socorro |"), when the name closes there
		// (not "URL, StatusFound", "Dutch, German": a surname in capitals has four letters or
		// more, surnames in Title case are two words, the given name has no inner capital)
		ok := caps && knownSurname || lineOrItemStart(text, ws[i].start) && (caps && len(ws[j].text) >= 4 || j > i && ws[g].is(fc, lexLowerAmbiguous)) &&
			closesAfter(text, ws[g].end) && !innerCapital(ws[g].text)
		if !ok || !nameWord(&ws[g], fc) || ws[g].is(fc, lexCue|lexInstitution|lexPlaces|lexCompanyWords) {
			return 0, false
		}
		end := g
		if g+1 < len(ws) && gap(text, ws[g], ws[g+1], false) && nameWord(&ws[g+1], fc) && !ws[g+1].is(fc, lexCue|lexInstitution|lexPlaces) {
			end = g + 1
		}
		return end, true
	}
	if !caps && !knownSurname && !lineOrItemStart(text, ws[i].start) {
		return 0, false
	}
	end := g
	k := g + 1
	for ; k < len(ws) && k-g < 5 && gap(text, ws[k-1], ws[k], false); k++ {
		if capitalised(ws[k].text) && ws[k].given(fc) {
			end = k
			continue
		}
		if ws[k].is(fc, lexNameParticles) && k-g < 4 {
			continue // "ANA DE LOS ÁNGELES", "MARIA DEL MAR": kept only if a given name follows
		}
		break
	}
	if !caps && !knownSurname && k < len(ws) && k == end+1 && gap(text, ws[end], ws[k], false) && nameWord(&ws[k], fc) {
		// "Yo, Gervasio Llamas Urquiza,", "Mujer, Ana Belén Quiroga,": a word, then a whole name
		// whose surnames follow the given name; not "SURNAMES, Name"
		return 0, false
	}
	return end, true
}

// lineOrItemStart: only spaces, a list number or bullet, or a colon/bracket/comma separate
// start from the start of its line.
func lineOrItemStart(text string, start int) bool {
	k := start
	for k > 0 && text[k-1] == ' ' {
		k--
	}
	if k == 0 {
		return true
	}
	switch text[k-1] {
	case '\n', ':', '(', ';', '|', '-', '*', ',':
		return true
	case '.':
		return k >= 2 && isDigitByte(text[k-2])
	}
	return strings.HasSuffix(text[:k], "—") || strings.HasSuffix(text[:k], "–")
}

// dropFamousInNews removes the public figures (famous) that a news sentence names.
func dropFamousInNews(out []Span, first int, text string, lower []byte) []Span {
	kept := out[:first]
	var buf [64]byte
	for _, sp := range out[first:] {
		if publicRoleAt(text, lower, sp) {
			continue
		}
		var folded []byte
		if sp.End-sp.Start < 40 && sp.End <= len(lower) && strings.IndexByte(sp.Text, ' ') > 0 {
			folded = appendAccentFolded(buf[:0], lower[sp.Start:sp.End])
		}
		if folded != nil && brands[string(folded)] {
			continue // "cargo de Rosa Clará": a brand
		}
		if folded != nil && !famous[string(folded)] {
			if h, t, ok := famousAfterConjunction(folded); ok && famous[string(t)] && newsAround(text, lower, sp) {
				// "Indian Wells y Ana Botín presenta…": the run took a public figure in over "y"
				if k := strings.Index(sp.Text, " "+h+" "); k < 0 || !givenIn(sp.Text[:k]) {
					continue
				}
				sp.End = sp.Start + strings.Index(sp.Text, " "+h+" ")
				sp.Text = text[sp.Start:sp.End]
				folded = appendAccentFolded(buf[:0], lower[sp.Start:sp.End])
			}
		}
		if folded != nil && famous[string(folded)] {
			lo, hi := max(0, sp.Start-80), min(len(lower), sp.End+80)
			news := inQuotedHeadline(text, sp)
			for _, w := range newsWords {
				if strings.Contains(string(lower[lo:hi]), w) {
					news = true
					break
				}
			}
			if news {
				continue
			}
		}
		kept = append(kept, sp)
	}
	return kept
}

// publicRoleAt: the name sp follows a public office ("el ministro Óscar Puente", "the Chancellor
// Rachel Reeves", the role word inside the span or right before it) in a sentence that reports a
// statement (newsVerbs): a public figure in the news, named or not in famous.
func publicRoleAt(text string, lower []byte, sp Span) bool {
	if sp.End > len(lower) {
		return false
	}
	var buf [48]byte
	role := false
	// the word right before the span
	k := sp.Start
	for k > 0 && lower[k-1] == ' ' {
		k--
	}
	if k < sp.Start && k > 0 {
		j := k
		for j > 0 && (isASCIILetterByte(lower[j-1]) || lower[j-1] >= 0x80) {
			j--
		}
		if k-j > 2 && k-j < 40 {
			role = lexLookup(appendAccentFolded(buf[:0], lower[j:k]))&lexPublicRole != 0
		}
	}
	if !role {
		// the first word of the span ("Chancellor Rachel Reeves")
		j := sp.Start
		for j < sp.End && (isASCIILetterByte(lower[j]) || lower[j] >= 0x80) {
			j++
		}
		if j < sp.End && j-sp.Start > 2 && j-sp.Start < 40 {
			role = lexLookup(appendAccentFolded(buf[:0], lower[sp.Start:j]))&lexPublicRole != 0
		}
	}
	if !role {
		return false
	}
	lo, hi := max(0, sp.Start-100), min(len(lower), sp.End+100)
	for _, w := range newsVerbs {
		if strings.Contains(string(lower[lo:hi]), w) {
			return true
		}
	}
	return false
}

// appendRepeats: once a name is found, every other occurrence of one of its words in the text —
// in any case — is that person too ("Remedios Fajardo" … "Hola Remedios"; "Ionuț Popescu" …
// "domnule Popescu"), and so is a chat handle built on a given name at the start of a line
// ("kike_88: …").
func appendRepeats(out []Span, first int, ws []word, fc *folder, text string) []Span {
	n := len(out)
	var parts hashSet
	k := 0
	for _, sp := range out[first:n] {
		if sp.Score < 0.5 {
			continue
		}
		for k > 0 && ws[k-1].end > sp.Start {
			k-- // spans may start before the previous one ended (a widened abbreviation)
		}
		for ; k < len(ws) && ws[k].start < sp.End; k++ {
			if ws[k].start < sp.Start || ws[k].end > sp.End {
				continue
			}
			f := ws[k].fold(fc)
			if len(f) < 3 || ws[k].is(fc, lexNameParticles|lexNotNames|lexPlaces) || lowerAmbiguousAfter(f) {
				continue
			}
			parts.add(f)
		}
	}
	at := first // spans from first on are in text order
	for k := range ws {
		w := &ws[k]
		for at < n && out[at].End <= w.start {
			at++
		}
		if e, ok := chatHandle(text, w, fc); ok && !(at < n && out[at].Start <= w.start && out[at].End >= e) {
			out = appendHandle(out, text, w.start, e)
			continue
		}
		if at < n && out[at].Start < w.end {
			if out[at].Score < 0.5 && out[at].Start == w.start && out[at].End == w.end && parts.n > 0 && capitalised(w.text) && parts.has(w.fold(fc)) {
				out[at].Score = 0.7 // "CARBONELL ESTRUCH, Vicent … operación Carbonell": a 0.4 guess that repeats a name's part
			}
			continue // already inside a name
		}
		if parts.n > 0 && len(w.text) > 2 && (capitalised(w.text) || w.is(fc, lexGivenNames|lexSurnames) || len(w.text) >= 5 && parts.has(w.fold(fc)) && lowerRepeatOK(text, w, fc)) && parts.has(w.fold(fc)) && !inAddressToken(text, w) {
			s := w.start
			if j := particlesBefore(text, ws, k, fc); j < k && capitalised(ws[j].text) && (at == first || out[at-1].End <= ws[j].start) {
				s = ws[j].start // "… Van der Berg prefers": the particles of a surname said again
			}
			out = append(out, span(text, s, w.end, 0.7, "gazetteer"))
		}
	}
	return out
}

// hashSet is a small set of words by their 64-bit FNV-1a hash (open addressing, at most 96
// words; more are not added), on the stack.
type hashSet struct {
	slots [128]uint64
	n     int
}

func fnv64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h | 1 // 0 marks an empty slot
}

func (s *hashSet) add(b []byte) {
	if s.n >= 96 {
		return
	}
	h := fnv64(b)
	for i := h & 127; ; i = (i + 1) & 127 {
		switch s.slots[i] {
		case h:
			return
		case 0:
			s.slots[i] = h
			s.n++
			return
		}
	}
}

func (s *hashSet) has(b []byte) bool {
	h := fnv64(b)
	for i := h & 127; ; i = (i + 1) & 127 {
		switch s.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// inAddressToken: the word is part of an e-mail address, a URL or a handle (a dot, @, _ or /
// glued to it), which its own detector reads.
func inAddressToken(text string, w *word) bool {
	if w.start > 0 && strings.IndexByte(".@/_\\#&=", text[w.start-1]) >= 0 {
		return true
	}
	return w.end < len(text) && (strings.IndexByte("@_/\\=", text[w.end]) >= 0 || text[w.end] == '.' && w.end+1 < len(text) && isWordByte(text[w.end+1]))
}

// appendHandle appends the chat handle text[s:e] and its other occurrences.
func appendHandle(out []Span, text string, s0, e0 int) []Span {
	h := text[s0:e0]
	for off := 0; off < len(text); {
		j := strings.Index(text[off:], h)
		if j < 0 {
			break
		}
		s := off + j
		if (s == 0 || !isWordByte(text[s-1])) && (s+len(h) == len(text) || !isWordByte(text[s+len(h)])) && s != s0 {
			out = append(out, span(text, s, s+len(h), 0.75, "gazetteer"))
		}
		off = s + len(h)
	}
	return append(out, span(text, s0, e0, 0.75, "gazetteer"))
}

// chatHandle: a user handle built on a given name at the start of a line and followed by a colon
// ("kike_88: …", "lucia.m: …"). It returns the handle's end.
func chatHandle(text string, w *word, fc *folder) (int, bool) {
	if w.start > 0 && text[w.start-1] != '\n' && text[w.start-1] != ' ' && text[w.start-1] != ']' {
		return 0, false
	}
	if w.start > 0 && text[w.start-1] == ' ' && !(w.start >= 2 && text[w.start-2] == ']') {
		return 0, false
	}
	e := w.end
	if e >= len(text) || (text[e] != '_' && text[e] != '.' && !isDigitByte(text[e])) {
		return 0, false
	}
	for e < len(text) && (isWordByte(text[e]) || text[e] == '_' || text[e] == '.') {
		e++
	}
	if e >= len(text) || text[e] != ':' || e-w.start > 24 || !w.given(fc) {
		return 0, false
	}
	return e, true
}

// nameWord is a capitalised word that could be part of a name: not all capitals (DNI, IBAN),
// not a word that starts sentences or names institutions.
func nameWord(w *word, fc *folder) bool {
	if !capitalised(w.text) || w.is(fc, lexNotNames) {
		return false
	}
	for _, r := range w.text[1:] {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}

// nameCueStart holds the first bytes of the lower-case cue words.
var nameCueStart = func() [256]bool {
	var t [256]bool
	for w := range nameCues {
		t[w[0]] = true
	}
	return t
}()

func nameCueWord(w *word, fc *folder) bool { _, ok := nameCues[string(w.fold(fc))]; return ok }

// extendName grows a name from word i over following capitalised words and particles, at most
// five words in all, and returns the index of its last word.
func extendName(text string, ws []word, i int, fc *folder) int {
	end := i
	for j := i + 1; j < len(ws) && j-i < 6; j++ {
		if !gap(text, ws[j-1], ws[j], false) && !(initialWord(ws[j-1].text) && text[ws[j-1].end:ws[j].start] == ". ") {
			break // a middle initial's dot is inside the name ("José A. Romero")
		}
		if ws[j].is(fc, lexCue) && utf8.RuneCountInString(ws[j].text) > 1 && nameCues[string(ws[j].fold(fc))] >= 0.85 {
			break // "Letrada Sra. Gómez": an honorific starts the next name
		}
		if ws[j].is(fc, lexCompanyWords) && !ws[j].is(fc, lexSurnames|lexGivenNames) {
			break // "Construções Ferreira Lda": the legal form is not part of a name (companyAfter reads it)
		}
		if capitalised(ws[j].text) && !ws[j].is(fc, lexNotNames) {
			end = j
			continue
		}
		if initialWord(ws[j].text) && j+1 < len(ws) && text[ws[j].end:ws[j+1].start] == ". " && capitalised(ws[j+1].text) {
			continue // "José A. Romero": kept only if the name goes on
		}
		if capitalised(ws[j].text) && ws[j].is(fc, lexSurnames) && runEndsAt(text, ws, j) && knownIn(ws, i, j, fc) {
			end = j // "Severino Abril.", "Doroteo Sevilla (", "Margarita Sáez Barrio,": a surname that is also a month or a place, last in the run
			break
		}
		if nameParticles[ws[j].text] && j+1 < len(ws) {
			continue // kept only if a capitalised word follows
		}
		if capsSurnameParticles[ws[j].text] && j+1 < len(ws) && capitalised(ws[j+1].text) {
			continue // "Mohamed El Amrani", "Declan Ó Briain": kept only if the name goes on
		}
		break
	}
	return end
}

// capsSurnameParticles open Arabic, Berber and Irish surnames in Title case ("El Amrani", "Ben
// Youssef", "Ait Ali", "Ó Briain", "Mac Giolla"); a sentence's article or preposition elsewhere.
var capsSurnameParticles = map[string]bool{"El": true, "Al": true, "Ben": true, "Bin": true, "Abu": true, "Ait": true,
	"Aït": true, "Ould": true, "Ó": true, "Ní": true, "Nic": true, "Mac": true, "Ua": true}

// lowerWordOrMarkBefore: the text before position k (a space) ends in a lower-case word or in
// ':', ',' or '('.
func lowerWordOrMarkBefore(text string, k int) bool {
	if k == 0 {
		return true
	}
	if strings.IndexByte(":,(", text[k-1]) >= 0 {
		return true
	}
	j := k
	for j > 0 && (isASCIILetterByte(text[j-1]) || text[j-1] >= 0x80) {
		j--
	}
	return j < k && !capitalised(text[j:k])
}

// nameStart: word j can start a name after a cue: a name word, or an initial and its dot before
// one ("J. Pritchard-Evans").
func nameStart(text string, ws []word, j int, fc *folder) bool {
	if nameWord(&ws[j], fc) {
		return true
	}
	return initialWord(ws[j].text) && j+1 < len(ws) && text[ws[j].end:ws[j+1].start] == ". " && nameWord(&ws[j+1], fc)
}

// initialWord: a single capital letter (an initial).
func initialWord(w string) bool { return len(w) == 1 && w[0] >= 'A' && w[0] <= 'Z' }

// runEndsAt: no capitalised word follows word j in the same run, nor a number ("Plaza 3").
func runEndsAt(text string, ws []word, j int) bool {
	e := ws[j].end
	if e+1 < len(text) && text[e] == ' ' && isDigitByte(text[e+1]) {
		return false
	}
	return j+1 == len(ws) || !gap(text, ws[j], ws[j+1], false) || !capitalised(ws[j+1].text)
}

// knownIn: a known given name among ws[i:j].
func knownIn(ws []word, i, j int, fc *folder) bool {
	for k := i; k < j; k++ {
		if capitalised(ws[k].text) && ws[k].given(fc) {
			return true
		}
	}
	return false
}

// wifeOfCue: the titles that "de" + a surname follows for a married woman ("la señora de …").
func wifeOfCue(f []byte) bool {
	switch string(f) {
	case "señora", "sra", "senyora", "viuda", "atencion", "atencio":
		return true // and "a la atención de …"
	}
	return false
}

// basqueSuffixes are Basque case endings written onto a name ("Mikelek", "Aneri", "Maite-rekin").
var basqueSuffixes = []string{"arentzat", "rentzat", "entzat", "rengana", "engana", "arekin", "rekin", "ekin", "aren", "ren",
	"ari", "ren", "ek", "ri", "en", "ra", "k"}

// basqueGiven: a capitalised known given name with a Basque case ending (with or without a hyphen).
func basqueGiven(w *word, fc *folder) bool {
	f := w.fold(fc)
	if len(f) < 4 || !w.ascii && !w.latin1 {
		return false
	}
	switch f[len(f)-1] {
	case 'k', 'i', 'n', 'a', 't':
	default:
		return false
	}
	for _, suf := range basqueSuffixes {
		if len(f) > len(suf)+2 && string(f[len(f)-len(suf):]) == suf {
			stem := f[:len(f)-len(suf)]
			if stem[len(stem)-1] == '-' {
				stem = stem[:len(stem)-1]
			}
			if len(stem) >= 3 && givenNames[string(stem)] && !lowerAmbiguous[string(stem)] {
				return true
			}
		}
	}
	return false
}

// streetNameAt: capitalised word i follows a street word ("calle Rosario", "avenida Pablo Iglesias"):
// a street's name, which the address rules read when a number follows.
func streetNameAt(text string, ws []word, i int, fc *folder) bool {
	return i > 0 && capitalised(ws[i].text) && gap(text, ws[i-1], ws[i], false) &&
		ws[i-1].is(fc, lexStreetWords) && len(ws[i-1].text) > 2 && !(capitalised(ws[i-1].text) && ws[i-1].given(fc))
}

// institutionBefore: word i is inside an institution's or shop's name: it, or a capitalised word
// (or particle) of the same run before it, opens one ("Hospital Álvaro Cunqueiro", "Fundació
// Josep Carreras", "Clínica Dental Ortiz", "HOSPITAL GENERAL UNIVERSITARIO GREGORIO MARAÑÓN").
func institutionBefore(text string, ws []word, i int, fc *folder) bool {
	if ws[i].is(fc, lexInstitution) {
		return true
	}
	if !capitalised(ws[i].text) {
		return false
	}
	for k := i - 1; k >= 0 && i-k <= 5; k-- {
		if g := text[ws[k].end:ws[k+1].start]; g != " " && (g != ". " || len(ws[k].text) > 3) {
			return false // the run ends at anything but a space, or the dot of an abbreviation ("Hospital Dr. Peset")
		}
		if elidedInstitution(&ws[k]) {
			return true // "a l'Hospital Universitari de Girona Doctor Josep Trueta"
		}
		if !capitalised(ws[k].text) && !ws[k].is(fc, lexNameParticles) {
			return false
		}
		if ws[k].is(fc, lexInstitution) {
			return true
		}
	}
	return false
}

// elidedInstitution: an institution's head word with an elided article glued to it ("l'Hospital",
// "d'Hospitalet" is not one: only the words of institutionHeads count).
func elidedInstitution(w *word) bool {
	t := w.text
	if len(t) < 4 || t[1] != '\'' || t[0] != 'l' && t[0] != 'L' && t[0] != 'd' && t[0] != 'D' {
		return false
	}
	return institutionHeads[fold(t[2:])]
}

// unknownSurnameAfter widens a lower-case name ending at word end over one more lower-case word
// that no list knows ("el client pere vilaró (…", "la paciente aurora peñalver, de 81 años")
// when a comma, bracket, full stop or the end of the text closes it: after a role word, the word
// that ends the clause is the surname. Everyday words (nameStops, sentence furniture) never are.
func unknownSurnameAfter(text string, ws []word, end int, fc *folder) int {
	j := end + 1
	if j >= len(ws) || !gap(text, ws[end], ws[j], false) || !lowerFree(&ws[j], fc) {
		return end
	}
	e := ws[j].end
	if e == len(text) || strings.IndexByte(",;:().\n", text[e]) >= 0 {
		return j
	}
	if r := text[e:]; strings.HasPrefix(r, " (") || strings.HasPrefix(r, " —") || strings.HasPrefix(r, " – ") || strings.HasPrefix(r, " - ") {
		return j // "la clienta rosario villaplana (la del estanco)"
	}
	return end
}

// zhSurnames are the commonest Chinese surnames in pinyin that are no Spanish, Catalan, Galician or
// English word in lower case.
var zhSurnames = words(`li wang zhang liu chen yang zhao huang zhou wu xu sun zhu gao lin guo luo liang song zheng
	xie han tang feng dong xiao cao yuan deng fu shen zeng peng cai jia ding wei xue yan dai xia zhong tian jiang fang
	shi yao liao zou xiong jin hao kong bai cui kang qiu qin gu hou shao meng duan lei qian yin chang qiao lai gong
	wen hu ma lu`)

// pinyinSyllable: f is one syllable of Mandarin in pinyin without tones (an initial, then a final).
func pinyinSyllable(f []byte) bool {
	s := string(f)
	if len(s) == 0 || len(s) > 6 {
		return false
	}
	for _, in := range []string{"zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j", "q", "x", "r", "z", "c", "s", "y", "w", ""} {
		if strings.HasPrefix(s, in) && pinyinFinals[s[len(in):]] {
			return true
		}
	}
	return false
}

var pinyinFinals = words(`a o e i u v ai ei ui ao ou iu ie ve er an en in un ang eng ing ong ia iao ian iang iong ua uo
	uai uan uang ue`)

// chineseName: a Chinese surname and one or two given-name syllables in lower case after a cue
// ("dar de alta a li na", "con huang lei", "la paciente chen jing"); returns the last word.
func chineseName(text string, ws []word, i int, fc *folder) (int, bool) {
	if i == 0 || i+1 >= len(ws) || capitalised(ws[i].text) || !gap(text, ws[i-1], ws[i], true) {
		return 0, false
	}
	if p := ws[i-1].fold(fc); !ws[i-1].is(fc, lexLowerCues|lexCue) && string(p) != "en" && string(p) != "na" {
		return 0, false // "en", "na": the Catalan personal articles ("en zhao ming")
	}
	end := i
	for j := i + 1; j < len(ws) && j-i <= 2 && gap(text, ws[j-1], ws[j], false); j++ {
		f := ws[j].fold(fc)
		if capitalised(ws[j].text) || !pinyinSyllable(f) || ws[j].is(fc, lexNameStop|lexAddrStop|lexNotNames|lexNameParticles) && !ws[j].is(fc, lexGivenNames) {
			break
		}
		end = j
	}
	return end, end > i
}

// lowerFree: a lower-case word of at least three letters that could be an unknown surname.
func lowerFree(w *word, fc *folder) bool {
	c := w.text[0]
	if !(c >= 'a' && c <= 'z' || c >= 0x80 && !capitalised(w.text)) || utf8.RuneCountInString(w.text) < 3 {
		return false
	}
	return !w.is(fc, lexNotNames|lexAddrStop|lexNameStop|lexNameParticles|lexFloorWords|lexUnitWords|lexStreetTypeWords|lexCue|lexLowerCues|lexPlaces|lexCompanyWords)
}

// orgNames are organisations whose name starts with a given name (folded words, "given next").
var orgNames = words(`cruz|roja santa|lucia mercedes|benz`)

// orgNamed: ws[i] and the word after it name one of orgNames ("Cruz Roja").
func orgNamed(ws []word, i int, fc *folder) bool {
	if i+1 >= len(ws) {
		return false
	}
	var buf [48]byte
	b := append(append(append(buf[:0], ws[i].fold(fc)...), '|'), ws[i+1].fold(fc)...)
	return orgNames[string(b)]
}

// liftListedNames: a run of capitalised words no list knows (scored below the threshold) that
// sits in a list with a name found ("Siobhan McAteer (10:00), Oisin Breathnach (10:30) and Dervla
// Ní Bhriain (11:00)", "Para: Ramón Esteve; Cristina Alba") is a name too: its score is raised.
// spans are appendNames' own, in text order.
func liftListedNames(spans []Span, text string) {
	for k := range spans {
		sp := &spans[k]
		if sp.Score >= 0.5 || strings.IndexByte(sp.Text, ' ') < 0 {
			continue
		}
		for _, n := range [2]int{k - 1, k + 1} {
			if n < 0 || n >= len(spans) || spans[n].Score < 0.5 || spans[n].Type != TypePerson {
				continue
			}
			a, b := spans[n].End, sp.Start
			if n > k {
				a, b = sp.End, spans[n].Start
			}
			if b-a < 1 || b-a > 24 || !listSeparator(text[a:b]) {
				continue
			}
			sp.Score = 0.6
			break
		}
	}
}

// listSeparator: what separates two items of a list of names — a comma, a semicolon or a
// conjunction, after an optional bracket ("(10:30) and ").
func listSeparator(g string) bool {
	g = strings.TrimLeft(g, " ")
	if strings.HasPrefix(g, "(") {
		k := strings.IndexByte(g, ')')
		if k < 0 {
			return false
		}
		g = g[k+1:]
	}
	switch strings.TrimSpace(g) {
	case ",", ";", "y", "and", "i", "e", "eta", "et", "&", ", y", ", and", ", i", "/":
		return true
	}
	return false
}

// dropInOffices removes the names, from out[first:] on, that lie inside an office's address.
func dropInOffices(out []Span, first int, offices [][2]int) []Span {
	if len(offices) == 0 {
		return out
	}
	kept := out[:first]
	for _, sp := range out[first:] {
		in := false
		for _, o := range offices {
			in = in || o[0] <= sp.Start && sp.End <= o[1]
		}
		if !in {
			kept = append(kept, sp)
		}
	}
	return kept
}

func span(text string, start, end int, score float64, source string) Span {
	return Span{Start: start, End: end, Type: TypePerson, Text: text[start:end], Score: score, Source: source}
}

// Self-introductions, as word sequences (lower case).
var intros = [][]string{{"soy"}, {"me", "llamo"}, {"mi", "nombre", "es"}, {"this", "is"}, {"my", "name", "is"},
	{"i", "am"}, {"i'm"}, {"aquí"}, {"le", "habla"}, {"te", "habla"},
	// strong introductions (strongIntros on): a name follows, known or not
	{"se", "llama"}, {"se", "llamaba"}, {"es", "diu"}, {"em", "dic"}, {"chámase"}, {"chamase"}, {"chámome"},
	{"chamome"}, {"is", "called"}, {"my", "name's"}, {"her", "name", "is"}, {"his", "name", "is"}, {"su", "nombre", "es"},
	{"nire", "izena"}, {"surname", "is"}, {"last", "name", "is"}, {"su", "apellido", "es"}, {"se", "apellida"},
	{"apellidos"}, {"el", "seu", "cognom", "és"}, {"es", "cognoma"}, {"o", "seu", "apelido", "é"},
	{"apelídase"}, {"apelidase"}, {"apellido", "es"}}

// strongIntros: intros[k] for k >= strongIntros, and "me llamo", "mi nombre es", "my name is", name
// whoever follows them, so a capitalised or lower-case name the gazetteer does not know is read
// too ("se llama Néstor Cienfuegos", "me llamo dariusz kowalczyk").
const strongIntros = 10

func strongIntro(k int) bool { return k >= strongIntros || k == 1 || k == 2 || k == 4 }

var introStart = func() [256]bool {
	var t [256]bool
	for _, in := range intros {
		t[in[0][0]] = true
		t[in[0][0]-'a'+'A'] = in[0][0] >= 'a' && in[0][0] <= 'z'
	}
	return t
}()

// introsByFirst lists, by the lower-cased first byte of their first word, the indexes of intros.
var introsByFirst = func() (t [256][]int) {
	for k, in := range intros {
		t[in[0][0]|0x20] = append(t[in[0][0]|0x20], k)
	}
	return t
}()

// introASCII: intros[k]'s first word is ASCII.
var introASCII = func() (t []bool) {
	for _, in := range intros {
		t = append(t, isASCII(in[0]))
	}
	return t
}()

// maxIntroRunes is the length of the longest first word of an introduction: EqualFold only
// matches words with as many runes.
var maxIntroRunes = func() int {
	n := 0
	for _, in := range intros {
		n = max(n, utf8.RuneCountInString(in[0]))
	}
	return n
}()

// introLen returns how many words of the introduction phrase start at ws[i], or 0.
func introLen(ws []word, i int) int {
	n, _ := introAt(ws, i)
	return n
}

// introAt returns how many words of the introduction phrase start at ws[i] (0 if none) and its
// index in intros.
func introAt(ws []word, i int) (int, int) {
	w := ws[i].text
	if !introStart[w[0]] || len(w) > maxIntroRunes*utf8.UTFMax || len(w) > maxIntroRunes && utf8.RuneCountInString(w) > maxIntroRunes {
		return 0, -1
	}
	for _, k := range introsByFirst[w[0]|0x20] {
		in := intros[k]
		if i+len(in) > len(ws) || ws[i].ascii && introASCII[k] && len(in[0]) != len(w) {
			continue // two ASCII words of different lengths never fold equal
		}
		ok := true
		for k, w := range in {
			if !strings.EqualFold(ws[i+k].text, w) {
				ok = false
				break
			}
		}
		if ok {
			return len(in), k
		}
	}
	return 0, -1
}

// unknownIntroduced reads the name after a strong introduction that starts with a word no list
// knows: a run of capitalised words ("se llama Néstor Cienfuegos"), or up to three lower-case
// words that are not everyday words ("se llama yolima cárdenas ospina, …"; not "se llama así").
func unknownIntroduced(text string, ws []word, j int, fc *folder) (int, bool) {
	if nameWord(&ws[j], fc) && !ws[j].is(fc, lexCue|lexInstitution) {
		return extendName(text, ws, j, fc), true
	}
	if k := particlesAfter(text, ws, j, fc); k > j && k < len(ws) && nameWord(&ws[k], fc) && !ws[k].is(fc, lexCue|lexInstitution) {
		return extendName(text, ws, k, fc), true // "el apellido es de la Calzada", "surname is de Vries"
	}
	if !lowerFree(&ws[j], fc) {
		return 0, false
	}
	end := j
	for k := j + 1; k < len(ws) && k-j < 3 && gap(text, ws[k-1], ws[k], false); k++ {
		if !(lowerFree(&ws[k], fc) || knownName(&ws[k], fc) && !capitalised(ws[k].text)) {
			break
		}
		end = k
	}
	return end, true
}

// introducedName reports a name right after an introduction phrase: a known given name, then
// known given names, surnames and particles, in any case. It returns the index of its last word.
func introducedName(text string, ws []word, i int, fc *folder) (int, bool) {
	n, k := introAt(ws, i)
	if n == 0 || i+n >= len(ws) || !gap(text, ws[i+n-1], ws[i+n], false) {
		return 0, false
	}
	if !ws[i+n].is(fc, lexGivenNames) {
		if !strongIntro(k) {
			return 0, false
		}
		return unknownIntroduced(text, ws, i+n, fc)
	}
	end := i + n
	if capitalised(ws[end].text) {
		return extendName(text, ws, end, fc), true
	}
	for j := end + 1; j < len(ws) && j-(i+n) < 5 && gap(text, ws[j-1], ws[j], false); j++ {
		f := ws[j].fold(fc)
		if givenNames[string(f)] || surnames[string(f)] || patronymic(f) && !ws[j].is(fc, lexNotNames|lexAddrStop) ||
			compoundTails[string(f)] && nameParticles[string(ws[j-1].fold(fc))] {
			end = j
			continue
		}
		if !nameParticles[string(f)] {
			break
		}
	}
	if strongIntro(k) {
		end = unknownSurnameAfter(text, ws, end, fc) // "em dic biel ferragut, …"
		if e2, ok := unknownIntroduced(text, ws, i+n, fc); ok && e2 > end {
			end = e2 // "me llamo dariusz kowalczyk y …": a known given name, then a surname no list knows
		}
	}
	return end, true
}
