// Package link is the edge's end of the edge⇄DC QUIC connection, and transport only: one
// long-lived, mutually authenticated connection per edge, kept alive, re-dialled with jittered
// exponential backoff when it drops, and one bidirectional stream per request (Open, Call).
//
// It knows frames, not operations: package dc is the client of the DC's operations and the only
// caller of Open, and it runs the exit check first. Everything written to a Call leaves the branch.
// This package must never log payloads, and must not import guard, redact, pipeline or chat
// (internal/deptest checks).
package link
