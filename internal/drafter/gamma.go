package drafter

import (
	"math"
	"time"
)

// gammaCtl picks the draft length per round from what the session measured: the acceptance at
// each draft position, the cost of a verification round (link RTT plus the target pass) and the
// cost of drafting one token. It maximises expected tokens per second, E(γ)/(round + γ·draft).
//
// E(γ) = 1 + Σ_{i=1..γ} Π_{j≤i} a_j, where a_j is the probability that the token at position j is
// accepted given the one before it was: a round that drafted γ and had k accepted tried positions
// 1…min(k+1, γ) and accepted 1…k. Under the usual geometric model every a_j is the same α and E
// is (1−α^(γ+1))/(1−α); real drafters are not geometric (late positions fail more), so each
// position keeps its own decayed counts, pulled towards the overall α where it has few.
type gammaCtl struct {
	min, max int

	accepted, rejected float64 // decayed counts over all positions (the overall α)
	tried, acc         []float64
	round, perToken    time.Duration
}

// decay forgets old rounds, so γ follows a session whose text changes character.
const decay = 0.9

// priorWeight is how many pseudo-observations of the overall α each position starts with.
const priorWeight = 2

func newGammaCtl(lo, hi int) *gammaCtl {
	// Optimistic prior (α = 0.8): a session starts by trying to draft.
	return &gammaCtl{min: lo, max: hi, accepted: 4, rejected: 1, tried: make([]float64, hi+1), acc: make([]float64, hi+1)}
}

// clone copies the controller (per request, from what earlier requests learned).
func (g *gammaCtl) clone() *gammaCtl {
	c := *g
	c.tried = append([]float64(nil), g.tried...)
	c.acc = append([]float64(nil), g.acc...)
	return &c
}

func (g *gammaCtl) alpha() float64 { return g.accepted / (g.accepted + g.rejected) }

// position is the estimated acceptance at draft position j (1-based) given j−1 was accepted.
func (g *gammaCtl) position(j int) float64 {
	a := g.alpha()
	if j >= len(g.tried) {
		return a
	}
	return (g.acc[j] + priorWeight*a) / (g.tried[j] + priorWeight)
}

// observe records one round: γ drafted, k accepted, how long the verification round and the
// drafting took.
func (g *gammaCtl) observe(gamma, k int, round, drafting time.Duration) {
	g.accepted = g.accepted*decay + float64(k)
	if k < gamma {
		g.rejected = g.rejected*decay + 1
	} else {
		g.rejected *= decay
	}
	for j := 1; j < len(g.tried); j++ {
		g.tried[j] *= decay
		g.acc[j] *= decay
		if j <= gamma && j <= k+1 {
			g.tried[j]++
			if j <= k {
				g.acc[j]++
			}
		}
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
	return g.expected(gamma) / float64(g.round+time.Duration(gamma)*g.perToken)
}

// expected is E(γ) from the per-position estimates.
func (g *gammaCtl) expected(gamma int) float64 {
	e, p := 1.0, 1.0
	for j := 1; j <= gamma; j++ {
		p *= math.Min(g.position(j), 0.999)
		e += p
	}
	return e
}

// expectedTokens is the expected number of tokens one round yields (accepted + the target's
// own) under the geometric model, for per-token acceptance a and draft length gamma.
func expectedTokens(a float64, gamma int) float64 {
	if a >= 1 {
		return float64(gamma + 1)
	}
	return (1 - math.Pow(a, float64(gamma+1))) / (1 - a)
}
