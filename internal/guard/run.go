package guard

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/sucursal/sucursal/internal/gopanic"
)

// task is one classifier on one text, split into the windows the classifier's kind needs.
type task struct {
	text    int
	c       Classifier
	windows []string
}

// outcome is a task's verdict, worst window first. A task can have both a partial verdict and an
// error: a block found in one window stands even if another window failed.
type outcome struct {
	v          Verdict
	have       bool
	err        error
	failedOver bool
}

func (o *outcome) merge(v Verdict) {
	if !o.have {
		o.v, o.have = v, true
		o.v.Categories = slices.Clone(v.Categories)
		return
	}
	o.v.Malicious = o.v.Malicious || v.Malicious
	o.v.Score = max(o.v.Score, v.Score)
	for _, c := range v.Categories {
		if !slices.Contains(o.v.Categories, c) {
			o.v.Categories = append(o.v.Categories, c)
		}
	}
}

// errStop cancels the remaining classifier calls once one has decided to block: nothing they
// could say would change the outcome.
var errStop = errors.New("guard: block found")

func (g *Guard) run(ctx context.Context, stage string, texts []ScanText, tasks []task, budget time.Duration, fm FailMode, failover bool) (Decision, error) {
	start := time.Now()
	d := Decision{Action: ActionAllow}
	if len(tasks) == 0 {
		return g.finish(stage, d, start)
	}
	out := make([]outcome, len(tasks))
	bctx, cancel := context.WithTimeout(ctx, budget)
	g.classifyAll(bctx, stage, tasks, out)
	cancel()
	if ctx.Err() != nil {
		return Decision{}, fmt.Errorf("guard: %w", context.Cause(ctx))
	}
	if failover && g.fallback != nil && !g.blocks(out) {
		g.failover(ctx, stage, texts, tasks, out)
	}
	var failed []error
	for _, o := range out {
		if o.have {
			d.add(g.judge(o.v))
			d.FailedOver = d.FailedOver || o.failedOver
		}
		if o.err != nil {
			failed = append(failed, o.err)
		}
	}
	if len(failed) > 0 && d.Action != ActionBlock {
		if fm == FailClosed {
			g.m.check.WithLabelValues(stage).Observe(time.Since(start).Seconds())
			g.m.decisions.WithLabelValues(stage, "unavailable").Inc()
			g.log.WarnContext(ctx, "guard unavailable, failing closed", "stage", stage, "failed_checks", len(failed), "checks", len(tasks))
			return Decision{}, fmt.Errorf("%w: %d of %d checks gave no verdict: %w", ErrGuardUnavailable, len(failed), len(tasks), failed[0])
		}
		d.Degraded = true
	}
	return g.finish(stage, d, start)
}

func (g *Guard) blocks(out []outcome) bool {
	for _, o := range out {
		if a, _ := g.judge(o.v); o.have && a == ActionBlock {
			return true
		}
	}
	return false
}

// classifyAll runs every window of every task, at most MaxConcurrency at once, and stops early on
// a block.
func (g *Guard) classifyAll(ctx context.Context, stage string, tasks []task, out []outcome) {
	eg, ectx := errgroup.WithContext(ctx)
	eg.SetLimit(g.p.MaxConcurrency)
	var mu sync.Mutex
	for ti, t := range tasks {
		for _, w := range t.windows {
			eg.Go(func() error {
				v, err := g.classify(ectx, stage, t.c, w)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					if out[ti].err == nil {
						out[ti].err = err
					}
					return nil
				}
				out[ti].merge(v)
				if a, _ := g.judge(v); a == ActionBlock {
					return errStop
				}
				return nil
			})
		}
	}
	_ = eg.Wait() // errStop is the only error, and it has done its job by cancelling ectx
}

// failover asks the DC guard about texts whose local classifier of the same kind failed, on their
// redacted form only. One DC call per text, shared by every failed task on it.
func (g *Guard) failover(ctx context.Context, stage string, texts []ScanText, tasks []task, out []outcome) {
	byText := map[int][]int{}
	for ti, t := range tasks {
		if out[ti].err != nil && t.c.Kind() == g.fallback.Kind() {
			byText[t.text] = append(byText[t.text], ti)
		}
	}
	fctx, cancel := context.WithTimeout(ctx, g.p.FallbackTimeout)
	defer cancel()
	var eg errgroup.Group
	eg.SetLimit(g.p.MaxConcurrency)
	var mu sync.Mutex
	for text, tis := range byText {
		local := tasks[tis[0]].c.Name()
		if texts[text].Redacted == nil {
			g.m.failovers.WithLabelValues(local, "no_redacted_text").Inc()
			continue
		}
		eg.Go(func() error {
			v, err := g.classifyRedacted(fctx, stage, texts[text])
			result := "ok"
			if err != nil {
				result = "error"
			}
			g.m.failovers.WithLabelValues(local, result).Inc()
			mu.Lock()
			defer mu.Unlock()
			for _, ti := range tis {
				if err != nil {
					out[ti].err = fmt.Errorf("%w; failover: %w", out[ti].err, err)
					continue
				}
				out[ti].merge(v)
				out[ti].err, out[ti].failedOver = nil, true
			}
			return nil
		})
	}
	_ = eg.Wait()
}

func (g *Guard) classifyRedacted(ctx context.Context, stage string, t ScanText) (Verdict, error) {
	red, err := t.Redacted(ctx)
	if err != nil {
		return Verdict{}, fmt.Errorf("guard: redacted text for failover: %w", err)
	}
	var o outcome
	for _, w := range g.windows(g.fallback.Kind(), red) {
		v, err := g.classify(ctx, stage, g.fallback, w)
		if err != nil {
			return Verdict{}, err
		}
		o.merge(v)
	}
	if !o.have { // a blank redacted text: nothing to object to
		return Verdict{Kind: g.fallback.Kind()}, nil
	}
	return o.v, nil
}

// classify is one classifier call, measured. Its errors name the classifier and the reason only.
func (g *Guard) classify(ctx context.Context, stage string, c Classifier, text string) (Verdict, error) {
	var (
		v   Verdict
		err = ctx.Err() // a call queued behind the concurrency limit may find the budget spent
		dur time.Duration
	)
	if err == nil {
		t0 := time.Now()
		v, err = g.call(ctx, stage, c, text)
		dur = time.Since(t0)
		g.m.classify.WithLabelValues(c.Name(), stage).Observe(dur.Seconds())
	}
	if err == nil && v.Kind == "" {
		v.Kind = c.Kind() // a classifier has one kind; saying it again is optional
	}
	if err == nil && v.Kind != c.Kind() {
		err = fmt.Errorf("%w: verdict of kind %q from a %q classifier", ErrMalformedOutput, v.Kind, c.Kind())
	}
	if err != nil {
		reason := failureReason(err)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			reason = "timeout"
		} else if ctx.Err() != nil {
			// Cancelled because another check blocked or the caller left: not the classifier's fault.
			return Verdict{}, fmt.Errorf("guard: classifier %s: %w", c.Name(), ctx.Err())
		}
		g.m.failures.WithLabelValues(c.Name(), reason).Inc()
		g.log.WarnContext(ctx, "guard classifier failed", "classifier", c.Name(), "kind", string(c.Kind()), "stage", stage,
			"reason", reason, "bytes", len(text), "duration_ms", dur.Milliseconds())
		return Verdict{}, fmt.Errorf("guard: classifier %s: %s: %w", c.Name(), reason, err)
	}
	a, _ := g.judge(v)
	g.m.verdict(c.Name(), v, v.Kind == KindInjection && a != ActionAllow)
	return v, nil
}

// call asks c, turning its panic into a failure of that classifier (ErrClassifierPanicked): the
// fail mode and the failover then apply as to a dead server, and the process, which an
// unrecovered panic in a check's goroutine would stop, goes on serving. The panic is logged with
// its type and stack, never its value, which may hold text of the request.
func (g *Guard) call(ctx context.Context, stage string, c Classifier, text string) (v Verdict, err error) {
	defer func() {
		if p := recover(); p != nil {
			kind, stack := gopanic.Describe(p)
			g.log.ErrorContext(ctx, "guard classifier panicked", "classifier", c.Name(), "stage", stage,
				"panic_type", kind, "stack", string(stack))
			v, err = Verdict{}, fmt.Errorf("%w (%T)", ErrClassifierPanicked, p)
		}
	}()
	return c.Classify(ctx, text)
}
