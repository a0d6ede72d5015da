package kserve

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Datatype is a tensor element type as the protocol names it.
type Datatype string

const (
	Bool   Datatype = "BOOL"
	Uint8  Datatype = "UINT8"
	Uint16 Datatype = "UINT16"
	Uint32 Datatype = "UINT32"
	Uint64 Datatype = "UINT64"
	Int8   Datatype = "INT8"
	Int16  Datatype = "INT16"
	Int32  Datatype = "INT32"
	Int64  Datatype = "INT64"
	FP16   Datatype = "FP16"
	FP32   Datatype = "FP32"
	FP64   Datatype = "FP64"
	BF16   Datatype = "BF16" // not in the protocol's list, but servers send it
	Bytes  Datatype = "BYTES"
)

// IsInteger reports whether d is a signed or unsigned integer type.
func (d Datatype) IsInteger() bool {
	switch d {
	case Uint8, Uint16, Uint32, Uint64, Int8, Int16, Int32, Int64:
		return true
	}
	return false
}

// IsFloat reports whether d is a floating-point type.
func (d Datatype) IsFloat() bool {
	switch d {
	case FP16, FP32, FP64, BF16:
		return true
	}
	return false
}

// Tensor is an input or output tensor. Data holds the elements in row-major order, as a flat
// JSON array or nested arrays (the protocol allows both); read it with Float64s, Int64s or
// Strings, which check it against Shape and Datatype.
type Tensor struct {
	Name     string          `json:"name"`
	Shape    []int           `json:"shape"`
	Datatype Datatype        `json:"datatype"`
	Data     json.RawMessage `json:"data"`
}

// BytesTensor is a one-dimensional BYTES tensor of strings: the usual input of a model with its
// tokenizer built in.
func BytesTensor(name string, values ...string) Tensor {
	data, _ := json.Marshal(values) // []string always marshals
	return Tensor{Name: name, Shape: []int{len(values)}, Datatype: Bytes, Data: data}
}

// Float64s returns the elements of a numeric tensor as float64.
func (t Tensor) Float64s() ([]float64, error) {
	if !t.Datatype.IsFloat() && !t.Datatype.IsInteger() {
		return nil, fmt.Errorf("%w: a tensor is not numeric", ErrBadResponse)
	}
	return elements[float64](t)
}

// Int64s returns the elements of an integer tensor.
func (t Tensor) Int64s() ([]int64, error) {
	if !t.Datatype.IsInteger() {
		return nil, fmt.Errorf("%w: a tensor is not of integers", ErrBadResponse)
	}
	return elements[int64](t)
}

// Strings returns the elements of a BYTES tensor.
func (t Tensor) Strings() ([]string, error) {
	if t.Datatype != Bytes {
		return nil, fmt.Errorf("%w: a tensor is not BYTES", ErrBadResponse)
	}
	return elements[string](t)
}

// size is the element count Shape promises, or -1 for a negative dimension or an absurd count.
func (t Tensor) size() int {
	n := 1
	for _, d := range t.Shape {
		if d < 0 || (d > 0 && n > (1<<40)/d) {
			return -1
		}
		n *= d
	}
	return n
}

func elements[T float64 | int64 | string](t Tensor) ([]T, error) {
	n := t.size()
	if n < 0 {
		return nil, fmt.Errorf("%w: tensor shape %v", ErrBadResponse, t.Shape)
	}
	var out []T
	if err := json.Unmarshal(t.Data, &out); err != nil { // not flat: walk the nesting
		out = nil
		if out, err = nested(t.Data, max(len(t.Shape), 1), out); err != nil {
			return nil, err
		}
	}
	if len(out) != n {
		return nil, fmt.Errorf("%w: %d values for shape %v", ErrBadResponse, len(out), t.Shape)
	}
	return out, nil
}

// nested reads an array whose items are elements or arrays, at most levels deep: a tensor of
// rank r nests at most r arrays.
func nested[T float64 | int64 | string](raw json.RawMessage, levels int, out []T) ([]T, error) {
	if levels == 0 {
		return nil, fmt.Errorf("%w: data nested deeper than the shape", ErrBadResponse)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%w: tensor data is not an array of its datatype", ErrBadResponse)
	}
	for _, it := range items {
		if bytes.HasPrefix(bytes.TrimLeft(it, " \t\r\n"), []byte("[")) {
			var err error
			if out, err = nested(it, levels-1, out); err != nil {
				return nil, err
			}
			continue
		}
		var x T
		if err := json.Unmarshal(it, &x); err != nil {
			return nil, fmt.Errorf("%w: tensor data is not an array of its datatype", ErrBadResponse)
		}
		out = append(out, x)
	}
	return out, nil
}

// RequestedOutput names an output the server should return; without any, it returns them all.
type RequestedOutput struct {
	Name string `json:"name"`
}

// InferRequest is the body of POST /v2/models/{model}[/versions/{v}]/infer.
type InferRequest struct {
	ID      string            `json:"id,omitempty"`
	Inputs  []Tensor          `json:"inputs"`
	Outputs []RequestedOutput `json:"outputs,omitempty"`
}

// InferResponse is the server's answer to an InferRequest.
type InferResponse struct {
	ModelName    string   `json:"model_name"`
	ModelVersion string   `json:"model_version,omitempty"`
	ID           string   `json:"id,omitempty"`
	Outputs      []Tensor `json:"outputs"`
}

// Output returns the output called name.
func (r *InferResponse) Output(name string) (Tensor, bool) {
	for _, o := range r.Outputs {
		if o.Name == name {
			return o, true
		}
	}
	return Tensor{}, false
}

// TensorMetadata describes a model input or output; -1 in Shape is a variable dimension.
type TensorMetadata struct {
	Name     string   `json:"name"`
	Datatype Datatype `json:"datatype"`
	Shape    []int    `json:"shape"`
}

// ModelMetadata is the answer of GET /v2/models/{model}[/versions/{v}].
type ModelMetadata struct {
	Name     string           `json:"name"`
	Versions []string         `json:"versions,omitempty"`
	Platform string           `json:"platform"`
	Inputs   []TensorMetadata `json:"inputs"`
	Outputs  []TensorMetadata `json:"outputs"`
}
