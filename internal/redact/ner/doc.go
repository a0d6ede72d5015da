// Package ner holds the NER backends behind redact.NER: Ollama (a generative model asked for a
// JSON-schema-constrained list of entities), any OpenAI-compatible server — llama.cpp's
// llama-server, OpenVINO Model Server's /v3 — asked the same through chat completions with
// response_format json_schema (the protocol is package openaicompat), and OpenVINO Model Server's
// KServe v2 REST (a token-classification model whose BIO labels are merged into spans; the
// protocol is package kserve, this package only reads the labels).
//
// All talk only to a model server on the branch's own machine. They must never send text
// anywhere else, never log it, and never put it in an error: errors carry status codes, shapes
// and lengths. A backend may return spans that are not in the text (models invent); package
// redact drops those, so backends pass them on as the model gave them.
package ner
