package failover

import (
	"math/rand/v2"
	"sync"
	"time"
)

// State is a breaker's state.
type State int

const (
	Closed   State = iota // requests flow; failures are counted
	Open                  // requests are refused until the backoff ends
	HalfOpen              // one probe request is let through; its result decides
)

func (s State) String() string {
	switch s {
	case Closed:
		return "closed"
	case Open:
		return "open"
	case HalfOpen:
		return "half-open"
	}
	return "unknown"
}

// BreakerConfig tunes a breaker.
type BreakerConfig struct {
	// FailureThreshold consecutive failures open the breaker.
	FailureThreshold int `yaml:"failure_threshold"`
	// OpenFor is the first open period; each failed probe doubles it up to MaxOpenFor. Periods
	// are jittered by ±20 % so a fleet of edges does not probe a recovering DC in lockstep.
	OpenFor    time.Duration `yaml:"open_for"`
	MaxOpenFor time.Duration `yaml:"max_open_for"`
}

// DefaultBreakerConfig opens after 3 consecutive failures for 1 s, backing off to 30 s.
func DefaultBreakerConfig() BreakerConfig {
	return BreakerConfig{FailureThreshold: 3, OpenFor: time.Second, MaxOpenFor: 30 * time.Second}
}

// Breaker is a circuit breaker for one backend.
type Breaker struct {
	name     string
	cfg      BreakerConfig
	now      func() time.Time
	onChange func(name string, from, to State)

	mu        sync.Mutex
	state     State
	failures  int
	openFor   time.Duration
	openUntil time.Time
	probing   bool
}

// NewBreaker returns a closed breaker. onChange (may be nil) is called on every state change,
// outside the lock.
func NewBreaker(name string, cfg BreakerConfig, now func() time.Time, onChange func(name string, from, to State)) *Breaker {
	d := DefaultBreakerConfig()
	if cfg.FailureThreshold <= 0 {
		cfg.FailureThreshold = d.FailureThreshold
	}
	if cfg.OpenFor <= 0 {
		cfg.OpenFor = d.OpenFor
	}
	if cfg.MaxOpenFor < cfg.OpenFor {
		cfg.MaxOpenFor = max(d.MaxOpenFor, cfg.OpenFor)
	}
	if now == nil {
		now = time.Now
	}
	return &Breaker{name: name, cfg: cfg, now: now, onChange: onChange, openFor: cfg.OpenFor}
}

// Name is the backend's name.
func (b *Breaker) Name() string { return b.name }

// State returns the current state (an open breaker whose period ended reads as half-open).
func (b *Breaker) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == Open && !b.now().Before(b.openUntil) {
		return HalfOpen
	}
	return b.state
}

// Allow reports whether a request may go to the backend now. In half-open state exactly one
// request (the probe) is allowed until it reports its result.
func (b *Breaker) Allow() bool {
	b.mu.Lock()
	var from, to State
	changed := false
	allowed := false
	switch b.state {
	case Closed:
		allowed = true
	case Open:
		if !b.now().Before(b.openUntil) {
			from, to, changed = Open, HalfOpen, true
			b.state = HalfOpen
			b.probing = true
			allowed = true
		}
	case HalfOpen:
		if !b.probing {
			b.probing = true
			allowed = true
		}
	}
	b.mu.Unlock()
	if changed {
		b.notify(from, to)
	}
	return allowed
}

// Success records a request that the backend served.
func (b *Breaker) Success() {
	b.mu.Lock()
	from := b.state
	b.failures = 0
	b.probing = false
	b.state = Closed
	b.openFor = b.cfg.OpenFor
	b.mu.Unlock()
	if from != Closed {
		b.notify(from, Closed)
	}
}

// Failure records a request the backend failed (or a failed health signal).
func (b *Breaker) Failure() {
	b.mu.Lock()
	from := b.state
	to := from
	switch b.state {
	case Closed:
		b.failures++
		if b.failures >= b.cfg.FailureThreshold {
			to = Open
			b.open()
		}
	case HalfOpen, Open:
		// The probe failed (or a late failure arrived): back off further.
		if b.state == HalfOpen {
			b.openFor = min(b.openFor*2, b.cfg.MaxOpenFor)
		}
		to = Open
		b.open()
	}
	b.probing = false
	b.mu.Unlock()
	if to != from {
		b.notify(from, to)
	}
}

// Reset closes the breaker at once, forgetting failures and backoff: the backend's connection
// was re-established, so what failed on the old one says nothing about the new one.
func (b *Breaker) Reset() {
	b.mu.Lock()
	from := b.state
	b.state, b.failures, b.probing, b.openFor = Closed, 0, false, b.cfg.OpenFor
	b.mu.Unlock()
	if from != Closed {
		b.notify(from, Closed)
	}
}

// Trip opens the breaker at once (a hard signal such as the QUIC connection closing).
func (b *Breaker) Trip() {
	b.mu.Lock()
	from := b.state
	if from != Open {
		b.open()
	}
	b.probing = false
	b.mu.Unlock()
	if from != Open {
		b.notify(from, Open)
	}
}

func (b *Breaker) open() {
	b.state = Open
	b.failures = 0
	jitter := 0.8 + 0.4*rand.Float64()
	b.openUntil = b.now().Add(time.Duration(float64(b.openFor) * jitter))
}

func (b *Breaker) notify(from, to State) {
	if b.onChange != nil {
		b.onChange(b.name, from, to)
	}
}
