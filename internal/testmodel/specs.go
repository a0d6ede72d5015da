package testmodel

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
)

// basicPieces are the single characters every ready-made spec can tokenize without byte fallback.
func basicPieces() []string {
	var ps []string
	for _, r := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" {
		ps = append(ps, string(r))
	}
	ps = append(ps, Space, "\n")
	for _, r := range ".,!?;:'\"-()[]{}/@#&*+=<>_%$" {
		ps = append(ps, string(r))
	}
	return ps
}

// Alphabet is the model that continues a→b→…→z, A→…→Z and 0→…→9 and then stops; every other
// character is followed by </s>. Prompt "a" gives "bcdefghijklmnopqrstuvwxyz".
func Alphabet() Spec {
	s := Spec{Name: "sucursal-alphabet", Pieces: basicPieces(), Successor: map[string]string{}}
	for _, run := range []string{"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"} {
		for i := 0; i < len(run); i++ {
			next := EOS
			if i+1 < len(run) {
				next = run[i+1 : i+2]
			}
			s.Successor[run[i:i+1]] = next
		}
	}
	return s
}

// Sentence is a word-level model: a prompt that ends in first answers " w1 w2 …" one word-piece at
// a time, then </s>. Any other ending gives an empty answer. Both "first" and "▁first" are pieces,
// so the trigger works whether or not first follows a space.
func Sentence(first string, words ...string) Spec {
	first = strings.ReplaceAll(first, " ", Space)
	s := Spec{Name: "sucursal-sentence", Pieces: basicPieces(), Successor: map[string]string{}}
	segs := make([]string, len(words))
	for i, w := range words {
		segs[i] = Space + strings.ReplaceAll(w, " ", Space)
	}
	triggers := []string{first}
	if !strings.HasPrefix(first, Space) {
		triggers = append(triggers, Space+first)
	}
	s.Pieces = append(s.Pieces, triggers...)
	chain := uniqueChain(segs, triggers)
	s.Pieces = append(s.Pieces, chain...)
	link(s.Successor, chain)
	for _, t := range triggers {
		s.Successor[t] = headOr(chain, EOS)
	}
	return s
}

// FixedOutputTemplate is the Modelfile TEMPLATE to use with FixedOutput(marker, …): the prompt,
// then the marker, so the last token is never one of the answer's own pieces.
func FixedOutputTemplate(marker string) string { return "{{ .Prompt }}" + marker }

// FixedOutput is a model whose greedy answer is always out, provided the prompt ends with marker
// (use FixedOutputTemplate). It stands in for guard models: FixedOutput("\n[verdict]", "safe"),
// FixedOutput("\n[verdict]", "unsafe\nS2"). Every piece except the answer's own leads into the
// answer, so the marker only has to keep the prompt from ending inside it.
func FixedOutput(marker, out string) Spec {
	s := Spec{Name: "sucursal-fixed", Pieces: basicPieces(), Successor: map[string]string{}}
	marker = strings.ReplaceAll(marker, " ", Space)
	if marker != "" {
		s.Pieces = append(s.Pieces, marker)
	}
	chain := uniqueChain(segments(strings.ReplaceAll(out, " ", Space)), nil)
	s.Pieces = append(s.Pieces, chain...)
	head := headOr(chain, EOS)
	for _, tok := range s.vocab().tokens[firstPiece:] {
		if !slices.Contains(chain, tok) {
			s.Successor[tok] = head
		}
	}
	link(s.Successor, chain)
	return s
}

// Perturbed returns a copy of base whose successor differs on round(fraction × n) of base's n
// successor entries, chosen deterministically from seed, and the sorted list of pieces that differ.
// A changed entry points to another piece (to </s> only if the vocabulary has no other).
// A drafter built from it agrees with base everywhere else: a known acceptance rate.
func Perturbed(base Spec, fraction float64, seed int64) (Spec, []string) {
	s := base.Clone()
	keys := sortedKeys(base.Successor)
	k := int(math.Round(min(max(fraction, 0), 1) * float64(len(keys))))
	rng := rand.New(rand.NewPCG(uint64(seed), 0x7e57))
	candidates := base.vocab().tokens[firstPiece:]
	var changed []string
	for _, i := range rng.Perm(len(keys))[:k] {
		from := keys[i]
		others := slices.DeleteFunc(slices.Clone(candidates), func(p string) bool { return p == base.Successor[from] })
		to := EOS // only when the vocabulary has no other piece to go to
		if len(others) > 0 {
			to = others[rng.IntN(len(others))]
		}
		if to == base.Successor[from] {
			continue // base already ends here and there is nothing else: cannot differ
		}
		s.Successor[from] = to
		changed = append(changed, from)
	}
	slices.Sort(changed)
	s.Name = base.Name + "-perturbed"
	return s, changed
}

// WithPieces returns a model with a different vocabulary (so a different tokenizer fingerprint) that
// still emits base's pieces with base's text behaviour: a new piece is followed by what base emits
// after the last of base's tokens for the same text. For text-mode drafting tests.
func (s Spec) WithPieces(extra ...string) Spec {
	out := s.Clone()
	out.Pieces = append(out.Pieces, extra...)
	old := s.vocab()
	for _, tok := range out.vocab().tokens[firstPiece:] {
		if _, ok := old.index[tok]; ok {
			continue
		}
		base := s.Tokenize(strings.ReplaceAll(tok, Space, " "))
		next := EOS
		if n, ok := s.Successor[base[len(base)-1]]; ok {
			next = n
		}
		out.Successor[tok] = next
	}
	return out
}

// segments cuts text into runs of letters and digits and single other characters.
func segments(text string) []string {
	var segs []string
	start := -1
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if start >= 0 && !word {
			segs = append(segs, text[start:i])
			start = -1
		}
		switch {
		case word && start < 0:
			start = i
		case !word:
			segs = append(segs, string(r))
		}
	}
	if start >= 0 {
		segs = append(segs, text[start:])
	}
	return segs
}

// uniqueChain joins a segment onto the previous one until every piece of the chain is distinct
// (and distinct from avoid): a successor table cannot send the same piece to two places.
func uniqueChain(segs, avoid []string) []string {
	var chain []string
	seen := map[string]bool{}
	for _, a := range avoid {
		seen[a] = true
	}
	for _, seg := range segs {
		for seen[seg] && len(chain) > 0 {
			last := chain[len(chain)-1]
			chain = chain[:len(chain)-1]
			delete(seen, last)
			seg = last + seg
		}
		for seen[seg] {
			seg += Space // only reachable when the first segment collides with avoid
		}
		chain = append(chain, seg)
		seen[seg] = true
	}
	return chain
}

func link(succ map[string]string, chain []string) {
	for i, p := range chain {
		next := EOS
		if i+1 < len(chain) {
			next = chain[i+1]
		}
		succ[p] = next
	}
}

func headOr(chain []string, def string) string {
	if len(chain) == 0 {
		return def
	}
	return chain[0]
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
