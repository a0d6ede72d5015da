// Package testmodel writes tiny, deterministic llama-architecture GGUF models with the standard
// library, and predicts in Go exactly what a real runtime (Ollama, llama.cpp) will answer with them.
//
// A model is described by a Spec: a SentencePiece vocabulary and a successor relation between
// pieces. Each piece gets a one-hot embedding dimension, the output matrix maps that dimension to the
// piece's successor, and the transformer block only writes into scratch dimensions the output ignores,
// so greedy decoding follows the successor relation exactly, whatever the context. That lets tests run
// real models on a real server and still compute the expected answer independently (Greedy).
//
// This package is for tests, demos and CI only. It must never be used to serve users, must never
// download anything, and must not depend on a running server (see internal/ollamatest for that).
package testmodel
