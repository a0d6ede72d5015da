package redact

import (
	"bytes"
	"strings"
	"unsafe"
)

// Dates as people write them, for dates of birth (rules.go finds the cue words): numeric
// (12/04/1958, 12.09.1954, 1941-05-30, 1977/05/12, 3/5/48), with a Roman-numeral month
// (12-IV-1985), written (5 de octubre de 1980, 11 de novembre de 1947, 3rd of May 1980,
// May 3, 1980, 17 March), with the day and year in words (doce de agosto de mil novecientos
// sesenta y uno, veintitrés de octubre del sesenta y ocho), "1 del 4 del 52", and the Basque
// 1984ko martxoaren 9an. A date is never a date of birth on its own (appointments, deeds and
// payments have dates too): only after a birth cue, or in a column headed as one.

// monthNames maps folded month names and abbreviations (ES, EN, CA, GL, EU, FR, DE, PT, IT) to
// their number.
var monthNames = func() map[string]int {
	m := map[string]int{}
	for n, names := range [12]string{
		"enero ene january jan gener xaneiro urtarrila urtarril janvier januar janeiro gennaio",
		"febrero feb february febrer febreiro otsaila otsail fevrier februar fevereiro febbraio",
		"marzo mar march marc martxoa martxo mars marz maerz marco",
		"abril abr april apr apirila apiril avril aprile",
		"mayo may maig maio maiatza maiatz mai maggio",
		"junio jun june juny xuno xuño ekaina ekain juin juni junho giugno",
		"julio jul july juliol xullo uztaila uztail juillet juli julho luglio",
		"agosto ago august aug agost abuztua abuztu aout",
		"septiembre setiembre sep sept september setembre setembro iraila irail septembre setembro settembre",
		"octubre oct october outubro urria urri octobre oktober ottobre",
		"noviembre nov november novembre novembro azaroa azaro",
		"diciembre dic december dec desembre decembro abendua abendu decembre dezember dezembro dicembre",
	} {
		for _, w := range strings.Fields(names) {
			m[w] = n + 1
		}
	}
	return m
}()

// romanMonths are the months in Roman numerals, as Spanish forms write them (12-IV-1985).
var romanMonths = map[string]int{"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11, "xii": 12}

// numberWords are the Spanish (and Catalan and Galician) number words of days and years.
var numberWords = func() map[string]int {
	m := map[string]int{}
	add := func(s string, base int) {
		for i, w := range strings.Fields(s) {
			if w != "_" {
				m[w] = base + i
			}
		}
	}
	add("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciseis diecisiete dieciocho diecinueve veinte veintiuno veintidos veintitres veinticuatro veinticinco veintiseis veintisiete veintiocho veintinueve treinta", 0)
	add("_ un _ _ _ _ _ _ _ _ deu onze dotze tretze catorze quinze setze disset divuit dinou vint", 0)
	add("_ una dous", 0)
	add("_ primero", 0)
	m["primer"], m["u"], m["veintiun"], m["primero"] = 1, 1, 21, 1
	for w, n := range map[string]int{"cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90,
		"cien": 100, "ciento": 100, "doscientos": 200, "trescientos": 300, "cuatrocientos": 400, "quinientos": 500,
		"seiscientos": 600, "setecientos": 700, "ochocientos": 800, "novecientos": 900, "mil": 1000,
		"trenta": 30, "quaranta": 40, "cinquanta": 50, "seixanta": 60, "setanta": 70, "vuitanta": 80, "noranta": 90,
		"noucents": 900, "corenta": 40, "cincuenta_": 50, "sesenta_": 60, "oitenta": 80, "novecentos": 900,
		"cent": 100, "cen": 100, "cento": 100, "hundred": 100, "thousand": 1000} {
		m[strings.TrimSuffix(w, "_")] = n
	}
	// Galician, the rest of Catalan, English
	add("_ unha dous tres catro cinco seis sete oito nove dez once doce trece catorce quince dezaseis dezasete dezaoito dezanove vinte", 0)
	add("_ _ dues _ quatre cinc sis set vuit nou", 0)
	add("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty", 0)
	for w, n := range map[string]int{"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
		"trinta": 30, "vinteun": 21, "vinteunha": 21} {
		m[w] = n
	}
	// Catalan compounds typed without their hyphens ("vintitres d'abril", "vintiun"), as people
	// write them in a hurry or in a Spanish-keyboard chat; Galician ones glued ("vintedous")
	for i, u := range strings.Fields("u un dos tres quatre cinc sis set vuit nou") {
		v := i + 1
		if i > 0 {
			v = i
		}
		m["vinti"+u], m["vintii"+u] = 20+v, 20+v
	}
	for i, u := range strings.Fields("un dous tres catro cinco seis sete oito nove") {
		m["vinte"+u] = 21 + i
	}
	return m
}()

// dayOrdinals are the ordinals a day is written with ("primero de mayo", "the fourth of
// October", "tercer día de marzo", "twenty-first"): read only as a day.
var dayOrdinals = func() map[string]int {
	m := map[string]int{}
	for i, w := range strings.Fields(`first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
		thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth`) {
		m[w] = i + 1
	}
	for i, w := range strings.Fields(`primero segundo tercero cuarto quinto sexto septimo octavo noveno decimo undecimo duodecimo
		decimotercero decimocuarto decimoquinto decimosexto decimoseptimo decimoctavo decimonoveno vigesimo`) {
		m[w] = i + 1
	}
	for i, w := range strings.Fields(`primera segunda tercera cuarta quinta sexta septima octava novena decima`) {
		m[w] = i + 1
	}
	m["thirtieth"], m["trigesimo"], m["tercer"], m["primeiro"], m["primer"] = 30, 30, 3, 1, 1
	return m
}()

// numberValue reads one folded number word, also a compound written with hyphens (Catalan
// "vint-i-tres", "quaranta-vuit", "nou-cents"; English "fifty-eight", "twenty-first"); ordinals
// only when ord.
func numberValue(f string, ord bool) (int, bool) {
	if v, ok := numberWords[f]; ok {
		return v, true
	}
	if ord {
		if v, ok := dayOrdinals[f]; ok {
			return v, true
		}
	}
	if strings.IndexByte(f, '-') < 0 {
		return fusedTens(f)
	}
	v, n := 0, 0
	for part := range strings.SplitSeq(f, "-") {
		switch x, ok := numberWords[part]; {
		case part == "i" && n > 0:
			continue
		case part == "cents" || part == "centes":
			if v == 0 || v > 9 {
				return 0, false
			}
			v *= 100
		case ok && x < 100:
			v += x
		default:
			if y, isOrd := dayOrdinals[part]; ord && isOrd && n > 0 {
				v += y
				break
			}
			return 0, false
		}
		n++
	}
	return v, n > 1
}

// fusedTens reads a tens word fused with its unit by "i"/"y", as people type a spoken number
// ("treintaicuatro", "cuarentaiuno", "sesentayocho"); 0, false if f is not one.
func fusedTens(f string) (int, bool) {
	if len(f) < 9 || len(f) > 16 {
		return 0, false
	}
	for _, t := range fusedTensWords {
		if len(f) > len(t)+1 && f[:len(t)] == t && (f[len(t)] == 'i' || f[len(t)] == 'y') {
			if u, ok := numberWords[f[len(t)+1:]]; ok && u >= 1 && u <= 9 {
				return numberWords[t] + u, true
			}
		}
	}
	return 0, false
}

var fusedTensWords = []string{"treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"}

// dateParser reads a date at a byte offset of text; ws are text's words, fc folds them.
type dateParser struct {
	text string
	ws   []word
	fc   *folder
}

// wordAt returns the index of the word starting at i, or -1.
func (p *dateParser) wordAt(i int) int {
	lo, hi := 0, len(p.ws)
	for lo < hi {
		m := (lo + hi) / 2
		if p.ws[m].start < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(p.ws) && p.ws[lo].start == i {
		return lo
	}
	return -1
}

// foldAt returns the folded word that starts at i and where it ends ("" and -1 if none). The
// string shares the folded bytes (fc.lower or its arena, neither written again during a scan),
// so reading a word costs no allocation; it must not outlive the scan.
func (p *dateParser) foldAt(i int) (string, int) {
	k := p.wordAt(i)
	if k < 0 {
		return "", -1
	}
	f := p.ws[k].fold(p.fc)
	if len(f) == 0 {
		return "", p.ws[k].end
	}
	return unsafe.String(&f[0], len(f)), p.ws[k].end
}

// digitsAt returns the number made of the digits at i and where they end (n digits at most).
func (p *dateParser) digitsAt(i, n int) (int, int, int) {
	v, j := 0, i
	for j < len(p.text) && j-i < n+1 && isDigitByte(p.text[j]) {
		v = v*10 + int(p.text[j]-'0')
		j++
	}
	return v, j, j - i
}

// spaces skips spaces and returns the new offset.
func (p *dateParser) spaces(i int) int {
	for i < len(p.text) && p.text[i] == ' ' {
		i++
	}
	return i
}

// lit skips one of the words in ws (folded) followed by spaces, if there.
func (p *dateParser) lit(i int, ws ...string) (int, bool) {
	f, end := p.foldAt(i)
	if end < 0 {
		return i, false
	}
	for _, w := range ws {
		if f == w {
			return p.spaces(end), true
		}
	}
	return i, false
}

// parse returns the end of a date starting at i (0 if none). yearless allows a written day
// and month without a year ("17 March"). Days and months are checked against the calendar.
func (p *dateParser) parse(i int, yearless bool) int {
	if i >= len(p.text) {
		return 0
	}
	if isDigitByte(p.text[i]) {
		if e := p.numeric(i); e > 0 {
			return e
		}
		if e := p.basque(i); e > 0 {
			return e
		}
		if e := p.compact(i); e > 0 {
			return e
		}
		return p.written(i, yearless)
	}
	if e := p.written(i, yearless); e > 0 {
		return e
	}
	return p.monthFirst(i)
}

func validDay(d, m int) bool { return d >= 1 && d <= 31 && m >= 1 && m <= 12 }

// numeric: d/m/y (/ . - separators, one kind), y-m-d, y/m/d, d-ROMAN-y.
func (p *dateParser) numeric(i int) int {
	t := p.text
	a, j, na := p.digitsAt(i, 4)
	if j >= len(t) || na == 3 || na > 4 {
		return 0
	}
	sep := t[j]
	if sep != '/' && sep != '.' && sep != '-' && sep != ' ' {
		return 0
	}
	if na <= 2 && sep == ' ' && j+1 < len(t) && strings.IndexByte("IVX", t[j+1]) >= 0 {
		// "12 IV 1983": a Roman month in capitals between spaces, then a year
		k := j + 1
		for k < len(t) && k-j <= 5 && strings.IndexByte("IVX", t[k]) >= 0 {
			k++
		}
		m, ok := romanMonths[strings.ToLower(t[j+1:k])]
		if !ok || k >= len(t) || t[k] != ' ' {
			return 0
		}
		y, e, ny := p.digitsAt(k+1, 4)
		if ny != 4 || y < 1900 || y > 2100 || !validDay(a, m) || !p.ends(e) {
			return 0
		}
		return e
	}
	if na == 4 && a >= 1900 && a <= 2100 && (sep == '/' || sep == '-' || sep == '.') && j+1 < len(t) && strings.IndexByte("IVX", t[j+1]) >= 0 {
		// a year first, then a Roman month in capitals and the day: 1957/IX/04, 1962-XI-23
		k := j + 1
		for k < len(t) && k-j <= 5 && strings.IndexByte("IVX", t[k]) >= 0 {
			k++
		}
		m, ok := romanMonths[strings.ToLower(t[j+1:k])]
		if !ok || k >= len(t) || t[k] != sep {
			return 0
		}
		d, e, nd := p.digitsAt(k+1, 2)
		if nd == 0 || !validDay(d, m) || !p.ends(e) {
			return 0
		}
		return e
	}
	if na <= 2 && j+1 < len(t) && !isDigitByte(t[j+1]) && sep != ' ' {
		// Roman month: 12-IV-1985, 22-III-2021
		k := j + 1
		for k < len(t) && k-j <= 5 && strings.IndexByte("IVXivx", t[k]) >= 0 {
			k++
		}
		m, ok := romanMonths[strings.ToLower(t[j+1:k])]
		if ok && k < len(t) && (isASCIILetterByte(t[k]) || t[k] >= 0x80) {
			ok = false // "3-xuño-1996", "9-xullo-1950": a Galician month's x, not a Roman ten
		}
		if !ok {
			// a month name or abbreviation between the separators: 07-Aug-1983, 3.mar.1961
			if f, fe := p.foldAt(j + 1); fe > 0 && fe < len(t) && t[fe] == sep {
				if v, isMonth := monthNames[f]; isMonth {
					m, k, ok = v, fe, true
				}
			}
		}
		if !ok || k >= len(t) || t[k] != sep && !(t[k] == ' ' || t[k] == '.' || t[k] == '-' || t[k] == '/') {
			return 0
		}
		y, e, ny := p.digitsAt(k+1, 4)
		if (ny != 4 && ny != 2) || !validDay(a, m) || !p.ends(e) {
			return 0
		}
		_ = y
		return e
	}
	if sep == ' ' {
		// "03 05 1980": day, month and a four-digit year between single spaces
		b, k, nb := p.digitsAt(j+1, 2)
		if na > 2 || nb == 0 || nb > 2 || k >= len(t) || t[k] != ' ' {
			return 0
		}
		y, e, ny := p.digitsAt(k+1, 4)
		if ny != 4 || y < 1900 || y > 2100 || !validDay(a, b) || !p.ends(e) || e < len(t) && t[e] == ' ' && e+1 < len(t) && isDigitByte(t[e+1]) {
			return 0
		}
		return e
	}
	b, k, nb := p.digitsAt(j+1, 2)
	if nb == 0 || nb > 2 || k >= len(t) || t[k] != sep {
		return 0
	}
	c, e, nc := p.digitsAt(k+1, 4)
	switch {
	case na == 4 && nc <= 2 && nc > 0: // y-m-d, y/m/d
		if !validDay(c, b) || a < 1900 || a > 2100 {
			return 0
		}
		return p.endsOrBasque(e)
	case na <= 2 && (nc == 4 || nc == 2):
		if nc == 4 && (c < 1900 || c > 2100) {
			return 0
		}
		if !validDay(a, b) && !(nc == 4 && sep != '.' && b > 12 && validDay(b, a)) {
			// month first (US: 10/27/1984) only when the day cannot be a month and the year
			// has four digits
			return 0
		}
		return p.endsOrBasque(e)
	}
	return 0
}

// dayMonth: D/M or D.M (one or two digits each, '/' or '.', a valid day and month) and nothing
// date-like after it; the end, or 0.
func (p *dateParser) dayMonth(i int) int {
	t := p.text
	d, j, nd := p.digitsAt(i, 2)
	if nd == 0 || nd > 2 || j+1 >= len(t) || t[j] != '/' && t[j] != '.' {
		return 0
	}
	m, e, nm := p.digitsAt(j+1, 2)
	if nm == 0 || nm > 2 || !validDay(d, m) || !p.ends(e) || e < len(t) && t[e] == t[j] {
		return 0
	}
	return e
}

// compact: eight digits as YYYYMMDD or DDMMYYYY ("19820314", "14031982"), a year from 1900 to
// 2025, nothing word-like or another group of digits after them.
func (p *dateParser) compact(i int) int {
	t := p.text
	_, e, n := p.digitsAt(i, 8)
	if n != 8 || !p.ends(e) || e < len(t) && t[e] == ' ' && e+1 < len(t) && isDigitByte(t[e+1]) {
		return 0
	}
	if y, m, d := atoi(t[i:i+4]), atoi(t[i+4:i+6]), atoi(t[i+6:i+8]); y >= 1900 && y <= 2025 && validDay(d, m) {
		return e
	}
	if d, m, y := atoi(t[i:i+2]), atoi(t[i+2:i+4]), atoi(t[i+4:i+8]); y >= 1900 && y <= 2025 && validDay(d, m) {
		return e
	}
	return 0
}

// endsOrBasque returns e if the date ends there, or the end of a Basque case ending glued to
// it ("1980-05-03an jaio zen", "2001-03-12ko"), or 0.
func (p *dateParser) endsOrBasque(e int) int {
	if p.ends(e) {
		return e
	}
	for _, suf := range [...]string{"ean", "an", "eko", "ko", "etik", "tik", "a"} {
		if strings.HasPrefix(p.text[e:], suf) && p.ends(e+len(suf)) {
			return e + len(suf)
		}
	}
	return 0
}

// yearEnd returns e if a year alone ends there, or the end of the Basque "in" ending glued to it
// ("jaio zen 1950ean"), or 0 ("1982ko urriaren …" is a whole date, not a year alone).
func (p *dateParser) yearEnd(e int) int {
	if p.ends(e) {
		return e
	}
	for _, suf := range [...]string{"ean", "an"} {
		if strings.HasPrefix(p.text[e:], suf) && p.ends(e+len(suf)) {
			return e + len(suf)
		}
	}
	return 0
}

// ends: no digit, letter or more date after e.
func (p *dateParser) ends(e int) bool {
	t := p.text
	if e < len(t) && isWordByte(t[e]) {
		return false
	}
	if e+1 < len(t) && (t[e] == '/' || t[e] == '.' || t[e] == '-' || t[e] == ':') && isDigitByte(t[e+1]) {
		return false
	}
	return true
}

// day reads a day at i: digits (with º/st/nd/rd/th/er/a) or number words. It returns the day
// and the offset after it and the spaces that follow.
func (p *dateParser) day(i int) (int, int) {
	t := p.text
	if isDigitByte(t[i]) {
		d, j, n := p.digitsAt(i, 2)
		if n > 2 {
			return 0, 0
		}
		switch {
		case strings.HasPrefix(t[j:], "º"), strings.HasPrefix(t[j:], "°"), strings.HasPrefix(t[j:], "ª"):
			j += 2
		case j+2 <= len(t) && isOrdinalSuffix(strings.ToLower(t[j:j+2])) && (j+2 == len(t) || !isWordByte(t[j+2])):
			j += 2
		case j < len(t) && (t[j] == 'r' || t[j] == 'a') && (j+1 == len(t) || !isWordByte(t[j+1])):
			j++
		}
		if j < len(t) && isWordByte(t[j]) {
			return 0, 0
		}
		return d, p.spaces(j)
	}
	return p.numberWordsOrd(i, 31, true)
}

func isOrdinalSuffix(s string) bool {
	return s == "st" || s == "nd" || s == "rd" || s == "th" || s == "er"
}

// numberWords reads a number written in words ("veintitrés", "treinta y uno", "mil novecientos
// sesenta y uno", "sesenta y ocho") up to max.
func (p *dateParser) numberWords(i, max int) (int, int) { return p.numberWordsOrd(i, max, false) }

// numberWordsOrd is numberWords, with ordinals too when ord (a day).
func (p *dateParser) numberWordsOrd(i, max int, ord bool) (int, int) {
	total, cur, end, n := 0, 0, 0, 0
	j := i
	for {
		f, e := p.foldAt(j)
		if e < 0 {
			break
		}
		if f == "y" || f == "i" || f == "e" {
			if n == 0 {
				break
			}
			f2, e2 := p.foldAt(p.spaces(e))
			if _, ok := numberValue(f2, ord); !ok || e2 < 0 {
				break
			}
			j = p.spaces(e)
			continue
		}
		v, ok := numberValue(f, ord)
		if !ok {
			// "dieciséis" folds to dieciseis; "veintiún" to veintiun
			break
		}
		switch {
		case n == 1 && total == 0 && (cur == 18 || cur == 19) && v >= 10 && v <= 99:
			cur = cur*100 + v // "nineteen fifty-eight"
		case v == 100 && cur > 0 && cur < 10:
			cur *= 100 // "nine hundred"
		case v == 1000:
			if cur == 0 {
				cur = 1
			}
			total += cur * 1000
			cur = 0
		default:
			cur += v
		}
		n++
		end = e
		j = p.spaces(e)
	}
	if n == 0 || total+cur > max && max != 0 {
		return 0, 0
	}
	return total + cur, p.spaces(end)
}

// year reads a year after a written day and month: 4 digits, 2 digits ('76 or 76 after "del"),
// or words. It returns the offset after it, or 0.
func (p *dateParser) year(i int) int {
	t := p.text
	if i >= len(t) {
		return 0
	}
	if t[i] == '\'' || strings.HasPrefix(t[i:], "’") {
		if t[i] == '\'' {
			i++
		} else {
			i += len("’")
		}
	}
	if i < len(t) && isDigitByte(t[i]) {
		y, e, n := p.digitsAt(i, 4)
		if (n == 4 && y >= 1900 && y <= 2100 || n == 2) && p.ends(e) {
			return e
		}
		return 0
	}
	v, e := p.numberWords(i, 2100)
	if e == 0 || !(v >= 1900 || v >= 10 && v <= 99) {
		return 0
	}
	return p.trimSpaces(e)
}

func (p *dateParser) trimSpaces(e int) int {
	for e > 0 && p.text[e-1] == ' ' {
		e--
	}
	return e
}

// written: DAY [de|of|del] MONTH [,] [de|del|of|,] YEAR — or without a year if yearless.
// MONTH may also be a number after "del" or Galician "do" ("1 del 4 del 52", "catorce del dos del
// dieciséis", "3 do 5 do 1957").
func (p *dateParser) written(i int, yearless bool) int {
	if k, ok := p.lit(i, "the"); ok && k < len(p.text) && k > i {
		i = k // "born on the 23rd of February 1985": the article goes with the date
	}
	d, j := p.day(i)
	if j == 0 || j == i {
		return 0
	}
	j, _ = p.lit(j, "dia", "day") // "tercer día de marzo"
	j, _ = p.lit(j, "de", "of", "d")
	if j < len(p.text) && p.text[j] == '\'' { // d'abril
		j++
	}
	m, mEnd := 0, 0
	if f, e := p.foldAt(j); e > 0 {
		v, ok := monthNames[f]
		if !ok && (strings.HasPrefix(f, "d'") || strings.HasPrefix(f, "d’")) {
			// "9 d'agost": the elided article is one word with the month
			v, ok = monthNames[strings.TrimPrefix(strings.TrimPrefix(f, "d'"), "d’")]
		}
		if ok {
			m, mEnd = v, e
			if mEnd < len(p.text) && p.text[mEnd] == '.' {
				mEnd++
			}
		}
	}
	if m == 0 {
		// "1 del 4 del 52", Galician "1 do 1 do 1940"
		dl, ok2 := p.lit(p.afterDay(i), "del", "do")
		if !ok2 || dl >= len(p.text) { // "… el 4 del" at the end of a text
			return 0
		}
		if isDigitByte(p.text[dl]) {
			v, e, n := p.digitsAt(dl, 2)
			if n == 0 || n > 2 {
				return 0
			}
			m, mEnd = v, e
		} else {
			v, e := p.numberWords(dl, 12)
			if e == 0 {
				return 0
			}
			m, mEnd = v, p.trimSpaces(e)
		}
		if !validDay(d, m) {
			return 0
		}
		y, ok3 := p.lit(p.spaces(mEnd), "del", "de", "do")
		if !ok3 {
			return 0
		}
		return p.year(y)
	}
	if !validDay(d, m) {
		return 0
	}
	k := mEnd
	if k < len(p.text) && p.text[k] == ',' {
		k++
	}
	k = p.spaces(k)
	k2, ok := p.lit(k, "de", "del", "of", "do")
	if e := p.year(k2); e > 0 && (ok || k2 > mEnd) {
		return e
	}
	if yearless && p.ends(mEnd) {
		return mEnd
	}
	return 0
}

// afterDay returns the offset after the day at i and its spaces.
func (p *dateParser) afterDay(i int) int {
	_, j := p.day(i)
	return j
}

// monthFirst: MONTH DAY[st][,] YEAR ("May 3, 1980", "March 17th 1980").
func (p *dateParser) monthFirst(i int) int {
	f, e := p.foldAt(i)
	m, ok := monthNames[f]
	if !ok {
		return 0
	}
	if e < len(p.text) && p.text[e] == '.' {
		e++
	}
	j := p.spaces(e)
	if k, ok := p.lit(j, "the"); ok {
		j = k // "May the 3rd, 1944"
	}
	if j >= len(p.text) || !isDigitByte(p.text[j]) {
		return 0
	}
	d, k := p.day(j)
	if k == 0 || !validDay(d, m) {
		return 0
	}
	k = p.trimSpaces(k)
	if k < len(p.text) && p.text[k] == ',' {
		k++
	}
	return p.year(p.spaces(k))
}

// basque: 1984ko martxoaren 9an / 9(e)an.
func (p *dateParser) basque(i int) int {
	t := p.text
	_, j, n := p.digitsAt(i, 4)
	suf := "ko "
	if strings.HasPrefix(t[j:], "eko ") {
		suf = "eko " // 1990eko, 2001eko
	}
	if n != 4 || !strings.HasPrefix(t[j:], suf) {
		return 0
	}
	k := p.spaces(j + len(suf))
	f, e := p.foldAt(k)
	if e < 0 || !strings.HasSuffix(f, "aren") {
		return 0
	}
	m, ok := monthNames[strings.TrimSuffix(f, "aren")]
	if !ok {
		m, ok = monthNames[strings.TrimSuffix(f, "ren")]
	}
	if !ok {
		return 0
	}
	k = p.spaces(e)
	d, e2, nd := p.digitsAt(k, 2)
	if nd == 0 || nd > 2 || !validDay(d, m) {
		return 0
	}
	for _, suf := range []string{"ean", "an", "a"} {
		if strings.HasPrefix(t[e2:], suf) {
			return e2 + len(suf)
		}
	}
	return e2
}

// appendDOB: the first date within reach after a birth cue.
func appendDOB(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	p := dateParser{text: text, ws: ws, fc: fc}
	if f := string(ws[h.word].fold(fc)); f == "cumple" || f == "cumpleanos" || f == "birthday" {
		// "el 14 de marzo de 1983 es su cumple", "12/03/1979 is his birthday": the date said
		// before the birthday word is the birth; one after it then is another ("…, no el 21")
		if s, e := birthdayDateBefore(&p, h.start); e > 0 {
			return append(out, Span{Start: s, End: e, Type: TypeDOB, Text: text[s:e], Score: 0.85, Source: "cue"})
		}
	}
	if f := string(ws[h.last].fold(fc)); (f == "nada" || f == "nado") && setWordIn3Before(text, h.start, negationWords) {
		return out // "no pasó nada en el 2020": Spanish and Galician "nothing", not "born"
	}
	limit := min(len(text), h.end+48)
	if f := string(ws[h.last].fold(fc)); f == "jaioa" || f == "jaiotakoa" {
		// Basque participles end their clause: the date is right after them or (appendDOBBefore)
		// right before, never further on ("9an jaioa, kontsultara etorri da 2026ko azaroaren 30ean")
		limit = min(len(text), h.end+4)
	}
	for i := h.end; i < limit; i++ {
		c := text[i]
		if c == '\n' {
			// A question on one line, its answer on the next ("fecha de nacimiento" /
			// "usuario: 19 de abril del 84"): only if nothing else followed the cue.
			if strings.TrimLeft(text[h.end:i], " \t\r:?.") != "" {
				break
			}
			limit = min(len(text), i+48)
			continue
		}
		if i > 0 && isWordByte(text[i-1]) && isWordByte(c) {
			continue
		}
		if !isWordByte(c) {
			continue
		}
		if i-h.end <= 3 && isDigitByte(c) {
			// year first with two digits, as Basque dates are written: "jaio 84/02/11",
			// "jaiotza data 79/11/03" (the first number cannot be a day)
			if e := p.shortYearFirst(i); e > 0 {
				return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
			}
		}
		if y, e, n := p.digitsAt(i, 4); n == 4 && y >= 1900 && y <= 2025 && p.yearEnd(e) > 0 && !ageCue(ws, h, fc) &&
			!(e < len(text) && (text[e] == '-' || text[e] == '/' || text[e] == '.' && e+1 < len(text) && isDigitByte(text[e+1]))) {
			// a year alone first: "year of birth 1939", "any de naixement: 1958", "va néixer l'any
			// 1947", Basque "jaio zen 1950ean"
			if notBirthGap(text[h.end:i]) || thingAfter(text, e) {
				return out // "nació en 1931 el edificio": a thing's year
			}
			e = p.yearEnd(e)
			return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
		}
		if e := p.monthYear(i); e > 0 && !notBirthGap(text[h.end:i]) {
			return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
		}
		if !isDigitByte(c) && !ageCue(ws, h, fc) {
			// a year in words: "born nineteen sixty-two", "nacido en mil novecientos ochenta"
			if v, e := p.numberWords(i, 2100); e > 0 && v >= 1900 && v <= 2025 && !notBirthGap(text[h.end:i]) {
				if _, mEnd := p.foldAt(p.spaces(e)); mEnd < 0 || !isMonthAt(&p, p.spaces(e)) {
					e = p.trimSpaces(e)
					return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
				}
			}
		}
		if e := p.dayMonth(i); e > 0 && i-h.end <= 3 && !ageCue(ws, h, fc) {
			// "birthday 4/3", "nacido el 12/05": a day and a month right after the cue
			return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
		}
		if e := p.doNumeric(i); e > 0 && !notBirthGap(text[h.end:i]) {
			// Galician "naceu o 7 do 3 do 44": figures joined by "do"
			return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
		}
		if e := p.parse(i, true); e > i {
			if todayBefore(text, i) || notBirthGap(text[h.end:i]) {
				return out // "(hoy es 10/03/2025)": today, not a birth; "no consta. Ingreso el …"
			}
			if d := dayWordBefore(text, i); d >= h.end {
				i = d // "nacida el día nueve de septiembre de …": the day word is the date's
			}
			return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.85, Source: "cue"})
		}
	}
	n := len(out)
	out = appendDOBAnswer(out, text, h, &p)
	if len(out) == n && h.last < len(ws) {
		switch string(ws[h.last].fold(fc)) {
		case "neixer", "naixer", "nascido", "nascida", "nato", "nata":
			// a birth verb that is not a year cue of its own: "va néixer el 53", "nascida no 61"
			out = appendBirthYear(out, text, h, ws, fc)
		case "nado", "nada":
			// Galician "nado no 62", "nada no 86" — only with "no"/"na": Spanish "nada en el
			// 2020" is "nothing"
			if r := text[h.end:min(len(text), h.end+4)]; r == " no " || r == " na " {
				out = appendBirthYear(out, text, h, ws, fc)
			}
		}
	}
	return out
}

// shortYearFirst: YY/MM/DD (or - .) whose first number cannot be a day (32-99), as a Basque
// date is written year first; the end, or 0.
func (p *dateParser) shortYearFirst(i int) int {
	t := p.text
	y, j, ny := p.digitsAt(i, 2)
	if ny != 2 || y < 32 || j >= len(t) || (t[j] != '/' && t[j] != '-' && t[j] != '.') {
		return 0
	}
	sep := t[j]
	m, k, nm := p.digitsAt(j+1, 2)
	if nm == 0 || nm > 2 || k >= len(t) || t[k] != sep {
		return 0
	}
	d, e, nd := p.digitsAt(k+1, 2)
	if nd == 0 || nd > 2 || !validDay(d, m) || !p.ends(e) {
		return 0
	}
	return e
}

// monthShortYear: MONTH de|del|do|of YY ("agosto del 29", "març del 36", "outubro do 44"),
// the connector required; the end, or 0.
func (p *dateParser) monthShortYear(i int) int {
	f, e := p.foldAt(i)
	if e < 0 {
		return 0
	}
	if _, ok := monthNames[f]; !ok || len(f) < 3 {
		return 0
	}
	j, ok := p.lit(p.spaces(e), "de", "del", "of", "do")
	if !ok {
		return 0
	}
	if j < len(p.text) && p.text[j] == '\'' {
		j++
	}
	_, ye, n := p.digitsAt(j, 4)
	if n != 2 || !p.ends(ye) {
		return 0
	}
	return ye
}

// negationWords make a following "nada" the word for nothing.
var negationWords = map[string]bool{"no": true, "non": true, "ni": true, "nin": true, "sin": true, "sen": true, "nunca": true, "nothing": true}

// isMonthAt: a month name starts at i.
func isMonthAt(p *dateParser, i int) bool {
	f, e := p.foldAt(i)
	if e < 0 {
		return false
	}
	_, ok := monthNames[f]
	return ok
}

// monthYear: MONTH [de|del|of] YYYY ("March 1982", "marzo de 1982") at i; the end, or 0.
func (p *dateParser) monthYear(i int) int {
	f, e := p.foldAt(i)
	if e < 0 {
		return 0
	}
	if _, ok := monthNames[f]; !ok || len(f) < 3 {
		return 0
	}
	j, _ := p.lit(p.spaces(e), "de", "del", "of", "do")
	y, ye, n := p.digitsAt(j, 4)
	if n != 4 || y < 1900 || y > 2100 || !p.ends(ye) || j == e {
		return 0
	}
	return ye
}

// monthYearShort: MONTH [de|del|of] YYYY or YY, for a card's expiry ("marzo de 2027", "May 28").
func (p *dateParser) monthYearShort(i int) int {
	f, e := p.foldAt(i)
	if e < 0 {
		return 0
	}
	if _, ok := monthNames[f]; !ok || len(f) < 3 {
		return 0
	}
	j, _ := p.lit(p.spaces(e), "de", "del", "of", "do")
	y, ye, n := p.digitsAt(j, 4)
	if !(n == 4 && y >= 2015 && y <= 2045 || n == 2 && y >= 15 && y <= 45) || !p.ends(ye) || j == e {
		return 0
	}
	return ye
}

// ageCue: the birth cue is an age word ("edad", "años"), after which a 4-digit number is not a
// year of birth.
func ageCue(ws []word, h cueHit, fc *folder) bool {
	f := string(ws[h.word].fold(fc))
	return f == "edad" || f == "anos" || f == "cumple" || f == "cumpleanos"
}

// notBirthGap: what stands between a birth cue and a date says the date is another one: a
// sentence ends ("Fecha de nacimiento: no consta. Ingreso el 03/03/2025"), the birth date is
// said to be unknown, or a word of notBirthWords comes first.
func notBirthGap(gap string) bool {
	if len(gap) <= 3 {
		return false // ": ", " el", " - ": nothing between
	}
	for i := 0; i+2 < len(gap); i++ {
		if (gap[i] == '.' || gap[i] == '!' || gap[i] == ';') && gap[i+1] == ' ' && (gap[i+2] >= 'A' && gap[i+2] <= 'Z' || gap[i+2] == 0xC3) {
			return true
		}
	}
	var buf [64]byte
	var g []byte
	if len(gap) <= len(buf) {
		g = appendLowerSameLength(buf[:0], gap)
	} else {
		g = appendLowerSameLength(nil, gap)
	}
	// a word of unknownWords, or of notBirthWords that is no date word
	return notBirthNeedles.containsAny(g)
}

var unknownBytes, notBirthBytes = byteWords(unknownWords...), byteWords(notBirthWords...)

// notBirthNeedles: unknownBytes and the notBirthBytes whose word is not in dateWords.
var notBirthNeedles = func() *byteNeedles {
	ws := append([][]byte(nil), unknownBytes...)
	for k, w := range notBirthBytes {
		if !dateWords[notBirthWords[k]] {
			ws = append(ws, w)
		}
	}
	return newByteNeedles(ws...)
}()

// dateWords are the notBirthWords that only introduce a date: after a birth cue they introduce
// the birth date ("nascut a Lleida, amb data 03.09.1972").
var dateWords = map[string]bool{"fecha de": true, "data de": true, "en fecha": true, "de fecha": true, "con fecha": true,
	"amb data": true, "con data": true}

// unknownWords say a date of birth is not given.
var unknownWords = []string{"no consta", "desconoc", "unknown", "not known", "no se sabe", "sin datos", "n/a", "no disponible",
	"not available", "ez dago", "no costa", "non consta"}

// appendDOBAnswer: a birth cue in a question or a request ("¿Me confirma su NIE y su fecha de
// nacimiento?", "I asked the caller for her date of birth") and the date in one of the next
// four lines, as the answer that follows: alone on its line after a speaker's label
// ("[11:06] Cliente: 04.12.1988", "Caller: it's 1979-11-23"), or after the name asked with it
// ("Paciente: Abril Navarro Cid, del catorce del dos del dieciséis"). A date with a later
// year than birthAnswerLastYear there is an appointment, not a birth.
func appendDOBAnswer(out []Span, text string, h cueHit, p *dateParser) []Span {
	nl := strings.IndexByte(text[h.end:], '\n')
	if nl < 0 || nl > 100 || strings.ContainsAny(text[h.end:h.end+nl], "0123456789") {
		return out
	}
	line := h.end + nl + 1
	for k := 0; k < 4 && line < len(text); k++ {
		end := strings.IndexByte(text[line:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += line
		}
		i := answerStart(text, line, end)
		// the first date at a word start within 60 bytes of the answer's start
		for j := i; j < min(end, i+60); j++ {
			if j > i && (isWordByte(text[j-1]) || !isWordByte(text[j])) || !isWordByte(text[j]) {
				continue
			}
			if e := p.parse(j, false); e > j && e <= end {
				if notBirthGap(text[i:j]) || strings.ContainsAny(text[i:j], "0123456789") || dateYear(text[j:e]) > birthAnswerLastYear {
					break
				}
				return append(out, Span{Start: j, End: e, Type: TypeDOB, Text: text[j:e], Score: 0.8, Source: "cue"})
			}
		}
		line = end + 1
	}
	return out
}

// birthAnswerLastYear: see appendDOBAnswer.
const birthAnswerLastYear = 2020

// answerStart skips, at the start of a line, a time stamp ("[11:06]"), a speaker's label
// ending in ':' within 40 bytes and a few words that open an answer ("it's", "es el", "pues").
// clockAt: the end of a time stamp H:MM or HH:MM (and :SS) at i followed by a space, or i.
func clockAt(text string, i, end int) int {
	j := i
	for j < end && j-i < 2 && isDigitByte(text[j]) {
		j++
	}
	if j == i || j+3 > end || text[j] != ':' || !isDigitByte(text[j+1]) || !isDigitByte(text[j+2]) {
		return i
	}
	j += 3
	if j+3 <= end && text[j] == ':' && isDigitByte(text[j+1]) && isDigitByte(text[j+2]) {
		j += 3
	}
	if j >= end || text[j] != ' ' {
		return i
	}
	return j
}

func answerStart(text string, i, end int) int {
	for i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '>' || text[i] == '-' || text[i] == '\r') {
		i++
	}
	if i < end && text[i] == '[' {
		if c := strings.IndexByte(text[i:end], ']'); c > 0 && c < 24 {
			i += c + 1
		}
	}
	// a chat's bare time stamp: "09:15 Customer: …", "9:15 - Cliente: …"
	if k := clockAt(text, i, end); k > i {
		i = k
		for i < end && (text[i] == ' ' || text[i] == '-') {
			i++
		}
	}
	if c := strings.IndexByte(text[i:min(end, i+40)], ':'); c > 0 && !strings.ContainsAny(text[i:i+c], "0123456789") {
		i += c + 1
	}
	for n := 0; n < 3; n++ {
		for i < end && text[i] == ' ' {
			i++
		}
		w := i
		for w < end && (isASCIILetterByte(text[w]) || text[w] == '\'' || text[w] == 0xC3 || text[w] >= 0x80) {
			w++
		}
		if !answerOpeners[strings.ToLower(text[i:w])] {
			break
		}
		i = w
		for i < end && (text[i] == ',' || text[i] == ' ') {
			i++
		}
	}
	return i
}

var answerOpeners = words(`it's its it is es el la sí si yes pues vale ok mira é o és a ba bai it was era fue nació naci nacio born`)

// todayBefore: "hoy es", "today is", "a fecha de" right before a date.
func todayBefore(text string, i int) bool {
	b := strings.ToLower(text[max(0, i-14):i])
	return strings.Contains(b, "hoy") || strings.Contains(b, "today") || strings.Contains(b, "avui") || strings.Contains(b, "gaur")
}

// appendBirthYear: a year alone after a birth cue ("nacida en el 63", "es del '49", "born in
// 1949").
func appendBirthYear(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	if w := ws[h.word]; string(w.fold(fc)) == "e" && !strings.HasPrefix(text[w.start:], "é") && !strings.HasPrefix(text[w.start:], "É") &&
		!sentenceOfItsOwn(text, w.start, h.end) {
		// Galician "é do 46" — the verb only with its accent: a bare "e do" is "and of the",
		// unless it is a sentence of its own ("… con febre. e do 52. a filla …")
		return out
	}
	if cw := string(ws[h.word].fold(fc)); (cw == "es" || cw == "son" || cw == "era") && thingBefore(text, h.start) {
		return out // "la hipoteca es del noventa y ocho": the thing's year, in figures or in words
	}
	if cw := ws[h.word].fold(fc); (bytes.HasPrefix(cw, []byte("nac")) || bytes.HasPrefix(cw, []byte("nasc")) || bytes.HasPrefix(cw, []byte("born")) ||
		bytes.HasPrefix(cw, []byte("neix")) || bytes.HasPrefix(cw, []byte("naix"))) && birthCount(text, h.end) {
		return out // "nacieron 52 terneros": a count of births, not a person's
	}
	i := h.end
	places := 0
	for n := 0; n < 5; n++ {
		j := i
		for j < len(text) && text[j] == ' ' {
			j++
		}
		f := ""
		k := j
		for k < len(text) && isASCIILetterByte(text[k]) {
			k++
		}
		f = strings.ToLower(text[j:k])
		if k < len(text) && text[k] == '\'' && f == "l" && strings.HasPrefix(strings.ToLower(text[k+1:]), "any") {
			k += 4 // "va néixer l'any 1958"
			f = "any"
		}
		if f == "el" || f == "en" || f == "del" || f == "in" || f == "the" || f == "l" || f == "no" || f == "o" || f == "na" || f == "al" ||
			f == "any" || f == "year" || f == "a" {
			i = k
			continue
		}
		if n > 0 && places < 2 && j < len(text) && isUpperStart(text, j) && birthPlaceCue(ws, h, fc) {
			// "nacida en Allariz en 1952", "born in San Sebastián in 1949": the place, then its year
			k = j + 1
			for k < len(text) && (isASCIILetterByte(text[k]) || text[k] >= 0x80) {
				k++
			}
			if k < len(text) && text[k] == ' ' {
				places++
				i = k
				continue
			}
		}
		i = j
		break
	}
	if places > 0 && i < len(text) && !isDigitByte(text[i]) {
		return out
	}
	start := i
	p := dateParser{text: text, ws: ws, fc: fc}
	if cw := string(ws[h.word].fold(fc)); start > h.end && i < len(text) && isDigitByte(text[i]) && (cw == "es" || cw == "son" || cw == "era" || cw == "soy") {
		// "es del 4 de julio de 1990", "Es del 29 de febrero de 2008, menor de edad": a whole
		// date after "es del" is the person's birth, unless a thing is what "es del" dates
		// ("la factura es del 3 de marzo de 2019") or the year is a recent one
		if e := p.parse(i, false); e > i {
			if dateYear(text[i:e]) <= birthAnswerLastYear && !thingBefore(text, h.start) {
				return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
			}
			return out
		}
	}
	if e := p.monthYear(i); e > 0 && start > h.end {
		return append(out, Span{Start: start, End: e, Type: TypeDOB, Text: text[start:e], Score: 0.8, Source: "cue"}) // "born in March 1982"
	}
	if start > h.end {
		if e := p.monthShortYear(i); e > 0 {
			return append(out, Span{Start: start, End: e, Type: TypeDOB, Text: text[start:e], Score: 0.8, Source: "cue"}) // "nació en agosto del 29"
		}
		if i < len(text) && isASCIILetterByte(text[i]) {
			// a two-digit year in words: "nacida en el cuarentaiuno", "nada no trinta e nove"
			if v, e := p.numberWords(i, 99); e > 0 && v >= 20 && !shortYearNotAfter(&p, e) {
				e = p.trimSpaces(e)
				return append(out, Span{Start: start, End: e, Type: TypeDOB, Text: text[start:e], Score: 0.8, Source: "cue"})
			}
		}
	}
	if i < len(text) && text[i] == '\'' {
		i++
	} else if strings.HasPrefix(text[i:], "’") {
		i += len("’")
	}
	if start == h.end || i >= len(text) || !isDigitByte(text[i]) {
		return out
	}
	v, e, n := p.digitsAt(i, 4)
	if !(n == 2 || n == 4 && v >= 1900 && v <= 2030) || !p.ends(e) {
		return out
	}
	// not a day: "el 12 de marzo", "del 3 al 5"
	rest := strings.ToLower(strings.TrimLeft(text[e:min(len(text), e+12)], " "))
	for _, w := range []string{"de ", "del ", "of ", "al ", "años", "anos", "º", "°", "/", "-", ":", "h "} {
		if strings.HasPrefix(rest, w) {
			return out
		}
	}
	if f, e2 := p.foldAt(p.spaces(e)); e2 > 0 {
		if _, ok := monthNames[f]; ok {
			return out
		}
	}
	if thingAfter(text, e) {
		return out // "nació en 1931 el edificio": the subject after the verb is a thing
	}
	if cw := string(ws[h.word].fold(fc)); (cw == "es" || cw == "son" || cw == "era") && thingBefore(text, h.start) {
		return out // "la libreta es del 98": the thing's year
	}
	out = append(out, Span{Start: start, End: e, Type: TypeDOB, Text: text[start:e], Score: 0.8, Source: "cue"})
	if k, e2 := otherPersonYear(text, e, e-i); e2 > 0 {
		// "el abuelo es del 39 y ella del 44": the year of the next person said with it
		return append(out, Span{Start: k, End: e2, Type: TypeDOB, Text: text[k:e2], Score: 0.8, Source: "cue"})
	}
	// "es del 40 o del 41", "born in '51 or '52": the other year of the answer
	for _, w := range []string{" o del ", " o el ", " or ", " o ", " ou do ", " ou ", " edo "} {
		if len(text)-e > len(w) && strings.EqualFold(text[e:e+len(w)], w) {
			k := e + len(w)
			if k < len(text) && text[k] == '\'' {
				k++
			}
			v2, e2, n2 := p.digitsAt(k, 4)
			if (n2 == 2 || n2 == 4 && v2 >= 1900 && v2 <= 2030) && n2 == e-i && p.ends(e2) && !(e2 < len(text) && strings.IndexByte("/-:.", text[e2]) >= 0 && e2+1 < len(text) && isDigitByte(text[e2+1])) {
				s := e + len(w)
				out = append(out, Span{Start: s, End: e2, Type: TypeDOB, Text: text[s:e2], Score: 0.8, Source: "cue"})
			}
			break
		}
	}
	return out
}

// countFollowers may follow a year right after a birth verb ("born 1958 in Leeds"); any other
// lower-case word makes the number a count of what was born ("nacieron 52 terneros", "naceron
// tres becerros").
var countFollowers = words(`en in el la a al at y e i o u and or of de del do da na no on ca cap hacia around aprox sobre
	about approx`)

// birthCount: right after a birth verb ending at i (spaces only), a number in figures or words
// and then a lower-case word that is no preposition or conjunction: a count of births (of
// animals, of a litter), which dates no person.
func birthCount(text string, i int) bool {
	j := i
	for j < len(text) && text[j] == ' ' {
		j++
	}
	k := j
	for k < len(text) && (isDigitByte(text[k]) || isASCIILetterByte(text[k]) && !isDigitByte(text[j])) {
		k++
	}
	if k == j || k-j > 12 {
		return false
	}
	if !isDigitByte(text[j]) {
		if _, ok := numberWords[strings.ToLower(text[j:k])]; !ok {
			return false
		}
	}
	if k >= len(text) || text[k] != ' ' {
		return false
	}
	m := k + 1
	for m < len(text) && (text[m] >= 'a' && text[m] <= 'z' || text[m] >= 0x80) {
		m++
	}
	w := strings.ToLower(text[k+1 : m])
	return m > k+2 && !countFollowers[w] && !monthWord(w)
}

// monthWord: w (lower case) names a month.
func monthWord(w string) bool {
	_, ok := monthNames[fold(w)]
	return ok
}

// shortYearNotAfter: what follows a two-digit number at e makes it a day or an age, not a year
// ("el veinte de mayo", "treinta años").
func shortYearNotAfter(p *dateParser, e int) bool {
	rest := strings.ToLower(p.text[e:min(len(p.text), e+8)])
	for _, w := range []string{"de ", "del ", "d'", "of ", "al ", "años", "anos", "anys", "urte", "years", "/", "-"} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return isMonthAt(p, e)
}

// isUpperStart: a capital letter starts the word at i (ASCII, or Á É Í Ó Ú Ñ Ç in UTF-8).
func isUpperStart(text string, i int) bool {
	c := text[i]
	if c >= 'A' && c <= 'Z' {
		return true
	}
	return c == 0xC3 && i+1 < len(text) && text[i+1] >= 0x80 && text[i+1] <= 0x9E
}

// birthPlaceCue: the cue is a birth verb, after which a place may come before the year.
func birthPlaceCue(ws []word, h cueHit, fc *folder) bool {
	switch string(ws[h.word].fold(fc)) {
	case "nacido", "nacida", "nacio", "naci", "nascut", "nascuda", "naceu", "born", "nado", "nada":
		return true
	}
	return false
}

// appendStarBirth: a year or a date of birth after the genealogists' star in brackets
// ("Ramiro Lastra (*1947)", "(* 12.3.1950)"). Read with an index search for "(*", not a scan.
//
// It also runs this file's few whole-text birth scans that no cue phrase starts (each an index
// search for a rare word first): see appendBirthdayWord.
func appendStarBirth(out []Span, text string, ws []word, fc *folder) []Span {
	out = appendBirthdayWord(out, text, ws, fc)
	out = appendPairBirthYears(out, text, ws, fc)
	out = appendPersonIsFrom(out, text, fc)
	out = appendBirthListNext(out, text, ws, fc)
	out = appendDOBR10(out, text, ws, fc)
	for off := 0; ; {
		k := strings.Index(text[off:], "(*")
		if k < 0 {
			return out
		}
		i := off + k + 2
		off = i
		if i < len(text) && text[i] == ' ' {
			i++
		}
		if i >= len(text) || !isDigitByte(text[i]) {
			continue
		}
		p := dateParser{text: text, ws: ws, fc: fc}
		e := p.parse(i, false)
		if e <= i {
			v, e4, n := p.digitsAt(i, 4)
			if n != 4 || v < 1900 || v > 2030 {
				continue
			}
			e = e4
		}
		if j := e; j < len(text) && (text[j] == ')' || text[j] == ',' || text[j] == ';' || text[j] == ' ') {
			out = append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
		}
	}
}

// thingBefore: one of the three words before i names a document, an event or a payment ("la
// factura es del …", "the letter is from …"), or a reference word does; then "es del" dates that
// thing, not a person.
func thingBefore(text string, i int) bool {
	if referenceBefore(text, i) {
		return true
	}
	// the three content words before i: articles and "de" do not count ("la escritura de la
	// explotación es del 14/02/1989")
	var pw prevWordReader
	pw.init(text, i)
	for k, n := 0, 0; k < 6 && n < 3; k++ {
		w, ok := pw.next()
		if !ok {
			return false
		}
		if thingWords[string(w)] {
			return true
		}
		if !articleWords[string(w)] {
			n++
		}
	}
	return false
}

// articleWords are the articles and prepositions that thingBefore reads past.
var articleWords = words(`de la el del los las d l the of a da do das dos o os`)

// setWordIn3Before: one of the three words before i is in set.
func setWordIn3Before(text string, i int, set map[string]bool) bool {
	var pw prevWordReader
	pw.init(text, i)
	for k := 0; k < 3; k++ {
		w, ok := pw.next()
		if !ok {
			return false
		}
		if set[string(w)] {
			return true
		}
	}
	return false
}

var thingWords = words(`factura recibo carta cita reunion reunión contrato escritura documento correo email mail mensaje
	extracto cargo pago transferencia pedido informe foto video vídeo ley decreto sentencia auto resolución resolucion
	nota acta movimiento pagaré pagare préstamo prestamo hipoteca cuenta tarjeta version versión modelo coche piso
	edificio casa libro plan noticia ingreso alta denuncia demanda poder testamento certificado
	libreta cartilla poliza póliza seguro deposito depósito fondo plazo recibos`)

// recordDOBAnchors are the types after which a full date on the same line is read as the
// person's date of birth when nothing says otherwise: a record line, a table row, a name
// followed by a date in brackets ("Harriet Cole, 1952-11-04", "| Ana Soler | 53124789X |
// 1988-02-29 |").
var recordDOBAnchors = map[string]bool{TypePerson: true, TypeDNI: true, TypeNIE: true, TypePassport: true, TypeNSS: true, TypeMRN: true}

// notBirthWords, found between the anchor and the date, say the date is something else: an
// account opened, a deed signed, an admission, a document issued.
var notBirthWords = []string{"desde", "since", "alta", "apertura", "abiert", "abrio", "abrió", "firm", "otorg", "escritura",
	"operaci", "emisi", "emitid", "expedi", "issued", "caduc", "validez", "vencim", "venc", "ingres", "admis", "admitted",
	"constitu", "registr", "contrato", "dated", "signed", "opened", "defunc", "fallec", "died", "death", "boda", "matrimon",
	"casad", "jubila", "antig", "nombram", "cita", "visita", "seen on", "hoy", "today", "avui", "gaur", "fecha de", "expiry",
	"expires", "valid", "irek", "sinatu", "data de", "baja", "pago", "cargo", "payment", "paid", "pagad", "recib",
	"abert", "obert", "signat", "sinatur", "asinad", "ingrés", "ingreso", "entrada", "sortida", "saída", "since", "joined",
	"en fecha", "de fecha", "con fecha", "amb data", "con data"}

// recordDOBLastYear is the last year of birth the record rule accepts: a full date with a later
// year on a record line is more often an operation, a visit or a deed than a birth.
const recordDOBLastYear = 2010

// bracketDOBLastYear: the last year of birth read from a date in brackets after a name (the
// year before the corpora's "today": a date of this year there is a visit's).
const bracketDOBLastYear = 2025

// bracketAfterName: the date text[i:e] stands alone in brackets ("(14/06/2019)") and right
// before the bracket ends a person's name found by the names pass — at any score, the bracketed
// date itself being the evidence — with at most a space between.
func bracketAfterName(spans []Span, text string, i, e int) bool {
	if i < 2 || e >= len(text) || text[e] != ')' || text[i-1] != '(' {
		return false
	}
	b := i - 1
	if text[b-1] == ' ' {
		b--
	}
	for _, sp := range spans {
		if sp.Type == TypePerson && sp.End == b && sp.Score >= 0.5 {
			// not when the line before says the date is another event's ("cita con Marta (…)")
			ls := strings.LastIndexByte(text[:sp.Start], '\n') + 1
			gap := strings.ToLower(text[max(ls, sp.Start-60):sp.Start])
			for _, w := range notBirthWords {
				if strings.Contains(gap, w) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// appendRecordDOB appends, as dates of birth, the full numeric dates (1979-06-23, 14.02.1959,
// 21/06/1950) with a year from 1900 to recordDOBLastYear that follow a person or a personal
// identifier (spans scored at least minScore for their type) on the same line within 100 bytes,
// with no word between them that makes the date something else. A date inside a span is left
// alone.
func appendRecordDOB(out []Span, text string, ws []word, fc *folder, minScore func(string) float64) []Span {
	n := len(out)
	p := dateParser{text: text, ws: ws, fc: fc}
	for i := 0; i+4 <= len(text); i++ {
		if !isDigitByte(text[i]) {
			i = nextDigit(text, i) - 1 // the loop's i++ lands on the next digit
			continue
		}
		if i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.' || text[i-1] == '/' || text[i-1] == '-') {
			continue
		}
		e := 0
		if i+8 <= len(text) {
			e = p.numeric(i)
		}
		if e == 0 && i >= 6 && text[i-4:i] == "del " {
			// "- Xuacu Cuervo, DNI 3968657F, del 58": a two-digit year after "del" as the
			// last field of a record line, right after a name or an identifier
			if d := i + 2; d <= len(text) && isDigitByte(text[i+1]) && (d == len(text) || text[d] == '\n' || text[d] == '\r' || text[d] == ')' || text[d] == ';' || text[d] == ',' || text[d] == '.' && (d+1 == len(text) || text[d+1] == ' ' || text[d+1] == '\n')) {
				if b := i - 4; (text[b-1] == ',' || text[b-1] == ' ' && (text[b-2] == ',' || text[b-2] == '-')) && fieldAnchor(out[:n], text, b, minScore) >= 0 {
					out = append(out, Span{Start: i, End: d, Type: TypeDOB, Text: text[i:d], Score: 0.8, Source: "record"})
				}
			}
			i += 2
			continue
		}
		if e == 0 && i >= 2 && i+3 < len(text) && (text[i+1] == ' ' && isASCIILetterByte(text[i+2]) || text[i+2] == ' ' && isASCIILetterByte(text[i+3])) &&
			(text[i-1] == '(' || text[i-2:i] == ", ") {
			// "Ezequiel Bustamante (7 de diciembre de 1976)", "CHEN, Xiaoyan, 3 de marzo de 1989.":
			// a written date alone in brackets, or after a comma, right after a person
			if w := p.written(i, false); w > 0 && !dobAt(out[n:], i, w) {
				if y := dateYear(text[i:w]); y >= 1900 && y <= recordDOBLastYear && (bracketAfterName(out[:n], text, i, w) || text[i-1] == ' ' && writtenAfterPerson(out[:n], text, i-2, w)) {
					out = append(out, Span{Start: i, End: w, Type: TypeDOB, Text: text[i:w], Score: 0.8, Source: "record"})
					i = w
					continue
				}
			}
		}
		if e == 0 && i >= 5 && text[i-5:i] == ", de " && i+4 <= len(text) && allDigits(text[i:i+4]) {
			// "Paciente Lucas Paz Domínguez, de 1978, historia …": a year after ", de" closing a
			// field right after a person
			if y := atoi(text[i : i+4]); y >= 1900 && y <= recordDOBLastYear && (i+4 == len(text) || strings.IndexByte(",;)\n", text[i+4]) >= 0) &&
				fieldAnchor(out[:n], text, i-3, minScore) >= 0 {
				out = append(out, Span{Start: i, End: i + 4, Type: TypeDOB, Text: text[i : i+4], Score: 0.8, Source: "record"})
				i += 4
				continue
			}
		}
		if e == 0 {
			if e = yearFieldAt(text, i); e > 0 {
				if a := fieldAnchor(out[:n], text, i, minScore); a >= 0 {
					out = append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "record"})
				}
				i = e
			}
			continue
		}
		if y := dateYear(text[i:e]); y == 0 && listDOBAfterPerson(out[:n], text, i, e, minScore) {
			// "amparo lledo 29/12/71, yolanda mir 03/03/66": a date with a two-digit year right
			// after a person noted in a list is that person's birth
			out = append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "record"})
			i = e
			continue
		}
		if y := dateYear(text[i:e]); y < 1900 || y > recordDOBLastYear {
			if y > recordDOBLastYear && y <= bracketDOBLastYear && bracketAfterName(out[:n], text, i, e) {
				// "Lucía (14/06/2019)": a date alone in brackets right after a name is that
				// person's birth, a child's too
				out = append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "record"})
			}
			i = e
			continue
		}
		anchor := -1
		for k := 0; k < n; k++ {
			sp := out[k]
			if sp.Start <= i && i < sp.End && sp.Score >= minScore(sp.Type) {
				anchor = -2 // inside a span already
				break
			}
			if recordDOBAnchors[sp.Type] && sp.End <= i && i-sp.End <= 100 && sp.Score >= minScore(sp.Type) &&
				!strings.ContainsAny(text[sp.End:i], "\n") && sp.End > anchor {
				anchor = sp.End
			}
		}
		if anchor >= 0 {
			gap := strings.ToLower(text[max(anchor, i-60):i])
			other := false
			for _, w := range notBirthWords {
				if strings.Contains(gap, w) {
					other = true
					break
				}
			}
			if !other {
				out = append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "record"})
			}
		} else if anchor == -1 && lineStartField(text, i) && anchorAfter(out[:n], text, e, minScore) {
			// "- 23/08/1967; Abdelkader Benali; 04700 El Ejido", "1949-03-08 | Harper, Leonie":
			// the date first on a record line, the person or the number right after it
			out = append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "record"})
		}
		i = e
	}
	return out
}

// lineStartField: only a list bullet, spaces or a table's bar stand before i on its line.
func lineStartField(text string, i int) bool {
	for j := i - 1; j >= 0 && text[j] != '\n'; j-- {
		if c := text[j]; c != ' ' && c != '\t' && c != '-' && c != '*' && c != '|' && c != '>' {
			return false
		}
	}
	return true
}

// anchorAfter: a person or a personal identifier (recordDOBAnchors, scored at least minScore)
// starts right after e past field separators, and the rest of the line (80 bytes) has no word
// of another event (notBirthWords).
func anchorAfter(spans []Span, text string, e int, minScore func(string) float64) bool {
	a := e
	for a < len(text) && (text[a] == ' ' || strings.IndexByte(fieldSeps, text[a]) >= 0) {
		a++
	}
	if a == e || a-e > 4 {
		return false
	}
	found := false
	for _, sp := range spans {
		if sp.Start == a && recordDOBAnchors[sp.Type] && sp.Score >= minScore(sp.Type) {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	end := min(len(text), a+80)
	if nl := strings.IndexByte(text[a:end], '\n'); nl >= 0 {
		end = a + nl
	}
	rest := strings.ToLower(text[a:end])
	for _, w := range notBirthWords {
		if strings.Contains(rest, w) {
			return false
		}
	}
	return true
}

// lastYear returns the last run of four digits in s as a number, 0 if none.
func lastYear(s string) int {
	for i := len(s) - 4; i >= 0; i-- {
		if allDigits(s[i:i+4]) && (i == 0 || !isDigitByte(s[i-1])) && (i+4 == len(s) || !isDigitByte(s[i+4])) {
			return atoi(s[i : i+4])
		}
	}
	return 0
}

// dateYear returns the 4-digit year of a numeric date (first or last field), 0 if none.
func dateYear(d string) int {
	var fields [3]int
	var lens [3]int
	k := 0
	for j := 0; j < len(d) && k < 3; j++ {
		if isDigitByte(d[j]) {
			fields[k] = fields[k]*10 + int(d[j]-'0')
			lens[k]++
		} else if lens[k] > 0 {
			k++
		}
	}
	for f := range 3 {
		if lens[f] == 4 {
			return fields[f]
		}
	}
	return 0
}

// appendDOBBefore: a date right before a cue that follows it — Basque puts the verb last
// ("1990eko maiatzaren 21ean jaioa", "1958an jaio zen"), English says "a '52 baby". Only
// spaces or a comma between the date and the cue.
func appendDOBBefore(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	e := h.start
	for e > 0 && (text[e-1] == ' ' || text[e-1] == ',') {
		e--
	}
	if e == h.start || e == 0 {
		return out
	}
	p := dateParser{text: text, ws: ws, fc: fc}
	if f := string(ws[h.word].fold(fc)); f == "baby" || f == "babe" {
		// 'YY
		if e >= 3 && isDigitByte(text[e-1]) && isDigitByte(text[e-2]) && (text[e-3] == '\'' || e >= 5 && text[e-5:e-2] == "’") {
			s := e - 3
			if text[e-3] != '\'' {
				s = e - 5
			}
			if s == 0 || !isWordByte(text[s-1]) {
				return append(out, Span{Start: s, End: e, Type: TypeDOB, Text: text[s:e], Score: 0.8, Source: "cue"})
			}
		}
		return out
	}
	// "1958an jaio": a year with the inessive
	for _, suf := range []string{"ean", "an"} {
		if s := e - len(suf) - 4; s >= 0 && text[s+4:e] == suf && allDigits(text[s:s+4]) && (s == 0 || !isWordByte(text[s-1])) {
			return append(out, Span{Start: s, End: e, Type: TypeDOB, Text: text[s:e], Score: 0.8, Source: "cue"})
		}
	}
	for i := max(0, e-40); i < e; i++ {
		if !isDigitByte(text[i]) || i > 0 && isWordByte(text[i-1]) {
			continue
		}
		if end := p.parse(i, false); end == e {
			return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.85, Source: "cue"})
		}
	}
	return out
}

// dobVeto drops a date that the dob recognizers' context boost would lift only because a birth
// cue stands before it with another date or a word of another event between ("Date of Birth:
// 07 Aug 1988 | Account opened: 12 Jan 2024", "Fecha de nacimiento: no consta. Ingreso el
// 03/03/2025"). It reads only the 40 bytes before the match (the default context window).
func dobVeto(text string, start, end int) bool {
	lo := max(0, start-40)
	var buf [48]byte
	b := appendLowerSameLength(buf[:0], text[lo:start])
	// the last context word: one backward pass, trying only the words that start with the byte
	at, from := -1, -1
	for k := len(b) - 1; k >= 0 && at < 0; k-- {
		for _, w := range dobContextByFirst[b[k]] {
			if bytes.HasPrefix(b[k:], w) && k+len(w) > at {
				at, from = k+len(w), k
			}
		}
	}
	if at >= 0 && lastYear(text[start:end]) > birthAnswerLastYear {
		// "12/03/1979 is his birthday, the 12/03/2026 is …": the birth was said before the
		// context word; a recent date after it is another
		if y := lastYear(text[max(0, lo+from-32) : lo+from]); y >= 1900 && y <= birthAnswerLastYear {
			return true
		}
	}
	if at < 0 {
		// the context word, if any, is after the date ("… el 3 de marzo de 2026; nacida el …"):
		// a recent year or an event word before it says it is another date
		return lastYear(text[start:end]) > birthAnswerLastYear || notBirthGap(text[lo:start])
	}
	gap := text[lo+at : start]
	digits := 0
	for i := 0; i < len(gap); i++ {
		if isDigitByte(gap[i]) {
			if digits++; digits == 4 {
				return true
			}
		} else {
			digits = 0
		}
	}
	return notBirthGap(gap)
}

// dobContextByFirst holds dobContext as byte slices by first byte.
var dobContextByFirst = func() (m [256][][]byte) {
	for _, w := range dobContext {
		m[w[0]] = append(m[w[0]], []byte(w))
	}
	return m
}()

// appendBornAbbrev: "b." or "n." (born, nacido) in brackets or after a comma, then a year or a
// whole date ("Harold Pennington (b. 1939)", "Mr Davies, b. 12 March 1950", "(n. 12/03/1950)").
func appendBornAbbrev(out []Span, text string, h cueHit, ws []word, fc *folder) []Span {
	if h.end+1 >= len(text) || text[h.end] != '.' || h.start == 0 {
		return out
	}
	k := h.start - 1
	if text[k] == ' ' && k > 0 {
		k--
	}
	if text[k] != '(' && text[k] != ',' {
		return out
	}
	p := dateParser{text: text, ws: ws, fc: fc}
	i := p.spaces(h.end + 1)
	if i >= len(text) || i == h.end+1 && !isDigitByte(text[i]) && text[i] != '\'' {
		return out
	}
	e := p.parse(i, false)
	if e == 0 {
		if y, ye, n := p.digitsAt(i, 4); n == 4 && y >= 1900 && y <= 2025 && p.ends(ye) {
			e = ye
		} else if text[k] == '(' || text[i] == '\'' {
			// "(n. 61)", "(b. '47)": two digits closing the brackets; "Wilfred, b. '29,": with
			// the apostrophe of a year, after a comma too
			j := i
			if text[j] == '\'' {
				j++
			}
			if y, ye, n := p.digitsAt(j, 2); n == 2 && y >= 10 && (ye < len(text) && text[ye] == ')' || text[k] != '(' && j > i && p.ends(ye)) {
				e = ye
			}
		}
	}
	if e <= i || dateYear(text[i:e]) > 2025 {
		return out
	}
	return append(out, Span{Start: i, End: e, Type: TypeDOB, Text: text[i:e], Score: 0.8, Source: "cue"})
}

// birthdayFillers may stand between a date and the birthday word after it ("es su cumple", "is
// his birthday", "és el seu aniversari", "é o seu aniversario").
var birthdayFillers = words(`es su is his her their my our was the és el seu la seva é o da mi nuestro nuestra sera será fue`)

// birthdayDateBefore: a date (with a year up to birthAnswerLastYear, or a day and month) that
// ends right before at, past up to three birthday fillers; its start and end, or 0, 0.
func birthdayDateBefore(p *dateParser, at int) (int, int) {
	text := p.text
	e := at
	for n := 0; n < 4; n++ {
		for e > 0 && (text[e-1] == ' ' || text[e-1] == ',') {
			e--
		}
		k := e
		for k > 0 && (isASCIILetterByte(text[k-1]) || text[k-1] >= 0x80) {
			k--
		}
		if k == e || n == 3 || !birthdayFillers[strings.ToLower(text[k:e])] {
			break
		}
		e = k
	}
	if e == 0 || !isWordByte(text[e-1]) {
		return 0, 0
	}
	for i := max(0, e-48); i < e; i++ {
		if !isWordByte(text[i]) || i > 0 && isWordByte(text[i-1]) {
			continue
		}
		if end := p.parse(i, true); end == e || end > 0 && p.trimSpaces(end) == e {
			if y := lastYear(text[i:e]); y > birthAnswerLastYear {
				return 0, 0
			}
			return i, e
		}
	}
	return 0, 0
}

// appendBirthdayWord: a date right before the Catalan "aniversari" or the Basque
// "urtebetetze" ("el 4 de juliol de 1966 és el seu aniversari"), read as birthdayDateBefore reads
// one before "cumple" and "birthday" (those are cue words; these two are not).
func appendBirthdayWord(out []Span, text string, ws []word, fc *folder) []Span {
	if len(fc.lower) != len(text) {
		return out
	}
	var p *dateParser
	for _, w := range [...]string{"aniversari", "urtebetetze"} {
		// searched by a rarer inner part ("versari", "betetz": v and b start few words), then
		// checked whole
		inner, skip := w[3:], 3
		if w[0] == 'u' {
			inner, skip = w[4:10], 4
		}
		for off := skip; off < len(fc.lower); {
			k := bytes.Index(fc.lower[off:], []byte(inner))
			if k < 0 {
				break
			}
			at := off + k - skip
			off = off + k + len(inner)
			if at+len(w) > len(text) || string(fc.lower[at:at+len(w)]) != w {
				continue
			}
			off = at + len(w)
			if at > 0 && isWordByte(text[at-1]) || w == "aniversari" && off < len(text) && isASCIILetterByte(text[off]) {
				continue // "aniversario": Spanish, an anniversary
			}
			if p == nil {
				p = &dateParser{text: text, ws: ws, fc: fc}
			}
			if s, e := birthdayDateBefore(p, at); e > 0 {
				out = append(out, Span{Start: s, End: e, Type: TypeDOB, Text: text[s:e], Score: 0.85, Source: "cue"})
			}
		}
	}
	return out
}

// sentenceOfItsOwn: text[s:e] starts a sentence (line start or after ". ") and the two- or
// four-digit year after it ends one (". ", ",", ";" or the line's end).
func sentenceOfItsOwn(text string, s, e int) bool {
	b := s
	for b > 0 && text[b-1] == ' ' {
		b--
	}
	if b > 0 && text[b-1] != '.' && text[b-1] != '\n' && text[b-1] != '!' && text[b-1] != '?' {
		return false
	}
	for e < len(text) && text[e] == ' ' {
		e++
	}
	d := e
	for d < len(text) && isDigitByte(text[d]) {
		d++
	}
	if n := d - e; n != 2 && n != 4 {
		return false
	}
	return d == len(text) || text[d] == '.' || text[d] == ',' || text[d] == ';' || text[d] == '\n'
}

// otherPersonWords may stand between "y" and a second person's year ("y ella del 44", "i el
// seu germà del 51", "and his wife in '52").
var otherPersonWords = words(`ella el él ell elle she he his her wife husband mujer marido esposa esposo hermano hermana
	germa germà germana dona home seu seva su sa muller home irma irmán irmao neba ahizpa anaia arreba emaztea senarra
	hijo hija fill filla fillo`)

// otherPersonYear: after a year of birth ending at e (n digits), ", y ella del 44" / " and his
// wife in '52": the same kind of year for the next person; its start and end, or 0, 0.
func otherPersonYear(text string, e, n int) (int, int) {
	i := e
	for i < len(text) && (text[i] == ' ' || text[i] == ',') {
		i++
	}
	k := i
	for k < len(text) && isASCIILetterByte(text[k]) {
		k++
	}
	switch strings.ToLower(text[i:k]) {
	case "y", "i", "e", "and", "eta":
	default:
		return 0, 0
	}
	i = k
	words := 0
	for words < 4 {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		k = i
		for k < len(text) && (isASCIILetterByte(text[k]) || text[k] >= 0x80) {
			k++
		}
		if k == i {
			break
		}
		f := strings.ToLower(text[i:k])
		if f == "del" || f == "do" || f == "in" || f == "de" {
			i = k
			for i < len(text) && text[i] == ' ' {
				i++
			}
			if words == 0 {
				return 0, 0 // "y del 3 al 5": no second person named
			}
			s := i
			if i < len(text) && text[i] == '\'' {
				i++
			}
			d := i
			for d < len(text) && isDigitByte(text[d]) {
				d++
			}
			if d-i != n || d < len(text) && (isWordByte(text[d]) || text[d] == '/' || text[d] == '-') {
				return 0, 0
			}
			rest := strings.ToLower(strings.TrimLeft(text[d:min(len(text), d+8)], " "))
			if strings.HasPrefix(rest, "al ") || strings.HasPrefix(rest, "de ") || strings.HasPrefix(rest, "a ") || strings.HasPrefix(rest, "ao ") {
				return 0, 0
			}
			return s, d
		}
		if !otherPersonWords[f] {
			return 0, 0
		}
		words++
		i = k
	}
	return 0, 0
}

// pairBirthWords open a year shared by the two people just named ("los dos del 47", "ambos son
// del 52", "tots dos del 60", "biak 58koak" is left out).
var pairBirthWords = [...]string{"los dos del ", "las dos del ", "los dos son del ", "las dos son del ", "ambos del ",
	"ambas del ", "ambos son del ", "ambas son del ", "tots dos del ", "totes dues del ", "tots dos són del ",
	"os dous do ", "as dúas do "}

// appendPairBirthYears: a two- or four-digit year after pairBirthWords, read with
// appendBirthYear's checks (not a day: "los dos del 3 al 5", no month after it).
func appendPairBirthYears(out []Span, text string, ws []word, fc *folder) []Span {
	if len(fc.lower) != len(text) {
		return out
	}
	for _, tail := range [...]string{"del ", "do "} { // each tail is one index search of the text
		for off := 0; ; {
			k := bytes.Index(fc.lower[off:], []byte(tail))
			if k < 0 {
				break
			}
			off += k + len(tail)
			if off >= len(text) || !isDigitByte(text[off]) && text[off] != '\'' {
				continue // most "del " are followed by a word: one byte decides
			}
			at := -1
			for _, w := range pairBirthWords {
				if strings.HasSuffix(w, tail) && off >= len(w) && string(fc.lower[off-len(w):off]) == w {
					at = off - len(w)
					break
				}
			}
			if at < 0 || at > 0 && isWordByte(text[at-1]) {
				continue
			}
			i := off
			if i < len(text) && text[i] == '\'' {
				i++
			}
			d := i
			for d < len(text) && isDigitByte(text[d]) {
				d++
			}
			if n := d - i; n != 2 && !(n == 4 && atoi(text[i:d]) >= 1900 && atoi(text[i:d]) <= birthAnswerLastYear) {
				continue
			}
			if d < len(text) && (isWordByte(text[d]) || strings.IndexByte("/-:º°", text[d]) >= 0 || text[d] == 0xC2) {
				continue
			}
			rest := strings.ToLower(strings.TrimLeft(text[d:min(len(text), d+10)], " "))
			if strings.HasPrefix(rest, "al ") || strings.HasPrefix(rest, "a ") || strings.HasPrefix(rest, "de ") ||
				strings.HasPrefix(rest, "del ") || strings.HasPrefix(rest, "años") || strings.HasPrefix(rest, "anos") || strings.HasPrefix(rest, "h ") {
				continue
			}
			if thingBefore(text, at) {
				continue // "los dos del contrato…", a thing dated
			}
			out = append(out, Span{Start: off, End: d, Type: TypeDOB, Text: text[off:d], Score: 0.8, Source: "cue"})
			// "los dos del 49 y del 52": one of each
			for _, c := range [...]string{" y del ", " o del ", " i del ", " e do ", " and ", " y el "} {
				if len(text)-d > len(c) && strings.EqualFold(text[d:d+len(c)], c) {
					k := d + len(c)
					if k < len(text) && text[k] == '\'' {
						k++
					}
					e2 := k
					for e2 < len(text) && isDigitByte(text[e2]) {
						e2++
					}
					if e2-k == d-i && (e2 == len(text) || !isWordByte(text[e2]) && strings.IndexByte("/-:", text[e2]) < 0) {
						out = append(out, Span{Start: d + len(c), End: e2, Type: TypeDOB, Text: text[d+len(c) : e2], Score: 0.8, Source: "cue"})
					}
					break
				}
			}
		}
	}
	return out
}

// thingAfter: an article and a thing word right after e ("… en 1931 el edificio"): what the
// verb before dates is that thing.
func thingAfter(text string, e int) bool {
	i := e
	for i < len(text) && text[i] == ' ' {
		i++
	}
	k := i
	for k < len(text) && isASCIILetterByte(text[k]) {
		k++
	}
	switch strings.ToLower(text[i:k]) {
	case "el", "la", "los", "las", "the", "o", "a":
	default:
		return false
	}
	for k < len(text) && text[k] == ' ' {
		k++
	}
	j := k
	for j < len(text) && (isASCIILetterByte(text[j]) || text[j] >= 0x80) {
		j++
	}
	return thingWords[strings.ToLower(text[k:j])]
}

// notBirthListWords, between two dates, say the second is another event than a birth (the
// notBirthWords say it too).
var notBirthListWords = []string{"marri", "wedding", "wed ", "divorc", "muri", "murió", "mort", "hil ", "ezkon", "bautiz",
	"baptis", "graduat", "titulad", "arriv", "llegó", "llego", "moved", "mudó", "mudo", "entró", "entro", "started", "empez",
	"comenz", "jubil", "retir", "no ", "not ", "until", "hasta", "fins", "ata ", "al ", "to "}

// appendBirthListNext: a second full date in a list of births, after a date of birth that a
// cue found ("fechas de nacimiento: él el 3 de abril de 1950, ella el 22/09/1953", "DOB: me
// 1980-02-11, my wife 1982-07-30"): within 40 bytes on the same line, after a comma or "y"/
// "and", with only a few words between, none of another event, and a year up to
// birthAnswerLastYear.
func appendBirthListNext(out []Span, text string, ws []word, fc *folder) []Span {
	n := len(out)
	for k := 0; k < n; k++ {
		sp := out[k]
		if sp.Type != TypeDOB || sp.Source != "cue" || lastYear(sp.Text) == 0 && !strings.Contains(sp.Text, "/") {
			continue
		}
		e := sp.End
		lim := min(len(text), e+40)
		if nl := strings.IndexByte(text[e:lim], '\n'); nl >= 0 {
			lim = e + nl
		}
		if e >= lim || text[e] != ',' && text[e] != ' ' && text[e] != ';' {
			continue
		}
		gapOK := false
		p := dateParser{text: text, ws: ws, fc: fc}
		for i := e; i < lim; i++ {
			c := text[i]
			if isDigitByte(c) && !isWordByte(text[i-1]) {
				if !gapOK {
					break
				}
				end := p.numeric(i)
				if end == 0 {
					end = p.parse(i, false)
				}
				if end == 0 {
					break
				}
				if y := max(dateYear(text[i:end]), lastYear(text[i:end])); (y < 1900 || y > birthAnswerLastYear) &&
					!(y == 0 && end-i > 8 && isDigitByte(text[end-1]) && isDigitByte(text[end-2])) {
					break // a written date may end in a two-digit year ("y yo el 2 de diciembre del 82")
				}
				gap := strings.ToLower(text[e:i])
				if notBirthGap(text[e:i]) || strings.Count(gap, " ") > 5 || !hasLetter(gap) {
					// a bare ", " between two dates is a table row's next cell (f_alta after
					// f_nacimiento), not the next person of a list
					break
				}
				other := !personGap(text[e:i])
				for _, w := range notBirthListWords {
					if strings.Contains(gap, w) {
						other = true
						break
					}
				}
				if !other {
					out = append(out, Span{Start: i, End: end, Type: TypeDOB, Text: text[i:end], Score: 0.8, Source: "cue"})
				}
				break
			}
			if c == '.' && i+1 < len(text) && text[i+1] == ' ' || c == '(' || c == ':' {
				break
			}
			if c == ',' || c == ';' || i+3 < lim && (text[i:i+3] == " y " || text[i:i+3] == " i " || text[i:i+3] == " e ") || i+5 < lim && text[i:i+5] == " and " {
				gapOK = true
			}
		}
	}
	return out
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if isASCIILetterByte(s[i]) || s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// fieldSeps separate the fields of a record line ("NHC 0043817 - OTXOA, Patxi - 1938 - alta …",
// "| Ruiz Peña, Tomás | 1944 |", "Martín Gil; 1957; …").
const fieldSeps = "-|;,\t()"

// yearFieldAt: a year from 1900 to recordDOBLastYear alone in a field of a record line at i
// (a separator before it and after it, or the line's end); its end, or 0.
func yearFieldAt(text string, i int) int {
	if i+4 > len(text) || !allDigits(text[i:i+4]) || i+4 < len(text) && (isWordByte(text[i+4]) || (text[i+4] == '.' || text[i+4] == ',' || text[i+4] == '-') && i+5 < len(text) && isDigitByte(text[i+5]) || text[i+4] == '/') {
		// not "2000,50" (an amount) nor "1998-123" (a file number)
		return 0
	}
	if y := atoi(text[i : i+4]); y < 1900 || y > recordDOBLastYear {
		return 0
	}
	b := i
	for b > 0 && text[b-1] == ' ' {
		b--
	}
	if b == 0 || strings.IndexByte(fieldSeps, text[b-1]) < 0 {
		return 0
	}
	a := i + 4
	for a < len(text) && text[a] == ' ' {
		a++
	}
	if a < len(text) && text[a] != '\n' && text[a] != '\r' && strings.IndexByte(fieldSeps, text[a]) < 0 {
		return 0
	}
	return i + 4
}

// fieldAnchor: a person or a personal identifier (recordDOBAnchors, scored at least minScore)
// ends before i on the same line with only field separators and spaces between — the year is
// the field right after the name or the number; the anchor's end, or -1.
func fieldAnchor(spans []Span, text string, i int, minScore func(string) float64) int {
	b := i
	for b > 0 && (text[b-1] == ' ' || strings.IndexByte(fieldSeps, text[b-1]) >= 0) {
		b--
	}
	if b == i {
		return -1
	}
	for _, sp := range spans {
		if sp.End == b && recordDOBAnchors[sp.Type] && sp.Score >= minScore(sp.Type) {
			return b
		}
	}
	return -1
}

// dayWordBefore: the start of "día " / "dia " / "día: " right before i (a notary's "nacida el
// día nueve de septiembre…"), or -1.
func dayWordBefore(text string, i int) int {
	j := i
	for j > 0 && text[j-1] == ' ' {
		j--
	}
	for _, w := range [...]string{"día", "dia", "Día", "Dia", "DÍA", "DIA"} {
		if j >= len(w) && text[j-len(w):j] == w && (j == len(w) || !isWordByte(text[j-len(w)-1]) && text[j-len(w)-1] < 0x80) {
			return j - len(w)
		}
	}
	return -1
}

// listGapWords may stand between two births of a list: pronouns, kinship words, articles and
// possessives ("…, ella el 22/09/1953", "…, my wife 1982-07-30", "i la seva filla el …").
var listGapWords = words(`y i e and eta o el la l lo los las the de del do da of su sus mi my his her our their jo yo me eu ni nik
	ell ella él ele ela she he him wife husband mujer marido esposa esposo dona home muller home home seu seva sa son hijo
	hija fill filla fillo filla daughter son madre padre mother father mare pare nai pai ama aita hermano hermana germà
	germa germana irmán irmá brother sister partner pareja parella novio novia cónyuge conyuge spouse titular cotitular
	segundo segunda second primer primera first nacida nacido nascuda nascut born`)

// personGap: the words between two dates of a birth list are listGapWords or capitalised (a
// name: "…, Luis el 3/4/1952").
func personGap(gap string) bool {
	for i := 0; i < len(gap); {
		if !isASCIILetterByte(gap[i]) && gap[i] < 0x80 {
			i++
			continue
		}
		k := i
		for k < len(gap) && (isASCIILetterByte(gap[k]) || gap[k] >= 0x80) {
			k++
		}
		if !listGapWords[strings.ToLower(gap[i:k])] && !isUpperStart(gap, i) {
			return false
		}
		i = k
	}
	return true
}

// isFromWords say a person "is from" a year ("mi madre es de 1948", "ella és de 1951"); the
// year is four digits (a bare "es de 76" is as often a size or a floor). English "he's from
// 1950" is left out: two more index searches of every text for a rare form.
var isFromWords = [...]string{" es de ", " són de ", " és de ", " son de ", " é de ", " era de "}

// personSubjects, among the three words before isFromWords, make the subject a person.
var personSubjects = words(`madre padre mare pare nai pai ama aita mother father mum mom dad abuelo abuela avi avia avó avo
	grandmother grandfather hijo hija fill filla fillo son daughter marido mujer esposo esposa dona home muller husband wife
	señora señor senora senor sra sr senyora senyor cliente clienta client customer titular paciente pacient patient
	hermano hermana germà germa germana brother sister ella él ell she he yo jo eu ni tío tía tio tia suegra suegro
	cotitular beneficiario beneficiaria`)

// appendPersonIsFrom: a year of birth after a person "is from" ("mi madre es de 1948, él de
// 1950"), with an index search for each of isFromWords; a thing before it keeps the year ("la
// ley es de 1985").
func appendPersonIsFrom(out []Span, text string, fc *folder) []Span {
	if len(fc.lower) != len(text) {
		return out
	}
	for _, tail := range [...]string{" de 19", " de 20"} { // each tail is one index search of the text
		for off := 0; ; {
			k := bytes.Index(fc.lower[off:], []byte(tail))
			if k < 0 {
				break
			}
			i := off + k + len(tail) - 2
			off = i
			at := -1
			for _, w := range isFromWords {
				if n := i - len(w); n >= 0 && strings.HasSuffix(w, tail[:len(tail)-2]) && string(fc.lower[n:i]) == w {
					at = n
					break
				}
			}
			if at < 0 {
				continue
			}
			if i+4 > len(text) || !allDigits(text[i:i+4]) || i+4 < len(text) && (isWordByte(text[i+4]) || strings.IndexByte("/-.:,", text[i+4]) >= 0 && i+5 < len(text) && isDigitByte(text[i+5])) {
				continue
			}
			if y := atoi(text[i : i+4]); y < 1900 || y > birthAnswerLastYear || thingBefore(text, at+1) || !personSubjectBefore(text, at+1) || thingAfter(text, i+4) {
				continue
			}
			out = append(out, Span{Start: i, End: i + 4, Type: TypeDOB, Text: text[i : i+4], Score: 0.8, Source: "cue"})
			// ", él de 1950": the next person's
			j := i + 4
			for j < len(text) && (text[j] == ',' || text[j] == ' ') {
				j++
			}
			if j > i+4 && j < len(text) {
				q := j
				for q < len(text) && (isASCIILetterByte(text[q]) || text[q] >= 0x80) {
					q++
				}
				if personSubjects[strings.ToLower(text[j:q])] || listGapWords[strings.ToLower(text[j:q])] && q-j > 2 {
					if r := q + 4; r+4 <= len(text) && strings.EqualFold(text[q:r], " de ") && allDigits(text[r:r+4]) && (r+4 == len(text) || !isWordByte(text[r+4])) {
						if y := atoi(text[r : r+4]); y >= 1900 && y <= birthAnswerLastYear {
							out = append(out, Span{Start: r, End: r + 4, Type: TypeDOB, Text: text[r : r+4], Score: 0.8, Source: "cue"})
						}
					}
				}
			}
		}
	}
	return out
}

// personSubjectBefore: one of the three words before i is a personSubjects word (a name alone
// is not enough: "el Real Madrid es de 1902").
func personSubjectBefore(text string, i int) bool {
	return setWordIn3Before(text, i, personSubjects)
}

// Round 10 of issue #13: dates of birth the cue rules still missed on the newest blind sets,
// read by mechanism: the Basque date grammar in figures and in words with its cue on either side
// ("laurogeita hiruko martxoaren hamabostean jaioa", "jaio zen 46an"); a year after "ser del"
// ("refiere ser del '49"); the Catalan "dn" / "d.n." (data de naixement); and a second year
// coordinated with a year of birth ("born 1962 and 1964", "nascuts el 1944 i el 1947").

// euNumbers are the Basque number words of days and years (folded), the tens that join a unit
// with "-ta" ("hogeita bat"), and "hamarr", the stem "hamar" takes before a case ending
// ("hamarreko", "hamarrean").
var euNumbers = func() map[string]int {
	m := map[string]int{}
	for i, w := range strings.Fields(`bat bi hiru lau bost sei zazpi zortzi bederatzi hamar hamaika hamabi hamahiru hamalau
		hamabost hamasei hamazazpi hemezortzi hemeretzi hogei`) {
		m[w] = i + 1
	}
	m["hamarr"], m["berrogei"], m["hirurogei"], m["laurogei"] = 10, 40, 60, 80
	return m
}()

// euJoiners are the words that a Basque number goes on after: the tens before a unit, a
// thousand and nine hundred before the rest of a year ("mila bederatziehun eta hirurogeita…").
var euJoiners = map[string]int{"hogeita": 20, "berrogeita": 40, "hirurogeita": 60, "laurogeita": 80, "mila": 1000,
	"bederatziehun": 900, "eta": 0}

// euNumber reads a Basque number in words at i whose last word carries one of sufs (a case
// ending: "-ko" of a year, "-(e)an" of a day); the value and the end, or 0, 0.
func (p *dateParser) euNumber(i int, sufs []string) (int, int) {
	total, k := 0, i
	for n := 0; n < 6; n++ {
		f, e := p.foldAt(k)
		if e < 0 || len(f) < 2 || len(f) > 20 {
			return 0, 0
		}
		for _, s := range sufs {
			if len(f) > len(s) && f[len(f)-len(s):] == s {
				if v, ok := euNumbers[f[:len(f)-len(s)]]; ok {
					return total + v, e
				}
			}
		}
		v, ok := euJoiners[f]
		if !ok || f == "eta" && total < 1000 {
			return 0, 0
		}
		total += v
		k = p.spaces(e)
	}
	return 0, 0
}

var euYearEnds, euDayEnds = []string{"ko", "eko"}, []string{"ean", "an", "n"}

// euDate reads a Basque date at i — YEAR-ko MONTH-aren DAY-(e)an, the year in four or two
// figures or in words, the day in figures or in words ("1978ko maiatzaren 22an", "laurogeita
// hiruko martxoaren hamabostean") — and returns its end, or 0.
func (p *dateParser) euDate(i int) int {
	t := p.text
	k := 0
	if y, j, n := p.digitsAt(i, 4); n == 4 && y >= 1900 && y <= 2025 || n == 2 {
		switch {
		case strings.HasPrefix(t[j:], "ko "):
			k = j + 3
		case strings.HasPrefix(t[j:], "eko "):
			k = j + 4
		case strings.HasPrefix(t[j:], "-ko "), strings.HasPrefix(t[j:], "-eko "):
			k = j + strings.IndexByte(t[j:], ' ') + 1
		default:
			return 0
		}
	} else if n > 0 {
		return 0
	} else {
		v, e := p.euNumber(i, euYearEnds)
		if e == 0 || v < 20 || v > 99 && (v < 1900 || v > 2025) || e >= len(t) || t[e] != ' ' {
			return 0
		}
		k = e + 1
	}
	k = p.spaces(k)
	f, e := p.foldAt(k)
	if e < 0 || !strings.HasSuffix(f, "ren") {
		return 0
	}
	m, ok := monthNames[strings.TrimSuffix(f, "aren")]
	if !ok {
		if m, ok = monthNames[strings.TrimSuffix(f, "ren")]; !ok {
			return 0
		}
	}
	k = p.spaces(e)
	if d, e2, nd := p.digitsAt(k, 2); nd > 0 {
		if !validDay(d, m) {
			return 0
		}
		for _, s := range [...]string{"ean", "an", "n", "a"} {
			if strings.HasPrefix(t[e2:], s) && (e2+len(s) == len(t) || !isWordByte(t[e2+len(s)])) {
				return e2 + len(s)
			}
		}
		if e2 == len(t) || !isWordByte(t[e2]) {
			return e2
		}
		return 0
	}
	d, e2 := p.euNumber(k, euDayEnds)
	if e2 == 0 || !validDay(d, m) {
		return 0
	}
	return e2
}

// euYearCase: a year in two or four figures with the inessive ("46an", "1950ean", "31n") at i;
// its end, or 0.
func euYearCase(text string, i int) int {
	j := i
	for j < len(text) && j-i < 4 && isDigitByte(text[j]) {
		j++
	}
	if n := j - i; n != 2 && n != 4 || j < len(text) && isDigitByte(text[j]) {
		return 0
	}
	if j-i == 4 {
		if y := atoi(text[i:j]); y < 1900 || y > 2025 {
			return 0
		}
	}
	for _, s := range [...]string{"ean", "an", "n"} {
		if strings.HasPrefix(text[j:], s) && (j+len(s) == len(text) || !isWordByte(text[j+len(s)])) {
			return j + len(s)
		}
	}
	return 0
}

// dobAt: a date of birth already covers [s, e).
func dobAt(out []Span, s, e int) bool {
	for _, sp := range out {
		if sp.Type == TypeDOB && sp.Start < e && s < sp.End {
			return true
		}
	}
	return false
}

// appendDOBR10 runs this round's birth scans, each an index search for a rare string first.
func appendDOBR10(out []Span, text string, ws []word, fc *folder) []Span {
	lower := fc.lower
	if len(lower) != len(text) || r10Off {
		return out
	}
	p := dateParser{text: text, ws: ws, fc: fc}
	add := func(s, e int) {
		if e > s && !dobAt(out, s, e) {
			out = append(out, Span{Start: s, End: e, Type: TypeDOB, Text: text[s:e], Score: 0.8, Source: "cue"})
		}
	}
	// one pass over the words gathers the few places each scan reads: a word starting "jaio", the
	// word "ser" before " d", "dn" or "d.n.", and "do" between figures (4 index searches over the
	// text cost more than this on a prompt with many d's and s's)
	var hits [5][8]int
	var nh [5]int
	put := func(kind, q int) {
		if nh[kind] < len(hits[kind]) {
			hits[kind][nh[kind]] = q
			nh[kind]++
		}
	}
	for k := range ws {
		w := &ws[k]
		t := w.text
		if len(t) > 9 {
			continue
		}
		switch c := t[0] | 0x20; {
		case c == 'j' && len(t) >= 4 && string(lower[w.start:w.start+4]) == "jaio":
			put(0, w.start)
		case c == 's' && len(t) == 3 && string(lower[w.start:w.end]) == "ser" && w.end+2 < len(text) && text[w.end] == ' ' && lower[w.end+1] == 'd':
			put(1, w.start)
		case c == 'd' && len(t) == 2 && lower[w.start+1] == 'n':
			put(2, w.start)
		case c == 'd' && len(t) == 1 && w.end+3 < len(text) && string(lower[w.end:w.end+3]) == ".n.":
			put(3, w.start)
		case c == 'd' && len(t) == 2 && lower[w.start+1] == 'o' && w.start >= 2 && text[w.start-1] == ' ' && isDigitByte(text[w.start-2]) &&
			w.end < len(text) && text[w.end] == ' ':
			put(4, w.start-1) // the space of " do "
		}
	}
	// Basque: the date before "jaio…" (the verb ends its clause) or right after "jaio (zen)"
	for _, q := range hits[0][:nh[0]] {
		if q > 0 && isWordByte(text[q-1]) {
			continue
		}
		we := q + 4
		for we < len(text) && isASCIILetterByte(text[we]) {
			we++
		}
		if we-q > 9 { // jaio, jaioa, jaiota, jaiotakoa — not jaiotze (the noun), read by the cue rules
			continue
		}
		if f := string(lower[q:we]); f != "jaio" && f != "jaioa" && f != "jaiota" && f != "jaiotakoa" && f != "jaioak" && f != "jaiotako" {
			continue
		}
		e := q
		for e > 0 && (text[e-1] == ' ' || text[e-1] == ',') {
			e--
		}
		found := false
		for s := max(0, e-90); s < e && e < q; s++ {
			if !isWordByte(text[s]) || s > 0 && isWordByte(text[s-1]) {
				continue
			}
			if p.euDate(s) == e || isDigitByte(text[s]) && euYearCase(text, s) == e {
				add(s, e)
				found = true
				break
			}
		}
		if found {
			continue
		}
		k := we
		for _, aux := range [...]string{" zen", " nintzen", " zinen", " ziren", " zan", " ziren"} {
			if strings.HasPrefix(string(lower[k:min(len(lower), k+len(aux))]), aux) && (k+len(aux) == len(text) || !isWordByte(text[k+len(aux)])) {
				k += len(aux)
				break
			}
		}
		k = p.spaces(k)
		if k < len(text) && isWordByte(text[k]) {
			if e := p.euDate(k); e > 0 {
				add(k, e)
			} else if e := euYearCase(text, k); e > 0 {
				add(k, e)
			}
		}
	}
	// "refiere ser del '49", "dice ser del 53", "di ser do 47": a year after "ser del"
	for _, q := range hits[1][:nh[1]] {
		if q > 0 && isWordByte(text[q-1]) {
			continue
		}
		k := q + 5
		switch {
		case strings.HasPrefix(string(lower[k:min(len(lower), k+3)]), "el "), strings.HasPrefix(string(lower[k:min(len(lower), k+2)]), "o "):
			k = strings.IndexByte(text[k:], ' ') + k + 1
		case strings.HasPrefix(string(lower[k:min(len(lower), k+2)]), "e "):
			k += 2
		default:
			continue
		}
		s := k
		if k < len(text) && text[k] == '\'' {
			k++
		} else if strings.HasPrefix(text[k:], "’") {
			k += len("’")
		}
		v, e, n := p.digitsAt(k, 4)
		if !(n == 2 || n == 4 && v >= 1900 && v <= 2025) || !p.ends(e) || shortYearNotAfter(&p, p.spaces(e)) || thingBefore(text, q) {
			continue
		}
		if e < len(text) && (text[e] == '/' || text[e] == '-' || text[e] == '.' && e+1 < len(text) && isDigitByte(text[e+1])) {
			continue
		}
		add(s, e)
	}
	// Catalan "dn" / "d.n." (data de naixement) before a date or a year: "— dn 1994", "(dn 12/03/1972)"
	for kind, needle := range [...]string{"dn", "d.n."} {
		for _, q := range hits[2+kind][:nh[2+kind]] {
			k := q + len(needle)
			if q > 0 && isWordByte(text[q-1]) || k+2 >= len(text) || isWordByte(text[k]) {
				continue
			}
			for k < len(text) && (text[k] == '.' || text[k] == ':') {
				k++
			}
			if k >= len(text) || text[k] != ' ' {
				continue
			}
			k = p.spaces(k)
			if k >= len(text) || !isDigitByte(text[k]) {
				continue
			}
			if e := p.parse(k, false); e > k {
				if y := dateYear(text[k:e]); y == 0 || y <= 2025 {
					add(k, e)
				}
				continue
			}
			if y, e, n := p.digitsAt(k, 4); n == 4 && y >= 1900 && y <= 2025 && p.ends(e) {
				add(k, e)
			}
		}
	}
	// Galician "D do M do YY" after a birth verb within a few words ("ela nacera o 7 do 3 do 44"):
	// the verb's tense need not be a cue of its own
	for _, q := range hits[4][:nh[4]] {
		s := q
		for s > 0 && isDigitByte(text[s-1]) && q-s < 2 {
			s--
		}
		if s == q || s > 0 && isWordByte(text[s-1]) {
			continue
		}
		e := p.doNumeric(s)
		if e == 0 {
			continue
		}
		if bytes.Contains(lower[max(0, s-16):s], []byte("nac")) || bytes.Contains(lower[max(0, s-16):s], []byte("nad")) {
			add(s, e)
		}
	}
	// a second year coordinated with a year of birth: "born 1962 and 1964", "nacidos en 1958 y
	// 1961", "nascuts el 1944 i el 1947" — the same number of figures, a year again
	for k, n := 0, len(out); k < n; k++ {
		sp := out[k]
		if sp.Type != TypeDOB {
			continue
		}
		d := sp.Text
		if len(d) > 0 && d[0] == '\'' {
			d = d[1:]
		}
		if len(d) != 2 && len(d) != 4 || !allDigits(d) {
			continue
		}
		e := sp.End
		for _, w := range [...]string{" y el ", " i el ", " e o ", " y en ", " and in ", " y ", " i ", " e ", " and ", " & ", " eta ", " o "} {
			if len(text)-e <= len(w) || string(lower[e:e+len(w)]) != w {
				continue
			}
			s := e + len(w)
			j := s
			if text[j] == '\'' {
				j++
			}
			v, e2, n2 := p.digitsAt(j, 4)
			if n2 != len(d) || n2 == 4 && (v < 1900 || v > 2025) || !p.ends(e2) || shortYearNotAfter(&p, p.spaces(e2)) ||
				e2 < len(text) && strings.IndexByte("/-:.", text[e2]) >= 0 && e2+1 < len(text) && isDigitByte(text[e2+1]) {
				break
			}
			add(s, e2)
			break
		}
	}
	return out
}

// doNumeric: the Galician "D do M do YY" ("o 7 do 3 do 44"): a day, " do ", a month, " do " and a
// year of two or four figures; its end, or 0.
func (p *dateParser) doNumeric(i int) int {
	d, j, n := p.digitsAt(i, 2)
	if n == 0 || !strings.HasPrefix(p.text[j:], " do ") {
		return 0
	}
	m, j2, n2 := p.digitsAt(j+4, 2)
	if n2 == 0 || !validDay(d, m) || !strings.HasPrefix(p.text[j2:], " do ") {
		return 0
	}
	y, e, n3 := p.digitsAt(j2+4, 4)
	if !(n3 == 2 || n3 == 4 && y >= 1900 && y <= 2025) || !p.ends(e) {
		return 0
	}
	return e
}

// listDOBAfterPerson: the numeric date text[i:e] ends in a two-digit year from 30 to 99 (a
// year of birth; a later one may be an appointment's) and stands right after a person (a space
// or ", " between), with nothing after it that makes it another event's date.
func listDOBAfterPerson(spans []Span, text string, i, e int, minScore func(string) float64) bool {
	if e-i < 6 || !isDigitByte(text[e-1]) || !isDigitByte(text[e-2]) || isDigitByte(text[e-3]) {
		return false
	}
	if yy := int(text[e-2]-'0')*10 + int(text[e-1]-'0'); yy < 30 {
		return false
	}
	b := i
	for b > 0 && i-b < 2 && (text[b-1] == ' ' || text[b-1] == ',') {
		b--
	}
	if b == i {
		return false
	}
	for _, sp := range spans {
		if sp.End == b && sp.Type == TypePerson && sp.Score >= minScore(sp.Type) {
			return true
		}
	}
	return false
}

// writtenAfterPerson: a person ends at b (the comma before a written date ending at e) and the
// date closes its clause (a comma, a full stop, a semicolon or the line's end after it).
func writtenAfterPerson(spans []Span, text string, b, e int) bool {
	if e < len(text) && strings.IndexByte(",.;)\n", text[e]) < 0 {
		return false
	}
	for _, sp := range spans {
		if sp.Type == TypePerson && sp.End == b && sp.Score >= 0.5 {
			return true
		}
	}
	return false
}
