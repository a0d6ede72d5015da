package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Table awareness (issue #13): in a CSV/TSV export, a Markdown or pipe table, a JSON object or
// a "key: value" form, the header or key says what a value is, and the value itself often does
// not ("Julia", "00412233", "21/07/1990"). A header row whose cells name personal data (nombre,
// apellidos, dni, fecha_nac, dirección, email, teléfono…) types every cell under it; a key that
// names personal data types its value. Each cell is still checked against its type's form (a
// date for a date of birth, digits for a record number, no digits in a name), so that an
// "n/a", a "-" or a stray column does not become a value.

// columnType returns the type the cells of a column headed h hold ("" if none). h is the raw
// header cell; it is folded and its _ - . / become spaces.
func columnType(h string) string {
	if len(h) > 40 {
		return ""
	}
	return columnTypeLower(appendLowerSameLength(make([]byte, 0, 64), h))
}

// columnAt is columnType(p.text[s:e]), read from the lower-cased text.
func (p *dateParser) columnAt(s, e int) string {
	if len(p.fc.lower) != len(p.text) {
		return columnType(p.text[s:e])
	}
	return columnTypeLower(p.fc.lower[s:e])
}

// columnTypeLower is columnType of a header already lower-cased (appendLowerSameLength), without
// allocating: the header is folded into a stack buffer and its words looked up in place.
func columnTypeLower(l []byte) string {
	if len(l) > 40 {
		return ""
	}
	var buf [96]byte
	f := appendAccentFolded(buf[:0], l)
	// separators to spaces, trimmed, runs of spaces collapsed
	n := 0
	for _, c := range f {
		switch c {
		case '_', '-', '.', '/', '(', ')', '"', '\'', '*', '`', '#', ':', '\t', ' ':
			c = ' '
		}
		if c == ' ' && (n == 0 || f[n-1] == ' ') {
			continue
		}
		f[n] = c
		n++
	}
	for n > 0 && f[n-1] == ' ' {
		n--
	}
	f = f[:n]
	for i := 0; i+1 < len(f); i++ { // º and ° (UTF-8 C2 BA / C2 B0) are separators too
		if f[i] == 0xC2 && (f[i+1] == 0xBA || f[i+1] == 0xB0) {
			f[i], f[i+1] = ' ', ' '
		}
	}
	if len(f) == 0 {
		return ""
	}
	if t, ok := columnExact[string(f)]; ok {
		return t
	}
	var has [9]bool // colNotPersonal, colDOB, colEmail, colPhone, colAddress, colPassport, colMRN, colID, colPerson
	for len(f) > 0 {
		k := 0
		for k < len(f) && f[k] != ' ' {
			k++
		}
		d := k
		for d > 1 && isDigitByte(f[d-1]) {
			d-- // "cognom1", "tel2": a label's index
		}
		if tok := string(f[:d]); tok != "" {
			for j, set := range colSets {
				if set[tok] {
					has[j] = true
				}
			}
		}
		if k == len(f) {
			break
		}
		f = f[k+1:]
	}
	for j, t := range colTypes {
		if has[j] {
			return t
		}
	}
	return ""
}

// columnExact are whole headers (folded, spaced) that the word sets below would miss or mistype.
var columnExact = map[string]string{
	"f nac": TypeDOB, "fnac": TypeDOB, "fecha nac": TypeDOB, "fec nac": TypeDOB, "f n": TypeDOB, "dob": TypeDOB,
	"birthdate": TypeDOB, "birthday": TypeDOB, "dateofbirth": TypeDOB, "fechanacimiento": TypeDOB,
	"firstname": TypePerson, "lastname": TypePerson, "fullname": TypePerson, "givenname": TypePerson,
	"familyname": TypePerson, "given": TypePerson, "family": TypePerson, "surname": TypePerson,
	"ne le": TypeDOB, "nee le": TypeDOB, "nato il": TypeDOB, "nata il": TypeDOB, "cp": TypeAddress, "c p": TypeAddress, "postcode": TypeAddress, "zip": TypeAddress, "codigo postal": TypeAddress,
	"dni nie": TypeDNI, "nif nie": TypeDNI, "dninie": TypeDNI, "doc": TypeDNI, "documento": TypeDNI,
	"doc id": TypeDNI, "docid": TypeDNI, "id doc": TypeDNI, "document": TypeDNI, "document id": TypeDNI, "n documento": TypeDNI,
	"num documento": TypeDNI, "numero documento": TypeDNI, "document number": TypeDNI, "document no": TypeDNI, "doc no": TypeDNI,
	"phonenumber": TypePhone, "mobilephone": TypePhone, "tlf": TypePhone, "tfno": TypePhone, "telf": TypePhone,
	"emailaddress": TypeEmail, "nhc": TypeMRN, "identifier": TypeMRN, "mrn": TypeMRN, "passportnumber": TypePassport,
	"hospital no": TypeMRN, "hospital number": TypeMRN, "hospital n": TypeMRN, "hospital id": TypeMRN, "patient id": TypeMRN, "id paciente": TypeMRN,
}

var (
	colNotPersonal = words(`empresa company sociedad razon entidad banco bank producto product importe amount
		estado status alta baja cobro pago vista vencimiento firma emision expedicion cita ingreso juzgado court
		hospital servicio oficina sucursal branch office iban cuenta account concepto referencia reference
		expediente mandato parentesco cuota sexo cama hora intervencion decision id codigo code tipo type
		user usuario login ip`)
	colDOB = words(`nacimiento nac naixement nacemento jaiotze jaiotza birth dob born birthdate nascimento naissance
		geburtsdatum nacido nacida`)
	colEmail = words(`email e-mail mail correo correu posta emaila`)
	colPhone = words(`telefono tel phone movil mobile telf tlf tfno telefon mobil mvl celular cell whatsapp fijo`)
	// the town's column is the address's too, like the street's and the postcode's
	colAddress = words(`direccion domicilio address adreca adreça helbidea enderezo calle street domicili morada residencia
		ciudad localidad poblacion municipio city town ciutat poblacio localitat hiria herria concello cidade ville`)
	colPassport = words(`pasaporte passport passaport passeport pasaportea`)
	colMRN      = words(`nhc mrn historia nhs cip tis tsi sip nuhsa historial cipa`)
	colID       = words(`dni nif nie identidad identificacion nan`)
	colPerson   = words(`nombre nombres apellido apellidos apellido1 apellido2 name names surname surnames firstname
		lastname nom noms cognom cognoms izena izenak abizena abizenak apelido apelidos paciente pacient patient
		prenom prenoms nome cognome vorname nachname forename forenames
		cliente clienta client customer titular titulares holder heredero heredera herederos solicitante applicant
		deudor deudora debtor acreedor beneficiario beneficiaria beneficiary cirujano cirujana surgeon medico medica
		doctor doctora facultativo enfermero enfermera agente gestor gestora empleado empleada employee contacto
		contact firmante signatory arrendatario arrendataria arrendador arrendadora tenant landlord comprador
		compradora vendedor vendedora avalista tomador tomadora asegurado asegurada insured conductor driver
		interesado interesada demandante demandado demandada testigo witness tutor tutora responsable alumno
		socio socia persona person representante apoderado apoderada usuaria given family`)
)

// colSets and colTypes: the word sets of a header in the order they are decided (a word naming
// something that is not personal data wins, then a date of birth, e-mail, phone…), and the type
// each gives ("" for the first).
var (
	colSets  = [9]map[string]bool{colNotPersonal, colDOB, colEmail, colPhone, colAddress, colPassport, colMRN, colID, colPerson}
	colTypes = [9]string{"", TypeDOB, TypeEmail, TypePhone, TypeAddress, TypePassport, TypeMRN, TypeDNI, TypePerson}
)

// tableGapLines: how many lines without the delimiter may stand between a header and its rows.
const tableGapLines = 3

// tableDelims are the cell separators of a header row, most telling first.
const tableDelims = "|\t;,"

// appendTables appends the values that headers and keys type: the cells of every table whose
// header names personal data, the values of JSON keys and of "key: value" lines.
func appendTables(out []Span, text string, ws []word, fc *folder) []Span {
	p := dateParser{text: text, ws: ws, fc: fc}
	var cols []string
	var cells [][2]int
	delim := byte(0)
	headerCells, gapLines, pageBreak := 0, 0, false
	for ls := 0; ls < len(text); {
		le := strings.IndexByte(text[ls:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += ls
		}
		line := text[ls:le]
		lineEnd := le
		if lineEnd > ls && text[lineEnd-1] == '\r' {
			lineEnd--
		}
		suspended := false
		if delim != 0 {
			if strings.IndexByte(line, delim) < 0 {
				// a blank line, a page break ("--- página 2 ---") or a short note ("export run
				// 2026-12-01") between the header and its rows: the header still types the
				// rows for up to tableGapLines such lines (not for a comma, which prose has)
				gapLines++
				if pageBreakLine(line) {
					pageBreak = true
				}
				if gapLines > tableGapLines || delim == ',' && !pageBreak && strings.TrimSpace(line) != "" || len(line) > 80 || headerOf(line) {
					delim, cols = 0, cols[:0]
				} else {
					suspended = true
					out = appendKeyValue(out, &p, ls, lineEnd)
				}
			} else if delim == ',' && gapLines > 0 && !pageBreak || gapLines > 0 && typedHeader(&p, line) {
				// a comma table resumes only past a page break: after a blank line, a line
				// with commas is as often prose; and a header past the gap starts a new table
				delim, cols = 0, cols[:0]
			} else if !separatorRow(line) {
				gapLines, pageBreak = 0, false
				cells = splitCells(cells[:0], text, ls, lineEnd, delim)
				if len(cells) == headerCells+1 && delim == ',' {
					cells = joinSurnameGiven(cells, cols, text)
				}
				if len(cells) == headerCells {
					for k, c := range cells {
						if cols[k] != "" {
							out = appendCell(out, &p, cols[k], c[0], c[1])
						}
					}
				}
			}
		}
		if delim == 0 && !suspended {
			if d, n := headerDelim(line); d != 0 {
				cells = splitCells(cells[:0], text, ls, lineEnd, d)
				cols = cols[:0]
				typed := 0
				for _, c := range cells {
					t := p.columnAt(c[0], c[1])
					cols = append(cols, t)
					if t != "" {
						typed++
					}
				}
				if typed > 0 && len(cells) >= 2 && n > 0 && (d != '/' || typed >= 2) {
					delim, headerCells, gapLines, pageBreak = d, len(cells), 0, false
				} else {
					cols = cols[:0]
				}
			} else {
				out = appendKeyValue(out, &p, ls, lineEnd)
				out = appendInlinePairs(out, &p, ls, lineEnd)
				out = appendInlineHeaderList(out, &p, ls, lineEnd)
			}
		}
		ls = le + 1
	}
	return appendJSONKeys(out, &p)
}

// joinSurnameGiven: a comma row with one cell too many whose person column holds "Surname,
// Given" unquoted ("Gómez Ruiz, Alba,24967149,1983-07-21"): the two cells at the person column,
// both words of letters only, are joined back into one, so the columns after it line up again.
// cells is returned unchanged when no person column can take the extra cell.
func joinSurnameGiven(cells [][2]int, cols []string, text string) [][2]int {
	for k, c := range cols {
		if c != TypePerson || k+1 >= len(cells) {
			continue
		}
		if k+1 < len(cols) && cols[k+1] == TypePerson {
			return cells // "izena,abizenak,…": the given name has a column of its own; the extra comma is elsewhere
		}
		a, b := text[cells[k][0]:cells[k][1]], text[cells[k+1][0]:cells[k+1][1]]
		if !nameLike(a) || !nameLike(b) || !capitalised(b) || strings.ContainsAny(a+b, "0123456789") {
			return cells
		}
		cells[k][1] = cells[k+1][1]
		return append(cells[:k+1], cells[k+2:]...)
	}
	return cells
}

// inlineValueSeps split the values of an inline header list, most telling first.
var inlineValueSeps = [...]string{" · ", " / ", " | ", " - ", "; ", ", "}

// appendInlineHeaderList types the values of a header list written on the same line as its
// values: "Datos (nacimiento / nombre / historia): 1959-01-12 · Eloy Pardo · HC 203 118",
// "fecha nac / paciente / nhc: 03/05/1961, Iker Goñi, 7790213". The labels, split by " / " (in
// brackets right before the colon, or the whole text before it), must type two columns at least
// (columnType); the values after the colon are split by the first separator that gives exactly as
// many cells, and each typed one is read as its column's (appendCell).
func appendInlineHeaderList(out []Span, p *dateParser, ls, le int) []Span {
	text := p.text
	c := strings.IndexByte(text[ls:le], ':')
	if c < 0 || !strings.Contains(text[ls:ls+c], " / ") {
		return out // the cheap test first: most lines have no spaced slash before a colon
	}
	c += ls
	hs := ls
	if text[c-1] == ')' {
		if b := strings.LastIndexByte(text[ls:c], '('); b >= 0 {
			hs = ls + b + 1
		}
	}
	he := c
	if text[he-1] == ')' {
		he--
	}
	var buf [8][2]int
	var cols [8]string
	n, typed := 0, 0
	for s := hs; s <= he && n < len(cols); {
		k := strings.Index(text[s:he], " / ")
		e := he
		if k >= 0 {
			e = s + k
		}
		cell := trimCell(text, s, e)
		if cell[1]-cell[0] > 40 {
			return out
		}
		cols[n] = p.columnAt(cell[0], cell[1])
		if cols[n] != "" {
			typed++
		}
		n++
		if k < 0 {
			break
		}
		s = e + 3
	}
	if n < 2 || typed < 2 {
		return out
	}
	for _, sep := range inlineValueSeps {
		cells := buf[:0]
		for s := c + 1; s <= le && len(cells) <= n; {
			k := strings.Index(text[s:le], sep)
			e := le
			if k >= 0 {
				e = s + k
			}
			cells = append(cells, trimCell(text, s, e))
			if k < 0 || len(cells) == len(buf) {
				break
			}
			s = e + len(sep)
		}
		if len(cells) != n {
			continue
		}
		if last := &cells[n-1]; last[1] > last[0] && text[last[1]-1] == '.' {
			last[1]-- // the sentence's full stop
		}
		for k, cell := range cells {
			if cols[k] != "" {
				out = appendCell(out, p, cols[k], cell[0], cell[1])
			}
		}
		return out
	}
	return out
}

// headerDelim returns the delimiter of a header row and how many times it occurs, or 0: a line
// of short cells without digits, split by one of tableDelims at least once (twice for a comma,
// which prose has too).
func headerDelim(line string) (byte, int) {
	if len(line) > 400 || len(line) < 3 {
		return 0, 0
	}
	for i := 0; i < len(line); i++ {
		if isDigitByte(line[i]) && !(i > 0 && (isASCIILetterByte(line[i-1]) || line[i-1] == '_' || isDigitByte(line[i-1]) && i > 1 && !isDigitByte(line[i-2]) && line[i-2] != ' ')) {
			return 0, 0 // a number; only a label's index glued to it is allowed ("apellido1", "tel_2")
		}
	}
	for k := 0; k < len(tableDelims); k++ {
		d := tableDelims[k]
		n := strings.Count(line, string(d))
		if n == 0 || d == ',' && n < 2 {
			continue
		}
		// cells are short: a header is labels, not prose
		long := false
		for rest := line; rest != "" && !long; {
			c := rest
			if k := strings.IndexByte(rest, d); k >= 0 {
				c, rest = rest[:k], rest[k+1:]
			} else {
				rest = ""
			}
			c = strings.TrimSpace(c)
			long = len(c) > 40 || strings.Count(c, " ") > 3
		}
		if !long {
			return d, n
		}
	}
	// a header list split by " / " as clinical notes type it ("nacimiento / nombre / historia"):
	// only the spaced slash, so a row's dates (12/03/1950) stay whole; appendTables wants two typed
	// columns of it, a slash being also prose's "y/o"
	if n := strings.Count(line, " / "); n > 0 {
		for rest := line; rest != ""; {
			c := rest
			if k := strings.Index(rest, " / "); k >= 0 {
				c, rest = rest[:k], rest[k+3:]
			} else {
				rest = ""
			}
			if c = strings.TrimSpace(c); len(c) > 40 || strings.Count(c, " ") > 3 {
				return 0, 0
			}
		}
		return '/', n
	}
	return 0, 0
}

// separatorRow: a Markdown table's |---|:---:| line.
func separatorRow(line string) bool {
	dash := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '-':
			dash = true
		case '|', ':', ' ', '\t', '+', '=', '\r':
		default:
			return false
		}
	}
	return dash
}

// splitCells appends the trimmed byte ranges of the cells of text[ls:le] split by d; a CSV cell
// in double quotes may hold d. A leading and a trailing | (Markdown) open and close no cell.
func splitCells(out [][2]int, text string, ls, le int, d byte) [][2]int {
	i := ls
	for i < le && (text[i] == ' ' || text[i] == '\t' && d != '\t') {
		i++
	}
	if d == '|' && i < le && text[i] == '|' {
		i++
	}
	end := le
	for end > i && (text[end-1] == ' ' || text[end-1] == '\t' && d != '\t') {
		end--
	}
	if d == '|' && end > i && text[end-1] == '|' {
		end--
	}
	for i <= end {
		s := i
		j := i
		for j < end && text[j] == ' ' {
			j++
		}
		if j < end && text[j] == '"' {
			k := strings.IndexByte(text[j+1:end], '"')
			if k >= 0 {
				cs, ce := j+1, j+1+k
				out = append(out, trimCell(text, cs, ce))
				j = ce + 1
				for j < end && text[j] != d {
					j++
				}
				i = j + 1
				continue
			}
		}
		k, w := strings.IndexByte(text[s:end], d), 1
		if d == '/' {
			k, w = strings.Index(text[s:end], " / "), 3 // the spaced slash only (headerDelim)
		}
		if k < 0 {
			out = append(out, trimCell(text, s, end))
			break
		}
		out = append(out, trimCell(text, s, s+k))
		i = s + k + w
	}
	return out
}

func trimCell(text string, s, e int) [2]int {
	for s < e && (text[s] == ' ' || text[s] == '\t' || text[s] == '"' || text[s] == '\'') {
		s++
	}
	for e > s && (text[e-1] == ' ' || text[e-1] == '\t' || text[e-1] == '"' || text[e-1] == '\'' || text[e-1] == '\r') {
		e--
	}
	return [2]int{s, e}
}

// appendCell appends text[s:e] as a value of type typ if it has that type's form.
func appendCell(out []Span, p *dateParser, typ string, s, e int) []Span {
	text := p.text
	if e-s < 2 || e-s > 160 {
		return out
	}
	v := text[s:e]
	digits, letters := 0, 0
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+5 < len(v) && v[i+1] == 'u' {
			letters++ // a JSON escape (\u00e9): one letter
			i += 5
			continue
		}
		switch c := v[i]; {
		case isDigitByte(c):
			digits++
		case isASCIILetterByte(c) || c >= 0x80:
			letters++
		}
	}
	switch v {
	case "n/a", "N/A", "NA", "--", "—", "null", "NULL", "none", "None", "-", "s/d", "?":
		return out
	}
	score := 0.8
	switch typ {
	case TypePerson:
		if digits > 0 || letters < 2 || strings.Count(v, " ") > 6 || companyLike(v) || strings.ContainsAny(v, "@/") {
			return out
		}
	case TypeDOB:
		if digits < 2 {
			if d := p.parse(s, true); d != e {
				return out
			}
		} else if d := p.parse(s, true); d != e && !(digits == len(v) && (len(v) == 4 || len(v) == 2)) {
			return out
		}
	case TypeAddress:
		if letters < 2 && digits < 4 {
			return out
		}
	case TypeEmail:
		if !strings.Contains(v, "@") && !strings.Contains(strings.ToLower(v), "arroba") && !strings.Contains(strings.ToLower(v), "at") {
			return out
		}
	case TypePhone:
		if digits < 6 || letters > 0 {
			return out
		}
	case TypePassport:
		if digits < 4 || strings.Count(v, " ") > 1 || len(v) > 14 {
			return out
		}
	case TypeMRN:
		if digits < 4 || len(v) > 24 || strings.Count(v, " ") > 2 && (digits < 8 || strings.Count(v, " ") > 4) {
			return out // a CIP is typed in five groups: "SORA 0 361012 00 7"
		}
	case TypeDNI:
		if passportLike(v) || docNumberLike(v) {
			// a foreigner's passport or identity card under a generic "documento"/"doc" header:
			// "FK917204", "K7TX93LR2"
			typ = TypePassport
			break
		}
		if digits < 7 || len(v) > 16 {
			return out
		}
		if c := v[0] | 0x20; c == 'x' || c == 'y' || c == 'z' {
			typ = TypeNIE
		}
	}
	return append(out, Span{Start: s, End: e, Type: typ, Text: v, Score: score, Source: "table"})
}

// passportLike: two or three capitals, then six to nine digits (and at most one more capital),
// as passports are numbered ("FK917204", "PAA123456"); a DNI or NIE has at most one letter first,
// and "ES" + a DNI is a NIF.
func passportLike(v string) bool {
	i := 0
	for i < len(v) && v[i] >= 'A' && v[i] <= 'Z' {
		i++
	}
	if i < 2 || i > 3 {
		return false
	}
	j := i
	for j < len(v) && isDigitByte(v[j]) {
		j++
	}
	if j-i < 6 || j-i > 9 {
		return false
	}
	if j+1 == len(v) && i == 2 && v[:2] == "ES" && (j-i == 7 || j-i == 8) {
		return false // a NIF with its country prefix: "ES45902113R"
	}
	return j == len(v) || j+1 == len(v) && v[j] >= 'A' && v[j] <= 'Z'
}

// docNumberLike: seven to ten capitals and digits, three digits at least and a capital among
// them, not a DNI or NIE (with or without a valid letter: one letter at either end of seven or
// eight digits is theirs) — the numbers of other countries' identity cards and passports
// ("K7TX93LR2", "C4J8R2K91").
func docNumberLike(v string) bool {
	if len(v) < 7 || len(v) > 10 {
		return false
	}
	digits, letters := 0, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case isDigitByte(c):
			digits++
		case c >= 'A' && c <= 'Z':
			letters++
		default:
			return false
		}
	}
	if digits < 3 || letters == 0 {
		return false
	}
	// a DNI or NIE shape, its letter right or wrong: [XYZ] then seven digits, or eight digits,
	// then a letter
	body := v[:len(v)-1]
	if c := body[0]; c == 'X' || c == 'Y' || c == 'Z' {
		body = body[1:]
	}
	return !(isASCIILetterByte(v[len(v)-1]) && (len(body) == 7 || len(body) == 8) && allDigits(body))
}

// companyLike: a cell that names a company or association rather than a person.
func companyLike(v string) bool {
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' || r == '.' }) {
		if f := fold(w); companyWords[f] || institutionHeads[f] {
			return true
		}
	}
	// a dotted company form: "S.A.U.", "S.L.", "S. Coop."
	for _, w := range strings.Fields(v) {
		if strings.Count(w, ".") >= 2 {
			if companyWords[fold(strings.ReplaceAll(w, ".", ""))] {
				return true
			}
		}
	}
	return false
}

var companyWords = words(`sl sa slu sau slp cb sc scoop coop asoc asociacion association ltd llc inc gmbh plc lda ltda
	fundacion fundacio comunidad ayuntamiento ajuntament consorcio grupo group holding servicios talleres
	construcciones promociones inmobiliaria reformas limpiezas transportes seguros seguro aseguradora mutua banco
	bank caja caixa abogados asesores consultores consulting hoteles distribuciones industrias`)

// appendKeyValue types the value of a "key: value" line ("Nombre: Julia Serrano", "- fecha_nac:
// 1958-04-12", "DNI = 12345678Z").
func appendKeyValue(out []Span, p *dateParser, ls, le int) []Span {
	text := p.text
	i := ls
	for i < le && (text[i] == ' ' || text[i] == '\t' || text[i] == '-' || text[i] == '*' || text[i] == '>') {
		i++
	}
	k := i
	for k < le && k-i < 32 && text[k] != ':' && text[k] != '=' && text[k] != '\t' {
		k++
	}
	if k >= le || k == i || k-i >= 32 || (text[k] != ':' && text[k] != '=') {
		return out
	}
	if strings.Count(strings.TrimSpace(text[i:k]), " ") > 2 {
		return out
	}
	typ := p.columnAt(i, k)
	if typ == "" {
		return out
	}
	s := k + 1
	for s < le && (text[s] == ' ' || text[s] == '\t' || text[s] == '"' || text[s] == '\'') {
		s++
	}
	e := le
	switch typ {
	case TypePerson:
		e = personValueEnd(text, s, le)
	case TypeAddress:
		for j := s; j < le; j++ {
			if c := text[j]; c == ';' || c == '|' || c == '(' || c == '.' && (j+1 == le || text[j+1] == ' ') && j > s && !isDigitByte(text[j-1]) && !isShortAbbrev(text, s, j) {
				e = j
				break
			}
		}
	default:
		for j := s; j < le; j++ {
			if c := text[j]; c == ';' || c == '|' || c == '(' || c == ',' || c == ' ' && typ != TypePhone && typ != TypeDOB && typ != TypeMRN && typ != TypeEmail {
				e = j
				break
			}
		}
		if typ == TypeDOB {
			if d := p.parse(s, true); d > s {
				e = d
			} else {
				return out
			}
		}
	}
	c := trimCell(text, s, e)
	for c[1] > c[0] && strings.IndexByte(".,;:", text[c[1]-1]) >= 0 {
		c[1]--
	}
	if typ == TypePerson && (!nameLike(text[c[0]:c[1]]) || idWordFirst(text[c[0]:c[1]])) {
		return out // a chat line ("Cliente: le doy su DNI"), an id's label ("arrendatario: NIF 71…"), not a name
	}
	if typ == TypeEmail || typ == TypePhone || typ == TypeDNI || typ == TypeMRN || typ == TypePassport {
		// the recognizers read these; a key only adds what they cannot know (a cell's type)
		if typ != TypeMRN && typ != TypePassport {
			return out
		}
	}
	return appendCell(out, p, typ, c[0], c[1])
}

// appendInlinePairs types the values of the "key: value" pairs inside a line after its first
// ("… please check: Nom: Lefebvre, Prénom: Camille", "— Cognome: Esposito; Nome: Gennaro"): a
// key of one to three words right after a comma, semicolon, colon, bar, bracket or dash, then
// ": ". appendKeyValue reads the pair at the start of the line.
func appendInlinePairs(out []Span, p *dateParser, ls, le int) []Span {
	text := p.text
	for c := ls; c < le; {
		k := strings.IndexByte(text[c:le], ':')
		if k < 0 {
			break
		}
		k += c
		c = k + 1
		if k+1 >= le || text[k+1] != ' ' || k == ls || !isASCIILetterByte(text[k-1]) && text[k-1] < 0x80 {
			continue
		}
		j, spaces := k, 0
		for j > ls && k-j < 32 {
			r, n := utf8.DecodeLastRuneInString(text[ls:j])
			if r == ' ' {
				spaces++
			} else if !unicode.IsLetter(r) && r != '_' {
				break
			}
			j -= n
		}
		if j == ls || k-j >= 32 || spaces > 3 {
			continue // the line's first key (appendKeyValue's), or no key
		}
		switch r, _ := utf8.DecodeLastRuneInString(text[ls:j]); r {
		case ',', ';', ':', '|', '(', '—', '–', '-', '/':
		default:
			continue
		}
		for j < k && text[j] == ' ' {
			j++
		}
		if j < k {
			out = appendKeyValue(out, p, j, le)
		}
	}
	return out
}

// idWordFirst: the value starts with an identifier's or contact's label ("NIF", "DNI", "Tel").
func idWordFirst(v string) bool {
	w, _, _ := strings.Cut(v, " ")
	switch fold(w) {
	case "nif", "dni", "nie", "cif", "nss", "pasaporte", "passport", "tel", "telf", "tlf", "movil", "email", "iban", "cuenta":
		return true
	}
	return false
}

// nameLike: one to six words, each capitalised, in capitals, a particle or a known name.
func nameLike(v string) bool {
	ws := strings.Fields(strings.ReplaceAll(v, ",", " "))
	if len(ws) == 0 || len(ws) > 6 {
		return false
	}
	for k, w := range ws {
		f := fold(w)
		if k == 0 && notNames[f] {
			return false
		}
		if !capitalised(w) && !givenNames[f] && !surnames[f] && !(k > 0 && nameParticles[f]) {
			return false
		}
	}
	return true
}

// isShortAbbrev: the dot at j ends an abbreviation such as "C/", "Av.", "Pza.", "Avda." (a word
// of at most four letters right before it at the start of the value or after a space).
func isShortAbbrev(text string, s, j int) bool {
	k := j
	for k > s && isASCIILetterByte(text[k-1]) {
		k--
	}
	if k-s >= 6 && text[k-1] == ' ' && allDigitsStr(text[k-6:k-1]) {
		return false // a town after its postcode ("36202 Vigo. O cliente…"): the sentence ends
	}
	return j-k <= 4 && (k == s || text[k-1] == ' ')
}

func allDigitsStr(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// personValueEnd returns where a name that starts at s ends: before a digit, a bracket, a
// semicolon, a dash between spaces, or a comma — unless the comma is that of "SURNAMES, Name"
// (one to three capitalised words after it, then the end).
func personValueEnd(text string, s, le int) int {
	for j := s; j < le; j++ {
		c := text[j]
		switch {
		case isDigitByte(c) || c == '(' || c == ';' || c == '|' || c == '"' || c == '<' || c == '\t':
			return j
		case c == ' ' && j+2 < le && text[j+1] == '-' && text[j+2] == ' ':
			return j
		case c == ',':
			rest := strings.TrimSpace(text[j+1 : le])
			ws := strings.Fields(rest)
			if len(ws) >= 1 && len(ws) <= 3 && capitalised(ws[0]) && !strings.ContainsAny(rest, "0123456789,;:") {
				return le
			}
			return j
		}
	}
	return le
}

// appendJSONKeys types the string values of JSON keys that name personal data ("nombre":
// "Ana", "given": ["Lorena"], "address": [{"text": "…"}]); nested objects are read one level
// deep, skipping keys such as "system" and "use" that describe the value.
func appendJSONKeys(out []Span, p *dateParser) []Span {
	text := p.text
	for off := 0; off < len(text); {
		j := strings.Index(text[off:], `":`)
		if j < 0 {
			j = strings.Index(text[off:], `" :`)
			if j < 0 {
				break
			}
		}
		ke := off + j
		off = ke + 2
		ks := strings.LastIndexByte(text[max(0, ke-40):ke], '"')
		if ks < 0 {
			continue
		}
		ks += max(0, ke-40) + 1
		typ := p.columnAt(ks, ke)
		if typ == "" {
			continue
		}
		v := strings.IndexByte(text[ke:], ':') + ke + 1
		out = appendJSONValue(out, p, typ, v, 0)
	}
	return out
}

// appendJSONValue reads the value at i: a string, an array of them, or an object one level deep.
func appendJSONValue(out []Span, p *dateParser, typ string, i, depth int) []Span {
	text := p.text
	for i < len(text) && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r') {
		i++
	}
	if i >= len(text) {
		return out
	}
	switch text[i] {
	case '"':
		e := jsonStringEnd(text, i+1)
		if e < 0 {
			return out
		}
		if typ == TypeDOB {
			if d := p.parse(i+1, true); d != e {
				return out
			}
		}
		return appendCell(out, p, typ, i+1, e)
	case '[', '{':
		if depth > 1 {
			return out
		}
		close := byte(']')
		if text[i] == '{' {
			close = '}'
		}
		n := 0
		for j := i + 1; j < len(text) && n < 8; j++ {
			switch text[j] {
			case close, ']', '}':
				return out
			case '"':
				e := jsonStringEnd(text, j+1)
				if e < 0 {
					return out
				}
				// in an object, the string after a key: skip keys and descriptive values
				k := e + 1
				for k < len(text) && text[k] == ' ' {
					k++
				}
				if k < len(text) && text[k] == ':' {
					key := fold(text[j+1 : e])
					if jsonDescriptive[key] || p.columnAt(j+1, e) != "" && key != "value" && key != "text" {
						// skip the descriptive value or let the outer scan type it
						j = k + 1
						for j < len(text) && text[j] == ' ' {
							j++
						}
						if j < len(text) && text[j] == '"' {
							if e2 := jsonStringEnd(text, j+1); e2 > 0 {
								j = e2
							}
						}
						continue
					}
					j = k
					continue
				}
				before := len(out)
				out = appendJSONValue(out, p, typ, j, depth+1)
				n += len(out) - before
				j = e
			}
		}
	}
	return out
}

var jsonDescriptive = words(`system use type code rank period extension url resourcetype id`)

// jsonStringEnd returns the offset of the closing quote of the string that starts at i.
func jsonStringEnd(text string, i int) int {
	for j := i; j < len(text) && j-i < 400; j++ {
		switch text[j] {
		case '\\':
			j++
		case '"':
			return j
		case '\n':
			return -1
		}
	}
	return -1
}

// headerOf: line is a header row of its own (another table starts).
func headerOf(line string) bool {
	d, _ := headerDelim(line)
	return d != 0
}

// pageBreakLine: a page break an export or a paste leaves between a header and its rows
// ("--- page 2 ---", "=== Página 3 ===", "[pàgina 2]", "-----").
func pageBreakLine(line string) bool {
	t := strings.ToLower(strings.Trim(line, " \t\r-=*_[]()#"))
	if len(line) > 40 || strings.Trim(line, " \t\r") == "" {
		return false
	}
	if t == "" {
		return true // a rule of dashes
	}
	for _, w := range [...]string{"page", "página", "pagina", "pàgina", "pag.", "pág.", "orria", "orrialdea", "páxina", "paxina"} {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	return false
}

// typedHeader: line is a header row with at least one column that names personal data or
// another field (columnType), so a table after a gap starts anew instead of continuing.
func typedHeader(p *dateParser, line string) bool {
	d, n := headerDelim(line)
	if d == 0 || n == 0 {
		return false
	}
	for _, c := range strings.Split(line, string(d)) {
		c = strings.TrimSpace(c)
		if c != "" && columnType(c) != "" {
			return true
		}
	}
	return false
}
