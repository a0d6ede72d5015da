package guard

import (
	"unicode"
	"unicode/utf8"
)

// The guard models' tokenizers are not available on the NUC's side of the API, so window sizes are
// counted with an estimate that is deliberately pessimistic for subword tokenizers (Prompt Guard 2's
// mDeBERTa averages about 4 bytes per token on Latin scripts): a word of n bytes counts as
// ceil(n/3) tokens, a punctuation mark or symbol as one. Overestimating only costs an extra window;
// underestimating would let the model server silently truncate the text, and an attack at its end
// would go unseen.
const (
	bytesPerToken = 3
	// maxPieceBytes cuts long runs (base64 blobs, URLs without spaces) so that one piece never
	// fills a window by itself.
	maxPieceBytes = 8 * bytesPerToken
	// specialTokens is what the model adds around every window ([CLS] … [SEP]).
	specialTokens   = 2
	minWindowTokens = 16
)

type piece struct{ start, end, cost int }

func pieces(text string) []piece {
	var ps []piece
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += n
		case isWordRune(r):
			j := i + n
			for j < len(text) && j-i < maxPieceBytes {
				r2, n2 := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r2) || j+n2-i > maxPieceBytes {
					break
				}
				j += n2
			}
			ps = append(ps, piece{i, j, (j - i + bytesPerToken - 1) / bytesPerToken})
			i = j
		default:
			ps = append(ps, piece{i, i + n, 1})
			i += n
		}
	}
	return ps
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// EstimateTokens is the pessimistic token count used for windowing.
func EstimateTokens(text string) int {
	n := 0
	for _, p := range pieces(text) {
		n += p.cost
	}
	return n
}

// Windows cuts text into substrings of at most maxTokens estimated tokens (the model's context,
// special tokens included), neighbours sharing about overlap tokens. A text that fits, or
// maxTokens 0, gives the text itself.
func Windows(text string, maxTokens, overlap int) []string {
	spans := windowSpans(text, maxTokens, overlap)
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s[0]:s[1]]
	}
	return out
}

// windowSpans gives the windows as byte ranges [start, end).
func windowSpans(text string, maxTokens, overlap int) [][2]int {
	if maxTokens <= 0 {
		return [][2]int{{0, len(text)}}
	}
	budget := max(maxTokens-specialTokens, maxPieceBytes/bytesPerToken)
	ps := pieces(text)
	total := 0
	for _, p := range ps {
		total += p.cost
	}
	if total <= budget {
		return [][2]int{{0, len(text)}}
	}
	var out [][2]int
	for i := 0; i < len(ps); {
		j, cost := i, 0
		for j < len(ps) && cost+ps[j].cost <= budget {
			cost += ps[j].cost
			j++
		}
		out = append(out, [2]int{ps[i].start, ps[j-1].end})
		if j == len(ps) {
			break
		}
		k, shared := j, 0
		for k-1 > i && shared+ps[k-1].cost <= overlap {
			shared += ps[k-1].cost
			k--
		}
		i = k
	}
	return out
}
