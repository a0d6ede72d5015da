package pki

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// ExpiryCollector exports when each certificate in dir expires, read at every scrape (so a
// renewed certificate shows at once): sucursal_certificate_expiry_timestamp_seconds{role, name},
// role ca, dc-gateway or edge, name its Subject CN (an edge's id). A directory it cannot read
// exports sucursal_certificate_read_ok 0 rather than failing the scrape.
func ExpiryCollector(dir string) prometheus.Collector {
	return &expiry{
		dir: dir,
		notAfter: prometheus.NewDesc("sucursal_certificate_expiry_timestamp_seconds",
			"When the certificate stops being valid (Unix time), by role (ca, dc-gateway, edge) and Subject CN.", []string{"role", "name"}, nil),
		ok: prometheus.NewDesc("sucursal_certificate_read_ok",
			"1 when the PKI directory's certificates could be read at this scrape.", nil, nil),
	}
}

type expiry struct {
	dir          string
	notAfter, ok *prometheus.Desc
}

func (e *expiry) Describe(ch chan<- *prometheus.Desc) { ch <- e.notAfter; ch <- e.ok }

func (e *expiry) Collect(ch chan<- prometheus.Metric) {
	certs, err := Inspect(e.dir, time.Now())
	if err != nil {
		ch <- prometheus.MustNewConstMetric(e.ok, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(e.ok, prometheus.GaugeValue, 1)
	for _, c := range certs {
		if c.NotAfter.IsZero() {
			continue // a file Inspect could not parse; its problem is in `fleetctl pki list`
		}
		ch <- prometheus.MustNewConstMetric(e.notAfter, prometheus.GaugeValue, float64(c.NotAfter.Unix()), string(c.Role), c.Name)
	}
}
