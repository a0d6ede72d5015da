// Package target is the dc-gateway's client of the central model server: any OpenAI-compatible
// HTTP API (vLLM, LiteLLM, Ollama's /v1, llama.cpp server). It streams server-sent events as they
// arrive and passes the target's own errors through.
//
// It runs in the datacenter and only ever sees redacted text; it must still never log bodies.
package target
