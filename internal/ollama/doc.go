// Package ollama holds what the project's callers of an Ollama server share beyond the upstream
// client (github.com/ollama/ollama/api): rendering a conversation with the model's own template
// (the drafter and the DC's reference verifier both need the exact prompt text), and converting
// the project's message type to Ollama's.
//
// It must never log prompts or answers.
package ollama
