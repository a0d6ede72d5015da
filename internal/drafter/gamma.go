package drafter

import (
	"math"
	"time"
)

// gammaCtl picks the draft length per round from what the session measured: the per-token
// acceptance α (the maximum-likelihood estimate under the usual geometric model: a round that
// drafted γ and had k accepted saw k acceptances and, if k < γ, one rejection), the cost of a
// verification round (link RTT plus the target pass) and the cost of drafting one token. It
// maximises expected tokens per second, E(γ)/(round + γ·draft) with E(γ) = (1−α^(γ+1))/(1−α).
type gammaCtl struct {
	min, max int

	accepted, rejected float64 // decayed counts
	round, perToken    time.Duration
}

// decay forgets old rounds, so γ follows a session whose text changes character.
const decay = 0.9

func newGammaCtl(lo, hi int) *gammaCtl {
	// Optimistic prior (α = 0.8): a session starts by trying to draft.
	return &gammaCtl{min: lo, max: hi, accepted: 4, rejected: 1}
}

func (g *gammaCtl) alpha() float64 { return g.accepted / (g.accepted + g.rejected) }

// observe records one round: γ drafted, k accepted, how long the verification round and the
// drafting took.
func (g *gammaCtl) observe(gamma, k int, round, drafting time.Duration) {
	g.accepted = g.accepted*decay + float64(k)
	if k < gamma {
		g.rejected = g.rejected*decay + 1
	} else {
		g.rejected *= decay
	}
	g.round = ewma(g.round, round)
	if gamma > 0 {
		g.perToken = ewma(g.perToken, drafting/time.Duration(gamma))
	}
}

func ewma(old, x time.Duration) time.Duration {
	if old == 0 {
		return x
	}
	return (old*7 + x*3) / 10
}

// next is the γ for the coming round.
func (g *gammaCtl) next() int {
	if g.min == g.max || g.round == 0 {
		return g.max
	}
	best, bestRate := g.min, -1.0
	for gamma := g.min; gamma <= g.max; gamma++ {
		if rate := g.rate(gamma); rate > bestRate {
			best, bestRate = gamma, rate
		}
	}
	return best
}

// rate is the expected tokens per nanosecond of drafting with gamma.
func (g *gammaCtl) rate(gamma int) float64 {
	a := math.Min(g.alpha(), 0.999)
	return expectedTokens(a, gamma) / float64(g.round+time.Duration(gamma)*g.perToken)
}

// expectedTokens is the expected number of tokens one round yields (accepted + the target's
// own), for per-token acceptance a and draft length gamma.
func expectedTokens(a float64, gamma int) float64 {
	if a >= 1 {
		return float64(gamma + 1)
	}
	return (1 - math.Pow(a, float64(gamma+1))) / (1 - a)
}
