package drafter

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

type metrics struct {
	rounds      prometheus.Counter
	drafted     prometheus.Counter
	accepted    prometheus.Counter
	byPosition  *prometheus.CounterVec // position, outcome (drafted|accepted)
	gamma       prometheus.Histogram
	verifyRTT   prometheus.Histogram
	plain       *prometheus.CounterVec // reason
	answers     *prometheus.CounterVec // mode
	pipelined   *prometheus.CounterVec // outcome (used|discarded)
	hellos      *prometheus.CounterVec // outcome: the mode chosen or why none
	maxPosition int
}

func newMetrics(reg prometheus.Registerer, gammaMax int) *metrics {
	m := &metrics{
		rounds: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "rounds_total",
			Help: "Verification rounds sent to the datacenter."}),
		drafted: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "draft_tokens_total",
			Help: "Tokens the local draft model proposed."}),
		accepted: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "accepted_tokens_total",
			Help: "Target tokens accepted from drafts (each round adds one more token of the target's own)."}),
		byPosition: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "position_total",
			Help: "Draft positions proposed and accepted, by position in the round (acceptance by position = accepted/drafted)."},
			[]string{"position", "outcome"}),
		gamma: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "gamma",
			Help: "Draft length chosen per round.", Buckets: prometheus.LinearBuckets(1, 1, gammaMax)}),
		verifyRTT: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "verify_seconds",
			Help: "Time from sending a round to its result (link RTT + target pass).", Buckets: prometheus.ExponentialBuckets(0.001, 2, 14)}),
		plain: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "plain_total",
			Help: "Requests streamed plain instead of drafted, by reason."}, []string{"reason"}),
		answers: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "answers_total",
			Help: "Answers produced by drafting and verification, by mode (token, text)."}, []string{"mode"}),
		pipelined: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "pipelined_drafts_total",
			Help: "Drafts made while a verification was in flight: used (the round was wholly accepted and the bonus guessed) or discarded."},
			[]string{"outcome"}),
		hellos: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "sucursal", Subsystem: "drafter", Name: "hellos_total",
			Help: "Draft hellos by outcome: the mode chosen (token, text) or why none was (tokenizer_mismatch, dc_does_not_draft, …)."},
			[]string{"outcome"}),
		maxPosition: gammaMax,
	}
	if reg != nil {
		reg.MustRegister(m.rounds, m.drafted, m.accepted, m.byPosition, m.gamma, m.verifyRTT, m.plain, m.answers, m.pipelined, m.hellos)
	}
	return m
}

func (m *metrics) positions(drafted, accepted int) {
	for i := 1; i <= min(drafted, m.maxPosition); i++ {
		p := strconv.Itoa(i)
		m.byPosition.WithLabelValues(p, "drafted").Inc()
		if i <= accepted {
			m.byPosition.WithLabelValues(p, "accepted").Inc()
		}
	}
}
