package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/openaicompat"
)

// Target states as /readyz reports them.
const (
	targetUnknown     = "unknown"
	targetUp          = "up"
	targetUnreachable = chat.CodeTargetUnreachable
	targetFailing     = "target_failing" // reachable, but GET /models answers an error
)

// targetHealth is what the gateway knows about its target: a probe (GET /models) every interval,
// and what requests just saw. It is how a dead target shows as a dead target — on the gateway's
// /readyz and in its log — while edge links stay up.
type targetHealth struct {
	t   *openaicompat.Client
	log *slog.Logger

	mu    sync.Mutex
	state string
	since time.Time
	kick  chan struct{}
}

func newTargetHealth(t *openaicompat.Client, log *slog.Logger) *targetHealth {
	return &targetHealth{t: t, log: log, state: targetUnknown, since: time.Now(), kick: make(chan struct{}, 1)}
}

// run probes until ctx ends.
func (h *targetHealth) run(ctx context.Context, every time.Duration) {
	for {
		h.probe(ctx, every)
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		case <-h.kick:
		}
	}
}

func (h *targetHealth) probe(ctx context.Context, timeout time.Duration) {
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	status, _, err := h.t.Get(pctx, "/models")
	switch {
	case ctx.Err() != nil:
	case err != nil && (errors.Is(err, openaicompat.ErrUnreachable) || errors.Is(err, context.DeadlineExceeded)):
		h.set(targetUnreachable)
	case err != nil || status/100 != 2:
		h.set(targetFailing)
	default:
		h.set(targetUp)
	}
}

// observe records what a request's outcome says about the target.
func (h *targetHealth) observe(outcome string) {
	switch outcome {
	case "ok":
		h.set(targetUp)
	case "upstream_unreachable":
		if h.set(targetUnreachable) {
			select { // confirm (or refute) with a probe now rather than at the next tick
			case h.kick <- struct{}{}:
			default:
			}
		}
	}
}

// set changes the state and logs a change; it reports whether the state changed.
func (h *targetHealth) set(state string) bool {
	h.mu.Lock()
	from := h.state
	if from == state {
		h.mu.Unlock()
		return false
	}
	h.state, h.since = state, time.Now()
	h.mu.Unlock()
	if state == targetUp {
		h.log.Info("target reachable", "from", from)
	} else {
		h.log.Warn("target not serving", "state", state, "from", from)
	}
	return true
}

func (h *targetHealth) get() (string, time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.state, h.since
}

// ReadyHandler is the gateway's /readyz: 200 while it accepts requests and its target answers,
// 503 with a reason (draining, target_unreachable, target_failing, target_unknown) otherwise.
// It names no address: the log says which target and why.
func (s *Server) ReadyHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		state, since := s.target.get()
		body := map[string]any{"status": "ready", "target": state, "target_since": since.UTC().Format(time.RFC3339),
			"edges": len(s.edges()), "streams": s.inflight.count()}
		code := http.StatusOK
		switch {
		case s.Draining():
			body["status"], body["reason"] = "not_ready", "draining"
			code = http.StatusServiceUnavailable
		case state != targetUp:
			reason := state
			if state == targetUnknown {
				reason = "target_unknown"
			}
			body["status"], body["reason"] = "not_ready", reason
			code = http.StatusServiceUnavailable
		}
		b, _ := json.Marshal(body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = w.Write(append(b, '\n'))
	})
}
