package buildinfo

import "github.com/prometheus/client_golang/prometheus"

// Collector is the `sucursal_build_info` gauge, always 1, whose labels say which build answers:
// version, commit and Go version (the usual *_build_info shape, so dashboards can join on it and
// alerts can spot a fleet running mixed builds). Each binary registers it where it builds its
// registry.
func Collector() prometheus.Collector { return collector(Read()) }

func collector(i Info) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "sucursal_build_info",
		Help: "Always 1; the labels say which build of the binary this is.",
		ConstLabels: prometheus.Labels{
			"version": i.Version, "commit": i.Commit, "goversion": i.GoVersion,
		},
	}, func() float64 { return 1 })
}
