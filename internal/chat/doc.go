// Package chat holds the OpenAI chat-completions types: the request as the edge-agent reads it
// from branch users — strictly, into an allow-list of typed fields (DecodeRequest), encoded
// again from those fields alone for the datacenter (Request.Encode) — the answers model servers
// send back (which keep the fields they add), and the errors users receive, with their codes.
//
// It must never log or format message content: the types carry user text and PII. It stays a
// leaf: it imports nothing of the project but internal/jsonlit.
package chat
