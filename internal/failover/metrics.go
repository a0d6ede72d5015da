package failover

import "github.com/prometheus/client_golang/prometheus"

type metrics struct {
	served       *prometheus.CounterVec
	skipped      *prometheus.CounterVec
	retries      *prometheus.CounterVec
	degraded     prometheus.Counter
	unavailable  prometheus.Counter
	targetFaults *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		served: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "failover", Name: "served_total",
			Help: "Requests served, by backend.",
		}, []string{"backend"}),
		skipped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "failover", Name: "skipped_total",
			Help: "Backends skipped for a request, by backend and reason (not_ready, breaker_open).",
		}, []string{"backend", "reason"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "failover", Name: "retries_total",
			Help: "Requests that failed on a backend before any byte reached the user and moved on.",
		}, []string{"backend"}),
		degraded: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "failover", Name: "degraded_total",
			Help: "Requests answered by a local degraded model.",
		}),
		unavailable: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "failover", Name: "unavailable_total",
			Help: "Requests answered 503 because no backend could serve.",
		}),
		targetFaults: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "failover", Name: "target_faults_total",
			Help: "Requests a DC gateway answered with its target's failure (the link itself worked), by backend.",
		}, []string{"backend"}),
	}
	if reg != nil {
		reg.MustRegister(m.served, m.skipped, m.retries, m.degraded, m.unavailable, m.targetFaults)
	}
	return m
}

// registerBreakers exports each breaker's state as a gauge (0 closed, 1 half-open, 2 open).
func (m *metrics) registerBreakers(reg prometheus.Registerer, backends []Backend) {
	if reg == nil {
		return
	}
	for _, b := range backends {
		if b.Breaker == nil {
			continue
		}
		br := b.Breaker
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Namespace: "sucursal", Subsystem: "failover", Name: "breaker_state",
			Help:        "Circuit breaker state per backend: 0 closed, 1 half-open, 2 open.",
			ConstLabels: prometheus.Labels{"backend": b.Name},
		}, func() float64 {
			switch br.State() {
			case HalfOpen:
				return 1
			case Open:
				return 2
			}
			return 0
		}))
	}
}
