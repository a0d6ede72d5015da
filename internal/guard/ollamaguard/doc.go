// Package ollamaguard runs a generative guard model (Llama Guard, or an injection model that answers
// with a label) on a local Ollama server through github.com/ollama/ollama/api. Ollama applies the
// model's own chat template, which carries the guard's instructions and category list.
//
// It must never put the text or the model's answer into an error or a log: Ollama's error bodies
// can echo a request, so only the status code is kept.
package ollamaguard
