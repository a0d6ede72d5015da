package testmodel

// Agreement reports, for each of the first n tokens target emits greedily after prompt, whether
// this model, given the same context, would have proposed that token. It is the per-position
// acceptance a drafter built from s gets against target in token mode (same vocabulary), which
// tests of speculative decoding can compare with what the verifier measured. The slice ends where
// target's answer ends; the final </s> counts as a position.
func (s Spec) Agreement(target Spec, prompt string, n int) []bool {
	tv, dv := target.vocab(), s.vocab()
	ids := append([]int{bosID}, tv.tokenize(prompt)...)
	last := ids[len(ids)-1]
	var out []bool
	for range n {
		next := target.successorID(tv, last)
		proposed := eosID
		if id, ok := dv.index[tv.tokens[last]]; ok {
			proposed = s.successorID(dv, id)
		}
		out = append(out, dv.tokens[proposed] == tv.tokens[next])
		if next == eosID {
			break
		}
		last = next
	}
	return out
}
