package sync

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

type metrics struct {
	bytes    prometheus.Counter
	installs *prometheus.CounterVec
	version  *prometheus.GaugeVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		bytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sucursal_sync_download_bytes_total",
			Help: "Artifact bytes received from the object store, re-downloads after a crash included.",
		}),
		installs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sucursal_sync_installs_total",
			Help: "Install attempts by result (ok, or the rejection/failure reason).",
		}, []string{"result"}),
		// A version string as a label would grow without bound; the manifest's creation time is a
		// number that orders versions and makes fleet skew visible as max-min across edges.
		version: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "sucursal_sync_model_version_created_seconds",
			Help: "Creation time (unix seconds) of the manifest of the model version running per role.",
		}, []string{"role"}),
	}
	for _, c := range []prometheus.Collector{m.bytes, m.installs, m.version} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("sync: register metrics: %w", err)
		}
	}
	return m, nil
}
