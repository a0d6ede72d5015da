// Package kserve is a client for the KServe v2 inference protocol over REST (the "Open Inference
// Protocol"), as OpenVINO Model Server speaks it: server and model readiness, model metadata,
// and inference with typed tensors. Its methods mirror the protocol's endpoints one for one;
// what a model's outputs mean (BIO labels, class logits) is left to the caller.
//
// Inputs are usually user text. It must never put a request, a tensor's data or the server's
// answer into an error or a log: errors carry status codes, lengths, shapes and counts only
// (servers echo inputs in their error messages, so those are not kept either).
package kserve
