package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/wire"
)

// serveGuard answers an OpGuard request with the guard model's verdict: categories by code, never
// the model's raw answer, and nothing of the text in logs or errors.
func (s *Server) serveGuard(ctx context.Context, str *quic.Stream, body []byte) string {
	if s.cfg.Guard == nil {
		_ = writeError(str, &chat.Error{Status: http.StatusNotImplemented, Type: "api_error", Code: "guard_not_configured",
			Message: "this gateway has no guard model configured (--guard-model)"})
		return "bad_request"
	}
	var req wire.GuardRequest
	if json.Unmarshal(body, &req) != nil {
		_ = writeError(str, &chat.Error{Status: http.StatusBadRequest, Type: "invalid_request_error", Code: "protocol_error",
			Message: "a guard request body must be {kind, text}"})
		return "bad_request"
	}
	if guard.Kind(req.Kind) != s.cfg.Guard.Kind() {
		_ = writeError(str, &chat.Error{Status: http.StatusBadRequest, Type: "invalid_request_error", Code: "guard_kind_unavailable",
			Message: fmt.Sprintf("this gateway's guard model is of kind %s", s.cfg.Guard.Kind())})
		return "bad_request"
	}
	v, err := s.cfg.Guard.Classify(ctx, req.Text)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return "cancelled"
		}
		_ = writeError(str, &chat.Error{Status: http.StatusBadGateway, Type: "api_error", Code: "guard_failed",
			Message: "the datacenter guard model gave no verdict (" + guardReason(err) + ")", RetryAfter: 5 * time.Second})
		return "upstream_error"
	}
	out := wire.GuardVerdict{Kind: string(v.Kind), Malicious: v.Malicious, Score: v.Score}
	if out.Kind == "" {
		out.Kind = string(s.cfg.Guard.Kind())
	}
	for _, c := range v.Categories {
		out.Categories = append(out.Categories, c.Code)
	}
	b, _ := json.Marshal(out)
	_ = wire.WriteJSON(str, wire.TypeResponse, wire.Response{Status: http.StatusOK, Body: b})
	return "ok"
}

// guardReason names a classifier failure without its text (which could quote the model's answer).
func guardReason(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, guard.ErrMalformedOutput):
		return "malformed answer"
	case errors.Is(err, guard.ErrBackend):
		return "model server failed"
	}
	return "error"
}
