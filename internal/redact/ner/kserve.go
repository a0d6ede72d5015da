package ner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/kserve"
	"github.com/sucursal/sucursal/internal/redact"
)

// KServe calls a token-classification model on OpenVINO Model Server through the KServe v2 REST
// protocol. The served pipeline takes the raw text (a BYTES input, tokenised server-side by
// OpenVINO tokenizers) and returns per-token logits [1,T,L] and the tokens' character offsets
// [1,T,2]; Labels name the L logits (BIO: "O", "B-PER", "I-PER", …).
type KServe struct {
	URL       string // base, e.g. http://127.0.0.1:9000
	Model     string
	Labels    []string
	Input     string // name of the text input; default "text"
	Logits    string // name of the logits output; default "logits"
	Offsets   string // name of the offsets output; default "offsets"
	MinScore  float64
	HTTP      *http.Client
	MaxAnswer int64 // bytes read from a response; default 16 MiB
}

// ErrBadResponse means the server's answer does not have the shape the model is expected to give.
var ErrBadResponse = errors.New("ner: unexpected KServe v2 response")

func (k *KServe) names() (in, logits, offsets string) {
	in, logits, offsets = k.Input, k.Logits, k.Offsets
	if in == "" {
		in = "text"
	}
	if logits == "" {
		logits = "logits"
	}
	if offsets == "" {
		offsets = "offsets"
	}
	return
}

// Entities implements redact.NER.
func (k *KServe) Entities(ctx context.Context, text string) ([]redact.Span, error) {
	in, logitsName, offsetsName := k.names()
	base, err := url.Parse(k.URL)
	if err != nil {
		return nil, fmt.Errorf("ner: kserve url: %w", err)
	}
	r, err := kserve.NewClient(base, k.HTTP, k.MaxAnswer).Infer(ctx, k.Model, "", &kserve.InferRequest{
		Inputs:  []kserve.Tensor{kserve.BytesTensor(in, text)},
		Outputs: []kserve.RequestedOutput{{Name: logitsName}, {Name: offsetsName}},
	})
	if errors.Is(err, kserve.ErrBadResponse) {
		return nil, fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	if err != nil {
		return nil, fmt.Errorf("ner: %w", err)
	}
	return DecodeKServe(r, text, k.Labels, logitsName, offsetsName, k.MinScore)
}

// DecodeKServe turns a v2 inference response into spans of text: the arg-max label of each
// token, BIO runs merged, the score of a span the mean probability of its tokens' labels.
func DecodeKServe(r *kserve.InferResponse, text string, labels []string, logitsName, offsetsName string, minScore float64) ([]redact.Span, error) {
	logits, okL := r.Output(logitsName)
	offsets, okO := r.Output(offsetsName)
	if !okL || !okO {
		return nil, fmt.Errorf("%w: outputs %q and %q are required", ErrBadResponse, logitsName, offsetsName)
	}
	if len(logits.Shape) != 3 || logits.Shape[0] != 1 || logits.Shape[2] != len(labels) || len(labels) == 0 {
		return nil, fmt.Errorf("%w: logits shape %v, want [1,T,%d]", ErrBadResponse, logits.Shape, len(labels))
	}
	T, L := logits.Shape[1], logits.Shape[2]
	if len(offsets.Shape) != 3 || offsets.Shape[0] != 1 || offsets.Shape[1] != T || offsets.Shape[2] != 2 {
		return nil, fmt.Errorf("%w: offsets shape %v, want [1,%d,2]", ErrBadResponse, offsets.Shape, T)
	}
	if T < 0 || T > 1<<16 || L > 1<<10 {
		return nil, fmt.Errorf("%w: tensor too large", ErrBadResponse)
	}
	lv, err := logits.Float64s()
	if err != nil {
		return nil, fmt.Errorf("%w: logits data does not match shape", ErrBadResponse)
	}
	ov, err := offsets.Int64s()
	if err != nil {
		return nil, fmt.Errorf("%w: offsets data does not match shape", ErrBadResponse)
	}
	byteAt := charToByte(text)
	var spans []redact.Span
	var cur *redact.Span
	var curScores float64
	var curN int
	flush := func() {
		if cur != nil && cur.Start < cur.End {
			cur.Score = curScores / float64(curN)
			cur.Text = text[cur.Start:cur.End]
			if cur.Score >= minScore {
				spans = append(spans, *cur)
			}
		}
		cur, curScores, curN = nil, 0, 0
	}
	for t := 0; t < T; t++ {
		s, e := ov[2*t], ov[2*t+1]
		if s == e { // special tokens ([CLS], [SEP], padding)
			continue
		}
		if s < 0 || e < s || e >= int64(len(byteAt)) {
			return nil, fmt.Errorf("%w: token %d offsets [%d,%d) outside the text", ErrBadResponse, t, s, e)
		}
		best, p := argmaxSoftmax(lv[t*L : (t+1)*L])
		prefix, typ, _ := strings.Cut(labels[best], "-")
		etype := normaliseType(typ)
		bs, be := byteAt[s], byteAt[e]
		switch {
		case labels[best] == "O" || etype == "":
			flush()
		case prefix == "I" && cur != nil && cur.Type == etype:
			cur.End = be
			curScores += p
			curN++
		default: // B-, or an I- that does not continue the current span
			flush()
			cur = &redact.Span{Start: bs, End: be, Type: etype, Source: "ner"}
			curScores, curN = p, 1
		}
	}
	flush()
	return spans, nil
}

// charToByte maps a code-point index (what Hugging Face tokenizers report) to a byte offset;
// the extra last entry is len(text).
func charToByte(text string) []int {
	m := make([]int, 0, utf8.RuneCountInString(text)+1)
	for i := range text {
		m = append(m, i)
	}
	return append(m, len(text))
}

func argmaxSoftmax(x []float64) (int, float64) {
	best := 0
	for i := range x {
		if x[i] > x[best] {
			best = i
		}
	}
	sum := 0.0
	for i := range x {
		sum += math.Exp(x[i] - x[best])
	}
	return best, 1 / sum
}
