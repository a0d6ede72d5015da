package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

type word struct {
	start, end int
	text       string
	folded     string // fold(text), computed once on first use
}

func (w *word) fold() string {
	if w.folded == "" {
		w.folded = fold(w.text)
	}
	return w.folded
}

// splitWords returns runs of letters (with inner apostrophes and hyphens, as in O'Brien or
// Pérez-Reverte) and their byte offsets.
func splitWords(text string) []word {
	var out []word
	start := -1
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		letter := unicode.IsLetter(r) || r == 'ª' || r == 'º'
		joiner := (r == '\'' || r == '’' || r == '-') && start >= 0 && i+n < len(text)
		if joiner {
			next, _ := utf8.DecodeRuneInString(text[i+n:])
			joiner = unicode.IsLetter(next)
		}
		switch {
		case letter || joiner:
			if start < 0 {
				start = i
			}
		case start >= 0:
			out = append(out, word{start: start, end: i, text: text[start:i]})
			start = -1
		}
		i += n
	}
	if start >= 0 {
		out = append(out, word{start: start, end: len(text), text: text[start:]})
	}
	return out
}

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
	ws := splitWords(text)
	var out []Span
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if !capitalised(w.text) && !nameCueStart[w.text[0]] && !introStart[w.text[0]] {
			continue // only capitalised words, cue words and self-introductions can start a name
		}
		if end, ok := introducedName(text, ws, i); ok {
			// "soy maría josé fernández", "this is tom baker": people introduce themselves in
			// lower case; only gazetteer words are taken after the phrase.
			out = append(out, span(text, ws[i+introLen(ws, i)].start, ws[end].end, 0.8, "gazetteer"))
			i = end
			continue
		}
		f := ws[i].fold()
		cueScore, isCue := nameCues[f]
		switch {
		case isCue && i+1 < len(ws) && nameWord(&ws[i+1]) && gap(text, w, ws[i+1], true) && !nameCueWord(&ws[i+1]):
			end := extendName(text, ws, i+1)
			out = append(out, span(text, ws[i+1].start, ws[end].end, cueScore, "gazetteer"))
			i = end
		case capitalised(w.text) && givenNames[f]:
			end := extendName(text, ws, i)
			score := 0.55
			for j := i + 1; j <= end; j++ {
				if surnames[ws[j].fold()] {
					score = 0.85
					break
				}
				score = 0.65
			}
			out = append(out, span(text, w.start, ws[end].end, score, "gazetteer"))
			i = end
		case nameWord(&ws[i]) && i+1 < len(ws) && gap(text, w, ws[i+1], false) && nameWord(&ws[i+1]):
			// Two or more capitalised words that are not sentence furniture: most often a name
			// the gazetteer does not know ("Leocadia Albarracín"). Worth more if a part is known.
			end := extendName(text, ws, i)
			score := 0.5
			for j := i; j <= end; j++ {
				if g := ws[j].fold(); surnames[g] || givenNames[g] {
					score = 0.65
				}
			}
			out = append(out, span(text, w.start, ws[end].end, score, "gazetteer"))
			i = end
		case capitalised(w.text) && surnames[f]:
			out = append(out, span(text, w.start, w.end, 0.4, "gazetteer"))
		}
	}
	return out
}

// nameWord is a capitalised word that could be part of a name: not all capitals (DNI, IBAN),
// not a word that starts sentences or names institutions.
func nameWord(w *word) bool {
	if !capitalised(w.text) || notNames[w.fold()] {
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

func nameCueWord(w *word) bool { _, ok := nameCues[w.fold()]; return ok }

// extendName grows a name from word i over following capitalised words and particles, at most
// five words in all, and returns the index of its last word.
func extendName(text string, ws []word, i int) int {
	end := i
	for j := i + 1; j < len(ws) && j-i < 6; j++ {
		if !gap(text, ws[j-1], ws[j], false) {
			break
		}
		if capitalised(ws[j].text) && !notNames[ws[j].fold()] {
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

// introLen returns how many words of the introduction phrase start at ws[i], or 0.
func introLen(ws []word, i int) int {
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
func introducedName(text string, ws []word, i int) (int, bool) {
	n := introLen(ws, i)
	if n == 0 || i+n >= len(ws) || !gap(text, ws[i+n-1], ws[i+n], false) || !givenNames[ws[i+n].fold()] {
		return 0, false
	}
	end := i + n
	if capitalised(ws[end].text) {
		return extendName(text, ws, end), true
	}
	for j := end + 1; j < len(ws) && j-(i+n) < 5 && gap(text, ws[j-1], ws[j], false); j++ {
		f := ws[j].fold()
		if givenNames[f] || surnames[f] {
			end = j
			continue
		}
		if !nameParticles[f] {
			break
		}
	}
	return end, true
}
