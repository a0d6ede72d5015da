package api

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/buildinfo"
)

type metrics struct {
	requests *prometheus.CounterVec
	inflight prometheus.Gauge
	ttft     prometheus.Histogram
	duration prometheus.Histogram
	panics   prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "api", Name: "chat_requests_total",
			Help: "Chat completion requests by tenant (the API key's, bounded by the key file; local without keys) and result code (ok, or the OpenAI error code the user received).",
		}, []string{"tenant", "code"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "sucursal", Subsystem: "api", Name: "chat_requests_in_flight",
			Help: "Chat completion requests being served.",
		}),
		ttft: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "sucursal", Subsystem: "api", Name: "ttft_seconds",
			Help:    "Time from receiving a request to sending its first byte of answer.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "sucursal", Subsystem: "api", Name: "chat_request_duration_seconds",
			Help:    "Time to serve a chat completion request, end to end.",
			Buckets: prometheus.ExponentialBuckets(0.005, 2, 16),
		}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "api", Name: "chat_panics_total",
			Help: "Chat completion requests that ended in a panic inside the pipeline (a bug: answered 500 internal_error, logged with its stack, never forwarded).",
		}),
	}
	if reg != nil {
		// sucursal_build_info: the edge-agent registers it here, with its HTTP face.
		reg.MustRegister(m.requests, m.inflight, m.ttft, m.duration, m.panics, buildinfo.Collector())
	}
	return m
}
