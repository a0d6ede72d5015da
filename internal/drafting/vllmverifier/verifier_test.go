package vllmverifier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/drafting"
	"github.com/sucursal/sucursal/internal/testmodel"
	"github.com/sucursal/sucursal/internal/wire"
)

// specIDs maps a spec's greedy pieces to their ids (first id of each token text).
func specIDs(spec testmodel.Spec, pieces []string) []int32 {
	index := map[string]int32{}
	for i, tok := range spec.Vocab() {
		if _, dup := index[tok]; !dup {
			index[tok] = int32(i)
		}
	}
	out := make([]int32, len(pieces))
	for i, p := range pieces {
		out[i] = index[p]
	}
	return out
}

func chatBody(t *testing.T, prompt string, maxTokens int) json.RawMessage {
	t.Helper()
	req := map[string]any{"model": "target", "temperature": 0, "stream": true,
		"messages": []map[string]any{{"role": "user", "content": prompt}}}
	if maxTokens > 0 {
		req["max_tokens"] = maxTokens
	}
	return mustJSON(t, req)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func roundBody(t *testing.T, v wire.Verify) []byte {
	t.Helper()
	return mustJSON(t, v)
}

// TestVLLMPassWalksTheDraft: one pass accepts draft tokens while each is the target's top-1,
// returns the first departure's top-1 as the correction or, all accepted, the generated token as
// the bonus, and stops where the target's next token is end-of-sequence.
func TestVLLMPassWalksTheDraft(t *testing.T) {
	spec := testmodel.Alphabet() // "w" → x y z </s>
	f := newFakeVLLM(t, spec)
	for _, old := range []bool{false, true} {
		f.oldRelease = old
		p := f.pass(t, spec)
		ids := func(s string) []int32 { return specIDs(spec, spec.Tokenize(s)) }
		for _, tc := range []struct {
			draft   []int32
			n       int
			want    string
			stopped bool
		}{
			{nil, 1, "x", false},
			{ids("x"), 2, "xy", false},      // bonus
			{ids("xq"), 3, "xy", false},     // correction at the second token
			{ids("q"), 2, "x", false},       // wrong at once
			{ids("xyz"), 4, "xyz", true},    // all accepted, then </s>
			{ids("xyza"), 5, "xyz", true},   // the departure's top-1 is </s>
			{ids("xyz"), 2, "xy", false},    // at most n tokens: the draft is cut to n-1
			{[]int32{-1, 5}, 3, "x", false}, // an impossible id ends the draft
			{[]int32{ids("x")[0], 1 << 20}, 3, "xy", false},
		} {
			t.Run(fmt.Sprintf("old=%v/%v/n=%d", old, tc.draft, tc.n), func(t *testing.T) {
				st, err := p.Open(context.Background(), "target", []chat.Turn{{Role: "user", Content: "w"}})
				if err != nil {
					t.Fatal(err)
				}
				res, err := p.Pass(context.Background(), st, drafting.Draft{IDs: tc.draft}, tc.n)
				if err != nil {
					t.Fatal(err)
				}
				var got string
				for _, tok := range res.Tokens {
					if s, _ := spec.PieceText(int(tok.ID)); s != tok.Text || tok.ID < 0 {
						t.Fatalf("token %d carries text %q", tok.ID, tok.Text)
					}
					got += tok.Text
				}
				if got != tc.want || res.Stopped != tc.stopped || res.PromptTokens != len(st.PromptIDs) {
					t.Fatalf("got %q stopped=%v prompt=%d; want %q stopped=%v", got, res.Stopped, res.PromptTokens, tc.want, tc.stopped)
				}
			})
		}
	}
}

// TestVLLMDraftingRebuildsTheAnswer runs whole drafting.Service sessions over Verifier against the fake:
// whatever the drafts (right, cut, wrong, random, impossible ids), in token and in text mode, the
// rounds rebuild exactly spec.Greedy and its token count. The fake's records show that every
// completion prompt is token ids, that round k sends the prompt, the ids accepted so far and the
// new draft only, and that nothing but the new draft text is ever tokenized.
func TestVLLMDraftingRebuildsTheAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, prompt string
		spec         testmodel.Spec
	}{
		{"alphabet", "a", testmodel.Alphabet()},
		{"sentence", "say hello", testmodel.Sentence("hello", strings.Fields("the quick brown fox jumps over the lazy dog")...)},
	} {
		f := newFakeVLLM(t, tc.spec)
		p := f.pass(t, tc.spec)
		for _, mode := range []string{wire.DraftModeToken, wire.DraftModeText} {
			for _, maxTokens := range []int{0, 4} {
				for seed := range uint64(12) {
					name := fmt.Sprintf("%s/%s/max=%d/seed=%d", tc.name, mode, maxTokens, seed)
					vllmSession(t, name, f, p, tc.spec, tc.prompt, mode, maxTokens, rand.New(rand.NewPCG(seed, 7)))
				}
			}
		}
	}
}

func vllmSession(t *testing.T, name string, f *fakeVLLM, p *Verifier, spec testmodel.Spec, prompt, mode string, maxTokens int, rng *rand.Rand) {
	t.Helper()
	f.reset()
	limit := 4096
	if maxTokens > 0 {
		limit = maxTokens
	}
	pieces := spec.GreedyPieces(prompt, limit)
	want := strings.Join(pieces, "")
	want = strings.ReplaceAll(want, testmodel.Space, " ")
	if want != spec.Greedy(prompt, limit) || len(pieces) < 3 {
		t.Fatalf("%s: bad test spec", name)
	}
	answerIDs := specIDs(spec, pieces)
	openIDs := append([]int32{testmodel.BOSID}, specIDs(spec, spec.Tokenize(prompt))...)
	fp, _ := p.Fingerprint(context.Background(), "target")

	d, err := drafting.NewService(drafting.Options{Backend: p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := wire.Verify{Chat: chatBody(t, prompt, maxTokens), Mode: mode}
	if mode == wire.DraftModeToken {
		v.Fingerprint = fp
	}
	var out string
	produced := 0
	var sent []drafting.Draft // what each round proposed, for checking the fake's records
	var cuts, before []int    // n-1 and the tokens produced so far, for each round with a pass
	for round := 1; ; round++ {
		if round > 200 {
			t.Fatalf("%s: no end after 200 rounds", name)
		}
		rest := answerIDs[produced:]
		var draft []int32
		switch rng.IntN(5) {
		case 0: // a right prefix
			draft = slices.Clone(rest[:rng.IntN(len(rest)+1)])
		case 1: // right, then wrong
			draft = append(slices.Clone(rest[:rng.IntN(len(rest)+1)]), int32(3+256+rng.IntN(len(spec.Vocab())-3-256)))
		case 2: // random ids, some impossible
			for range rng.IntN(6) {
				draft = append(draft, int32(rng.IntN(len(spec.Vocab())+20))-10)
			}
		case 3: // the whole rest and more
			draft = append(slices.Clone(rest), rest...)
		}
		draft = draft[:min(len(draft), wire.MaxDraftTokens)]
		v.Round, v.Tokens, v.Draft = round, nil, ""
		var edgeText string // the draft as the edge spells it
		if mode == wire.DraftModeToken {
			v.Tokens = draft
			for _, id := range draft {
				s, ok := spec.PieceText(int(id))
				if !ok || id < 3 {
					s = "\x00?" // the edge cannot spell it; the target never accepts it
				}
				edgeText += s
			}
		} else {
			for _, id := range draft {
				if s, ok := spec.PieceText(int(id)); ok && id >= 3+256 {
					edgeText += s
				}
			}
			if rng.IntN(3) == 0 && edgeText != "" { // cut inside a token
				edgeText = edgeText[:rng.IntN(len(edgeText))]
			}
			v.Draft = edgeText
		}
		units := len(v.Tokens)
		if mode == wire.DraftModeText {
			units = utf8.RuneCountInString(v.Draft)
		}
		if n := min(units+1, limit-produced); n > 0 {
			sent = append(sent, drafting.Draft{Text: v.Draft, IDs: v.Tokens})
			cuts, before = append(cuts, n-1), append(before, produced)
		}
		res, cerr := d.Round(context.Background(), roundBody(t, v))
		if cerr != nil {
			t.Fatalf("%s round %d: %v", name, round, cerr)
		}
		check := v
		check.Draft = edgeText
		if _, err := wire.ParseVerifyResult(mustJSON(t, res), check); err != nil {
			t.Fatalf("%s round %d: the edge would refuse the result: %v", name, round, err)
		}
		out += edgeText[:res.Accepted] + res.Next
		produced = res.CompletionTokens
		v.Session, v.Chat, v.Fingerprint = res.Session, nil, ""
		if res.Done {
			if res.CompletionTokens != len(pieces) || res.PromptTokens != len(openIDs) {
				t.Fatalf("%s: usage %d+%d tokens, want %d+%d", name, res.PromptTokens, res.CompletionTokens, len(openIDs), len(pieces))
			}
			break
		}
	}
	if out != want {
		t.Fatalf("%s: rebuilt %q, want %q", name, out, want)
	}

	f.mu.Lock()
	defer f.mu.Unlock()
	if f.notIDs != 0 || f.chats != 1 {
		t.Fatalf("%s: %d prompts were not token ids, the chat was tokenized %d times", name, f.notIDs, f.chats)
	}
	if len(f.completions) != len(sent) {
		t.Fatalf("%s: %d completion calls for %d passes", name, len(f.completions), len(sent))
	}
	// Each round's prompt: the chat's ids, then the answer's ids so far, then the new draft.
	tokenizedAt := 0
	for k, got := range f.completions {
		if len(got) < len(openIDs) || !slices.Equal(got[:len(openIDs)], openIDs) {
			t.Fatalf("%s round %d: the prompt does not start with the chat's ids", name, k+1)
		}
		var wantDraft []int32
		if sent[k].IDs != nil {
			wantDraft = sent[k].IDs
		} else if sent[k].Text != "" {
			if f.tokenized[tokenizedAt] != sent[k].Text {
				t.Fatalf("%s round %d: /tokenize was given something other than the new draft", name, k+1)
			}
			tokenizedAt++
			for _, id := range spec.TokenIDs(sent[k].Text) {
				wantDraft = append(wantDraft, int32(id))
			}
		}
		for i, id := range wantDraft {
			if id < 0 || int(id) >= len(spec.Vocab()) {
				wantDraft = wantDraft[:i]
				break
			}
		}
		wantDraft = wantDraft[:min(len(wantDraft), cuts[k])]
		// Between the chat and the draft: exactly the answer's ids the earlier rounds produced.
		want := slices.Concat(openIDs, answerIDs[:before[k]], wantDraft)
		if !slices.Equal(got, want) {
			t.Fatalf("%s round %d: the prompt is not chat ids + %d accepted ids + the new draft", name, k+1, before[k])
		}
	}
	if tokenizedAt != len(f.tokenized) {
		t.Fatalf("%s: %d texts tokenized for %d text drafts", name, len(f.tokenized), tokenizedAt)
	}
}

// TestVLLMGarbageFailsCleanly: every malformed vLLM answer is an error wrapping ErrAnswer (or
// ErrTokenizer) whose message quotes no text, and drafting.Service turns it into draft_target_failed.
func TestVLLMGarbageFailsCleanly(t *testing.T) {
	spec := testmodel.Sentence("hello", "the", "quick", "brown", "fox")
	const secret = "zebra"
	type edit = func(m map[string]any) (int, []byte)
	choice := func(m map[string]any) map[string]any { return m["choices"].([]any)[0].(map[string]any) }
	plp := func(m map[string]any) []any { return choice(m)["prompt_logprobs"].([]any) }
	for _, tc := range []struct {
		name string
		path string
		edit edit
		want error
	}{
		{"http 500", "/v1/completions", func(m map[string]any) (int, []byte) { return 500, []byte(`{"error":"` + secret + `"}`) }, ErrAnswer},
		{"not JSON", "/v1/completions", func(m map[string]any) (int, []byte) { return 200, []byte(`{"choices":[` + secret) }, ErrAnswer},
		{"no choices", "/v1/completions", func(m map[string]any) (int, []byte) { m["choices"] = []any{}; return 200, nil }, ErrAnswer},
		{"two choices", "/v1/completions", func(m map[string]any) (int, []byte) {
			m["choices"] = append(m["choices"].([]any), choice(m))
			return 200, nil
		}, ErrAnswer},
		{"no prompt_logprobs", "/v1/completions", func(m map[string]any) (int, []byte) { delete(choice(m), "prompt_logprobs"); return 200, nil }, ErrAnswer},
		{"short prompt_logprobs", "/v1/completions", func(m map[string]any) (int, []byte) {
			choice(m)["prompt_logprobs"] = plp(m)[:len(plp(m))-1]
			return 200, nil
		}, ErrAnswer},
		{"shifted prompt_logprobs", "/v1/completions", func(m map[string]any) (int, []byte) {
			p := plp(m)
			choice(m)["prompt_logprobs"] = append([]any{nil}, p[:len(p)-1]...)
			return 200, nil
		}, ErrAnswer},
		{"empty position", "/v1/completions", func(m map[string]any) (int, []byte) {
			plp(m)[len(plp(m))-1] = map[string]any{}
			return 200, nil
		}, ErrAnswer},
		{"top-1 out of range", "/v1/completions", func(m map[string]any) (int, []byte) {
			pos := plp(m)[len(plp(m))-1].(map[string]any)
			for k, e := range pos {
				if e.(map[string]any)["rank"].(float64) == 1 {
					delete(pos, k)
				}
			}
			pos["999999"] = map[string]any{"logprob": -0.1, "rank": 1, "decoded_token": secret}
			return 200, nil
		}, ErrAnswer},
		{"key not an id", "/v1/completions", func(m map[string]any) (int, []byte) {
			plp(m)[len(plp(m))-1].(map[string]any)[secret] = map[string]any{"logprob": -0.1, "rank": 3}
			return 200, nil
		}, ErrAnswer},
		{"no rank-1 entry", "/v1/completions", func(m map[string]any) (int, []byte) {
			for _, e := range plp(m)[len(plp(m))-1].(map[string]any) {
				e.(map[string]any)["rank"] = 2
			}
			return 200, nil
		}, ErrAnswer},
		{"two rank-1 entries", "/v1/completions", func(m map[string]any) (int, []byte) {
			plp(m)[len(plp(m))-1].(map[string]any)["300"] = map[string]any{"logprob": -0.1, "rank": 1}
			return 200, nil
		}, ErrAnswer},
		{"no rank", "/v1/completions", func(m map[string]any) (int, []byte) {
			for _, e := range plp(m)[len(plp(m))-1].(map[string]any) {
				delete(e.(map[string]any), "rank")
			}
			return 200, nil
		}, ErrAnswer},
		{"no finish_reason", "/v1/completions", func(m map[string]any) (int, []byte) { delete(choice(m), "finish_reason"); return 200, nil }, ErrAnswer},
		{"aborted", "/v1/completions", func(m map[string]any) (int, []byte) { choice(m)["finish_reason"] = "abort"; return 200, nil }, ErrAnswer},
		{"stop with text", "/v1/completions", func(m map[string]any) (int, []byte) {
			choice(m)["finish_reason"], choice(m)["text"] = "stop", secret
			return 200, nil
		}, ErrAnswer},
		{"no generated id", "/v1/completions", func(m map[string]any) (int, []byte) {
			delete(choice(m), "token_ids")
			delete(choice(m), "logprobs")
			return 200, nil
		}, ErrAnswer},
		{"generated id out of range", "/v1/completions", func(m map[string]any) (int, []byte) { choice(m)["token_ids"] = []int{1 << 20}; return 200, nil }, ErrAnswer},
		{"two generated", "/v1/completions", func(m map[string]any) (int, []byte) { choice(m)["token_ids"] = []int{300, 301}; return 200, nil }, ErrAnswer},
		{"generated token not an id", "/v1/completions", func(m map[string]any) (int, []byte) {
			delete(choice(m), "token_ids")
			choice(m)["logprobs"] = map[string]any{"tokens": []string{secret}}
			return 200, nil
		}, ErrAnswer},
		{"generated control token", "/v1/completions", func(m map[string]any) (int, []byte) { choice(m)["token_ids"] = []int{0}; return 200, nil }, ErrAnswer},
		{"usage disagrees", "/v1/completions", func(m map[string]any) (int, []byte) {
			m["usage"] = map[string]any{"prompt_tokens": 3}
			return 200, nil
		}, ErrAnswer},
		{"tokenize: no tokens", "/tokenize", func(m map[string]any) (int, []byte) { delete(m, "tokens"); return 200, nil }, ErrAnswer},
		{"tokenize: count disagrees", "/tokenize", func(m map[string]any) (int, []byte) { m["count"] = 1; return 200, nil }, ErrAnswer},
		{"tokenize: id out of range", "/tokenize", func(m map[string]any) (int, []byte) {
			m["tokens"] = []int{1, 1 << 20}
			delete(m, "token_strs")
			delete(m, "count")
			return 200, nil
		}, ErrTokenizer},
		{"tokenize: other pieces on the server", "/tokenize", func(m map[string]any) (int, []byte) {
			strs := m["token_strs"].([]any)
			strs[len(strs)-1] = secret
			return 200, nil
		}, ErrTokenizer},
		{"tokenize: http 404", "/tokenize", func(m map[string]any) (int, []byte) { return 404, []byte(secret) }, ErrAnswer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeVLLM(t, spec)
			f.mutate = func(path string, m map[string]any) (int, []byte) {
				if path != tc.path {
					return 200, nil
				}
				return tc.edit(m)
			}
			p := f.pass(t, spec)
			ctx := context.Background()
			msgs := []chat.Turn{{Role: "user", Content: secret + " hello"}}
			draft := specIDs(spec, spec.GreedyPieces(secret+" hello", 3))
			st, err := p.Open(ctx, "target", msgs)
			if err == nil {
				_, err = p.Pass(ctx, st, drafting.Draft{IDs: draft}, 4)
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "hello") || strings.Contains(err.Error(), "quick") {
				t.Fatalf("the error quotes text: %v", err)
			}
			// Through the drafting service: the round fails as draft_target_failed, and the session is gone.
			d, _ := drafting.NewService(drafting.Options{Backend: p}, nil)
			fp, _ := p.Fingerprint(ctx, "target")
			_, cerr := d.Round(ctx, roundBody(t, wire.Verify{Chat: chatBody(t, secret+" hello", 0), Round: 1, Mode: wire.DraftModeToken,
				Tokens: draft, Fingerprint: fp}))
			if cerr == nil || cerr.Code != "draft_target_failed" || strings.Contains(cerr.Message, secret) {
				t.Fatalf("the drafting service answered %v", cerr)
			}
			if d.Sessions() != 0 {
				t.Fatal("a failed session was kept")
			}
		})
	}
}

func TestNewVLLMPassRefusesBadConfig(t *testing.T) {
	v := specVocab(t, testmodel.Alphabet())
	for _, o := range []Options{{URL: "ftp://x", Vocab: v}, {URL: "http://", Vocab: v}, {URL: "http://127.0.0.1:8000"}} {
		if _, err := New(o); err == nil {
			t.Errorf("%+v was accepted", o)
		}
	}
	p, err := New(Options{URL: "http://127.0.0.1:8000/v1/", Vocab: v, StopIDs: []int32{5}})
	if err != nil {
		t.Fatal(err)
	}
	if p.base != "http://127.0.0.1:8000" || !p.stops[5] || !p.stops[testmodel.EOSID] || p.Name() != "vllm" {
		t.Fatalf("base %q stops %v", p.base, p.stops)
	}
	if fp, _ := p.Fingerprint(context.Background(), "m"); fp != testmodel.Alphabet().Fingerprint().String() {
		t.Fatalf("fingerprint %s, the spec's %s", fp, testmodel.Alphabet().Fingerprint())
	}
}

// TestVLLMTextModeUndoesTheDummyPrefix: a SentencePiece-style tokenizer prepends "▁" to any text
// it encodes; the verifier takes it off again, so a right text draft is still accepted.
func TestVLLMTextModeUndoesTheDummyPrefix(t *testing.T) {
	spec := testmodel.Sentence("hello", "the", "quick", "brown", "fox")
	ctx := context.Background()
	for _, tc := range []struct {
		dummy  bool
		draft  string
		want   string // target tokens returned, joined
		tokens int
	}{
		{false, " the quick", " the quick brown", 3},
		{true, " the quick", " the quick brown", 3}, // "  the quick" → ▁ ▁the ▁quick: the lone ▁ goes
		{true, " the quack", " the quick", 2},
		{true, "xyz", " the", 1}, // " xyz" → ▁x? no such piece: no draft, the bonus only
	} {
		f := newFakeVLLM(t, spec)
		f.dummyPrefix = tc.dummy
		p := f.pass(t, spec)
		st, err := p.Open(ctx, "target", []chat.Turn{{Role: "user", Content: "say hello"}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Pass(ctx, st, drafting.Draft{Text: tc.draft}, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, tok := range res.Tokens {
			got += tok.Text
		}
		if got != tc.want || len(res.Tokens) != tc.tokens {
			t.Errorf("dummy=%v draft %q: got %q in %d tokens, want %q in %d", tc.dummy, tc.draft, got, len(res.Tokens), tc.want, tc.tokens)
		}
	}
	// Alphabet: "bcd" → " bcd" → ▁ b c d.
	spec = testmodel.Alphabet()
	f := newFakeVLLM(t, spec)
	f.dummyPrefix = true
	p := f.pass(t, spec)
	st, _ := p.Open(ctx, "target", []chat.Turn{{Role: "user", Content: "a"}})
	res, err := p.Pass(ctx, st, drafting.Draft{Text: "bcd"}, 10)
	if err != nil || len(res.Tokens) != 4 {
		t.Fatalf("got %+v, %v; want b c d + bonus e", res.Tokens, err)
	}
}

// TestVLLMDraftShrinksAtTheContextLimit: near max_model_len the draft is cut so that vLLM still
// has room for the generated token; at the limit itself the pass fails (vLLM refuses).
func TestVLLMDraftShrinksAtTheContextLimit(t *testing.T) {
	spec := testmodel.Alphabet() // prompt "a" → <s> a, answer b c d …
	f := newFakeVLLM(t, spec)
	f.maxModelLen = 6
	p := f.pass(t, spec)
	ctx := context.Background()
	st, err := p.Open(ctx, "target", []chat.Turn{{Role: "user", Content: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	ids := specIDs(spec, spec.Tokenize("bcdefg"))
	res, err := p.Pass(ctx, st, drafting.Draft{IDs: ids}, 7)
	if err != nil {
		t.Fatal(err)
	}
	// 2 prompt ids + 3 draft ids + 1 generated = 6: b c d accepted, e the bonus.
	var got string
	for _, tok := range res.Tokens {
		got += tok.Text
	}
	if got != "bcde" {
		t.Fatalf("got %q, want bcde", got)
	}
	st.Output = append(st.Output, res.Tokens...)
	if _, err := p.Pass(ctx, st, drafting.Draft{IDs: ids[4:]}, 3); !errors.Is(err, ErrAnswer) {
		t.Fatalf("at the limit: %v", err)
	}
}
