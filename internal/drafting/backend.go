package drafting

import (
	"context"
	"strings"

	"github.com/sucursal/sucursal/internal/chat"
)

// Backend is a verifier backend: the target model's greedy path through a draft. It is
// defined here, where it is consumed (by Service); each implementation is its own package:
// ollamaverifier (the reference verifier, text and token mode) and vllmverifier (vLLM
// /v1/completions with prompt_logprobs).
type Backend interface {
	// Name is the backend as the hello reports it ("ollama", "vllm").
	Name() string
	// Fingerprint is the target model's tokenizer fingerprint (vocab.Fingerprint.String()), or ""
	// when the backend cannot know it: token mode is then not offered.
	Fingerprint(ctx context.Context, model string) (string, error)
	// Open turns the redacted chat request into the session's starting state: the exact prompt
	// the target would be fed for it (its own chat template; as text and/or token ids, whichever
	// the backend continues from), so continuing it is continuing the plain answer.
	Open(ctx context.Context, model string, turns []chat.Turn) (*PassState, error)
	// Pass returns the target's greedy tokens after st (prompt + output so far) along the draft:
	// up to and including the first token that departs from it, or, when the whole draft is the
	// target's own, one token past its end (the bonus). At most n tokens. Stopped says the target
	// ended the answer (end-of-sequence) right after the returned tokens. In token mode (d.IDs)
	// every returned token must carry its id.
	Pass(ctx context.Context, st *PassState, d Draft, n int) (PassResult, error)
}

// Token is one target token: its id (-1 when the backend does not know it) and its text.
type Token struct {
	ID   int32
	Text string
}

// Draft is one round's proposal: Text in text mode, IDs in token mode.
type Draft struct {
	Text string
	IDs  []int32
}

// PassResult is what one target pass says about a draft.
type PassResult struct {
	Tokens  []Token
	Stopped bool
	// PromptTokens is the prompt's token count, when the backend reports it.
	PromptTokens int
}

// PassState is a session's context as the backend continues it: the prompt (as text and/or ids)
// and the target tokens accepted so far, which Service appends after every round. A round
// therefore carries only the new draft; with an id-based backend nothing is ever re-tokenized.
type PassState struct {
	Model     string
	Prompt    string
	PromptIDs []int32
	Output    []Token
	output    strings.Builder
}

// OutputText is the text of the accepted output.
func (p *PassState) OutputText() string { return p.output.String() }

func (p *PassState) appendTokens(t ...Token) {
	for _, tok := range t {
		p.Output = append(p.Output, tok)
		p.output.WriteString(tok.Text)
	}
}
