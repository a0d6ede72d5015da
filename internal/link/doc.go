// Package link is the edge's end of the edge⇄DC QUIC connection: one long-lived, mutually
// authenticated connection per edge, kept alive, re-dialled with jittered exponential backoff when
// it drops, and one bidirectional stream per user request.
//
// Everything written to a Call leaves the branch: callers must only pass redacted requests. This
// package must never log payloads.
package link
