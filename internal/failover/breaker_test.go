package failover

import (
	"sync"
	"testing"
	"time"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func p(s State) *State { return &s }

func TestBreakerStateMachine(t *testing.T) {
	type step struct {
		do    string // allow, ok, fail, trip, wait
		wait  time.Duration
		allow bool // for "allow"
		state *State
	}
	cfg := BreakerConfig{FailureThreshold: 2, OpenFor: time.Second, MaxOpenFor: 4 * time.Second}
	tests := []struct {
		name  string
		steps []step
	}{
		{"closed stays closed on success", []step{
			{do: "allow", allow: true, state: p(Closed)}, {do: "ok", state: p(Closed)}}},
		{"opens after the threshold", []step{
			{do: "fail", state: p(Closed)}, {do: "fail", state: p(Open)}, {do: "allow", allow: false, state: p(Open)}}},
		{"a success resets the count", []step{
			{do: "fail", state: p(Closed)}, {do: "ok", state: p(Closed)}, {do: "fail", state: p(Closed)}}},
		{"half-open lets one probe through", []step{
			{do: "trip", state: p(Open)}, {do: "wait", wait: 1300 * time.Millisecond, state: p(HalfOpen)},
			{do: "allow", allow: true, state: p(HalfOpen)}, {do: "allow", allow: false, state: p(HalfOpen)},
			{do: "ok", state: p(Closed)}, {do: "allow", allow: true, state: p(Closed)}}},
		{"a failed probe reopens with a longer period", []step{
			{do: "trip", state: p(Open)}, {do: "wait", wait: 1300 * time.Millisecond},
			{do: "allow", allow: true, state: p(HalfOpen)}, {do: "fail", state: p(Open)},
			{do: "wait", wait: 1300 * time.Millisecond, state: p(Open)}, // 2 s ± 20 % now
			{do: "wait", wait: 1200 * time.Millisecond, state: p(HalfOpen)}}},
		{"backoff is capped", []step{
			{do: "trip"}, {do: "wait", wait: 2 * time.Second}, {do: "allow", allow: true}, {do: "fail"},
			{do: "wait", wait: 3 * time.Second}, {do: "allow", allow: true}, {do: "fail"},
			{do: "wait", wait: 5 * time.Second}, {do: "allow", allow: true}, {do: "fail"},
			{do: "wait", wait: 4*time.Second + 900*time.Millisecond, state: p(HalfOpen)}}},
		{"still closed before the open period ends", []step{
			{do: "trip", state: p(Open)}, {do: "wait", wait: 700 * time.Millisecond, state: p(Open)},
			{do: "allow", allow: false, state: p(Open)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{t: time.Unix(1000, 0)}
			var changes []string
			b := NewBreaker("dc", cfg, c.now, func(_ string, from, to State) { changes = append(changes, from.String()+">"+to.String()) })
			for i, s := range tt.steps {
				switch s.do {
				case "allow":
					if got := b.Allow(); got != s.allow {
						t.Fatalf("step %d: Allow() = %v, want %v", i, got, s.allow)
					}
				case "ok":
					b.Success()
				case "fail":
					b.Failure()
				case "trip":
					b.Trip()
				case "wait":
					c.add(s.wait)
				}
				if s.state != nil {
					if got := b.State(); got != *s.state {
						t.Fatalf("step %d (%s): state %v, want %v (changes %v)", i, s.do, got, *s.state, changes)
					}
				}
			}
		})
	}
}

// State changes are reported once each, not per request.
func TestBreakerReportsChangesOnce(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	n := 0
	b := NewBreaker("dc", BreakerConfig{FailureThreshold: 1, OpenFor: time.Second}, c.now, func(string, State, State) { n++ })
	b.Failure()
	for range 100 {
		b.Allow()
		b.Failure()
	}
	if n != 1 {
		t.Fatalf("%d change reports for one closed→open", n)
	}
}
