package redact

import (
	"strings"
	"unicode"
)

// Exact matchers: hand-written forms of the fixed-shape built-in patterns (DNI, NIE, CIF, NSS,
// card, Spanish and E.164 phones, IPv4, passport). At a candidate start they return what the
// anchored regexp2 pattern (\G + pattern) returns there, the match's length in runes or -1,
// without regexp2's per-call setup and the four or five objects it allocates for every match
// (84 % of what a 4 KiB Redact allocated). Each is bound to the exact pattern text it was
// written from: a recognizer whose pattern differs in any byte (edited, or a custom one) keeps
// regexp2, so a matcher can never silently disagree with a changed pattern.
// TestExactMatchersAgreeWithRegexp tries every matcher against its anchored pattern at every
// position of the corpus texts and of random near misses; TestExactMatchersInUse fails when a
// pattern changes and its matcher falls out of use.
//
// Each matcher follows the pattern's backtracking order: optional single characters (a
// separator) are taken when present, which decides the path because what follows them can
// never be that character; greedy counted loops record where each iteration ended and give
// back iterations until the lookahead holds; alternatives are tried in the pattern's order.

type exactMatcher struct {
	pattern string // the builtin's pattern, before asciiClasses
	match   func(rs []rune, i int) int
}

var exactMatchers = map[string]exactMatcher{
	"es_dni":          {wb + `\d{2}[. ]?\d{3}[. ]?\d{3}(?:[ -]| - )?[A-Za-z]` + we, matchDNI},
	"es_nie":          {wb + `[XYZxyz][ .-]?(?:\d{7}|\d{4}[ .]\d{3}|\d[ .]\d{3}[ .]\d{3})[ .-]?[A-Za-z]` + we, matchNIE},
	"es_cif":          {wb + `[ABCDEFGHJNPQRSUVWabcdefghjnpqrsuvw][ -]?\d{7}[ -]?[0-9A-Ja-j]` + we, matchCIF},
	"es_nss":          {wb + `\d{2}[ /-]?(?:\d{8}|\d{4}[ /-]\d{4})[ /-]?\d{2}` + we, matchNSS},
	"card":            {wb + `(?:[1-9](?:[ -]?\d){12,18}|[1-9]\d{3}(?:\.\d{4}){3}(?:\.\d{1,3})?)` + we, matchCard},
	"es_phone":        {`(?<![\w+])(?:(?:\+|00) ?34[ .-]?)?(?:[6789]\d{8}|[6789]\d{2}[ .-]\d{3}[ .-]\d{3}|[6789]\d{2}[ .-]\d{2}[ .-]\d{2}[ .-]\d{2}|[89]\d[ .-]\d{3}[ .-]\d{2}[ .-]\d{2})` + we, matchSpanishPhone},
	"e164":            {`(?<![\w+])\+[1-9](?:[ .-]?\d){6,14}` + we, matchE164},
	"email":           {`(?<![\w.%+-])[\w.%+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}`, matchEmail},
	"ipv6":            {`(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])`, matchIPv6},
	"iban":            {wb + `(?:[A-Za-z]{2}|[A-Z]{2} )\d{2}(?:(?:[ .-]|[ ]?/[ ]?)?[A-Za-z0-9]){11,30}` + we, matchIBAN},
	"dob":             {wb + `(?:\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2}|\d{1,2}(?:º|°)? (?i:de )?(?i:` + months + `)\.?,? (?i:de |del )?(?:19|20)\d{2})` + we, matchDate},
	"dob_month_first": {wb + `(?i:` + months + `)\.? \d{1,2}(?i:st|nd|rd|th)?,? (?:19|20)\d{2}` + we, matchMonthFirst},
	// identifiers.go's pattern: TestExactMatchersInUse only logs when it changes (see there).
	"es_ccc":      {wb + `\d(?:[ -]?\d){19}` + we, matchCCC},
	"ipv4":        {`(?<![\w.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\w]|\.\d)`, matchIPv4},
	"es_passport": {wb + `[A-Za-z]{3}\d{6}` + we, matchPassport},
}

func init() {
	if monthAlts == nil { // months changed shape: the date patterns keep regexp2
		delete(exactMatchers, "dob")
		delete(exactMatchers, "dob_month_first")
	}
}

// at returns rs[i], or -1 outside rs.
func at(rs []rune, i int) rune {
	if i < 0 || i >= len(rs) {
		return -1
	}
	return rs[i]
}

// wordAt: rs[i] is a \w of the built-in patterns (see asciiClasses); false outside rs.
func wordAt(rs []rune, i int) bool { return i >= 0 && i < len(rs) && isWordRune(rs[i]) }

func digitAt(rs []rune, i int) bool { r := at(rs, i); return r >= '0' && r <= '9' }

// digitsRun reports whether the n runes from i are digits.
func digitsRun(rs []rune, i, n int) bool {
	for k := 0; k < n; k++ {
		if !digitAt(rs, i+k) {
			return false
		}
	}
	return true
}

func letterAt(rs []rune, i int) bool { return isASCIILetter(at(rs, i)) }

// optSep returns i+1 if rs[i] is one of seps (an optional separator taken), else i.
func optSep(rs []rune, i int, seps string) int {
	r := at(rs, i)
	for _, c := range seps {
		if r == c {
			return i + 1
		}
	}
	return i
}

// end returns the length from start to j if no word rune follows j (we), else -1.
func end(rs []rune, start, j int) int {
	if wordAt(rs, j) {
		return -1
	}
	return j - start
}

// matchDNI: wb \d{2}[. ]?\d{3}[. ]?\d{3}(?:[ -]| - )?[A-Za-z] we
func matchDNI(rs []rune, i int) int {
	if wordAt(rs, i-1) || !digitsRun(rs, i, 2) {
		return -1
	}
	j := optSep(rs, i+2, ". ")
	if !digitsRun(rs, j, 3) {
		return -1
	}
	j = optSep(rs, j+3, ". ")
	if !digitsRun(rs, j, 3) {
		return -1
	}
	j += 3
	// (?:[ -]| - )? then a letter and we, in the group's order: one separator, " - ", none.
	if r := at(rs, j); r == ' ' || r == '-' {
		if letterAt(rs, j+1) {
			if n := end(rs, i, j+2); n >= 0 {
				return n
			}
		}
	}
	if at(rs, j) == ' ' && at(rs, j+1) == '-' && at(rs, j+2) == ' ' && letterAt(rs, j+3) {
		if n := end(rs, i, j+4); n >= 0 {
			return n
		}
	}
	if letterAt(rs, j) {
		return end(rs, i, j+1)
	}
	return -1
}

// matchNIE: wb [XYZxyz][ .-]?(?:\d{7}|\d{4}[ .]\d{3}|\d[ .]\d{3}[ .]\d{3})[ .-]?[A-Za-z] we
func matchNIE(rs []rune, i int) int {
	if wordAt(rs, i-1) {
		return -1
	}
	switch at(rs, i) {
	case 'X', 'Y', 'Z', 'x', 'y', 'z':
	default:
		return -1
	}
	j := optSep(rs, i+1, " .-")
	var k int // after the digits: the three forms are exclusive (what follows the first digit, the fourth)
	switch {
	case digitsRun(rs, j, 7):
		k = j + 7
	case digitsRun(rs, j, 4) && (at(rs, j+4) == ' ' || at(rs, j+4) == '.') && digitsRun(rs, j+5, 3):
		k = j + 8
	case digitAt(rs, j) && (at(rs, j+1) == ' ' || at(rs, j+1) == '.') && digitsRun(rs, j+2, 3) &&
		(at(rs, j+5) == ' ' || at(rs, j+5) == '.') && digitsRun(rs, j+6, 3):
		k = j + 9
	default:
		return -1
	}
	k = optSep(rs, k, " .-")
	if !letterAt(rs, k) {
		return -1
	}
	return end(rs, i, k+1)
}

// matchCIF: wb [ABCDEFGHJNPQRSUVWabcdefghjnpqrsuvw][ -]?\d{7}[ -]?[0-9A-Ja-j] we
func matchCIF(rs []rune, i int) int {
	if wordAt(rs, i-1) {
		return -1
	}
	switch at(rs, i) {
	case 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'N', 'P', 'Q', 'R', 'S', 'U', 'V', 'W',
		'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'j', 'n', 'p', 'q', 'r', 's', 'u', 'v', 'w':
	default:
		return -1
	}
	j := optSep(rs, i+1, " -")
	if !digitsRun(rs, j, 7) {
		return -1
	}
	j = optSep(rs, j+7, " -")
	if r := at(rs, j); !(r >= '0' && r <= '9' || r >= 'A' && r <= 'J' || r >= 'a' && r <= 'j') {
		return -1
	}
	return end(rs, i, j+1)
}

// matchNSS: wb \d{2}[ /-]?(?:\d{8}|\d{4}[ /-]\d{4})[ /-]?\d{2} we
func matchNSS(rs []rune, i int) int {
	if wordAt(rs, i-1) || !digitsRun(rs, i, 2) {
		return -1
	}
	j := optSep(rs, i+2, " /-")
	switch {
	case digitsRun(rs, j, 8):
		j += 8
	case digitsRun(rs, j, 4) && (at(rs, j+4) == ' ' || at(rs, j+4) == '/' || at(rs, j+4) == '-') && digitsRun(rs, j+5, 4):
		j += 9
	default:
		return -1
	}
	j = optSep(rs, j, " /-")
	if !digitsRun(rs, j, 2) {
		return -1
	}
	return end(rs, i, j+2)
}

// matchCard: wb (?:[1-9](?:[ -]?\d){12,18}|[1-9]\d{3}(?:\.\d{4}){3}(?:\.\d{1,3})?) we
func matchCard(rs []rune, i int) int {
	if wordAt(rs, i-1) {
		return -1
	}
	if r := at(rs, i); r < '1' || r > '9' {
		return -1
	}
	// First form: up to 18 iterations of an optional separator and a digit, then give back
	// iterations down to 12 until no word rune follows.
	var ends [19]int
	n, j := 0, i+1
	for n < 18 {
		k := optSep(rs, j, " -")
		if !digitAt(rs, k) {
			break
		}
		j = k + 1
		n++
		ends[n] = j
	}
	for ; n >= 12; n-- {
		if !wordAt(rs, ends[n]) {
			return ends[n] - i
		}
	}
	// Second form: dotted groups of four, then an optional dot and one to three digits.
	if !digitsRun(rs, i+1, 3) {
		return -1
	}
	j = i + 4
	for g := 0; g < 3; g++ {
		if at(rs, j) != '.' || !digitsRun(rs, j+1, 4) {
			return -1
		}
		j += 5
	}
	if at(rs, j) == '.' && digitAt(rs, j+1) {
		d := 1
		for d < 3 && digitAt(rs, j+1+d) {
			d++
		}
		for ; d >= 1; d-- {
			if !wordAt(rs, j+1+d) {
				return j + 1 + d - i
			}
		}
	}
	return end(rs, i, j)
}

// matchSpanishPhone: (?<![\w+])(?:(?:\+|00) ?34[ .-]?)?(?:[6789]\d{8}|[6789]\d{2}[ .-]\d{3}[ .-]\d{3}|
// [6789]\d{2}[ .-]\d{2}[ .-]\d{2}[ .-]\d{2}|[89]\d[ .-]\d{3}[ .-]\d{2}[ .-]\d{2}) we
func matchSpanishPhone(rs []rune, i int) int {
	if r := at(rs, i-1); r == '+' || wordAt(rs, i-1) {
		return -1
	}
	j := i
	// The prefix, when present, decides the path: the number after it starts with 6-9, never
	// with '+', '0', ' ', '3' or a separator.
	switch {
	case at(rs, j) == '+':
		j++
	case at(rs, j) == '0' && at(rs, j+1) == '0':
		j += 2
	default:
		return phoneBody(rs, i, j)
	}
	j = optSep(rs, j, " ")
	if at(rs, j) != '3' || at(rs, j+1) != '4' {
		return -1
	}
	return phoneBody(rs, i, optSep(rs, j+2, " .-"))
}

func phoneSepAt(rs []rune, j int) bool { r := at(rs, j); return r == ' ' || r == '.' || r == '-' }

// phoneBody tries the four national forms from j in the pattern's order, each followed by we.
func phoneBody(rs []rune, i, j int) int {
	r := at(rs, j)
	if r >= '6' && r <= '9' {
		if digitsRun(rs, j+1, 8) {
			if n := end(rs, i, j+9); n >= 0 {
				return n
			}
		}
		if digitsRun(rs, j+1, 2) && phoneSepAt(rs, j+3) && digitsRun(rs, j+4, 3) && phoneSepAt(rs, j+7) && digitsRun(rs, j+8, 3) {
			if n := end(rs, i, j+11); n >= 0 {
				return n
			}
		}
		if digitsRun(rs, j+1, 2) && phoneSepAt(rs, j+3) && digitsRun(rs, j+4, 2) && phoneSepAt(rs, j+6) && digitsRun(rs, j+7, 2) &&
			phoneSepAt(rs, j+9) && digitsRun(rs, j+10, 2) {
			if n := end(rs, i, j+12); n >= 0 {
				return n
			}
		}
	}
	if r == '8' || r == '9' {
		if digitAt(rs, j+1) && phoneSepAt(rs, j+2) && digitsRun(rs, j+3, 3) && phoneSepAt(rs, j+6) && digitsRun(rs, j+7, 2) &&
			phoneSepAt(rs, j+9) && digitsRun(rs, j+10, 2) {
			return end(rs, i, j+12)
		}
	}
	return -1
}

// matchE164: (?<![\w+])\+[1-9](?:[ .-]?\d){6,14} we
func matchE164(rs []rune, i int) int {
	if r := at(rs, i-1); r == '+' || wordAt(rs, i-1) {
		return -1
	}
	if at(rs, i) != '+' {
		return -1
	}
	if r := at(rs, i+1); r < '1' || r > '9' {
		return -1
	}
	var ends [15]int
	n, j := 0, i+2
	for n < 14 {
		k := optSep(rs, j, " .-")
		if !digitAt(rs, k) {
			break
		}
		j = k + 1
		n++
		ends[n] = j
	}
	for ; n >= 6; n-- {
		if !wordAt(rs, ends[n]) {
			return ends[n] - i
		}
	}
	return -1
}

// matchIPv4: (?<![\w.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\w]|\.\d)
func matchIPv4(rs []rune, i int) int {
	if at(rs, i-1) == '.' || wordAt(rs, i-1) {
		return -1
	}
	j := i
	for g := 0; g < 4; g++ {
		if g > 0 {
			if at(rs, j) != '.' {
				return -1
			}
			j++
		}
		d := 0
		for d < 3 && digitAt(rs, j+d) {
			d++
		}
		// Fewer digits than the run holds leave a digit where '.' or the lookahead needs none.
		if d == 0 || digitAt(rs, j+d) {
			return -1
		}
		j += d
	}
	if wordAt(rs, j) || at(rs, j) == '.' && digitAt(rs, j+1) {
		return -1
	}
	return j - i
}

// matchPassport: wb [A-Za-z]{3}\d{6} we
func matchPassport(rs []rune, i int) int {
	if wordAt(rs, i-1) || !letterAt(rs, i) || !letterAt(rs, i+1) || !letterAt(rs, i+2) || !digitsRun(rs, i+3, 6) {
		return -1
	}
	return end(rs, i, i+9)
}

func isEmailLocal(r rune) bool { return isWordRune(r) || r == '.' || r == '%' || r == '+' || r == '-' }

func isDomainRune(r rune) bool { return isWordRune(r) || r == '-' }

// matchEmail: (?<![\w.%+-])[\w.%+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}
// '@' is no local character, so the local part runs exactly to it (at most 64); the first
// label must run to a '.' within 63; later labels take at most 63 each (there is no lookahead
// after them), and the loop stops at the eighth or where no '.' and domain rune follow.
func matchEmail(rs []rune, i int) int {
	if i > 0 && isEmailLocal(rs[i-1]) {
		return -1
	}
	j := i
	for j < len(rs) && isEmailLocal(rs[j]) {
		j++
	}
	if j == i || j-i > 64 || at(rs, j) != '@' {
		return -1
	}
	j++
	k := j
	for k < len(rs) && isDomainRune(rs[k]) {
		k++
	}
	if k == j || k-j > 63 || at(rs, k) != '.' {
		return -1
	}
	n := 0
	for n < 8 && at(rs, k) == '.' && k+1 < len(rs) && isDomainRune(rs[k+1]) {
		l := k + 1
		for l < len(rs) && l-(k+1) < 63 && isDomainRune(rs[l]) {
			l++
		}
		k = l
		n++
	}
	if n == 0 {
		return -1
	}
	return k - i
}

func isHex(r rune) bool { return r >= '0' && r <= '9' || r >= 'A' && r <= 'F' || r >= 'a' && r <= 'f' }

// matchIPv6: (?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])
// Every group ends where ':' or the lookahead must hold, so a group of more than four hex
// digits fails the whole match, and only the longest run of groups can pass the lookahead
// (every shorter one is followed by ':').
func matchIPv6(rs []rune, i int) int {
	if r := at(rs, i-1); r == ':' || wordAt(rs, i-1) {
		return -1
	}
	hexRun := func(j int) int {
		k := j
		for k < len(rs) && isHex(rs[k]) {
			k++
		}
		return k - j
	}
	h := hexRun(i)
	if h > 4 {
		return -1
	}
	j, n := i+h, 0
	for n < 7 && at(rs, j) == ':' {
		h = hexRun(j + 1)
		if h > 4 {
			return -1
		}
		j += 1 + h
		n++
	}
	if n < 2 || at(rs, j) == ':' || wordAt(rs, j) {
		return -1
	}
	return j - i
}

func isASCIIAlnum(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
}

// matchIBAN: wb (?:[A-Za-z]{2}|[A-Z]{2} )\d{2}(?:(?:[ .-]|[ ]?/[ ]?)?[A-Za-z0-9]){11,30} we
// The two heads are exclusive (a digit or a space after the letters), and each group of the
// loop can be read one way only: an alphanumeric; '.', '-' or ' ' and one; or '/' with an
// optional space on either side and one. The loop gives groups back until we holds.
func matchIBAN(rs []rune, i int) int {
	if wordAt(rs, i-1) || !letterAt(rs, i) || !letterAt(rs, i+1) {
		return -1
	}
	j := i + 2
	if at(rs, j) == ' ' {
		if r0, r1 := rs[i], rs[i+1]; r0 < 'A' || r0 > 'Z' || r1 < 'A' || r1 > 'Z' {
			return -1
		}
		j++
	}
	if !digitsRun(rs, j, 2) {
		return -1
	}
	j += 2
	var ends [31]int
	n := 0
	for n < 30 {
		k := j
		switch r := at(rs, k); {
		case isASCIIAlnum(r):
		case r == '.' || r == '-':
			k++
		case r == ' ' && isASCIIAlnum(at(rs, k+1)):
			k++
		case r == ' ' && at(rs, k+1) == '/':
			k += 2
			k = optSep(rs, k, " ")
		case r == '/':
			k = optSep(rs, k+1, " ")
		}
		if !isASCIIAlnum(at(rs, k)) {
			break
		}
		j = k + 1
		n++
		ends[n] = j
	}
	for ; n >= 11; n-- {
		if !wordAt(rs, ends[n]) {
			return ends[n] - i
		}
	}
	return -1
}

// monthAlts are the alternatives of months, in the pattern's order (regexp2 tries them in
// order; the first whose continuation holds wins, so "sep" before "sept" matters). nil if
// months is no longer a plain alternation of lower-case ASCII words: the date matchers are
// then left out.
var monthAlts = func() [][]rune {
	body, ok := strings.CutPrefix(months, "(?:")
	if body, ok = strings.CutSuffix(body, ")"); !ok {
		return nil
	}
	var out [][]rune
	for _, m := range strings.Split(body, "|") {
		if m == "" || strings.Trim(m, "abcdefghijklmnopqrstuvwxyz") != "" {
			return nil
		}
		out = append(out, []rune(m))
	}
	return out
}()

// foldAt reports whether the runes from j, lower-cased as regexp2's (?i) lower-cases them
// (unicode.ToLower), spell the lower-case w.
func foldAt(rs []rune, j int, w string) bool {
	for k := 0; k < len(w); k++ {
		if j+k >= len(rs) || unicode.ToLower(rs[j+k]) != rune(w[k]) {
			return false
		}
	}
	return true
}

func foldRunesAt(rs []rune, j int, w []rune) bool {
	if j+len(w) > len(rs) {
		return false
	}
	for k, c := range w {
		if unicode.ToLower(rs[j+k]) != c {
			return false
		}
	}
	return true
}

// digitCount is how many digits follow from j, counting to at most 3.
func digitCount(rs []rune, j int) int {
	d := 0
	for d < 3 && digitAt(rs, j+d) {
		d++
	}
	return d
}

// yearAt: (?:19|20)\d{2} from j.
func yearAt(rs []rune, j int) bool {
	r0, r1 := at(rs, j), at(rs, j+1)
	return (r0 == '1' && r1 == '9' || r0 == '2' && r1 == '0') && digitsRun(rs, j+2, 2)
}

func dateSepAt(rs []rune, j int) bool { r := at(rs, j); return r == '/' || r == '.' || r == '-' }

// matchDate: wb (?:\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2}|
// \d{1,2}(?:º|°)? (?i:de )?(?i:months)\.?,? (?i:de |del )?(?:19|20)\d{2}) we
// \d{1,2} is followed by a separator, 'º', '°' or a space in every form, so it takes the whole
// run of one or two digits; "de " before a month cannot be a month's start ("dec" needs a 'c'
// where "de " has a space), and "de " and "del " before the year are exclusive.
func matchDate(rs []rune, i int) int {
	if wordAt(rs, i-1) {
		return -1
	}
	d := digitCount(rs, i)
	if (d == 1 || d == 2) && dateSepAt(rs, i+d) {
		j := i + d + 1
		if e := digitCount(rs, j); (e == 1 || e == 2) && dateSepAt(rs, j+e) && yearAt(rs, j+e+1) {
			if n := end(rs, i, j+e+5); n >= 0 {
				return n
			}
		}
	}
	if yearAt(rs, i) && at(rs, i+4) == '-' && digitsRun(rs, i+5, 2) && at(rs, i+7) == '-' && digitsRun(rs, i+8, 2) {
		if n := end(rs, i, i+10); n >= 0 {
			return n
		}
	}
	if d != 1 && d != 2 {
		return -1
	}
	j := i + d
	if r := at(rs, j); r == 'º' || r == '°' {
		j++
	}
	if at(rs, j) != ' ' {
		return -1
	}
	j++
	if foldAt(rs, j, "de ") {
		j += 3
	}
	for _, m := range monthAlts {
		if !foldRunesAt(rs, j, m) {
			continue
		}
		k := j + len(m)
		if at(rs, k) == '.' {
			k++
		}
		if at(rs, k) == ',' {
			k++
		}
		if at(rs, k) != ' ' {
			continue
		}
		k++
		if foldAt(rs, k, "de ") {
			k += 3
		} else if foldAt(rs, k, "del ") {
			k += 4
		}
		if !yearAt(rs, k) {
			continue
		}
		if n := end(rs, i, k+4); n >= 0 {
			return n
		}
	}
	return -1
}

// matchMonthFirst: wb (?i:months)\.? \d{1,2}(?i:st|nd|rd|th)?,? (?:19|20)\d{2} we
// The day takes its whole run of one or two digits (a suffix, ',' or a space follows it), and
// a suffix, when there, is taken (',' or a space must follow the day otherwise).
func matchMonthFirst(rs []rune, i int) int {
	if wordAt(rs, i-1) {
		return -1
	}
	for _, m := range monthAlts {
		if !foldRunesAt(rs, i, m) {
			continue
		}
		j := i + len(m)
		if at(rs, j) == '.' {
			j++
		}
		if at(rs, j) != ' ' {
			continue
		}
		j++
		d := digitCount(rs, j)
		if d != 1 && d != 2 {
			continue
		}
		j += d
		if foldAt(rs, j, "st") || foldAt(rs, j, "nd") || foldAt(rs, j, "rd") || foldAt(rs, j, "th") {
			j += 2
		}
		if at(rs, j) == ',' {
			j++
		}
		if at(rs, j) != ' ' || !yearAt(rs, j+1) {
			continue
		}
		if n := end(rs, i, j+5); n >= 0 {
			return n
		}
	}
	return -1
}

// matchCCC: wb \d(?:[ -]?\d){19} we
// Twenty digits, each after an optional space or hyphen (the loop has no range to give back).
func matchCCC(rs []rune, i int) int {
	if wordAt(rs, i-1) || !digitAt(rs, i) {
		return -1
	}
	j := i + 1
	for n := 0; n < 19; n++ {
		k := optSep(rs, j, " -")
		if !digitAt(rs, k) {
			return -1
		}
		j = k + 1
	}
	return end(rs, i, j)
}
