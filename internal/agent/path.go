package agent

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/dc"
	"github.com/sucursal/sucursal/internal/drafter"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/redact"
)

// pathParts are what the request path is made of.
type pathParts struct {
	cfg        Config
	health     *health
	guard      *guard.Guard // nil: no guard models
	redactor   *redact.Redactor
	dcs        []*dc.Client // the primary first, then the secondaries
	localModel func() string
	reg        prometheus.Registerer
	log        *slog.Logger
}

// localBackend names the local degraded model in the router.
const localBackend = "local-degraded"

// requestPath is the whole request path, in the order a request travels it; the answer travels
// back up through the same stages. The rule, as in CoreDNS's plugin list: a stage feels the
// effects of every stage below it and must not care what is above it. Everything below Redact
// sees placeholders only, and a DC client — through its exit check — is the only way out of the
// branch. The router is returned too: /readyz shows its breakers, model sync resets one.
func requestPath(p pathParts) (pipeline.Handler, *failover.Router) {
	var backends []failover.Backend
	for i, c := range p.dcs {
		name := failover.PrimaryBackend
		if i > 0 {
			name = "dc-secondary-" + c.Addr()
		}
		backends = append(backends, failover.Backend{
			Name: name, Ready: c.Ready, Connections: c.Connections, // a re-established link closes its breaker at once
			Breaker: failover.NewBreaker(name, p.cfg.Failover.Breaker, nil, p.breakerChanged),
			Handler: pipeline.Chain(
				drafter.Stage(p.cfg.Draft, c, // greedy answers drafted on the NUC, verified by the DC; the rest goes plain
					prometheus.WrapRegistererWith(prometheus.Labels{"dc": c.Addr()}, p.reg), p.log.With("component", "drafter", "dc", c.Addr())),
			)(pipeline.ForwardToDC(c)), // the exit: the DC client's exit check, then QUIC to this gateway
		})
	}
	if lc := p.cfg.Failover.Local; lc.Enabled {
		backends = append(backends, failover.Backend{
			Name: localBackend, Degraded: true, Breaker: failover.NewBreaker(localBackend, p.cfg.Failover.Breaker, nil, p.breakerChanged),
			Handler: failover.LocalModel(openaicompat.New(lc.URL, ""), p.localModel), // a degraded answer from the NUC's own runtime
		})
	}
	router := failover.NewRouter(backends, failover.Policy{MaxAttempts: p.cfg.Failover.MaxAttempts, RetryAfter: chat.DCRetryAfter},
		p.reg, p.log.With("component", "failover"))

	return front(p)(router), router // the primary DC, then the secondaries, then the local model if allowed
}

// front is the part of the path above the router, the part a reload rebuilds (SIGHUP: the guard
// and the redaction policy); the router, its breakers and the DC clients below it stay.
func front(p pathParts) pipeline.Stage {
	sequential := p.cfg.Guard.Mode == "sequential"
	return pipeline.Chain(
		p.health.stage(), // what users saw (first byte, token gaps, tokens, failures, failovers), for rollout gates and the fleet's usage summary
		pipeline.When(p.guard != nil, pipeline.Guard(p.guard)), // the prompt check starts on the raw text beside redaction; the answer is checked on its way up
		pipeline.When(sequential, pipeline.AwaitChecks()),      // guard.mode sequential: the verdict before redaction (only to measure what concurrency buys)
		pipeline.Redact(p.redactor, p.redactLimits()),          // personal data → placeholders; the answer is rehydrated on its way up
		pipeline.AwaitChecks(),                                 // nothing leaves the branch before the guard's verdict
	)
}

func (p pathParts) breakerChanged(name string, from, to failover.State) {
	p.log.Warn("circuit breaker changed state", "backend", name, "from", from.String(), "to", to.String())
}

// redactLimits is what one request's vault may hold (admission's per-request cost bounds).
func (p pathParts) redactLimits() pipeline.RedactLimits {
	return pipeline.RedactLimits{MaxEntities: p.cfg.Admission.MaxEntities, MaxVaultBytes: p.cfg.Admission.MaxVaultBytes}
}
