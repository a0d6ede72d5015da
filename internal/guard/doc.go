// Package guard decides whether a request or an answer may pass, using small guard models that run
// on the branch's own hardware: a prompt-injection classifier in the style of Llama Prompt Guard 2
// and a safety classifier in the style of Llama Guard (categories S1–S14). A YAML [Policy] turns
// their verdicts into allow, flag or block, says what to scan, how long to wait, and what to do when
// the guard models are down (fail closed or open).
//
// The edge-agent's pipeline calls [Guard.CheckInput] on the prompt (concurrently with redaction) and
// feeds the streamed answer through an [OutputScanner]. Backends live in sub-packages: ollamaguard
// (Ollama's api), openaiguard (OpenAI-compatible chat: llama.cpp server, OVMS) and kserveguard
// (OVMS KServe v2 REST sequence classification).
//
// What this package must never do:
//   - put text, or anything computed from it other than lengths, counts and timings, into a log
//     line, a metric label or an error; the classifiers' raw output is never revealed either, since
//     it can echo the text (a malformed answer is reported by its length only);
//   - send raw text to the DC. The fallback classifier given to [New] (the DC guard, reached over
//     the QUIC link) is only ever called with the text returned by [ScanText.Redacted], which the
//     pipeline fills from its redaction stage. A text without Redacted is never failed over, and the
//     output scanner never fails over at all, because the answer it sees is already rehydrated;
//   - treat a model answer it cannot parse as "safe": that is a failure, handled by the fail mode.
package guard
