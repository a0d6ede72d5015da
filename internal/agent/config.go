package agent

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/sucursal/sucursal/internal/admission"
	"github.com/sucursal/sucursal/internal/api"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/configcheck"
	"github.com/sucursal/sucursal/internal/drafter"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/guard/guardsetup"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/sync"
)

// Config is the edge-agent's whole configuration: its own few keys, and one section per
// subsystem, each defined, defaulted and validated by the package it configures. YAML keys are
// the documented names; flags and EDGE_AGENT_* variables override them (see cmd/edge-agent).
type Config struct {
	// Version is this build's version, reported to the gateway in the hello; the binary sets it,
	// no file does.
	Version string `yaml:"-"`

	// The HTTP endpoint branch users call: listen, metrics_listen, max_body_bytes,
	// request_timeout, slow_client_timeout.
	api.Config `yaml:",inline"`
	// EdgeID names this NUC; it must match the edge certificate.
	EdgeID string `yaml:"edge_id"`
	// DC is the dc-gateway's host:port (UDP).
	DC string `yaml:"dc"`
	// DCServerName is the name checked against the gateway's certificate (default: DC's host).
	DCServerName string `yaml:"dc_server_name"`
	// DCSecondary lists further dc-gateways (host:port), tried in order when the primary cannot
	// serve. They share dc_server_name, or each is checked against its own host.
	DCSecondary []string `yaml:"dc_secondary"`
	// PKI is the folder written by `fleetctl pki init`.
	PKI string `yaml:"pki"`
	// ShutdownGrace is how long in-flight requests may finish after a stop signal.
	ShutdownGrace time.Duration `yaml:"shutdown_grace"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `yaml:"log_level"`
	// MemoryLimit is a soft bound on the agent's memory in bytes (Go's GOMEMLIMIT): near it the
	// garbage collector works harder instead of letting the heap grow. The NUC's model servers
	// share its memory. 0: no limit.
	MemoryLimit int64 `yaml:"memory_limit"`

	Admission admission.Config   `yaml:"admission"` // what enters, waits or is refused, and what one request may cost
	Link      link.Tuning        `yaml:"link"`      // the QUIC connection (package link)
	Failover  failover.Config    `yaml:"failover"`  // routing between DC endpoints and a local model
	Redaction redact.Config      `yaml:"redaction"` // the personal-data policy; always on
	Egress    chat.DecodeOptions `yaml:"egress"`    // what may leave beyond the allow-list
	Sync      sync.AgentConfig   `yaml:"sync"`      // model sync; on when sync.nats is set
	Guard     guardsetup.Config  `yaml:"guard"`     // guard models; off by default
	Draft     drafter.Config     `yaml:"draft"`     // speculative drafting; off by default
}

// SyncEnabled reports whether model sync is configured.
func (c Config) SyncEnabled() bool { return c.Sync.NATSURL != "" }

// DefaultConfig is the configuration before file, environment and flags.
func DefaultConfig() Config {
	return Config{
		Version:       "dev",
		Config:        api.DefaultConfig(),
		ShutdownGrace: 15 * time.Second,
		MemoryLimit:   192 << 20,
		LogLevel:      "info",
		Link:          link.DefaultTuning(),
		Admission:     admission.DefaultConfig(),
		Redaction:     redact.DefaultConfig(),
		Failover:      failover.DefaultConfig(),
	}
}

// LoadFile reads a YAML file over cfg. Unknown keys are errors: a typo must not silently fall
// back to a default in a bank branch. Every syntax, unknown-key and type problem is listed, each
// with its line (CheckFile adds the logic and PKI checks).
func LoadFile(path string, cfg *Config) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if ps := configcheck.Decode(b, cfg); len(ps) > 0 {
		return fmt.Errorf("config %s:\n%w", path, configcheck.Errors(ps))
	}
	return nil
}

// Validate lists every problem at once: the agent's own keys, then each section's.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.EdgeID == "" {
		bad("edge_id is required (the id in this NUC's certificate)")
	}
	if c.DC == "" {
		bad("dc is required (the dc-gateway's host:port)")
	} else if _, _, err := net.SplitHostPort(c.DC); err != nil {
		bad("dc: %q is not host:port", c.DC)
	}
	for i, a := range c.DCSecondary {
		if _, _, err := net.SplitHostPort(a); err != nil {
			bad("dc_secondary[%d]: %q is not host:port", i, a)
		}
	}
	if c.PKI == "" {
		bad("pki is required (the folder written by `fleetctl pki init`)")
	}
	if c.MemoryLimit < 0 || c.MemoryLimit > 0 && c.MemoryLimit < 64<<20 {
		bad("memory_limit: %d bytes; want 0 (none) or at least 64 MiB", c.MemoryLimit)
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		bad("log_level: %q is not one of debug, info, warn, error", c.LogLevel)
	}
	if err := c.Config.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.Admission.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.Link.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.Failover.Validate(c.SyncEnabled()); err != nil {
		errs = append(errs, err)
	}
	if err := c.Redaction.Validate(); err != nil {
		bad("redaction: %w", err)
	}
	if err := c.Egress.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.Draft.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.Guard.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.SyncEnabled() {
		if err := c.syncConfig().Validate(false, false); err != nil {
			bad("%w", err)
		}
	}
	return errors.Join(errs...)
}

// syncConfig is the sync section with edge_id as its default edge id.
func (c Config) syncConfig() sync.AgentConfig {
	sc := c.Sync
	if sc.EdgeID == "" {
		sc.EdgeID = c.EdgeID
	}
	return sc
}
