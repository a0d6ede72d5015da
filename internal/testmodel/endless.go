package testmodel

import (
	"slices"
	"strings"
)

// Endless is a model that never stops: a prompt ending with marker (use FixedOutputTemplate)
// answers prefix, then loop again and again until the caller's token cap (finish_reason
// "length"). loop is one piece (spell a space "▁"), its own successor. It stands in for a model
// that rambles: Endless("", `{"entities":[{"text":"`, "ab") stays inside a JSON string for as long
// as a grammar lets it, so a JSON-schema-constrained answer is cut, never finished.
func Endless(marker, prefix, loop string) Spec {
	s := Spec{Name: "sucursal-endless", Pieces: basicPieces(), Successor: map[string]string{}}
	marker = strings.ReplaceAll(marker, " ", Space)
	if marker != "" {
		s.Pieces = append(s.Pieces, marker)
	}
	loop = strings.ReplaceAll(loop, " ", Space)
	chain := uniqueChain(segments(strings.ReplaceAll(prefix, " ", Space)), []string{loop})
	s.Pieces = append(s.Pieces, chain...)
	s.Pieces = append(s.Pieces, loop)
	head := headOr(chain, loop)
	for _, tok := range s.vocab().tokens[firstPiece:] {
		if tok != loop && !slices.Contains(chain, tok) {
			s.Successor[tok] = head
		}
	}
	link(s.Successor, chain)
	if len(chain) > 0 {
		s.Successor[chain[len(chain)-1]] = loop
	}
	s.Successor[loop] = loop
	return s
}
