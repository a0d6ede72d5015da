package guard

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// ScanText is one piece of a request to check.
type ScanText struct {
	Source string // SourceUser, SourceTool, SourceDocument or SourceSystem
	Text   string
	// Redacted returns Text after redaction. It is the only text the DC fallback ever sees; the
	// pipeline usually fills it from its redaction stage, which runs concurrently with the guard, so
	// it may block until redaction is done. Nil: this text is never failed over.
	Redacted func(ctx context.Context) (string, error)
}

// Decision is the outcome of a check.
type Decision struct {
	Action     Action
	Categories []Category // what made it flag or block, injection first, then S1..S14
	// Degraded: some classifier gave no verdict and the policy fails open; the pipeline flags
	// the response (header) and the fail-open metric counts it.
	Degraded bool
	// FailedOver: some verdict came from the DC guard on redacted text.
	FailedOver bool
	// Refusal is the assistant message to answer with when the policy's on_block is refusal.
	Refusal string
}

// BlockedError is returned with every block. errors.Is(err, ErrBlocked) holds.
type BlockedError struct {
	Categories []Category
	Refusal    string // non-empty when the policy answers blocks with a refusal message
}

func (e *BlockedError) Error() string {
	names := make([]string, len(e.Categories))
	for i, c := range e.Categories {
		names[i] = c.Code + " " + c.Name
	}
	return "guard: content blocked (" + strings.Join(names, ", ") + ")"
}

func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// Guard applies a policy to the verdicts of local classifiers, failing over to the DC guard.
type Guard struct {
	p        Policy
	input    []Classifier
	output   []Classifier
	fallback Classifier
	m        *metrics
	log      *slog.Logger
}

// New builds a guard. input classifiers check prompts, output classifiers check answers (a
// Llama Guard with RoleAgent); fallback is the DC guard (nil for none) and receives redacted text
// only. Metrics are registered on reg.
func New(p Policy, input, output []Classifier, fallback Classifier, reg prometheus.Registerer, log *slog.Logger) (*Guard, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	p = p.clone() // the caller keeps its maps; the guard reads its own without locks
	var errs []error
	for _, c := range slices.Concat(input, output, []Classifier{fallback}) {
		if c != nil && (c.Name() == "" || !c.Kind().valid()) {
			errs = append(errs, fmt.Errorf("guard: classifier %q has kind %q: want a name and a known kind", c.Name(), c.Kind()))
		}
	}
	if reg == nil || log == nil {
		errs = append(errs, errors.New("guard: a prometheus.Registerer and a logger are required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, fmt.Errorf("guard: metrics: %w", err)
	}
	// A policy that scans for a kind no classifier provides silently passes everything of that
	// kind; that is allowed (a branch may run only Prompt Guard) but worth saying at start-up.
	for _, k := range []Kind{KindInjection, KindSafety} {
		scanned := slices.ContainsFunc(slices.Collect(maps.Values(p.Scan)), func(ks []Kind) bool { return slices.Contains(ks, k) })
		provided := slices.ContainsFunc(input, func(c Classifier) bool { return c.Kind() == k })
		if scanned && !provided {
			log.Warn("guard policy scans for a kind no input classifier provides", "kind", string(k))
		}
	}
	return &Guard{p: p, input: input, output: output, fallback: fallback, m: m, log: log}, nil
}

// Policy returns a copy of the guard's policy.
func (g *Guard) Policy() Policy { return g.p.clone() }

// CheckInput runs the input classifiers, concurrently, on the texts the policy says to scan,
// within the policy's latency budget. A block returns the decision and a *BlockedError; a failure
// the policy does not tolerate returns an error wrapping ErrGuardUnavailable.
func (g *Guard) CheckInput(ctx context.Context, texts []ScanText) (Decision, error) {
	var tasks []task
	for i, t := range texts {
		if strings.TrimSpace(t.Text) == "" {
			continue
		}
		kinds := g.p.Scan[t.Source]
		for _, c := range g.input {
			if slices.Contains(kinds, c.Kind()) {
				tasks = append(tasks, task{text: i, c: c, windows: g.windows(c.Kind(), t.Text)})
			}
		}
	}
	return g.run(ctx, stageInput, texts, tasks, g.p.Timeout, g.p.FailMode, true)
}

func (g *Guard) windows(k Kind, text string) []string {
	if k == KindInjection {
		return Windows(text, g.p.Injection.WindowTokens, g.p.Injection.WindowOverlap)
	}
	return Windows(text, g.p.Safety.WindowTokens, g.p.Safety.WindowOverlap)
}

// judge turns one verdict into an action and the categories behind it.
func (g *Guard) judge(v Verdict) (Action, []Category) {
	switch {
	case v.Kind == KindInjection:
		if a := g.p.injectionAction(v.Score); a != ActionAllow {
			return a, []Category{CategoryInjection}
		}
		return ActionAllow, nil
	case !v.Malicious:
		return ActionAllow, nil
	case len(v.Categories) == 0:
		// Only a fallback that does not name categories gets here; the local parser refuses it.
		return g.p.Safety.Default, nil
	}
	act, cats := ActionAllow, []Category(nil)
	for _, c := range v.Categories {
		a := g.p.safetyAction(c.Code)
		if a != ActionAllow {
			cats = append(cats, c)
		}
		if a.rank() > act.rank() {
			act = a
		}
	}
	return act, cats
}

func (d *Decision) add(a Action, cats []Category) {
	if a.rank() > d.Action.rank() {
		d.Action = a
	}
	for _, c := range cats {
		if !slices.Contains(d.Categories, c) {
			d.Categories = append(d.Categories, c)
		}
	}
	slices.SortFunc(d.Categories, func(a, b Category) int { return catOrder(a) - catOrder(b) })
}

func catOrder(c Category) int {
	if c == CategoryInjection {
		return -1
	}
	return categoryIndex(c)
}

// finish records the decision and turns a block into its error.
func (g *Guard) finish(stage string, d Decision, start time.Time) (Decision, error) {
	g.m.check.WithLabelValues(stage).Observe(time.Since(start).Seconds())
	g.m.decisions.WithLabelValues(stage, string(d.Action)).Inc()
	if d.Degraded {
		g.m.failOpen.WithLabelValues(stage).Inc()
	}
	codes := make([]string, len(d.Categories))
	for i, c := range d.Categories {
		codes[i] = c.Code
	}
	// Plain allows are Debug: the output scanner decides every few hundred bytes of every answer.
	level := slog.LevelDebug
	if d.Action != ActionAllow || d.Degraded || d.FailedOver {
		level = slog.LevelInfo
	}
	g.log.Log(context.Background(), level, "guard decision", "stage", stage, "action", string(d.Action), "categories", codes,
		"degraded", d.Degraded, "failed_over", d.FailedOver, "duration_ms", time.Since(start).Milliseconds())
	if d.Action != ActionBlock {
		return d, nil
	}
	if g.p.OnBlock == "refusal" {
		d.Refusal = g.p.RefusalMessage
	}
	return d, &BlockedError{Categories: slices.Clone(d.Categories), Refusal: d.Refusal}
}
