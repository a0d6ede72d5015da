package agent

import (
	"slices"
	"sync"
	"time"

	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// health is what this edge reports to the fleet for its roles, so rollout gates can compare
// edges on a new version with edges on the old one: requests, errors, failovers and TTFT p95
// since the role last switched version. Every request crosses every local role (guard,
// redaction's NER, drafter, fallback), so each role sees the same request stream; what differs
// is the window, which restarts when that role's version changes.
type health struct {
	mu    sync.Mutex
	roles map[string]*roleHealth
}

type roleHealth struct {
	h    fleetapi.Health
	ttft []time.Duration // ring of the most recent TTFTs
	next int
}

const ttftSamples = 1024

func newHealth() *health { return &health{roles: map[string]*roleHealth{}} }

// Health implements sync.HealthSource.
func (h *health) Health(role string) fleetapi.Health {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.roles[role]
	if !ok {
		// A role not seen yet starts its window now, with whatever comes next.
		h.roles[role] = &roleHealth{}
		return fleetapi.Health{}
	}
	out := r.h
	if n := len(r.ttft); n > 0 {
		s := slices.Clone(r.ttft)
		slices.Sort(s)
		out.TTFTP95Ms = float64(s[(n-1)*95/100].Microseconds()) / 1000
	}
	return out
}

// switched restarts a role's window: the new version is measured on its own.
func (h *health) switched(role string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.roles[role] = &roleHealth{}
}

func (h *health) record(ttft time.Duration, failed, failedOver bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.roles {
		r.h.Requests++
		if failed {
			r.h.Errors++
		}
		if failedOver {
			r.h.Failovers++
		}
		if ttft > 0 {
			if len(r.ttft) < ttftSamples {
				r.ttft = append(r.ttft, ttft)
			} else {
				r.ttft[r.next] = ttft
				r.next = (r.next + 1) % ttftSamples
			}
		}
	}
}

// Observe implements pipeline.Observer: the path's outermost stage reports every request's
// outcome. An answer that did not come from the primary DC counts as a failover.
func (h *health) Observe(o pipeline.Outcome) {
	h.record(o.TTFT, o.Failed, o.Backend != "" && o.Backend != failover.PrimaryBackend)
}
