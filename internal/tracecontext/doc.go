// Package tracecontext reads, makes and carries W3C Trace Context `traceparent` values
// (https://www.w3.org/TR/trace-context/): version 00, a 16-byte trace id, an 8-byte parent id
// and the sampled flag.
//
// It must never carry anything but ids it made from crypto/rand or validated as lowercase hex.
// The edge is a trace boundary: a branch client's traceparent is recorded in the edge's own logs
// (it stays on the NUC) and the edge starts its own trace for the DC, so no value a client chose
// travels to the datacenter (ARCHITECTURE.md invariant 1: a client-chosen trace id would be 16
// bytes of client data on the wire).
package tracecontext
