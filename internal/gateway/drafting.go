package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/wire"
)

// Drafting serves the speculative-drafting operations on their request bodies (*drafting.Service
// is one): Hello for wire.OpDraftHello, Round for wire.OpDraft. The gateway only carries them:
// the result, or the OpenAI-shaped error, goes back on the request's stream unchanged.
type Drafting interface {
	Hello(ctx context.Context, body []byte) (wire.DraftHelloResult, *chat.Error)
	Round(ctx context.Context, body []byte) (wire.VerifyResult, *chat.Error)
}

// serveDraft answers one drafting round. Nothing of the text reaches logs or errors.
func (s *Server) serveDraft(ctx context.Context, str *quic.Stream, body []byte) string {
	return serveDrafting(ctx, str, s.cfg.Drafting, func(d Drafting) (wire.Type, any, *chat.Error) {
		res, cerr := d.Round(ctx, body)
		return wire.TypeVerifyResult, res, cerr
	})
}

// serveDraftHello answers an OpDraftHello: which mode drafts for a model travel in.
func (s *Server) serveDraftHello(ctx context.Context, str *quic.Stream, body []byte) string {
	return serveDrafting(ctx, str, s.cfg.Drafting, func(d Drafting) (wire.Type, any, *chat.Error) {
		res, cerr := d.Hello(ctx, body)
		b, _ := json.Marshal(res)
		return wire.TypeResponse, wire.Response{Status: http.StatusOK, Body: b}, cerr
	})
}

// serveDrafting writes what answer returns, or its error, or drafting_not_configured on a
// gateway without a verifier; it returns the stream's outcome label.
func serveDrafting(ctx context.Context, str *quic.Stream, d Drafting, answer func(Drafting) (wire.Type, any, *chat.Error)) string {
	if d == nil {
		_ = writeError(str, &chat.Error{Status: http.StatusNotImplemented, Type: "api_error", Code: "drafting_not_configured",
			Message: "this gateway does not verify drafts (--draft-verifier)"})
		return "bad_request"
	}
	typ, res, cerr := answer(d)
	if cerr != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return "cancelled"
		}
		_ = writeError(str, cerr)
		return "draft_" + cerr.Code
	}
	_ = wire.WriteJSON(str, typ, res)
	return "ok"
}
