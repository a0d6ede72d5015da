package procs

import (
	"runtime"
	"testing"
	"time"
)

// The policy runs on one P until more than Busy requests are in flight, on Max Ps while they
// are, and goes back to one P once the count has stayed at or under Busy for Quiet.
func TestPolicyFollowsRequestsInFlight(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	before := runtime.GOMAXPROCS(2) // whatever this machine has: the policy needs two Ps to give
	t.Cleanup(func() {
		enabled.Store(false)
		runtime.GOMAXPROCS(before)
	})
	Start(Policy{Max: 2, Busy: 1, Quiet: 20 * time.Millisecond})
	if got := Procs(); got != 1 {
		t.Fatalf("after Start: %d Ps, want 1", got)
	}
	Begin()
	if got := Procs(); got != 1 {
		t.Fatalf("one request in flight: %d Ps, want 1", got)
	}
	Begin()
	if got := Procs(); got != 2 {
		t.Fatalf("two requests in flight: %d Ps, want 2", got)
	}
	End()
	Begin() // back over Busy before Quiet ran out: stays wide
	if got := Procs(); got != 2 {
		t.Fatalf("two requests in flight again: %d Ps, want 2", got)
	}
	End()
	End()
	deadline := time.Now().Add(10 * time.Second)
	for Procs() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("still %d Ps long after the quiet period", Procs())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// GOMAXPROCS in the environment wins: Start changes nothing and Begin/End do nothing.
func TestEnvironmentWins(t *testing.T) {
	t.Setenv("GOMAXPROCS", "2")
	before := runtime.GOMAXPROCS(2)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	Start(Policy{Max: 2, Busy: 1})
	Begin()
	Begin()
	End()
	End()
	if enabled.Load() || Procs() != 2 {
		t.Fatalf("enabled=%v with %d Ps, want the environment's 2 untouched", enabled.Load(), Procs())
	}
}
