package redact

import "strings"

// Round 5 (issue #13): what people type after a card number besides "exp"/"cvv" cues — an
// expiry after a connective word ("4913 … hasta 0130", "until 05/30"), a security code right
// after the expiry ("04/27 318") or after a bare code word next to the card ("…, código 771",
// "codi 318", "code 902"). Every rule here starts from a card or card-expiry span the other
// rules already made: no pass over the text.

// expiryConnectives may stand between a card number and its expiry.
var expiryConnectives = words(`hasta until till thru fins ata bis ata arte jusqu`)

// expiryAfterConnective returns where an expiry may start after the card that ends at from when
// a connective word stands between them ("hasta 0130"), or -1. Up to three lower-case words may
// come before the connective, as people read a card aloud ("… y dice valido hasta 03/29", "…,
// good till 07/27", "que vale hasta"): a verb and its subject, never a figure, a capital or a
// line end, within 32 bytes of the card.
func expiryAfterConnective(text string, from int, ws []word, fc *folder) (int, int) {
	i := from
	for i < len(text) && i-from < 3 && (text[i] == ' ' || text[i] == ',') {
		i++
	}
	wi := wordAtOffset(ws, i)
	for step := 0; wi >= 0 && wi < len(ws); step++ {
		if expiryConnectives[string(ws[wi].fold(fc))] {
			// "hasta el 03/29", "fins al 11/28", "until the end of 07/27": fillers after it
			from, wi := ws[wi].end, wi+1
			for k := 0; k < 4 && wi < len(ws) && ws[wi].start-from <= 3 && (expiryFillers[string(ws[wi].fold(fc))] || string(ws[wi].fold(fc)) == "al"); k++ {
				from, wi = ws[wi].end, wi+1
			}
			return from, wi
		}
		w := ws[wi]
		if step == 3 || w.end-from > 32 || w.text[0] < 'a' || w.text[0] > 'z' || wi+1 >= len(ws) {
			break
		}
		gap := text[w.end:ws[wi+1].start]
		if len(gap) > 2 || strings.Trim(gap, " ,") != "" {
			break // a figure, a bracket or a line end between the words
		}
		wi++
	}
	return -1, 0
}

// wordAtOffset returns the index of the word that starts at byte i, or -1.
func wordAtOffset(ws []word, i int) int {
	lo, hi := 0, len(ws)
	for lo < hi {
		m := (lo + hi) / 2
		if ws[m].start < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ws) && ws[lo].start == i {
		return lo
	}
	return -1
}

// cardCodeWords are bare code words that announce a card's security code only right after the
// card or its expiry ("…, código 771"); alone they name a postcode, an order's, a promotion's.
// The words for the card's back ("el numerito de atrás es 402", "the one on the back 318") say
// the same there.
var cardCodeWords = words(`codigo code codi cod kodea kodigoa atras detras back darrere reverso dorso atzean`)

// codeLeadWords may stand between an expiry and its code word: a conjunction, an article, a
// diminutive or plain word for the code ("y el numerito de atrás", "and the digits on the back").
var codeLeadWords = words(`y and i e eta el la lo the o numerito numero number numeros numbers digitos digits
	de del of on en que which is es pone says dice`)

// codeQualifiers may stand before the code word ("sec code 538", "security code", "seg.
// código").
var codeQualifiers = words(`sec security seg secure verif verification ver`)

// codeAfterWords may follow a security code and still leave it one (currency and units may not).
var notCodeAfter = words(`eur euro euros usd gbp libras pounds dolares dollars pts pesetas ptas x por percent`)

// appendCardTailCodes appends a security code after each card expiry that follows a card
// number within 60 bytes on the same line: the three or four digits right after it ("04/27 318",
// "11/27, 448") or after a bare code word within the next few words ("hasta 0130, codigo 771",
// "venc. 10/27 y código 614").
//
// It also appends the European health card numbers, the Spanish health card codes typed in
// groups and the IBANs typed with a doubled space (ehic.go), whole-text index searches run at
// the same point of the rules pass.
func appendCardTailCodes(out []Span, text string, ws []word, fc *folder, cards []Span) []Span {
	out = appendEHIC(out, text)
	out = appendGroupedHealthCard(out, text)
	out = appendSpacedIBAN(out, text)
	n := len(out)
	for k := 0; k < n; k++ {
		exp := out[k]
		if exp.Type != TypeCardExp || !cardRightBefore(text, exp.Start, cards) {
			continue
		}
		i := exp.End
		for i < len(text) && i-exp.End < 3 && (text[i] == ' ' || text[i] == ',' || text[i] == ';') {
			i++
		}
		if e := codeDigitsAt(text, i); e > 0 && i > exp.End {
			out = append(out, Span{Start: i, End: e, Type: TypeCVV, Text: text[i:e], Score: 0.8, Source: "cue"})
			continue
		}
		// a bare code word within the next three words: "y código 614", ", codi: 318"
		wi := wordAtOffset(ws, i)
		for step := 0; wi >= 0 && wi < len(ws) && step < 5 && ws[wi].start-exp.End < 40; step++ {
			f := string(ws[wi].fold(fc))
			if cardCodeWords[f] {
				at := nextValue(text, ws[wi].end, 12, 1, false, fc, ws, wi+1)
				if e := codeDigitsAt(text, at); e > 0 {
					out = append(out, Span{Start: at, End: e, Type: TypeCVV, Text: text[at:e], Score: 0.8, Source: "cue"})
				}
				break
			}
			if !codeLeadWords[f] && !codeQualifiers[f] || strings.IndexByte(text[exp.End:ws[wi].start], '\n') >= 0 {
				break
			}
			wi++
		}
	}
	return out
}

// cardRightBefore: a card number ends within 60 bytes before i, on the same line.
func cardRightBefore(text string, i int, cards []Span) bool {
	for _, c := range cards {
		if c.Type == TypeCard && c.End <= i && i-c.End <= 60 && strings.IndexByte(text[c.End:i], '\n') < 0 {
			return true
		}
	}
	return false
}

// codeDigitsAt returns the end of a security code at i: three or four digits standing alone, not
// followed by a separator and more digits, nor by a currency or a unit. 0 if none.
func codeDigitsAt(text string, i int) int {
	if i < 0 || i >= len(text) || i > 0 && isWordByte(text[i-1]) {
		return 0
	}
	e := i
	for e < len(text) && isDigitByte(text[e]) {
		e++
	}
	if e-i < 3 || e-i > 4 || !wordEnd(text, e) {
		return 0
	}
	if e+1 < len(text) && strings.IndexByte("/.,-:", text[e]) >= 0 && isDigitByte(text[e+1]) {
		return 0
	}
	j := e
	for j < len(text) && text[j] == ' ' {
		j++
	}
	if strings.HasPrefix(text[j:], "€") || strings.HasPrefix(text[j:], "$") || strings.HasPrefix(text[j:], "£") || j < len(text) && text[j] == '%' {
		return 0
	}
	k := j
	for k < len(text) && isASCIILetterByte(text[k]) && k-j < 10 {
		k++
	}
	if k > j && notCodeAfter[strings.ToLower(text[j:k])] {
		return 0
	}
	return e
}
