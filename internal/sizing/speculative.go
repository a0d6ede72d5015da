package sizing

import "math"

// TokensPerPass is the expected number of tokens one target pass yields when γ drafted tokens are
// each accepted with probability α, independently, until the first rejection, plus the target's
// own next token: (1−α^(γ+1))/(1−α). At α = 1 every draft is accepted: γ+1.
func TokensPerPass(alpha float64, gamma int) float64 {
	if alpha >= 1 {
		return float64(gamma + 1)
	}
	return (1 - math.Pow(alpha, float64(gamma+1))) / (1 - alpha)
}

// verifyCostRoofline estimates c, the cost of a verify pass of γ+1 tokens per sequence over a
// decode pass of one, for a replica running batch sequences: each pass takes the longer of
// reading the weights and the batch's KV cache from HBM, or computing 2P FLOPs per token at the
// sustained FLOP rate. Memory-bound passes cost the same (c ≈ 1); compute-bound ones scale with
// the tokens scored (c ≈ γ+1).
func verifyCostRoofline(m MemoryStep, a Assumptions, batch float64) float64 {
	h := a.Hardware
	bw := h.HBMTBs * 1e12
	mem := (m.WeightsPerGPUBytes + batch*m.ContextTokens*m.KVBytesPerTokenPerGPU) / bw
	perToken := 2 * a.Model.ParamsB * 1e9 / (float64(h.TensorParallel) * h.TFLOPs * 1e12 * h.Efficiency)
	decode := math.Max(mem, batch*perToken)
	verify := math.Max(mem, float64(a.Speculative.Gamma+1)*batch*perToken)
	return verify / decode
}
