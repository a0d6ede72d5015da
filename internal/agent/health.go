package agent

import (
	"context"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/pipeline"
)

// health is what this edge reports to the fleet about what its users saw.
//
// Per role (Health): requests, errors, failovers and TTFT p95 since the role last switched
// version, so rollout gates can compare edges on a new version with edges on the old one. Every
// request crosses every local role (guard, redaction's NER, drafter, fallback), so each role sees
// the same request stream; what differs is the window, which restarts when that role's version
// changes.
//
// For the edge (Usage): a summary of the last fleetapi.UsageWindow, in 10-second buckets so that
// memory stays fixed whatever the load — for fleet status, the fleet exporter and sizing.
// Admission refusals, guard and redaction timeouts and drafting happen in other packages, which
// count them in their Prometheus counters; the summary takes their increase over the window from
// the agent's registry rather than wiring a second count through every package.
type health struct {
	mu    sync.Mutex
	roles map[string]*roleHealth

	now      func() time.Time
	started  time.Time
	counters prometheus.Gatherer // nil: no counter-based fields
	buckets  [usageBuckets]usageBucket
	snaps    []counterSnap // oldest first; the first one is at or before the window's start
}

type roleHealth struct {
	h    fleetapi.Health
	ttft []time.Duration // ring of the most recent TTFTs
	next int
}

const (
	ttftSamples  = 1024
	bucketSpan   = 10 * time.Second
	usageBuckets = int(fleetapi.UsageWindow / bucketSpan)
	maxModels    = 16
)

func newHealth(counters prometheus.Gatherer) *health {
	h := &health{roles: map[string]*roleHealth{}, now: time.Now, counters: counters}
	h.started = h.now()
	// Every counter starts at zero with the process, so the first baseline is all zeros.
	h.snaps = []counterSnap{{at: h.started}}
	return h
}

// Health implements sync.HealthSource.
func (h *health) Health(role string) fleetapi.Health {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.roles[role]
	if !ok {
		// A role not seen yet starts its window now, with whatever comes next.
		h.roles[role] = &roleHealth{}
		return fleetapi.Health{}
	}
	out := r.h
	if n := len(r.ttft); n > 0 {
		s := slices.Clone(r.ttft)
		slices.Sort(s)
		out.TTFTP95Ms = float64(s[(n-1)*95/100].Microseconds()) / 1000
	}
	return out
}

// switched restarts a role's window: the new version is measured on its own.
func (h *health) switched(role string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.roles[role] = &roleHealth{}
}

// observed is one request as the top of the path saw it.
type observed struct {
	ttft       time.Duration
	gaps       []time.Duration // between content chunks
	failed     bool
	backend    string
	model      string
	inTokens   int
	outTokens  int
	fromUsage  bool
	haveOutput bool
}

func (h *health) record(o observed) {
	failedOver := o.backend != "" && o.backend != failover.PrimaryBackend
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.roles {
		r.h.Requests++
		if o.failed {
			r.h.Errors++
		}
		if failedOver {
			r.h.Failovers++
		}
		if o.ttft > 0 {
			if len(r.ttft) < ttftSamples {
				r.ttft = append(r.ttft, o.ttft)
			} else {
				r.ttft[r.next] = o.ttft
				r.next = (r.next + 1) % ttftSamples
			}
		}
	}

	b := h.bucketLocked(h.now())
	b.requests++
	if o.failed {
		b.errors++
	}
	if failedOver {
		b.failovers++
	}
	if o.backend == localBackend {
		b.degraded++
	}
	if o.ttft > 0 {
		b.ttft.add(o.ttft)
	}
	for _, g := range o.gaps {
		b.itl.add(g)
	}
	b.inTokens += uint64(o.inTokens)
	b.inSamples++
	if o.haveOutput {
		b.outTokens += uint64(o.outTokens)
		b.outSamples++
		if o.fromUsage {
			b.outFromUsage++
		}
	}
	if o.model != "" && !slices.Contains(b.models, o.model) && len(b.models) < maxModels {
		b.models = append(b.models, o.model)
	}
}

// Observe implements pipeline.Observer (requests observed by pipeline.Observe count as requests
// without token data). An answer that did not come from the primary DC counts as a failover.
func (h *health) Observe(o pipeline.Outcome) {
	h.record(observed{ttft: o.TTFT, failed: o.Failed, backend: o.Backend})
}

// stage is the outermost stage of the request path: it times the first content chunk and the
// gaps between content chunks, counts output tokens, and records every request's outcome.
func (h *health) stage() pipeline.Stage {
	return func(next pipeline.Handler) pipeline.Handler {
		return pipeline.HandlerFunc(func(ctx context.Context, req *pipeline.Request, w pipeline.ResponseWriter) error {
			tw := &tokenWriter{ResponseWriter: w, now: h.now, start: h.now(), usageTokens: -1}
			err := next.ServeChat(ctx, req, tw)
			failed := false
			if err != nil && ctx.Err() == nil {
				ce, ok := err.(*chat.Error)
				failed = !ok || ce.Status >= http.StatusInternalServerError
			}
			o := observed{ttft: tw.ttft, gaps: tw.gaps, failed: failed, backend: req.Backend}
			if req.Chat != nil {
				o.inTokens = estimateInputTokens(req.Chat)
				// The model name is the caller's text until the DC has answered for it: only
				// answered requests name theirs, so the fleet sees names the DC serves.
				if err == nil && len(req.Chat.Model) <= 128 {
					o.model = req.Chat.Model
				}
			}
			switch {
			case tw.usageTokens >= 0:
				o.outTokens, o.fromUsage, o.haveOutput = tw.usageTokens, true, true
			case tw.chunks > 0:
				o.outTokens, o.haveOutput = tw.chunks, true
			case tw.completionBytes > 0:
				o.outTokens, o.haveOutput = (tw.completionBytes+3)/4, true
			case err == nil && tw.wrote:
				o.haveOutput = true // an empty answer: zero tokens
			}
			h.record(o)
			return err
		})
	}
}

// estimateInputTokens is the prompt's size as admission estimates it: four bytes of text a token.
func estimateInputTokens(r *chat.Request) int {
	n := 0
	_ = r.Walk(func(t chat.Text) error {
		n += len(*t.S)
		return nil
	})
	return (n + 3) / 4
}

// maxGaps bounds the inter-token gaps one request keeps (a very long answer is sampled at its
// start; the histogram is what is bounded across requests).
const maxGaps = 4096

type tokenWriter struct {
	pipeline.ResponseWriter
	now             func() time.Time
	start, last     time.Time
	ttft            time.Duration
	gaps            []time.Duration
	chunks          int
	usageTokens     int // -1 until a usage is seen
	completionBytes int
	wrote           bool
}

func (t *tokenWriter) content(now time.Time) {
	if t.ttft == 0 {
		t.ttft = max(now.Sub(t.start), time.Nanosecond)
	} else if len(t.gaps) < maxGaps {
		t.gaps = append(t.gaps, now.Sub(t.last))
	}
	t.last = now
}

func (t *tokenWriter) WriteChunk(c *chat.Chunk) error {
	t.wrote = true
	for _, ch := range c.Choices {
		if ch.Delta.Content != nil && *ch.Delta.Content != "" || len(ch.Delta.ToolCalls) > 0 {
			t.content(t.now())
			t.chunks++
			break
		}
	}
	if c.Usage != nil {
		t.usageTokens = c.Usage.CompletionTokens
	}
	return t.ResponseWriter.WriteChunk(c)
}

func (t *tokenWriter) WriteCompletion(c *chat.Completion) error {
	t.wrote = true
	t.content(t.now())
	for _, ch := range c.Choices {
		t.completionBytes += len(ch.Message.Content.String())
	}
	if c.Usage != nil {
		t.usageTokens = c.Usage.CompletionTokens
	}
	return t.ResponseWriter.WriteCompletion(c)
}

// usageBucket is one bucketSpan of the window.
type usageBucket struct {
	start                                 time.Time // zero: unused
	requests, errors, failovers, degraded uint64
	inTokens, inSamples                   uint64
	outTokens, outSamples, outFromUsage   uint64
	ttft, itl                             latencyHist
	models                                []string
}

// bucketLocked returns the bucket for now, clearing it if it last held an older span.
func (h *health) bucketLocked(now time.Time) *usageBucket {
	start := now.Truncate(bucketSpan)
	b := &h.buckets[int(start.Unix()/int64(bucketSpan/time.Second))%usageBuckets]
	if !b.start.Equal(start) {
		*b = usageBucket{start: start}
	}
	return b
}

// Usage summarises the last fleetapi.UsageWindow. sync calls it for every status it sends.
func (h *health) Usage() fleetapi.Usage {
	now := h.now()
	cur := h.gather(now)
	h.mu.Lock()
	defer h.mu.Unlock()
	from := now.Add(-fleetapi.UsageWindow)
	// The ring holds the current bucket and the usageBuckets-1 before it; older ones are stale.
	first := now.Truncate(bucketSpan).Add(-time.Duration(usageBuckets-1) * bucketSpan)

	var u fleetapi.Usage
	var ttft, itl latencyHist
	var in, inN, out, outN, outUsage uint64
	var models []string
	for i := range h.buckets {
		b := &h.buckets[i]
		if b.start.Before(first) || b.start.After(now) {
			continue
		}
		u.Requests += b.requests
		u.Errors += b.errors
		u.Failovers += b.failovers
		u.DegradedAnswers += b.degraded
		ttft.merge(&b.ttft)
		itl.merge(&b.itl)
		in, inN = in+b.inTokens, inN+b.inSamples
		out, outN, outUsage = out+b.outTokens, outN+b.outSamples, outUsage+b.outFromUsage
		for _, m := range b.models {
			if !slices.Contains(models, m) && len(models) < maxModels {
				models = append(models, m)
			}
		}
	}
	u.TTFT, u.InterToken = ttft.latency(), itl.latency()
	u.InputTokens = fleetapi.Tokens{Mean: mean(in, inN), Samples: inN}
	u.OutputTokens = fleetapi.Tokens{Mean: mean(out, outN), Samples: outN, FromUsage: outUsage}
	if u.Requests > 0 {
		u.ErrorRate = float64(u.Errors) / float64(u.Requests)
		u.FailoverRate = float64(u.Failovers) / float64(u.Requests)
	}
	slices.Sort(models)
	u.Models = models

	// Counters: their increase since the latest snapshot at or before the window's start. One
	// snapshot per bucket is kept (the newest), so they number at most usageBuckets+2.
	if n := len(h.snaps); n > 1 && h.snaps[n-1].at.Truncate(bucketSpan).Equal(cur.at.Truncate(bucketSpan)) {
		h.snaps[n-1] = cur
	} else {
		h.snaps = append(h.snaps, cur)
	}
	for len(h.snaps) > 1 && !h.snaps[1].at.After(from) {
		h.snaps = h.snaps[1:] // the next one is old enough to be the baseline
	}
	d := cur.minus(h.snaps[0])
	u.Refused429, u.Refused503 = d.refused429, d.refused503
	u.GuardTimeouts, u.RedactionTimeouts = d.guardTimeouts, d.redactionTimeouts
	u.NERDegraded, u.GuardFailOpen = d.nerDegraded, d.guardFailOpen
	if d.drafted > 0 {
		u.Drafting = &fleetapi.Drafting{DraftedTokens: d.drafted, AcceptedTokens: d.accepted,
			Acceptance: float64(d.accepted) / float64(d.drafted)}
	}
	u.Degraded = u.DegradedAnswers > 0 || u.NERDegraded > 0 || u.GuardFailOpen > 0
	u.WindowSeconds = math.Round(now.Sub(maxTime(first, h.started)).Seconds()*10) / 10
	return u
}

func mean(sum, n uint64) float64 {
	if n == 0 {
		return 0
	}
	return float64(sum) / float64(n)
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// counterSnap is the cumulative value of the counters the summary reads, at one time.
type counterSnap struct {
	at                                                       time.Time
	refused429, refused503, guardTimeouts, redactionTimeouts uint64
	nerDegraded, guardFailOpen, drafted, accepted            uint64
}

func (c counterSnap) minus(b counterSnap) counterSnap {
	sub := func(x, y uint64) uint64 {
		if x < y {
			return 0
		}
		return x - y
	}
	return counterSnap{at: c.at,
		refused429: sub(c.refused429, b.refused429), refused503: sub(c.refused503, b.refused503),
		guardTimeouts: sub(c.guardTimeouts, b.guardTimeouts), redactionTimeouts: sub(c.redactionTimeouts, b.redactionTimeouts),
		nerDegraded: sub(c.nerDegraded, b.nerDegraded), guardFailOpen: sub(c.guardFailOpen, b.guardFailOpen),
		drafted: sub(c.drafted, b.drafted), accepted: sub(c.accepted, b.accepted)}
}

// The counters read, by metric name; a label filter keeps only matching series. The names are
// the other packages' (admission, guard, redact, drafter); TestUsageCounterNames checks they
// still exist.
var (
	refused429Codes = []string{"rate_limit_exceeded", "too_many_concurrent_requests"}
	refused503Codes = []string{"branch_saturated", "queue_timeout", "branch_busy"}
)

func (h *health) gather(now time.Time) counterSnap {
	s := counterSnap{at: now}
	if h.counters == nil {
		return s
	}
	families, _ := h.counters.Gather() // a partial gather still has the counters it could read
	for _, f := range families {
		for _, m := range f.GetMetric() {
			v := uint64(m.GetCounter().GetValue())
			switch f.GetName() {
			case "sucursal_admission_refused_total":
				switch code := label(m, "code"); {
				case slices.Contains(refused429Codes, code):
					s.refused429 += v
				case slices.Contains(refused503Codes, code):
					s.refused503 += v
				}
			case "sucursal_guard_failures_total":
				if label(m, "reason") == "timeout" {
					s.guardTimeouts += v
				}
			case "sucursal_guard_fail_open_total":
				s.guardFailOpen += v
			case "sucursal_redact_match_timeouts_total":
				s.redactionTimeouts += v
			case "sucursal_redact_ner_fallbacks_total":
				if label(m, "outcome") == "degraded" {
					s.nerDegraded += v
				}
			case "sucursal_drafter_draft_tokens_total":
				s.drafted += v
			case "sucursal_drafter_accepted_tokens_total":
				s.accepted += v
			}
		}
	}
	return s
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// latencyHist is a log-bucketed latency histogram: bin i holds [histMin·r^i, histMin·r^(i+1))
// with r = 2^(1/16) (4.4% wide), from 50 µs to about 12 minutes; quantiles are a bin's
// geometric middle, within ±2.2% of the exact value.
type latencyHist struct {
	n    uint64
	bins [histBins]uint32
}

const (
	histMin     = 50 * time.Microsecond
	histPerOct  = 16
	histBins    = 16 * 24
	histMaxBinI = histBins - 1
)

func (l *latencyHist) add(d time.Duration) {
	i := 0
	if d > histMin {
		i = min(int(math.Log2(float64(d)/float64(histMin))*histPerOct), histMaxBinI)
	}
	l.bins[i]++
	l.n++
}

func (l *latencyHist) merge(o *latencyHist) {
	if o.n == 0 {
		return
	}
	l.n += o.n
	for i, c := range o.bins {
		l.bins[i] += c
	}
}

// quantile is the q-quantile (nearest rank) in milliseconds.
func (l *latencyHist) quantile(q float64) float64 {
	rank := uint64(math.Ceil(q * float64(l.n)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range l.bins {
		seen += uint64(c)
		if seen >= rank {
			mid := float64(histMin) * math.Exp2((float64(i)+0.5)/histPerOct)
			return math.Round(mid/1e3) / 1e3 // ns → ms, to the microsecond
		}
	}
	return 0
}

func (l *latencyHist) latency() fleetapi.Latency {
	if l.n == 0 {
		return fleetapi.Latency{}
	}
	return fleetapi.Latency{P50Ms: l.quantile(0.50), P95Ms: l.quantile(0.95), Samples: l.n}
}
