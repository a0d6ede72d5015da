package admission

import (
	"errors"
	"fmt"
	"time"
)

// Limits are one tenant's limits (0 = none).
type Limits struct {
	// MaxActive is how many of the tenant's requests may be served at once.
	MaxActive int `yaml:"max_active"`
	// RequestsPerMinute and TokensPerMinute bound the tenant's rate; tokens are estimated from
	// the input (about four bytes a token) plus the output it asks for.
	RequestsPerMinute int `yaml:"requests_per_minute"`
	TokensPerMinute   int `yaml:"tokens_per_minute"`
	// MaxInputTokens refuses longer prompts; MaxOutputTokens caps what a request may ask for
	// (a request asking for more, or for nothing, gets this as its max_tokens).
	MaxInputTokens  int `yaml:"max_input_tokens"`
	MaxOutputTokens int `yaml:"max_output_tokens"`
}

// Config is the edge-agent's `admission:` section.
type Config struct {
	// MaxActive is how many requests the branch serves at once (the NUC's capacity for
	// concurrent answers, guard and redaction included).
	MaxActive int `yaml:"max_active"`
	// BatchMaxActive is how many of those the batch class may hold, so interactive users always
	// find room (default: half of MaxActive, at least 1).
	BatchMaxActive int `yaml:"batch_max_active"`
	// MaxQueue is how many requests may wait for a slot; MaxWait how long each may wait.
	MaxQueue int           `yaml:"max_queue"`
	MaxWait  time.Duration `yaml:"max_wait"`
	// MaxInFlightBodyBytes bounds the request bodies read and being processed at once: redaction
	// needs a small multiple of a body in memory, so this bounds the agent's memory.
	MaxInFlightBodyBytes int64 `yaml:"max_inflight_body_bytes"`
	// MaxEntities and MaxVaultBytes bound one request's redaction vault: distinct personal
	// values and their bytes; past them the request is refused (422 too_many_entities).
	MaxEntities   int `yaml:"max_entities_per_request"`
	MaxVaultBytes int `yaml:"max_vault_bytes"`
	// Default applies to every tenant; Tenants overrides it per tenant (the key file's names).
	Default Limits            `yaml:"default"`
	Tenants map[string]Limits `yaml:"tenants"`
}

// DefaultConfig: 64 requests at once (32 for batch), 128 waiting for at most 30 s, 6 MiB of
// bodies in flight (one request at the 4 MiB body limit, and small ones beside it), 4 096 personal values (1 MiB) per request; no per-tenant limits until the
// operator sets them (the NUC mostly relays: what it can hold at once depends on its guard and
// drafter models — measure it with the overload benchmark and set max_active).
func DefaultConfig() Config {
	return Config{MaxActive: 64, MaxQueue: 128, MaxWait: 30 * time.Second, MaxInFlightBodyBytes: 6 << 20,
		MaxEntities: 4096, MaxVaultBytes: 1 << 20}
}

// Validate lists every problem at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("admission: "+format, a...)) }
	if c.MaxActive < 1 {
		bad("max_active must be at least 1")
	}
	if c.BatchMaxActive < 0 || c.BatchMaxActive > c.MaxActive {
		bad("batch_max_active must be within [0, max_active] (0: half of max_active)")
	}
	if c.MaxQueue < 0 {
		bad("max_queue must not be negative")
	}
	if c.MaxWait < 0 {
		bad("max_wait must not be negative")
	}
	if c.MaxEntities < 0 || c.MaxVaultBytes < 0 {
		bad("max_entities_per_request and max_vault_bytes must not be negative (0: no bound)")
	}
	if c.MaxInFlightBodyBytes < 0 {
		bad("max_inflight_body_bytes must not be negative (0: no bound)")
	}
	check := func(at string, l Limits) {
		if l.MaxActive < 0 || l.RequestsPerMinute < 0 || l.TokensPerMinute < 0 || l.MaxInputTokens < 0 || l.MaxOutputTokens < 0 {
			bad("%s: limits must not be negative (0: no limit)", at)
		}
	}
	check("default", c.Default)
	for name, l := range c.Tenants {
		check("tenants."+name, l)
	}
	return errors.Join(errs...)
}

func (c Config) limits(tenant string) Limits {
	if l, ok := c.Tenants[tenant]; ok {
		return l
	}
	return c.Default
}
