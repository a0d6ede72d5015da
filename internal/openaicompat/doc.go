// Package openaicompat is a client of any OpenAI-compatible HTTP API (vLLM, LiteLLM, Ollama's
// /v1, llama.cpp server, OpenVINO Model Server's /v3): the dc-gateway's client of the central
// model server, and the edge's client of a local runtime (the degraded fallback). It streams
// server-sent events as they arrive and passes the server's own errors through.
//
// It only ever carries redacted text (in the DC) or text that stays on the NUC; it must never log
// bodies.
package openaicompat
