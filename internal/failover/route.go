package failover

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// Backend is one place a generation request can go.
type Backend struct {
	Name    string
	Handler pipeline.Handler
	// Ready is a cheap, current health signal (the QUIC link is up); nil means always ready.
	Ready   func() (bool, error)
	Breaker *Breaker
	// Degraded marks a local fallback model: answers from it carry X-Sucursal-Degraded.
	Degraded bool
}

// Policy tunes routing.
type Policy struct {
	// MaxAttempts bounds how many datacenter endpoints one request is sent to (default 2: one
	// retry). A request is only retried while nothing has reached the user. Endpoints that are
	// down or whose breaker is open are skipped without counting.
	MaxAttempts int
	// RetryAfter is the hint in the 503 when no backend can serve.
	RetryAfter time.Duration
}

// DegradedHeader is set on answers served by a local degraded model.
const DegradedHeader = "X-Sucursal-Degraded"

// BackendHeader names the backend that served an answer, for operators (stages read
// pipeline.Request.Backend).
const BackendHeader = "X-Sucursal-Backend"

// PrimaryBackend is the name the agent gives its primary DC endpoint.
const PrimaryBackend = "dc-primary"

// Router is the pipeline's terminal when failover is on: it tries the backends in order.
type Router struct {
	backends []Backend
	p        Policy
	log      *slog.Logger
	m        *metrics
}

// NewRouter returns a router over backends, in order of preference.
func NewRouter(backends []Backend, p Policy, reg prometheus.Registerer, log *slog.Logger) *Router {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 2
	}
	if p.RetryAfter <= 0 {
		p.RetryAfter = 5 * time.Second
	}
	r := &Router{backends: backends, p: p, log: log, m: newMetrics(reg)}
	r.m.registerBreakers(reg, backends)
	return r
}

// ServeChat implements pipeline.Handler.
func (r *Router) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	tw := &tracking{ResponseWriter: w}
	attempts := 0
	var lastErr error
	for _, b := range r.backends {
		// The retry budget is for datacenter endpoints; a local degraded model is the last resort
		// whatever happened before it.
		if attempts >= r.p.MaxAttempts && !b.Degraded {
			continue
		}
		if b.Ready != nil {
			if ok, _ := b.Ready(); !ok {
				r.m.skipped.WithLabelValues(b.Name, "not_ready").Inc()
				continue
			}
		}
		if b.Breaker != nil && !b.Breaker.Allow() {
			r.m.skipped.WithLabelValues(b.Name, "breaker_open").Inc()
			continue
		}
		attempts++
		if b.Degraded {
			w.Header().Set(DegradedHeader, "local-model")
		}
		w.Header().Set(BackendHeader, b.Name)
		req.Backend = b.Name
		err := b.Handler.ServeChat(ctx, req, tw)
		switch {
		case err == nil:
			r.record(b, true)
			r.m.served.WithLabelValues(b.Name).Inc()
			if b.Degraded {
				r.m.degraded.Inc()
			}
			return nil
		case ctx.Err() != nil:
			return err // the user went away: nobody's fault
		case !chat.BackendFault(err):
			r.record(b, true) // the backend worked; the request was wrong (404 model, 400…)
			return err
		}
		r.record(b, false)
		lastErr = err
		if b.Degraded {
			w.Header().Del(DegradedHeader)
		}
		if tw.wrote {
			// Part of the answer already reached the user: the pipeline ends the stream with a
			// terminal error event. Retrying would duplicate text.
			return err
		}
		r.m.retries.WithLabelValues(b.Name).Inc()
	}
	if lastErr != nil {
		var ce *chat.Error
		if errors.As(lastErr, &ce) && (ce.Status != http.StatusServiceUnavailable || ce.Code == chat.CodeDCBusy) {
			return lastErr // the last endpoint's own answer says more (a busy gateway: retry soon)
		}
	}
	r.m.unavailable.Inc()
	return chat.Unavailable(chat.CodeDCUnavailable,
		"no datacenter endpoint can serve this branch right now and no local fallback is allowed; try again shortly", r.p.RetryAfter)
}

func (r *Router) record(b Backend, ok bool) {
	if b.Breaker == nil {
		return
	}
	if ok {
		b.Breaker.Success()
	} else {
		b.Breaker.Failure()
	}
}

// tracking remembers whether anything reached the user.
type tracking struct {
	pipeline.ResponseWriter
	wrote bool
}

func (t *tracking) WriteChunk(c *chat.Chunk) error {
	t.wrote = true
	return t.ResponseWriter.WriteChunk(c)
}

func (t *tracking) WriteCompletion(c *chat.Completion) error {
	t.wrote = true
	return t.ResponseWriter.WriteCompletion(c)
}

// Breaker returns the breaker of the named backend (nil if it has none).
func (r *Router) Breaker(name string) *Breaker {
	for _, b := range r.backends {
		if b.Name == name {
			return b.Breaker
		}
	}
	return nil
}

// Status is a backend's health for /readyz and logs.
type Status struct {
	Name     string `json:"name"`
	Ready    bool   `json:"ready"`
	Reason   string `json:"reason,omitempty"`
	Breaker  string `json:"breaker"`
	Degraded bool   `json:"degraded,omitempty"`
}

// Status reports every backend.
func (r *Router) Status() []Status {
	out := make([]Status, 0, len(r.backends))
	for _, b := range r.backends {
		s := Status{Name: b.Name, Ready: true, Breaker: Closed.String(), Degraded: b.Degraded}
		if b.Ready != nil {
			ok, err := b.Ready()
			s.Ready = ok
			if !ok && err != nil {
				s.Reason = err.Error()
			}
		}
		if b.Breaker != nil {
			s.Breaker = b.Breaker.State().String()
		}
		out = append(out, s)
	}
	return out
}
