package failover

import (
	"errors"
	"fmt"
	"net/url"
	"time"
)

// Config is the edge-agent's `failover:` section (docs/FAILOVER.md).
type Config struct {
	// Breaker opens an endpoint's circuit after consecutive failures.
	Breaker BreakerConfig `yaml:"breaker"`
	// MaxAttempts is how many DC endpoints one request may try (2 = one retry, only while
	// nothing has reached the user).
	MaxAttempts int `yaml:"max_attempts"`
	// AcceptTimeout bounds the wait for a gateway's acknowledgement of a request (at least four
	// RTTs); a gateway that misses it is treated as dead for that request. 0 disables.
	AcceptTimeout time.Duration `yaml:"accept_timeout"`
	// Local is a degraded fallback on the NUC's own runtime, used only when no DC can serve.
	Local LocalConfig `yaml:"local"`
}

// LocalConfig names a local OpenAI-compatible model for degraded answers.
type LocalConfig struct {
	Enabled bool   `yaml:"enabled"`
	URL     string `yaml:"url"`   // e.g. http://127.0.0.1:11434/v1
	Model   string `yaml:"model"` // a model that runtime serves
	// Role, if set, makes the fallback use whatever version of this role fleet sync installed
	// (Model is then only used until the first install).
	Role string `yaml:"role"`
}

// DefaultConfig: two attempts, a 500 ms acknowledgement bound, the default breaker, no local
// fallback.
func DefaultConfig() Config {
	return Config{Breaker: DefaultBreakerConfig(), MaxAttempts: 2, AcceptTimeout: 500 * time.Millisecond}
}

// Validate lists every problem at once. syncEnabled says whether model sync can install
// local.role.
func (f Config) Validate(syncEnabled bool) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if f.MaxAttempts < 1 {
		bad("failover.max_attempts must be at least 1")
	}
	if f.AcceptTimeout < 0 {
		bad("failover.accept_timeout must not be negative")
	}
	if f.Breaker.FailureThreshold < 1 || f.Breaker.OpenFor <= 0 || f.Breaker.MaxOpenFor < f.Breaker.OpenFor {
		bad("failover.breaker: failure_threshold ≥ 1, open_for > 0 and max_open_for ≥ open_for are required")
	}
	if l := f.Local; l.Enabled {
		if u, err := url.Parse(l.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("failover.local.url: %q is not an http(s) URL such as http://127.0.0.1:11434/v1", l.URL)
		}
		if l.Model == "" && l.Role == "" {
			bad("failover.local needs a model, or a role that fleet sync installs, when enabled")
		}
		if l.Role != "" && !syncEnabled {
			bad("failover.local.role %q needs model sync (sync.nats) to install it", l.Role)
		}
	}
	return errors.Join(errs...)
}
