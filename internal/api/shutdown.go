package api

import (
	"context"
	"errors"
	"time"

	"github.com/sucursal/sucursal/internal/chat"
)

// CodeShuttingDown is the error code of a request refused, or ended, because the agent is
// stopping (SIGTERM: a restart, an upgrade, a reboot).
const CodeShuttingDown = "shutting_down"

// ErrShuttingDown is the cause the agent cancels requests' contexts with when its shutdown grace
// is over: a request whose context ends for it is answered with CodeShuttingDown (a 503 before the
// first byte, a terminal SSE error event after it) instead of being taken for a client gone.
var ErrShuttingDown = errors.New("api: the edge agent is shutting down")

// shutdownRetryAfter is the Retry-After of a shutting_down answer: about the time a NUC takes to
// come back from a restart.
const shutdownRetryAfter = 5 * time.Second

// Drain makes the endpoint refuse new chat requests with 503 shutting_down (and close their
// connections) while the requests already in flight go on. The agent calls it on SIGTERM, before
// the server stops accepting connections.
func (s *Server) Drain() { s.draining.Store(true) }

// InFlight is the number of chat requests being served.
func (s *Server) InFlight() int64 { return s.active.Load() }

func shuttingDown(what string) *chat.Error {
	return chat.Unavailable(CodeShuttingDown, "the edge agent is shutting down ("+what+"); retry in a few seconds", shutdownRetryAfter)
}

// stopped reports whether ctx ended because the agent's shutdown grace was over.
func stopped(ctx context.Context) bool {
	return ctx.Err() != nil && errors.Is(context.Cause(ctx), ErrShuttingDown)
}
