package gateway

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Per-edge link series, read from the live connections at each scrape: central ops see which
// branches are connected to this gateway and how their links behave. The edge label is the id
// of a verified, enrolled certificate, so the series are bounded by the fleet's size; an edge
// that disconnects leaves no series behind (its last-known state is the fleet exporter's).
var (
	edgeConnectedDesc = prometheus.NewDesc("sucursal_gateway_edge_connected",
		"1 for each edge with a live QUIC connection to this gateway (series absent when it is not connected).", []string{"edge"}, nil)
	edgeRTTDesc = prometheus.NewDesc("sucursal_gateway_edge_rtt_seconds",
		"QUIC's smoothed round-trip time to the edge (RFC 9002).", []string{"edge"}, nil)
	edgeBytesSentDesc = prometheus.NewDesc("sucursal_gateway_edge_sent_bytes_total",
		"Bytes sent to the edge on its current connection, retransmissions included (restarts at 0 when it reconnects).", []string{"edge"}, nil)
	edgeBytesReceivedDesc = prometheus.NewDesc("sucursal_gateway_edge_received_bytes_total",
		"Bytes received from the edge on its current connection (restarts at 0 when it reconnects).", []string{"edge"}, nil)
	edgePacketsLostDesc = prometheus.NewDesc("sucursal_gateway_edge_packets_lost",
		"Packets to the edge declared lost on its current connection (QUIC loss detection; can go down when a lost packet is acknowledged late).", []string{"edge"}, nil)
)

type edgeCollector struct{ s *Server }

func (edgeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{edgeConnectedDesc, edgeRTTDesc, edgeBytesSentDesc, edgeBytesReceivedDesc, edgePacketsLostDesc} {
		ch <- d
	}
}

func (c edgeCollector) Collect(ch chan<- prometheus.Metric) {
	c.s.mu.Lock()
	conns := make([]*edgeConn, 0, len(c.s.conns))
	for e := range c.s.conns {
		conns = append(conns, e)
	}
	c.s.mu.Unlock()
	seen := make(map[string]bool, len(conns))
	for _, e := range conns {
		// A replaced connection can overlap its successor for a moment: one series per edge.
		if seen[e.id] {
			continue
		}
		seen[e.id] = true
		st := e.conn.ConnectionStats()
		ch <- prometheus.MustNewConstMetric(edgeConnectedDesc, prometheus.GaugeValue, 1, e.id)
		ch <- prometheus.MustNewConstMetric(edgeRTTDesc, prometheus.GaugeValue, st.SmoothedRTT.Seconds(), e.id)
		ch <- prometheus.MustNewConstMetric(edgeBytesSentDesc, prometheus.CounterValue, float64(st.BytesSent), e.id)
		ch <- prometheus.MustNewConstMetric(edgeBytesReceivedDesc, prometheus.CounterValue, float64(st.BytesReceived), e.id)
		ch <- prometheus.MustNewConstMetric(edgePacketsLostDesc, prometheus.GaugeValue, float64(st.PacketsLost), e.id)
	}
}
