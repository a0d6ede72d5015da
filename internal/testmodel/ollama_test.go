package testmodel_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/testmodel"
)

const marker = "\n[verdict]"

type model struct {
	name     string
	spec     testmodel.Spec
	template string
	prompts  []string
}

func models() []model {
	soft := testmodel.Alphabet()
	soft.OutputScale = 3
	drafter, _ := testmodel.Perturbed(testmodel.Alphabet(), 0.5, 1)
	return []model{
		{"alphabet", testmodel.Alphabet(), testmodel.PromptTemplate, []string{"a", "what comes after q", "Hello wor", "7", "end.", "café"}},
		{"words", testmodel.Alphabet().WithPieces("▁hello", "hello", "bc", "abcd", "xyz"), testmodel.PromptTemplate,
			[]string{"say hello", "hello", "abcd", "abc", "x xyz", "bc"}},
		{"sentence", testmodel.Sentence("Hello", "the", "cat", "sat", "on", "the", "mat."), testmodel.PromptTemplate,
			[]string{"Say Hello", "Hello", "xHello", "Hello there"}},
		{"guard-safe", testmodel.FixedOutput(marker, "safe"), testmodel.FixedOutputTemplate(marker), []string{"how do I open an account?", "a"}},
		{"guard-unsafe", testmodel.FixedOutput(marker, "unsafe\nS2"), testmodel.FixedOutputTemplate(marker), []string{"rob the bank", "safe"}},
		{"soft", soft, testmodel.PromptTemplate, []string{"a", "m"}},
		{"drafter", drafter, testmodel.PromptTemplate, []string{"a", "k", "A", "0"}},
	}
}

// rendered is what the template turns a single user message into.
func rendered(m model, prompt string) string {
	if m.template == testmodel.FixedOutputTemplate(marker) {
		return prompt + marker
	}
	return prompt
}

var greedy = map[string]any{"temperature": 0}

func TestOllamaMatchesGreedy(t *testing.T) {
	s := ollamatest.Start(t)
	ms := models()
	for _, m := range ms {
		s.CreateModel(t, m.name, m.spec, m.template)
	}
	c := s.Client()
	ctx := context.Background()
	for _, m := range ms {
		for _, prompt := range m.prompts {
			text := rendered(m, prompt)
			want := m.spec.Greedy(text, 1<<20)
			t.Run(m.name+"/"+prompt, func(t *testing.T) {
				gen, ids := generate(t, c, m.name, prompt)
				if gen != want {
					t.Errorf("/api/generate = %q, Greedy = %q", gen, want)
				}
				// Ollama builds context by tokenizing prompt+answer again (not from the sampled ids), so
				// it shows whether llama.cpp's tokenizer and ours agree on the whole text.
				if wantIDs := m.spec.TokenIDs(text + want); !slices.Equal(ids, wantIDs) {
					t.Errorf("context = %v, want %v (tokens %q)", ids, wantIDs, m.spec.Tokenize(text+want))
				}
				if got := chat(t, c, m.name, prompt); got != want {
					t.Errorf("/api/chat = %q, Greedy = %q", got, want)
				}
				for _, stream := range []bool{false, true} {
					if got := openAIChat(t, s.URL, m.name, prompt, stream); got != want {
						t.Errorf("/v1/chat/completions stream=%v = %q, Greedy = %q", stream, got, want)
					}
				}
			})
		}
	}
	t.Run("multi-turn chat concatenates the turns", func(t *testing.T) {
		// The legacy {{ .Prompt }} template renders user and assistant turns back to back and drops
		// the system message, so the turns below render as "Hello": the sentence model's trigger.
		msgs := []api.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "Hel"},
			{Role: "assistant", Content: "l"}, {Role: "user", Content: "o"}}
		spec := ms[slices.IndexFunc(ms, func(m model) bool { return m.name == "sentence" })].spec
		want := spec.Greedy("Hello", 1<<20)
		if want == "" || spec.Greedy("o", 1<<20) != "" {
			t.Fatal("the sentence model no longer tells the renderings apart")
		}
		var got strings.Builder
		err := c.Chat(ctx, &api.ChatRequest{Model: "sentence", Messages: msgs, Options: greedy}, func(r api.ChatResponse) error {
			got.WriteString(r.Message.Content)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want {
			t.Errorf("chat = %q, Greedy(\"Hello\") = %q", got.String(), want)
		}
	})
	t.Run("show reports the vocabulary behind the fingerprint", func(t *testing.T) {
		// /api/show (verbose) is how a runtime client can compute the fingerprint of what it runs.
		for _, m := range ms[:2] {
			info, err := c.Show(ctx, &api.ShowRequest{Model: m.name, Verbose: true})
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := info.ModelInfo["tokenizer.ggml.tokens"].([]any)
			tokens := make([]string, len(raw))
			for i, tok := range raw {
				tokens[i], _ = tok.(string)
			}
			if !slices.Equal(tokens, m.spec.Vocab()) {
				t.Errorf("%s: /api/show lists %d tokens, spec has %d (or they differ)", m.name, len(tokens), len(m.spec.Vocab()))
			}
			bos, _ := info.ModelInfo["tokenizer.ggml.bos_token_id"].(float64)
			eos, _ := info.ModelInfo["tokenizer.ggml.eos_token_id"].(float64)
			if model := info.ModelInfo["tokenizer.ggml.model"]; model != "llama" || bos != 1 || eos != 2 {
				t.Errorf("%s: model %v bos %v eos %v", m.name, model, bos, eos)
			}
		}
	})
	t.Run("sharp model samples like greedy", func(t *testing.T) {
		// Default options sample (temperature 0.8, top_p 0.9); the sharp model leaves one candidate.
		for _, prompt := range []string{"a", "j", "Q"} {
			var got strings.Builder
			err := c.Generate(ctx, &api.GenerateRequest{Model: "alphabet", Prompt: prompt}, func(r api.GenerateResponse) error {
				got.WriteString(r.Response)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if want := testmodel.Alphabet().Greedy(prompt, 1<<20); got.String() != want {
				t.Errorf("sampled %q, Greedy %q", got.String(), want)
			}
		}
	})
	t.Run("logprobs", func(t *testing.T) {
		for _, name := range []string{"alphabet", "soft"} {
			spec := ms[slices.IndexFunc(ms, func(m model) bool { return m.name == name })].spec
			checkLogprobs(t, c, name, spec)
		}
	})
}

func checkLogprobs(t *testing.T, c *api.Client, name string, spec testmodel.Spec) {
	t.Helper()
	const prompt = "m"
	var lps []api.Logprob
	stream := false
	err := c.Chat(context.Background(), &api.ChatRequest{
		Model: name, Messages: []api.Message{{Role: "user", Content: prompt}}, Stream: &stream,
		Options: greedy, Logprobs: true, TopLogprobs: 3,
	}, func(r api.ChatResponse) error {
		lps = append(lps, r.Logprobs...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pieces := spec.GreedyPieces(prompt, 1<<20)
	if len(lps) != len(pieces) {
		t.Fatalf("%s: %d logprobs for %d tokens", name, len(lps), len(pieces))
	}
	prev := spec.Tokenize(prompt)[0]
	for i, lp := range lps {
		want := testmodel.ExpectedLogprobs(spec, prev)
		if lp.Token != pieces[i] || len(lp.TopLogprobs) != 3 || lp.TopLogprobs[0].Token != lp.Token {
			t.Fatalf("%s: token %d = %q (top %+v), want %q first", name, i, lp.Token, lp.TopLogprobs, pieces[i])
		}
		for _, alt := range lp.TopLogprobs {
			if math.Abs(alt.Logprob-want[alt.Token]) > 0.05 {
				t.Errorf("%s: token %d: logprob(%q) = %.4f, predicted %.4f", name, i, alt.Token, alt.Logprob, want[alt.Token])
			}
		}
		prev = pieces[i]
	}
	t.Logf("%s: first token %q logprob %.4f, runner-up %q %.4f", name, lps[0].Token, lps[0].Logprob,
		lps[0].TopLogprobs[1].Token, lps[0].TopLogprobs[1].Logprob)
}

func generate(t *testing.T, c *api.Client, model, prompt string) (string, []int) {
	t.Helper()
	var text strings.Builder
	var ids []int
	err := c.Generate(context.Background(), &api.GenerateRequest{Model: model, Prompt: prompt, Options: greedy},
		func(r api.GenerateResponse) error {
			text.WriteString(r.Response)
			if r.Done {
				ids = r.Context
			}
			return nil
		})
	if err != nil {
		t.Fatalf("/api/generate: %v", err)
	}
	return text.String(), ids
}

func chat(t *testing.T, c *api.Client, model, prompt string) string {
	t.Helper()
	var text strings.Builder
	err := c.Chat(context.Background(), &api.ChatRequest{
		Model: model, Messages: []api.Message{{Role: "user", Content: prompt}}, Options: greedy,
	}, func(r api.ChatResponse) error {
		text.WriteString(r.Message.Content)
		return nil
	})
	if err != nil {
		t.Fatalf("/api/chat: %v", err)
	}
	return text.String()
}

func openAIChat(t *testing.T, url, model, prompt string, stream bool) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{
		"model": model, "stream": stream, "temperature": 0,
		"messages": []map[string]string{{"role": "user", "content": prompt}},
	})
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("/v1/chat/completions: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/v1/chat/completions: %s", resp.Status)
	}
	type msg struct {
		Content string `json:"content"`
	}
	var out struct {
		Choices []struct {
			Message msg `json:"message"`
			Delta   msg `json:"delta"`
		} `json:"choices"`
	}
	if !stream {
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) != 1 {
			t.Fatalf("decode: %v", err)
		}
		return out.Choices[0].Message.Content
	}
	var text strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		if err := json.Unmarshal([]byte(data), &out); err != nil {
			t.Fatalf("decode chunk: %v", err)
		}
		for _, ch := range out.Choices {
			text.WriteString(ch.Delta.Content)
		}
	}
	return text.String()
}
