package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// OpDraft is one round of speculative drafting: the edge proposes text, the DC's target accepts
// the longest prefix it would have produced itself and adds one token of its own.
//
// Each round is its own request stream (Request{Op: OpDraft, Body: Verify}) answered by one
// TypeVerifyResult frame (or an Error). Opening a stream on an established QUIC connection costs
// no round trip, and per-round streams keep the gateway's one-request-per-stream shape (its
// cancel watcher, its accepted acknowledgement) unchanged. The DC keeps the session (rendered
// prompt, text accepted so far, token budget) so a round carries only the new draft.
const OpDraft = "draft"

// Draft modes. Only text mode exists so far: token mode needs matching tokenizer fingerprints
// and a verifier that speaks token ids (vLLM), which is future work.
const DraftModeText = "text"

// MaxDraftBytes bounds one round's draft: γ tokens are a few dozen bytes, anything near this
// limit is a broken or hostile edge.
const MaxDraftBytes = 4096

// Verify is the Body of an OpDraft request. Everything in it is computed from redacted text.
type Verify struct {
	// Session is empty on the first round, which must carry Chat; later rounds name the session
	// the first VerifyResult returned.
	Session string `json:"session,omitempty"`
	// Chat is the redacted OpenAI chat request (first round only).
	Chat json.RawMessage `json:"chat,omitempty"`
	// Round counts from 1; the DC refuses a round out of order (a lost or replayed frame would
	// otherwise make the two sides disagree about the text so far).
	Round int    `json:"round"`
	Mode  string `json:"mode"`
	// Draft is the drafter's proposal, continuing the text both sides have accepted so far.
	Draft string `json:"draft"`
}

// VerifyResult answers one round.
type VerifyResult struct {
	Session string `json:"session"`
	Round   int    `json:"round"`
	// Accepted is how many bytes of the draft the target produced itself (a prefix, ending on a
	// target token boundary).
	Accepted int `json:"accepted"`
	// AcceptedTokens is how many target tokens those bytes are.
	AcceptedTokens int `json:"accepted_tokens"`
	// Next is the target's own token after the accepted prefix: a correction when the draft went
	// wrong, the bonus token when all of it was accepted. Empty when the answer ended.
	Next  string `json:"next,omitempty"`
	Bonus bool   `json:"bonus,omitempty"`
	// Done ends the answer; FinishReason is then "stop" or "length".
	Done         bool   `json:"done,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
	// PromptTokens and CompletionTokens are the target's counts so far (for usage).
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens"`
	// TargetMillis is the time the target pass took on the DC (for the edge's RTT estimate).
	TargetMillis float64 `json:"target_ms,omitempty"`
}

// ErrBadVerifyResult means a verify result that cannot be the answer to the round sent.
var ErrBadVerifyResult = errors.New("wire: inconsistent verify result")

// ParseVerifyResult decodes a TypeVerifyResult payload and checks it against the round that was
// sent: the edge appends what it accepts to the user's answer, so a result it cannot trust must
// be refused here, before a byte of it is shown. Errors never quote the payload.
func ParseVerifyResult(payload []byte, sent Verify) (VerifyResult, error) {
	var r VerifyResult
	if err := json.Unmarshal(payload, &r); err != nil {
		return VerifyResult{}, fmt.Errorf("%w: not JSON (%d bytes)", ErrBadVerifyResult, len(payload))
	}
	switch {
	case r.Session == "" || (sent.Session != "" && r.Session != sent.Session):
		return VerifyResult{}, fmt.Errorf("%w: wrong session", ErrBadVerifyResult)
	case r.Round != sent.Round:
		return VerifyResult{}, fmt.Errorf("%w: round %d answered as %d", ErrBadVerifyResult, sent.Round, r.Round)
	case r.Accepted < 0 || r.Accepted > len(sent.Draft):
		return VerifyResult{}, fmt.Errorf("%w: accepted %d of %d bytes", ErrBadVerifyResult, r.Accepted, len(sent.Draft))
	case !utf8.ValidString(sent.Draft[:r.Accepted]) || !utf8.ValidString(r.Next):
		return VerifyResult{}, fmt.Errorf("%w: accepted text is not valid UTF-8", ErrBadVerifyResult)
	case r.AcceptedTokens < 0 || r.AcceptedTokens > r.Accepted || (r.Accepted > 0 && r.AcceptedTokens == 0):
		return VerifyResult{}, fmt.Errorf("%w: %d tokens for %d bytes", ErrBadVerifyResult, r.AcceptedTokens, r.Accepted)
	case r.Bonus && r.Accepted != len(sent.Draft):
		return VerifyResult{}, fmt.Errorf("%w: bonus token after a partial acceptance", ErrBadVerifyResult)
	case r.Done && r.FinishReason != "stop" && r.FinishReason != "length":
		return VerifyResult{}, fmt.Errorf("%w: unknown finish reason", ErrBadVerifyResult)
	case !r.Done && r.Next == "" && r.Accepted == 0:
		// A round that adds nothing and does not end would loop forever.
		return VerifyResult{}, fmt.Errorf("%w: no progress", ErrBadVerifyResult)
	case len(r.Next) > MaxDraftBytes || r.CompletionTokens < 0 || r.PromptTokens < 0:
		return VerifyResult{}, fmt.Errorf("%w: out of range", ErrBadVerifyResult)
	}
	return r, nil
}
