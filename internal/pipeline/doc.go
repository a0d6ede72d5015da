// Package pipeline is the edge's request path as stages of one shape (Stage: func(next Handler)
// Handler): Observe, Guard, Redact, AwaitChecks, and the terminal ForwardToDC. A stage may change
// the request before calling the next one and may wrap the ResponseWriter to change what comes
// back. The stages are composed in one place, agent.requestPath, which reads top-down; a test can
// compose any two of them. Stages talk to each other only through the documented fields of
// Request.
//
// The order is the product's privacy argument: anything that sends data out of the branch sits
// below the stages that redact it. This package must never log message content, and never
// imports the transport (link, wire): the DC is an interface it defines (internal/deptest checks).
package pipeline
