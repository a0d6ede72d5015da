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

// OpDraftHello settles, once per connection and target model, how drafts travel: the edge names
// its drafter's tokenizer fingerprint and the modes it can speak, the DC answers with the mode it
// chose (token mode only when the fingerprints are equal), the target's fingerprint, its verifier
// backend and the typical cost of a target pass. Request{Op: OpDraftHello, Body: DraftHello} is
// answered by a Response whose Body is a DraftHelloResult, or an Error (a gateway that does not
// draft answers unsupported_operation or drafting_not_configured).
const OpDraftHello = "draft.hello"

// Draft modes. In token mode the draft is token ids of the tokenizer both sides share and the
// target accepts draft tokens while each is its own top-1; in text mode the draft is text and the
// target accepts the longest run of its own tokens that spells a prefix of it, so a drafter with
// another tokenizer costs acceptance, never correctness.
const (
	DraftModeToken = "token"
	DraftModeText  = "text"
)

// MaxDraftTokens bounds one round's draft in token mode.
const MaxDraftTokens = 64

// DraftHello is the Body of an OpDraftHello request.
type DraftHello struct {
	// Model is the target model the edge will ask to verify drafts for.
	Model string `json:"model"`
	// Fingerprint is the drafter's tokenizer fingerprint (vocab.Fingerprint.String()); empty when
	// the edge does not know it (text mode only).
	Fingerprint string `json:"fingerprint,omitempty"`
	// Modes are the modes the edge accepts, preferred first.
	Modes []string `json:"modes"`
}

// DraftHelloResult answers a DraftHello.
type DraftHelloResult struct {
	// Mode is the one chosen; empty when none of the edge's modes can be served, with Reason.
	Mode   string `json:"mode,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Fingerprint is the target's tokenizer fingerprint, when the verifier knows it.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Verifier names the backend ("ollama", "vllm").
	Verifier string `json:"verifier"`
	// PassMillis is the recent typical cost of one target pass (EWMA; 0 before the first), so a
	// fresh edge can decide whether drafting can beat plain streaming before it tries.
	PassMillis float64 `json:"pass_ms,omitempty"`
}

// Reasons a DraftHelloResult gives for choosing no mode.
const (
	HelloTokenizerMismatch = "tokenizer_mismatch"
	HelloNoTokenMode       = "token_mode_unsupported"
)

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
	// Draft is the drafter's proposal in text mode, continuing the text both sides have accepted
	// so far.
	Draft string `json:"draft,omitempty"`
	// Tokens is the proposal in token mode: ids of the shared tokenizer.
	Tokens []int32 `json:"tokens,omitempty"`
	// Fingerprint is the drafter's tokenizer fingerprint (first round of a token-mode session):
	// the DC refuses the session if its target's differs, even if an earlier hello agreed (the
	// target model may have changed since).
	Fingerprint string `json:"fingerprint,omitempty"`
}

// VerifyResult answers one round.
type VerifyResult struct {
	Session string `json:"session"`
	Round   int    `json:"round"`
	// Accepted is how many bytes of the draft the target produced itself (text mode: a prefix,
	// ending on a target token boundary; token mode: the bytes of the accepted tokens).
	Accepted int `json:"accepted"`
	// AcceptedTokens is how many target tokens those bytes are (token mode: how many of the
	// draft's tokens were accepted).
	AcceptedTokens int `json:"accepted_tokens"`
	// Next is the target's own token after the accepted prefix: a correction when the draft went
	// wrong, the bonus token when all of it was accepted. Empty when the answer ended.
	Next  string `json:"next,omitempty"`
	Bonus bool   `json:"bonus,omitempty"`
	// NextToken is Next's id when the verifier knows it (token mode; informational).
	NextToken *int32 `json:"next_token,omitempty"`
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
//
// In token mode the edge passes its draft's text as sent.Draft (it is not sent on the wire) so the
// accepted byte count can be checked against the accepted tokens.
func ParseVerifyResult(payload []byte, sent Verify) (VerifyResult, error) {
	var r VerifyResult
	if err := json.Unmarshal(payload, &r); err != nil {
		return VerifyResult{}, fmt.Errorf("%w: not JSON (%d bytes)", ErrBadVerifyResult, len(payload))
	}
	if sent.Mode == DraftModeToken {
		switch {
		case r.AcceptedTokens < 0 || r.AcceptedTokens > len(sent.Tokens):
			return VerifyResult{}, fmt.Errorf("%w: accepted %d of %d tokens", ErrBadVerifyResult, r.AcceptedTokens, len(sent.Tokens))
		case r.Bonus && r.AcceptedTokens != len(sent.Tokens):
			return VerifyResult{}, fmt.Errorf("%w: bonus token after a partial acceptance", ErrBadVerifyResult)
		}
	} else if r.NextToken != nil {
		return VerifyResult{}, fmt.Errorf("%w: a token id in a text-mode result", ErrBadVerifyResult)
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

// ErrDraftRefused means the gateway answered a drafting operation with an error frame: it does
// not verify drafts, the session expired, the request is not draftable. The edge streams plain.
var ErrDraftRefused = errors.New("wire: the gateway refused the drafting round")

// DraftRefusedError carries the gateway's status and error code — never its message, which the
// edge does not need and must not log verbatim.
type DraftRefusedError struct {
	Status int
	Code   string
}

func (e *DraftRefusedError) Error() string {
	return fmt.Sprintf("wire: the gateway refused the drafting round: %d %s", e.Status, CodeOnly(e.Code))
}

func (e *DraftRefusedError) Unwrap() error { return ErrDraftRefused }

// CodeOnly keeps a peer's error code printable and short, for the edge's errors and logs: it is
// the only part of the gateway's error text the edge repeats.
func CodeOnly(code string) string {
	if len(code) > 40 {
		code = code[:40]
	}
	for _, r := range code {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return "?"
		}
	}
	return code
}
