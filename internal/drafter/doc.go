// Package drafter is the edge half of speculative drafting: a small local model proposes the next
// few tokens of an answer, the datacenter's target verifies them in one pass (wire.OpDraft), and
// the accepted text streams to the user as ordinary chat.completion.chunks.
//
// It drafts on the redacted request only — it sits below the Redact stage, so drafts, like
// everything else sent to the DC, carry placeholders, never personal data; the Redact stage above
// rehydrates the chunks it emits. Greedy requests only (temperature 0): for anything else it hands
// the request to the plain streaming terminal, and it never changes an answer — every character
// it emits is a token the target produced itself.
//
// It must never log or label metrics with draft or answer text: counts and timings only.
package drafter
