package redact

import (
	"errors"
	"fmt"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics carry entity types and outcomes only — never a value, never a recognizer's match.
type metrics struct {
	redactions  *prometheus.CounterVec // by entity type
	timeouts    *prometheus.CounterVec // by entity type of the recognizer that timed out
	nerFallback *prometheus.CounterVec // outcome: degraded | refused
	nerRejected prometheus.Counter     // model spans that were not exact substrings
	drift       *prometheus.CounterVec // type, kind: dropped | invented
	seconds     prometheus.Histogram   // detection time per Redact call
	// byType caches redaction counters by type (prometheus.Counter), so that a Redact call
	// does not hash label values once per replaced value. Filled on first use: a type's series
	// appears when it is first redacted, as with WithLabelValues.
	byType sync.Map
}

// countRedactions adds one redaction per span, by type.
func (m *metrics) countRedactions(spans []Span) {
	// counted per type first: one counter lookup per type, not per span
	type count struct {
		typ string
		n   int
	}
	var buf [16]count
	counts := buf[:0]
next:
	for _, sp := range spans {
		for k := range counts {
			if counts[k].typ == sp.Type {
				counts[k].n++
				continue next
			}
		}
		counts = append(counts, count{sp.Type, 1})
	}
	for _, tc := range counts {
		c, ok := m.byType.Load(tc.typ)
		if !ok {
			c, _ = m.byType.LoadOrStore(tc.typ, m.redactions.WithLabelValues(tc.typ))
		}
		c.(prometheus.Counter).Add(float64(tc.n))
	}
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		redactions: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "redact",
			Name: "redactions_total", Help: "Occurrences of personal data replaced by a placeholder, by entity type."}, []string{"type"}),
		timeouts: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "redact",
			Name: "match_timeouts_total", Help: "Texts refused because a recognizer hit its match timeout, by entity type."}, []string{"type"}),
		nerFallback: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "redact",
			Name: "ner_fallbacks_total", Help: "NER backend failures, by outcome (degraded: gazetteer only; refused)."}, []string{"outcome"}),
		nerRejected: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "redact",
			Name: "ner_rejected_spans_total", Help: "NER spans dropped because they were not an exact substring of the text."}),
		drift: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "redact",
			Name: "placeholder_drift_total", Help: "Placeholders the model dropped or invented, by entity type (OTHER for unknown types)."}, []string{"type", "kind"}),
		seconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "sucursal", Subsystem: "redact",
			Name: "detect_seconds", Help: "Time to detect and replace personal data in one text.",
			Buckets: []float64{50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 50e-3, 0.25, 1, 5}}),
	}
	if reg == nil {
		return m, nil
	}
	var errs []error
	for _, c := range []prometheus.Collector{m.redactions, m.timeouts, m.nerFallback, m.nerRejected, m.drift, m.seconds} {
		if err := reg.Register(c); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("redact: register metrics: %w", err)
	}
	return m, nil
}

// knownTypes bounds the drift label: a model can invent any "@@WHATEVER-1@@", and whatever it
// wrote must not become a label (cardinality, and it could be a value).
var knownTypes = map[string]bool{TypeDNI: true, TypeNIE: true, TypeCIF: true, TypeNSS: true, TypeIBAN: true,
	TypeCard: true, TypePhone: true, TypeEmail: true, TypeIP: true, TypeDOB: true, TypeAddress: true,
	TypePassport: true, TypePerson: true, TypeOrg: true, TypeLocation: true, TypeLiteral: true}
