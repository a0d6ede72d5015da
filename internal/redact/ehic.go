package redact

import "strings"

// European health insurance card numbers (EHIC, Spanish TSE, "tarjeta sanitaria europea"): 20
// digits (21 as often written, "80724 0000 3918 2207 4415"), "80" then the issuing country's ISO 3166 numeric code, written whole or in groups
// ("80724 0000 3918 2207 4415"). The country code is what tells one from another 20-digit
// number (a Spanish account number starts with its bank's code, 0xxx–3xxx). Read as a record
// number, with no cue needed; one after a reference word ("Expedient 80…") is left alone.

// ehicCountries are the ISO 3166 numeric codes of the EHIC's issuers (EEA, Switzerland, UK).
var ehicCountries = words(`040 056 100 191 196 203 208 233 246 250 276 300 348 352 372 380 428 438 440 442 470 528
	578 616 620 642 703 705 724 752 756 826`)

// appendEHIC appends the health card numbers of text (an index search for "80", then digits).
func appendEHIC(out []Span, text string) []Span {
	for off := 0; ; {
		k := strings.Index(text[off:], "80")
		if k < 0 {
			return out
		}
		i := off + k
		off = i + 2
		if i > 0 && (isWordByte(text[i-1]) || text[i-1] == '-' || text[i-1] == '.') || i+20 > len(text) || !ehicCountries[text[i+2:min(len(text), i+5)]] {
			continue
		}
		digits, e := 0, i
		for e < len(text) && digits < 21 {
			if isDigitByte(text[e]) {
				digits++
				e++
				continue
			}
			if (text[e] == ' ' || text[e] == '-') && e+1 < len(text) && isDigitByte(text[e+1]) && isDigitByte(text[e-1]) {
				e++
				continue
			}
			break
		}
		if digits < 20 || e < len(text) && (isWordByte(text[e]) || (text[e] == ' ' || text[e] == '-') && e+1 < len(text) && isDigitByte(text[e+1])) {
			continue
		}
		if referenceBefore(text, i) {
			continue
		}
		out = append(out, Span{Start: i, End: e, Type: TypeMRN, Text: text[i:e], Score: 0.8, Source: "cue"})
		off = e
	}
}

// appendGroupedHealthCard appends Spanish regional health card codes typed in groups: four
// letters (from the surnames and name), the birth date as YYMMDD, a digit, and the region's
// letters ("ABCD 410623 8 AND"). The date in the middle is what tells it from a product or
// order code; one after a reference word is left alone. Compact codes are the recognizers'.
//
// The scan steps six bytes at a time: any run of six digits holds one offset that is a multiple
// of six, so only the digits found there are looked at (a 4 KiB prompt costs some 700 reads).
func appendGroupedHealthCard(out []Span, text string) []Span {
	next := 0 // the text before next is done with
	for x := 5; x+8 < len(text); x += 6 {
		if !isDigitByte(text[x]) || x < next {
			continue
		}
		s := x
		for s > 0 && isDigitByte(text[s-1]) {
			s--
		}
		j := x + 1
		for j < len(text) && isDigitByte(text[j]) {
			j++
		}
		next = j
		if j-s != 6 || s < 5 || text[s-1] != ' ' || !upperRun(text[s-5:s-1]) || s > 5 && isWordByte(text[s-6]) {
			continue
		}
		d := 0
		for k := s; k < j; k++ {
			d = d*10 + int(text[k]-'0')
		}
		if !validDay(d%100, d/100%100) || j+1 >= len(text) || text[j] != ' ' || !isDigitByte(text[j+1]) {
			continue
		}
		j += 2
		if j < len(text) && isDigitByte(text[j]) {
			j++ // two control digits
		}
		if j+3 > len(text) || text[j] != ' ' {
			continue
		}
		e := j + 1
		for e < len(text) && e-j <= 4 && text[e] >= 'A' && text[e] <= 'Z' {
			e++
		}
		if e-j-1 < 2 || e-j-1 > 3 || e < len(text) && isWordByte(text[e]) || referenceBefore(text, s-5) {
			continue
		}
		out = append(out, Span{Start: s - 5, End: e, Type: TypeMRN, Text: text[s-5 : e], Score: 0.8, Source: "cue"})
		next = e
	}
	return out
}

// upperRun: s is all ASCII capitals.
func upperRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// appendSpacedIBAN appends the IBANs typed with a doubled space after the country and check
// digits ("ES30  0128 0010 …", as a form's boxes paste), which the IBAN recognizer's single
// separators do not read; the mod 97 check must hold.
func appendSpacedIBAN(out []Span, text string) []Span {
	for off := 0; ; {
		k := strings.Index(text[off:], "  ")
		if k < 0 {
			return out
		}
		i := off + k
		off = i + 2
		if i < 4 || i+3 > len(text) || !isDigitByte(text[i+2]) || !upperRun(text[i-4:i-2]) || !isDigitByte(text[i-2]) || !isDigitByte(text[i-1]) ||
			i > 4 && isWordByte(text[i-5]) {
			continue
		}
		e, n := i+2, 0
		for e < len(text) && n < 30 {
			if isDigitByte(text[e]) || text[e] >= 'A' && text[e] <= 'Z' {
				e++
				n++
				continue
			}
			if text[e] == ' ' && e+1 < len(text) && isDigitByte(text[e+1]) && n%4 == 0 {
				e++
				continue
			}
			break
		}
		if n < 11 || e < len(text) && isWordByte(text[e]) || !validIBAN(text[i-4:e]) {
			continue
		}
		out = append(out, Span{Start: i - 4, End: e, Type: TypeIBAN, Text: text[i-4 : e], Score: 0.85, Source: "cue"})
		off = e
	}
}
