package drafting

import "github.com/prometheus/client_golang/prometheus"

type metrics struct {
	sessions       prometheus.Gauge
	passes         prometheus.Counter
	draftTokens    *prometheus.CounterVec
	acceptedTokens *prometheus.CounterVec
	hellos         *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_sessions",
			Help: "Drafting sessions alive."}),
		passes: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_target_passes_total",
			Help: "Target passes run to verify drafts."}),
		draftTokens: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_units_total",
			Help: "Draft received: characters in text mode, tokens in token mode."}, []string{"mode"}),
		acceptedTokens: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_accepted_tokens_total",
			Help: "Target tokens accepted from drafts."}, []string{"mode"}),
		hellos: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "gateway", Name: "draft_hellos_total",
			Help: "Draft hellos by the mode chosen (token, text) or the reason none was (tokenizer_mismatch, token_mode_unsupported)."}, []string{"outcome"}),
	}
	if reg != nil {
		reg.MustRegister(m.sessions, m.passes, m.draftTokens, m.acceptedTokens, m.hellos)
	}
	return m
}
