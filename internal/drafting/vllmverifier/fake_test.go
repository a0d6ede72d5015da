package vllmverifier

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/sucursal/sucursal/internal/testmodel"
	"github.com/sucursal/sucursal/internal/vocab"
)

// fakeVLLM serves /tokenize and /v1/completions the way vLLM's OpenAI-compatible server does
// (shapes from vllm/entrypoints/serve/tokenize/protocol.py, openai/completion/serving.py and
// v1/engine/logprobs.py), answering as the generated model spec would: its greedy successor of
// each token is the top-1 at the next position. The chat template concatenates the messages'
// contents after <s>. It records every request so tests can check what the verifier sent.
type fakeVLLM struct {
	t      testing.TB
	spec   testmodel.Spec
	tokens []string
	next   []int
	text   []string
	srv    *httptest.Server

	// oldRelease leaves out token_ids (vLLM before return_token_ids): the generated token is
	// then only named in logprobs.tokens as "token_id:N".
	oldRelease bool
	// dummyPrefix makes /tokenize of a plain prompt prepend a space, like SentencePiece-style
	// Hugging Face tokenizers (Llama 2, Mistral) do.
	dummyPrefix bool
	// maxModelLen, when set, is reported by /tokenize and enforced by /v1/completions.
	maxModelLen int
	// mutate, when set, rewrites a valid answer (decoded as generic JSON) before it is sent;
	// returning a status other than 200 sends that status with raw as the body.
	mutate func(path string, answer map[string]any) (status int, raw []byte)

	mu          sync.Mutex
	chats       int
	tokenized   []string  // texts /tokenize was given as a plain prompt
	completions [][]int32 // prompts of /v1/completions, in order
	notIDs      int       // completions whose prompt was not a token-id list
}

func newFakeVLLM(t testing.TB, spec testmodel.Spec) *fakeVLLM {
	f := newFakeModel(t, spec)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /tokenize", f.tokenize)
	mux.HandleFunc("POST /v1/completions", f.complete)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// newFakeModel is the fake without its HTTP server (for calling its handlers directly).
func newFakeModel(t testing.TB, spec testmodel.Spec) *fakeVLLM {
	f := &fakeVLLM{t: t, spec: spec, tokens: spec.Vocab()}
	for id := range f.tokens {
		f.next = append(f.next, spec.Next(id))
		s, _ := spec.PieceText(id)
		f.text = append(f.text, s)
	}
	return f
}

// specVocab is the target's vocabulary as the gateway would read it from the model's files.
func specVocab(t *testing.T, spec testmodel.Spec) *vocab.Vocab {
	t.Helper()
	tokens := spec.Vocab()
	types := make([]int32, len(tokens))
	for i := range types {
		switch {
		case i == 0:
			types[i] = 2 // unknown
		case i < 3:
			types[i] = 3 // control
		case i < 3+256:
			types[i] = 6 // byte
		default:
			types[i] = 1
		}
	}
	v, err := vocab.New("llama", tokens, types, testmodel.BOSID, testmodel.EOSID)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (f *fakeVLLM) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.chats, f.tokenized, f.completions, f.notIDs = 0, nil, nil, 0
}

func (f *fakeVLLM) send(w http.ResponseWriter, path string, answer any) {
	b, _ := json.Marshal(answer)
	if f.mutate != nil {
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		status, raw := f.mutate(path, m)
		if status != http.StatusOK {
			w.WriteHeader(status)
			_, _ = w.Write(raw)
			return
		}
		if raw != nil {
			b = raw
		} else {
			b, _ = json.Marshal(m)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

func (f *fakeVLLM) tokenize(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model               string `json:"model"`
		Messages            []struct{ Role, Content string }
		Prompt              *string `json:"prompt"`
		AddGenerationPrompt *bool   `json:"add_generation_prompt"`
		AddSpecialTokens    *bool   `json:"add_special_tokens"`
		ReturnTokenStrs     bool    `json:"return_token_strs"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	var ids []int
	f.mu.Lock()
	if req.Prompt != nil {
		f.tokenized = append(f.tokenized, *req.Prompt)
		if req.AddSpecialTokens == nil || *req.AddSpecialTokens {
			ids = append(ids, testmodel.BOSID) // vLLM's default for a plain prompt
		}
		text := *req.Prompt
		if f.dummyPrefix {
			text = " " + text
		}
		ids = append(ids, f.spec.TokenIDs(text)...)
	} else {
		f.chats++
		if req.AddGenerationPrompt != nil && !*req.AddGenerationPrompt {
			f.t.Error("the chat was tokenized without the generation prompt")
		}
		var text strings.Builder
		for _, m := range req.Messages {
			text.WriteString(m.Content)
		}
		ids = append([]int{testmodel.BOSID}, f.spec.TokenIDs(text.String())...)
	}
	f.mu.Unlock()
	maxLen := 2048
	if f.maxModelLen > 0 {
		maxLen = f.maxModelLen
	}
	resp := map[string]any{"count": len(ids), "max_model_len": maxLen, "tokens": ids}
	if req.ReturnTokenStrs {
		strs := make([]string, len(ids))
		for i, id := range ids {
			strs[i] = f.tokens[id]
		}
		resp["token_strs"] = strs
	}
	f.send(w, "/tokenize", resp)
}

type fakeLogprob struct {
	Logprob      float64 `json:"logprob"`
	Rank         int     `json:"rank"`
	DecodedToken string  `json:"decoded_token"`
}

func (f *fakeVLLM) complete(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model          string          `json:"model"`
		Prompt         json.RawMessage `json:"prompt"`
		MaxTokens      int             `json:"max_tokens"`
		Temperature    *float64        `json:"temperature"`
		Logprobs       *int            `json:"logprobs"`
		PromptLogprobs *int            `json:"prompt_logprobs"`
		AsTokenIDs     bool            `json:"return_tokens_as_token_ids"`
		ReturnTokenIDs bool            `json:"return_token_ids"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	var prompt []int32
	if err := json.Unmarshal(req.Prompt, &prompt); err != nil || len(prompt) == 0 {
		f.mu.Lock()
		f.notIDs++
		f.mu.Unlock()
		http.Error(w, `{"error":"this fake only takes token ids"}`, http.StatusBadRequest)
		return
	}
	if f.maxModelLen > 0 && len(prompt)+req.MaxTokens > f.maxModelLen {
		http.Error(w, `{"error":"maximum context length exceeded"}`, http.StatusBadRequest)
		return
	}
	for _, id := range prompt {
		if id < 0 || int(id) >= len(f.tokens) {
			http.Error(w, `{"error":"token id out of vocabulary"}`, http.StatusBadRequest)
			return
		}
	}
	if req.MaxTokens != 1 || req.Temperature == nil || *req.Temperature != 0 || req.Logprobs == nil || !req.AsTokenIDs {
		f.t.Errorf("completion asked with max_tokens %d, temperature %v, logprobs %v, as ids %v", req.MaxTokens, req.Temperature, req.Logprobs, req.AsTokenIDs)
	}
	f.mu.Lock()
	f.completions = append(f.completions, prompt)
	f.mu.Unlock()

	choice := map[string]any{"index": 0}
	if req.PromptLogprobs != nil {
		plp := []any{nil}
		for i := 1; i < len(prompt); i++ {
			top, tok := f.next[prompt[i-1]], int(prompt[i])
			pos := map[string]fakeLogprob{}
			if tok != top {
				pos[fmt.Sprint(tok)] = fakeLogprob{-7.5, 2, f.text[tok]}
			}
			pos[fmt.Sprint(top)] = fakeLogprob{-0.01, 1, f.text[top]}
			plp = append(plp, pos)
		}
		choice["prompt_logprobs"] = plp
	}
	gen := f.next[prompt[len(prompt)-1]]
	if gen == testmodel.EOSID {
		choice["text"], choice["finish_reason"] = "", "stop"
	} else {
		choice["text"], choice["finish_reason"] = f.text[gen], "length"
	}
	choice["logprobs"] = map[string]any{"tokens": []string{fmt.Sprintf("token_id:%d", gen)}, "token_logprobs": []float64{-0.01},
		"text_offset": []int{0}, "top_logprobs": []map[string]float64{{fmt.Sprintf("token_id:%d", gen): -0.01}}}
	if req.ReturnTokenIDs && !f.oldRelease {
		choice["token_ids"] = []int{gen}
	}
	f.send(w, "/v1/completions", map[string]any{"id": "cmpl-1", "object": "text_completion", "model": req.Model,
		"choices": []any{choice}, "usage": map[string]int{"prompt_tokens": len(prompt), "completion_tokens": 1, "total_tokens": len(prompt) + 1}})
}

func (f *fakeVLLM) pass(t *testing.T, spec testmodel.Spec) *Verifier {
	t.Helper()
	p, err := New(Options{URL: f.srv.URL + "/v1", Vocab: specVocab(t, spec)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
