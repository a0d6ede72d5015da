package redact

import (
	"bytes"
	"slices"
	"strings"
)

// Round 9 of issue #13: completing the spans the rules already start. A third of the names the
// blind sets left uncovered were found in part — the span started or stopped a word too early
// ("a nombre de lurdes gonzalez [amor]", "Mrs Hyun-Joo [Park]", "[mikel]-en ama"). So:
//   - after a strong cue (me llamo, soy, a nombre de, titular, client, patient, an honorific,
//     cónyuges, herederos…) the name runs over the next words, any case and unknown words
//     included, until a stop: punctuation, a digit, a closed-class word or a common verb of the
//     language, at most four name words; particles (de, de la, i, y, mª) stay when a name follows;
//   - an honorific then any capitalised word is a name, even an everyday English word ("Mrs Wren");
//   - a found name, then y/i/e/eta/and, then a run of the same shape is a second name;
//   - a given name before a Basque case ending after a hyphen or an apostrophe ("ainhoa-ren",
//     "Josu'ren"), and a capitalised run before jauna/andrea ("Imanol Zabaleta jauna").
// Each is guarded by the decoys of the dev files: institutions, companies (a legal form after the
// run), famous people (dropped later by dropFamousInNews), law titles (no cue before them).

// r9Cues are the words after which a name runs (folded). Multi-word cues are read by their last
// word and checked backwards in r9CueStart ("a nombre de", "my name is", "em dic").
var r9Cues = words(`llamo dic chamo soy soc sou titular cotitular holder cliente clienta client customer paciente pacienta pacient patient
	pazientea gaixoa bezeroa bezeroa senor senora senyor senyora senyoreta sr sra srta mr mrs ms dr dra don dona dna miss mx
	doctor doctora doutor doutora conyuges esposos herederos herederas hereus hereves herdeiros oinordekoak heirs executors
	claimants spouses nombre is nom es
	gran grandma grandad nan nana mum mom dad mother father wife husband partner daughter son sister brother
	hija hijo marido mujer esposa esposo madre padre hermana hermano nieta nieto sobrina sobrino
	filla fill dona marit mare pare germana germa neta net muller home filha fillo irma irman nai pai`)

// r9KinCues are the kinship words among r9Cues: a name after them must be a capitalised word or a
// known given name that is no everyday word ("my gran Doreen Pickles", not "su hija mayor").
var r9KinCues = words(`gran grandma grandad nan nana mum mom dad mother father wife husband partner daughter son sister
	brother hija hijo marido mujer esposa esposo madre padre hermana hermano nieta nieto sobrina sobrino
	filla fill dona marit mare pare germana germa neta net muller home filha fillo irma irman nai pai`)

// r9Honorifics take any capitalised word after them, English everyday words included ("Dr Bell").
var r9Honorifics = words(`sr sra srta mr mrs ms dr dra don dona dna miss mx senor senora senyor senyora senyoreta doctor doctora
	doutor doutora`)

// r9Stop end a name run (folded): the closed-class words (articles, prepositions, conjunctions,
// pronouns, auxiliaries) and the common verbs and adverbs of notes in Spanish, Catalan, Galician,
// Basque and English ("quiere", "vol", "di", "da", "wants", "porfa", "també").
var r9Stop = words(`de del la las los el lo le les un una unos unas al a o u y e i en na ni que q k se su sus mi mis tu
	the a an and or of to in on at for with by from his her their my our your is are was were be been has have had
	will would can could should may must do does did not no yes also too who which that this these those he she it they
	we you him them me us
	es era fue ser esta está estaba estan están ha han he habia había hay tiene tenía tenia quiere queria quería dice
	dijo pide pidio pidió pregunta pregunto preguntó llama llamo llamó viene vino va iba ya tambien también porfa
	porfavor hoy ayer manana mañana ahora aqui aquí alli allí acude refiere necesita solicita puede debe sabe paga firma
	trae lleva sigue vive cobra reclama quiere desea y con por para sin sobre entre como cuando donde pero mas más muy
	vol diu va ve és es està esta ha han te té tenia demana pregunta truca trucat ja avui ahir dema demà també tambe amb
	per perque perquè però pero mes més molt seu seva li els ho hi aquest aquesta aquí allà encara
	di dixo quere pide ten tiña está esta foi vai vén ven xa hoxe onte mañá tamén tamen co coa cos coas polo pola
	non nin súa sua seu á ao aos ás as os
	da dira du dute zen ziren dago daude eta ere bihar gaur atzo etorri etorriko nahi du ditu dio esan deitu ez bai
	says said wants needs asks asked called rang has is was wants will can came lives works pays signed seen
	please pls today yesterday tomorrow now here there still just only
	ok vale gracias grazas gràcies merci thanks`)

// r9StopAll is every word that ends a run, in one map: r9Stop, the particles (a run's last word is
// no particle), the verbs and the identity words other rounds list after a name.
var r9StopAll = func() map[string]bool {
	m := map[string]bool{}
	for _, set := range []map[string]bool{r9Stop, r9Particles, commonVerbs, afterLowerName, speechVerbs, idWordsAfterName, r9Verbs} {
		for w := range set {
			m[w] = true
		}
	}
	return m
}()

// r9Particles join the words of one name when a name word follows them.
var r9Particles = words(`de del la las los i y e da do das dos van von der den mª ma m`)

// r9BasqueCase are the case endings Basque writes after a hyphen or apostrophe on a foreign-looking
// or spelled-out name ("ainhoa-ren", "Josu'k", "unai-rekin").
var r9BasqueCase = words(`k ek ri i ren en rekin ekin rentzat entzat rengana engana ra a ren ena rena arekin aren ri ari
	ko ren gatik rengatik`)

// r9Sir are Basque "Mr"/"Mrs" after the name, with their case endings.
var r9Sir = words(`jauna jaunak jaunari jaunaren jaunarekin jaunarentzat jaunari andrea andreak andreari andrearen
	andrearekin andreari andrearentzat`)

// r9Closed: a name over the threshold covers p and ends at the text's end or before a byte that
// is no space (a run goes on over single spaces only).
func r9Closed(spans []Span, text string, p int) bool {
	for _, sp := range spans {
		if sp.Start <= p && p < sp.End && sp.Score >= 0.5 {
			return sp.End == len(text) || text[sp.End] != ' '
		}
	}
	return false
}

// r9WordAround: the index of the word that holds byte p, or -1.
func r9WordAround(ws []word, p int) int {
	k, _ := slices.BinarySearchFunc(ws, p, func(w word, p int) int { return w.start - p })
	if k > 0 && (k == len(ws) || ws[k].start > p) {
		k--
	}
	if k < len(ws) && ws[k].start < p && p < ws[k].end {
		return k
	}
	return -1
}

// r9JoinNearEnd: a hyphen or apostrophe among t's last eight bytes, before a case ending (the
// longest, "rentzat", has seven letters); no scan of a long word.
func r9JoinNearEnd(t string) bool {
	for k := len(t) - 2; k >= 3 && k >= len(t)-8; k-- {
		if c := t[k]; c == '-' || c == '\'' {
			return true
		}
	}
	return false
}

// r9MayCase: the last letter of t may end a Basque case ending (k, n, i, a, o, t).
func r9MayCase(c byte) bool {
	return c == 'n' || c == 'k' || c == 'i' || c == 'a' || c == 'o' || c == 't'
}

// r9Kind maps a cue word to its kinds (r9K*): one lookup where four sets hold it.
const (
	r9KCue = 1 << iota
	r9KHon
	r9KKin
	r9KSir
)

var r9Kind = func() map[string]uint8 {
	m := map[string]uint8{}
	for k, set := range []map[string]bool{r9Cues, r9Honorifics, r9KinCues, r9Sir} {
		for w := range set {
			m[w] |= 1 << k
		}
	}
	return m
}()

// r9Off turns this round off, for a test that lists what it adds.
var r9Off bool

// appendNamesR9 completes and adds this round's names; out[first:] are the names found so far.
func appendNamesR9(out []Span, first int, ws []word, fc *folder, text string) []Span {
	if r9Off {
		return out
	}
	changed := false
	whole := func(s, e int) bool {
		for _, sp := range out[first:] {
			if sp.Start <= s && e <= sp.End && sp.Score >= 0.5 {
				return true
			}
		}
		return false
	}
	add := func(s, e int, score float64) {
		if whole(s, e) {
			return
		}
		for _, sp := range out[first:] {
			if sp.Start < e && s < sp.End && sp.Score >= 0.5 { // overlapping: one span over both
				s, e = min(s, sp.Start), max(e, sp.End)
			}
		}
		out = putPerson(out, first, text, s, e, score)
		changed = true
	}
	// a given name, a hyphen or apostrophe and a Basque case ending ("ainhoa-ren", "Josu'k"): read
	// from the few hyphens and apostrophes of the text, not word by word
	for _, jc := range [2]byte{'-', '\''} {
		for p := strings.IndexByte(text, jc); p > 0 && p+1 < len(text); {
			if isASCIILetterByte(text[p+1]) {
				if k := r9WordAround(ws, p); k >= 0 {
					w := &ws[k]
					if t := w.text; len(t) >= 4 && r9MayCase(t[len(t)-1]) && r9JoinNearEnd(t) {
						if e, ok := r9BasqueJoined(w, fc); ok && e == p && !inAddressToken(text, w) {
							// the name without its case ending (where an earlier rule took the whole
							// word, "Maite-rekin", it stays: the older sets label it so)
							add(w.start, e, 0.75)
						}
					}
				}
			}
			q := strings.IndexByte(text[p+1:], jc)
			if q < 0 {
				break
			}
			p += 1 + q
		}
	}
	for i := 0; i < len(ws); i++ {
		w := &ws[i]
		t := w.text
		if len(t) > 13 || !w.is(fc, lexR9Cue) {
			continue // the class is most often cached by the earlier rounds' passes: a load and a bit test
		}
		f := w.fold(fc)
		kind := r9Kind[string(f)] // one lookup for the cue's kinds
		if kind&r9KSir != 0 {
			if s, ok := r9BeforeSir(text, ws, i, fc); ok {
				add(s, ws[i-1].end, 0.75) // "Imanol Zabaleta jauna"
			}
			continue
		}
		if kind&r9KCue == 0 {
			continue
		}
		j, hon := r9CueStart(text, ws, i, f, kind&r9KHon != 0, fc)
		if j < 0 {
			continue
		}
		kin := kind&r9KKin != 0
		if kin && (capitalised(t) || !capitalised(ws[j].text) && ws[j].is(fc, lexLowerAmbiguous)) {
			continue // "Gran Canaria", "Son Espases": a kinship word capitalised is a place's
		}
		if r9Closed(out[first:], text, ws[j].start) {
			continue // a name already covers the word and ends at punctuation: nothing to complete
		}
		if end, ok := r9Run(text, ws, j, hon, !hon && !kin, kin, fc); ok {
			if !whole(ws[j].start, ws[end].end) && !companyAfter(text, ws[end].end) && !companySuffixAt(text, ws[end].end) {
				add(ws[j].start, ws[end].end, 0.75)
			}
			i = end
		}
	}
	var split [][2]int
	// a run the earlier rules carried over a conjunction into a second person's given name
	// ("Eusebio Lanza Pardo y Milagros Ochandiano"): two names, the second completed below
	for k, n := first, len(out); k < n; k++ {
		sp := out[k]
		c := r9ConjunctionAt(sp.Text)
		if c < 0 {
			continue
		}
		j := wordAtOffset(ws, sp.Start+c)
		if j < 2 || !nameWord(&ws[j], fc) || !ws[j].given(fc) || ws[j].is(fc, lexSurnames) || j < 3 {
			continue
		}
		if i0 := wordAtOffset(ws, sp.Start); i0 < 0 || i0 >= j-2 || !ws[i0].given(fc) || !capitalised(ws[i0].text) {
			continue // the left part: a given name and a surname at least ("Eusebio Lanza Pardo y Milagros…")
		}
		le := ws[j-2].end // the left name's last word
		out[k] = span(text, sp.Start, le, sp.Score, sp.Source)
		e := sp.End
		if end, ok := r9Run(text, ws, j, false, false, true, fc); ok && ws[end].end > e {
			e = ws[end].end
		}
		split = append(split, [2]int{ws[j].start, e})
		changed = true
	}
	for _, se := range split {
		out = putPerson(out, first, text, se[0], se[1], 0.8)
	}
	// a found name, y/i/e/eta/and, and a run of the same shape: "Eusebio Lanza Pardo y Milagros Ochandiano Ruiz"
	for k, n := first, len(out); k < n && k < len(out); k++ {
		sp := out[k]
		if sp.Score < 0.5 || sp.End+4 >= len(text) || text[sp.End] != ' ' {
			continue
		}
		c := text[sp.End+1:]
		var skip int
		switch {
		case strings.HasPrefix(c, "y ") || strings.HasPrefix(c, "i ") || strings.HasPrefix(c, "e ") || strings.HasPrefix(c, "& "):
			skip = 2
		case strings.HasPrefix(c, "eta ") || strings.HasPrefix(c, "and "):
			skip = 4
		default:
			continue
		}
		j := wordAtOffset(ws, sp.End+1+skip)
		if j < 0 || namedAt(out[first:], ws[j].start) {
			continue
		}
		capLeft := capitalised(sp.Text)
		b := &ws[j]
		if capLeft != capitalised(b.text) || !capLeft && !b.given(fc) {
			continue
		}
		end, ok := r9Run(text, ws, j, false, false, true, fc)
		if !ok || end == j && !b.given(fc) && !b.is(fc, lexSurnames) || strings.IndexByte(sp.Text, ' ') > 0 && end == j && !b.given(fc) {
			continue
		}
		if companyAfter(text, ws[end].end) || companySuffixAt(text, ws[end].end) {
			continue
		}
		out = putPerson(out, first, text, b.start, ws[end].end, 0.75)
		changed = true
	}
	if changed {
		slices.SortStableFunc(out[first:], func(a, b Span) int { return a.Start - b.Start })
	}
	return out
}

// r9CueStart: ws[i] (folded f) is a cue word; it returns the index of the name's first word and
// whether the cue is an honorific, or -1. Multi-word cues are checked backwards.
func r9CueStart(text string, ws []word, i int, f []byte, hon bool, fc *folder) (int, bool) {
	j := i + 1
	if j >= len(ws) {
		return -1, false
	}
	prev := func(k int, s string) bool {
		return k >= 0 && text[ws[k].end:ws[k+1].start] == " " && string(ws[k].fold(fc)) == s
	}
	switch string(f) {
	case "nombre", "nom": // "a nombre de", "a nom de"
		if !prev(i-1, "a") || string(ws[j].fold(fc)) != "de" || text[ws[i].end:ws[j].start] != " " {
			return -1, false
		}
		j++
	case "is": // "my name is"
		if !prev(i-1, "name") {
			return -1, false
		}
	case "es": // "mi nombre es"
		if !prev(i-1, "nombre") {
			return -1, false
		}
	case "llamo", "chamo":
		if !prev(i-1, "me") {
			return -1, false
		}
	case "dic":
		if !prev(i-1, "em") {
			return -1, false
		}
	case "soy", "soc", "sou": // "sóc en quim", "soy el quique"
		if j+1 < len(ws) && r8Article(ws[j].text) && text[ws[i].end:ws[j].start] == " " {
			j++
		}
	}
	if j >= len(ws) {
		return -1, false
	}
	if hon && i > 0 && capitalised(ws[i].text) && (capitalised(ws[i-1].text) && text[ws[i-1].end:ws[i].start] == " " ||
		ws[i-1].is(fc, lexStreetTypeWords|lexStreetWords|lexInstitution)) {
		return -1, false // "Avenida Doctor Fleming", "Hospital Doctor Negrín": a title inside a place's name
	}
	if !gap(text, ws[j-1], ws[j], hon) || strings.HasSuffix(text[ws[j-1].end:ws[j].start], ",") ||
		text[ws[j-1].end:ws[j].start] != " " && !hon {
		return -1, false
	}
	if g := text[ws[j-1].end:ws[j].start]; g != " " && g != ". " {
		return -1, false
	}
	return j, hon
}

// r9Run reads a name from ws[j]: its first word must be a given name (any case) or a capitalised
// name word (any capitalised word after an honorific); the run goes on over name words of the same
// case (unknown words included) and particles before a name word, and stops at a closed-class
// word, a common verb, punctuation or a digit. It returns the last word's index. loose lets a
// lower-case word no list knows start the run (after a role or an introduction, before a known
// surname); strict keeps a lower-case run to known or surname-shaped words (after a kinship word,
// after a conjunction), where no one announced a name.
func r9Run(text string, ws []word, j int, hon, loose, strict bool, fc *folder) (int, bool) {
	b := &ws[j]
	fb := b.fold(fc)
	if b.is(fc, lexCue|lexInstitution|lexCompanyWords|lexNameStop) || !lettersOnly(b.text) || r9Stop[string(fb)] {
		return 0, false
	}
	capRun := capitalised(b.text)
	switch {
	case hon && capRun:
		if afterHonorific[string(fb)] || allCaps(b.text) && len(b.text) > 1 && !b.given(fc) && !b.is(fc, lexSurnames) {
			return 0, false
		}
	case capRun:
		if !nameWord(b, fc) || b.is(fc, lexPlaces|lexNotNames) && !b.given(fc) {
			return 0, false
		}
	default:
		if b.is(fc, lexNotNames) {
			return 0, false
		}
		if !b.given(fc) {
			// a given name no list knows ("la titular encarni belmonte"): only after a role or
			// introduction cue, and only with a second name word after it
			// and a known surname, or a surname's shape, after it ("customer read out" is none)
			if !loose || !r9NameWord(text, b, false, false, fc) || notNameLower[string(fb)] || j+1 >= len(ws) ||
				text[b.end:ws[j+1].start] != " " || capitalised(ws[j+1].text) || !r9NameWord(text, &ws[j+1], false, false, fc) ||
				!ws[j+1].is(fc, lexSurnames) && !surnameShapeR8(ws[j+1].fold(fc)) && !r9HyphenSurname(ws[j+1].fold(fc)) {
				return 0, false
			}
		}
	}
	end, names := j, 1
	lone := !capRun && (ordinalWords[string(fb)] || notNameLower[string(fb)] || b.is(fc, lexLowerAmbiguous)) // "el titular segundo firma"
	for k := j + 1; k < len(ws) && names < 4; {
		if text[ws[k-1].end:ws[k].start] != " " {
			break
		}
		fk := ws[k].fold(fc)
		if r9Particles[string(fk)] && k+1 < len(ws) && (len(fk) > 1 || fk[0] != 'm' || k+1 < len(ws) && text[ws[k].end:ws[k+1].start] == ". ") {
			p := k + 1
			if r9Particles[string(ws[p].fold(fc))] && p+1 < len(ws) && text[ws[k].end:ws[p].start] == " " {
				p++ // "de la"
			}
			if text[ws[p-1].end:ws[p].start] != " " && !(r9Abbrev(fk) && text[ws[p-1].end:ws[p].start] == ". ") ||
				!r9NameWord(text, &ws[p], capRun, hon, fc) {
				break
			}
			if !capitalised(ws[p].text) && !ws[p].is(fc, lexSurnames|lexGivenNames) {
				break // "soy aitor de la ofi": after a particle, a lower-case word must be a known name
			}
			if (len(fk) == 1 && (fk[0] == 'y' || fk[0] == 'i' || fk[0] == 'e')) && (ws[p].given(fc) || !ws[p].is(fc, lexSurnames) && !capRun) {
				break // "X y Naiara": a second person, read by the coordination rule
			}
			end, names, k = p, names+1, p+1
			continue
		}
		if !r9NameWord(text, &ws[k], capRun, hon, fc) {
			break
		}
		if strict && !capitalised(ws[k].text) && !ws[k].is(fc, lexSurnames|lexGivenNames) && !surnameShapeR8(fk) && !r9HyphenSurname(fk) {
			break // "my brother danny owes": without a role or introduction, only a known or surname-shaped word
		}
		end, names, k = k, names+1, k+1
		if strings.HasSuffix(ws[end].text, "'s") {
			break
		}
	}
	if lone && end == j {
		return 0, false // a word that is also a given name, alone: left to the rules that read its context
	}
	return end, true
}

// innerLower: a lower-case letter after the first ("Sala", not "CAP").
func innerLower(t string) bool {
	for k := 1; k < len(t); k++ {
		if c := t[k]; c >= 'a' && c <= 'z' || c >= 0xC3 && k+1 < len(t) && t[k+1] >= 0xA0 {
			return true
		}
	}
	return false
}

// r9HyphenSurname: a double-barrelled surname with a known surname in it ("ruiz-tagle").
func r9HyphenSurname(f []byte) bool {
	k := bytes.IndexByte(f, '-')
	return k >= 3 && len(f)-k > 3 && (lexLookup(f[:k])&lexSurnames != 0 || lexLookup(f[k+1:])&lexSurnames != 0)
}

// r9Abbrev: Mª's abbreviations before a dot ("elena m. castañeda").
func r9Abbrev(f []byte) bool { return string(f) == "m" || string(f) == "ma" }

// r9NameWord: ws[k] can continue a name run of the given case.
func r9NameWord(text string, w *word, capRun, hon bool, fc *folder) bool {
	t := w.text
	if len(t) > 4 && t[len(t)-2:] == "'s" && (w.end == len(text) || !isWordByte(text[w.end])) {
		t = t[:len(t)-2] // "mrs pamela whitaker's son": the possessive ends the name (appendPerson drops it)
	}
	if len(t) < 2 || !lettersOnly(t) || strings.IndexByte(t, '\'') >= 0 {
		return false
	}
	f := w.fold(fc)
	if len(t) < len(w.text) {
		f = f[:len(f)-2]
	}
	if r9StopAll[string(f)] {
		return false
	}
	cls := w.class(fc)
	if cls&(lexCue|lexInstitution|lexCompanyWords|lexNameStop|lexGreeting) != 0 {
		return false
	}
	if capitalised(t) {
		if !innerLower(t) {
			return false // "Noguera del CAP": an acronym is no name's word
		}
		if hon {
			return true // "Mrs Hyun-Joo Park": after a title, an everyday word is a name too
		}
		return cls&(lexNotNames|lexPlaces) == 0 || cls&(lexGivenNames|lexSurnames) != 0
	}
	if capRun {
		return false // "Gumersindo Ledesma está…": a capitalised name ends at a lower-case word
	}
	if cls&(lexGivenNames|lexSurnames) != 0 {
		return cls&lexNotNames == 0 || cls&lexSurnames != 0
	}
	return len(t) >= 3 && cls&(lexNotNames|lexLowerAmbiguous|lexPlaces|lexLowerCues) == 0 && !verbLike(t) && !adjectiveLike(f) && !r9VerbEnding(f)
}

// r9Verbs are past forms and everyday verbs that follow a name in a note ("naceu", "lost").
var r9Verbs = words(`naceu naceo morreu pediu trouxo foi veu chamou dixo nasque nasqué nacio murio pidio trajo dejo deja dejó
	trae vive viu viene vino mor morí lost found left came went lives died born called rang paid sent gave took brought
	left signed moved needs wants asks says dob age aged anys años anos urte`)

// r9VerbEnding: a lower-case word no list knows with the ending of a past or a participle in
// Galician, Catalan, Spanish or English ("naceu", "trucat" is known, "pagado", "called").
func r9VerbEnding(f []byte) bool {
	for _, e := range r9PastEnds {
		if len(f) > len(e)+2 && bytes.HasSuffix(f, e) {
			return true
		}
	}
	return false
}

var r9PastEnds = [][]byte{[]byte("eu"), []byte("iu"), []byte("ou"), []byte("ado"), []byte("ada"), []byte("ido"), []byte("ida"),
	[]byte("ed"), []byte("ando"), []byte("endo"), []byte("aren"), []byte("ava"), []byte("ing")}

// r9BasqueJoined: w is a given name, a hyphen or apostrophe, and a Basque case ending
// ("ainhoa-ren", "Josu'k"); it returns the end of the name.
func r9BasqueJoined(w *word, fc *folder) (int, bool) {
	f := w.fold(fc)
	k := bytes.LastIndexAny(f, "-'")
	if k < 3 || k+1 >= len(f) || !r9BasqueCase[string(f[k+1:])] {
		return 0, false
	}
	if lexLookup(f[:k])&(lexGivenNames|lexPlaces|lexInstitution|lexCompanyWords|lexNotNames) != lexGivenNames {
		return 0, false
	}
	// the byte offset of the joiner in the text: the folded head's length in runes is the text's
	t := w.text
	if p := strings.LastIndexAny(t, "-'"); p > 0 {
		return w.start + p, true
	}
	return 0, false
}

// r9BeforeSir: ws[i] is jauna/andrea; the one to three capitalised name words right before it
// are the person ("Koldo Arrieta jaunak"). It returns the run's start.
func r9BeforeSir(text string, ws []word, i int, fc *folder) (int, bool) {
	s := -1
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if text[ws[k].end:ws[k+1].start] != " " || !capitalised(ws[k].text) || !nameWord(&ws[k], fc) ||
			ws[k].is(fc, lexCue|lexInstitution|lexCompanyWords|lexNameStop) {
			break
		}
		s = ws[k].start
	}
	return s, s >= 0
}

// r9ConjunctionAt: the offset in a name's text of the word after an inner " y ", " i ", " e ",
// " and ", " eta " or " & ", or -1.
func r9ConjunctionAt(s string) int {
	for p := strings.IndexByte(s, ' '); p >= 0 && p+3 < len(s); {
		q := strings.IndexByte(s[p+1:], ' ')
		if q < 0 {
			break
		}
		switch s[p+1 : p+1+q] {
		case "y", "i", "e", "and", "eta", "&":
			return p + 2 + q
		}
		p += 1 + q
	}
	return -1
}
