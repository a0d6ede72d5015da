package egress

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/dc"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/wire"
)

// Exit implements link.Exit with the redaction policy.
type Exit struct {
	r       *redact.Redactor
	log     *slog.Logger
	blocked *prometheus.CounterVec
	scanned *prometheus.CounterVec
	seconds prometheus.Histogram
}

var _ dc.Exit = (*Exit)(nil)

// New returns the exit check of policy r, with its metrics registered on reg (nil: none).
func New(r *redact.Redactor, reg prometheus.Registerer, log *slog.Logger) (*Exit, error) {
	e := &Exit{r: r, log: log,
		blocked: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "egress", Name: "blocked_total",
			Help: "Requests to the datacenter refused at the exit because personal data was still in them, by operation and entity type."},
			[]string{"op", "type"}),
		scanned: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "egress", Name: "checked_total",
			Help: "Requests to the datacenter checked at the exit, by operation."}, []string{"op"}),
		seconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "sucursal", Subsystem: "egress", Name: "check_seconds",
			Help: "Time to scan one request at the exit.", Buckets: []float64{25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 10e-3, 50e-3}}),
	}
	if log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{e.blocked, e.scanned, e.seconds} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

// Check scans req's body and extra texts. A hit, or a scan that could not finish (a recognizer
// timeout), refuses the request with the user's error: 422 egress_blocked naming the entity
// types, never the values.
func (e *Exit) Check(ctx context.Context, req wire.Request, extra ...string) error {
	start := time.Now()
	op := opLabel(req.Op)
	e.scanned.WithLabelValues(op).Inc()
	err := e.r.ScanEgress(ctx, req.Body, extra...)
	e.seconds.Observe(time.Since(start).Seconds())
	var be *redact.EgressBlockedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &be):
		n := 0
		for typ, c := range be.Types {
			e.blocked.WithLabelValues(op, typ).Add(float64(c))
			n += c
		}
		e.log.Warn("egress: personal data found at the exit; request not sent", "op", op, "request_id", req.RequestID,
			"types", be.Types, "values", n, "body_bytes", len(req.Body))
		return blocked(be.Types)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	e.blocked.WithLabelValues(op, "unscanned").Inc()
	e.log.Warn("egress: the exit scan could not finish; request not sent", "op", op, "request_id", req.RequestID, "body_bytes", len(req.Body))
	return blocked(nil)
}

// blocked is the user's error for a request the exit refused: redaction left personal data in
// it (a form or a field it missed), so nothing was sent.
func blocked(types map[string]int) *chat.Error {
	msg := "the request could not be checked for personal data at the exit, so nothing was sent; try again or tell the branch operator"
	if len(types) > 0 {
		msg = "the request still held personal data (" + strings.Join(slices.Sorted(maps.Keys(types)), ", ") +
			") after redaction, so nothing was sent; rephrase it or tell the branch operator"
	}
	return &chat.Error{Status: http.StatusUnprocessableEntity, Type: "invalid_request_error", Code: chat.CodeEgressBlocked, Message: msg}
}

// opLabel bounds the op label to the operations that exist.
func opLabel(op string) string {
	switch op {
	case wire.OpChatCompletions, wire.OpModels, wire.OpGuard, wire.OpDraft, wire.OpDraftHello:
		return op
	}
	return "other"
}
