package failover

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// Backend is one place a generation request can go.
type Backend struct {
	Name    string
	Handler pipeline.Handler
	// Ready is a cheap, current health signal (the QUIC link is up and not draining); nil means
	// always ready. Its error's text is shown on /readyz: a reason code and a sentence.
	Ready   func() (bool, error)
	Breaker *Breaker
	// Connections, if set, changes whenever the backend's connection is re-established: the
	// breaker then closes at once instead of waiting out its backoff (the failures it counted
	// were the old connection's).
	Connections func() uint64
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
	st       []backendState // per backend, same order
}

// backendState is what the router remembers of a backend between requests.
type backendState struct {
	conns      atomic.Uint64 // the Connections value the breaker last saw
	targetDown atomic.Int64  // unix ns of the last target fault not followed by a success; 0 = none
}

// NewRouter returns a router over backends, in order of preference.
func NewRouter(backends []Backend, p Policy, reg prometheus.Registerer, log *slog.Logger) *Router {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 2
	}
	if p.RetryAfter <= 0 {
		p.RetryAfter = 5 * time.Second
	}
	r := &Router{backends: backends, p: p, log: log, m: newMetrics(reg), st: make([]backendState, len(backends))}
	r.m.registerBreakers(reg, backends)
	return r
}

// ServeChat implements pipeline.Handler.
func (r *Router) ServeChat(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
	tw := &tracking{ResponseWriter: w}
	attempts := 0
	var lastErr error
	for i, b := range r.backends {
		r.refresh(i)
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
			r.st[i].targetDown.Store(0)
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
		switch {
		case b.Degraded || !gatewayAnswered(err):
			r.record(b, false)
		case gatewayRefused(err):
			r.record(b, true) // busy or draining: the link works; the next request may go here again
		default:
			// The link carried the request and the gateway answered: its target failed. That
			// is no reason to stop using the link (the breaker guards the link), but the user
			// is told what failed and the endpoint's status shows it.
			r.record(b, true)
			r.st[i].targetDown.Store(time.Now().UnixNano())
			r.m.targetFaults.WithLabelValues(b.Name).Inc()
		}
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
		if errors.As(lastErr, &ce) && (ce.Status != http.StatusServiceUnavailable || ce.Code != chat.CodeDCUnavailable) {
			return lastErr // the last endpoint's own answer says more (busy, draining, its target down)
		}
	}
	r.m.unavailable.Inc()
	return chat.Unavailable(chat.CodeDCUnavailable,
		"no datacenter endpoint can serve this branch right now and no local fallback is allowed; try again shortly", r.p.RetryAfter)
}

// refresh closes backend i's breaker when its connection was re-established since last seen.
func (r *Router) refresh(i int) {
	b := r.backends[i]
	if b.Connections == nil || b.Breaker == nil {
		return
	}
	n := b.Connections()
	if old := r.st[i].conns.Swap(n); old != n {
		b.Breaker.Reset()
	}
}

// linkFaults are the codes that mean the way to the gateway failed, as the edge's DC client
// reports it; any other backend fault is one the gateway answered.
var linkFaults = map[string]bool{
	chat.CodeDCUnavailable: true, chat.CodeDCConnectionLost: true, chat.CodeDCUnresponsive: true, chat.CodeDCProtocolError: true,
}

// gatewayAnswered reports whether err is an answer of the gateway (its target failed, or it
// refused the request), as opposed to a failure of the link.
func gatewayAnswered(err error) bool {
	var ce *chat.Error
	return errors.As(err, &ce) && !linkFaults[ce.Code]
}

// gatewayRefused reports whether the gateway turned the request away for its own reasons (its
// stream limit, a drain): neither the link nor the target failed.
func gatewayRefused(err error) bool {
	var ce *chat.Error
	return errors.As(err, &ce) && (ce.Code == chat.CodeDCBusy || ce.Code == chat.CodeDCDraining)
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
	// Target is "unreachable" while the last request this backend's gateway answered found its
	// model server failing (until one succeeds); empty otherwise.
	Target string `json:"target,omitempty"`
}

// targetMemory is how long a target fault shows in Status without a request to confirm it.
const targetMemory = 30 * time.Second

// Status reports every backend.
func (r *Router) Status() []Status {
	out := make([]Status, 0, len(r.backends))
	for i, b := range r.backends {
		r.refresh(i)
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
		if t := r.st[i].targetDown.Load(); t != 0 && time.Since(time.Unix(0, t)) < targetMemory {
			s.Target = "unreachable"
		}
		out = append(out, s)
	}
	return out
}

// ReasonBreakerOpen is the readiness reason of a DC endpoint whose link is up but whose breaker
// is open (its requests failed in a row).
const ReasonBreakerOpen = "dc_breaker_open"

// Ready is the branch's readiness: at least one datacenter endpoint whose link is up (and not
// draining) and whose breaker is not open. A local degraded model does not make a branch ready.
// When none is, the error is the first endpoint's reason (a code and a sentence, without
// addresses: the log has those).
func (r *Router) Ready() (bool, error) {
	var first error
	for i, b := range r.backends {
		if b.Degraded {
			continue
		}
		r.refresh(i)
		if b.Ready != nil {
			if ok, err := b.Ready(); !ok {
				if first == nil {
					first = err
					if first == nil {
						first = errors.New("dc_link_down: no connection to the datacenter gateway")
					}
				}
				continue
			}
		}
		if b.Breaker != nil && b.Breaker.State() == Open {
			if first == nil {
				first = errors.New(ReasonBreakerOpen + ": requests to the datacenter failed in a row; retrying after a backoff")
			}
			continue
		}
		return true, nil
	}
	if first == nil {
		first = errors.New("dc_link_down: no datacenter endpoint is configured")
	}
	return false, first
}
