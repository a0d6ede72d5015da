// Package vllmverifier is the production verifier backend of speculative drafting
// (drafting.Backend) on vLLM's OpenAI-compatible server: a session's chat is tokenized once with
// vLLM's own template (/tokenize), and each round is one /v1/completions call over token ids with
// prompt_logprobs, which gives the target's greedy choice at every draft position in a single
// pass. Token texts, the fingerprint and the stop ids come from the served model's tokenizer
// files (vLLM has no endpoint listing its vocabulary). See docs/DRAFTING-VLLM.md.
//
// It runs in the datacenter on redacted text. It must never log a prompt, a draft or an answer,
// and its errors never quote text (vLLM's error bodies may echo the prompt, so they are dropped):
// they name paths, token ids, sizes, counts and status codes only.
package vllmverifier
