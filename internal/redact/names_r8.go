package redact

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// Round 8 of issue #13: families of name forms, each read with a byte test before any lookup —
//   - a Basque case ending glued to a given name in any case ("josuneren", "unaik", "Garazirekin");
//   - the Catalan elided article before a lower-case given name ("l'eudald"), and a personal article
//     before a name that is also a word when a kinship word marks it ("la seva dona, la rosa, …");
//   - a surname no list knows after a found given name, read by its shape (Basque -etxea, Catalan
//     puig-, Polish -ski, English Mc-, -worth…) and never a sentence's word ("jordi puigdemunt");
//   - a user name shaped like a name after "usuario", "login", "acceso de" ("m.cifuentes", "jlopez");
//   - the value of a form key for a person ("Ordenant:", "Payer:", "Deutor:") in any case, particles
//     and an inverted given name included ("SALA I VERDAGUER, Montse");
//   - the answer to a name question in a dialogue ("¿Apellido? - Goikoetxea.", "Izena? Ane.");
//   - a nickname in quotes between a given name and a surname ("Margaret (\"Peggy\") Ellison");
// and it drops, for precision, the names inside a health centre's or a public service's name ("CAP
// Sagrada Família", "Servicio Madrileño de Salud") or a law firm after "Despacho".

// r8Cues are the words a rule of this round starts from (lexR8Cue): handle cues, person form keys,
// name questions and kinship words.
var r8HandleCues = words(`usuario usuaria usuari user username login operador operator erabiltzailea utilizador
	acceso access acces conexion connexio sesion edited modified created editado modificado creado editat modificat creat`)

// r8PersonKeys start a form key whose value is a person ("Ordenante:", "Account holder:").
var r8PersonKeys = words(`ordenante ordenant ordenanta beneficiario beneficiaria beneficiari deutor deutora deudor deudora
	debtor payer payee titular titulares holder pacient paciente patient arrendatario arrendataria arrendatari
	inquilino inquilina llogater tenant testigo testimoni witness demandado demandada demandante demandant
	avalista fiador guarantor remitente remitent sender destinatario destinatari recipient account
	tomador asegurado assegurat insured solicitante sol·licitant applicant causante heredero hereu
	ordenatzailea onuraduna zordun gaixoa bezeroa`)

// r8KeyRest are the words a person key may hold after its first ("Titular del compte:", "Apellidos y
// nombre:", "Account holder name:").
var r8KeyRest = words(`del de la da do i y e eta and holder name names nombre nom nome izena apellidos apellido cognoms
	cognom apelidos apelido abizenak abizena compte cuenta conta account completo complet completo full
	principal primer segundo segon 1 2 cuenta`)

// r8NameQuestions are the nouns of a dialogue's name question ("¿Nombre? - Maite.").
var r8NameQuestions = words(`nombre apellido apellidos name surname izena abizena abizenak nom cognom cognoms nome apelido
	apelidos`)

// r8NotAnswers are a dialogue's answers that are no name.
var r8NotAnswers = words(`si sí no yes yeah nope bai ez vale ok okay perdon perdona sorry what que qué com como how
	pardon eh claro clar ben bien soy i'm im me em`)

// selfIntro: f (folded) is "I am" before a personal article and a name ("sóc la fina", "soy el
// quique", Galician "son a uxía").
func selfIntro(f []byte) bool {
	switch string(f) {
	case "soy", "soc", "son", "sou":
		return true
	}
	return false
}

// r8NickIntro come before a nickname and the full name in brackets ("it's bex (rebecca holloway)").
var r8NickIntro = words(`its it's is soy sóc soc es és called llamo dic name nombre nom`)

// r8Kin are the kinship words before ", la rosa,": a name that is also a word only with them.
var r8Kin = words(`dona marit home muller mujer esposa esposo marido wife husband filla fill hija hijo filha fillo
	germana germà hermana hermano irmá irmán mare pare madre padre nai pai sogra suegra sogre suegro
	neta net nieta nieto cunyada cuñada jefa socia mother father daughter son sister brother mum mom dad
	tutor tutora`)

// r8Heads are the heads of health centres, public services and law firms whose next capitalised
// words are no person ("CAP Sagrada Família", "Servicio Madrileño de Salud", "Despacho Garrigues").
// The acronyms count only in capitals.
var r8Heads = words(`servicio servei servizo despacho despatx cap cs abs pac cuap eap ceip ies cea cap
	ambulatori consultori`)

// appendNamesR8 appends this round's names; out[first:] are the names found so far, in text order,
// and stay so.
func appendNamesR8(out []Span, first int, ws []word, fc *folder, text string) []Span {
	n0 := len(out)
	changed := false
	add := func(s, e int, score float64) {
		if !namedAt(out[first:], s) || !namedAt(out[first:], e-1) {
			out = putPerson(out, first, text, s, e, score)
			changed = true
		}
	}
	for i := 0; i < len(ws); i++ {
		w := &ws[i]
		t := w.text
		c0 := t[0]
		var nb byte = '\n'
		if w.end < len(text) {
			nb = text[w.end]
		}
		switch {
		case len(t) >= 5 && (c0 >= 'a' && c0 <= 'z' || c0 >= 'A' && c0 <= 'Z') && basqueEnd(t) && nb != '-' && nb != '\'' && t[1] != '\'' &&
			(w.ascii || w.latin1) && basqueCaseGiven(w.fold(fc), capitalised(t)) > 0 && w.class(fc)&^lexR9Cue == 0:
			// "josuneren", "unaik", "Garazirekin": a given name with a Basque case ending
			if !inAddressToken(text, w) {
				add(w.start, w.end, 0.7)
			}
		case len(t) > 3 && t[1] == '\'' && (c0 == 'l' || c0 == 'd') && t[2] >= 'a' && t[2] <= 'z':
			// "l'eudald", "la mare d'iker": the elided article before a lower-case given name
			f := w.fold(fc)
			cls := lexLookup(f[2:])
			if cls&(lexGivenNames|lexPlaces|lexInstitution|lexNotNames|lexLowerAmbiguous|lexCue) == lexGivenNames &&
				len(f) >= 5 && (nb == ' ' || nb == ',' || nb == '.' || nb == ')' || nb == '\n') {
				add(w.start+2, w.end, 0.7)
			} else if cls&lexR8Cue != 0 && r8HandleCues[string(f[2:])] {
				if s, e, ok := handleAfter(text, ws, i, fc); ok {
					add(s, e, 0.75) // "l'usuari jordi.batlle"
				}
			}
		case c0 >= 'a' && c0 <= 'z' && i >= 2 && nb == ',' && len(t) >= 3 && w.is(fc, lexLowerAmbiguous) && w.is(fc, lexGivenNames):
			// "la seva dona, la rosa, és …": a name that is also a word, between commas after a kinship word
			if a := &ws[i-1]; len(a.text) <= 2 && r8Article(a.text) && gap(text, *a, *w, false) && a.start >= 2 && text[a.start-2:a.start] == ", " {
				for k := i - 2; k >= 0 && k >= i-4; k-- {
					if r8Kin[string(ws[k].fold(fc))] {
						add(w.start, w.end, 0.7)
						break
					}
				}
			}
		case (nb == ' ' || nb == ':' || nb == '=') && w.is(fc, lexR8Cue):
			f := w.fold(fc)
			if nb == ':' && (r8PersonKeys[string(f)] || nameFieldKeys[string(f)] || r8KeyRest[string(f)]) {
				if s, e, ok := personKeyValue(text, ws, i, fc); ok {
					add(s, e, 0.8) // "Ordenant: JOAQUIM ROVIRA SALA", "Payer: okafor chinedu"
					continue
				}
			}
			if r8HandleCues[string(f)] {
				if s, e, ok := handleAfter(text, ws, i, fc); ok {
					add(s, e, 0.75) // "usuario m.cifuentes", "acceso de pilar.ugarte", "login tmcguinness"
					continue
				}
			}
			if nb == ' ' && i+2 < len(ws) && w.is(fc, lexCue) && !capitalised(t) && cueShapePair(text, ws, i, fc) {
				add(ws[i+1].start, ws[i+2].end, 0.7) // "la paciente dragana petrović acude"
				i += 2
			}
		case nb == ' ' && nameCueStart[c0] && i+2 < len(ws) && len(ws[i+2].text) >= 5 && w.is(fc, lexCue) && !capitalised(t):
			if cueShapePair(text, ws, i, fc) {
				add(ws[i+1].start, ws[i+2].end, 0.7) // "client anya kowalski (…"
				i += 2
			}
		case nb == ' ' && c0 >= 'A' && c0 <= 'Z' && w.end+2 < len(text) && (text[w.end+1] == '(' || text[w.end+1] == '"' || text[w.end+1] == '\'' ||
			text[w.end+1] == 0xE2 || text[w.end+1] == 0xC2) && !namedAt(out[first:], w.start) && nameWord(w, fc) && !w.is(fc, lexCue|lexInstitution|lexPlaces):
			// "Bartholomew ('Bart') Quigley": a nickname in quotes between two capitalised words names all three
			if s, e, ss, se, ok := nicknameAfter(text, ws, w.end, fc); ok && se > ss {
				add(w.start, w.end, 0.75)
				add(s, e, 0.75)
				add(ss, se, 0.75)
			}
		case nb == ' ' && (c0 == 's' || c0 == 'S') && i+2 < len(ws) && len(t) <= 4 && selfIntro(w.fold(fc)) && r8Article(ws[i+1].text) && gap(text, *w, ws[i+1], false):
			// "sóc la fina de l'ambulatori", "soy el quique": I am, a personal article, a given name (even one
			// that is also a word: only a person says so of themselves)
			if b := &ws[i+2]; gap(text, ws[i+1], *b, false) && !capitalised(b.text) && b.given(fc) && !b.is(fc, lexCue|lexPlaces|lexInstitution) {
				add(b.start, b.end, 0.7)
				i += 2
			}
		case nb == ' ' && w.end+2 < len(text) && text[w.end+1] == '(' && i > 0 && len(t) >= 2 && len(t) <= 6 && r8NickIntro[string(ws[i-1].fold(fc))]:
			// "it's bex (rebecca holloway)", "his name is mo (Mohammed Al-Sayed)": a nickname, then the full
			// name in brackets
			if j := i + 1; j < len(ws) && ws[j].start == w.end+2 && lettersOnly(t) && (w.class(fc)&^lexR9Cue == 0 || w.given(fc)) && !namedAt(out[first:], w.start) {
				for _, sp := range out[first:] {
					if sp.Start == ws[j].start && sp.End < len(text) && text[sp.End] == ')' && strings.IndexByte(sp.Text, ' ') > 0 && sp.Score >= 0.5 {
						add(w.start, w.end, 0.7)
						break
					}
				}
			}
		case nb == '?' && w.is(fc, lexR8Cue) && r8NameQuestions[string(w.fold(fc))]:
			if s, e, ok := nameAnswer(text, ws, i, fc); ok {
				add(s, e, 0.75) // "¿Apellido?\n- Goikoetxea.", "—Abizena? —Etxeandia."
			}
		}
	}
	// a found given name, then a surname no list knows, read by its shape
	for k, j := first, 0; k < n0 && k < len(out); k++ {
		sp := out[k]
		if sp.End+1 >= len(text) || text[sp.End] != ' ' || !isWordByte(text[sp.End+1]) {
			continue // the byte test: a surname follows a space
		}
		for j < len(ws) && ws[j].end < sp.End {
			j++ // the spans are in text order: one walk over the words finds each one's last word
		}
		if j >= len(ws) {
			break
		}
		if ws[j].end != sp.End || j+1 >= len(ws) || ws[j].start < sp.Start {
			continue
		}
		e := surnameShapeRun(text, ws, j, fc)
		if e > j {
			out[k] = span(text, sp.Start, ws[e].end, max(sp.Score, 0.7), sp.Source)
			changed = true
		}
	}
	// a nickname in quotes between a given name and a surname: `Margaret ("Peggy") Ellison`
	for k := first; k < n0 && k < len(out); k++ {
		if s, e, ss, se, ok := nicknameAfter(text, ws, out[k].End, fc); ok {
			out = append(out, span(text, s, e, 0.75, "gazetteer"))
			if se > ss {
				out = append(out, span(text, ss, se, 0.75, "gazetteer"))
			}
			changed = true
		}
	}
	// a second initial before an initial and a surname: "M. A. Ferrando"
	for k := first; k < len(out); k++ {
		if s := out[k].Start; s >= 4 && text[s-3] >= 'A' && text[s-3] <= 'Z' && text[s-2:s] == ". " && (s == 4 || !isWordByte(text[s-4])) &&
			s+2 < len(text) && text[s] >= 'A' && text[s] <= 'Z' && text[s+1] == '.' && (s == 3 || text[s-4] == ' ' || text[s-4] == '\n') {
			out[k] = span(text, s-3, out[k].End, out[k].Score, out[k].Source)
		}
	}
	// a name that ends in an initial and its dot, then a capitalised surname: "J. Ll. Serrallonga"
	for k := first; k < len(out); k++ {
		e := out[k].End
		if e+3 >= len(text) || text[e] != '.' || text[e+1] != ' ' {
			continue
		}
		if lw := lastWord(text[out[k].Start:e]); !initialWord(lw) && lw != "Ll" || lw == text[out[k].Start:e] {
			continue // a word's last letters, or an initial alone
		}
		if j := wordAtOffset(ws, e+2); j >= 0 && capitalised(ws[j].text) && nameWord(&ws[j], fc) && !ws[j].is(fc, lexCue|lexInstitution|lexPlaces) {
			out[k] = span(text, out[k].Start, ws[extendName(text, ws, j, fc)].end, out[k].Score, out[k].Source)
		}
	}
	// the kin of a named person, named in apposition: "La madre de Thiago, Daiana, dice…"
	for k, n := first, len(out); k < n; k++ {
		sp := out[k]
		if sp.Start < 8 || text[sp.Start-3:sp.Start] != "de " || sp.End+3 >= len(text) || text[sp.End] != ',' || text[sp.End+1] != ' ' {
			continue
		}
		j := wordAtOffset(ws, sp.Start)
		m := wordAtOffset(ws, sp.End+2)
		if j < 2 || m < 0 || !r8Kin[string(ws[j-2].fold(fc))] || text[ws[j-2].end:ws[j-1].start] != " " || !capitalised(ws[m].text) ||
			ws[m].end >= len(text) || text[ws[m].end] != ',' && !strings.HasPrefix(text[ws[m].end:], " (") ||
			!nameWord(&ws[m], fc) || ws[m].is(fc, lexPlaces|lexInstitution|lexCue|lexNotNames|lexCompanyWords) || namedAt(out[first:], ws[m].start) {
			continue
		}
		out = append(out, span(text, ws[m].start, ws[m].end, 0.7, "gazetteer"))
		changed = true
	}
	// a signature of initials on its own line, whose letters are a found name's ("> JA" after Joan Albert)
	if n := len(out); strings.Contains(text, "\n") {
		if out = appendInitialsSignature(out, first, ws, fc, text); len(out) > n {
			changed = true
		}
	}
	if changed {
		slices.SortStableFunc(out[first:], func(a, b Span) int { return a.Start - b.Start })
	}
	return dropInCentres(out, first, ws, fc, text)
}

// r8Article: the personal article of Catalan, Spanish and Galician speech before a name.
func r8Article(a string) bool {
	switch a {
	case "la", "el", "en", "na", "o", "a":
		return true
	}
	return false
}

// basqueEnd: t ends like one of r8BasqueVowel or r8BasqueCons, by its last bytes alone (most words
// of a text are rejected here, before any lookup).
func basqueEnd(t string) bool {
	n := len(t)
	switch t[n-1] {
	case 'i':
		return true
	case 'k':
		return isVowelByte(t[n-2])
	case 'n':
		return t[n-2] == 'e' || t[n-2] == 'i' && t[n-3] == 'k'
	case 'a':
		return t[n-2] == 'n' && (t[n-3] == 'e' || t[n-3] == 'a')
	case 't':
		return strings.HasSuffix(t, "ntzat")
	}
	return false
}

// r8BasqueVowel and r8BasqueCons are the case endings after a stem that ends in a vowel ("Ane-k",
// "Amaia-ren") and in a consonant ("Miren-ek", "Mikel-en").
var (
	r8BasqueVowel = []string{"rentzat", "rengatik", "rengana", "rekin", "rena", "ren", "ri", "k"}
	r8BasqueCons  = []string{"entzat", "engatik", "engana", "ekin", "ena", "en", "ek", "i"}
)

// basqueCaseGiven returns the stem's length when f is a known given name with a Basque case ending
// (a lower-case stem that is also a word — "rosa", "mar" — does not count), else 0.
func basqueCaseGiven(f []byte, capital bool) int {
	for set, sufs := range [2][]string{r8BasqueVowel, r8BasqueCons} {
		for _, suf := range sufs {
			n := len(f) - len(suf)
			if n < 3 || string(f[n:]) != suf || isVowelByte(f[n-1]) != (set == 0) {
				continue
			}
			if st := string(f[:n]); st == "andrea" || st == "andre" || st == "jauna" {
				continue // "Goñi andreak", "Urrutia jaunari": the Basque Mrs and Mr after a surname, no given name
			}
			cls := lexLookup(f[:n])
			if cls&lexGivenNames != 0 && cls&(lexPlaces|lexInstitution|lexNotNames|lexCue) == 0 && (capital || cls&lexLowerAmbiguous == 0) {
				return n
			}
		}
	}
	return 0
}

func isVowelByte(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

// wordEndingAt returns the index of the word that ends at e, or -1.
func wordEndingAt(ws []word, e int) int {
	k, ok := slices.BinarySearchFunc(ws, e, func(w word, e int) int { return w.end - e })
	if !ok {
		return -1
	}
	return k
}

// surnameShapeRun widens a name whose last word is ws[j] over one or two next words that have a
// surname's shape and are no word of a sentence ("jordi puigdemunt", "Ionela Dumitrescu",
// "kevin hollingworth"), in the case of ws[j]. It returns the last word of the name.
func surnameShapeRun(text string, ws []word, j int, fc *folder) int {
	if !ws[j].given(fc) {
		return j
	}
	lower := !capitalised(ws[j].text)
	e := j
	for k := j + 1; k < len(ws) && k <= j+2; k++ {
		w := &ws[k]
		if text[ws[k-1].end:w.start] != " " || capitalised(w.text) == lower || allCaps(w.text) != allCaps(ws[j].text) {
			break
		}
		if !surnameShapeR8(fc.lower[w.start:w.end]) || w.class(fc)&(lexNotNames|lexPlaces|lexInstitution|lexCue|lexCompanyWords|lexStreetTypeWords|lexNameStop|lexLowerAmbiguous) != 0 ||
			r8NotSurnames[string(w.fold(fc))] {
			if k > j+1 && w.is(fc, lexSurnames) {
				e = k // "gemma vallès puig": a known second surname
			}
			break
		}
		e = k
	}
	return e
}

// r8SurnameEnds are the endings of surnames of the languages the branches hear, longest first
// within each: Basque, Catalan, Galician, Spanish, English, Polish, Ukrainian and Russian,
// Romanian, Italian, German. Each is long enough, or its stem is, that a word of the same shape
// is rare after a given name; r8NotSurnames holds those that are not.
var r8SurnameEnds = [][]byte{
	[]byte("etxea"), []byte("etxe"), []byte("aga"), []byte("eta"), []byte("egi"), []byte("ola"), []byte("arte"),
	[]byte("tegi"), []byte("zabal"), []byte("buru"), []byte("alde"), []byte("garai"), []byte("goitia"), []byte("urria"),
	[]byte("ell"), []byte("ès"), []byte("lló"), []byte("ull"), []byte("eny"), []byte("ach"), []byte("ech"),
	[]byte("eiro"), []byte("eira"), []byte("iño"), []byte("iña"),
	[]byte("ez"), []byte("oz"), []byte("az"),
	[]byte("son"), []byte("ton"), []byte("ley"), []byte("field"), []byte("ford"), []byte("worth"), []byte("wood"), []byte("ington"),
	[]byte("ski"), []byte("ska"), []byte("cki"), []byte("cka"), []byte("wicz"), []byte("czyk"), []byte("czak"), []byte("iak"),
	[]byte("enko"), []byte("chuk"), []byte("yuk"), []byte("ova"), []byte("ov"), []byte("eva"), []byte("ev"),
	[]byte("escu"), []byte("eanu"), []byte("ović"), []byte("ević"), []byte("ovic"), []byte("evic"),
	[]byte("ini"), []byte("elli"), []byte("etti"), []byte("ucci"), []byte("otti"), []byte("azzi"),
	[]byte("mann"), []byte("berg"), []byte("stein"), []byte("baum"),
}

// r8SurnamePrefixes are surname beginnings: Catalan puig-, Scottish and Irish Mc-, O', Arabic al-/el-.
var r8SurnamePrefixes = [][]byte{[]byte("puig"), []byte("mc"), []byte("o'"), []byte("al-"), []byte("el-"), []byte("ben"), []byte("ait-")}

// surnameShapeR8: lw (a word lower-cased, accents kept) has a surname's shape: five bytes or more,
// and a surname ending after a stem of three bytes or more, or a surname prefix before four bytes.
func surnameShapeR8(lw []byte) bool {
	if len(lw) < 5 {
		return false
	}
	for _, s := range r8SurnameEnds {
		if len(lw) >= len(s)+3 && bytes.HasSuffix(lw, s) {
			return true
		}
	}
	for _, p := range r8SurnamePrefixes {
		if len(lw) >= len(p)+4 && bytes.HasPrefix(lw, p) {
			return true
		}
	}
	return false
}

// r8NotSurnames are the words of a sentence that have a surname's shape and may follow a name
// (folded): verbs, nouns, adverbs of Spanish, Catalan, Galician and English.
var r8NotSurnames = words(`receta recetas tarjeta carpeta libreta maleta cuneta planeta paga apaga haga traga
	paquete esta esto sola solo hola escuela espanola catalana gallega vasca
	castell vell nouvell aquell aquella ell bell cancell tell spell fell well sell shell smell dwell
	despres interes frances angles pages mes ingles
	falla fallo hallo callo
	completa interpreta respeta aprieta secreta concreta discreta controla indaga comparte reparte descarte
	approach speech breach attach stomach
	xaneiro febreiro primeiro primeira terceiro terceira enfermeiro enfermeira carteira fontaneiro dinheiro
	carino camino nino vino sobrino vecino
	capaz eficaz vez jerez rapidez validez vejez
	reason person season lesson poison prison comparison button cotton skeleton unison
	valley alley trolley afford worth lately
	nueva nuevas lleva eleva releva renueva
	dinero mensaje
	tambien bien quien`)

// handleAfter reads the user name after ws[i], a handle cue ("usuario", "login", "acceso de"):
// one token of lower-case letters, dots, underscores and hyphens with no digit, of which one part
// is a known given name or surname or has a surname's shape, or an initial glued to a known
// surname ("jlopez", "tmcguinness"). It returns the token's bounds.
func handleAfter(text string, ws []word, i int, fc *folder) (int, int, bool) {
	p := ws[i].end
	switch {
	case strings.HasPrefix(text[p:], ": "):
		p += 2
	case strings.HasPrefix(text[p:], "="):
		p++
	case strings.HasPrefix(text[p:], " de ") || strings.HasPrefix(text[p:], " by ") || strings.HasPrefix(text[p:], " of "):
		p += 4
	case strings.HasPrefix(text[p:], " por ") || strings.HasPrefix(text[p:], " per "):
		p += 5
	case strings.HasPrefix(text[p:], " "):
		p++
	default:
		return 0, 0, false
	}
	s := p
	seps := 0
	for p < len(text) && (text[p] >= 'a' && text[p] <= 'z' || text[p] == '.' || text[p] == '_' || text[p] == '-') {
		if text[p] == '.' || text[p] == '_' || text[p] == '-' {
			seps++
		}
		p++
	}
	for p > s && (text[p-1] == '.' || text[p-1] == '_' || text[p-1] == '-') {
		p-- // a sentence's full stop
		seps--
	}
	if p-s < 4 || p-s > 40 || p < len(text) && (isWordByte(text[p]) || text[p] == '@') || seps > 2 {
		return 0, 0, false // a digit, an upper-case letter or an e-mail's @ glued on: no such handle
	}
	tok := text[s:p]
	if seps == 0 {
		// "jlopez", "tmcguinness": an initial, then a known surname or a surname's shape
		rest := []byte(tok[1:])
		return s, p, len(rest) >= 4 && (lexLookup(rest)&lexSurnames != 0 || surnameShapeR8(rest)) && lexLookup([]byte(tok))&(lexNotNames|lexCue|lexPlaces) == 0
	}
	known := false
	for part := range strings.FieldsFuncSeq(tok, func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if len(part) < 3 {
			continue
		}
		cls := lexLookup([]byte(part))
		if cls&(lexNotNames|lexInstitution|lexCue|lexCompanyWords|lexPlaces) != 0 {
			return 0, 0, false // "caja.oficina", "soporte.central"
		}
		if cls&(lexGivenNames|lexSurnames) != 0 || surnameShapeR8([]byte(part)) {
			known = true
		}
	}
	return s, p, known
}

// cueShapePair: after the role word ws[i] come a lower-case given name (one no list knows too) and
// a lower-case word with a surname's shape that no list knows but as a surname ("client anya
// kowalski", "la paciente dragana petrović").
func cueShapePair(text string, ws []word, i int, fc *folder) bool {
	w, a, b := &ws[i], &ws[i+1], &ws[i+2]
	return a.start == w.end+1 && text[a.end:b.start] == " " && !capitalised(a.text) && !capitalised(b.text) && len(a.text) >= 3 &&
		len(b.text) >= 5 && lettersOnly(a.text) && (a.class(fc)&^lexR9Cue == 0 || a.given(fc)) && b.class(fc)&^(lexSurnames|lexR9Cue) == 0 &&
		surnameShapeR8(fc.lower[b.start:b.end]) && !r8NotSurnames[string(b.fold(fc))] && !r8NotSurnames[string(a.fold(fc))]
}

// personKeyValue reads the value of a person form key that starts at ws[i] and ends with ":" on
// its line ("Ordenant: JOAQUIM ROVIRA SALA", "Account holder: okafor chinedu", "Deutor: SALA I
// VERDAGUER, Montse"): the key is a person key and at most three key words after it; the value,
// on the same line, is one to five words of letters (particles included) closed by the line's end,
// a comma after a given name, a bracket or a full stop, with no company's or institution's word,
// and at least one word a list knows or with a surname's shape.
func personKeyValue(text string, ws []word, i int, fc *folder) (int, int, bool) {
	// the key: ws[k..i] from its line's start, ws[k] a person key
	k := i
	for k > 0 && i-k < 3 && text[ws[k-1].end:ws[k].start] == " " && r8KeyRest[string(ws[k].fold(fc))] {
		k--
	}
	if f := string(ws[k].fold(fc)); !r8PersonKeys[f] && !nameFieldKeys[f] || !keyStart(text, ws[k].start) {
		return 0, 0, false
	}
	if f := string(ws[k].fold(fc)); f == "account" && (k == i || string(ws[k+1].fold(fc)) != "holder") {
		return 0, 0, false // "Account number:"
	}
	g := ws[i].end + 1
	for g < len(text) && (text[g] == ' ' || text[g] == '\t') {
		g++
	}
	j := i + 1
	if j >= len(ws) || ws[j].start != g {
		return 0, 0, false // a digit, a bracket or nothing after the key
	}
	caps := capitalised(ws[j].text)
	e, known, comma := j, false, false
	for k := j; k < len(ws) && k < j+8; k++ {
		w := &ws[k]
		if k > j {
			sep := text[ws[k-1].end:w.start]
			if sep == ", " && !comma && capitalised(w.text) && allCaps(ws[k-1].text) && !allCaps(w.text) {
				comma = true // "SALA I VERDAGUER, Montse": the given name after the surnames
			} else if sep != " " {
				break
			}
		}
		cls := w.class(fc)
		if cls&(lexCompanyWords|lexInstitution|lexStreetTypeWords|lexPlaces|lexCue) != 0 && cls&(lexGivenNames|lexSurnames) == 0 &&
			!(caps && allCaps(w.text) && k > j && ws[k-1].is(fc, lexNameParticles)) {
			return 0, 0, false // "DE LA CALLE": a word after a particle in a capitals surname
		}
		if caps && !capitalised(w.text) && cls&lexNameParticles == 0 {
			break // "Paciente: Ana López refiere dolor"
		}
		if !caps && (cls&(lexNotNames|lexNameStop) != 0 || r8NotSurnames[string(w.fold(fc))]) {
			return 0, 0, false
		}
		if cls&(lexGivenNames|lexSurnames) != 0 || surnameShapeR8(fc.lower[w.start:w.end]) {
			known = true
		}
		e = k
	}
	for e > j && ws[e].is(fc, lexNameParticles) {
		e--
	}
	end := ws[e].end
	if end < len(text) && !strings.ContainsRune(",;.)(\n\r\t", rune(text[end])) && !(text[end] == ' ' && (strings.HasPrefix(text[end:], " (") ||
		strings.HasPrefix(text[end:], " - ") || strings.HasPrefix(text[end:], " —"))) {
		return 0, 0, false // the value goes on: prose after a key
	}
	if !known || companyAfter(text, end) || e == j && !caps && ws[j].is(fc, lexLowerAmbiguous) {
		return 0, 0, false
	}
	return ws[j].start, end, true
}

// keyStart: a form key starts at s: at a line's or an item's start, or after a sentence's full stop
// ("Requeriment de pagament. Deutor: …").
func keyStart(text string, s int) bool {
	return lineOrItemStart(text, s) || s >= 3 && text[s-1] == ' ' && text[s-2] == '.' && isASCIILetterByte(text[s-3])
}

// nameAnswer reads the answer to a name question that ends at ws[i] with "?" ("¿Apellido?\n-
// Goikoetxea.", "—Izena? —Maddi.", "Name? — Oduya."): after dashes, spaces and a line break, one to
// four words alone up to a full stop, comma or the line's end, the first capitalised or a name a list
// knows, none a yes or a no.
func nameAnswer(text string, ws []word, i int, fc *folder) (int, int, bool) {
	p := ws[i].end + 1
	nl := 0
	for p < len(text) {
		if c := text[p]; c == ' ' || c == '-' || c == '\t' || c == '\r' {
			p++
		} else if c == '\n' {
			nl++
			p++
		} else if strings.HasPrefix(text[p:], "—") || strings.HasPrefix(text[p:], "–") {
			p += 3
		} else if strings.HasPrefix(text[p:], "A: ") || strings.HasPrefix(text[p:], "R: ") {
			p += 3
		} else {
			break
		}
	}
	j := i + 1
	if nl > 1 || j >= len(ws) || ws[j].start != p {
		return 0, 0, false
	}
	e := j
	for k := j; k < len(ws) && k < j+4; k++ {
		w := &ws[k]
		if k > j && text[ws[k-1].end:w.start] != " " {
			break
		}
		f := string(w.fold(fc))
		if r8NotAnswers[f] || w.is(fc, lexNotNames|lexNameStop|lexCue|lexInstitution) && !w.is(fc, lexGivenNames|lexSurnames) {
			if k == j {
				return 0, 0, false
			}
			break
		}
		if !capitalised(w.text) && !w.given(fc) && !w.is(fc, lexSurnames|lexNameParticles) {
			if k == j {
				return 0, 0, false
			}
			break
		}
		e = k
	}
	end := ws[e].end
	if end < len(text) && !strings.ContainsRune(".,;\n\r!", rune(text[end])) && !strings.HasPrefix(text[end:], " —") && !strings.HasPrefix(text[end:], " -") {
		return 0, 0, false // prose goes on: no answer
	}
	return ws[j].start, end, true
}

// nicknameAfter reads, right after a name that ends at end, a nickname in quotes, in brackets or
// both (` ("Peggy")`, ` «Paco»`, ` 'Gaz'`) and a capitalised surname after it; it returns the
// nickname's bounds and the surname's (empty when none).
func nicknameAfter(text string, ws []word, end int, fc *folder) (int, int, int, int, bool) {
	p := end
	if p+4 >= len(text) || text[p] != ' ' {
		return 0, 0, 0, 0, false
	}
	p++
	br := text[p] == '('
	if br {
		p++
	}
	q, n := utf8.DecodeRuneInString(text[p:])
	if q != '"' && q != '“' && q != '«' && q != '\'' {
		return 0, 0, 0, 0, false
	}
	p += n
	j := wordAtOffset(ws, p)
	if j < 0 {
		return 0, 0, 0, 0, false
	}
	w := &ws[j]
	r, n := utf8.DecodeRuneInString(text[w.end:])
	if r != '"' && r != '”' && r != '»' && r != '\'' || utf8.RuneCountInString(w.text) < 2 || !lettersOnly(w.text) ||
		w.is(fc, lexNotNames|lexPlaces|lexCue|lexInstitution) {
		return 0, 0, 0, 0, false
	}
	p = w.end + n
	if br {
		if p >= len(text) || text[p] != ')' {
			return 0, 0, 0, 0, false
		}
		p++
	}
	ss, se := 0, 0
	if p+1 < len(text) && text[p] == ' ' {
		if k := wordAtOffset(ws, p+1); k >= 0 && capitalised(ws[k].text) && nameWord(&ws[k], fc) && !ws[k].is(fc, lexPlaces|lexInstitution|lexCue) {
			e := extendName(text, ws, k, fc)
			ss, se = ws[k].start, ws[e].end
		}
	}
	return w.start, w.end, ss, se, true
}

// dropInCentres drops the names that follow, in one capitalised run, the head of a health centre,
// a public service or a law firm ("CAP Sagrada Família", "Servicio Madrileño de Salud", "Despacho
// Garrigues"), or that hold it as their first word.
func dropInCentres(out []Span, first int, ws []word, fc *folder, text string) []Span {
	heads := false // a head word at all: most texts have none, and then no span is looked at for one
	for i := range ws {
		if c := ws[i].text[0]; (c == 'S' || c == 'D' || c == 'C' || c == 'A' || c == 'P' || c == 'E' || c == 'I') && ws[i].is(fc, lexR8Cue) && r8Heads[string(ws[i].fold(fc))] {
			heads = true
			break
		}
	}
	k := first
	for _, sp := range out[first:] {
		if sp.Type != TypePerson {
			out[k] = sp
			k++
			continue
		}
		if s := sp.Start; s >= 3 && text[s-1] == ' ' && isDigitByte(text[s-2]) && lawAcronymAt(text, ws, s) {
			// "Article 17 GDPR, Nathaniel Brooks", "art. 36 LAU": a law's acronym after its article
			j := wordAtOffset(ws, sp.Start)
			if j < 0 || j+1 >= len(ws) || ws[j+1].start >= sp.End || !capitalised(ws[j+1].text) {
				continue
			}
			e := extendName(text, ws, j+1, fc)
			sp = span(text, ws[j+1].start, max(sp.End, ws[e].end), sp.Score, sp.Source)
		}
		if lowerMonthAt(text, sp) {
			continue // "caducada des del març": a month that folds to a given name (Marc), after "de"/"del"/"in"
		}
		if heads && (centreBefore(text, ws, sp.Start, fc) || centreAcronymIn(text, ws, sp, fc)) ||
			sp.End < len(text) && isDigitByte(text[sp.End]) && companyAfterCode(text, sp.End) || legalFormLast(text, sp) {
			continue
		}
		out[k] = sp
		k++
	}
	return out[:k]
}

// centreBefore: the capitalised run up to the word at s (or that word) starts at an r8Heads word.
func centreBefore(text string, ws []word, s int, fc *folder) bool {
	i := wordAtOffset(ws, s)
	if i < 0 {
		return false
	}
	for k := i; k >= 0 && i-k <= 4; k-- {
		w := &ws[k]
		if k < i && text[w.end:ws[k+1].start] != " " {
			return false
		}
		if !capitalised(w.text) && !(k < i && w.is(fc, lexNameParticles)) {
			return false
		}
		if len(w.text) <= 5 && w.is(fc, lexR8Cue) && r8Heads[string(w.fold(fc))] && (len(w.text) > 4 || allCaps(w.text)) ||
			len(w.text) > 5 && w.is(fc, lexR8Cue) && r8Heads[string(w.fold(fc))] {
			return k < i || i+1 < len(ws) && text[w.end:ws[i+1].start] == " " && capitalised(ws[i+1].text)
		}
	}
	return false
}

// centreAcronymIn: a word of sp is a health centre's or a school's acronym in capitals ("Recepció
// CAP", a repeat of "CAP"): no person's name holds one.
func centreAcronymIn(text string, ws []word, sp Span, fc *folder) bool {
	for i := wordAtOffset(ws, sp.Start); i >= 0 && i < len(ws) && ws[i].end <= sp.End; i++ {
		if t := ws[i].text; len(t) >= 2 && len(t) <= 4 && allCaps(t) && ws[i].is(fc, lexR8Cue) && r8Heads[string(ws[i].fold(fc))] {
			return true
		}
	}
	return false
}

// lawAcronymAt: the word at s is in capitals right after an article's or a law's number ("Article 17
// GDPR", "art. 36 LAU", "Llei 29/1994 LAU"): a law's acronym, no surname.
func lawAcronymAt(text string, ws []word, s int) bool {
	j := wordAtOffset(ws, s)
	if j < 1 || !allCaps(ws[j].text) || s < 3 || text[s-1] != ' ' || !isDigitByte(text[s-2]) {
		return false
	}
	p := s - 2
	for p > 0 && (isDigitByte(text[p-1]) || text[p-1] == '/' || text[p-1] == '.') {
		p--
	}
	for p > 0 && text[p-1] == ' ' {
		p--
	}
	b := strings.ToLower(text[max(0, p-12):p])
	for _, h := range []string{"art", "art.", "article", "artículo", "articulo", "artigo", "ley", "llei", "lei", "regulation", "reglamento", "directive", "directiva", "section"} {
		if strings.HasSuffix(b, h) && (len(b) == len(h) || !isWordByte(b[len(b)-len(h)-1])) {
			return true
		}
	}
	return false
}

// companyAfterCode: a company's legal form follows the name after the digits glued to it
// ("Glovoapp23, S.A.").
func companyAfterCode(text string, end int) bool {
	p := end
	for p < len(text) && isDigitByte(text[p]) {
		p++
	}
	return companyAfter(text, end) || p > end && companyAfter(text, p)
}

// appendInitialsSignature reads a signature of two or three capitals alone on its line (after a
// quote mark, a dash or nothing) when they are the initials of a name found in the text ("> JA"
// under a message from Joan Albert Pujades).
func appendInitialsSignature(out []Span, first int, ws []word, fc *folder, text string) []Span {
	n := len(out)
	for i := range ws {
		w := &ws[i]
		t := w.text
		if len(t) < 2 || len(t) > 3 || w.end < len(text) && text[w.end] != '\n' && text[w.end] != '\r' || !allCaps(t) {
			continue
		}
		p := w.start
		for p > 0 && (text[p-1] == ' ' || text[p-1] == '>' || text[p-1] == '-') {
			p--
		}
		if p > 0 && text[p-1] != '\n' || namedAt(out[first:n], w.start) {
			continue
		}
		for _, sp := range out[first:n] {
			if sp.Score >= 0.5 && initialsOf(text[sp.Start:sp.End], t) {
				out = append(out, span(text, w.start, w.end, 0.75, "gazetteer"))
				break
			}
		}
	}
	return out
}

// initialsOf: ini are the initials of the first words of name, in order ("JA" of "Joan Albert
// Pujades", "JAP").
func initialsOf(name, ini string) bool {
	k := 0
	for _, f := range strings.Fields(name) {
		if k == len(ini) {
			break
		}
		if f[0] != ini[k] {
			return false
		}
		k++
	}
	return k == len(ini)
}

// legalFormLast: the span's last word is a company's legal form ("Ryanair DAC", "Enel SpA").
func legalFormLast(text string, sp Span) bool {
	t := text[sp.Start:sp.End]
	k := strings.LastIndexByte(t, ' ')
	return k > 0 && len(t)-k <= 6 && t[k+1] >= 'A' && t[k+1] <= 'Z' && companySuffixAt(text, sp.Start+k)
}

// lowerMonthAt: sp is one lower-case word that is a month's name in a language the branches speak
// ("març", "abril", "maig"), after "de", "del", "d'", "en", "of", "in" or a day's number.
func lowerMonthAt(text string, sp Span) bool {
	t := text[sp.Start:sp.End]
	if len(t) < 3 || len(t) > 10 || t[0] < 'a' || t[0] > 'z' || strings.IndexByte(t, ' ') >= 0 || monthNames[fold(t)] == 0 {
		return false
	}
	b := text[:sp.Start]
	if strings.HasSuffix(b, "d'") || strings.HasSuffix(b, "d’") {
		return true
	}
	b = strings.TrimRight(b, " ")
	if len(b) > 0 && isDigitByte(b[len(b)-1]) {
		return true
	}
	k := strings.LastIndexAny(b, " \n(") + 1
	switch strings.ToLower(b[k:]) {
	case "de", "del", "en", "of", "in", "since", "desde", "des", "do", "da", "from", "until", "hasta", "fins":
		return true
	}
	return false
}
