// Package chat holds the OpenAI chat-completions types the edge-agent reads from branch users and
// the errors it answers with. Fields the agent does not know are kept and forwarded unchanged, so a
// client's request reaches the target as it was sent (after redaction).
//
// It must never log or format message content: the types carry user text and PII.
package chat
