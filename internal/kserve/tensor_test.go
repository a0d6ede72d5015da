package kserve

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestTensorValues(t *testing.T) {
	tensor := func(dt Datatype, shape []int, data string) Tensor {
		return Tensor{Name: "t", Shape: shape, Datatype: dt, Data: json.RawMessage(data)}
	}
	for _, tc := range []struct {
		name string
		t    Tensor
		read func(Tensor) (any, error)
		want any // nil: an ErrBadResponse
	}{
		{"flat floats", tensor(FP32, []int{1, 3}, "[0.5, -1, 2e3]"), floats, []float64{0.5, -1, 2000}},
		{"nested as the shape", tensor(FP64, []int{2, 2}, "[[1,2],[3,4]]"), floats, []float64{1, 2, 3, 4}},
		{"nested and flat mixed", tensor(FP32, []int{1, 2}, "[[1],2]"), floats, []float64{1, 2}},
		{"integers read as floats", tensor(Int64, []int{2}, "[1,2]"), floats, []float64{1, 2}},
		{"integers", tensor(Int64, []int{1, 2, 2}, "[0,4,5,10]"), ints, []int64{0, 4, 5, 10}},
		{"strings", tensor(Bytes, []int{1}, `["hola"]`), strs, []string{"hola"}},
		{"empty tensor", tensor(FP32, []int{0, 2}, "[]"), floats, []float64{}},
		{"deeper than the rank", tensor(FP32, []int{2}, "[[1],[2]]"), floats, nil},
		{"far deeper than the rank", tensor(FP32, []int{1, 2}, "[[[[0]]],1]"), floats, nil},
		{"more values than the shape", tensor(FP32, []int{1, 2}, "[0,1,2]"), floats, nil},
		{"fewer values than the shape", tensor(Int64, []int{2, 2}, "[0,1,2]"), ints, nil},
		{"negative dimension", tensor(FP32, []int{-1, 2}, "[0,1]"), floats, nil},
		{"huge shape", tensor(FP32, []int{1 << 30, 1 << 30, 1 << 30}, "[0]"), floats, nil},
		{"data not an array", tensor(FP32, []int{2}, `"0,1"`), floats, nil},
		{"no data", tensor(FP32, []int{2}, ""), floats, nil},
		{"strings in a float tensor", tensor(FP32, []int{1}, `["1"]`), floats, nil},
		{"fractions in an integer tensor", tensor(Int64, []int{1}, "[1.5]"), ints, nil},
		{"floats are not integers", tensor(FP32, []int{1}, "[1]"), ints, nil},
		{"strings are not numbers", tensor(Bytes, []int{1}, `["1"]`), floats, nil},
		{"numbers are not strings", tensor(FP32, []int{1}, "[1]"), strs, nil},
		{"unknown datatype", tensor("SECRET", []int{1}, "[1]"), floats, nil},
	} {
		got, err := tc.read(tc.t)
		if tc.want == nil {
			if !errors.Is(err, ErrBadResponse) {
				t.Errorf("%s: %v, %v; want ErrBadResponse", tc.name, got, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

func floats(t Tensor) (any, error) { return t.Float64s() }
func ints(t Tensor) (any, error)   { return t.Int64s() }
func strs(t Tensor) (any, error)   { return t.Strings() }

// FuzzInferResponse: the client's reading of an answer never panics; what it accepts has as many
// values as its shape says; errors are ErrBadResponse and never quote the answer.
func FuzzInferResponse(f *testing.F) {
	f.Add([]byte(`{"model_name":"m","outputs":[{"name":"logits","shape":[1,2,7],"datatype":"FP32","data":[0,9,0,0,0,0,0,0,0,9,0,0,0,0]},{"name":"offsets","shape":[1,2,2],"datatype":"INT64","data":[0,4,5,10]}]}`))
	f.Add([]byte(`{"outputs":[{"name":"logits","shape":[1,2],"datatype":"FP32","data":[[0.5,-1.5]]}]}`))
	f.Add([]byte(`{"outputs":[{"name":"s","shape":[1],"datatype":"BYTES","data":["SECRET"]}]}`))
	f.Add([]byte(`{"outputs":[{"name":"SECRET","shape":[2],"datatype":"SECRET","data":[[["SECRET"]]]}]}`))
	f.Add([]byte(`{"outputs":`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		quoted := func(err error) bool {
			return strings.Contains(string(raw), "SECRET") && strings.Contains(err.Error(), "SECRET")
		}
		var r InferResponse
		if err := decode(raw, &r); err != nil {
			if !errors.Is(err, ErrBadResponse) || quoted(err) {
				t.Fatalf("bad error: %v", err)
			}
			return
		}
		for _, o := range r.Outputs {
			for _, read := range []func(Tensor) (int, error){
				func(o Tensor) (int, error) { v, err := o.Float64s(); return len(v), err },
				func(o Tensor) (int, error) { v, err := o.Int64s(); return len(v), err },
				func(o Tensor) (int, error) { v, err := o.Strings(); return len(v), err },
			} {
				n, err := read(o)
				if err != nil {
					if !errors.Is(err, ErrBadResponse) || quoted(err) {
						t.Fatalf("bad error: %v", err)
					}
					continue
				}
				if n != o.size() {
					t.Fatalf("%d values for shape %v", n, o.Shape)
				}
			}
		}
	})
}
