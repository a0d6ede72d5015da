// Package drafting is the datacenter half of speculative drafting: it verifies the drafts an edge's
// small model proposes against the big target model and sends back the longest prefix the target
// would have produced itself, plus the target's own next token. It holds the per-session service
// (Service: sessions, rounds, TTL, the draft.hello and draft operations), the acceptance rule
// (token mode by id, text mode by spelling, never ending inside a character) and the interface of
// its verifier backends (Backend), each of which is its own package (ollamaverifier, vllmverifier).
// The dc-gateway carries the operations over QUIC; this package knows nothing of the transport.
//
// Everything accepted is the target's own greedy tokens, so drafting never changes an answer.
//
// It runs in the datacenter on redacted text only. It must never log, label a metric with, or put
// in an error sent to the edge a draft, a prompt or an answer: counts, codes and timings only.
package drafting
