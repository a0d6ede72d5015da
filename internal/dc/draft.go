package dc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/wire"
)

// DraftHello asks the gateway how drafts for h.Model will travel (see wire.OpDraftHello). A
// gateway that does not draft answers with a *wire.DraftRefusedError.
func (c *Client) DraftHello(ctx context.Context, h wire.DraftHello) (wire.DraftHelloResult, error) {
	body, err := json.Marshal(h)
	if err != nil {
		return wire.DraftHelloResult{}, fmt.Errorf("dc: encode draft hello: %w", err)
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

// Verify sends one drafting round (its own stream: see wire.OpDraft) and returns the checked
// result. A result inconsistent with the round wraps wire.ErrBadVerifyResult; errors never quote
// the draft.
//
// In token mode v.Draft is the text of v.Tokens as the edge decodes them: it is used to check the
// result and by the exit check, and is not sent (the DC decodes the ids with its own copy of the
// tokenizer).
func (c *Client) Verify(ctx context.Context, requestID string, v wire.Verify) (wire.VerifyResult, error) {
	onWire := v
	if v.Mode == wire.DraftModeToken {
		onWire.Draft = ""
	}
	body, err := json.Marshal(onWire)
	if err != nil {
		return wire.VerifyResult{}, fmt.Errorf("dc: encode draft round: %w", err)
	}
	f, err := c.draftCall(ctx, wire.Request{Op: wire.OpDraft, RequestID: requestID, Body: body}, wire.TypeVerifyResult, v.Draft)
	if err != nil {
		return wire.VerifyResult{}, err
	}
	return wire.ParseVerifyResult(f.Payload, v)
}

// draftCall is do for drafting operations: the gateway's error frame is a
// *wire.DraftRefusedError (the drafter goes plain), an unexpected frame wire.ErrBadVerifyResult,
// no connection ErrUnavailable; other link errors and the exit's refusal pass as they are.
func (c *Client) draftCall(ctx context.Context, req wire.Request, want wire.Type, extra ...string) (wire.Frame, error) {
	f, err := c.do(ctx, req, want, extra...)
	var fe *frameError
	switch {
	case err == nil:
		return f, nil
	case ctx.Err() != nil:
		return wire.Frame{}, ctx.Err()
	case errors.As(err, &fe):
		return wire.Frame{}, &wire.DraftRefusedError{Status: fe.e.Status, Code: fe.e.Code}
	case errors.Is(err, errUnexpectedFrame):
		return wire.Frame{}, fmt.Errorf("%w: %w", wire.ErrBadVerifyResult, err)
	case errors.Is(err, link.ErrNotConnected), errors.Is(err, link.ErrDraining):
		return wire.Frame{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return wire.Frame{}, err
}

// ErrUnavailable means there is no connection to this DC endpoint right now (drafting
// operations return it wrapped; chat and models return the user's dc_unavailable error).
var ErrUnavailable = errors.New("dc: the datacenter is unreachable")
