package redact

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Fourth round of the name rules (issue #13): a name alone in lower case where only a person can
// stand (after an honorific, after "dile a", before "dice"), a surname alone before a verb that
// only a person is the subject of ("Olaizola refiere…"), an initial and a surname, and the
// non-names that hold a name (a law's number after it, a news headline in quotes).

// honorifics are the titles after which one lower-case word is a name even if no list knows it
// ("la dra villaverde", "mrs okonjo", "la sra pepita").
var honorifics = words(`sr sra srta dr dra don doña dña dª mr mrs ms miss mx senyor senyora senyoreta doctor doctora
	doutor doutora señor señora senor senora herr frau monsieur madame mme signor signora senhor senhora`)

// afterHonorific are the everyday words that follow a title and are not a name ("la señora
// mayor", "el doctor de guardia", "mr right").
var afterHonorific = words(`mayor joven anciana anciano mismo misma mismos ese esa este esta aquel aquella otro otra
	guardia turno cabecera familia familiar urgencias planta ingles inglesa alemana aleman francesa frances
	extranjera extranjero rubia rubio morena moreno alta alto baja bajo simpatica simpatico amable nueva nuevo
	right wrong and who which that whom also again said says presidente president director directora
	mama papa mami papi abuela abuelo tia tio ya aqui alli dice dijo nos les los las ellos ellas usted ustedes
	nacio vive vivia tiene tenia es esta estaba era fue viene vino llamo quiere queria dijo ha habia pide pidio firmo
	trae paga pago debe puede necesita sigue llego acaba enfermo enferma muerto muerta ciego ciega sorda sordo
	gitana gitano viuda viudo soltera soltero limpiadora cuidadora vecina vecino interna`)

// honorificLower: ws[i-1] is a title and ws[i] a lower-case word that is no everyday word.
func honorificLower(text string, ws []word, i int, fc *folder) bool {
	if i == 0 || !gap(text, ws[i-1], ws[i], true) || !honorifics[string(ws[i-1].fold(fc))] {
		return false
	}
	if t := ws[i-1]; t.text == "ms" || t.start >= 2 && isDigitByte(text[t.start-2]) || t.start >= 1 && isDigitByte(text[t.start-1]) {
		return false // "10 ms per token": a unit, not a title
	}
	w := &ws[i]
	f := w.fold(fc)
	if !lowerFree(w, fc) || afterHonorific[string(f)] || strings.HasSuffix(string(f), "mente") || inAddressToken(text, w) ||
		commonVerbs[string(f)] || speechVerbs[string(f)] || verbLike(w.text) {
		return false
	}
	if w.end < len(text) && (isDigitByte(text[w.end]) || text[w.end] == '@') {
		return false
	}
	return true
}

// addressVerbs ask the reader to reach someone: the person follows, after "a" or "con" in
// Spanish, Catalan and Galician ("dile a pérez", "pásale a quintana", "habla con chelo"),
// directly in English ("ask siobhan", "remind mrs …").
var addressVerbs = words(`dile digale dígale dille dilles digues pregúntale preguntale pregunta pregúntele preguntele
	pasale pásale pasadle pásalo pasalo avisa avisale avísale avisad llama llámale llamale llamad habla hablad hable
	escribe escríbele escribele manda mándale mandale envía envia envíale enviale digo dije comenta coméntale comentale
	recuerda recuérdale recuerdale explícale explicale reenvía reenvia reenvíale reenviale truca trucar parla parlar
	hablado hablé hable hablar quedado quedé quede reunido
	pregunta-li digues-li diga-li avisa-la avisa-lo chama chamar fala falar pregúntalle preguntalle`)

var addressVerbsEN = words(`ask tell remind call email text ping cc phone message contact`)

// notAddressed are the words after an address verb that are not a person.
var notAddressed = words(`mama papa mami papi abuela abuelo tia tio jefa jefe jefes director directora gerente
	caja cajero cajera oficina central todos todas nadie alguien nosotros ellos ellas usted ustedes him her them me us
	everyone everybody someone anyone nobody back later again tomorrow today now soon the a an about if that to you
	customer client team support it this those these castellano catalan ingles frances aleman euskera español
	espanol gallego portugues english spanish french german`)

// addressedLower reads a lower-case name after an address verb: a known given name or surname (an
// everyday-word one too), an -ez surname, or, when "que"/"si"/"to"/a comma or the end closes the
// clause, one word no list knows. It returns the last word of the name.
func addressedLower(text string, ws []word, i int, fc *folder) (int, bool) {
	if i == 0 || !shortAddressWord(ws[i-1].text) && !ws[i-1].is(fc, lexAddressCue) || capitalised(ws[i].text) || !gap(text, ws[i-1], ws[i], false) {
		return 0, false
	}
	p := ws[i-1].fold(fc)
	switch {
	case addressVerbsEN[string(p)]:
	case (string(p) == "a" || string(p) == "con" || string(p) == "al" || string(p) == "amb") && i >= 2 &&
		gap(text, ws[i-2], ws[i-1], false) && addressVerbs[string(ws[i-2].fold(fc))]:
	default:
		return 0, false
	}
	w := &ws[i]
	f := w.fold(fc)
	if notAddressed[string(f)] || inAddressToken(text, w) || utf8.RuneCountInString(w.text) < 3 {
		return 0, false
	}
	if w.is(fc, lexGivenNames|lexSurnames) && !w.is(fc, lexNotNames|lexNameStop|lexPlaces) || patronymic(f) && !w.is(fc, lexNotNames|lexAddrStop) {
		return extendLower(text, ws, i, fc), true
	}
	if addressVerbsEN[string(p)] || !lowerFree(w, fc) {
		return 0, false
	}
	if string(p) == "con" || string(p) == "amb" {
		return 0, false // "habla con calma": only a known name after "con"
	}
	if i+1 < len(ws) && gap(text, *w, ws[i+1], false) {
		switch string(ws[i+1].fold(fc)) {
		case "q", "que", "k", "si":
			return i, true // "dile a quintanar q …"
		}
	}
	return 0, false
}

// speechVerbs follow a person who said, wants or asked something ("pili dice q…", "nieves comenta").
var speechVerbs = words(`dice dijo comenta comentó comento pregunta preguntó pregunto quiere quería queria pide pidió
	pidio llama llamó llamo viene vino dice: ha ha: avisa avisó aviso diu vol demana truca va di quere pregunta chama
	says said wants asked called rang phoned`)

// speechAfter: the word after ws[end] is a speech verb ("pili dice", "Sole ha llamado").
func speechAfter(text string, ws []word, end int, fc *folder) bool {
	j := end + 1
	if j >= len(ws) || !gap(text, ws[end], ws[j], false) {
		return false
	}
	f := ws[j].fold(fc)
	if string(f) == "ha" || string(f) == "has" || string(f) == "va" {
		if j+1 >= len(ws) || !gap(text, ws[j], ws[j+1], false) {
			return false
		}
		switch string(ws[j+1].fold(fc)) {
		case "llamado", "dicho", "preguntado", "pedido", "venido", "avisado", "escrito", "called", "rung", "phoned", "said", "asked",
			"trucat", "dit", "demanat", "vingut", "chamado", "dito", "trucar", "dir", "venir":
			return true
		}
		return false
	}
	return speechVerbs[string(f)] && string(f) != "ha"
}

// clauseStart: ws[i] starts a line, a sentence or a clause after a comma.
func clauseStart(text string, ws []word, i int) bool {
	k := ws[i].start
	for k > 0 && text[k-1] == ' ' {
		k--
	}
	if k == 0 {
		return true
	}
	switch text[k-1] {
	case '\n', '.', ',', ';', ':', '!', '?', '(', '>', '-', ']':
		return true
	}
	return false
}

// lowerSpoken: a lower-case known given name, an everyday word too ("pili", "nieves", "sole"), at
// the start of a clause and before a speech verb, is the person who spoke.
func lowerSpoken(text string, ws []word, i int, fc *folder) bool {
	w := &ws[i]
	if capitalised(w.text) || !w.given(fc) || inAddressToken(text, w) || len(w.text) < 3 {
		return false
	}
	switch string(w.fold(fc)) {
	case "ella", "ello", "sola", "solo", "buena", "bella", "pena", "todo", "nada", "eso", "esto":
		return false
	}
	return clauseStart(text, ws, i) && speechAfter(text, ws, i, fc)
}

// unknownSpoken: a lower-case word no list knows, at the start of a line or sentence, before "ha
// llamado", "ha venido", "ha dicho" ("eustasio ha llamado, q…"): the person who called.
func unknownSpoken(text string, ws []word, i int, fc *folder) bool {
	w := &ws[i]
	if capitalised(w.text) || w.is(fc, lexGivenNames) || !lowerFree(w, fc) || notAddressed[string(w.fold(fc))] ||
		notNameLower[string(w.fold(fc))] || inAddressToken(text, w) || i+2 >= len(ws) {
		return false
	}
	k := w.start
	for k > 0 && text[k-1] == ' ' {
		k--
	}
	if k > 0 && strings.IndexByte("\n.!?", text[k-1]) < 0 {
		return false
	}
	if string(ws[i+1].fold(fc)) != "ha" || !gap(text, *w, ws[i+1], false) || !gap(text, ws[i+1], ws[i+2], false) {
		return false
	}
	switch string(ws[i+2].fold(fc)) {
	case "llamado", "venido", "dicho", "escrito", "trucat", "vingut", "dit", "chamado":
		return true
	}
	return false
}

// subjectVerbs are the verbs whose subject, in a note, is a person: a surname alone before one at a
// sentence's start is the patient or the client ("Olaizola refiere…", "Nowak denies…",
// "Figueiras refire…", "Castañeda colabora").
var subjectVerbs = words(`refiere refieren niega colabora deambula acude relata manifiesta tolera presenta
	permanece continua continúa sigue mejora empeora comenta explica aporta firma solicita reclama insiste
	refire nega colabora deambula acode relata presenta manifesta
	explica demana refereix nega col·labora camina manifesta
	denies reports complains states tolerates remains attends presents mentions refuses declines agrees
	reported denied complained stated explained says said wants asked called
	fuma bebe trabaja vive camina duerme toma usa lleva prefiere necesita habla entiende
	smokes drinks lives works walks sleeps takes uses prefers needs speaks understands`)

// notSubjects are capitalised words that open a note's sentence and are not a person.
var notSubjects = words(`hoy ayer actualmente tampoco tambien también ademas además ahora previamente anteriormente
	nunca siempre ya today also still now currently previously she he they it pt pte paciente patient familia family
	madre padre hija hijo mother father daughter son wife husband esposa esposo marido mujer hermana hermano
	avui ahir ara tambe també hoxe onte agora tamen tamén gaur atzo orain persona cuidadora cuidador`)

// subjectSurname: capitalised ws[i], alone at a sentence start, then a person's verb, and a
// surname by the lists or by its form; ws[i]'s lone-surname score is lifted from 0.4 to 0.7.
func subjectSurname(text string, ws []word, i int, fc *folder) bool {
	w := &ws[i]
	if i+1 >= len(ws) || len(ws[i+1].text) < 2 || ws[i+1].text[0] < 'a' || ws[i+1].text[0] > 'z' || !nameWord(w, fc) ||
		!gap(text, *w, ws[i+1], false) || !subjectVerbs[string(ws[i+1].fold(fc))] {
		return false
	}
	f := w.fold(fc)
	if notSubjects[string(f)] || strings.HasSuffix(string(f), "mente") || w.is(fc, lexCue|lexLowerCues|lexNameStop|lexPlaces|lexInstitution|lexCompanyWords) {
		return false
	}
	if !clauseStart(text, ws, i) {
		return false
	}
	return w.is(fc, lexSurnames|lexGivenNames) || surnameShape(f)
}

// surnameEndings are endings that mark a word as a surname in the languages common in Spain's
// branches and that few ES/EN/CA/GL words have (checked against those word lists; -eta, -ola,
// -eiro, -aga and -egi are left out for that): Spanish patronymics, Basque, Romanian, Ukrainian,
// Polish, Russian, Slavic, Turkish, Italian.
var surnameEndings = []string{"ez", "enko", "chuk", "czuk", "yuk", "iuk", "escu", "eanu", "ski", "ska", "sky", "wicz",
	"ovic", "ovich", "evich", "ova", "ov", "ev", "ovych", "yshyn", "etxea", "oglu", "uzzi", "ucci", "czyk", "czak"}

// surnameShape: f (folded) has at least six letters and ends like a surname.
func surnameShape(f []byte) bool {
	if len(f) < 6 {
		return false
	}
	for _, e := range surnameEndings {
		if len(f) > len(e)+2 && string(f[len(f)-len(e):]) == e {
			return true
		}
	}
	return false
}

// initialSurname reads "R. Quintero", "M. Dubois": a capital initial and its dot, then one
// capitalised surname (a known one, or one of a surname's form), where no street abbreviation
// ("C. Mayor", "P. Sherman") can be meant: the initial is not C or P unless it opens a line.
func initialSurname(text string, ws []word, i int, fc *folder) (int, bool) {
	if !initialWord(ws[i].text) || i+1 >= len(ws) || text[ws[i].end:ws[i+1].start] != ". " || ws[i].is(fc, lexCue) {
		return 0, false
	}
	if s := ws[i].start; s > 0 && (isWordByte(text[s-1]) || text[s-1] == '.') {
		return 0, false
	}
	if c := ws[i].text[0]; c == 'C' || c == 'P' || c == 'S' || c == 'A' && ws[i].start > 0 && text[ws[i].start-1] != ' ' {
		k := ws[i].start
		for k > 0 && (text[k-1] == ' ' || text[k-1] == '>') {
			k--
		}
		if k > 0 && text[k-1] != '\n' {
			return 0, false
		}
	}
	j := i + 1
	w := &ws[j]
	if !nameWord(w, fc) || w.is(fc, lexPlaces|lexStreetTypeWords|lexInstitution|lexCompanyWords|lexCue) {
		return 0, false
	}
	if !(w.is(fc, lexSurnames) || surnameShape(w.fold(fc))) {
		return 0, false
	}
	end := j
	if j+1 < len(ws) && gap(text, *w, ws[j+1], false) && nameWord(&ws[j+1], fc) && ws[j+1].is(fc, lexSurnames) {
		end = j + 1 // "J. García Pérez"
	}
	return end, true
}

// lawNumberAfter: a number of the form N/YYYY follows position e ("Lei 5/2019", "Llei 10/2008"):
// the word before it names a law or a case, not a person.
func lawNumberAfter(text string, e int) bool {
	if e+3 >= len(text) || text[e] != ' ' || !isDigitByte(text[e+1]) {
		return false
	}
	k := e + 1
	for k < len(text) && k-e <= 5 && isDigitByte(text[k]) {
		k++
	}
	return k < len(text) && text[k] == '/' && k+1 < len(text) && isDigitByte(text[k+1])
}

// inQuotedHeadline: sp lies between « and » (or typographic double quotes) on its line — a
// headline or a quoted news item, where a public figure is news.
func inQuotedHeadline(text string, sp Span) bool {
	lo := max(0, sp.Start-200)
	before := text[lo:sp.Start]
	if nl := strings.LastIndexByte(before, '\n'); nl >= 0 {
		before = before[nl+1:]
	}
	if strings.Count(before, "\"")%2 == 1 && strings.IndexByte(text[sp.End:min(len(text), sp.End+200)], '"') >= 0 {
		return true // inside straight double quotes on its line
	}
	k := strings.LastIndex(before, "«")
	k2 := strings.LastIndex(before, "“")
	if k < 0 && k2 < 0 {
		return false
	}
	open := max(k, k2)
	if strings.IndexByte(before[open:], '\n') >= 0 || strings.Contains(before[open:], "»") || strings.Contains(before[open:], "”") {
		return false
	}
	after := text[sp.End:min(len(text), sp.End+200)]
	c := strings.Index(after, "»")
	if c2 := strings.Index(after, "”"); c < 0 || c2 >= 0 && c2 < c {
		c = c2
	}
	return c >= 0 && strings.IndexByte(after[:c], '\n') < 0
}

// compoundTails are the words that end a compound Spanish surname or given name after "de la",
// "del", "de las", "de los" ("de la Fuente", "del Río", "de la Hoz", "María del Mar"): in lower
// case, after a name, they are part of it.
var compoundTails = words(`fuente fuentes torre torres hoz rio pozo valle olmo heras serna cueva cuevas calzada riva vega cruz
	peña rosa santos reyes campo castillo moral barrio puente mora llave iglesia prada mar pilar carmen paz luz sol rocio
	roca concepcion asuncion cal morena sierra nava orden`)

// lowerFullName: a lower-case given name that is also a word ("rocio", "pilar", "rosa") followed,
// after particles, by a known surname that is no everyday word ("rocio del mar sanchez", "pilar
// de la torre lópez", "rosa garcía") is a whole name.
func lowerFullName(text string, ws []word, i int, fc *folder) bool {
	if i+1 >= len(ws) || !ws[i].is(fc, lexLowerAmbiguous) || !ws[i+1].is(fc, lexNameParticles|lexSurnames|lexGivenNames) ||
		inAddressToken(text, &ws[i]) || len(ws[i].text) < 3 || ws[i].is(fc, lexNotNames) {
		return false // the cheap tests first: an everyday-word given name, then a particle or a name
	}
	end := extendLower(text, ws, i, fc)
	if end == i {
		return false
	}
	last := &ws[end]
	return !capitalised(last.text) && last.is(fc, lexSurnames) && !last.is(fc, lexLowerAmbiguous|lexNotNames|lexPlaces)
}

// basqueLowerEnding: the Basque case endings that no Spanish or Catalan word ends in so often
// that a given name in lower case with one is still read ("aitorri", "ane-ri", "mikelek"): not
// -ra, -en, -k, -ren ("espera", "carmen").
func basqueLowerEnding(t string) bool {
	switch t[len(t)-1] {
	case 'i':
		return strings.HasSuffix(t, "ri")
	case 'k':
		return strings.HasSuffix(t, "ek")
	case 'n':
		return strings.HasSuffix(t, "ekin")
	case 't':
		return strings.HasSuffix(t, "entzat")
	case 'a':
		return strings.HasSuffix(t, "engana")
	}
	return false
}

// particlesBefore returns the index of the first of the name particles right before ws[k] ("Van
// der" before "Berg"), or k if there are none.
func particlesBefore(text string, ws []word, k int, fc *folder) int {
	j := k
	for j > 0 && k-j < 3 && gap(text, ws[j-1], ws[j], false) && ws[j-1].is(fc, lexNameParticles) && len(ws[j-1].text) > 1 {
		j--
	}
	return j
}

// particlesAfter returns the index of the first word after the name particles that start at ws[j]
// ("de la" before "Calzada"), or j if ws[j] is no particle.
func particlesAfter(text string, ws []word, j int, fc *folder) int {
	k := j
	for k < len(ws) && k-j < 3 && ws[k].is(fc, lexNameParticles) && len(ws[k].text) > 1 && (k == j || gap(text, ws[k-1], ws[k], false)) {
		k++
	}
	if k > j && k < len(ws) && !gap(text, ws[k-1], ws[k], false) {
		return j
	}
	return k
}

// roleCues are the role words after which one or two lower-case words no list knows are a name
// when the clause closes after them ("la paciente yaritza mondragón, 29 años"), and kinCues the
// kinship words after which one is, before "que", "who" or a comma ("su hija yamila que…").
var roleCues = words(`cliente clienta paciente titular client customer patient holder cotitular beneficiario beneficiaria
	ordenante avalista pacient usuaria usuario`)

var roleCuesES = words(`cliente clienta paciente titular cotitular pacient usuaria usuario`)

var kinCues = words(`hijo hija marido mujer esposa esposo hermano hermana nieto nieta sobrino sobrina daughter wife
	husband brother sister fill filla fillo muller germà germana irmán irmá viuda viudo nai pai madre padre
	familia family familiares`)

// notNameLower are the lower-case words after a role or kinship word that describe the person
// rather than name them.
var notNameLower = words(`mayor menor pequeña pequeño mediana mediano joven varon nuevo nueva habitual actual anterior
	siguiente titular principal segunda segundo tercera tercero unica unico only eldest youngest older younger little
	new old other same first second third adolescente bebe
	español española espanol espanola portugues portuguesa frances francesa ingles inglesa aleman alemana italiano italiana
	rumano rumana marroqui chino china ucraniano ucraniana colombiano colombiana venezolano venezolana peruano peruana
	ecuatoriano ecuatoriana argentino argentina boliviano boliviana britanico britanica americano americana senegales
	senegalesa paquistani ruso rusa polaco polaca bulgaro bulgara cubano cubana dominicano dominicana mexicano mexicana
	chileno chilena uruguayo uruguaya paraguayo paraguaya hondureño hondureña nicaraguense brasileño brasileña
	british english french german italian spanish romanian moroccan chinese ukrainian polish irish scottish welsh
	american russian pakistani nigerian
	enfermo enferma muerto muerta autista sordo sorda ciego ciega mudo muda viudo viuda soltero soltera gemelo gemela
	mellizo mellizas mellizos politico politica adoptivo adoptiva biologico biologica gitano gitana limpiadora
	cuidadora cuidador interna interno mayorcito mayorcita pequeñito pequeñita chico chica niño niña bebé crio cria
	tambien también ya todavia aun tampoco solo sola ex exmarido exmujer novio novia pareja`)

// adjectiveLike: a Spanish or English adjective's or participle's ending ("ingresada", "diabético",
// "habitual", "amable", "worried").
func adjectiveLike(f []byte) bool {
	for _, e := range []string{"ado", "ada", "ido", "ida", "ico", "ica", "al", "ble", "oso", "osa", "ivo", "iva",
		"ente", "ante", "ual", "ed", "ing", "ful", "ous", "mente", "ito", "ita", "isimo", "isima"} {
		if len(f) > len(e)+1 && string(f[len(f)-len(e):]) == e {
			return true
		}
	}
	return false
}

// roleLowerEnd returns the last word of a lower-case name no list knows after the role or kinship
// word ws[i], or i if there is none.
func roleLowerEnd(text string, ws []word, i int, fc *folder) int {
	c := ws[i].fold(fc)
	role, kin := roleCues[string(c)], kinCues[string(c)]
	if !role && !kin || !gap(text, ws[i], ws[i+1], false) {
		return i
	}
	free := func(k int) bool {
		w := &ws[k]
		f := w.fold(fc)
		return lowerFree(w, fc) && !notNameLower[string(f)] && !afterHonorific[string(f)] && !adjectiveLike(f) &&
			!subjectVerbs[string(f)] && !speechVerbs[string(f)] && !commonVerbs[string(f)] && !verbLike(w.text) &&
			!inAddressToken(text, w) && !(w.end < len(text) && (isDigitByte(text[w.end]) || text[w.end] == '@'))
	}
	if !free(i + 1) {
		return i
	}
	closes := func(k int) bool {
		e := ws[k].end
		if e == len(text) || strings.IndexByte(",;(\n", text[e]) >= 0 || kin && strings.IndexByte(".:", text[e]) >= 0 {
			return true
		}
		if kin && k+1 < len(ws) && gap(text, ws[k], ws[k+1], false) {
			switch string(ws[k+1].fold(fc)) {
			case "que", "q", "who", "que,", "k":
				return true
			}
		}
		return false
	}
	if role {
		// two words: a given name and a surname ("yaritza mondragón,")
		if i+2 < len(ws) && gap(text, ws[i+1], ws[i+2], false) && free(i+2) && closes(i+2) {
			return i + 2
		}
		// one word before a comma, after a Spanish, Catalan or Galician role ("la clienta mabel, la
		// dominicana"; not "a client traceparent,")
		if e := ws[i+1].end; e < len(text) && text[e] == ',' && roleCuesES[string(c)] {
			return i + 1
		}
		return i
	}
	if closes(i + 1) {
		return i + 1
	}
	return i
}

// famousAfterConjunction splits a folded run at its last conjunction ("indian wells y ana botin"):
// the conjunction and the folded words after it (a slice of folded: no allocation).
func famousAfterConjunction(folded []byte) (string, []byte, bool) {
	if bytes.Count(folded, []byte{' '}) < 2 {
		return "", nil, false // "word conjunction word" takes two spaces: most names have one
	}
	// the last occurrence of each conjunction, in one pass over the spaces (what bytes.LastIndex
	// of each would give, without four Rabin-Karp scans)
	var last [4]int
	for j := bytes.IndexByte(folded, ' '); j >= 0; {
		for k, c := range conjunctions {
			if bytes.HasPrefix(folded[j:], c) {
				last[k] = j
			}
		}
		n := bytes.IndexByte(folded[j+1:], ' ')
		if n < 0 {
			break
		}
		j += 1 + n
	}
	for k, c := range conjunctions {
		if j := last[k]; j > 0 {
			return conjunctionWords[k], folded[j+len(c):], true
		}
	}
	return "", nil, false
}

var (
	conjunctionWords = []string{"y", "i", "and", "e"}
	conjunctions     = [][]byte{[]byte(" y "), []byte(" i "), []byte(" and "), []byte(" e ")}
)

// newsAround: the words around sp say it is news (newsWords), or it is inside a quoted headline.
func newsAround(text string, lower []byte, sp Span) bool {
	if inQuotedHeadline(text, sp) {
		return true
	}
	lo, hi := max(0, sp.Start-80), min(len(lower), sp.End+80)
	for _, w := range newsWords {
		if strings.Contains(string(lower[lo:hi]), w) {
			return true
		}
	}
	return false
}

// givenIn: a known given name among the words of s.
func givenIn(s string) bool {
	for _, w := range strings.Fields(s) {
		if givenNames[fold(w)] {
			return true
		}
	}
	return false
}

// letKnow reads "let X know" ("I'll let Femi know", "let mrs okafor know"): one or two words, any
// case, between "let" and "know" are a person, unless pronouns or everyday words.
func letKnow(text string, ws []word, i int, fc *folder) (int, bool) {
	if string(ws[i].fold(fc)) != "let" || i+2 >= len(ws) || !gap(text, ws[i], ws[i+1], false) {
		return 0, false
	}
	for end := i + 1; end <= i+2 && end+1 < len(ws); end++ {
		if !gap(text, ws[end-1], ws[end], true) {
			return 0, false
		}
		f := ws[end].fold(fc)
		if notAddressed[string(f)] || ws[end].is(fc, lexNameStop|lexNotNames) || len(f) < 2 {
			return 0, false
		}
		if string(ws[end+1].fold(fc)) == "know" && gap(text, ws[end], ws[end+1], false) {
			return end, true
		}
	}
	return 0, false
}

// commonVerbs are verbs that follow a role word in a note ("la paciente tiene fiebre", "el cliente
// quiere cancelar"), never a name.
var commonVerbs = words(`tiene tenia esta estaba viene vino llega llego ingresa ingreso acude acudio lleva sufre padece
	toma usa pide pidio quiere queria dice dijo hace hizo sabe puede debe necesita vive trabaja habla come duerme
	sigue mejora empeora cobra paga pago firma firmo abre cierra solicita reclama presenta refiere niega
	has had wants needs says said is was will can may must lives works takes asks calls pays`)

// verbLike: a Spanish finite or past form by its ending ("llamó", "decía", "hablaba").
func verbLike(t string) bool {
	for _, e := range []string{"ó", "ía", "aba", "aron", "ieron", "ando", "iendo"} {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

// arrivalVerbs say that someone came, called or wrote: a capitalised known name right after one is
// that person ("Llamó Ferrándiz para…", "ha venido Montoya").
var arrivalVerbs = words(`llamó llamo vino pasó paso escribió escribio vinieron llamaron truca trucat trucà vingut
	chamou veu escribiu deitu etorri`)

var arrivalAfterHa = words(`llamado venido pasado escrito trucat vingut chamado vido escrito`)

// addressedCap reads a capitalised name where addressedLower reads a lower-case one, and after a
// verb of arrival: "dile a Quintero que…", "habla con Ibáñez", "ask Brennan", "Llamó Ferrándiz",
// "ha venido Montoya". After "a"/"con" and an address verb any capitalised name word is taken;
// after an English verb or a verb of arrival only a known name or one of a surname's form.
func addressedCap(text string, ws []word, i int, fc *folder) (int, bool) {
	w := &ws[i]
	if i == 0 || !shortAddressWord(ws[i-1].text) && !ws[i-1].is(fc, lexAddressCue) {
		return 0, false
	}
	if !nameWord(w, fc) || !gap(text, ws[i-1], *w, false) || w.is(fc, lexPlaces|lexInstitution|lexCompanyWords|lexCue|lexNameStop) {
		return 0, false
	}
	p := ws[i-1].fold(fc)
	known := w.is(fc, lexSurnames|lexGivenNames) || surnameShape(w.fold(fc))
	switch {
	case (string(p) == "a" || string(p) == "con" || string(p) == "amb" || string(p) == "al") && i >= 2 &&
		gap(text, ws[i-2], ws[i-1], false) && addressVerbs[string(ws[i-2].fold(fc))]:
	case addressVerbsEN[string(p)] && known:
	case (string(p) == "with" || string(p) == "to") && known && i >= 2 && gap(text, ws[i-2], ws[i-1], false) &&
		spokeVerbsEN[string(ws[i-2].fold(fc))]:
	case arrivalVerbs[string(p)] && known:
	case arrivalAfterHa[string(p)] && known && i >= 2 && gap(text, ws[i-2], ws[i-1], false) &&
		(string(ws[i-2].fold(fc)) == "ha" || string(ws[i-2].fold(fc)) == "han"):
	default:
		return 0, false
	}
	return extendName(text, ws, i, fc), true
}

// spokeVerbsEN before "with"/"to" and a name: "spoke with X", "talked to X", "met with X".
var spokeVerbsEN = words(`spoke speak speaking talked talk talking met meeting chatted chat`)

// irishSurname: an O' or Mc surname ("o'rourke", "mcgillicuddy"), folded, at least five letters.
func irishSurname(f []byte) bool {
	if len(f) < 5 {
		return false
	}
	return f[0] == 'o' && f[1] == '\'' || f[0] == 'm' && f[1] == 'c' && strings.IndexByte("aeiou", f[2]) < 0
}

// monthAbbrevs are month abbreviations that are given names too ("Jan", "Mar", "Abril"…).
var monthAbbrevs = words(`jan feb mar apr jun jul aug sep sept oct nov dec ene abr ago dic`)

// monthAfterDay: ws[i] is a month's abbreviation right after a day's number ("14 Jan.", "3 Mar").
func monthAfterDay(text string, ws []word, i int, fc *folder) bool {
	s := ws[i].start
	if n := len(ws[i].text); n < 3 || n > 4 || s < 2 || text[s-1] != ' ' || !isDigitByte(text[s-2]) || !monthAbbrevs[string(ws[i].fold(fc))] {
		return false
	}
	return s < 4 || !isDigitByte(text[s-4]) || !isDigitByte(text[s-3])
}

// caseCaption reads the first party of a case caption, "X v Y", "X v. Y", "X vs Y", when X is a
// known name or has a surname's form ("Re: Kowalewski v Ryanair DAC").
func caseCaption(text string, ws []word, i int, fc *folder) (int, bool) {
	w := &ws[i]
	if c := w.text[0]; c < 'A' || c > 'Z' {
		return 0, false
	}
	near := false
	for j := i + 1; j < len(ws) && j <= i+6 && !near; j++ {
		near = ws[j].text == "v" || ws[j].text == "vs"
	}
	if !near {
		return 0, false // no "v"/"vs" among the next words: no caption (the cheap test first)
	}
	if !nameWord(w, fc) || w.is(fc, lexInstitution|lexCompanyWords|lexPlaces|lexCue) {
		return 0, false
	}
	end := extendName(text, ws, i, fc)
	r := text[ws[end].end:]
	if !(strings.HasPrefix(r, " v ") || strings.HasPrefix(r, " v. ") || strings.HasPrefix(r, " vs ") || strings.HasPrefix(r, " vs. ")) {
		return 0, false
	}
	for k := i; k <= end; k++ {
		if ws[k].is(fc, lexSurnames|lexGivenNames) || surnameShape(ws[k].fold(fc)) {
			return end, true
		}
	}
	return 0, false
}

// shortAddressWord: the prepositions after which addressedLower and addressedCap read a name
// ("dile a …", "habla con …", "spoke with …", "talked to …").
func shortAddressWord(t string) bool {
	switch t {
	case "a", "con", "al", "amb", "with", "to", "A", "Con", "Al", "Amb", "With", "To":
		return true
	}
	return false
}
