// Package api is the edge-agent's HTTP face for branch users and apps: OpenAI-compatible
// /v1/chat/completions (streamed as server-sent events or not) and /v1/models, plus /healthz,
// /readyz and /metrics for operators. It turns bad input into specific OpenAI-shaped errors and
// hands good requests to the pipeline.
//
// It must never log request or response content; logs carry ids, sizes, codes and timings.
package api
