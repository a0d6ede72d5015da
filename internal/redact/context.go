package redact

// ctxIndex holds the context words one boost call looks for (a recognizer's own words and the
// policy's words for its type), indexed by first byte, so that the bytes around a match are
// read once instead of once per word with bytes.Index (the person pass alone made ~20 such
// calls per name). It finds exactly what containsJoined finds for each word:
// TestContextIndexMatchesContainsJoined keeps the two equal.
type ctxIndex struct {
	n       int           // words in all; 0: boost has nothing to look for
	empty   bool          // an empty word: found wherever before or after is not empty
	byFirst [256][]string // the other words by first byte
	spaced  []string      // words holding a space, which may also straddle the match
}

func newCtxIndex(lists ...[]string) *ctxIndex {
	x := &ctxIndex{}
	for _, words := range lists {
		for _, w := range words {
			x.n++
			if w == "" {
				x.empty = true
				continue
			}
			x.byFirst[w[0]] = append(x.byFirst[w[0]], w)
			for k := 0; k < len(w); k++ {
				if w[k] == ' ' {
					x.spaced = append(x.spaced, w)
					break
				}
			}
		}
	}
	return x
}

// foundIn reports whether some word occurs in b at the start of a word (containsWordStart:
// after a byte that is no word byte, at b's start, or anywhere for a word that starts with a
// non-word byte).
func (x *ctxIndex) foundIn(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if x.empty {
		return true
	}
	prevWord := false // isWordByte(b[k-1])
	for k := 0; k < len(b); k++ {
		c := b[k]
		// every word in byFirst[c] starts with c: inside a word (a word byte after a word
		// byte) none of them is at a word start, so the bucket is not read
		if cw := isWordByte(c); prevWord && cw {
			continue
		} else {
			prevWord = cw
		}
		for _, w := range x.byFirst[c] {
			if len(w) <= len(b)-k && (len(w) < 2 || b[k+1] == w[1]) && string(b[k:k+len(w)]) == w {
				return true
			}
		}
	}
	return false
}

// found reports whether some word occurs in before + " " + after as containsJoined reads it.
func (x *ctxIndex) found(before, after []byte) bool {
	if x.foundIn(before) || x.foundIn(after) {
		return true
	}
	for _, w := range x.spaced {
		for k := 0; k < len(w); k++ {
			if w[k] == ' ' && len(before) >= k && string(before[len(before)-k:]) == w[:k] &&
				len(after) >= len(w)-k-1 && string(after[:len(w)-k-1]) == w[k+1:] {
				return true
			}
		}
	}
	return false
}

// indexContext builds the context index of every recognizer and of the person pass; run once
// r.ctxWords is final.
func (r *Redactor) indexContext() {
	for _, rec := range append(append([]*recognizer(nil), r.recs...), r.deny...) {
		rec.ctxIdx = newCtxIndex(rec.context, r.ctxWords[rec.typ])
	}
	r.personCtx = newCtxIndex(personContext, r.ctxWords[TypePerson])
}

// boostIdx is boost with the words of x: the same clamps, the same result.
func (r *Redactor) boostIdx(score float64, x *ctxIndex, lower []byte, start, end int) float64 {
	if x.n == 0 {
		return score
	}
	lo, hi := max(0, start-r.cfg.ContextWindow), min(len(lower), end+r.cfg.ContextWindow/2)
	if lo >= hi {
		return score
	}
	if x.found(lower[lo:min(start, len(lower))], lower[min(end, len(lower)):hi]) {
		return min(1, score+r.cfg.ContextBoost)
	}
	return score
}
