// Package ollamaverifier is the reference verifier backend of speculative drafting
// (drafting.Backend) on Ollama's native API: the target continues the rendered prompt plus the
// accepted answer with raw /api/generate at temperature 0, and each returned token's bytes name
// its id in the target's vocabulary, so it serves both text and token mode. It is what CI runs end
// to end against a real Ollama; production datacenters use vllmverifier.
//
// It runs in the datacenter on redacted text. It must never log a prompt, a draft or an answer
// (it does not log at all; drafting.Service answers the edge with fixed codes for its errors).
package ollamaverifier
