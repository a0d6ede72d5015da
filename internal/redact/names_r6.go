package redact

import (
	"slices"
	"strings"
)

// Round 6 of issue #13: a lone name that only its surroundings mark as one — the value of a name
// field in a form ("apellidos: Bilbao Ugarte", "Cognoms: …", "\"user\":\"mherrador\""), a chat
// handle after a time stamp ("[11:02] jlgarrido_77: …"), a lower-case word after a greeting
// ("hey kez, …") or after a kinship word and its determiner ("su mujer encarni y …", "a súa nai,
// carmiña,"), a name in apposition to a role ("una clienta venezolana, Yesenia, …", "the patient
// (bogdan)"), and a name after "spoke to". Each rule is gated on its cue, so that texts without
// one pay a byte scan at most.

// nameFieldKeys are keys whose value is a person's given name, surname or full name, in the five
// languages and English ("Nombre:", "Apellidos:", "Cognoms:", "Apelidos:", "Abizenak:", "Surname:").
// Two-word keys are joined by '_' ("first_name" is "First name:").
var nameFieldKeys = words(`nombre nombres apellido apellidos apellido1 apellido2 primer_apellido segundo_apellido
	nombre_completo nom cognom cognoms nom_complet nome apelido apelidos nome_completo izena abizena abizenak izen-abizenak
	surname surnames forename forenames first_name last_name given_name given_names family_name full_name firstname
	lastname fullname middle_name nombre_y_apellidos nom_i_cognoms nome_e_apelidos titular_name holder_name patient_name
	nombre_titular nombre_paciente nombre_cliente customer_name client_name`)

// nameKeyTails are the last words of nameFieldKeys' two- and three-word keys.
var nameKeyTails = func() map[string]bool {
	m := map[string]bool{}
	for k := range nameFieldKeys {
		if u := strings.LastIndexByte(k, '_'); u > 0 {
			m[k[u+1:]] = true
		}
	}
	return m
}()

// nameFieldNot are values of a name field that hold no name ("Nombre: —", "Surname: n/a").
var nameFieldNot = words(`n/a na none ninguno ninguna desconocido desconocida unknown vacio pendiente pending idem
	igual same mismo misma sin no si yes el la los las de del the a an`)

// surnameKeysLoose are the keys a surname follows in a chat line without a colon ("el apellido
// zubizarreta", "surname pryce").
var surnameKeysLoose = words(`apellido apellidos cognom cognoms apelido apelidos abizena surname`)

// surnameKeyNot are the words after such a key that are no surname ("el apellido de su madre",
// "apellido compuesto").
var surnameKeyNot = words(`de del da do que y e i o es is era was no mal bien correcto correcta compuesto paterno materno
	completo completos primer segundo first second and or en in con with por of the el la los las su sus lo le se
	igual mismo distinto diferente nuevo antiguo anterior`)

// chatRoles are the labels of a chat line that are a role, not a person ("[10:02] Agente: …").
var chatRoles = words(`agente agent cliente clienta client customer user usuario usuaria usuari bot chatbot sistema system
	operador operadora operator gestor gestora asesor asesora advisor adviser empleado empleada staff teller cajero cajera
	caixer caixera soporte support oficina branch sucursal info nota note yo tu tú you me moderador moderator admin
	auto autoreply robot asistente assistant host guest invitado invitada anonimo anonymous nurse doctor enfermera metge
	recepcion recepción reception secretaria secretary interprete intérprete interpreter paciente patient pacient traductor
	traductora familiar agentea bezeroa erabiltzailea visitor visitante visitant guest back front backoffice frontoffice
	office oficina bank banco caixa entidad entity me yo jo eu ni`)

// greetedNot are what a greeting addresses in lower case that is no name ("hola chicos,", "hey
// guys,", "buenas tardes,").
var greetedNot = words(`there all everyone everybody guys folks team people again mate mates friend friends compi compis
	guapa guapo guapas guapos gente tardes dias días noches nuevo maja majo majos cariño reina rey amigo amiga amigos amigas
	tio tia tío tía tios tias jefe jefa jefes nena nen nens noi noia nois noies equipo chicos chicas chic chica chico ya
	compañero compañera compañeros compañeras companys companyes company companya colega colegas familia family crack
	caracola hombre mujer señor señora senyor senyora sir madam love dear darling hun babe bro tronco tronca socio socia
	todos todas tothom totes tots todo buenas buenos bon bona bos boas good morning afternoon evening hola hello hi hey
	world mundo mon beaucoup bien lots much mil muchas muchisimas moltes moitas tanto igualmente adeu ciao
	soporte support oficina office sucursal branch colleague colleagues colega colegas collega col·lega customer customers
	client clients cliente clientes patient patients paciente pacientes doctor doctors doctora doctores reader user users
	partners member members sirs madams manager team`)

// kinLower are kinship words a lower-case name follows after a determiner ("su mujer encarni",
// "el seu marit tomas", "la mamá rocío", "my son jake"), beyond kinCues.
var kinLower = words(`marit dona home mare pare mamá mama papá papa mami papi mum mom mummy dad daddy son boy girl
	partner pareja parella novio novia nuvi nuvia bikotea senarra emaztea alaba semea ama aita amona aitona
	abuela abuelo avia avi avoa avó avo abuelita abuelito yaya yayo iaia iaio tío tía tieta tiet cosina cosí
	cuñada cuñado cunyada cunyat suegra suegro sogra sogre nuera yerno gendre enfermera cuidadora cuidador`)

// kinNot are lower-case words after a kinship word that describe or qualify rather than name
// ("su marido igual.", "el seu fill gran", "my son too.") or state a status after a role's colon
// ("Paciente: Estable", "Cliente: Particular").
var kinNot = words(`gran gros grande petit petita pequeno pequena maior vello vella novo nova txikia nagusia zaharra
	igual tambien también tampoco ya aun aún todavia todavía ahora hoy ayer mañana manana luego bien mal solo sola
	too also now today yesterday again either neither well ok okay vale tb tmb tamb tampoc també tambe avui ahir ara
	particular empresa activo activa estable normal ninguno ninguna nadie pendiente autonomo autonoma jubilado jubilada
	fallecido fallecida hombre femenino masculino vip premium preferente nuevo nueva habitual si no sí yes none
	field campo camp eremua box casilla column columna required obligatorio obligatoria vacio empty blank missing
	wrong incorrect correct right porfa please gracias thanks
	alemany alemanya angles anglesa italia italiana portugues portuguesa rus russa xines xinesa romanes romanesa
	ucraines ucrainesa marroqui polones polonesa holandes holandesa belga suis suissa irlandes irlandesa escoces escocesa
	galego galega catala catalana basc basca gallec gallega andalus andalusa
	dutch belgian swiss swedish norwegian danish finnish greek turkish indian filipino filipina brazilian mexican
	colombian venezuelan peruvian argentinian argentine cuban`)

// galicianPossessives come before Galician "home" (husband), which is English "home" otherwise.
var galicianPossessives = words(`seu meu teu noso voso`)

// kinDeterminers come before a kinship word ("su", "el seu", "a súa", "my", "bere").
var kinDeterminers = words(`su sus mi mis tu el la los las seu seva meu meva teu teva sa son súa sua seus meus miña mina
	o a my his her their our your the bere nire zure haren`)

// afterLowerName are the words a lower-case name is followed by as a sentence's subject or in a
// list ("… encarni y su hijo", "… tomas no te …").
var afterLowerName = words(`y i e and no ya ja tambien también too also que q k who dice diu di says said ha han has
	ha llamado vino vindrà vendrá viene ve vén està esta está is was will`)

// personalArticle: the articles Catalan and Galician (and colloquial Spanish) put before a
// given name ("la Montse", "el Quim", "o Xurxo" is one letter and left to other rules).
func personalArticle(t string) bool { return t == "la" || t == "el" || t == "en" || t == "na" }

// articlePersonVerbs are verbs whose subject after a personal article is a person: a note's
// clinical verbs and "ha trucat"/"ha llamado" ("la iolanda refereix millora").
var articlePersonVerbs = words(`refiere refieren niega relata manifiesta refire refereix nega manifesta deambula colabora
	col·labora`)

// possessedThings follow a person's possessive ("Glenys's mobile", "Tadhg's wife").
var possessedThings = words(`mobile phone number email e-mail address husband wife son daughter mum mom dad mother father
	partner brother sister account card flat house car payslip passport dob birthday gp carer niece nephew grandson
	granddaughter landlord tenant employer`)

// r6Candidate: the main loop of appendNames reached word w (no earlier rule took it), and a
// rule of this round may start from it — its classes are cls, already looked up there.
func r6Candidate(text string, w *word, cls uint32) bool {
	return cls&(lexGreeting|lexCue|lexR6Cue) != 0 ||
		w.end+2 < len(text) && text[w.end] == '\'' && text[w.end+1] == 's' && text[w.end+2] == ' ' && capitalised(w.text)
}

// appendNamesR6 appends this round's names; out[first:] are the names found so far. cands are
// the words r6Candidate took in the main loop, in text order; all (the list overflowed) reads
// every word instead.
func appendNamesR6(out []Span, first int, ws []word, fc *folder, text string, cands []int32, all bool) []Span {
	n0 := len(out)
	next := 0 // words before next are inside a name this pass found
	try := func(i int) {
		if i < next {
			return
		}
		w := &ws[i]
		if all && !r6Candidate(text, w, w.class(fc)) {
			return
		}
		cls := w.class(fc)
		if capitalised(w.text) && w.end+3 < len(text) && text[w.end] == '\'' && text[w.end+1] == 's' && text[w.end+2] == ' ' {
			// "Glenys's mobile is …": a capitalised word no list knows, then a possessive of a
			// person's things
			if j := i + 1; j < len(ws) && possessedThings[string(ws[j].fold(fc))] && nameWord(w, fc) && !allCaps(w.text) &&
				!w.is(fc, lexPlaces|lexInstitution|lexCompanyWords|lexCue|lexNameStop) && !namedAt(out[first:], w.start) {
				s := w.start
				if i > 0 && gap(text, ws[i-1], *w, false) && nameWord(&ws[i-1], fc) && !ws[i-1].is(fc, lexNotNames|lexCue) && !namedAt(out[first:], ws[i-1].start) {
					s = ws[i-1].start // "Glenys Pryce's mobile"
				}
				out = appendPerson(out, text, s, w.end, 0.7)
				next = i + 1
				return
			}
		}
		if cls&lexGreeting != 0 {
			if j, ok := greetedLower(text, ws, i, fc); ok && !namedAt(out[first:], ws[j].start) {
				out = appendPerson(out, text, ws[j].start, ws[j].end, 0.75)
				next = j + 1
			}
			return
		}
		f := w.fold(fc)
		if cls&lexCue != 0 || cls&lexR6Cue != 0 && kinLower[string(f)] {
			if s, e, ok := kinOrRoleName(text, ws, i, fc); ok && !namedAt(out[first:], ws[s].start) {
				out = appendPerson(out, text, ws[s].start, ws[e].end, 0.75)
				next = e + 1
			}
			return
		}
		if cls&lexR6Cue == 0 {
			return
		}
		switch {
		case surnameKeysLoose[string(f)]:
			if j, ok := looseSurname(text, ws, i, fc); ok && !namedAt(out[first:], ws[j].start) {
				out = appendPerson(out, text, ws[j].start, ws[j].end, 0.8)
				next = j + 1
			}
		case i+2 < len(ws) && spokeVerbsEN[string(f)]:
			// "I spoke to Ottilie this morning": a capitalised word no list knows after "spoke to"
			if t, j := ws[i+1].text, i+2; (t == "to" || t == "with") && gap(text, *w, ws[i+1], false) && gap(text, ws[i+1], ws[j], false) &&
				nameWord(&ws[j], fc) && !ws[j].is(fc, lexPlaces|lexInstitution|lexCompanyWords|lexCue|lexNameStop) && !allCaps(ws[j].text) &&
				!namedAt(out[first:], ws[j].start) && !companyAfter(text, ws[j].end) {
				e := extendName(text, ws, j, fc)
				out = appendPerson(out, text, ws[j].start, ws[e].end, 0.7)
				next = e + 1
			}
		case i >= 2 && articlePersonVerbs[string(f)]:
			// "la iolanda refereix millora": the personal article of Catalan and Galician, a
			// lower-case word, then a person's verb
			if j := i - 1; j >= next && personalArticle(ws[j-1].text) && !capitalised(ws[j].text) && gap(text, ws[j-1], ws[j], false) &&
				gap(text, ws[j], *w, false) && lowerNameFree(text, &ws[j], fc) && !lowerAmbiguous[string(ws[j].fold(fc))] &&
				!namedAt(out[first:], ws[j].start) {
				out = appendPerson(out, text, ws[j].start, ws[j].end, 0.7)
			}
		case closingLast[string(f)] && i+1 < len(ws) && ws[i+1].start == w.end+2 && text[w.end] == ',' && text[w.end+1] == ' ':
			// "Cordialement, P. Garnier": the signature on the closing's line
			if j := i + 1; capitalised(ws[j].text) {
				if e, ok := closingLineName(text, ws, j, fc); ok && !namedAt(out[first:], ws[j].start) {
					out = appendPerson(out, text, ws[j].start, ws[e].end, 0.8)
					next = e + 1
				}
			}
		}
	}
	if all {
		for i := range ws {
			try(i)
		}
	} else {
		for _, i := range cands {
			try(int(i))
		}
	}
	if strings.IndexByte(text, ':') >= 0 {
		out = appendNameFields(out, first, text, fc.lower)
		if hasTimeStamp(text) {
			out = appendChatLabels(out, first, ws, fc, text)
		}
	}
	if len(out) > n0 && n0 > first {
		slices.SortStableFunc(out[first:], func(a, b Span) int { return a.Start - b.Start })
	}
	return out
}

// lineStartBefore: only spaces, a chat time stamp or a chat label stand between the line's start
// and p.
func lineStartBefore(text string, p int) bool {
	k := p
	for k > 0 && text[k-1] == ' ' {
		k--
	}
	return k == 0 || text[k-1] == '\n' || text[k-1] == ']' || text[k-1] == ':' || text[k-1] == '>' || text[k-1] == '.' || text[k-1] == '!'
}

// greetedLower reads a lower-case word no list calls a non-name right after a greeting at a
// line's start, before a comma, '!' or the line's end ("hey kez, can you…", "hola moni!").
func greetedLower(text string, ws []word, i int, fc *folder) (int, bool) {
	if !greetings[string(ws[i].fold(fc))] || i+1 >= len(ws) || !lineStartBefore(text, ws[i].start) {
		return 0, false
	}
	j := i + 1
	w := &ws[j]
	if !gap(text, ws[i], *w, false) || capitalised(w.text) {
		return 0, false // a capitalised name is greeted's
	}
	f := w.fold(fc)
	if len(f) < 3 || len(f) > 14 || !lowerFree(w, fc) || greetedNot[string(f)] || adjectiveLike(f) || notNameLower[string(f)] || kinNot[string(f)] || notAddressees[string(f)] || greetings[string(f)] ||
		w.is(fc, lexGreeting) || verbLike(w.text) || commonVerbs[string(f)] || !lettersOnly(w.text) {
		return 0, false
	}
	if e := w.end; e < len(text) && strings.IndexByte(",!\n\r", text[e]) < 0 {
		return 0, false
	}
	return j, true
}

// lettersOnly: the word has no digit, '_', '.', '@' or apostrophe inside.
func lettersOnly(t string) bool {
	for k := 0; k < len(t); k++ {
		c := t[k]
		if c < 0x80 && !isASCIILetterByte(c) && c != '-' {
			return false
		}
	}
	return true
}

// lowerNameFree: a lower-case word that can be a name no list knows after a kinship or role word —
// not a describing word, a verb, a function word or an address's word.
func lowerNameFree(text string, w *word, fc *folder) bool {
	f := w.fold(fc)
	return lowerFree(w, fc) && lettersOnly(w.text) && !notNameLower[string(f)] && !afterHonorific[string(f)] && !adjectiveLike(f) &&
		!subjectVerbs[string(f)] && !speechVerbs[string(f)] && !commonVerbs[string(f)] && !verbLike(w.text) &&
		!afterLowerName[string(f)] && !kinLower[string(f)] && !kinCues[string(f)] && !greetedNot[string(f)] && !notAddressed[string(f)] &&
		!kinNot[string(f)] &&
		!inAddressToken(text, w) && !(w.end < len(text) && (isDigitByte(text[w.end]) || text[w.end] == '@'))
}

// kinOrRoleName reads a lone name after a kinship or role word:
//   - a determiner, a kinship word, then a lower-case word that ends a clause or is followed by a
//     subject's word ("su mujer encarni y su hijo", "el seu marit tomas no te", "la mamá rocío.");
//   - a kinship or role word, at most one describing word, then ", ", ": " or " (" and one name
//     word (two if the second is capitalised) that a comma, bracket, dot or line end closes ("una
//     clienta venezolana, Yesenia, quiere…", "hijo menor: Yeray,", "the patient (bogdan)").
func kinOrRoleName(text string, ws []word, i int, fc *folder) (int, int, bool) {
	if i+1 >= len(ws) {
		return 0, 0, false
	}
	switch text[ws[i].end:ws[i+1].start] {
	case " ", ", ", ": ", " (", ":\t":
	default:
		return 0, 0, false
	}
	f := ws[i].fold(fc)
	kin := kinCues[string(f)] || kinLower[string(f)]
	role := roleCues[string(f)]
	if !kin && !role {
		return 0, 0, false
	}
	closes := func(e int) bool {
		return e >= len(text) || strings.IndexByte(",;:.)!?\n\r", text[e]) >= 0
	}
	j := i + 1
	g := text[ws[i].end:ws[j].start]
	if kin && string(f) == "home" && (i == 0 || !galicianPossessives[string(ws[i-1].fold(fc))]) {
		return 0, 0, false // "her home address": Galician "o seu home" only
	}
	if kin && g == " " && i > 0 && gap(text, ws[i-1], ws[i], false) && kinDeterminers[string(ws[i-1].fold(fc))] && !capitalised(ws[j].text) &&
		lowerNameFree(text, &ws[j], fc) {
		e := ws[j].end
		if closes(e) && !(e < len(text) && text[e] == ':') {
			return j, j, true
		}
		if j+1 < len(ws) && gap(text, ws[j], ws[j+1], false) && afterLowerName[string(ws[j+1].fold(fc))] {
			return j, j, true
		}
		return 0, 0, false
	}
	// apposition: skip one describing word ("venezolana", "menor")
	if g == " " && j+1 < len(ws) && !capitalised(ws[j].text) && (notNameLower[string(ws[j].fold(fc))] || adjectiveLike(ws[j].fold(fc))) {
		j++
		g = text[ws[j-1].end:ws[j].start]
	}
	if g != ", " && g != ": " && g != " (" && g != ":\t" {
		return 0, 0, false
	}
	w := &ws[j]
	if !lettersOnly(w.text) || w.is(fc, lexCue|lexInstitution|lexCompanyWords|lexPlaces|lexNotNames) {
		return 0, 0, false
	}
	if capitalised(w.text) {
		if !nameWord(w, fc) || allCaps(w.text) || len(w.text) < 3 {
			return 0, 0, false
		}
		if f := w.fold(fc); kinNot[string(f)] || notNameLower[string(f)] || adjectiveLike(f) || commonVerbs[string(f)] || verbLike(w.text) ||
			nameFieldNot[string(f)] {
			return 0, 0, false // "Paciente: Estable.", "Cliente: Particular,"
		}
	} else if !lowerNameFree(text, w, fc) || !(kin || g == " (" || w.given(fc)) {
		return 0, 0, false // "Paciente: perfecto, si…": a lower-case word after a role is a name only in brackets or if known
	}
	e := j
	if capitalised(w.text) && j+1 < len(ws) && gap(text, ws[j], ws[j+1], false) && nameWord(&ws[j+1], fc) && !allCaps(ws[j+1].text) &&
		!ws[j+1].is(fc, lexCue|lexInstitution|lexCompanyWords|lexPlaces) {
		e = j + 1
	}
	end := ws[e].end
	if !closes(end) || end < len(text) && text[end] == ':' || g == " (" && (end >= len(text) || text[end] != ')') {
		return 0, 0, false
	}
	if end < len(text) && text[end] == '.' && end+1 < len(text) && isWordByte(text[end+1]) {
		return 0, 0, false // "Mapfre.es"
	}
	return j, e, true
}

// looseSurname reads the surname after "apellido" in a chat line with no colon ("el apellido
// zubizarreta y el dni …", "apellido mancebo"), "es"/"is" between them allowed.
func looseSurname(text string, ws []word, i int, fc *folder) (int, bool) {
	j := i + 1
	if j < len(ws) && gap(text, ws[i], ws[j], false) && (ws[j].text == "es" || ws[j].text == "is") {
		j++
	}
	if j >= len(ws) || !gap(text, ws[j-1], ws[j], false) {
		return 0, false
	}
	w := &ws[j]
	f := w.fold(fc)
	if len(f) < 3 || !lettersOnly(w.text) || surnameKeyNot[string(f)] || kinNot[string(f)] || adjectiveLike(f) || allCaps(w.text) && len(w.text) <= 4 ||
		w.is(fc, lexCue|lexNotNames|lexNameStop|lexNameParticles) || verbLike(w.text) || commonVerbs[string(f)] {
		return 0, false
	}
	if e := w.end; e < len(text) && !(strings.IndexByte(",;.)\n\r", text[e]) >= 0 || text[e] == ' ') {
		return 0, false
	}
	return j, true
}

// appendNameFields reads the value of a name field — "Nombre: Yurena", "apellidos: Bilbao Ugarte",
// "\"nombre\": \"ana\"" — and of a user field written as JSON ("\"user\":\"mherrador\""): the
// words up to the line's end, a comma, a semicolon, a bar or a quote.
func appendNameFields(out []Span, first int, text string, lower []byte) []Span {
	for off := 0; ; {
		k := strings.IndexByte(text[off:], ':')
		if k < 0 {
			break
		}
		c := off + k
		off = c + 1
		ke := c
		quoted := ke > 0 && text[ke-1] == '"'
		if quoted {
			ke--
		}
		ks := ke
		for ks > 0 && (isASCIILetterByte(text[ks-1]) || text[ks-1] == '_' || text[ks-1] == '-' || isDigitByte(text[ks-1])) {
			ks--
		}
		if ke-ks < 3 || ke-ks > 24 {
			continue
		}
		var kb [48]byte
		key := append(kb[:0], lower[ks:ke]...)
		// a two-word key: "First name:", "Nombre completo:", "nom i cognoms:"
		if ks >= 2 && !quoted && text[ks-1] == ' ' && nameKeyTails[string(key)] {
			p := ks - 1
			for p > 0 && (isASCIILetterByte(text[p-1]) || text[p-1] >= 0x80) {
				p--
			}
			if p < ks-1 && ks-1-p <= 12 {
				var kb2, kb3 [64]byte
				key2 := append(append(append(kb2[:0], lower[p:ks-1]...), '_'), key...)
				if nameFieldKeys[string(key2)] {
					key, ks = key2, p
				} else if p >= 2 && text[p-1] == ' ' {
					q := p - 1
					for q > 0 && isASCIILetterByte(text[q-1]) {
						q--
					}
					key3 := append(append(append(kb3[:0], lower[q:p-1]...), '_'), key2...)
					if nameFieldKeys[string(key3)] {
						key, ks = key3, q
					} else {
						continue // "Product name:", "nombre del producto:": a longer key
					}
				} else {
					continue
				}
			}
		} else if ks >= 2 && !quoted && text[ks-1] == ' ' && isASCIILetterByte(text[ks-2]) {
			continue // "Product name:", "dime tu nombre:": a key inside a longer one or a sentence
		}
		isName := nameFieldKeys[string(key)]
		if !isName && !(quoted && (fieldKeys[string(key)] || colonKeys[string(key)])) {
			continue
		}
		if quoted {
			ks--
			if ks < 0 || text[ks] != '"' {
				continue
			}
		}
		if ks > 0 {
			switch text[ks-1] {
			case '\n', '{', ',', ';', '|', '\t', ' ', '[', '\r':
			default:
				continue
			}
			if text[ks-1] == ' ' && !quoted && !lineStartBefore(text, ks-1) && !(ks >= 2 && strings.IndexByte(",;|", text[ks-2]) >= 0) {
				continue // a key inside a sentence ("dime tu nombre: …" is still read: ':' before the line)
			}
		}
		s := c + 1
		for s < len(text) && (text[s] == ' ' || text[s] == '\t') {
			s++
		}
		vq := s < len(text) && text[s] == '"'
		if vq {
			s++
		}
		if !isName {
			if s0, e, ok := fieldValue(text, s); ok && e < len(text) && text[e] == '"' {
				out = appendPerson(out, text, s0, e, 0.8)
				off = e
			}
			continue
		}
		if s0, e, ok := nameFieldValue(text, lower, s); ok && !namedAt(out[first:], s0) {
			out = appendPerson(out, text, s0, e, 0.8)
			off = e
		}
	}
	return out
}

// nameFieldValue: one to five words of letters (hyphens, apostrophes, an initial's dot allowed)
// from s up to the line's end, a comma, a semicolon, a bar, a quote or a bracket; no digits.
func nameFieldValue(text string, lower []byte, s int) (int, int, bool) {
	e, words, inWord := s, 0, false
	for e < len(text) {
		c := text[e]
		switch {
		case isASCIILetterByte(c) || c >= 0x80 || c == '\'' || c == '-':
			if !inWord {
				words++
				inWord = true
			}
		case c == ' ':
			if e+1 < len(text) && text[e+1] == ' ' || inWord == false {
				goto done
			}
			inWord = false
		case c == '.':
			if e+1 < len(text) && text[e+1] != ' ' && text[e+1] != '\n' {
				return 0, 0, false // "Cuenta.Plus", a file or host name
			}
			if e-s >= 2 && text[e-2] != ' ' && text[e-2] != '.' {
				goto done // a sentence's dot, not an initial's
			}
		case isDigitByte(c) || c == '@' || c == '/' || c == '_' || c == '=' || c == ':':
			return 0, 0, false
		default:
			goto done
		}
		e++
	}
done:
	for e > s && (text[e-1] == ' ' || text[e-1] == '-' || text[e-1] == '\'') {
		e--
	}
	if e-s < 2 || words == 0 || words > 5 || e-s > 60 {
		return 0, 0, false
	}
	v := string(lower[s:e])
	if nameFieldNot[v] || accountWords[v] {
		return 0, 0, false
	}
	if sp := strings.IndexByte(v, ' '); sp > 0 && lexLookup([]byte(fold(v[:sp])))&(lexInstitution|lexCompanyWords) != 0 ||
		sp < 0 && lexLookup([]byte(fold(v)))&(lexInstitution|lexCompanyWords) != 0 {
		return 0, 0, false // "Nombre: Hospital Comarcal", "Nombre: Seguros Bilbao"
	}
	if companySuffixAt(text, e) || companyAfter(text, e) {
		return 0, 0, false
	}
	return s, e, true
}

// appendChatLabels reads the label of a chat line after a time stamp — "[11:02] jlgarrido_77:",
// "14:02 Kasia:", "[09:41:07] kwalsh88:" — that is no role ("Agente:", "bot_help:", "system:").
func appendChatLabels(out []Span, first int, ws []word, fc *folder, text string) []Span {
	for off := 0; ; {
		k := strings.IndexByte(text[off:], ':')
		if k < 0 {
			break
		}
		c := off + k
		off = c + 1
		if c+1 < len(text) && isDigitByte(text[c+1]) {
			continue // a time's colon
		}
		// the label before the colon
		ls := c
		for ls > 0 && (isWordByte(text[ls-1]) || text[ls-1] == '_' || text[ls-1] == '.' || text[ls-1] == '-') {
			ls--
		}
		if c-ls < 3 || c-ls > 24 || ls < 2 || text[ls-1] != ' ' {
			continue
		}
		// a time stamp right before it: "[hh:mm]", "[hh:mm:ss]", "hh:mm"
		t := ls - 1
		if text[t-1] == ']' {
			t--
		}
		if t < 5 || !isDigitByte(text[t-1]) || !isDigitByte(text[t-2]) || text[t-3] != ':' || !isDigitByte(text[t-4]) {
			continue
		}
		label := text[ls:c]
		if namedAt(out[first:], ls) {
			continue
		}
		var kb [32]byte
		lf := append(kb[:0], strings.ToLower(label)...)
		head := lf
		if u := strings.IndexAny(string(lf), "_.0123456789-"); u >= 0 {
			head = lf[:u]
		}
		if len(head) < 3 && string(head) == string(lf) || chatRoles[string(head)] || accountWords[string(head)] || roleHandles[string(head)] ||
			chatRoles[string(lf)] || accountWords[string(lf)] {
			continue
		}
		if lexLookup(head)&(lexNotNames|lexInstitution|lexCompanyWords|lexCue|lexPlaces) != 0 {
			continue
		}
		if strings.IndexAny(label, "_.0123456789") < 0 {
			// a word alone: a capitalised name word, or a given name the lists know ("[10:02] kasia:")
			if !lettersOnly(label) || strings.IndexByte(label, '-') >= 0 {
				continue
			}
			if !capitalised(label) && lexLookup(lf)&lexGivenNames == 0 || allCaps(label) {
				continue
			}
			if lexLookup(lf)&lexGivenNames == 0 && strings.Count(text, " "+label+":") < 2 {
				continue // "10:00 Reunión: …", an agenda's line; a chat speaks more than once
			}
		} else if allCaps(label) {
			continue // "[10:00] ERR_TIMEOUT:"
		}
		out = appendHandle(out, text, ls, c)
	}
	return out
}

// closingLast are the last words of closingWords' phrases, folded ("un saludo cordial" too).
var closingLast = words(`regards saludo saludos atentamente cordialmente salutacions salutacio saudos agurrak izan besos
	abrazo abrazos cheers thanks you gracias grazas gracies sincerely best wishes faithfully cordialment atentament aperta
	muxu cordialement cordial cordiales`)

// closingLineName reads a signature on the closing's own line ("Cordialement, P. Garnier",
// "Un saludo, Marisol Ybarra"): after a closing and a comma, a name up to the line's end.
func closingLineName(text string, ws []word, i int, fc *folder) (int, bool) {
	if i == 0 || ws[i-1].end != ws[i].start-2 || !closingLast[string(ws[i-1].fold(fc))] {
		return 0, false
	}
	p := ws[i].start - 2
	ls := p
	for ls > 0 && text[ls-1] != '\n' && !(ls >= 2 && text[ls-1] == ' ' && strings.IndexByte(".!?", text[ls-2]) >= 0) {
		ls--
	}
	if p-ls > 40 || p-ls < 4 {
		return 0, false
	}
	closing, seg := false, string(fc.lower[ls:p])
	for _, c := range closingWords {
		closing = closing || strings.Contains(seg, c)
	}
	if !closing {
		return 0, false
	}
	j := i
	if initialWord(ws[i].text) && ws[i].end < len(text) && text[ws[i].end] == '.' && i+1 < len(ws) && ws[i+1].start == ws[i].end+2 {
		j = i + 1 // "P. Garnier"
	}
	if !nameWord(&ws[j], fc) || allCaps(ws[j].text) && len(ws[j].text) < 4 || ws[j].is(fc, lexCue|lexInstitution|lexCompanyWords|lexPlaces) {
		return 0, false
	}
	end := extendName(text, ws, j, fc)
	if institutionTails[string(ws[end].fold(fc))] || institutionBefore(text, ws, end, fc) || companyAfter(text, ws[end].end) {
		return 0, false
	}
	e := ws[end].end
	if e < len(text) && text[e] == '.' {
		e++
	}
	if e < len(text) && text[e] != '\n' && text[e] != '\r' {
		return 0, false
	}
	return end, true
}

// namedAt: a name over the threshold already covers p (a 0.4 guess does not count).
func namedAt(spans []Span, p int) bool {
	for _, sp := range spans {
		if sp.Start <= p && p < sp.End && sp.Score >= 0.5 {
			return true
		}
	}
	return false
}

// lowerRepeatOK: a lower-case word no list knows that may repeat a part of a name found in the
// text ("Paciente: Anacleto Urbieta … dice que urbieta no come"): five letters or more, letters
// only, and no everyday word the lists know (a verb, a describing word, a function word).
func lowerRepeatOK(text string, w *word, fc *folder) bool {
	if len(w.text) < 5 || capitalised(w.text) {
		return false
	}
	f := w.fold(fc)
	return lowerFree(w, fc) && lettersOnly(w.text) && !notNameLower[string(f)] && !adjectiveLike(f) && !commonVerbs[string(f)] &&
		!verbLike(w.text) && !speechVerbs[string(f)] && !subjectVerbs[string(f)] && !lowerAmbiguous[string(f)]
}

// hasTimeStamp: the text holds "hh:mm" followed by a space or ']' somewhere (a chat line's time).
func hasTimeStamp(text string) bool {
	for off := 0; ; {
		k := strings.IndexByte(text[off:], ':')
		if k < 0 {
			return false
		}
		c := off + k
		off = c + 1
		if c >= 1 && c+3 < len(text) && isDigitByte(text[c-1]) && isDigitByte(text[c+1]) && isDigitByte(text[c+2]) &&
			(text[c+3] == ' ' || text[c+3] == ']' || text[c+3] == ':') {
			return true
		}
	}
}

// idWordsAfterName are what follows a name in a record line: an identifier's or a birth date's
// key ("bronwen pryce dob '56", "antía rei dni …").
var idWordsAfterName = words(`dob dni nie nif nss born nacido nacida nascut nascuda nado nada jaio tel tlf tfno movil mobile
	passport pasaporte passaport pasaporta`)

// lowerSurnameBeforeID: after the lower-case name ending at ws[end], one more lower-case word no
// list knows when an identifier's or a birth date's key follows it; end otherwise.
func lowerSurnameBeforeID(text string, ws []word, end int, fc *folder) int {
	j := end + 1
	if j >= len(ws) || !gap(text, ws[end], ws[j], false) || capitalised(ws[j].text) ||
		!(phoneAfterComma(text, ws[j].end) || j+1 < len(ws) && gap(text, ws[j], ws[j+1], false) && idWordsAfterName[string(ws[j+1].fold(fc))]) ||
		!lowerFree(&ws[j], fc) || !lettersOnly(ws[j].text) ||
		verbLike(ws[j].text) || commonVerbs[string(ws[j].fold(fc))] || notNameLower[string(ws[j].fold(fc))] {
		return end
	}
	return j
}

// phoneAfterComma: ", " and a phone number's first digit or "+" at e ("jaume riudavets, 649 …").
func phoneAfterComma(text string, e int) bool {
	return e+3 < len(text) && text[e] == ',' && text[e+1] == ' ' && (text[e+2] == '+' || isDigitByte(text[e+2]) && isDigitByte(text[e+3]))
}
