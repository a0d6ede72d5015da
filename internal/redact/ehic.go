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
