package kserveguard

import (
	"fmt"
	"math"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/kserve"
)

// maxClasses bounds the class count: a guard has two or three.
const maxClasses = 64

// ClassProbabilities reads one row of class scores from an infer response and returns class
// probabilities (softmax of logits, unless probabilities says they already are). output names the
// tensor; empty takes the only one. Anything unexpected is guard.ErrMalformedOutput, and no error
// quotes the response.
func ClassProbabilities(r *kserve.InferResponse, output string, probabilities bool) ([]float64, error) {
	i := -1
	for j, o := range r.Outputs {
		if o.Name == output || (output == "" && len(r.Outputs) == 1) {
			i = j
			break
		}
	}
	if i < 0 {
		return nil, fmt.Errorf("%w: %d outputs, none is the logits tensor", guard.ErrMalformedOutput, len(r.Outputs))
	}
	o := r.Outputs[i]
	if !o.Datatype.IsFloat() {
		return nil, fmt.Errorf("%w: output datatype is not floating point", guard.ErrMalformedOutput)
	}
	n := 1
	for _, d := range o.Shape {
		if d < 1 || d > maxClasses {
			return nil, fmt.Errorf("%w: output shape %v", guard.ErrMalformedOutput, o.Shape)
		}
		n *= d
	}
	// One text in, so one row out: [classes] or [1, classes].
	if len(o.Shape) == 0 || len(o.Shape) > 2 || (len(o.Shape) == 2 && o.Shape[0] != 1) || n < 2 || n > maxClasses {
		return nil, fmt.Errorf("%w: output shape %v, want one row of classes", guard.ErrMalformedOutput, o.Shape)
	}
	data, err := o.Float64s()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", guard.ErrMalformedOutput, err)
	}
	for _, x := range data {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%w: non-finite score", guard.ErrMalformedOutput)
		}
	}
	if probabilities {
		sum := 0.0
		for _, x := range data {
			if x < 0 || x > 1 {
				return nil, fmt.Errorf("%w: probability out of [0,1]", guard.ErrMalformedOutput)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-3 {
			return nil, fmt.Errorf("%w: probabilities sum to %.4f", guard.ErrMalformedOutput, sum)
		}
		return data, nil
	}
	return Softmax(data), nil
}

// Softmax is numerically stable: it subtracts the largest logit first.
func Softmax(logits []float64) []float64 {
	m := math.Inf(-1)
	for _, x := range logits {
		m = math.Max(m, x)
	}
	out := make([]float64, len(logits))
	sum := 0.0
	for i, x := range logits {
		out[i] = math.Exp(x - m)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}
