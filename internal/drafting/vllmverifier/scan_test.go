package vllmverifier

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/sucursal/sucursal/internal/testmodel"
)

// FuzzSplitPromptLogprobs: the scanner accepts exactly what encoding/json accepts, and for an
// accepted answer it finds the same prompt_logprobs elements encoding/json decodes.
func FuzzSplitPromptLogprobs(f *testing.F) {
	spec := testmodel.Alphabet()
	fake := newFakeModel(f, spec)
	f.Add(validAnswer(f, fake, []int32{1, 262, 263, 264}))
	for _, s := range []string{`{}`, `{"choices":[{"prompt_logprobs":null}]}`, `{"choices":[{"prompt_logprobs":[null,{"1":{"rank":1}}]},{}]}`,
		`{"a":-0.5e+3,"b":"\u00e9\n","c":[true,false,null]}`, `{"choices":[{"prompt_logprobs":[1,2],"prompt_logprobs":[3]}]}`,
		`[1]`, `{"a":01}`, `{"a":"\x"}`, `{"a":1,}`, ` {"choices" : [ { "prompt_logprobs" : [ null , {} ] } ] } `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		// The scanner alone, on any value.
		s := &jsonScan{b: body}
		err := s.value()
		s.ws()
		if got, want := err == nil && s.i == len(body), json.Valid(body); got != want {
			t.Fatalf("scanner says valid=%v, encoding/json %v", got, want)
		}
		rest, positions, err := splitPromptLogprobs(body)
		if err != nil {
			return
		}
		if !json.Valid(rest) {
			t.Fatal("the remainder is not JSON")
		}
		var ref struct {
			Choices []struct {
				PromptLogprobs []json.RawMessage `json:"prompt_logprobs"`
			} `json:"choices"`
		}
		if json.Unmarshal(body, &ref) != nil || len(ref.Choices) == 0 {
			return // an object whose choices are not a list of objects: nothing to compare
		}
		want := ref.Choices[0].PromptLogprobs
		if len(want) != len(positions) {
			t.Fatalf("%d positions, encoding/json %d", len(positions), len(want))
		}
		for i := range want {
			if !bytes.Equal(want[i], positions[i]) {
				t.Fatalf("position %d differs", i)
			}
		}
	})
}
