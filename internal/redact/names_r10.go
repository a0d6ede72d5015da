package redact

import (
	"slices"
	"strings"
)

// Round 10 of issue #13: names the earlier rounds still missed on the three newest blind sets,
// read by mechanism, not by string:
//   - SURNAMES in capitals no list knows, a comma and a given name ("KAUR, Harpreet", "SALA
//     PUIGDOMÈNECH, Carles"): the comma form of legal and clinical lists; the given name must be
//     a known one, or a capitalised word no list knows that closes the item;
//   - a known given name in lower case and one or two lower-case words no list knows after a
//     person slot ("el saldo de pilar mourelle", "a favor de nuria garbayo"): the words must not
//     be closed-class words, verbs or common words of the language, and the given name no
//     everyday word ("pilar", "rosa", "sol", "paz", "mar");
//   - a surnames field ("abizenak lertxundi zubizarreta", "apellidos: …", "cognoms …");
//   - a correction after a found name ("trigo non, trigás", "Aranburu... ez, Arandia", "not
//     Harris, Harrison"): the corrected word is a name when it shares its first two letters with
//     the word it corrects (a correction fixes a misheard or misspelled name);
//   - a handwritten list of people and their birth dates ("amparo lledo 29/12/71, …"): a known
//     given name and one or two name-shaped words right before a numeric date.
// Every name found here feeds appendRepeats, which runs after it.

// r10Off turns this round off, for a test that lists what it adds.
var r10Off bool

// r10Slot: t is a word after which a lower-case given name and surname are a person's:
// prepositions that introduce a beneficiary or an owner, and the words of a request about one.
// A switch, not a map: it is asked of every lower-case word.
func r10Slot(t string) bool {
	switch t {
	case "de", "a", "para", "con", "for", "of", "to", "with", "from", "por", "favor", "sobre":
		return true
	}
	return false
}

// r10SurnameCue: l (a word lower-cased) introduces surnames; a colon may follow.
func r10SurnameCue(l []byte) bool {
	switch string(l) {
	case "abizenak", "abizena", "apellidos", "apellido", "cognoms", "cognom", "apelidos", "apelido", "surname", "surnames":
		return true
	}
	return false
}

// r10Correct are the words of a correction after a misheard name (folded).
var r10Correct = words(`no non ez not sorry perdon perdona vamos digo quiero bueno`)

// r10Stop are everyday words of the five languages, no list of the earlier rounds holds, that
// follow a lower-case given name in a note and are no surname (folded): Basque auxiliaries and
// adverbs ("ainhoa naiz", "mikel dago"), chat words and adverbs of Spanish, Catalan, Galician and
// English.
var r10Stop = words(`naiz zara gara zarete dira nintzen ginen nago zaude gaude daude dut duzu dugu dituzu ditugu nuen zuen
	zuten ditut ditu dizut diot dio zait zaio zaizu ere baita baina edo orain gero oso beti ondo ba bai ezta
	xq pq porque tb tmb luego despues después antes siempre nunca todavia todavía aun aún ok okey vale pues
	doncs despres després abans sempre mai encara llavors
	logo despois sempre nunca ainda aínda entón enton
	again later then too also right said says asked today tonight soon`)

// appendNamesR10 adds this round's names; out[first:] are the names found so far, in text order.
func appendNamesR10(out []Span, first int, ws []word, fc *folder, text string) []Span {
	if r10Off {
		return out
	}
	changed := false
	add := func(s, e int, score float64) {
		for _, sp := range out[first:] {
			if sp.Start <= s && e <= sp.End && sp.Score >= 0.5 {
				return
			}
		}
		for _, sp := range out[first:] {
			if sp.Start < e && s < sp.End && sp.Score >= 0.5 {
				s, e = min(s, sp.Start), max(e, sp.End)
			}
		}
		out = putPerson(out, first, text, s, e, score)
		changed = true
	}
	// a list of people noted with their dates: the pairs whose given name no list knows wait
	// until a pair with a known one shows the list is one of people ("olwen davies 12/12/47; …")
	var pairs [8]int
	nPairs, listed := 0, 0
	// one pass over the words, dispatched on the byte after each word: most words are followed by
	// a space and fail the first byte test of every branch
	for i := range ws {
		w := &ws[i]
		t := w.text
		if w.end+2 >= len(text) {
			continue
		}
		switch text[w.end] {
		case ',':
			if text[w.end+1] == ' ' && len(t) >= 2 && (t[0] >= 'A' && t[0] <= 'Z' || t[0] >= 0xC3) {
				if s, e, ok := r10CapsComma(text, ws, i, fc); ok {
					add(s, e, 0.8)
				}
			} else if i > 0 && r10CapsFirst(t[0]) && r10CapsNear(text, ws, i) {
				if s, e, ok := r10HonorificCaps(text, ws, i, fc); ok {
					add(s, e, 0.8) // "KARMELE OTXOA andrea, NAN …"
					out = r10DropSir(out, first, w, fc)
				}
			}
		case ':':
			if len(t) >= 6 && len(t) <= 9 && i+1 < len(ws) && len(fc.lower) == len(text) && r10SurnameCue(fc.lower[w.start:w.end]) {
				if e, ok := r10SurnameField(text, ws, i+1, fc); ok {
					add(ws[i+1].start, e, 0.75)
				}
			}
		case ' ', '.':
			if r10CapsFirst(t[0]) && r10CapsNear(text, ws, i) {
				// an honorific and a name in capitals after it ("la señora OSSA RESTREPO"), or a
				// name in capitals before the Basque jauna/andrea ("KARMELE OTXOA andrea")
				if s, e, ok := r10HonorificCaps(text, ws, i, fc); ok {
					add(s, e, 0.8)
					out = r10DropSir(out, first, w, fc)
					continue
				}
			}
			if text[w.end] == '.' {
				continue
			}
			switch c := text[w.end+1]; {
			case c >= '0' && c <= '9':
				if !r10NumericDate(text, w.end+1) {
					break // most figures after a word are no date ("al 943…", "de 2.340")
				}
				if s, ok := r10BeforeListDate(text, ws, i, fc); ok {
					add(s, w.end, 0.7)
					listed++
				} else if nPairs < len(pairs) && i > 0 && r10ListPair(text, ws, i, fc) {
					pairs[nPairs] = i
					nPairs++
				}
			case t[0] >= 'a' && t[0] <= 'z' && len(t) <= 5:
				if r10Slot(t) && i+1 < len(ws) && ws[i+1].start == w.end+1 {
					if e, ok := r10SlotName(text, ws, i+1, fc); ok {
						add(ws[i+1].start, e, 0.7)
					}
				}
			case len(t) >= 6 && len(t) <= 9 && (t[0]|0x20 == 'a' || t[0]|0x20 == 'c' || t[0]|0x20 == 's') && i+1 < len(ws) && len(fc.lower) == len(text) && r10SurnameCue(fc.lower[w.start:w.end]):
				if e, ok := r10SurnameField(text, ws, i+1, fc); ok {
					add(ws[i+1].start, e, 0.75)
				}
			}
		}
	}
	if listed > 0 {
		for _, i := range pairs[:nPairs] {
			add(ws[i-1].start, ws[i].end, 0.65)
		}
	}
	// a found lower-case given name alone, then a surname no list knows before punctuation
	// ("jules - julien marchand -", "iñigo da, iñigo salaberria,", "el saldo de pilar mourelle?")
	var lone [4]string
	nl := 0
	for k := first; k < len(out) && nl < len(lone); k++ {
		if sp := out[k]; sp.Score >= 0.5 && sp.Text != "" && !capitalised(sp.Text) && strings.IndexByte(sp.Text, ' ') < 0 {
			lone[nl] = sp.Text
			nl++
		}
	}
	// each lone name's occurrences are found with an index search, not by reading every word
	var at [16]int
	na := 0
	for _, name := range lone[:nl] {
		for off := 0; na < len(at); {
			q := strings.Index(text[off:], name)
			if q < 0 {
				break
			}
			q += off
			off = q + len(name)
			if g := wordAtOffset(ws, q); g >= 0 && ws[g].end == off && !slices.Contains(at[:na], g) {
				at[na] = g
				na++
			}
		}
	}
	slices.Sort(at[:na])
	for _, gi := range at[:na] {
		j := gi + 1
		if j >= len(ws) {
			continue
		}
		g := &ws[gi]
		if g.end+1 != ws[j].start || text[g.end] != ' ' || !g.given(fc) || namedAt(out[first:], ws[j].start) {
			continue
		}
		x := &ws[j]
		if !r10LowerNameWord(text, x, fc) || x.is(fc, lexGivenNames) {
			continue
		}
		fx := x.fold(fc)
		if r8NotSurnames[string(fx)] {
			continue // "marta completa el formulario": a verb with a surname's shape
		}
		surname := x.is(fc, lexSurnames) || surnameShapeR8(fx)
		closes := x.end == len(text) || strings.IndexByte(",.;:?!)-", text[x.end]) >= 0 || strings.HasPrefix(text[x.end:], " -") || strings.HasPrefix(text[x.end:], " (") ||
			surname && j+1 < len(ws) && text[x.end:ws[j+1].start] == " " && r9Stop[string(ws[j+1].fold(fc))] // "itziar garmendia dice"
		if !closes || !surname && x.class(fc) != 0 {
			continue
		}
		add(g.start, x.end, 0.7) // a repeat of the name too ("iñigo da, iñigo salaberria")
	}
	// corrections: read from the found names (few), not word by word
	for k, n := first, len(out); k < n && k < len(out); k++ { // add may merge spans: out can shrink
		if sp := &out[k]; sp.Score >= 0.5 && r10CorrectionStart(text, sp.End) {
			if s, e, ok := r10Correction(text, ws, *sp, fc); ok {
				add(s, e, 0.75)
				if g, e2 := r10GivenAndAgain(text, ws, e, fc); g > 0 {
					add(g, e2, 0.75) // "trigás, rosalía trigás": the corrected surname said again with its given name
				}
			}
		}
	}
	if changed {
		slices.SortStableFunc(out[first:], func(a, b Span) int { return a.Start - b.Start })
	}
	return out
}

// r10CapsWord: a word in capitals of two letters or more that may be a surname ("KAUR",
// "PUIGDOMÈNECH", "SALA"): no company, institution, cue or greeting word.
func r10CapsWord(w *word, fc *folder) bool {
	t := w.text
	if len(t) < 2 || !allCaps(t) || !lettersOnly(t) {
		return false
	}
	return w.class(fc)&(lexCompanyWords|lexInstitution|lexCue|lexGreeting|lexNameStop|lexStreetTypeWords) == 0
}

// r10CapsComma: ws[i] ends a run of one to three words in capitals, then ", " and a given name:
// "KAUR, Harpreet", "SALA PUIGDOMÈNECH, Carles", "OYELARAN ADEYEMI, Folake". It returns the
// span. The given name is a known one, or a capitalised word no list knows that closes the list
// item (a comma, a semicolon, a bracket, a dash or the line's end after it) — not "MADRID,
// Spain", "BANCO SANTANDER, S.A.", "HECHOS, Primero".
func r10CapsComma(text string, ws []word, i int, fc *folder) (int, int, bool) {
	if i+1 >= len(ws) || text[ws[i].end:ws[i+1].start] != ", " || !r10CapsWord(&ws[i], fc) {
		return 0, 0, false
	}
	s := i
	for s > 0 && i-s < 3 && text[ws[s-1].end:ws[s].start] == " " && (r10CapsWord(&ws[s-1], fc) || capsParticles[string(ws[s-1].fold(fc))] && allCaps(ws[s-1].text)) {
		s--
	}
	for s < i && capsParticles[string(ws[s].fold(fc))] {
		s++
	}
	if p := ws[s].start; p > 0 && (isWordByte(text[p-1]) || text[p-1] == '-' || text[p-1] == '/' || text[p-1] == '.') {
		return 0, 0, false
	}
	if p := ws[s].start; p > 1 && text[p-1] == ' ' && isDigitByte(text[p-2]) {
		return 0, 0, false // "Article 17 GDPR, …": a law's or a product's code
	}
	if s > 0 && text[ws[s-1].end:ws[s].start] == " " && allCaps(ws[s-1].text) {
		return 0, 0, false // a longer run in capitals: a heading or a company's name
	}
	if s > 0 && placeOf[string(ws[s-1].fold(fc))] {
		return 0, 0, false // "sucursal VALENCIA, Ruzafa": an office and its district
	}
	g := &ws[i+1]
	known, long := false, false
	for k := s; k <= i; k++ {
		c := ws[k].class(fc)
		if c&lexPlaces != 0 && (c&lexSurnames == 0 || !g.given(fc)) {
			return 0, 0, false // "MADRID, Spain", "BARCELONA, Espanya", "VALENCIA, Ruzafa"
		}
		known = known || c&lexSurnames != 0
		long = long || len(ws[k].text) >= 4
	}
	if !capitalised(g.text) || allCaps(g.text) || innerCapital(g.text) || !lettersOnly(g.text) || len(g.text) < 3 {
		return 0, 0, false
	}
	gc := g.class(fc)
	if gc&(lexCue|lexInstitution|lexCompanyWords|lexNameStop|lexGreeting) != 0 {
		return 0, 0, false
	}
	end := i + 1
	if !g.given(fc) {
		if gc&(lexNotNames|lexPlaces) != 0 || !long && !known {
			return 0, 0, false
		}
		e := g.end
		if end+1 < len(ws) && text[g.end:ws[end+1].start] == " " && capitalised(ws[end+1].text) && !allCaps(ws[end+1].text) &&
			ws[end+1].class(fc)&(lexNotNames|lexPlaces|lexCue|lexInstitution|lexCompanyWords) == 0 {
			end++ // "NGUYEN, Thi Lan"
			e = ws[end].end
		}
		if e < len(text) && !strings.ContainsRune(",;)\n—–-", rune(text[e])) && !strings.HasPrefix(text[e:], " —") && !strings.HasPrefix(text[e:], " -") &&
			!strings.HasPrefix(text[e:], " (") && !strings.HasPrefix(text[e:], " bay") {
			return 0, 0, false
		}
	} else if end+1 < len(ws) && text[g.end:ws[end+1].start] == " " && capitalised(ws[end+1].text) {
		if !ws[end+1].given(fc) {
			return 0, 0, false // "Under Article 17 GDPR, Nathaniel Brooks asks": a whole name after the comma
		}
		end++ // "Juan Carlos"
	}
	if companyAfter(text, ws[end].end) || companySuffixAt(text, ws[end].end) {
		return 0, 0, false
	}
	return ws[s].start, ws[end].end, true
}

// r10LowerNameWord: a lower-case word no list knows, or a known surname, that may be a surname
// after a given name ("mourelle", "quintairos", "brañas"): not a closed-class word, a verb, an
// adjective or any everyday word a list knows.
func r10LowerNameWord(text string, w *word, fc *folder) bool {
	t := w.text
	if len(t) < 3 || capitalised(t) || !lettersOnly(t) || strings.IndexByte(t, '\'') >= 0 {
		return false
	}
	c := w.class(fc)
	if c&lexSurnames != 0 && c&(lexCue|lexInstitution|lexCompanyWords|lexNameStop) == 0 && !r9StopAll[string(w.fold(fc))] {
		return true
	}
	f := w.fold(fc)
	return r9NameWord(text, w, false, false, fc) && c&lexGivenNames == 0 && !notNameLower[string(f)] && !r10Stop[string(f)] && !r8NotSurnames[string(f)]
}

// r10SlotName: ws[j] (after a person slot) is a known lower-case given name, no everyday word,
// and one or two lower-case surname words follow; it returns the end of the last.
func r10SlotName(text string, ws []word, j int, fc *folder) (int, bool) {
	g := &ws[j]
	if len(g.text) < 3 || g.text[0] < 'a' && g.text[0] < 0x80 || j+1 >= len(ws) || ws[j+1].start != g.end+1 || len(ws[j+1].text) < 3 ||
		ws[j+1].text[0] < 'a' && ws[j+1].text[0] < 0x80 {
		return 0, false // byte tests first: two lower-case words of three letters or more, one space apart
	}
	if capitalised(g.text) || !g.given(fc) || g.is(fc, lexLowerAmbiguous|lexNotNames|lexPlaces|lexCue|lexNameStop) ||
		notNameLower[string(g.fold(fc))] || lowerNever[string(g.fold(fc))] || j+1 >= len(ws) || text[g.end:ws[j+1].start] != " " {
		return 0, false
	}
	if !r10LowerNameWord(text, &ws[j+1], fc) || ws[j+1].is(fc, lexGivenNames) {
		return 0, false
	}
	end := j + 1
	if end+1 < len(ws) && text[ws[end].end:ws[end+1].start] == " " && r10LowerNameWord(text, &ws[end+1], fc) &&
		(ws[end+1].is(fc, lexSurnames) || surnameShapeR8(ws[end+1].fold(fc))) {
		end++
	}
	return ws[end].end, true
}

// r10SurnameField: the one or two words after a surnames cue (and a colon), any case: the
// person's surnames ("abizenak lertxundi zubizarreta", "Apellidos: Olmedo Rius").
func r10SurnameField(text string, ws []word, j int, fc *folder) (int, bool) {
	g := text[ws[j-1].end:ws[j].start]
	if g != " " && g != ": " && g != ":" && g != " : " {
		return 0, false
	}
	ok := func(w *word) bool {
		t := w.text
		if len(t) < 3 || !lettersOnly(t) || r9StopAll[string(w.fold(fc))] || w.is(fc, lexCue|lexInstitution|lexCompanyWords|lexNameStop) {
			return false
		}
		return capitalised(t) || w.is(fc, lexSurnames) || r10LowerNameWord(text, w, fc)
	}
	if !ok(&ws[j]) {
		return 0, false
	}
	end := j
	if j+1 < len(ws) && text[ws[j].end:ws[j+1].start] == " " && ok(&ws[j+1]) {
		end = j + 1
	}
	return ws[end].end, true
}

// r10BeforeListDate: ws[i] is followed by a space and a numeric date (d/m/yy or d/m/yyyy,
// r10NumericDate, tested by the caller): if ws[i-1] (or ws[i-2]) is a known given name with one or two name
// words after it, those words are a person noted with a date ("amparo lledo 29/12/71"). It
// returns the name's start.
func r10BeforeListDate(text string, ws []word, i int, fc *folder) (int, bool) {
	for _, g := range [2]int{i - 1, i - 2} {
		if g < 0 || !ws[g].given(fc) || ws[g].is(fc, lexCue|lexNameStop|lexInstitution|lexPlaces) {
			continue
		}
		if p := ws[g].start; p > 0 && isWordByte(text[p-1]) {
			continue
		}
		lower := !capitalised(ws[g].text)
		ok := true
		for k := g + 1; k <= i; k++ {
			if text[ws[k-1].end:ws[k].start] != " " {
				ok = false
				break
			}
			w := &ws[k]
			if lower && !r10LowerNameWord(text, w, fc) && !(w.given(fc) && !w.is(fc, lexNotNames)) ||
				!lower && (!capitalised(w.text) || !nameWord(w, fc)) {
				ok = false
				break
			}
		}
		if ok {
			return ws[g].start, true
		}
	}
	return 0, false
}

// r10NumericDate: a date d/m/yy or d/m/yyyy ('/', '.' or '-') starts at i and ends there.
func r10NumericDate(text string, i int) bool {
	n := func(k, lo, hi int) int {
		j := k
		for j < len(text) && j-k < hi && isDigitByte(text[j]) {
			j++
		}
		if j-k < lo || j < len(text) && isDigitByte(text[j]) {
			return -1
		}
		return j
	}
	a := n(i, 1, 2)
	if a < 0 || a >= len(text) || text[a] != '/' && text[a] != '.' && text[a] != '-' {
		return false
	}
	b := n(a+1, 1, 2)
	if b < 0 || b >= len(text) || text[b] != text[a] {
		return false
	}
	c := n(b+1, 2, 4)
	if c < 0 || c-b-1 == 3 {
		return false
	}
	return c == len(text) || !isWordByte(text[c]) && text[c] != '/'
}

// r10Correction: after a found name sp, a correction ("… no, X", "… non, X", "... ez, X",
// "not Harris, X") whose word X shares its first two letters with the name's last word: X is a
// surname (with a given name and X again right after: "trigás, rosalía trigás"). It returns the
// corrected span.
func r10Correction(text string, ws []word, sp Span, fc *folder) (int, int, bool) {
	if sp.End+6 > len(text) || !r10CorrectionNear(text[sp.End:min(len(text), sp.End+20)]) {
		return 0, 0, false // most names: no correction word in the next bytes
	}
	k := r10WordEndingAt(ws, sp.End)
	if k < 0 {
		return 0, 0, false
	}
	last := ws[k].fold(fc)
	if len(last) < 3 {
		return 0, 0, false
	}
	// up to five words after the name: the name's word again, correction words, articles, then X
	j := k + 1
	sawCorr := false
	for n := 0; n < 5 && j < len(ws); n++ {
		g := text[ws[j-1].end:ws[j].start]
		if len(g) > 6 || strings.ContainsAny(g, "\n0123456789") {
			return 0, 0, false
		}
		f := ws[j].fold(fc)
		switch {
		case r10Correct[string(f)]:
			sawCorr = true
			j++
			continue
		case string(f) == string(last) || r8Article(ws[j].text):
			j++
			continue
		}
		break
	}
	if !sawCorr || j >= len(ws) || namedAt([]Span{sp}, ws[j].start) {
		return 0, 0, false
	}
	g := text[ws[j-1].end:ws[j].start]
	if !strings.Contains(g, ",") && !strings.HasSuffix(g, ". ") && g != " " {
		return 0, 0, false
	}
	x := &ws[j]
	fx := x.fold(fc)
	if len(fx) < 3 || fx[0] != last[0] || fx[1] != last[1] || string(fx) == string(last) || !lettersOnly(x.text) ||
		r9StopAll[string(fx)] || x.is(fc, lexCue|lexInstitution|lexCompanyWords|lexNameStop|lexNotNames) {
		return 0, 0, false
	}
	if capitalised(ws[k].text) != capitalised(x.text) && !allCaps(ws[k].text) {
		return 0, 0, false
	}
	return x.start, x.end, true
}

// r10GivenAndAgain: after a corrected surname ending at e, ", " a given name and the same surname
// again ("trigás, rosalía trigás"); the pair's span, or 0.
func r10GivenAndAgain(text string, ws []word, e int, fc *folder) (int, int) {
	k := r10WordEndingAt(ws, e)
	if k < 0 || k+2 >= len(ws) || text[ws[k].end:ws[k+1].start] != ", " || text[ws[k+1].end:ws[k+2].start] != " " {
		return 0, 0
	}
	if !ws[k+1].given(fc) || string(ws[k+2].fold(fc)) != string(ws[k].fold(fc)) {
		return 0, 0
	}
	return ws[k+1].start, ws[k+2].end
}

// r10WordEndingAt: the index of the word that ends at byte e, or -1.
func r10WordEndingAt(ws []word, e int) int {
	k, _ := slices.BinarySearchFunc(ws, e, func(w word, e int) int { return w.start - e })
	if k > 0 && ws[k-1].end == e {
		return k - 1
	}
	return -1
}

// r10CorrectionStart: what follows a name ending at e may open a correction: a dot or an ellipsis
// ("vidal... no,"), a question mark ("Aranda? no,"), a comma, a dash, or a space and "no"/"ez"/"not" — a byte test on most names.
func r10CorrectionStart(text string, e int) bool {
	if e+3 >= len(text) {
		return false
	}
	switch text[e] {
	case '.', ',', '?', '!', 0xE2: // "…", "—", "–"; "Sr. Aranda? no, Arancibia"
		return true
	case ' ':
		c, d := text[e+1]|0x20, text[e+2]|0x20
		return c == 'n' && d == 'o' || c == 'e' && d == 'z' || text[e+1] == '-' || text[e+1] == 0xE2
	}
	return false
}

// r10CorrectionNear: s (the bytes after a name) holds " no", " ez", "sorry" or "perd" — a byte
// test before any word of a correction is folded.
func r10CorrectionNear(s string) bool {
	for k := 0; k+3 <= len(s); k++ {
		switch s[k] | 0x20 {
		case 'n':
			if k > 0 && s[k-1] == ' ' && s[k+1]|0x20 == 'o' {
				return true
			}
		case 'e':
			if k > 0 && s[k-1] == ' ' && s[k+1]|0x20 == 'z' {
				return true
			}
		case 's':
			if s[k+1]|0x20 == 'o' && s[k+2]|0x20 == 'r' {
				return true
			}
		case 'p':
			if s[k+1]|0x20 == 'e' && s[k+2]|0x20 == 'r' {
				return true
			}
		}
	}
	return false
}

// r10CapsNear: ws[i] may be an honorific with a word in capitals after it, or jauna/andrea with
// one before it — byte tests on the text around the word (its length, its first letter, the two
// letters across the space), before ws[i] is folded and looked up.
func r10CapsNear(text string, ws []word, i int) bool {
	w := &ws[i]
	t := w.text
	upper := func(k int) bool {
		return k >= 0 && k+1 < len(text) && text[k] >= 'A' && text[k] <= 'Z' && text[k+1] >= 'A' && text[k+1] <= 'Z'
	}
	switch t[0] | 0x20 {
	case 's', 'd', 'm', 'h', 'f': // the first letters of the honorifics (sr … senyoreta, herr, frau)
		if len(t) > 9 {
			return false
		}
		n := w.end + 1
		if text[w.end] == '.' {
			n++
		}
		return upper(n)
	case 'j', 'a':
		return len(t) >= 5 && len(t) <= 12 && w.start >= 3 && text[w.start-1] == ' ' && upper(w.start-3)
	}
	return false
}

// r10CapsFirst: c, a word's first byte, is one r10CapsNear reads further (s, d, m, h, f, j, a,
// either case) — a test small enough to inline before the call most words would make in vain.
func r10CapsFirst(c byte) bool {
	c |= 0x20
	return c == 's' || c == 'd' || c == 'm' || c == 'h' || c == 'f' || c == 'j' || c == 'a'
}

// r10HonorificCaps: ws[i] is an honorific and one to three words in capitals follow it ("la
// señora OSSA RESTREPO", "Sr. D. …"), or ws[i] is jauna/andrea and they stand before it
// ("KARMELE OTXOA andrea"): a name, when two words or a known name — not an acronym ("la Sra.
// DNI"): each word has a vowel and three letters or more.
func r10HonorificCaps(text string, ws []word, i int, fc *folder) (int, int, bool) {
	f := ws[i].fold(fc)
	hon, sir := r10Honorific(string(f)), r9Sir[string(f)]
	word := func(k int) bool {
		w := &ws[k]
		if len(w.text) < 3 || !r10CapsWord(w, fc) {
			return false
		}
		for _, c := range []byte(w.text) {
			switch c {
			case 'A', 'E', 'I', 'O', 'U', 0xC3:
				return true
			}
		}
		return false
	}
	s, e := -1, -1
	switch {
	case hon && i+1 < len(ws) && word(i+1):
		if g := text[ws[i].end:ws[i+1].start]; g != " " && g != ". " {
			return 0, 0, false
		}
		s, e = i+1, i+1
		for e+1 < len(ws) && e-s < 2 && text[ws[e].end:ws[e+1].start] == " " && word(e+1) {
			e++
		}
		if e+1 < len(ws) && text[ws[e].end:ws[e+1].start] == " " && allCaps(ws[e+1].text) {
			return 0, 0, false // a longer run in capitals: a heading, a company
		}
	case sir && i > 0 && word(i-1) && text[ws[i-1].end:ws[i].start] == " ":
		s, e = i-1, i-1
		for s > 0 && e-s < 2 && text[ws[s-1].end:ws[s].start] == " " && word(s-1) {
			s--
		}
	default:
		return 0, 0, false
	}
	if s == e && ws[s].class(fc)&(lexSurnames|lexGivenNames) == 0 {
		return 0, 0, false
	}
	if companyAfter(text, ws[e].end) || companySuffixAt(text, ws[e].end) {
		return 0, 0, false
	}
	return ws[s].start, ws[e].end, true
}

// r10Honorific: f (folded) is a title before a name — the honorifics names_r4 reads, and doña
// typed without its ñ ("dona", "dna"; only before a name in capitals, so Catalan "dona" is safe).
func r10Honorific(f string) bool {
	return honorifics[f] || f == "dona" || f == "dna"
}

// r10DropSir: once a name in capitals is read before the Basque jauna/andrea, the title itself is
// no name ("andrea" is also a given name elsewhere): a span over that word alone is dropped.
func r10DropSir(out []Span, first int, w *word, fc *folder) []Span {
	if w.text[0] >= 'A' && w.text[0] <= 'Z' {
		return out // "Andrea" capitalised may still be the given name
	}
	k := first
	for _, sp := range out[first:] {
		if sp.Start == w.start && sp.End == w.end {
			continue
		}
		out[k] = sp
		k++
	}
	return out[:k]
}

// r10ListPair: ws[i-1] and ws[i], before a numeric date (tested by the caller), are two name-shaped words of the same case
// (lower-case words no list knows as everyday words, or capitalised name words) right after a list
// separator (a line's start, ", ", "; ", ": ", "- "): a person noted with a date, when the list
// holds a known person too.
func r10ListPair(text string, ws []word, i int, fc *folder) bool {
	if text[ws[i-1].end:ws[i].start] != " " || !r10BirthYearDate(text, ws[i].end+1) {
		return false
	}
	a, b := &ws[i-1], &ws[i]
	if capitalised(a.text) != capitalised(b.text) {
		return false
	}
	if capitalised(a.text) {
		if !nameWord(a, fc) || !nameWord(b, fc) || allCaps(a.text) || allCaps(b.text) {
			return false
		}
	} else if !r10LowerNameWord(text, a, fc) || !r10LowerNameWord(text, b, fc) {
		return false
	}
	p := a.start
	for p > 0 && text[p-1] == ' ' {
		p--
	}
	if p == 0 || text[p-1] == '\n' {
		return true
	}
	c := text[p-1]
	return c == ',' || c == ';' || c == ':' || c == '-' || c == '\t'
}

// r10BirthYearDate: the numeric date at i (r10NumericDate) has a year of birth: two figures from
// 30 to 99, or four from 1900 to 2010 — not "recibo agua 14/03/26", an appointment or a bill.
func r10BirthYearDate(text string, i int) bool {
	e := i
	for e < len(text) && (isDigitByte(text[e]) || text[e] == '/' || text[e] == '.' || text[e] == '-') && e-i < 10 {
		e++
	}
	for e > i && !isDigitByte(text[e-1]) {
		e--
	}
	k := e
	for k > i && isDigitByte(text[k-1]) {
		k--
	}
	switch y := atoi(text[k:e]); e - k {
	case 2:
		return y >= 30
	case 4:
		return y >= 1900 && y <= 2010
	}
	return false
}
