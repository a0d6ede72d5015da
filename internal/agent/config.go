package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/sucursal/sucursal/internal/api"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/redact"
	modelsync "github.com/sucursal/sucursal/internal/sync"
)

// Config is the edge-agent's whole configuration. YAML keys are the documented names; flags and
// EDGE_AGENT_* variables override them (see cmd/edge-agent).
type Config struct {
	// Listen is the HTTP address branch users call.
	Listen string `yaml:"listen"`
	// MetricsListen serves /metrics on a separate address; empty means on Listen.
	MetricsListen string `yaml:"metrics_listen"`
	// EdgeID names this NUC; it must match the edge certificate.
	EdgeID string `yaml:"edge_id"`
	// DC is the dc-gateway's host:port (UDP).
	DC string `yaml:"dc"`
	// DCServerName is the name checked against the gateway's certificate (default: DC's host).
	DCServerName string `yaml:"dc_server_name"`
	// DCSecondary lists further dc-gateways (host:port), tried in order when the primary cannot
	// serve. They share dc_server_name, or each is checked against its own host.
	DCSecondary []string `yaml:"dc_secondary"`
	// Failover tunes routing between the datacenter endpoints and a local fallback model.
	Failover FailoverConfig `yaml:"failover"`
	// PKI is the folder written by `fleetctl pki init`.
	PKI string `yaml:"pki"`
	// MaxBodyBytes limits a request body.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// RequestTimeout bounds a whole request (0 = unbounded).
	RequestTimeout time.Duration `yaml:"request_timeout"`
	// SlowClientTimeout cuts a streamed answer whose client has not read for this long, and
	// cancels its upstream request (0 = never).
	SlowClientTimeout time.Duration `yaml:"slow_client_timeout"`
	// ShutdownGrace is how long in-flight requests may finish after a stop signal.
	ShutdownGrace time.Duration `yaml:"shutdown_grace"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `yaml:"log_level"`
	// Link tunes the QUIC connection.
	Link LinkConfig `yaml:"link"`
	// Redaction is the personal-data policy (docs/REDACTION.md). It is always on.
	Redaction redact.Config `yaml:"redaction"`
	// Egress widens the request allow-list by name: fields and content parts the operator lets
	// leave the branch (docs/REDACTION.md, "The egress boundary").
	Egress chat.DecodeOptions `yaml:"egress"`
	// Sync keeps this NUC's local models in line with the fleet (docs/FLEET.md). It is on when
	// sync.nats is set; sync.edge_id defaults to edge_id.
	Sync modelsync.AgentConfig `yaml:"sync"`
	// Guard checks prompts and answers with local guard models (docs/GUARD.md). Off by default.
	Guard GuardConfig `yaml:"guard"`
	// Draft drafts greedy streamed answers on a local model for the DC to verify
	// (docs/DRAFTING.md). Off by default.
	Draft DraftConfig `yaml:"draft"`
}

// DraftConfig configures speculative drafting (docs/DRAFTING.md).
type DraftConfig struct {
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

// validateBackend checks the backend and the fields that belong to it; a field of the other
// backend is an error, because it is the likely sign of a backend left at its default.
func (d DraftConfig) validateBackend() []error {
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

// SyncEnabled reports whether model sync is configured.
func (c Config) SyncEnabled() bool { return c.Sync.NATSURL != "" }

// FailoverConfig tunes routing (docs/FAILOVER.md).
type FailoverConfig struct {
	// Breaker opens an endpoint's circuit after consecutive failures.
	Breaker failover.BreakerConfig `yaml:"breaker"`
	// MaxAttempts is how many DC endpoints one request may try (2 = one retry, only while
	// nothing has reached the user).
	MaxAttempts int `yaml:"max_attempts"`
	// AcceptTimeout bounds the wait for a gateway's acknowledgement of a request (at least four
	// RTTs); a gateway that misses it is treated as dead for that request. 0 disables.
	AcceptTimeout time.Duration `yaml:"accept_timeout"`
	// Local is a degraded fallback on the NUC's own runtime, used only when no DC can serve.
	Local LocalFallbackConfig `yaml:"local"`
}

// LocalFallbackConfig names a local OpenAI-compatible model for degraded answers.
type LocalFallbackConfig struct {
	Enabled bool   `yaml:"enabled"`
	URL     string `yaml:"url"`   // e.g. http://127.0.0.1:11434/v1
	Model   string `yaml:"model"` // a model that runtime serves
	// Role, if set, makes the fallback use whatever version of this role fleet sync installed
	// (Model is then only used until the first install).
	Role string `yaml:"role"`
}

// LinkConfig tunes the QUIC connection to the DC.
type LinkConfig struct {
	DialTimeout time.Duration `yaml:"dial_timeout"`
	KeepAlive   time.Duration `yaml:"keepalive"`
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	BackoffMin  time.Duration `yaml:"backoff_min"`
	BackoffMax  time.Duration `yaml:"backoff_max"`
}

// DefaultConfig is the configuration before file, environment and flags.
func DefaultConfig() Config {
	return Config{
		Listen:            "127.0.0.1:8080",
		MaxBodyBytes:      api.DefaultMaxBodyBytes,
		RequestTimeout:    10 * time.Minute,
		ShutdownGrace:     15 * time.Second,
		SlowClientTimeout: 60 * time.Second,
		LogLevel:          "info",
		Link: LinkConfig{
			DialTimeout: 5 * time.Second,
			KeepAlive:   5 * time.Second,
			IdleTimeout: 20 * time.Second,
			BackoffMin:  100 * time.Millisecond,
			BackoffMax:  10 * time.Second,
		},
		Redaction: redact.DefaultConfig(),
		Failover: FailoverConfig{
			Breaker:       failover.DefaultBreakerConfig(),
			MaxAttempts:   2,
			AcceptTimeout: 500 * time.Millisecond,
		},
	}
}

// LoadFile reads a YAML file over cfg. Unknown keys are errors: a typo must not silently fall
// back to a default in a bank branch.
func LoadFile(path string, cfg *Config) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	// An empty file is fine (yaml.v3 reports io.EOF for it).
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}

// Validate lists every problem at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		bad("listen: %q is not host:port", c.Listen)
	}
	if c.MetricsListen != "" {
		if _, _, err := net.SplitHostPort(c.MetricsListen); err != nil {
			bad("metrics_listen: %q is not host:port", c.MetricsListen)
		}
	}
	if c.EdgeID == "" {
		bad("edge_id is required (the id in this NUC's certificate)")
	}
	if c.DC == "" {
		bad("dc is required (the dc-gateway's host:port)")
	} else if _, _, err := net.SplitHostPort(c.DC); err != nil {
		bad("dc: %q is not host:port", c.DC)
	}
	if c.PKI == "" {
		bad("pki is required (the folder written by `fleetctl pki init`)")
	}
	if c.MaxBodyBytes <= 0 {
		bad("max_body_bytes must be positive")
	}
	if c.SlowClientTimeout < 0 {
		bad("slow_client_timeout must not be negative")
	}
	if c.RequestTimeout < 0 {
		bad("request_timeout must not be negative")
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		bad("log_level: %q is not one of debug, info, warn, error", c.LogLevel)
	}
	l := c.Link
	for name, d := range map[string]time.Duration{"link.dial_timeout": l.DialTimeout, "link.keepalive": l.KeepAlive,
		"link.idle_timeout": l.IdleTimeout, "link.backoff_min": l.BackoffMin, "link.backoff_max": l.BackoffMax} {
		if d <= 0 {
			bad("%s must be positive", name)
		}
	}
	if l.KeepAlive >= l.IdleTimeout && l.IdleTimeout > 0 {
		bad("link.keepalive (%s) must be shorter than link.idle_timeout (%s)", l.KeepAlive, l.IdleTimeout)
	}
	if l.BackoffMin > l.BackoffMax {
		bad("link.backoff_min must not exceed link.backoff_max")
	}
	for i, a := range c.DCSecondary {
		if _, _, err := net.SplitHostPort(a); err != nil {
			bad("dc_secondary[%d]: %q is not host:port", i, a)
		}
	}
	f := c.Failover
	if f.MaxAttempts < 1 {
		bad("failover.max_attempts must be at least 1")
	}
	if f.AcceptTimeout < 0 {
		bad("failover.accept_timeout must not be negative")
	}
	if f.Breaker.FailureThreshold < 1 || f.Breaker.OpenFor <= 0 || f.Breaker.MaxOpenFor < f.Breaker.OpenFor {
		bad("failover.breaker: failure_threshold ≥ 1, open_for > 0 and max_open_for ≥ open_for are required")
	}
	if f.Local.Enabled {
		if u, err := url.Parse(f.Local.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("failover.local.url: %q is not an http(s) URL such as http://127.0.0.1:11434/v1", f.Local.URL)
		}
		if f.Local.Model == "" && f.Local.Role == "" {
			bad("failover.local needs a model, or a role that fleet sync installs, when enabled")
		}
		if f.Local.Role != "" && !c.SyncEnabled() {
			bad("failover.local.role %q needs model sync (sync.nats) to install it", f.Local.Role)
		}
	}
	if err := c.Redaction.Validate(); err != nil {
		bad("redaction: %w", err)
	}
	if err := c.Egress.Validate(); err != nil {
		errs = append(errs, err)
	}
	if d := c.Draft; d.Enabled {
		errs = append(errs, d.validateBackend()...)
		lo, hi := max(d.GammaMin, 1), d.GammaMax
		if hi == 0 {
			hi = 8
		}
		if d.GammaMin < 0 || d.GammaMax < 0 || hi > 32 || lo > hi {
			bad("draft: want 0 ≤ gamma_min ≤ gamma_max ≤ 32 (0 = default)")
		}
		switch d.Mode {
		case "", "auto", "token", "text":
		default:
			bad("draft.mode: %q is not auto, token or text", d.Mode)
		}
	}
	if err := c.Guard.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.SyncEnabled() {
		sc := c.Sync
		if sc.EdgeID == "" {
			sc.EdgeID = c.EdgeID
		}
		if err := sc.Validate(false, false); err != nil {
			bad("%w", err)
		}
	}
	return errors.Join(errs...)
}
