// Package procs chooses, as the load changes, how many threads run the process's Go code at once
// (GOMAXPROCS), and keeps the runtime's sysmon thread from sampling every 20 µs around each
// burst of work (issue #20, docs/PERFORMANCE.md).
//
// A relay streaming one answer does a little work every 2-50 ms. Each extra P is one more idle
// thread the scheduler wakes and parks at every goroutine hand-off (quic-go's UDP reader,
// connection loop and send queue, the stream's reader, the netpoller), so with few requests in
// flight one P relays with fewer context switches and less CPU; with many, the other cores are
// worth their wake-ups. Start sets one P; Begin and End count the requests in flight; more than
// Policy.Busy of them switch to Policy.Max Ps at once, and the process goes back to one P once the
// count has stayed at or under Busy for Policy.Quiet. Each switch stops the world for a few
// microseconds; the quiet period keeps them rare. GOMAXPROCS set in the environment turns all of
// this off: the runtime keeps what it says. SlowSysmon is separate from the choice of Ps.
package procs

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Policy says when to use more than one P.
type Policy struct {
	// Max is the number of Ps when busy; 0 or more than the runtime's default (the cores, or a
	// container's CPU quota) means the default, which the runtime then keeps up to date.
	Max int
	// Busy is the most requests in flight that one P serves.
	Busy int
	// Quiet is how long the count must stay at or under Busy before going back to one P.
	Quiet time.Duration
}

var (
	enabled atomic.Bool

	mu       sync.Mutex
	pol      Policy
	wide     bool // running with pol.Max Ps
	inflight int
	narrow   *time.Timer // pending return to one P
)

// Start applies p from now on: one P until more than p.Busy requests are in flight. It does
// nothing when GOMAXPROCS is set in the environment, or when the runtime has only one P to give.
// Whatever GOMAXPROCS says, it also slows the sysmon thread's sampling (see SlowSysmon). Call it
// once, early in main.
func Start(p Policy) {
	_ = SlowSysmon()
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	def := runtime.GOMAXPROCS(0)
	if p.Max <= 0 || p.Max > def {
		p.Max = 0 // the runtime's default, kept up to date by it
	}
	if def <= 1 || p.Max == 1 {
		return
	}
	if p.Quiet <= 0 {
		p.Quiet = 2 * time.Second
	}
	mu.Lock()
	defer mu.Unlock()
	pol = p
	runtime.GOMAXPROCS(1)
	enabled.Store(true)
}

// Begin counts a request in flight; End must follow it. Both are cheap no-ops unless Start
// enabled the policy.
func Begin() {
	if !enabled.Load() {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	inflight++
	if inflight <= pol.Busy {
		return
	}
	if narrow != nil {
		narrow.Stop()
		narrow = nil
	}
	if !wide {
		wide = true
		if pol.Max == 0 {
			runtime.SetDefaultGOMAXPROCS()
		} else {
			runtime.GOMAXPROCS(pol.Max)
		}
	}
}

// End counts a request finished.
func End() {
	if !enabled.Load() {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	inflight--
	if wide && inflight <= pol.Busy && narrow == nil {
		narrow = time.AfterFunc(pol.Quiet, toOne)
	}
}

func toOne() {
	mu.Lock()
	defer mu.Unlock()
	narrow = nil
	if wide && inflight <= pol.Busy {
		wide = false
		runtime.GOMAXPROCS(1)
	}
}

// Procs reports the Ps in use now (runtime.GOMAXPROCS(0)), for tests and logs.
func Procs() int { return runtime.GOMAXPROCS(0) }
