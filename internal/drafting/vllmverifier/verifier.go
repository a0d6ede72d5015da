package vllmverifier

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/drafting"
	"github.com/sucursal/sucursal/internal/vocab"
)

// ErrAnswer means vLLM answered something that cannot be the answer to what was asked
// (HTTP error, bad JSON, missing or misaligned prompt_logprobs, ids outside the vocabulary).
// drafting.Service turns it into draft_target_failed and the edge streams plain. Its messages never
// quote text.
var ErrAnswer = errors.New("gateway drafting: unusable vLLM answer")

// ErrTokenizer means the tokenizer files the gateway was given are not the ones the vLLM
// server uses for the model: token ids would name other texts, so the backend refuses to run.
var ErrTokenizer = errors.New("gateway drafting: the configured tokenizer is not the served model's")

// bodyLimit bounds one answer: prompt_logprobs carry a small object per prompt token.
const bodyLimit = 64 << 20

// Options configure a Verifier.
type Options struct {
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

var _ drafting.Backend = (*Verifier)(nil)

// Verifier is the production verifier backend on vLLM's OpenAI-compatible server. A session
// opens with POST /tokenize of the chat messages (vLLM's own chat template, as
// /v1/chat/completions applies it) and from then on only token ids travel: each round is one
// POST /v1/completions whose prompt is the prompt ids, the accepted output ids and the draft ids,
// with prompt_logprobs=1 (the target's top-1 at every draft position: acceptance and the
// correction) and max_tokens=1 at temperature 0 (the token after the whole draft: the bonus).
// Nothing accepted is ever re-tokenized.
type Verifier struct {
	base  string // server root: /tokenize is there, /v1/completions below it
	key   string
	v     *vocab.Vocab
	stops map[int32]bool
	hc    *http.Client

	mu     sync.Mutex
	maxLen map[string]int // model → max_model_len, as /tokenize reports it
}

// New returns the verifier.
func New(o Options) (*Verifier, error) {
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
	return &Verifier{base: u.String(), key: o.APIKey, v: o.Vocab, stops: stops, hc: hc, maxLen: map[string]int{}}, nil
}

func (p *Verifier) Name() string { return "vllm" }

// Fingerprint is the configured tokenizer's: the server cannot be asked.
func (p *Verifier) Fingerprint(context.Context, string) (string, error) {
	return p.v.Fingerprint().String(), nil
}

type tokenizeRequest struct {
	Model               string    `json:"model"`
	Messages            []message `json:"messages,omitempty"`
	Prompt              *string   `json:"prompt,omitempty"`
	AddGenerationPrompt *bool     `json:"add_generation_prompt,omitempty"`
	AddSpecialTokens    bool      `json:"add_special_tokens"`
	ReturnTokenStrs     bool      `json:"return_token_strs,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type tokenizeResponse struct {
	Count       *int     `json:"count"`
	MaxModelLen int      `json:"max_model_len"`
	Tokens      []int64  `json:"tokens"`
	TokenStrs   []string `json:"token_strs"`
}

// Open renders the chat with vLLM's chat template into token ids. The raw pieces vLLM names for
// them (return_token_strs, where the release supports it) are checked against the configured
// tokenizer, so a wrong --draft-verifier-tokenizer fails here instead of corrupting answers.
func (p *Verifier) Open(ctx context.Context, model string, msgs []chat.Turn) (*drafting.PassState, error) {
	req := tokenizeRequest{Model: model, AddGenerationPrompt: ptr(true), ReturnTokenStrs: true}
	for _, m := range msgs {
		req.Messages = append(req.Messages, message{Role: m.Role, Content: m.Content})
	}
	var resp tokenizeResponse
	if err := p.post(ctx, "/tokenize", req, &resp); err != nil {
		return nil, err
	}
	ids, err := p.ids(resp, true)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: the chat template rendered no tokens", ErrAnswer)
	}
	if resp.MaxModelLen > 0 {
		p.mu.Lock()
		if len(p.maxLen) > 64 {
			clear(p.maxLen)
		}
		p.maxLen[model] = resp.MaxModelLen
		p.mu.Unlock()
	}
	return &drafting.PassState{Model: model, PromptIDs: ids}, nil
}

func (p *Verifier) ids(resp tokenizeResponse, check bool) ([]int32, error) {
	if resp.Tokens == nil || resp.Count != nil && *resp.Count != len(resp.Tokens) {
		return nil, fmt.Errorf("%w: /tokenize gave no token list", ErrAnswer)
	}
	if check && resp.TokenStrs != nil && len(resp.TokenStrs) != len(resp.Tokens) {
		return nil, fmt.Errorf("%w: /tokenize gave %d token strings for %d tokens", ErrAnswer, len(resp.TokenStrs), len(resp.Tokens))
	}
	ids := make([]int32, len(resp.Tokens))
	for i, id := range resp.Tokens {
		raw, ok := p.v.Token(int32(id))
		if id < 0 || id > 1<<31-1 || !ok {
			return nil, fmt.Errorf("%w: token id %d outside the %d-token vocabulary", ErrTokenizer, id, p.v.Size())
		}
		// The vocabulary stores user-defined added tokens with "▁" as spaces (as the GGUF does);
		// vLLM names them as written in tokenizer.json.
		if check && resp.TokenStrs != nil && resp.TokenStrs[i] != raw && strings.ReplaceAll(resp.TokenStrs[i], "▁", " ") != raw {
			return nil, fmt.Errorf("%w: token %d of the prompt (id %d) is another piece on the server", ErrTokenizer, i, id)
		}
		ids[i] = int32(id)
	}
	return ids, nil
}

// completionRequest asks for the target's greedy top-1 along the prompt and one token after
// it. Penalties are pinned to neutral because prompt_logprobs are the model's raw log
// probabilities: a server default penalty would make the bonus token disagree with them.
type completionRequest struct {
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
func (p *Verifier) Pass(ctx context.Context, st *drafting.PassState, d drafting.Draft, n int) (drafting.PassResult, error) {
	if n <= 0 || len(st.PromptIDs) == 0 {
		return drafting.PassResult{}, fmt.Errorf("gateway drafting: a vLLM pass needs a prompt and n ≥ 1 (n=%d)", n)
	}
	draft := d.IDs
	if draft == nil && d.Text != "" {
		var err error
		if draft, err = p.tokenize(ctx, st.Model, d.Text); err != nil {
			return drafting.PassResult{}, err
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
			return drafting.PassResult{}, errors.New("gateway drafting: an accepted token without an id")
		}
		prompt = append(prompt, t.ID)
	}
	start := len(prompt)
	prompt = append(prompt, draft...)
	req := completionRequest{Model: st.Model, Prompt: prompt, MaxTokens: 1, RepetitionPenalty: 1, Logprobs: 1,
		ReturnTokensAsTokenIDs: true, ReturnTokenIDs: true}
	if len(draft) > 0 {
		// Only then: a prompt_logprobs request skips vLLM's prefix cache (see DRAFTING-VLLM.md).
		req.PromptLogprobs = ptr(1)
	}
	var raw []byte // parsed by parseCompletion, not by encoding/json (its size grows with the context)
	if err := p.post(ctx, "/v1/completions", req, &raw); err != nil {
		return drafting.PassResult{}, err
	}
	ans, err := parseCompletion(raw, prompt, start, p.v.Size())
	if err != nil {
		return drafting.PassResult{}, err
	}
	res := drafting.PassResult{PromptTokens: len(st.PromptIDs)}
	for k, id := range draft {
		top := ans.top[k]
		if p.stops[top] {
			res.Stopped = true
			return res, nil
		}
		tok, err := p.token(top)
		if err != nil {
			return drafting.PassResult{}, err
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
		return drafting.PassResult{}, err
	}
	res.Tokens = append(res.Tokens, tok)
	return res, nil
}

// token is id with its text as the edge decodes it (the token's bytes).
func (p *Verifier) token(id int32) (drafting.Token, error) {
	text, ok := p.v.Piece(id)
	if !ok || text == "" {
		// A control or unused token that is not a stop token: the answer could not carry it.
		return drafting.Token{}, fmt.Errorf("%w: the target chose token %d, which has no text", ErrAnswer, id)
	}
	return drafting.Token{ID: id, Text: text}, nil
}

// tokenize returns the target's ids for a text-mode draft.
func (p *Verifier) tokenize(ctx context.Context, model, text string) ([]int32, error) {
	var resp tokenizeResponse
	if err := p.post(ctx, "/tokenize", tokenizeRequest{Model: model, Prompt: &text}, &resp); err != nil {
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
func (p *Verifier) withoutDummyPrefix(ids []int32, text string) []int32 {
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

func (p *Verifier) post(ctx context.Context, path string, body, into any) error {
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
		return fmt.Errorf("%w: %s answered HTTP %d", ErrAnswer, path, resp.StatusCode)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, bodyLimit+1))
	if err != nil {
		return fmt.Errorf("gateway drafting: vLLM %s: %w", path, err)
	}
	if len(raw) > bodyLimit {
		return fmt.Errorf("%w: %s answered more than %d bytes", ErrAnswer, path, bodyLimit)
	}
	if b, ok := into.(*[]byte); ok {
		*b = raw
		return nil
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("%w: %s answered %d bytes that are not the expected JSON", ErrAnswer, path, len(raw))
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
