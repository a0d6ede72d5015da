package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/vocab"
)

// ErrVLLMAnswer means vLLM answered something that cannot be the answer to what was asked
// (HTTP error, bad JSON, missing or misaligned prompt_logprobs, ids outside the vocabulary).
// Drafting turns it into draft_target_failed and the edge streams plain. Its messages never
// quote text.
var ErrVLLMAnswer = errors.New("gateway drafting: unusable vLLM answer")

// ErrVLLMTokenizer means the tokenizer files the gateway was given are not the ones the vLLM
// server uses for the model: token ids would name other texts, so the backend refuses to run.
var ErrVLLMTokenizer = errors.New("gateway drafting: the configured tokenizer is not the served model's")

// vllmBodyLimit bounds one answer: prompt_logprobs carry a small object per prompt token.
const vllmBodyLimit = 64 << 20

// VLLMOptions configure a VLLMPass.
type VLLMOptions struct {
	// URL is the vLLM server's base URL (http://host:8000, with or without /v1).
	URL    string
	APIKey string
	// Vocab is the served model's tokenizer (vocab.FromHFTokenizerJSON of the files vLLM
	// loads). vLLM has no endpoint listing its vocabulary (/tokenizer_info returns
	// tokenizer_config.json's settings, not the tokens), and the decoded_token texts it
	// returns differ between releases (raw "▁a" pieces, per-token decode without the leading
	// space, special tokens as literal text), so token texts, the fingerprint and the
	// end-of-sequence id come from here.
	Vocab *vocab.Vocab
	// StopIDs end an answer (vocab.HFStopIDs: EOS and generation_config.json's eos ids, which
	// vLLM stops on); empty means Vocab's EOS only.
	StopIDs    []int32
	HTTPClient *http.Client
}

// VLLMPass is the production verifier backend on vLLM's OpenAI-compatible server. A session
// opens with POST /tokenize of the chat messages (vLLM's own chat template, as
// /v1/chat/completions applies it) and from then on only token ids travel: each round is one
// POST /v1/completions whose prompt is the prompt ids, the accepted output ids and the draft ids,
// with prompt_logprobs=1 (the target's top-1 at every draft position: acceptance and the
// correction) and max_tokens=1 at temperature 0 (the token after the whole draft: the bonus).
// Nothing accepted is ever re-tokenized.
type VLLMPass struct {
	base  string // server root: /tokenize is there, /v1/completions below it
	key   string
	v     *vocab.Vocab
	stops map[int32]bool
	hc    *http.Client

	mu     sync.Mutex
	maxLen map[string]int // model → max_model_len, as /tokenize reports it
}

// NewVLLMPass returns the backend.
func NewVLLMPass(o VLLMOptions) (*VLLMPass, error) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimRight(o.URL, "/"), "/v1"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gateway drafting: %q is not an http(s) URL", o.URL)
	}
	if o.Vocab == nil {
		return nil, errors.New("gateway drafting: the vLLM verifier needs the served model's tokenizer files")
	}
	stops := map[int32]bool{}
	for _, id := range o.StopIDs {
		stops[id] = true
	}
	if eos := o.Vocab.Fingerprint().EOS; eos >= 0 {
		stops[int32(eos)] = true
	}
	if len(stops) == 0 {
		return nil, errors.New("gateway drafting: the tokenizer names no end-of-sequence token")
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	return &VLLMPass{base: u.String(), key: o.APIKey, v: o.Vocab, stops: stops, hc: hc, maxLen: map[string]int{}}, nil
}

func (p *VLLMPass) Name() string { return "vllm" }

// Fingerprint is the configured tokenizer's: the server cannot be asked.
func (p *VLLMPass) Fingerprint(context.Context, string) (string, error) {
	return p.v.Fingerprint().String(), nil
}

type vllmTokenizeRequest struct {
	Model               string        `json:"model"`
	Messages            []vllmMessage `json:"messages,omitempty"`
	Prompt              *string       `json:"prompt,omitempty"`
	AddGenerationPrompt *bool         `json:"add_generation_prompt,omitempty"`
	AddSpecialTokens    bool          `json:"add_special_tokens"`
	ReturnTokenStrs     bool          `json:"return_token_strs,omitempty"`
}

type vllmMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type vllmTokenizeResponse struct {
	Count       *int     `json:"count"`
	MaxModelLen int      `json:"max_model_len"`
	Tokens      []int64  `json:"tokens"`
	TokenStrs   []string `json:"token_strs"`
}

// Open renders the chat with vLLM's chat template into token ids. The raw pieces vLLM names for
// them (return_token_strs, where the release supports it) are checked against the configured
// tokenizer, so a wrong --draft-verifier-tokenizer fails here instead of corrupting answers.
func (p *VLLMPass) Open(ctx context.Context, model string, msgs []chat.Turn) (*PassState, error) {
	req := vllmTokenizeRequest{Model: model, AddGenerationPrompt: ptr(true), ReturnTokenStrs: true}
	for _, m := range msgs {
		req.Messages = append(req.Messages, vllmMessage{Role: m.Role, Content: m.Content})
	}
	var resp vllmTokenizeResponse
	if err := p.post(ctx, "/tokenize", req, &resp); err != nil {
		return nil, err
	}
	ids, err := p.ids(resp, true)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: the chat template rendered no tokens", ErrVLLMAnswer)
	}
	if resp.MaxModelLen > 0 {
		p.mu.Lock()
		if len(p.maxLen) > 64 {
			clear(p.maxLen)
		}
		p.maxLen[model] = resp.MaxModelLen
		p.mu.Unlock()
	}
	return &PassState{Model: model, PromptIDs: ids}, nil
}

func (p *VLLMPass) ids(resp vllmTokenizeResponse, check bool) ([]int32, error) {
	if resp.Tokens == nil || resp.Count != nil && *resp.Count != len(resp.Tokens) {
		return nil, fmt.Errorf("%w: /tokenize gave no token list", ErrVLLMAnswer)
	}
	if check && resp.TokenStrs != nil && len(resp.TokenStrs) != len(resp.Tokens) {
		return nil, fmt.Errorf("%w: /tokenize gave %d token strings for %d tokens", ErrVLLMAnswer, len(resp.TokenStrs), len(resp.Tokens))
	}
	ids := make([]int32, len(resp.Tokens))
	for i, id := range resp.Tokens {
		raw, ok := p.v.Token(int32(id))
		if id < 0 || id > 1<<31-1 || !ok {
			return nil, fmt.Errorf("%w: token id %d outside the %d-token vocabulary", ErrVLLMTokenizer, id, p.v.Size())
		}
		// The vocabulary stores user-defined added tokens with "▁" as spaces (as the GGUF does);
		// vLLM names them as written in tokenizer.json.
		if check && resp.TokenStrs != nil && resp.TokenStrs[i] != raw && strings.ReplaceAll(resp.TokenStrs[i], "▁", " ") != raw {
			return nil, fmt.Errorf("%w: token %d of the prompt (id %d) is another piece on the server", ErrVLLMTokenizer, i, id)
		}
		ids[i] = int32(id)
	}
	return ids, nil
}

// vllmCompletionRequest asks for the target's greedy top-1 along the prompt and one token after
// it. Penalties are pinned to neutral because prompt_logprobs are the model's raw log
// probabilities: a server default penalty would make the bonus token disagree with them.
type vllmCompletionRequest struct {
	Model                  string  `json:"model"`
	Prompt                 []int32 `json:"prompt"`
	MaxTokens              int     `json:"max_tokens"`
	Temperature            float64 `json:"temperature"`
	RepetitionPenalty      float64 `json:"repetition_penalty"`
	PresencePenalty        float64 `json:"presence_penalty"`
	FrequencyPenalty       float64 `json:"frequency_penalty"`
	Logprobs               int     `json:"logprobs"`
	PromptLogprobs         *int    `json:"prompt_logprobs,omitempty"`
	ReturnTokensAsTokenIDs bool    `json:"return_tokens_as_token_ids"`
	ReturnTokenIDs         bool    `json:"return_token_ids"`
}

// Pass walks the draft along the target's top-1 choices. Draft ids outside the vocabulary end the
// draft there (the target cannot have chosen them, and vLLM refuses such prompts); at most n-1
// draft tokens are sent, so the answer has at most n tokens.
func (p *VLLMPass) Pass(ctx context.Context, st *PassState, d Draft, n int) (PassResult, error) {
	if n <= 0 || len(st.PromptIDs) == 0 {
		return PassResult{}, fmt.Errorf("gateway drafting: a vLLM pass needs a prompt and n ≥ 1 (n=%d)", n)
	}
	draft := d.IDs
	if draft == nil && d.Text != "" {
		var err error
		if draft, err = p.tokenize(ctx, st.Model, d.Text); err != nil {
			return PassResult{}, err
		}
	}
	for i, id := range draft {
		if _, ok := p.v.Token(id); !ok {
			draft = draft[:i]
			break
		}
	}
	draft = draft[:min(len(draft), n-1)]
	p.mu.Lock()
	maxLen := p.maxLen[st.Model]
	p.mu.Unlock()
	if room := maxLen - len(st.PromptIDs) - len(st.Output) - 1; maxLen > 0 && room < len(draft) {
		// vLLM refuses a prompt that leaves no room for the one generated token; near the end of
		// the context the draft shrinks (plain decoding would end there with "length").
		draft = draft[:max(room, 0)]
	}
	prompt := make([]int32, 0, len(st.PromptIDs)+len(st.Output)+len(draft))
	prompt = append(prompt, st.PromptIDs...)
	for _, t := range st.Output {
		if t.ID < 0 {
			return PassResult{}, errors.New("gateway drafting: an accepted token without an id")
		}
		prompt = append(prompt, t.ID)
	}
	start := len(prompt)
	prompt = append(prompt, draft...)
	req := vllmCompletionRequest{Model: st.Model, Prompt: prompt, MaxTokens: 1, RepetitionPenalty: 1, Logprobs: 1,
		ReturnTokensAsTokenIDs: true, ReturnTokenIDs: true}
	if len(draft) > 0 {
		// Only then: a prompt_logprobs request skips vLLM's prefix cache (see DRAFTING-VLLM.md).
		req.PromptLogprobs = ptr(1)
	}
	var raw []byte // parsed by parseVLLMCompletion, not by encoding/json (its size grows with the context)
	if err := p.post(ctx, "/v1/completions", req, &raw); err != nil {
		return PassResult{}, err
	}
	ans, err := parseVLLMCompletion(raw, prompt, start, p.v.Size())
	if err != nil {
		return PassResult{}, err
	}
	res := PassResult{PromptTokens: len(st.PromptIDs)}
	for k, id := range draft {
		top := ans.top[k]
		if p.stops[top] {
			res.Stopped = true
			return res, nil
		}
		tok, err := p.token(top)
		if err != nil {
			return PassResult{}, err
		}
		res.Tokens = append(res.Tokens, tok)
		if top != id {
			return res, nil // the departure: its top-1 is the correction
		}
	}
	if ans.stopped || p.stops[ans.gen] {
		res.Stopped = true
		return res, nil
	}
	tok, err := p.token(ans.gen)
	if err != nil {
		return PassResult{}, err
	}
	res.Tokens = append(res.Tokens, tok)
	return res, nil
}

// token is id with its text as the edge decodes it (the token's bytes).
func (p *VLLMPass) token(id int32) (Token, error) {
	text, ok := p.v.Piece(id)
	if !ok || text == "" {
		// A control or unused token that is not a stop token: the answer could not carry it.
		return Token{}, fmt.Errorf("%w: the target chose token %d, which has no text", ErrVLLMAnswer, id)
	}
	return Token{ID: id, Text: text}, nil
}

// tokenize returns the target's ids for a text-mode draft.
func (p *VLLMPass) tokenize(ctx context.Context, model, text string) ([]int32, error) {
	var resp vllmTokenizeResponse
	if err := p.post(ctx, "/tokenize", vllmTokenizeRequest{Model: model, Prompt: &text}, &resp); err != nil {
		return nil, err
	}
	ids, err := p.ids(resp, false)
	if err != nil {
		return nil, err
	}
	return p.withoutDummyPrefix(ids, text), nil
}

// withoutDummyPrefix undoes the "▁" a SentencePiece-style tokenizer prepends to any text it
// encodes (Llama 2 and Mistral tokenizer.json files do, whatever add_special_tokens says): a draft
// continues the answer, so its first token would otherwise carry a space the drafter never wrote
// and always be rejected. Only the one case is handled where the ids spell exactly " "+text.
func (p *VLLMPass) withoutDummyPrefix(ids []int32, text string) []int32 {
	if len(ids) == 0 {
		return ids
	}
	var spelled strings.Builder
	for _, id := range ids {
		s, _ := p.v.Piece(id)
		spelled.WriteString(s)
	}
	if spelled.String() != " "+text {
		return ids
	}
	first, _ := p.v.Piece(ids[0])
	if first == " " {
		return ids[1:]
	}
	if id, ok := p.v.ID([]byte(first[1:])); ok {
		return append([]int32{id}, ids[1:]...)
	}
	return nil // no token spells the first one without its space: send no draft
}

func (p *VLLMPass) post(ctx context.Context, path string, body, into any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if p.key != "" {
		req.Header.Set("Authorization", "Bearer "+p.key)
	}
	resp, err := p.hc.Do(req)
	if err != nil {
		return fmt.Errorf("gateway drafting: vLLM %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// The body is not quoted: error messages may echo the prompt.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		return fmt.Errorf("%w: %s answered HTTP %d", ErrVLLMAnswer, path, resp.StatusCode)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, vllmBodyLimit+1))
	if err != nil {
		return fmt.Errorf("gateway drafting: vLLM %s: %w", path, err)
	}
	if len(raw) > vllmBodyLimit {
		return fmt.Errorf("%w: %s answered more than %d bytes", ErrVLLMAnswer, path, vllmBodyLimit)
	}
	if b, ok := into.(*[]byte); ok {
		*b = raw
		return nil
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("%w: %s answered %d bytes that are not the expected JSON", ErrVLLMAnswer, path, len(raw))
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// vllmAnswer is what one /v1/completions answer says about a draft.
type vllmAnswer struct {
	top     []int32 // the target's top-1 at each draft position
	gen     int32   // the generated token (after the whole prompt); -1 when none
	stopped bool    // finish_reason "stop": the generated token ended the answer
}

type vllmLogprob struct {
	Logprob      *float64 `json:"logprob"`
	Rank         *int     `json:"rank"`
	DecodedToken *string  `json:"decoded_token"`
}

// vllmCompletion is the part of the answer decoded with encoding/json; prompt_logprobs is taken
// out first by splitPromptLogprobs.
type vllmCompletion struct {
	Choices []struct {
		Text         *string `json:"text"`
		FinishReason *string `json:"finish_reason"`
		TokenIDs     []int64 `json:"token_ids"`
		Logprobs     *struct {
			Tokens []string `json:"tokens"`
		} `json:"logprobs"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens int `json:"prompt_tokens"`
	} `json:"usage"`
}

// parseVLLMCompletion reads a /v1/completions answer for prompt whose draft starts at index start.
// prompt_logprobs is vLLM's list: null for the first token, then per position a map from token id
// to {logprob, rank, decoded_token} holding the prompt's own token (its rank) and the top-1 (rank
// 1; the same entry when the prompt token is the top-1). Each draft position must hold the draft's
// token, which proves the list is aligned with what was sent.
func parseVLLMCompletion(body []byte, prompt []int32, start, vocabSize int) (vllmAnswer, error) {
	bad := func(format string, a ...any) (vllmAnswer, error) {
		return vllmAnswer{}, fmt.Errorf("%w: "+format, append([]any{ErrVLLMAnswer}, a...)...)
	}
	rest, positions, err := splitPromptLogprobs(body)
	var c vllmCompletion
	if err != nil || json.Unmarshal(rest, &c) != nil {
		return bad("%d bytes of /v1/completions are not JSON", len(body))
	}
	if len(c.Choices) != 1 {
		return bad("%d choices", len(c.Choices))
	}
	ch := c.Choices[0]
	if c.Usage != nil && c.Usage.PromptTokens != len(prompt) {
		return bad("usage counts %d prompt tokens for %d sent", c.Usage.PromptTokens, len(prompt))
	}
	ans := vllmAnswer{gen: -1}
	if start < len(prompt) {
		if start < 1 || len(positions) != len(prompt) {
			return bad("prompt_logprobs has %d positions for %d prompt tokens", len(positions), len(prompt))
		}
		// Only the draft positions are decoded (the list is ~100 bytes per context token);
		// earlier ones must be present, and the draft positions must hold the draft tokens,
		// which is what proves the list aligned with the prompt.
		for i := 1; i < start; i++ {
			if string(positions[i]) == "null" {
				return bad("position %d: no logprobs", i)
			}
		}
		for i := start; i < len(prompt); i++ {
			var pos map[string]vllmLogprob
			if err := json.Unmarshal(positions[i], &pos); err != nil {
				return bad("position %d: not a token→logprob map", i)
			}
			top, err := positionTop(pos, prompt[i], vocabSize)
			if err != nil {
				return bad("position %d: %v", i, err)
			}
			ans.top = append(ans.top, top)
		}
	}
	var gen []int64
	switch {
	case ch.TokenIDs != nil:
		gen = ch.TokenIDs
	case ch.Logprobs != nil:
		for _, s := range ch.Logprobs.Tokens {
			id, err := strconv.ParseInt(strings.TrimPrefix(s, "token_id:"), 10, 64)
			if err != nil || !strings.HasPrefix(s, "token_id:") {
				return bad("a generated token is not named token_id:N")
			}
			gen = append(gen, id)
		}
	}
	if len(gen) > 1 {
		return bad("%d tokens generated for max_tokens 1", len(gen))
	}
	for _, id := range gen {
		if id < 0 || id >= int64(vocabSize) {
			return bad("generated token id %d outside the %d-token vocabulary", id, vocabSize)
		}
		ans.gen = int32(id)
	}
	switch {
	case ch.FinishReason == nil:
		return bad("no finish_reason")
	case *ch.FinishReason == "stop":
		// With no stop strings asked, "stop" means an end-of-sequence or stop token, whose text
		// vLLM leaves out.
		if ch.Text != nil && *ch.Text != "" {
			return bad("finish_reason stop with generated text")
		}
		ans.stopped = true
	case *ch.FinishReason == "length":
		if ans.gen < 0 {
			return bad("no generated token id (return_token_ids / return_tokens_as_token_ids ignored?)")
		}
	default:
		return bad("unexpected finish_reason")
	}
	return ans, nil
}

// positionTop returns the rank-1 token of one prompt_logprobs position, after checking that the
// position holds want (the prompt token sent there) and that its ids are in the vocabulary.
func positionTop(pos map[string]vllmLogprob, want int32, vocabSize int) (int32, error) {
	if len(pos) == 0 {
		return 0, errors.New("no logprobs")
	}
	top, tops, seen := int32(-1), 0, false
	for k, lp := range pos {
		id, err := strconv.ParseInt(k, 10, 32)
		if err != nil || id < 0 || id >= int64(vocabSize) {
			return 0, fmt.Errorf("token id key outside the %d-token vocabulary", vocabSize)
		}
		if lp.Rank == nil || *lp.Rank < 1 || lp.Logprob == nil {
			return 0, errors.New("an entry without rank or logprob")
		}
		if int32(id) == want {
			seen = true
		}
		if *lp.Rank == 1 {
			top, tops = int32(id), tops+1
		}
	}
	switch {
	case !seen:
		return 0, errors.New("the prompt's token is missing (misaligned)")
	case tops != 1:
		return 0, fmt.Errorf("%d rank-1 entries", tops)
	}
	return top, nil
}
