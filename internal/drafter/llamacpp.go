package drafter

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
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/vocab"
)

// ErrBadAnswer is returned (wrapped) when llama-server's answer is not the shape its API
// promises, or disagrees with the configured tokenizer.
var ErrBadAnswer = errors.New("drafter: malformed llama-server answer")

// maxLlamaAnswer bounds what is read of one llama-server answer. A draft is at most a few dozen
// tokens; response_fields keeps the prompt echo out, but a server that ignores it echoes the
// prompt, which a long context can make hundreds of KiB.
const maxLlamaAnswer = 16 << 20

// LlamaServer drafts on llama.cpp's llama-server with its native API (tools/server/README.md in
// ggml-org/llama.cpp): POST /apply-template renders the chat once per request, POST /completion
// continues the prompt greedily and, with n_probs, reports each generated token's id and bytes.
// llama-server has no vocabulary endpoint, so the tokenizer (for the fingerprint and for token
// mode) is read from the GGUF file the server loads, when one is configured.
type LlamaServer struct {
	base  *url.URL
	model string
	gguf  string
	hc    *http.Client

	mu    sync.Mutex
	vocab *vocab.Vocab
}

// NewLlamaServer returns a draft model on the llama-server at baseURL (http://127.0.0.1:8080; a
// trailing /v1 is dropped). model is sent as "model" for a server in router mode and may be empty
// for one that serves a single model. tokenizerGGUF is the path of that model's GGUF file, or ""
// (then the fingerprint is unknown and drafting uses text mode only).
func NewLlamaServer(baseURL, model, tokenizerGGUF string, hc *http.Client) (*LlamaServer, error) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("drafter: %q is not an http(s) URL", baseURL)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &LlamaServer{base: u, model: model, gguf: tokenizerGGUF, hc: hc}, nil
}

type llamaMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func (l *LlamaServer) Prompt(ctx context.Context, msgs []chat.Turn) (string, error) {
	req := struct {
		Model    string         `json:"model,omitempty"`
		Messages []llamaMessage `json:"messages"`
	}{Model: l.model, Messages: make([]llamaMessage, len(msgs))}
	for i, m := range msgs {
		req.Messages[i] = llamaMessage{Role: m.Role, Content: m.Content}
	}
	var res struct {
		Prompt *string `json:"prompt"`
	}
	if err := l.post(ctx, "/apply-template", req, &res); err != nil {
		return "", err
	}
	if res.Prompt == nil {
		return "", fmt.Errorf("%w: /apply-template gave no prompt", ErrBadAnswer)
	}
	return *res.Prompt, nil
}

// loadVocab reads the configured GGUF's tokenizer once; nil without a configured file.
func (l *LlamaServer) loadVocab() (*vocab.Vocab, error) {
	if l.gguf == "" {
		return nil, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.vocab == nil {
		v, err := vocab.FromGGUFFile(l.gguf)
		if err != nil {
			return nil, fmt.Errorf("drafter: tokenizer: %w", err)
		}
		l.vocab = v
	}
	return l.vocab, nil
}

// Forget drops the cached tokenizer (fleet sync may have replaced the model file).
func (l *LlamaServer) Forget() {
	l.mu.Lock()
	l.vocab = nil
	l.mu.Unlock()
}

func (l *LlamaServer) Fingerprint(context.Context) (string, error) {
	v, err := l.loadVocab()
	if err != nil || v == nil {
		return "", err
	}
	return v.Fingerprint().String(), nil
}

// llamaCompletionRequest is /completion's request. Greedy decoding: llama.cpp's sampler chain is
// the request's "samplers" in order followed by a final dist sampler (common/sampling.cpp,
// common_sampler_init), and the temperature sampler with temp <= 0 keeps only the highest logit
// (src/llama-sampling.cpp, llama_sampler_temp_impl). Naming only "temperature" leaves the
// penalties, DRY and XTC (which can move or remove the top token) out of the chain; the explicit
// neutral values and top_k 1 keep a server that predates "samplers" greedy too, and override
// whatever defaults the server was started with.
type llamaCompletionRequest struct {
	Model            string   `json:"model,omitempty"`
	Prompt           string   `json:"prompt"`
	NPredict         int      `json:"n_predict"`
	Temperature      float64  `json:"temperature"`
	Samplers         []string `json:"samplers"`
	TopK             int      `json:"top_k"`
	RepeatPenalty    float64  `json:"repeat_penalty"`
	PresencePenalty  float64  `json:"presence_penalty"`
	FrequencyPenalty float64  `json:"frequency_penalty"`
	DryMultiplier    float64  `json:"dry_multiplier"`
	XTCProbability   float64  `json:"xtc_probability"`
	Mirostat         int      `json:"mirostat"`
	IgnoreEOS        bool     `json:"ignore_eos"`
	Stream           bool     `json:"stream"`
	// NProbs 1 makes the answer carry completion_probabilities: per generated token its id and
	// bytes (server-task.cpp, probs_vector_to_json). CachePrompt reuses the KV cache of the
	// common prefix, which each round's prompt (previous prompt + accepted text) mostly is.
	NProbs         int      `json:"n_probs"`
	CachePrompt    bool     `json:"cache_prompt"`
	ReturnTokens   bool     `json:"return_tokens"`
	ResponseFields []string `json:"response_fields"`
}

// llamaCompletion is the part of /completion's answer a draft needs.
type llamaCompletion struct {
	Content *string `json:"content"`
	// Tokens are the generated ids (return_tokens), including tokens whose bytes end inside a
	// UTF-8 character, which get no entry of their own in Probs.
	Tokens []int32 `json:"tokens"`
	Probs  []struct {
		ID    *int32 `json:"id"`
		Bytes []int  `json:"bytes"`
	} `json:"completion_probabilities"`
}

func (l *LlamaServer) Draft(ctx context.Context, prompt string, n int, ids bool) ([]Piece, error) {
	if n <= 0 {
		return nil, nil
	}
	var v *vocab.Vocab
	if ids {
		var err error
		if v, err = l.loadVocab(); err != nil {
			return nil, err
		}
		if v == nil {
			return nil, errors.New("drafter: token ids asked of a llama-server drafter without draft.tokenizer_gguf")
		}
	}
	req := llamaCompletionRequest{Model: l.model, Prompt: prompt, NPredict: n, Samplers: []string{"temperature"}, TopK: 1,
		RepeatPenalty: 1, NProbs: 1, CachePrompt: true, ReturnTokens: true,
		ResponseFields: []string{"content", "tokens", "completion_probabilities"}}
	var res llamaCompletion
	if err := l.post(ctx, "/completion", req, &res); err != nil {
		return nil, err
	}
	return llamaPieces(res, n, v)
}

// llamaPieces turns an answer into at most n pieces, with ids when v is set.
//
// llama-server gives a token an entry in completion_probabilities once the text so far ends on a
// whole UTF-8 character; the entry's bytes are then everything not yet sent, so a character split
// over byte tokens arrives as one entry for several tokens (server-context.cpp, process_token).
// The tokens list has every id, so with the vocabulary the entry is split back into its tokens.
// Generation ends at the first entry without bytes: the end-of-generation token.
func llamaPieces(res llamaCompletion, n int, v *vocab.Vocab) ([]Piece, error) {
	if res.Content == nil {
		return nil, fmt.Errorf("%w: no content", ErrBadAnswer)
	}
	if len(res.Probs) == 0 && *res.Content != "" {
		// A server that ignored n_probs: one piece, token boundaries unknown.
		return []Piece{{ID: -1, Text: *res.Content}}, nil
	}
	var pieces []Piece
	var text strings.Builder
	next := 0 // index into res.Tokens
	for i, e := range res.Probs {
		if e.ID == nil || *e.ID < 0 || (v != nil && int(*e.ID) >= v.Size()) {
			return nil, fmt.Errorf("%w: entry %d has no valid token id", ErrBadAnswer, i)
		}
		b := make([]byte, len(e.Bytes))
		for j, c := range e.Bytes {
			if c < 0 || c > 255 {
				return nil, fmt.Errorf("%w: entry %d has a byte out of range", ErrBadAnswer, i)
			}
			b[j] = byte(c)
		}
		if len(b) == 0 {
			break
		}
		if s, _ := pieceOf(v, *e.ID); v != nil && s == "" {
			break // a control token spelled out by a server started with --special
		}
		text.Write(b)
		if v == nil {
			pieces = append(pieces, Piece{ID: -1, Text: string(b)})
			continue
		}
		if len(res.Tokens) == 0 {
			// A server without return_tokens: an entry is one token when its bytes are that
			// token's; otherwise its boundaries are unknown and token mode stops there.
			p := Piece{ID: -1, Text: string(b)}
			if s, ok := v.Piece(*e.ID); ok && s == p.Text {
				p.ID = *e.ID
			}
			pieces = append(pieces, p)
			continue
		}
		var got strings.Builder
		for got.Len() < len(b) {
			if next >= len(res.Tokens) {
				return nil, fmt.Errorf("%w: fewer token ids than entries", ErrBadAnswer)
			}
			id := res.Tokens[next]
			s, ok := v.Piece(id)
			if !ok {
				return nil, fmt.Errorf("%w: token id %d is not in the configured tokenizer", ErrBadAnswer, id)
			}
			got.WriteString(s)
			pieces = append(pieces, Piece{ID: id, Text: s})
			next++
		}
		if got.String() != string(b) || res.Tokens[next-1] != *e.ID {
			return nil, fmt.Errorf("%w: token ids do not spell entry %d (is draft.tokenizer_gguf the served model?)", ErrBadAnswer, i)
		}
	}
	// The content is every generated byte (plus a tail still inside a character), so the pieces
	// must spell a prefix of it; the JSON encoder replaces invalid UTF-8, so only valid text is
	// compared.
	if s := text.String(); utf8.ValidString(s) && !strings.HasPrefix(*res.Content, s) {
		return nil, fmt.Errorf("%w: the token entries do not spell the content", ErrBadAnswer)
	}
	// n_predict may be exceeded to finish a character.
	return pieces[:min(len(pieces), n)], nil
}

func pieceOf(v *vocab.Vocab, id int32) (string, bool) {
	if v == nil {
		return "", false
	}
	return v.Piece(id)
}

// post sends a JSON request and decodes the answer. Errors name the endpoint and llama-server's
// status and error type, never a body: both would carry prompt text.
func (l *LlamaServer) post(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("drafter: encode %s request: %w", path, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base.JoinPath(path).String(), bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("drafter: llama-server %s: %w", path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := l.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("drafter: llama-server %s: %w", path, ctx.Err())
		}
		// The *url.Error names the URL, which holds no text; its cause does not either.
		return fmt.Errorf("drafter: llama-server %s: %w", path, err)
	}
	defer resp.Body.Close()
	r := io.LimitReader(resp.Body, maxLlamaAnswer)
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct {
				Type string `json:"type"`
			} `json:"error"`
		}
		_ = json.NewDecoder(r).Decode(&e)
		typ := e.Error.Type
		if len(typ) > 64 || strings.ContainsFunc(typ, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z') }) {
			typ = "" // only an enum-like type is repeated
		}
		return fmt.Errorf("drafter: llama-server %s: status %d %s", path, resp.StatusCode, typ)
	}
	if err := json.NewDecoder(r).Decode(out); err != nil {
		return fmt.Errorf("%w: %s: %s", ErrBadAnswer, path, jsonErrorKind(err))
	}
	return nil
}

// jsonErrorKind describes a decoding error without the offending value (json.UnmarshalTypeError
// quotes none, but a SyntaxError's context could in future versions; keep only the kind).
func jsonErrorKind(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("field %q is not a %s", te.Field, te.Type)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated JSON"
	}
	return "undecodable JSON"
}
