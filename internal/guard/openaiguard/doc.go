// Package openaiguard runs a generative guard model (Llama Guard, or a label-answering injection
// model) on an OpenAI-compatible chat server on the NUC: llama.cpp's llama-server or OpenVINO
// Model Server's /v3 endpoint. The server applies the model's chat template.
//
// It must never put the text or the server's answer into an error or a log: only status codes and
// lengths.
package openaiguard
