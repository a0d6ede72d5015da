package pipeline

import (
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/redact"
)

// Deps are what the stages need.
type Deps struct {
	Link DCLink
	// Terminal answers what reaches the bottom of the pipeline: the failover router over the DC
	// endpoints (and a local fallback). Nil means ForwardToDC(Link) alone.
	Terminal Handler
	Redactor *redact.Redactor
	// Guard checks prompts and answers; nil runs without (a NUC with no guard models).
	Guard *guard.Guard
	// SequentialGuard waits for the guard's verdict before redaction starts instead of running
	// both at once: the baseline the guard benchmark compares against. The DC fallback cannot
	// work in this order (the redacted text does not exist yet when the guard needs it).
	SequentialGuard bool
}

// Build composes the edge's request pipeline. Read Stages top-down: that is the order a request
// travels; the answer travels back up through the same stages. Everything below Redact sees
// placeholders only, and ForwardToDC is the only way out of the branch.
func Build(d Deps) Handler {
	terminal := d.Terminal
	if terminal == nil {
		terminal = ForwardToDC(d.Link)
	}
	return Stages(d)(terminal)
}

// Stages is every stage above the terminal, in order (tests put their own terminal under it).
func Stages(d Deps) Stage {
	switch {
	case d.Guard == nil:
		return Chain(
			Redact(d.Redactor), // personal data → placeholders; the answer is rehydrated on its way up
		)
	case d.SequentialGuard:
		return Chain(
			Guard(d.Guard), AwaitChecks(), // verdict first …
			Redact(d.Redactor), // … then redaction: latency = guard + redaction
		)
	}
	return Chain(
		Guard(d.Guard),     // prompt check starts on the raw text, concurrently with redaction; answer checked on the way up
		Redact(d.Redactor), // personal data → placeholders; the answer is rehydrated on its way up
		AwaitChecks(),      // nothing leaves the branch before the guard's verdict
	)
}
