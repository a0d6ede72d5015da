// Package kserveguard scores text with a sequence-classification model (Llama Prompt Guard 2) served
// by OpenVINO Model Server over the KServe v2 REST API: the text goes in as a BYTES tensor (the
// model has its tokenizer built in), logits come out, and a softmax turns them into P(malicious).
// The protocol is package kserve; this package only reads the class scores.
//
// It must never put the text or the server's answer into an error or a log: only status codes,
// tensor names and shapes.
package kserveguard
