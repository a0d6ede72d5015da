package drafter

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/pipeline"
)

// Config is the edge-agent's `draft:` section (docs/DRAFTING.md). Off by default.
type Config struct {
	Enabled bool `yaml:"enabled"`
	// Backend is the local runtime the draft model runs on: ollama (default) or llamacpp
	// (llama.cpp's llama-server).
	Backend string `yaml:"backend"`
	// OllamaURL is the local Ollama with the draft model, e.g. http://127.0.0.1:11434.
	OllamaURL string `yaml:"ollama_url"`
	// URL is the llama-server's base URL, e.g. http://127.0.0.1:8081 (backend llamacpp).
	URL string `yaml:"url"`
	// Model names the draft model: required for Ollama; for llama-server only sent in router mode.
	Model string `yaml:"model"`
	// TokenizerGGUF is the GGUF file llama-server serves (backend llamacpp, optional): llama-server
	// cannot list its vocabulary, so token mode needs the tokenizer from the file. Without it the
	// drafter has no fingerprint and drafts in text mode.
	TokenizerGGUF string `yaml:"tokenizer_gguf"`
	// GammaMin and GammaMax bound the tokens drafted per round (defaults 1 and 8; equal = fixed).
	GammaMin int `yaml:"gamma_min"`
	GammaMax int `yaml:"gamma_max"`
	// Mode is auto (token mode when the drafter's tokenizer is the target's, text mode
	// otherwise), token (token mode or plain streaming) or text.
	Mode string `yaml:"mode"`
	// Pipeline drafts the next round while a verification is in flight (default true).
	Pipeline *bool `yaml:"pipeline"`
}

// Validate lists every problem of an enabled section at once.
func (d Config) Validate() error {
	if !d.Enabled {
		return nil
	}
	errs := d.validateBackend()
	lo, hi := max(d.GammaMin, 1), d.GammaMax
	if hi == 0 {
		hi = 8
	}
	if d.GammaMin < 0 || d.GammaMax < 0 || hi > 32 || lo > hi {
		errs = append(errs, errors.New("draft: want 0 ≤ gamma_min ≤ gamma_max ≤ 32 (0 = default)"))
	}
	switch d.Mode {
	case "", "auto", "token", "text":
	default:
		errs = append(errs, fmt.Errorf("draft.mode: %q is not auto, token or text", d.Mode))
	}
	return errors.Join(errs...)
}

// validateBackend checks the backend and the fields that belong to it; a field of the other
// backend is an error, because it is the likely sign of a backend left at its default.
func (d Config) validateBackend() []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	isURL := func(s string) bool {
		u, err := url.Parse(s)
		return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
	}
	switch d.Backend {
	case "", "ollama":
		if !isURL(d.OllamaURL) {
			bad("draft.ollama_url: %q is not an http(s) URL such as http://127.0.0.1:11434", d.OllamaURL)
		}
		if d.Model == "" {
			bad("draft.model is required with draft.backend ollama")
		}
		if d.URL != "" || d.TokenizerGGUF != "" {
			bad("draft.url and draft.tokenizer_gguf are for draft.backend llamacpp (Ollama uses draft.ollama_url and reports its own tokenizer)")
		}
	case "llamacpp":
		if !isURL(d.URL) {
			bad("draft.url: %q is not an http(s) URL such as http://127.0.0.1:8081 (the llama-server)", d.URL)
		}
		if d.OllamaURL != "" {
			bad("draft.ollama_url is for draft.backend ollama; a llama-server is named by draft.url")
		}
		if d.Mode == "token" && d.TokenizerGGUF == "" {
			bad("draft.mode token with draft.backend llamacpp needs draft.tokenizer_gguf (llama-server cannot report its tokenizer)")
		}
	default:
		bad("draft.backend: %q is not ollama or llamacpp", d.Backend)
	}
	return errs
}

// Stage wraps a DC endpoint's plain terminal in the drafter when the section is enabled (the
// drafter hands back to plain for whatever it cannot draft). Validate has checked what the
// constructors check, so their errors cannot happen here; should one, the endpoint stays plain
// and the error is logged.
func Stage(d Config, v Verifier, reg prometheus.Registerer, log *slog.Logger) pipeline.Stage {
	return func(plain pipeline.Handler) pipeline.Handler {
		if !d.Enabled {
			return plain
		}
		m, err := d.model()
		if err == nil {
			var t *Terminal
			t, err = NewTerminal(v, m, plain, Options{GammaMin: d.GammaMin, GammaMax: d.GammaMax,
				Mode: d.Mode, NoPipeline: d.Pipeline != nil && !*d.Pipeline}, reg, log)
			if err == nil {
				return t
			}
		}
		log.Error("drafting disabled for this endpoint", "error", err.Error())
		return plain
	}
}

// model builds the draft backend the section names.
func (d Config) model() (Model, error) {
	if d.Backend == "llamacpp" {
		return NewLlamaServer(d.URL, d.Model, d.TokenizerGGUF, nil)
	}
	return NewOllama(d.OllamaURL, d.Model, nil)
}
