package redact

import "strings"

// Plates of the fourth round of issue #13: other countries' plates after a plate cue, and any
// plate shape near a vehicle word. Spain's own current plates are also found without a cue by
// the es_plate recognizers; these forms are only read where the words say a vehicle is meant.

// plateFillers may stand between a plate cue and its value, besides fillerWords: a country's
// adjective ("matrícula francesa", "German plates", "matrícula italiana"), "foreign", the
// plate's own name.
var plateFillers = words(`francesa frances french francaise alemana aleman german allemande deutsche portuguesa portugues
	portuguese italiana italiano italian britanica britanico british uk gb inglesa ingles english belga belgian
	holandesa dutch suiza swiss extranjera extranjero foreign estrangeira estranxeira estrangera espanola spanish
	marroqui rumana andorrana irlandesa irish number no num nr nº numero d immatriculation del de la du le his her their
	su sus car coche vehicle vehiculo plate plates placa registration mark francia france alemania germany alemanya
	portugal italia italy belgica belgium holanda netherlands suiza switzerland marruecos morocco andorra inglaterra
	england reino unido rumania romania irlanda ireland`)

// foreignPlateAt returns the end of another country's plate at i, in capitals, or 0:
// French/Italian AA-123-AA, AA 123 AA, AA 123AA, AA123AA; Portuguese 12-AB-34, AB-12-CD,
// 12-34-AB, AB-12-34; German M-HV 4418, HH-AB 1234, B MK 3317 (1–3 letters, a dash or space,
// 1–2 letters, an optional space, 1–4 digits, an optional E or H); Belgian 1-ABC-123; Spanish
// special plates (C-7720-BGS) and old provincial ones (M-7742-ZK); US ABC-1234 and UK AB12 CDE.
func foreignPlateAt(text string, i int) int {
	if i > 0 && isWordByte(text[i-1]) {
		return 0
	}
	up := func(j int) bool { return j < len(text) && text[j] >= 'A' && text[j] <= 'Z' }
	dg := func(j int) bool { return j < len(text) && isDigitByte(text[j]) }
	sep := func(j int) bool { return j < len(text) && (text[j] == '-' || text[j] == ' ') }
	run := func(j int, f func(int) bool) int { // length of the run of f from j
		k := j
		for f(k) {
			k++
		}
		return k - j
	}
	end := func(j int) int {
		if j < len(text) && isWordByte(text[j]) || j+1 < len(text) && (text[j] == '-' || text[j] == '.' && isAlnum(text[j+1])) && isAlnum(text[j+1]) {
			return 0
		}
		return j
	}
	// pairs and triples: LL sep? DDD sep? LL ; DD-LL-DD and the other Portuguese orders
	var gs [4]int
	var kinds [4]byte
	var glued [4]bool // group k follows group k-1 with no separator
	ng, j := 0, i
	for ng < 4 {
		var n int
		var k byte
		switch {
		case up(j):
			n, k = run(j, up), 'L'
		case dg(j):
			n, k = run(j, dg), 'D'
		}
		if n == 0 {
			break
		}
		gs[ng], kinds[ng] = n, k
		glued[ng] = ng > 0 && j > i && text[j-1] != '-' && text[j-1] != ' '
		ng++
		j += n
		if sep(j) && (up(j+1) || dg(j+1)) {
			j++
			continue
		}
		if ng < 4 && (k == 'L' && dg(j) || k == 'D' && up(j)) {
			continue // "AB123CD", "AB 123CD": no separator between letters and digits
		}
		break
	}
	shape := string(kinds[:ng])
	is := func(want string, lens ...int) bool {
		if shape != want || len(lens) != ng {
			return false
		}
		for k, l := range lens {
			if l > 0 && gs[k] != l || l < 0 && (gs[k] < 1 || gs[k] > -l) {
				return false
			}
		}
		return true
	}
	switch {
	case is("LDL", 2, 3, 2), // FR, IT
		is("DLD", 2, 2, 2), is("LDL", 2, 2, 2), is("DDL", 2, 2, 2), is("LDD", 2, 2, 2), // PT
		is("LLD", -3, -2, -4),                    // DE
		is("DLD", 1, 3, 3),                       // BE
		is("LDL", 1, 4, 3), is("LDL", -2, 4, -2), // ES special, ES old provincial
		is("LD", 3, 4),     // US states and others: ABC-1234, ABC 1234
		is("LDL", 2, 2, 3): // UK: AB12 CDE
		if shape == "LLD" && (glued[1] || glued[2]) {
			return 0 // "HHAB 1234", "BMW X5": a German plate's three parts are always apart
		}
		if shape == "LD" && glued[1] || shape == "LDL" && gs[2] == 3 && gs[0] == 2 && (!glued[1] || glued[2]) {
			return 0 // "ABC1234" is a code; a UK plate is "AB12 CDE"
		}
		return end(j)
	}
	return 0
}

// appendVehiclePlate: after a vehicle word, a plate in one of the shapes foreignPlateAt or
// plateAt reads, within 48 bytes and the same sentence ("drove down in his own car (M-HV 4418)").
func appendVehiclePlate(out []Span, text string, from int) []Span {
	end := min(len(text), from+48)
	for i := from; i < end; i++ {
		if sentenceEnd(text, i) {
			return out
		}
		c := text[i]
		if !isAlnum(c) || i > 0 && isWordByte(text[i-1]) {
			continue
		}
		e := foreignPlateAt(text, i)
		if e == 0 {
			if e = plateAt(text, i); e > 0 && !strings.ContainsAny(text[i:e], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
				e = 0 // a Spanish plate in lower case only after a plate word
			}
		}
		if e > 0 && referenceBefore(text, i) {
			return out // "car hire booking AB-123-CD": a booking's code
		}
		if e > 0 {
			return append(out, Span{Start: i, End: e, Type: TypePlate, Text: text[i:e], Score: 0.8, Source: "cue"})
		}
	}
	return out
}
