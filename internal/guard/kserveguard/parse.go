package kserveguard

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/sucursal/sucursal/internal/guard"
)

type inferResponse struct {
	Outputs []struct {
		Name     string          `json:"name"`
		Shape    []int           `json:"shape"`
		Datatype string          `json:"datatype"`
		Data     json.RawMessage `json:"data"`
	} `json:"outputs"`
}

// maxClasses bounds the class count: a guard has two or three.
const maxClasses = 64

// ParseResponse reads one row of class scores from a KServe v2 infer response and returns class
// probabilities (softmax of logits, unless probabilities says they already are). output names the
// tensor; empty takes the only one. Anything unexpected is guard.ErrMalformedOutput.
func ParseResponse(b []byte, output string, probabilities bool) ([]float64, error) {
	var r inferResponse
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%w: infer response of %d bytes is not KServe v2 JSON", guard.ErrMalformedOutput, len(b))
	}
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
	data, err := flatten(o.Data, 0, nil)
	if err != nil {
		return nil, err
	}
	switch o.Datatype {
	case "FP32", "FP64", "FP16", "BF16":
	default:
		return nil, fmt.Errorf("%w: output datatype %q is not floating point", guard.ErrMalformedOutput, o.Datatype)
	}
	n := 1
	for _, d := range o.Shape {
		if d < 1 || d > maxClasses {
			return nil, fmt.Errorf("%w: output shape %v", guard.ErrMalformedOutput, o.Shape)
		}
		n *= d
	}
	// One text in, so one row out: [classes] or [1, classes].
	if len(o.Shape) == 0 || len(o.Shape) > 2 || (len(o.Shape) == 2 && o.Shape[0] != 1) || n < 2 || n > maxClasses || len(data) != n {
		return nil, fmt.Errorf("%w: output shape %v with %d values, want one row of classes", guard.ErrMalformedOutput, o.Shape, len(data))
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

// flatten reads data as KServe allows it: a flat array in row-major order, or nested arrays.
func flatten(raw json.RawMessage, depth int, out []float64) ([]float64, error) {
	if depth > 2 {
		return nil, fmt.Errorf("%w: data nested deeper than the shape", guard.ErrMalformedOutput)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%w: output data is not an array", guard.ErrMalformedOutput)
	}
	for _, it := range items {
		if len(out) > maxClasses {
			return nil, fmt.Errorf("%w: more than %d values", guard.ErrMalformedOutput, maxClasses)
		}
		var x float64
		if err := json.Unmarshal(it, &x); err == nil {
			out = append(out, x)
			continue
		}
		var err error
		if out, err = flatten(it, depth+1, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}
