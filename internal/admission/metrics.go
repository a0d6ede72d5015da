package admission

import "github.com/prometheus/client_golang/prometheus"

type metrics struct {
	admitted *prometheus.CounterVec // class
	refused  *prometheus.CounterVec // code, class
	active   prometheus.Gauge
	queued   prometheus.Gauge
	bodies   prometheus.Gauge
	wait     prometheus.Histogram
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		admitted: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "admission", Name: "admitted_total",
			Help: "Requests admitted, by priority class."}, []string{"class"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "admission", Name: "refused_total",
			Help: "Requests refused before any work, by code (rate_limit_exceeded, too_many_concurrent_requests, input_too_long, branch_saturated, queue_timeout, branch_busy) and class."},
			[]string{"code", "class"}),
		active: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "sucursal", Subsystem: "admission", Name: "active",
			Help: "Requests holding a slot."}),
		queued: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "sucursal", Subsystem: "admission", Name: "queued",
			Help: "Requests waiting for a slot."}),
		bodies: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "sucursal", Subsystem: "admission", Name: "body_bytes_held",
			Help: "Request body bytes held in memory by requests being read or served."}),
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "sucursal", Subsystem: "admission", Name: "queue_wait_seconds",
			Help: "Time admitted requests waited for a slot.", Buckets: []float64{0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}}),
	}
	if reg != nil {
		reg.MustRegister(m.admitted, m.refused, m.active, m.queued, m.bodies, m.wait)
	}
	return m
}
