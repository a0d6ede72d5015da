package link

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/sucursal/sucursal/internal/wire"
)

// ErrDraftRefused means the gateway answered a drafting round with an error frame: it does not
// verify drafts, the session expired, the request is not draftable. The edge streams plain.
var ErrDraftRefused = errors.New("link: the gateway refused the drafting round")

// DraftRefusedError carries the gateway's error code (never its message, which the edge does not
// need and must not log verbatim).
type DraftRefusedError struct {
	Status int
	Code   string
}

func (e *DraftRefusedError) Error() string {
	return fmt.Sprintf("link: the gateway refused the drafting round: %d %s", e.Status, codeOnly(e.Code))
}

func (e *DraftRefusedError) Unwrap() error { return ErrDraftRefused }

// Verify sends one drafting round (its own stream: see wire.OpDraft) and returns the checked
// result. A result inconsistent with the round wraps wire.ErrBadVerifyResult; errors never quote
// the draft.
//
// In token mode v.Draft is the text of v.Tokens as the edge decodes them: it is used to check the
// result and is not sent (the DC decodes the ids with its own copy of the tokenizer).
func (c *Client) Verify(ctx context.Context, requestID string, v wire.Verify) (wire.VerifyResult, error) {
	onWire := v
	if v.Mode == wire.DraftModeToken {
		onWire.Draft = ""
	}
	body, err := json.Marshal(onWire)
	if err != nil {
		return wire.VerifyResult{}, fmt.Errorf("link: encode draft round: %w", err)
	}
	// The draft's text is checked at the exit even when only its ids travel.
	f, err := c.draftCall(ctx, wire.Request{Op: wire.OpDraft, RequestID: requestID, Body: body}, wire.TypeVerifyResult, v.Draft)
	if err != nil {
		return wire.VerifyResult{}, err
	}
	return wire.ParseVerifyResult(f.Payload, v)
}

// draftCall sends a drafting request on its own stream and returns the answer frame, which must
// be of type want; an error frame is a *DraftRefusedError, any other frame wire.ErrBadVerifyResult.
func (c *Client) draftCall(ctx context.Context, req wire.Request, want wire.Type, extra ...string) (wire.Frame, error) {
	call, err := c.open(ctx, req, extra...)
	if err != nil {
		return wire.Frame{}, err
	}
	defer call.Close()
	f, err := call.Next()
	if err != nil {
		if ctx.Err() != nil {
			return wire.Frame{}, ctx.Err()
		}
		return wire.Frame{}, err
	}
	switch f.Type {
	case want:
		return f, nil
	case wire.TypeError:
		var e wire.Error
		if f.Decode(&e) != nil {
			return wire.Frame{}, fmt.Errorf("%w: unreadable error frame", wire.ErrBadVerifyResult)
		}
		return wire.Frame{}, &DraftRefusedError{Status: e.Status, Code: e.Code}
	}
	return wire.Frame{}, fmt.Errorf("%w: answered with a %s frame", wire.ErrBadVerifyResult, f.Type)
}

// DraftHello asks the gateway how drafts for h.Model will travel (see wire.OpDraftHello). A
// gateway that does not draft answers with a *DraftRefusedError.
func (c *Client) DraftHello(ctx context.Context, h wire.DraftHello) (wire.DraftHelloResult, error) {
	body, err := json.Marshal(h)
	if err != nil {
		return wire.DraftHelloResult{}, fmt.Errorf("link: encode draft hello: %w", err)
	}
	f, err := c.draftCall(ctx, wire.Request{Op: wire.OpDraftHello, Body: body}, wire.TypeResponse)
	if err != nil {
		return wire.DraftHelloResult{}, err
	}
	var r wire.Response
	var res wire.DraftHelloResult
	if f.Decode(&r) != nil || json.Unmarshal(r.Body, &res) != nil {
		return wire.DraftHelloResult{}, fmt.Errorf("%w: unreadable draft hello answer", wire.ErrBadVerifyResult)
	}
	if res.Mode != "" && !slices.Contains(h.Modes, res.Mode) {
		return wire.DraftHelloResult{}, fmt.Errorf("%w: the gateway chose a mode the edge did not offer", wire.ErrBadVerifyResult)
	}
	return res, nil
}
