package vllmverifier

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/testmodel"
)

// validAnswer returns a body the fake would send for prompt (with prompt_logprobs).
func validAnswer(t testing.TB, f *fakeVLLM, prompt []int32) []byte {
	t.Helper()
	rec := &recorder{header: http.Header{}}
	body, _ := json.Marshal(map[string]any{"model": "target", "prompt": prompt, "max_tokens": 1, "temperature": 0, "logprobs": 1,
		"prompt_logprobs": 1, "return_tokens_as_token_ids": true, "return_token_ids": true})
	req, _ := http.NewRequest(http.MethodPost, "/v1/completions", strings.NewReader(string(body)))
	f.complete(rec, req)
	return []byte(rec.body.String())
}

type recorder struct {
	header http.Header
	status int
	body   strings.Builder
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(s int)           { r.status = s }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }

// FuzzParseVLLMCompletion: no answer makes the parser panic, and whatever it accepts is in the
// vocabulary and the shape of the prompt.
func FuzzParseVLLMCompletion(f *testing.F) {
	spec := testmodel.Sentence("hello", "the", "quick", "brown", "fox")
	fake := newFakeModel(f, spec)
	prompt := append([]int32{testmodel.BOSID}, specIDs(spec, spec.Tokenize("hello the quick"))...)
	f.Add(validAnswer(f, fake, prompt), 2)
	f.Add([]byte(`{"choices":[{"finish_reason":"stop","text":"","prompt_logprobs":[null,{"5":{"logprob":-1,"rank":1}}]}]}`), 1)
	f.Add([]byte(`{"choices":[{"finish_reason":"length","logprobs":{"tokens":["token_id:300"]}}]}`), len(prompt))
	size := len(spec.Vocab())
	f.Fuzz(func(t *testing.T, body []byte, start int) {
		if start < 0 || start > len(prompt) {
			return
		}
		ans, err := parseCompletion(body, prompt, start, size)
		if err != nil {
			if !errors.Is(err, ErrAnswer) {
				t.Fatalf("an error that is not ErrAnswer: %v", err)
			}
			return
		}
		if len(ans.top) != len(prompt)-start {
			t.Fatalf("%d top-1s for %d draft positions", len(ans.top), len(prompt)-start)
		}
		for _, id := range append(slices.Clone(ans.top), ans.gen) {
			if id < -1 || int(id) >= size {
				t.Fatalf("id %d accepted", id)
			}
		}
		if !ans.stopped && ans.gen < 0 {
			t.Fatal("neither stopped nor a generated token")
		}
	})
}

// BenchmarkParseVLLMCompletion is the gateway's own cost of one vLLM round as the context grows:
// a prompt_logprobs answer carries an entry per context token. The baseline, measured in the same
// run, is the answer to an empty draft (no prompt_logprobs asked).
func BenchmarkParseVLLMCompletion(b *testing.B) {
	spec := testmodel.Alphabet()
	fake := newFakeModel(b, spec)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, ctxLen := range []int{1024, 8192, 32768} {
		prompt := []int32{testmodel.BOSID}
		for len(prompt) < ctxLen {
			prompt = append(prompt, int32(3+256+rng.IntN(len(spec.Vocab())-3-256)))
		}
		const gamma = 4
		withPLP := validAnswer(b, fake, prompt)
		var m map[string]any
		_ = json.Unmarshal(withPLP, &m)
		delete(m["choices"].([]any)[0].(map[string]any), "prompt_logprobs")
		without, _ := json.Marshal(m)
		for _, tc := range []struct {
			name  string
			body  []byte
			start int
		}{{"baseline-empty-draft", without, len(prompt)}, {"prompt-logprobs", withPLP, len(prompt) - gamma}} {
			b.Run(fmt.Sprintf("ctx=%d/%s", ctxLen, tc.name), func(b *testing.B) {
				b.SetBytes(int64(len(tc.body)))
				for b.Loop() {
					if _, err := parseCompletion(tc.body, prompt, tc.start, len(spec.Vocab())); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
