package redact

import "strings"

// Round 5 of issue #13 (docs/redaction-round5-names.md): names in structured fields of logs
// and DICOM exports, whole names in capitals around a span, and non-names (health services,
// hospital acronyms, insurers and banks, public figures named on TV or at an opening).

// closesAfter: a name read without a cue ends at e — a comma, a bar, a semicolon, a bracket,
// a line end or the text's end follows.
func closesAfter(text string, e int) bool {
	if e >= len(text) {
		return true
	}
	switch text[e] {
	case ',', '|', ';', '\n', '\r', '\t', ')', '(':
		return true
	case ' ':
		return e+1 < len(text) && (text[e+1] == '|' || text[e+1] == '(' || text[e+1] == '-')
	}
	return false
}

// fieldKeys name a log or export field that holds a person's user name or name
// ("user=ramon.tejedor", "usuario=mpazos", "patient=SURNAME^GIVEN").
// ("name=", "owner=" are not: code and markup use them for files, fields and groups).
var fieldKeys = words(`user usuario usuari usuaria username user_name login usr operator operador operadora patient paciente
pac requested_by created_by updated_by modified_by assigned_to assignee reporter`)

// colonKeys are the same keys written "key: value" in a report's header ("Generado por: aguado").
var colonKeys = words(`user usuario usuari usuaria username login usr operator operador operadora autor author
generado_por generated_by created_by creado_por exportado_por exported_by modificado_por modified_by
run_by ejecutado_por requested_by solicitado_por`)

// byKeys are the second words of the two-word colonKeys.
var byKeys = words(`por by`)

// accountWords are user names that are no person's: service and system accounts.
var accountWords = words(`root admin administrator administrador sistema system guest invitado anonymous anonimo
null none nil unknown desconocido desconocida service svc backup test testing batch cron daemon nobody
www-data default public operator api bot jenkins deploy monitor nagios postgres mysql oracle sa
support soporte helpdesk team equipo ops online chat web app desk`)

// appendFieldNames reads the value of a key=value field whose key names a user or a patient,
// and a DICOM person name (SURNAME^GIVEN) anywhere: letters, dots, underscores, hyphens and
// carets only; digits, '@' or a service account are no person.
func appendFieldNames(out []Span, first int, text string, lower []byte) []Span {
	for off := 0; ; {
		k := strings.IndexByte(text[off:], '=')
		if k < 0 {
			break
		}
		eq := off + k
		off = eq + 1
		ks := eq
		for ks > 0 && (isASCIILetterByte(text[ks-1]) || text[ks-1] == '_') {
			ks--
		}
		if eq-ks < 3 || eq-ks > 12 || ks > 0 && !(text[ks-1] == ' ' || text[ks-1] == '\t' || text[ks-1] == ',' || text[ks-1] == ';' || text[ks-1] == '&' || text[ks-1] == '?' || text[ks-1] == '\n' || text[ks-1] == '[') {
			continue
		}
		if !fieldKeys[string(lower[ks:eq])] {
			continue
		}
		s := eq + 1
		if s < len(text) && (text[s] == '"' || text[s] == '\'') {
			s++
		}
		if s0, e, ok := fieldValue(text, s); ok {
			out = appendPerson(out, text, s0, e, 0.8)
			off = e
		}
	}
	hasUnderscore := strings.IndexByte(text, '_') >= 0 // chat labels role_name: (roleHandle)
	for off := 0; ; {
		// "Generado por: aguado", "usuario: mpazos": a key and a colon, then one user name alone
		// on its line
		k := strings.Index(text[off:], ": ")
		if k < 0 {
			break
		}
		c := off + k
		off = c + 2
		if c < 3 {
			continue
		}
		if hasUnderscore && text[c-1] != ' ' {
			if s0, ok := roleHandle(text, lower, c); ok {
				out = appendPerson(out, text, s0, c, 0.8) // "[10:41] agent_X: …": the agent's name
				continue
			}
		}
		if l := lower[c-1]; l != 'r' && l != 'o' && l != 'e' && l != 'n' && l != 'a' && l != 'y' {
			continue // no key of colonKeys ends there ("DNI: ", "Asunto: ", "[10:41] cliente: "…)
		}
		ks := c
		for ks > 0 && (isASCIILetterByte(text[ks-1]) || text[ks-1] == '_') {
			ks--
		}
		key := lower[ks:c]
		if !colonKeys[string(key)] {
			if ks < 2 || text[ks-1] != ' ' || !byKeys[string(key)] {
				continue
			}
			ks2 := ks - 1
			for ks2 > 0 && isASCIILetterByte(text[ks2-1]) {
				ks2--
			}
			var kb [24]byte
			if ks-1-ks2 > 20 || !colonKeys[string(append(append(append(kb[:0], lower[ks2:ks-1]...), '_'), key...))] {
				continue
			}
		}
		if s0, e, ok := fieldValue(text, c+2); ok && (e == len(text) || text[e] == '\n' || text[e] == '\r') {
			out = appendPerson(out, text, s0, e, 0.8)
			off = e
		}
	}
	for off := 0; ; {
		k := strings.IndexByte(text[off:], '^')
		if k < 0 {
			break
		}
		c := off + k
		off = c + 1
		s := c
		for s > 0 && (isASCIILetterByte(text[s-1]) || text[s-1] >= 0x80 || text[s-1] == '\'' || text[s-1] == '-') {
			s--
		}
		if c-s < 2 || s > 0 && (isDigitByte(text[s-1]) || text[s-1] == '^') || c+2 >= len(text) || !isASCIILetterByte(text[c+1]) && text[c+1] < 0x80 {
			continue
		}
		if coveredBy(out[first:], s) {
			continue // the value of a user or patient field, read above
		}
		if s0, e, ok := fieldValue(text, s); ok && e > c+2 && capitalised(text[s:c]) {
			out = appendPerson(out, text, s0, e, 0.8)
			off = e
		}
	}
	return out
}

// fieldValue: the person's name or user name starting at s — at least three letters, then
// letters, '.', '_', '-', '^' or an apostrophe up to a space, a comma, a quote or a bracket.
func fieldValue(text string, s int) (int, int, bool) {
	e, letters := s, 0
	for e < len(text) {
		c := text[e]
		switch {
		case isASCIILetterByte(c) || c >= 0x80:
			letters++
		case c == '.' || c == '_' || c == '-' || c == '^' || c == '\'':
		default:
			goto done
		}
		e++
	}
done:
	for e > s && (text[e-1] == '.' || text[e-1] == '-' || text[e-1] == '_' || text[e-1] == '^') {
		e--
	}
	if letters < 3 || e-s > 48 {
		return 0, 0, false
	}
	if e < len(text) && (isDigitByte(text[e]) || text[e] == '@' || text[e] == '/' || text[e] == ':' || text[e] == '=') {
		return 0, 0, false // a code, an e-mail, a path, a host or a key, not a name
	}
	if accountWords[strings.ToLower(text[s:e])] {
		return 0, 0, false
	}
	return s, e, true
}

// healthAcronyms are hospitals and health services written as one word in capitals ("derivado
// al CHUS", "HUCA", "SERGAS"): alone, in capitals, never a person (Chus is one in Title case).
var healthAcronyms = words(`chus chuac chuo chuvi chuf chop chuslp huca hula huvr huvm huvn hgugm hcsc hulp hup hurs
hugc hucv humv hcuv huav huse husd hgu hvh hsp hcb hmar hclinic hdl sergas osakidetza osasunbidea sacyl sescam
sespa scs sas ibsalut insalud imserso muface mugeju isfas cap eap suap ambu`)

func coveredBy(spans []Span, p int) bool {
	for _, sp := range spans {
		if sp.Start <= p && p < sp.End {
			return true
		}
	}
	return false
}

// adjustNamesR5 removes spans that are a hospital's or health service's acronym in capitals
// ("derivado al CHUS"), and widens a name in capitals over the words in capitals right before
// or after it that the rules cut off: the first surname of "ABOUZAID EL HAMRI, Yasmina", the
// particle and surname of "PALOMA CIFUENTES DEL BARRIO".
func adjustNamesR5(out []Span, first int, text string) []Span {
	kept := out[:first]
	var buf [64]byte
	for _, sp := range out[first:] {
		if sp.Type != TypePerson {
			kept = append(kept, sp)
			continue
		}
		if len(sp.Text) <= 10 && strings.IndexByte(sp.Text, ' ') < 0 && allCaps(sp.Text) && healthAcronyms[strings.ToLower(sp.Text)] {
			continue
		}
		if sp.Score < 0.5 && strings.IndexByte(sp.Text, ' ') < 0 && allCaps(sp.Text) && len(sp.Text) >= 4 {
			// "la señora CONSTANTINESCU": an honorific lifts a surname in capitals no list knows
			if w := wordBefore(text, sp.Start); w != "" && nameCues[fold(w)] >= 0.85 {
				sp.Score = 0.8
			}
		}
		if g, ok := jointGiven(text, sp, buf[:0]); ok && (len(kept) == first || kept[len(kept)-1].End <= g) {
			// "for Cathal and Róisín Byrne": a capitalised word joined by a conjunction to a name
			// that opens with a known given name is a given name too
			e := g
			for e < len(text) && text[e] != ' ' {
				e++
			}
			kept = append(kept, span(text, g, e, 0.7, "gazetteer"))
		}
		if c := sp.Text[0]; c >= 'A' && c <= 'Z' && strings.Contains(sp.Text, ", ") {
			for n := 0; n < 2 && sp.Start >= 4 && text[sp.Start-1] == ' '; n++ {
				s := sp.Start - 1
				for s > 0 && (text[s-1] >= 'A' && text[s-1] <= 'Z' || text[s-1] >= 0x80 || text[s-1] == '\'') {
					s--
				}
				w := text[s : sp.Start-1]
				if len(w) < 3 || len(w) > 40 || !allCaps(w) || s > 0 && text[s-1] != ' ' && text[s-1] != '\n' && text[s-1] != ',' ||
					lexLookup(appendAccentFolded(buf[:0], []byte(strings.ToLower(w))))&(lexNotNames|lexCompanyWords|lexCue|lexInstitution|lexGreeting|lexPlaces) != 0 {
					break
				}
				sp.Start = s
			}
		}
		if last := strings.LastIndexByte(sp.Text, ' '); last > 0 && sp.End < len(text) && text[sp.End] == ' ' && allCaps(sp.Text[last+1:]) && len(sp.Text)-last > 3 {
			// "… CIFUENTES DEL BARRIO": one or two particles in capitals, then a word in capitals
			e, parts := sp.End, 0
			for e < len(text) && text[e] == ' ' && parts < 3 {
				k := e + 1
				for k < len(text) && (text[k] >= 'A' && text[k] <= 'Z' || text[k] >= 0x80) {
					k++
				}
				w := text[e+1 : k]
				if len(w) < 2 || !allCaps(w) {
					break
				}
				if capsParticles[strings.ToLower(w)] {
					parts++
					e = k
					continue
				}
				if parts > 0 && len(w) >= 3 && lexLookup(appendAccentFolded(buf[:0], []byte(strings.ToLower(w))))&(lexPlaces|lexStreetTypeWords|lexCompanyWords|lexCue|lexInstitution) == 0 {
					sp.End = k
				}
				break
			}
		}
		sp.Text = text[sp.Start:sp.End]
		kept = append(kept, sp)
	}
	return kept
}

// wordBefore: the word right before p, over one space ("" if none).
func wordBefore(text string, p int) string {
	if p < 2 || text[p-1] != ' ' {
		return ""
	}
	e := p - 1
	if text[e-1] == '.' {
		e-- // "Sra. X"
	}
	s := e
	for s > 0 && (isASCIILetterByte(text[s-1]) || text[s-1] >= 0x80) {
		s--
	}
	if e-s > 12 {
		return ""
	}
	return text[s:e]
}

// jointConjunctions join two given names before a shared surname.
var jointConjunctions = []string{" and ", " y ", " i ", " e ", " & "}

// jointBefore are the words before a pair of given names joined by a conjunction ("account for
// X and Y Surname", "a nombre de"… is not one: "de" also opens a company's name).
var jointBefore = words(`for para to with con between entre holders titulares clients clientes children hijos
parents padres spouses esposos cònjuges`)

// jointGiven: sp opens with a known given name and follows "X and ", X a capitalised word no
// list reads as a non-name, place, institution or cue, after a word of jointBefore: X's start.
func jointGiven(text string, sp Span, buf []byte) (int, bool) {
	if sp.Score < 0.5 || sp.Start < 8 || strings.IndexByte(sp.Text, ' ') < 0 {
		return 0, false
	}
	c := ""
	for _, j := range jointConjunctions {
		if strings.HasSuffix(text[:sp.Start], j) {
			c = j
			break
		}
	}
	if c == "" {
		return 0, false
	}
	fw := sp.Text[:strings.IndexByte(sp.Text, ' ')]
	if lexLookup(appendAccentFolded(buf[:0], []byte(strings.ToLower(fw))))&lexGivenNames == 0 {
		return 0, false
	}
	e := sp.Start - len(c)
	s := e
	for s > 0 && (isASCIILetterByte(text[s-1]) || text[s-1] >= 0x80) {
		s--
	}
	w := text[s:e]
	if len(w) < 3 || len(w) > 24 || !capitalised(w) || allCaps(w) || !jointBefore[wordBefore(text, s)] {
		return 0, false
	}
	if lexLookup(appendAccentFolded(buf[:0], []byte(strings.ToLower(w))))&(lexNotNames|lexPlaces|lexInstitution|lexCompanyWords|lexCue|lexStreetTypeWords|lexSurnames|lexGreeting) != 0 {
		return 0, false
	}
	return s, true
}

// innerCapital: a capital letter after the first ("StatusFound", "McBride"): an identifier in
// code, or an Irish/Scottish name — only the rule that reads neither asks.
func innerCapital(w string) bool {
	for k := 1; k < len(w); k++ {
		if w[k] >= 'A' && w[k] <= 'Z' {
			return true
		}
	}
	return false
}

// roleHandles are the role words of a chat label built as role_name ("agent_X:", "gestora_X:").
var roleHandles = words(`agent agente operator operador operadora gestor gestora asesor asesora advisor nurse
enfermera enfermero cust customer cliente clienta doctor dra dr`)

// roleHandle: a chat label at a line start (or after "] ") ending at the colon c is a role word,
// '_' and a name of letters only: the name's start.
func roleHandle(text string, lower []byte, c int) (int, bool) {
	u := c - 1
	for u > 0 && c-u < 24 && (isASCIILetterByte(text[u]) || text[u] >= 0x80) {
		u--
	}
	if text[u] != '_' || c-u-1 < 3 || c-u-1 > 20 {
		return 0, false
	}
	ks := u
	for ks > 0 && u-ks < 10 && isASCIILetterByte(text[ks-1]) {
		ks--
	}
	if ks > 0 && text[ks-1] != '\n' && !(ks >= 2 && text[ks-1] == ' ' && text[ks-2] == ']') {
		return 0, false
	}
	if !roleHandles[string(lower[ks:u])] || accountWords[string(lower[u+1:c])] {
		return 0, false
	}
	return u + 1, true
}
