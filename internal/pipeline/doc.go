// Package pipeline is the edge's request path: a chain of stages with one shape, composed in one
// place (Build) that reads top-down, CoreDNS-style. A stage may change the request before calling
// the next one and may wrap the ResponseWriter to change what comes back; the terminal handler
// answers the request (today: forward it to the datacenter).
//
// The order in Build is the product's privacy argument: anything that sends data out of the
// branch must sit below the stages that redact it. This package must never log message content.
package pipeline
