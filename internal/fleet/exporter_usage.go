package fleet

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// usageDescs are the per-edge series of the SLO summary each heartbeat carries (fleetapi.Usage:
// the edge's last five minutes). They are gauges of that window, not counters: an edge that
// stops reporting keeps its last window, so SLO alerts join on sucursal_fleet_edge_up.
type usageDescs struct {
	window, requests, errors, failovers, degradedAnswers, errorRatio, failoverRatio *prometheus.Desc
	ttft50, ttft95, ttftSamples, itl50, itl95, itlSamples                           *prometheus.Desc
	degraded, nerDegraded, guardFailOpen, guardTimeouts, redactionTimeouts          *prometheus.Desc
	refusals, tokensMean, tokensSamples, acceptance, drafted                        *prometheus.Desc
}

func newUsageDescs(d func(name, help string, labels ...string) *prometheus.Desc, edge []string) usageDescs {
	with := func(extra ...string) []string { return append(append([]string(nil), edge...), extra...) }
	return usageDescs{
		window:            d("edge_window_seconds", "The span the edge's SLO summary covers (5 minutes, less just after a start).", edge...),
		requests:          d("edge_window_requests", "Requests the edge's request path served in the window.", edge...),
		errors:            d("edge_window_errors", "Server-side failures among them.", edge...),
		failovers:         d("edge_window_failovers", "Answers not served by the primary DC in the window.", edge...),
		degradedAnswers:   d("edge_window_degraded_answers", "Answers served by the NUC's local model in the window.", edge...),
		errorRatio:        d("edge_window_error_ratio", "Errors / requests in the window (0 without requests).", edge...),
		failoverRatio:     d("edge_window_failover_ratio", "Failovers / requests in the window.", edge...),
		ttft50:            d("edge_window_ttft_p50_seconds", "Median time to first token in the window.", edge...),
		ttft95:            d("edge_window_ttft_p95_seconds", "95th percentile time to first token in the window.", edge...),
		ttftSamples:       d("edge_window_ttft_samples", "Requests behind the TTFT quantiles.", edge...),
		itl50:             d("edge_window_inter_token_p50_seconds", "Median gap between streamed chunks in the window.", edge...),
		itl95:             d("edge_window_inter_token_p95_seconds", "95th percentile gap between streamed chunks in the window.", edge...),
		itlSamples:        d("edge_window_inter_token_samples", "Gaps behind the inter-token quantiles.", edge...),
		degraded:          d("edge_window_degraded", "1 when something ran below full strength in the window (local-model answers, NER off, guard passed open).", edge...),
		nerDegraded:       d("edge_window_ner_degraded", "Texts redacted without the NER layer in the window.", edge...),
		guardFailOpen:     d("edge_window_guard_fail_open", "Guard checks passed open in the window.", edge...),
		guardTimeouts:     d("edge_window_guard_timeouts", "Guard classifier calls that timed out in the window.", edge...),
		redactionTimeouts: d("edge_window_redaction_timeouts", "Texts refused at a recognizer's match timeout in the window.", edge...),
		refusals:          d("edge_window_refusals", "Admission refusals in the window, by status (429 tenant limits, 503 branch full).", with("status")...),
		tokensMean:        d("edge_window_tokens_mean", "Mean tokens per request in the window, by direction (input: estimated; output).", with("direction")...),
		tokensSamples:     d("edge_window_tokens_samples", "Requests behind the token means, by direction.", with("direction")...),
		acceptance:        d("edge_window_draft_acceptance_ratio", "Accepted / drafted tokens in the window (only while drafting ran).", edge...),
		drafted:           d("edge_window_draft_tokens", "Draft tokens proposed in the window (only while drafting ran).", edge...),
	}
}

func (u usageDescs) describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{u.window, u.requests, u.errors, u.failovers, u.degradedAnswers, u.errorRatio,
		u.failoverRatio, u.ttft50, u.ttft95, u.ttftSamples, u.itl50, u.itl95, u.itlSamples, u.degraded, u.nerDegraded, u.guardFailOpen,
		u.guardTimeouts, u.redactionTimeouts, u.refusals, u.tokensMean, u.tokensSamples, u.acceptance, u.drafted} {
		ch <- d
	}
}

func (u usageDescs) collect(gauge func(*prometheus.Desc, float64, ...string), e EdgeView, site string) {
	us := e.Usage
	if us == nil {
		return // an edge that does not report a summary (older agents)
	}
	id := e.EdgeID
	gauge(u.window, us.WindowSeconds, id, site)
	gauge(u.requests, float64(us.Requests), id, site)
	gauge(u.errors, float64(us.Errors), id, site)
	gauge(u.failovers, float64(us.Failovers), id, site)
	gauge(u.degradedAnswers, float64(us.DegradedAnswers), id, site)
	gauge(u.errorRatio, us.ErrorRate, id, site)
	gauge(u.failoverRatio, us.FailoverRate, id, site)
	latency := func(p50, p95, samples *prometheus.Desc, l fleetapi.Latency) {
		gauge(p50, l.P50Ms/1000, id, site)
		gauge(p95, l.P95Ms/1000, id, site)
		gauge(samples, float64(l.Samples), id, site)
	}
	latency(u.ttft50, u.ttft95, u.ttftSamples, us.TTFT)
	latency(u.itl50, u.itl95, u.itlSamples, us.InterToken)
	gauge(u.degraded, b2f(us.Degraded), id, site)
	gauge(u.nerDegraded, float64(us.NERDegraded), id, site)
	gauge(u.guardFailOpen, float64(us.GuardFailOpen), id, site)
	gauge(u.guardTimeouts, float64(us.GuardTimeouts), id, site)
	gauge(u.redactionTimeouts, float64(us.RedactionTimeouts), id, site)
	gauge(u.refusals, float64(us.Refused429), id, site, "429")
	gauge(u.refusals, float64(us.Refused503), id, site, "503")
	gauge(u.tokensMean, us.InputTokens.Mean, id, site, "input")
	gauge(u.tokensSamples, float64(us.InputTokens.Samples), id, site, "input")
	gauge(u.tokensMean, us.OutputTokens.Mean, id, site, "output")
	gauge(u.tokensSamples, float64(us.OutputTokens.Samples), id, site, "output")
	if us.Drafting != nil {
		gauge(u.acceptance, us.Drafting.Acceptance, id, site)
		gauge(u.drafted, float64(us.Drafting.DraftedTokens), id, site)
	}
}
