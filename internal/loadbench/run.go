package loadbench

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	gosync "sync"
	"sync/atomic"
	"time"
)

// Runner runs a scenario file against a client.
type Runner struct {
	Client *Client
	File   File
	// QueueWait reads the server's admission queue wait (nil: not measurable from outside).
	QueueWait QueueWaitSource
	// Progress is told of every finished request (nil: nothing is shown).
	Progress Progress
}

// Progress shows a run as it goes.
type Progress interface {
	Start(label string, total int) // total 0: unknown (a duration-bound phase)
	Add(n int)
	Finish()
}

// QueueWaitSource reads a cumulative histogram of the server's queue waits (seconds).
type QueueWaitSource interface {
	Snapshot(ctx context.Context) (Histogram, error)
}

// Cell is one point of a scenario's matrix: every repetition's requests together.
type Cell struct {
	Scenario string  `json:"scenario"`
	Mode     string  `json:"mode"`
	Load     float64 `json:"load"` // workers (closed), requests/s (open) or speed-up (trace)
	LoadUnit string  `json:"load_unit"`

	Attempted   int            `json:"attempted"`
	Answered    int            `json:"answered"`
	Rejected429 int            `json:"rejected_429"`
	Rejected503 int            `json:"rejected_503"`
	Errors      int            `json:"errors"`
	ErrorKinds  map[string]int `json:"error_kinds,omitempty"` // by code or transport error
	RejectCodes map[string]int `json:"reject_codes,omitempty"`

	QueueWait *QueueWait  `json:"queue_wait,omitempty"` // nil: not measurable
	TTFT      Percentiles `json:"ttft"`
	ITL       Percentiles `json:"inter_token"`
	E2E       Percentiles `json:"e2e"`
	// SendLate is how far behind their arrival times an open loop sent requests (the client
	// keeping up, not the server); e2e is measured from the arrival time.
	SendLate *Percentiles `json:"send_late,omitempty"`

	InputTokensAsked  float64   `json:"input_tokens_asked_mean"`
	PromptTokens      float64   `json:"prompt_tokens_mean"` // from usage, over the answers that had it
	OutputTokens      float64   `json:"output_tokens_mean"`
	OutputFromUsage   int       `json:"output_tokens_from_usage"`
	OutputTokS        float64   `json:"output_tok_s"`
	DurationS         float64   `json:"duration_s"` // measurement time, repetitions added up
	Good              int       `json:"good"`       // requests that met the SLO
	Goodput           float64   `json:"goodput_rps"`
	Throughput        float64   `json:"throughput_rps"` // answered requests/s
	Attainment        float64   `json:"attainment"`     // good / attempted
	MeetsSLO          bool      `json:"meets_slo"`
	RepetitionGoodput []float64 `json:"repetition_goodput_rps"`
}

// ScenarioResult is one scenario's cells and the highest load that met the SLO.
type ScenarioResult struct {
	Scenario Scenario `json:"scenario"`
	Cells    []Cell   `json:"cells"`
	// MaxLoadMeetingSLO is the highest load of a cell that met the SLO (nil: none did).
	MaxLoadMeetingSLO *float64 `json:"max_load_meeting_slo"`
}

type cellRun struct {
	mu       gosync.Mutex
	outcomes []Outcome
	asked    []int
}

func (c *cellRun) add(o Outcome, asked int) {
	c.mu.Lock()
	c.outcomes = append(c.outcomes, o)
	c.asked = append(c.asked, asked)
	c.mu.Unlock()
}

// Run runs every scenario's matrix in order.
func (r *Runner) Run(ctx context.Context) ([]ScenarioResult, error) {
	var out []ScenarioResult
	for si, s := range r.File.Scenarios {
		res := ScenarioResult{Scenario: s}
		for li, load := range levels(s.Arrival) {
			cell, err := r.cell(ctx, si, li, s, load)
			if err != nil {
				return out, err
			}
			res.Cells = append(res.Cells, cell)
			if cell.MeetsSLO {
				l := cell.Load
				if res.MaxLoadMeetingSLO == nil || l > *res.MaxLoadMeetingSLO {
					res.MaxLoadMeetingSLO = &l
				}
			}
		}
		out = append(out, res)
	}
	return out, nil
}

func levels(a Arrival) []float64 {
	var l []float64
	switch a.Mode {
	case ModeClosed:
		for _, n := range a.Concurrency {
			l = append(l, float64(n))
		}
	case ModeOpen:
		l = a.Rates
	case ModeTrace:
		l = a.Speedups
	}
	return l
}

func loadUnit(mode string) string {
	switch mode {
	case ModeClosed:
		return "concurrency"
	case ModeOpen:
		return "requests/s"
	}
	return "trace speed-up"
}

// source draws the cell's request lengths and seeds, in one deterministic sequence per cell.
type source struct {
	mu   gosync.Mutex
	rng  *rand.Rand
	s    Scenario
	next atomic.Int64
}

func newSource(seed uint64, scenario string, level, phase int, s Scenario) *source {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", scenario, level, phase)
	return &source{rng: rand.New(rand.NewPCG(seed, h.Sum64())), s: s}
}

// call draws the next request; trace entries may fix its lengths.
func (src *source) call(model string, timeout time.Duration, fixedIn, fixedOut int) call {
	src.mu.Lock()
	in, out := src.s.InputTokens.Draw(src.rng), src.s.OutputTokens.Draw(src.rng)
	var seed *int64
	if src.s.Sampling == Sampled {
		// Small on purpose: the edge's exit scan reads a long number anywhere in the request as
		// what it looks like, and a 16–19-digit seed that passes Luhn is a card number to it (the
		// request is refused 422 egress_blocked).
		v := int64(1 + src.rng.IntN(maxSeed))
		seed = &v
	}
	src.mu.Unlock()
	if fixedIn > 0 {
		in = fixedIn
	}
	if fixedOut > 0 {
		out = fixedOut
	}
	n := src.next.Add(1)
	k := call{model: model, inputTokens: in, maxTokens: out, stream: *src.s.Stream, seed: seed, timeout: timeout,
		prompt: prompt(in, n, src.s.RepeatedPrompts)}
	if src.s.Sampling == Sampled {
		k.temperature = src.s.Temperature
	}
	return k
}

// maxSeed bounds the seeds of sampled requests: five digits, which no recognizer takes for
// personal data.
const maxSeed = 99999

// words are short common words: about one token each for BPE tokenizers, never personal data.
var words = strings.Fields(`the of and to in is it for on with as at by be this that from or an are
was but not all can has one out use how its day new now see way who did get may our two any set put
end far low big few old own run say try ask men off too act add age ago air art bad bed box car cut`)

// prompt is n words; unless repeated, it starts with the request's number so that no two prompts
// share a prefix a server could cache.
func prompt(n int, id int64, repeated bool) string {
	var b strings.Builder
	i := 0
	if !repeated {
		fmt.Fprintf(&b, "req%d", id)
		i = 1
	}
	for ; i < n; i++ {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[(i*7+n)%len(words)])
	}
	return b.String()
}

func (r *Runner) cell(ctx context.Context, si, li int, s Scenario, load float64) (Cell, error) {
	f := r.File
	cell := Cell{Scenario: s.Name, Mode: s.Arrival.Mode, Load: load, LoadUnit: loadUnit(s.Arrival.Mode)}
	label := fmt.Sprintf("%s @ %g %s", s.Name, load, cell.LoadUnit)
	if f.Warmup.Requests > 0 || f.Warmup.Duration > 0 {
		src := newSource(f.Seed, s.Name, li, 0, s)
		r.phase(ctx, s, load, f.Warmup, src, &cellRun{}, label+" warm-up")
	}
	all := &cellRun{}
	var qw *Histogram
	var waited time.Duration
	for rep := range f.Repetitions {
		if err := ctx.Err(); err != nil {
			return cell, err
		}
		var before Histogram
		haveQW := false
		if r.QueueWait != nil {
			if h, err := r.QueueWait.Snapshot(ctx); err == nil {
				before, haveQW = h, true
			}
		}
		run := &cellRun{}
		src := newSource(f.Seed, s.Name, li, rep+1, s)
		d := r.phase(ctx, s, load, f.Measure, src, run, fmt.Sprintf("%s rep %d/%d", label, rep+1, f.Repetitions))
		waited += d
		good := 0
		for _, o := range run.outcomes {
			if f.SLO.met(o) {
				good++
			}
		}
		cell.RepetitionGoodput = append(cell.RepetitionGoodput, round3(float64(good)/d.Seconds()))
		all.outcomes = append(all.outcomes, run.outcomes...)
		all.asked = append(all.asked, run.asked...)
		if haveQW {
			if after, err := r.QueueWait.Snapshot(ctx); err == nil {
				delta := after.minus(before)
				if qw == nil {
					qw = &delta
				} else {
					qw.add(delta)
				}
			}
		}
	}
	cell.summarise(all, f.SLO, waited)
	if qw != nil {
		cell.QueueWait = qw.quantiles()
	}
	return cell, nil
}

// phase runs one warm-up or measurement and returns how long it took.
func (r *Runner) phase(ctx context.Context, s Scenario, load float64, p Phase, src *source, run *cellRun, label string) time.Duration {
	timeout := time.Duration(r.File.Timeout)
	total := p.Requests
	if s.Arrival.Mode == ModeTrace && total == 0 {
		total = len(s.Arrival.Trace)
	}
	if r.Progress != nil {
		r.Progress.Start(label, total)
		defer r.Progress.Finish()
	}
	record := func(o Outcome, asked int) {
		run.add(o, asked)
		if r.Progress != nil {
			r.Progress.Add(1)
		}
	}
	start := time.Now()
	var deadline time.Time
	if p.Duration > 0 {
		deadline = start.Add(time.Duration(p.Duration))
	}
	more := func(sent int) bool {
		if ctx.Err() != nil {
			return false
		}
		if p.Requests > 0 {
			return sent < p.Requests
		}
		return time.Now().Before(deadline)
	}
	var wg gosync.WaitGroup
	switch s.Arrival.Mode {
	case ModeClosed:
		var sent atomic.Int64
		var mu gosync.Mutex
		for range int(load) {
			wg.Go(func() {
				for {
					mu.Lock()
					ok := more(int(sent.Load()))
					if ok {
						sent.Add(1)
					}
					mu.Unlock()
					if !ok {
						return
					}
					k := src.call(s.Model, timeout, 0, 0)
					record(r.Client.do(ctx, k), k.inputTokens)
				}
			})
		}
	case ModeOpen:
		src.mu.Lock()
		arrivals := rand.New(rand.NewPCG(src.rng.Uint64(), src.rng.Uint64()))
		src.mu.Unlock()
		due := start
		for sent := 0; more(sent); sent++ {
			due = due.Add(time.Duration(arrivals.ExpFloat64() / load * float64(time.Second)))
			if !sleepUntil(ctx, due) {
				break
			}
			k := src.call(s.Model, timeout, 0, 0)
			k.measuredFrom = due
			wg.Go(func() { record(r.Client.do(ctx, k), k.inputTokens) })
		}
	case ModeTrace:
		for _, e := range s.Arrival.Trace {
			due := start.Add(time.Duration(e.AtMs / load * float64(time.Millisecond)))
			if !sleepUntil(ctx, due) {
				break
			}
			k := src.call(s.Model, timeout, e.InputTokens, e.OutputTokens)
			k.measuredFrom = due
			wg.Go(func() { record(r.Client.do(ctx, k), k.inputTokens) })
		}
	}
	wg.Wait()
	return time.Since(start)
}

func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// met reports whether one request met the SLO: answered, and within every threshold set.
func (s SLO) met(o Outcome) bool {
	if o.Rejected() || o.Failed() {
		return false
	}
	if s.TTFTMs > 0 && float64(o.TTFT)/1e6 > s.TTFTMs {
		return false
	}
	if s.E2EMs > 0 && float64(o.E2E)/1e6 > s.E2EMs {
		return false
	}
	if s.ITLMs > 0 && len(o.Gaps) > 0 {
		var sum time.Duration
		for _, g := range o.Gaps {
			sum += g
		}
		if float64(sum)/float64(len(o.Gaps))/1e6 > s.ITLMs {
			return false
		}
	}
	return true
}

func (c *Cell) summarise(run *cellRun, slo SLO, d time.Duration) {
	var ttft, gaps, e2e, late []time.Duration
	var asked, prompt, out float64
	promptN := 0
	for i, o := range run.outcomes {
		c.Attempted++
		asked += float64(run.asked[i])
		switch {
		case o.Rejected():
			if o.Status == 429 {
				c.Rejected429++
			} else {
				c.Rejected503++
			}
			bump(&c.RejectCodes, o.Code)
		case o.Failed():
			c.Errors++
			kind := o.Code
			if kind == "" {
				kind = o.Err
			}
			if kind == "" {
				kind = fmt.Sprintf("http %d", o.Status)
			}
			bump(&c.ErrorKinds, kind)
		default:
			c.Answered++
			if o.TTFT > 0 {
				ttft = append(ttft, o.TTFT)
			}
			gaps = append(gaps, o.Gaps...)
			e2e = append(e2e, o.E2E)
			out += float64(o.OutputTokens)
			if o.FromUsage {
				c.OutputFromUsage++
			}
			if o.PromptTokens > 0 {
				prompt += float64(o.PromptTokens)
				promptN++
			}
		}
		if c.Mode != ModeClosed {
			late = append(late, o.Late)
		}
		if slo.met(o) {
			c.Good++
		}
	}
	c.TTFT, c.ITL, c.E2E = percentiles(ttft), percentiles(gaps), percentiles(e2e)
	if len(late) > 0 {
		p := percentiles(late)
		c.SendLate = &p
	}
	c.InputTokensAsked = round3(mean(asked, c.Attempted))
	c.PromptTokens = round3(mean(prompt, promptN))
	c.OutputTokens = round3(mean(out, c.Answered))
	c.DurationS = round3(d.Seconds())
	if s := d.Seconds(); s > 0 {
		c.Goodput = round3(float64(c.Good) / s)
		c.Throughput = round3(float64(c.Answered) / s)
		c.OutputTokS = round3(out / s)
	}
	if c.Attempted > 0 {
		c.Attainment = round3(float64(c.Good) / float64(c.Attempted))
	}
	c.MeetsSLO = c.Attempted > 0 && float64(c.Good) >= slo.Attainment*float64(c.Attempted)
}

func bump(m *map[string]int, k string) {
	if k == "" {
		k = "unknown"
	}
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[k]++
}
