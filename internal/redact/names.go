package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

type word struct {
	start, end int
	text       string
	folded     []byte // fold(text), computed once on first use
	ascii      bool   // every rune is ASCII
	latin1     bool   // every rune is at most U+00FF
}

// folder folds the words of one text. lower is the text lower-cased by
// appendLowerSameLength; for a word in Latin-1 it holds the word lower-cased as
// strings.ToLower would, at the same offsets, so an ASCII word folds to a slice of it and an
// accented one into arena, without an allocation per word. Folded words are only used as map
// keys (m[string(b)] does not allocate).
type folder struct {
	lower []byte
	arena []byte
}

func (w *word) fold(fc *folder) []byte {
	if w.folded == nil {
		switch {
		case w.ascii:
			w.folded = fc.lower[w.start:w.end]
		case w.latin1:
			at := len(fc.arena)
			fc.arena = appendAccentFolded(fc.arena, fc.lower[w.start:w.end])
			w.folded = fc.arena[at:len(fc.arena):len(fc.arena)]
		default:
			w.folded = []byte(fold(w.text))
		}
	}
	return w.folded
}

// appendAccentFolded appends s with accentFolder's replacements for lower-case Latin-1 letters
// (the only ones in a lower-cased Latin-1 word).
func appendAccentFolded(b, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0xC3 && i+1 < len(s) {
			if c := latin1Fold[s[i+1]]; c != 0 {
				b = append(b, c)
				i++
				continue
			}
		}
		b = append(b, s[i])
	}
	return b
}

// latin1Fold maps the second byte of a lower-case Latin-1 letter (0xC3 xx) to the byte
// accentFolder replaces it with, 0 if it keeps it.
var latin1Fold = func() (t [256]byte) {
	for i := 0; i+1 < len(accents); i += 2 {
		if from, to := accents[i], accents[i+1]; len(from) == 2 && from[0] == 0xC3 && len(to) == 1 {
			t[from[1]] = to[0]
		}
	}
	return t
}()

// splitWords appends to out the runs of letters (with inner apostrophes and hyphens, as in
// O'Brien or Pérez-Reverte) of text and their byte offsets.
func splitWords(out []word, text string) []word {
	start := -1
	ascii, latin1 := true, true
	for i := 0; i < len(text); {
		if isASCIILetterByte(text[i]) { // most of a text: a run of ASCII letters at once
			if start < 0 {
				start, ascii, latin1 = i, true, true
			}
			for i++; i < len(text) && isASCIILetterByte(text[i]); i++ {
			}
			continue
		}
		var r rune
		n := 1
		var letter bool
		if c := text[i]; c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, n = utf8.DecodeRuneInString(text[i:])
			letter = unicode.IsLetter(r) || r == 'ª' || r == 'º'
		}
		joiner := (r == '\'' || r == '’' || r == '-') && start >= 0 && i+n < len(text)
		if joiner {
			next, _ := utf8.DecodeRuneInString(text[i+n:])
			joiner = unicode.IsLetter(next)
		}
		switch {
		case letter || joiner:
			if start < 0 {
				start, ascii, latin1 = i, true, true
			}
			ascii = ascii && n == 1
			latin1 = latin1 && r <= 0xFF
		case start >= 0:
			out = append(out, word{start: start, end: i, text: text[start:i], ascii: ascii, latin1: latin1})
			start = -1
		}
		i += n
	}
	if start >= 0 {
		out = append(out, word{start: start, end: len(text), text: text[start:], ascii: ascii, latin1: latin1})
	}
	return out
}

func isASCIILetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// gap reports whether only a name-internal gap (one space, or ". " after an abbreviated
// honorific) separates two words.
func gap(text string, a, b word, afterCue bool) bool {
	g := text[a.end:b.start]
	if g == " " {
		return true
	}
	return afterCue && (g == ". " || g == "." || g == ", " || g == ": ")
}

// findNames is the gazetteer detector. It reports runs of capitalised words that either follow
// an honorific or role word, or start with a known given name, or are two known surnames.
func findNames(text string) []Span {
	return appendNames(nil, splitWords(nil, text), &folder{lower: appendLowerSameLength(nil, text)}, text)
}

// appendNames appends findNames(text) to out; ws are splitWords(text), fc.lower is
// appendLowerSameLength(text).
func appendNames(out []Span, ws []word, fc *folder, text string) []Span {
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if !capitalised(w.text) && !nameCueStart[w.text[0]] && !introStart[w.text[0]] {
			continue // only capitalised words, cue words and self-introductions can start a name
		}
		if end, ok := introducedName(text, ws, i, fc); ok {
			// "soy maría josé fernández", "this is tom baker": people introduce themselves in
			// lower case; only gazetteer words are taken after the phrase.
			out = append(out, span(text, ws[i+introLen(ws, i)].start, ws[end].end, 0.8, "gazetteer"))
			i = end
			continue
		}
		f := ws[i].fold(fc)
		cueScore, isCue := nameCues[string(f)]
		switch {
		case isCue && i+1 < len(ws) && nameWord(&ws[i+1], fc) && gap(text, w, ws[i+1], true) && !nameCueWord(&ws[i+1], fc):
			end := extendName(text, ws, i+1, fc)
			out = append(out, span(text, ws[i+1].start, ws[end].end, cueScore, "gazetteer"))
			i = end
		case capitalised(w.text) && givenNames[string(f)]:
			end := extendName(text, ws, i, fc)
			score := 0.55
			for j := i + 1; j <= end; j++ {
				if surnames[string(ws[j].fold(fc))] {
					score = 0.85
					break
				}
				score = 0.65
			}
			out = append(out, span(text, w.start, ws[end].end, score, "gazetteer"))
			i = end
		case nameWord(&ws[i], fc) && i+1 < len(ws) && gap(text, w, ws[i+1], false) && nameWord(&ws[i+1], fc):
			// Two or more capitalised words that are not sentence furniture: most often a name
			// the gazetteer does not know ("Leocadia Albarracín"). Worth more if a part is known.
			end := extendName(text, ws, i, fc)
			score := 0.5
			for j := i; j <= end; j++ {
				if g := ws[j].fold(fc); surnames[string(g)] || givenNames[string(g)] {
					score = 0.65
				}
			}
			out = append(out, span(text, w.start, ws[end].end, score, "gazetteer"))
			i = end
		case capitalised(w.text) && surnames[string(f)]:
			out = append(out, span(text, w.start, w.end, 0.4, "gazetteer"))
		}
	}
	return out
}

// nameWord is a capitalised word that could be part of a name: not all capitals (DNI, IBAN),
// not a word that starts sentences or names institutions.
func nameWord(w *word, fc *folder) bool {
	if !capitalised(w.text) || notNames[string(w.fold(fc))] {
		return false
	}
	for _, r := range w.text[1:] {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}

// nameCueStart holds the first bytes of the lower-case cue words.
var nameCueStart = func() [256]bool {
	var t [256]bool
	for w := range nameCues {
		t[w[0]] = true
	}
	return t
}()

func nameCueWord(w *word, fc *folder) bool { _, ok := nameCues[string(w.fold(fc))]; return ok }

// extendName grows a name from word i over following capitalised words and particles, at most
// five words in all, and returns the index of its last word.
func extendName(text string, ws []word, i int, fc *folder) int {
	end := i
	for j := i + 1; j < len(ws) && j-i < 6; j++ {
		if !gap(text, ws[j-1], ws[j], false) {
			break
		}
		if capitalised(ws[j].text) && !notNames[string(ws[j].fold(fc))] {
			end = j
			continue
		}
		if nameParticles[ws[j].text] && j+1 < len(ws) {
			continue // kept only if a capitalised word follows
		}
		break
	}
	return end
}

func span(text string, start, end int, score float64, source string) Span {
	return Span{Start: start, End: end, Type: TypePerson, Text: text[start:end], Score: score, Source: source}
}

// Self-introductions, as word sequences (lower case).
var intros = [][]string{{"soy"}, {"me", "llamo"}, {"mi", "nombre", "es"}, {"this", "is"}, {"my", "name", "is"},
	{"i", "am"}, {"i'm"}, {"aquí"}, {"le", "habla"}, {"te", "habla"}}

var introStart = func() [256]bool {
	var t [256]bool
	for _, in := range intros {
		t[in[0][0]] = true
		t[in[0][0]-'a'+'A'] = in[0][0] >= 'a' && in[0][0] <= 'z'
	}
	return t
}()

// maxIntroRunes is the length of the longest first word of an introduction: EqualFold only
// matches words with as many runes.
var maxIntroRunes = func() int {
	n := 0
	for _, in := range intros {
		n = max(n, utf8.RuneCountInString(in[0]))
	}
	return n
}()

// introLen returns how many words of the introduction phrase start at ws[i], or 0.
func introLen(ws []word, i int) int {
	w := ws[i].text
	if !introStart[w[0]] || len(w) > maxIntroRunes*utf8.UTFMax || utf8.RuneCountInString(w) > maxIntroRunes {
		return 0
	}
	for _, in := range intros {
		if i+len(in) > len(ws) {
			continue
		}
		ok := true
		for k, w := range in {
			if !strings.EqualFold(ws[i+k].text, w) {
				ok = false
				break
			}
		}
		if ok {
			return len(in)
		}
	}
	return 0
}

// introducedName reports a name right after an introduction phrase: a known given name, then
// known given names, surnames and particles, in any case. It returns the index of its last word.
func introducedName(text string, ws []word, i int, fc *folder) (int, bool) {
	n := introLen(ws, i)
	if n == 0 || i+n >= len(ws) || !gap(text, ws[i+n-1], ws[i+n], false) || !givenNames[string(ws[i+n].fold(fc))] {
		return 0, false
	}
	end := i + n
	if capitalised(ws[end].text) {
		return extendName(text, ws, end, fc), true
	}
	for j := end + 1; j < len(ws) && j-(i+n) < 5 && gap(text, ws[j-1], ws[j], false); j++ {
		f := ws[j].fold(fc)
		if givenNames[string(f)] || surnames[string(f)] {
			end = j
			continue
		}
		if !nameParticles[string(f)] {
			break
		}
	}
	return end, true
}
