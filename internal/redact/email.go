package redact

import (
	"bytes"
	"strings"
	"unsafe"
)

// Obfuscated e-mail addresses (issue #13): "ana punto garcia arroba gmail punto com",
// "pablo.ferrer(arroba)gmail(punto)com", "s.mendez AT outlook DOT es", "x[at]gmail[dot]com". An
// "at" word is read as @ only in brackets, in capitals or spelled "arroba"; the domain must then
// hold at least one dot (written or spelled) and end in a known top-level domain.

// atWords are the spellings of @, as they appear in the lower-cased text.
var atWords = []string{"(arroba)", "[arroba]", "{arroba}", "<arroba>", " arroba ", "(at)", "[at]", "{at}", "<at>", " at ",
	" arrova ", "(arrova)", "(a)", " @ "}

// dotWords are the spellings of the dot; " . " is a dot typed with a space either side
// ("telefonica . net"), as people do to fool a spam harvester.
var dotWords = []string{" (punto) ", " [punto] ", " [dot] ", " (dot) ", " {dot} ", " (punt) ", "(punto)", "[punto]", "{punto}", " punto ",
	"(dot)", "[dot]", "{dot}", " dot ", "(punt)", "[punt]", "{punt}", " punt ", " . ", "."}

var topLevelDomains = words(`com es net org eu cat gal eus info fr de it pt uk co ie nl be ch at ro ma us io me edu gob gov biz ar mx cl pe ve br cn ua ru pl
	bg hr hu cz sk si gr se no dk fi lt lv ee rs ba al md ge am by kz tr il in pk ph vn th id my sg jp kr au nz ca za ng gh ke
	ma dz tn sn cm ec bo py uy hn gt sv ni cr pa pr do cu lu li mc ad mt cy is tv ai app dev online email`)

func appendObfuscatedEmails(out []Span, text string, lower []byte) []Span {
	if len(lower) != len(text) || !mayHaveSpelledAt(lower, text) {
		return out
	}
	// Read only, within this call (no span keeps a piece of it: spans take text's bytes), so the
	// 4 KiB copy string(lower) made for every text with a spelled @ is not needed.
	l := unsafe.String(unsafe.SliceData(lower), len(lower))
	for _, at := range atWords {
		for off := 0; off < len(l); {
			k := strings.Index(l[off:], at)
			if k < 0 {
				break
			}
			k += off
			off = k + len(at)
			lowerAt := at == " at " && text[k+1:k+3] != "AT" // English prose, unless the dots are spelled too
			lk, dk := k, k+len(at)
			if at[0] != ' ' {
				// a bracketed @ with a space either side: "liam.doherty [at] outlook [dot] ie"
				if lk > 0 && l[lk-1] == ' ' {
					lk--
				}
				if dk < len(l) && l[dk] == ' ' {
					dk++
				}
			}
			s := emailLocalStart(text, l, lk)
			if s >= 0 && at == " arroba " {
				s = dictatedLocalStart(l, s, lk) // "ge ene a ere o ele punto siete uno arroba …"
			}
			e, spelledDot := emailDomainEnd(text, l, dk)
			capitalAt := at == " at " && text[k+1:k+3] == "AT" // "tom.hughes AT gmail.com"
			if s < 0 || e < 0 || (at[0] == ' ' && !spelledDot && at != " arroba " && at != " arrova " && at != " @ " && !capitalAt) || lowerAt && !spelledDot {
				continue
			}
			out = append(out, Span{Start: s, End: e, Type: TypeEmail, Text: text[s:e], Score: 0.85, Source: "email_spelled"})
		}
	}
	return out
}

// mayHaveSpelledAt: "arroba", an "at" in brackets, or " AT " occur in the text (one pass).
func mayHaveSpelledAt(lower []byte, text string) bool {
	for off := 0; off < len(lower); {
		k := bytes.IndexByte(lower[off:], 'a')
		if k < 0 || k+off+2 >= len(lower) {
			break
		}
		k += off
		off = k + 1
		switch {
		case lower[k+1] == 'r' && bytes.HasPrefix(lower[k:], []byte("arroba")):
			return true
		case lower[k+1] == 't' && k > 0 && strings.IndexByte("([{<", lower[k-1]) >= 0 && strings.IndexByte(")]}>", lower[k+2]) >= 0:
			return true
		case lower[k+1] == 't' && k > 0 && lower[k-1] == ' ' && lower[k+2] == ' ':
			return true // " AT ", or " at " with spelled dots (checked later)
		case lower[k+1] == 'r' && bytes.HasPrefix(lower[k:], []byte("arrova")):
			return true
		case lower[k+1] == ')' && k > 0 && lower[k-1] == '(':
			return true // "(a)"
		}
	}
	return bytes.Contains(lower, []byte(" @ "))
}

func isLocalByte(c byte) bool { return isWordByte(c) || c == '.' || c == '+' || c == '-' }

// emailLocalStart returns where the local part that ends at k starts (-1 if none): letters,
// digits and . + - _, with spelled dots between parts (at most three parts).
func emailLocalStart(text, l string, k int) int {
	s := k
	for parts := 0; parts < 3; parts++ {
		j := s
		for j > 0 && isLocalByte(l[j-1]) {
			j--
		}
		if j == s || j > 0 && l[j-1] >= 0x80 {
			if parts == 0 {
				return -1
			}
			return s
		}
		if parts == 0 && j > 1 && l[j-1] == ' ' && allDigitsStr(l[j:s]) && s-j <= 4 && isLocalByte(l[j-2]) {
			// digits after a space, right before the @: "paco punto herrera 61 arroba …", "sam
			// dot whitley 82 at …" — the number is part of the local part as dictated
			j--
			for j > 0 && isLocalByte(l[j-1]) {
				j--
			}
		}
		s = j
		spelled := false
		for _, d := range dotWords[:len(dotWords)-1] {
			if strings.HasSuffix(l[:s], d) && s-len(d) > 0 && isLocalByte(l[s-len(d)-1]) {
				s -= len(d)
				spelled = true
				break
			}
		}
		if !spelled {
			break
		}
	}
	for s < k && (l[s] == '.' || l[s] == '-') {
		s++
	}
	return s
}

// emailDomainEnd reads the domain after the @ at i: labels separated by dots or spelled dots,
// the last one a known top-level domain. spelled reports a spelled dot.
func emailDomainEnd(text, l string, i int) (int, bool) {
	end, labels, spelled := -1, 0, false
	j := i
	for labels < 5 {
		k := j
		for k < len(l) && (isWordByte(l[k]) || l[k] == '-') {
			k++
		}
		if k == j {
			break
		}
		labels++
		if labels > 1 && topLevelDomains[l[j:k]] && (k == len(l) || !isWordByte(l[k])) {
			end = k
		}
		dot := false
		for _, d := range dotWords {
			if strings.HasPrefix(l[k:], d) && k+len(d) < len(l) && isWordByte(l[k+len(d)]) {
				if d != "." {
					spelled = true
				}
				j = k + len(d)
				dot = true
				break
			}
		}
		if !dot {
			break
		}
	}
	return end, spelled
}

// roleLocalParts are the local parts (or their first dot-, dash- or underscore-separated
// word) of a business's shared mailbox: info@…, atencion.cliente@…, payments@…,
// citaciones@…, oficina.sabadell@….
var roleLocalParts = words(`info informacion información contacto contact contacte atencion atención atencionalcliente clientes cliente
	customer customers customerservice customercare soporte support help ayuda admin administracion administración oficina office
	secretaria secretaría recepcion recepción reception citaciones citas citacions cita reclamaciones reclamacions complaints
	payments pagos facturacion facturación billing invoices riesgos ventas sales comercial marketing rrhh hr noreply no-reply
	donotreply notificaciones notifications avisos alertas alerts prensa press empleo jobs legal compliance privacidad privacy
	tarjetas cards hipotecas prestamos préstamos inversiones empresas bulegoa idazkaritza informazioa bustia secretaria.juzgado registro registre hello hola team equipo
	seguridad security seguretat verificacion verificación verification fraude fraud of ofi suc sucursal branch agencia
	international internacional desk treasury tesoreria tesorería ops operations operaciones operacions
	hipoteques hipoteca mortgages mortgage particulares particulars banca pymes negocios business accounts cuentas comptes
	cobros recobros consultas consultes dudas gestion gestió tramites trámits atencio atenció clients service care
	servicio servei servizo zerbitzua client privada privat`)

// roleLocal: a local part that is a shared mailbox's word, or two or three of them run
// together ("atencionclientes", "customerservice", "bancaprivada"), with "al", "a" or "de"
// allowed between them ("atencionalcliente").
func roleLocal(s string) bool {
	return roleLocalParts[s] || roleCompound(s, 3)
}

func roleCompound(s string, parts int) bool {
	if parts == 0 {
		return false
	}
	for i := 3; i <= len(s)-3; i++ {
		if !roleLocalParts[s[:i]] {
			continue
		}
		rest := s[i:]
		if roleLocalParts[rest] || roleCompound(rest, parts-1) {
			return true
		}
		for _, glue := range [...]string{"al", "a", "de"} {
			if r, ok := strings.CutPrefix(rest, glue); ok && len(r) >= 3 && (roleLocalParts[r] || roleCompound(r, parts-1)) {
				return true
			}
		}
	}
	return false
}

// freeMailDomains are the providers where a mailbox is a person's, whatever its name.
var freeMailDomains = words(`gmail googlemail hotmail outlook live msn yahoo ymail icloud me mac aol protonmail proton gmx
	telefonica movistar terra ya orange euskalnet yandex mail email zoho tutanota hushmail wanadoo free laposte libero tiscali
	btinternet sky virginmedia ono jazztel vodafone xtec`)

// emailRoleVeto: an address whose local part is a shared mailbox's (roleLocalParts) at a
// domain that is not a free-mail provider is a business's address, not a person's — unless a
// word of its other parts is written elsewhere in the text with a capital, as a name is
// ("legal@bufete-ferrer.com … copy Jordi Ferrer": the firm bears its owner's name).
func emailRoleVeto(text string, start, end int) bool {
	if end-start > 128 || end <= start {
		return false
	}
	var buf [128]byte
	vb := appendLowerSameLength(buf[:0], text[start:end])
	v := unsafe.String(&vb[0], len(vb)) // read only within this call
	at := strings.IndexByte(v, '@')
	if at <= 0 {
		return false
	}
	local, domain := v[:at], v[at+1:]
	first := local
	if d := strings.IndexByte(domain, '.'); d > 0 {
		if freeMailDomains[domain[:d]] {
			return false
		}
		domain = domain[:strings.LastIndexByte(domain, '.')] // without the top-level domain
	}
	if k := strings.IndexAny(local, "._-"); k > 0 && !roleLocalParts[local] {
		first = local[:k]
	}
	if !roleLocal(strings.TrimRight(first, "0123456789")) { // "oficina3021@…"
		return false
	}
	rest := local[len(first):] + "." + domain
	var fb [128]byte
	for _, tok := range strings.FieldsFunc(rest, func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
		// Only a word the name lists know counts: "CaixaBank" written in a phishing text
		// does not make "seguridad@caixabank-verificacion.top" a person's mailbox.
		if len(tok) >= 4 && !roleLocalParts[tok] && lexLookup(appendAccentFolded(fb[:0], []byte(tok)))&(lexGivenNames|lexSurnames) != 0 &&
			capitalisedElsewhere(text, start, end, tok) {
			return false
		}
	}
	return true
}

// capitalisedElsewhere: the lower-case ASCII word w occurs in text outside [start, end) at a
// word start, with its first letter in capitals.
func capitalisedElsewhere(text string, start, end int, w string) bool {
	if w[0] < 'a' || w[0] > 'z' {
		return false
	}
	up := string(w[0]-'a'+'A') + w[1:]
	for off := 0; off < len(text); {
		k := strings.Index(text[off:], up)
		if k < 0 {
			k = indexFold(text[off:], up)
			if k < 0 {
				return false
			}
		}
		k += off
		off = k + 1
		if k >= start && k < end || k > 0 && isWordByte(text[k-1]) || text[k] < 'A' || text[k] > 'Z' {
			continue
		}
		return true
	}
	return false
}

// indexFold finds up (a capital, then lower case) with the rest in any case ("FERRER").
func indexFold(s, up string) int {
	for k := 0; k+len(up) <= len(s); k++ {
		if s[k] == up[0] && strings.EqualFold(s[k:k+len(up)], up) {
			return k
		}
	}
	return -1
}

// dictatedWords are the names of the letters and digits (Spanish, Catalan, Galician) and the
// spelled separators of a local part dictated letter by letter ("ge ene a ere o ele punto siete
// uno arroba yahoo punto es").
var dictatedWords = words(`a be ce de e efe ge hache i jota ka ele eme ene o pe cu ere erre ese te u uve ve doble equis
	griega ye zeta zeda efa hac ela ema ena erra essa ics uve cero uno dos tres cuatro cinco seis siete ocho nueve un
	quatre cinc sis set vuit nou catro sete oito nove punto punt guion guión bajo baixo`)

// dictatedLocalStart: when the local part at s (ending at k) is itself a dictated word, the
// start of the run of dictated words before it, if that run adds three words or more; else s.
func dictatedLocalStart(l string, s, k int) int {
	if !dictatedWords[l[s:k]] && !(k-s == 1 && isASCIILetterByte(l[s])) {
		return s
	}
	start, n := s, 0
	for i := s; i > 1 && l[i-1] == ' '; {
		j := i - 1
		for j > 0 && l[j-1] != ' ' {
			j--
		}
		w := l[j : i-1]
		if !dictatedWords[w] {
			break
		}
		n++
		if w != "punto" && w != "punt" && w != "guion" && w != "bajo" && w != "baixo" && w != "doble" && w != "griega" {
			start = j // a run ends on a letter or a digit, never on a separator word
		}
		i = j
	}
	if n < 3 {
		return s
	}
	return start
}
