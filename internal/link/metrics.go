package link

import "github.com/prometheus/client_golang/prometheus"

type metrics struct {
	up           prometheus.Gauge
	dialFailures prometheus.Counter
	disconnects  prometheus.Counter
	openStreams  prometheus.Gauge
	cancels      prometheus.Counter
	busy         prometheus.Counter
	pingRTT      prometheus.Histogram
	pingTimeouts prometheus.Counter
	ackTimeouts  prometheus.Counter
	goAways      prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		up: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "up",
			Help: "1 when the QUIC connection to the datacenter gateway is established.",
		}),
		dialFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "dial_failures_total",
			Help: "Failed attempts to connect to the datacenter gateway.",
		}),
		disconnects: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "disconnects_total",
			Help: "Established connections to the datacenter gateway that were lost.",
		}),
		openStreams: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "open_streams",
			Help: "Request streams open to the datacenter gateway.",
		}),
		cancels: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "cancels_total",
			Help: "Requests cancelled towards the datacenter because the branch client went away.",
		}),
		busy: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "stream_limit_refusals_total",
			Help: "Requests refused at once because the gateway's stream limit for this edge was reached.",
		}),
		pingRTT: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "ping_rtt_seconds",
			Help:    "Round trip of pings on the control stream to the datacenter gateway.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
		}),
		pingTimeouts: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "declared_dead_total",
			Help: "Connections the edge declared dead because the gateway stopped answering pings.",
		}),
		ackTimeouts: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "unacknowledged_dead_total",
			Help: "Connections the edge declared dead after requests in a row were not acknowledged in time.",
		}),
		goAways: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "sucursal", Subsystem: "link", Name: "goaways_total",
			Help: "GoAway announcements received from the datacenter gateway (it was draining).",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.up, m.dialFailures, m.disconnects, m.openStreams, m.cancels, m.busy, m.pingRTT, m.pingTimeouts, m.ackTimeouts, m.goAways)
	}
	return m
}

// RegisterRTT exports the connection's smoothed RTT.
func (c *Client) RegisterRTT(reg prometheus.Registerer) {
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: "sucursal", Subsystem: "link", Name: "rtt_seconds",
		Help: "Smoothed round-trip time of the QUIC connection to the datacenter (0 when down).",
	}, func() float64 { return c.RTT().Seconds() }))
}
