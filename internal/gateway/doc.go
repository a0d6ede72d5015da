// Package gateway is the datacenter end of the edge⇄DC link: it accepts QUIC connections from edges
// that hold a certificate of the fleet CA, takes each edge's identity from that certificate, serves
// every request stream on its own goroutine by calling the central OpenAI-compatible target, and
// streams the answer back. When an edge cancels a stream (its user went away), the upstream request
// is cancelled too. The guard operation is answered by a guard.Classifier and the drafting
// operations by a Drafting service (internal/drafting); the gateway only carries them.
//
// Everything it receives was redacted on the edge. It must still never log request or response
// bodies: only sizes, counts, codes and timings.
package gateway
