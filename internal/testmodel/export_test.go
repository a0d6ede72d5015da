package testmodel

import "math"

// ExpectedLogprobs predicts the runtime's log-probabilities of every token after prev, from the
// written output matrix and the one-hot embedding alone (the block only touches scratch dimensions,
// which shift the final RMS norm by well under a percent).
func ExpectedLogprobs(s Spec, prev string) map[string]float64 {
	v := s.vocab()
	d := s.dims(v)
	out := s.output(v, d)
	col := dimOf(v.index[prev])
	logits := make([]float64, d.vocab)
	maxL := math.Inf(-1)
	for tok := range d.vocab {
		logits[tok] = float64(out[tok*d.embd+col]) * math.Sqrt(float64(d.embd))
		maxL = max(maxL, logits[tok])
	}
	var sum float64
	for _, l := range logits {
		sum += math.Exp(l - maxL)
	}
	lp := make(map[string]float64, d.vocab)
	for tok, l := range logits {
		lp[v.piece(tok)] = l - maxL - math.Log(sum)
	}
	return lp
}
