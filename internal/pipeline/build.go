package pipeline

import "github.com/sucursal/sucursal/internal/redact"

// Deps are what the stages need.
type Deps struct {
	Link     DCLink
	Redactor *redact.Redactor
}

// Build composes the edge's request pipeline. Read it top-down: that is the order a request
// travels; the answer travels back up through the same stages. Everything below Redact sees
// placeholders only, and ForwardToDC is the only way out of the branch.
func Build(d Deps) Handler {
	stages := Chain(
		Redact(d.Redactor), // personal data → placeholders; the answer is rehydrated on its way up
	)
	return stages(ForwardToDC(d.Link))
}
