package testmodel

import (
	"math"
	"math/rand/v2"
)

// Shape of every model: one block, 64-wide heads, a small feed-forward layer. Only the embedding
// width grows with the vocabulary.
const (
	headDim    = 64
	blockCount = 1
	ffnLength  = 64
	// scratchDims are written by the transformer block and ignored by the output matrix, so the
	// block runs real attention and FFN without ever changing which token wins.
	scratchDims = 2
	blockWeight = 0.01
	rmsEps      = 1e-5
	ropeBase    = 10000
	weightsSeed = 0x5ec0
)

type tensor struct {
	name string
	ne   []uint64 // ne[0] is the contiguous dimension, as in GGUF and ggml
	data []float32
}

type dims struct {
	vocab, embd, heads, ffn int
}

func (s Spec) dims(v vocab) dims {
	used := 1 + len(v.tokens) - firstPiece // dimension 0 is shared by <unk>, <s>, </s> and bytes
	embd := (used + scratchDims + headDim - 1) / headDim * headDim
	return dims{vocab: len(v.tokens), embd: embd, heads: embd / headDim, ffn: ffnLength}
}

// dimOf is the one-hot embedding dimension of token id.
func dimOf(id int) int {
	if id < firstPiece {
		return 0
	}
	return 1 + id - firstPiece
}

func (s Spec) tensors(v vocab) []tensor {
	d := s.dims(v)
	rng := rand.New(rand.NewPCG(weightsSeed, uint64(d.vocab)))
	small := func(n int) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = float32((rng.Float64()*2 - 1) * blockWeight)
		}
		return out
	}
	ones := func(n int) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = 1
		}
		return out
	}
	// toScratch keeps only the rows of an [in, embd] matrix that write scratch dimensions.
	toScratch := func(in int) []float32 {
		w := small(in * d.embd)
		for row := 0; row < d.embd-scratchDims; row++ {
			clear(w[row*in : (row+1)*in])
		}
		return w
	}
	ts := []tensor{
		{"token_embd.weight", []uint64{uint64(d.embd), uint64(d.vocab)}, s.embedding(v, d)},
		{"output_norm.weight", []uint64{uint64(d.embd)}, ones(d.embd)},
		{"output.weight", []uint64{uint64(d.embd), uint64(d.vocab)}, s.output(v, d)},
	}
	e, f := uint64(d.embd), uint64(d.ffn)
	for range blockCount {
		ts = append(ts,
			tensor{"blk.0.attn_norm.weight", []uint64{e}, ones(d.embd)},
			tensor{"blk.0.attn_q.weight", []uint64{e, e}, small(d.embd * d.embd)},
			tensor{"blk.0.attn_k.weight", []uint64{e, e}, small(d.embd * d.embd)},
			tensor{"blk.0.attn_v.weight", []uint64{e, e}, small(d.embd * d.embd)},
			tensor{"blk.0.attn_output.weight", []uint64{e, e}, toScratch(d.embd)},
			tensor{"blk.0.ffn_norm.weight", []uint64{e}, ones(d.embd)},
			tensor{"blk.0.ffn_gate.weight", []uint64{e, f}, small(d.embd * d.ffn)},
			tensor{"blk.0.ffn_up.weight", []uint64{e, f}, small(d.embd * d.ffn)},
			tensor{"blk.0.ffn_down.weight", []uint64{f, e}, toScratch(d.ffn)},
		)
	}
	return ts
}

func (s Spec) embedding(v vocab, d dims) []float32 {
	w := make([]float32, d.vocab*d.embd)
	for id := range d.vocab {
		w[id*d.embd+dimOf(id)] = 1
	}
	return w
}

// output makes logits = OutputScale for the successor of the last token, a deterministic value in
// [0, OutputScale/2) for every other piece and </s>, and -OutputScale for <unk>, <s> and bytes, so
// they are never sampled. The final RMS norm turns the one-hot 1 into about sqrt(embd).
func (s Spec) output(v vocab, d dims) []float32 {
	scale := float64(s.outputScale()) / math.Sqrt(float64(d.embd))
	rng := rand.New(rand.NewPCG(weightsSeed+1, uint64(d.vocab)))
	w := make([]float32, d.vocab*d.embd)
	used := 1 + d.vocab - firstPiece
	succ := make([]int, used)
	succ[0] = eosID
	for id := firstPiece; id < d.vocab; id++ {
		succ[dimOf(id)] = s.successorID(v, id)
	}
	for tok := range d.vocab {
		row := w[tok*d.embd : (tok+1)*d.embd]
		for dim := range used {
			switch {
			case succ[dim] == tok:
				row[dim] = float32(scale)
			case tok == eosID || tok >= firstPiece:
				row[dim] = float32(scale * 0.5 * rng.Float64())
			default:
				row[dim] = float32(-scale)
			}
		}
	}
	return w
}
