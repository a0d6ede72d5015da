package gateway

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/buildinfo"
)

type metrics struct {
	connections   prometheus.Gauge
	helloRefused  *prometheus.CounterVec
	streams       *prometheus.CounterVec
	activeStreams prometheus.Gauge
	upstreamTTFT  prometheus.Histogram
	chunks        prometheus.Counter
	pings         prometheus.Counter
	panics        prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "edge_connections",
			Help: "Edge QUIC connections currently established.",
		}),
		helloRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "hello_refused_total",
			Help: "Connections refused after the TLS handshake, by reason.",
		}, []string{"reason"}),
		streams: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "streams_total",
			Help: "Request streams served, by operation and outcome (ok, cancelled, client_gone, draining, upstream_error, upstream_unreachable, upstream_timeout, bad_request).",
		}, []string{"op", "outcome"}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "stream_panics_total",
			Help: "Request streams that ended in a panic in the gateway (a bug: the stream is reset, its stack logged, the gateway keeps serving).",
		}),
		activeStreams: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "active_streams",
			Help: "Request streams in progress.",
		}),
		upstreamTTFT: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "upstream_ttft_seconds",
			Help:    "Time from sending a streamed request to the target to its first chunk.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}),
		chunks: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "chunks_total",
			Help: "Streamed chunks relayed from the target to edges.",
		}),
		pings: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "gateway", Name: "pings_total",
			Help: "Pings answered on edge control streams.",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.connections, m.helloRefused, m.streams, m.activeStreams, m.upstreamTTFT, m.chunks, m.pings, m.panics,
			buildinfo.Collector()) // sucursal_build_info of the dc-gateway
	}
	return m
}

// registerState exports whether the gateway is draining and whether its target answers.
func (m *metrics) registerState(reg prometheus.Registerer, s *Server) {
	if reg == nil {
		return
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: "sucursal", Subsystem: "gateway", Name: "draining",
		Help: "1 while the gateway drains (after SIGTERM): edges were told to go away.",
	}, func() float64 {
		if s.Draining() {
			return 1
		}
		return 0
	}), prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: "sucursal", Subsystem: "gateway", Name: "target_up",
		Help: "1 when the last probe or request reached the target and it answered.",
	}, func() float64 {
		if st, _ := s.target.get(); st == targetUp {
			return 1
		}
		return 0
	}))
}
