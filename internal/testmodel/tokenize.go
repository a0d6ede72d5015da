package testmodel

import (
	"container/heap"
	"strings"
)

// Tokenize returns the pieces the model sees for text (without the leading <s>), exactly as
// llama.cpp's SentencePiece tokenizer makes them with add_space_prefix=false and special-token
// parsing on: spaces become "▁", adjacent pieces are merged highest score first (leftmost on ties),
// and characters outside the vocabulary fall back to byte tokens such as "<0xC3>".
func (s Spec) Tokenize(text string) []string {
	v := s.vocab()
	ids := v.tokenize(text)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = v.tokens[id]
	}
	return out
}

// Greedy returns the text the model produces for a prompt (the already templated text the runtime
// tokenizes) under greedy decoding: at most n tokens, stopping at </s>. It is computed from the Spec
// alone, so tests can compare a real server's answer to it.
func (s Spec) Greedy(prompt string, n int) string {
	v := s.vocab()
	ids := append([]int{bosID}, v.tokenize(prompt)...)
	last := ids[len(ids)-1]
	var b strings.Builder
	for range n {
		last = s.successorID(v, last)
		if last == eosID {
			break
		}
		b.WriteString(v.piece(last))
	}
	return b.String()
}

// GreedyPieces is Greedy as the list of emitted pieces (token texts), for tests that count tokens.
func (s Spec) GreedyPieces(prompt string, n int) []string {
	v := s.vocab()
	ids := append([]int{bosID}, v.tokenize(prompt)...)
	last := ids[len(ids)-1]
	var out []string
	for range n {
		last = s.successorID(v, last)
		if last == eosID {
			break
		}
		out = append(out, v.tokens[last])
	}
	return out
}

// piece is the text llama.cpp detokenizes token id to.
func (v vocab) piece(id int) string {
	switch v.types[id] {
	case typeByte:
		return string([]byte{byte(id - firstByte)})
	case typeNormal:
		return strings.ReplaceAll(v.tokens[id], Space, " ")
	default:
		return v.tokens[id]
	}
}

func (v vocab) tokenize(text string) []int {
	var out []int
	for _, f := range splitSpecial(text) {
		if f.special {
			out = append(out, v.index[f.text])
			continue
		}
		out = append(out, v.spm(strings.ReplaceAll(f.text, " ", Space))...)
	}
	return out
}

type fragment struct {
	text    string
	special bool
}

// splitSpecial cuts out the control and unknown tokens, longest first, as llama.cpp does with
// parse_special=true (Ollama's runner always sets it).
func splitSpecial(text string) []fragment {
	frags := []fragment{{text: text}}
	for _, sp := range []string{Unk, EOS, BOS} {
		var next []fragment
		for _, f := range frags {
			if f.special {
				next = append(next, f)
				continue
			}
			rest := f.text
			for {
				i := strings.Index(rest, sp)
				if i < 0 {
					break
				}
				if i > 0 {
					next = append(next, fragment{text: rest[:i]})
				}
				next = append(next, fragment{text: sp, special: true})
				rest = rest[i+len(sp):]
			}
			if rest != "" {
				next = append(next, fragment{text: rest})
			}
		}
		frags = next
	}
	return frags
}

type symbol struct {
	start, n   int
	prev, next int
}

type bigram struct {
	left, right int
	score       float32
	size        int
}

// bigramQueue pops the highest score first and, on ties, the leftmost pair, like llama.cpp's
// llm_bigram_spm::comparator.
type bigramQueue []bigram

func (q bigramQueue) Len() int { return len(q) }
func (q bigramQueue) Less(i, j int) bool {
	if q[i].score != q[j].score {
		return q[i].score > q[j].score
	}
	return q[i].left < q[j].left
}
func (q bigramQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *bigramQueue) Push(x any)   { *q = append(*q, x.(bigram)) }
func (q *bigramQueue) Pop() any {
	old := *q
	b := old[len(old)-1]
	*q = old[:len(old)-1]
	return b
}

// spm is a port of llama.cpp's llm_tokenizer_spm_session::tokenize.
func (v vocab) spm(text string) []int {
	if text == "" {
		return nil
	}
	var syms []symbol
	for off := 0; off < len(text); {
		n := utf8SeqLen(text[off])
		n = min(n, len(text)-off)
		next := len(syms) + 1
		if off+n == len(text) {
			next = -1
		}
		syms = append(syms, symbol{start: off, n: n, prev: len(syms) - 1, next: next})
		off += n
	}
	var q bigramQueue
	revMerge := map[string][2]int{}
	tryAdd := func(left, right int) {
		if left == -1 || right == -1 {
			return
		}
		t := text[syms[left].start : syms[left].start+syms[left].n+syms[right].n]
		id, ok := v.index[t]
		if !ok {
			return
		}
		heap.Push(&q, bigram{left: left, right: right, score: v.scores[id], size: len(t)})
		revMerge[t] = [2]int{left, right}
	}
	for i := 1; i < len(syms); i++ {
		tryAdd(i-1, i)
	}
	for q.Len() > 0 {
		b := heap.Pop(&q).(bigram)
		l, r := &syms[b.left], &syms[b.right]
		if l.n == 0 || r.n == 0 || l.n+r.n != b.size {
			continue
		}
		l.n += r.n
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = b.left
		}
		tryAdd(l.prev, b.left)
		tryAdd(b.left, l.next)
	}
	var out []int
	var resegment func(sym symbol)
	resegment = func(sym symbol) {
		t := text[sym.start : sym.start+sym.n]
		if id, ok := v.index[t]; ok {
			out = append(out, id)
			return
		}
		if p, ok := revMerge[t]; ok {
			resegment(syms[p[0]])
			resegment(syms[p[1]])
			return
		}
		for j := 0; j < len(t); j++ {
			out = append(out, firstByte+int(t[j]))
		}
	}
	for i := 0; i != -1; i = syms[i].next {
		resegment(syms[i])
	}
	return out
}

// utf8SeqLen mirrors llama.cpp's unicode_len_utf8: the length the lead byte's high nibble announces
// (1 for ASCII and stray continuation bytes), without validating the rest.
func utf8SeqLen(b byte) int {
	return [16]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4}[b>>4]
}

// Vocab returns the token texts by id, as written to tokenizer.ggml.tokens.
func (s Spec) Vocab() []string { return s.vocab().tokens }

// TokenIDs is Tokenize as token ids (without the leading <s>), comparable to the ids Ollama returns
// in the `context` of a non-raw /api/generate.
func (s Spec) TokenIDs(text string) []int { return s.vocab().tokenize(text) }
