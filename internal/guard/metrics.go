package guard

import (
	"context"
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Stages label where a check ran.
const (
	stageInput  = "input"
	stageOutput = "output"
)

type metrics struct {
	verdicts  *prometheus.CounterVec   // classifier, kind, category
	classify  *prometheus.HistogramVec // classifier, stage
	check     *prometheus.HistogramVec // stage
	failures  *prometheus.CounterVec   // classifier, reason
	failovers *prometheus.CounterVec   // classifier, result
	decisions *prometheus.CounterVec   // stage, action
	failOpen  *prometheus.CounterVec   // stage
}

// Latency buckets from 5 ms (a tiny model on a warm server) to 10 s (a timed-out 8B model on CPU).
var latencyBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sucursal_guard_verdicts_total",
			Help: "Classifier verdicts by classifier, kind and category (none = benign or safe).",
		}, []string{"classifier", "kind", "category"}),
		classify: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sucursal_guard_classify_seconds", Help: "Latency of one classifier call.", Buckets: latencyBuckets,
		}, []string{"classifier", "stage"}),
		check: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sucursal_guard_check_seconds", Help: "Latency a guard check adds, all classifiers together.", Buckets: latencyBuckets,
		}, []string{"stage"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sucursal_guard_failures_total", Help: "Classifier calls that gave no verdict, by reason.",
		}, []string{"classifier", "reason"}),
		failovers: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sucursal_guard_failovers_total", Help: "Failovers of a failed local classifier to the DC guard, by result.",
		}, []string{"classifier", "result"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sucursal_guard_decisions_total", Help: "Guard decisions by stage and action.",
		}, []string{"stage", "action"}),
		failOpen: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sucursal_guard_fail_open_total", Help: "Checks passed without a full verdict because the policy fails open.",
		}, []string{"stage"}),
	}
	for _, c := range []prometheus.Collector{m.verdicts, m.classify, m.check, m.failures, m.failovers, m.decisions, m.failOpen} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *metrics) verdict(classifier string, v Verdict, flagged bool) {
	switch {
	case v.Kind == KindInjection && flagged:
		m.verdicts.WithLabelValues(classifier, string(v.Kind), CategoryInjection.Code).Inc()
	case v.Kind == KindSafety && v.Malicious && len(v.Categories) > 0:
		for _, c := range v.Categories {
			m.verdicts.WithLabelValues(classifier, string(v.Kind), c.Code).Inc()
		}
	case v.Malicious:
		m.verdicts.WithLabelValues(classifier, string(v.Kind), "uncategorized").Inc()
	default:
		m.verdicts.WithLabelValues(classifier, string(v.Kind), "none").Inc()
	}
}

// failureReason maps an error to a small fixed set of label values.
func failureReason(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, ErrMalformedOutput):
		return "malformed"
	case errors.Is(err, ErrBackend):
		return "backend"
	case errors.Is(err, ErrClassifierPanicked):
		return "panic"
	}
	return "other"
}
