package agent

import (
	"crypto/tls"
	"log/slog"
	"net"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/drafter"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/openaicompat"
)

// localBackend names the local degraded model in the router.
const localBackend = "local-degraded"

// dcLinks makes one QUIC link per datacenter endpoint: the primary first, then dc_secondary in
// order. Each checks the gateway certificate against dc_server_name or its own host.
func dcLinks(cfg Config, base *tls.Config, exit link.Exit, reg prometheus.Registerer, log *slog.Logger) []*link.Client {
	addrs := append([]string{cfg.DC}, cfg.DCSecondary...)
	links := make([]*link.Client, 0, len(addrs))
	for i, addr := range addrs {
		tc := base.Clone()
		if cfg.DCServerName != "" {
			tc.ServerName = cfg.DCServerName
		} else if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
			tc.ServerName = host
		}
		// Every link's metrics carry its address and role, so dashboards can follow the primary.
		role := "primary"
		if i > 0 {
			role = "secondary"
		}
		r := prometheus.WrapRegistererWith(prometheus.Labels{"dc": addr, "dc_role": role}, reg)
		links = append(links, link.New(link.Config{
			Addr: addr, EdgeID: cfg.EdgeID, Software: "edge-agent/" + Version, TLS: tc,
			DialTimeout: cfg.Link.DialTimeout, KeepAlive: cfg.Link.KeepAlive, IdleTimeout: cfg.Link.IdleTimeout,
			BackoffMin: cfg.Link.BackoffMin, BackoffMax: cfg.Link.BackoffMax, Exit: exit,
		}, r, log.With("component", "link", "dc", addr)))
	}
	return links
}

// router is the pipeline's terminal: the DC endpoints in order, each behind a breaker, then the
// local degraded model if the policy allows one.
func router(cfg Config, links []*link.Client, localModel func() string, reg prometheus.Registerer, log *slog.Logger) *failover.Router {
	onChange := func(name string, from, to failover.State) {
		log.Warn("circuit breaker changed state", "backend", name, "from", from.String(), "to", to.String())
	}
	var backends []failover.Backend
	for i, l := range links {
		name := failover.PrimaryBackend
		if i > 0 {
			name = "dc-secondary-" + l.Addr()
		}
		backends = append(backends, failover.Backend{
			Name:    name,
			Handler: drafting(cfg.Draft, l, pipeline.ForwardToDC(l, pipeline.DCOptions{AcceptTimeout: cfg.Failover.AcceptTimeout}), reg, log),
			Ready:   l.Ready,
			Breaker: failover.NewBreaker(name, cfg.Failover.Breaker, nil, onChange),
		})
	}
	if lc := cfg.Failover.Local; lc.Enabled {
		backends = append(backends, failover.Backend{
			Name:     localBackend,
			Handler:  failover.LocalModel(openaicompat.New(lc.URL, ""), localModel),
			Breaker:  failover.NewBreaker("local-degraded", cfg.Failover.Breaker, nil, onChange),
			Degraded: true,
		})
	}
	return failover.NewRouter(backends, failover.Policy{MaxAttempts: cfg.Failover.MaxAttempts, RetryAfter: pipeline.DCRetryAfter},
		reg, log.With("component", "failover"))
}

// drafting wraps a DC endpoint's plain terminal in the drafter when draft.enabled (the drafter
// hands back to plain for whatever it cannot draft). Config validation has checked what the
// constructors check, so their errors cannot happen here; should one, the endpoint stays plain.
func drafting(dc DraftConfig, l *link.Client, plain pipeline.Handler, reg prometheus.Registerer, log *slog.Logger) pipeline.Handler {
	if !dc.Enabled {
		return plain
	}
	m, err := draftModel(dc)
	if err == nil {
		var t *drafter.Terminal
		r := prometheus.WrapRegistererWith(prometheus.Labels{"dc": l.Addr()}, reg)
		t, err = drafter.NewTerminal(l, m, plain, drafter.Options{GammaMin: dc.GammaMin, GammaMax: dc.GammaMax,
			Mode: dc.Mode, NoPipeline: dc.Pipeline != nil && !*dc.Pipeline}, r,
			log.With("component", "drafter", "dc", l.Addr()))
		if err == nil {
			return t
		}
	}
	log.Error("drafting disabled for this endpoint", "dc", l.Addr(), "error", err.Error())
	return plain
}

// draftModel builds the draft backend draft.backend names.
func draftModel(dc DraftConfig) (drafter.Model, error) {
	if dc.Backend == "llamacpp" {
		return drafter.NewLlamaServer(dc.URL, dc.Model, dc.TokenizerGGUF, nil)
	}
	return drafter.NewOllama(dc.OllamaURL, dc.Model, nil)
}

// anyReady is /readyz: ready while at least one DC endpoint is connected.
func anyReady(links []*link.Client) func() (bool, error) {
	return func() (bool, error) {
		var first error
		for _, l := range links {
			ok, err := l.Ready()
			if ok {
				return true, nil
			}
			if first == nil {
				first = err
			}
		}
		return false, first
	}
}
