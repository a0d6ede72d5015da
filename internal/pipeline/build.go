package pipeline

// Deps are what the stages need.
type Deps struct {
	Link DCLink
}

// Build composes the edge's request pipeline. Read it top-down: that is the order a request
// travels; the answer travels back up through the same stages.
func Build(d Deps) Handler {
	return Chain(
		ForwardToDC(d.Link), // terminal: the only way out of the branch
	)
}
