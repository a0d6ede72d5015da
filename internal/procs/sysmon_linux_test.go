package procs

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// sysmonTID finds a thread other than the main one, in nanosleep, while a P is busy (sysmon
// sleeps in a futex instead when every P is idle).
func TestSysmonFound(t *testing.T) {
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
		}
	}()
	tid, err := sysmonTID()
	stop.Store(true)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if tid == os.Getpid() {
		t.Fatalf("took the main thread (%d) for sysmon", tid)
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/self/task/%d", tid)); err != nil {
		t.Fatalf("thread %d is not this process's: %v", tid, err)
	}
}

// A process started with a timer slack of its own (a unit's TimerSlackNSec=) keeps it: Slack
// reports it and SlowSysmon changes nothing.
func TestOwnSlackIsKept(t *testing.T) {
	runtime.LockOSThread() // never unlocked: the thread with the changed slack ends with the test
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_TIMERSLACK, uintptr(time.Millisecond), 0); e != 0 {
		t.Fatal(e)
	}
	if got := Slack(); got != time.Millisecond {
		t.Fatalf("Slack() = %v, want 1ms", got)
	}
	if err := SlowSysmon(); !errors.Is(err, errOwnSlack) {
		t.Fatalf("SlowSysmon() = %v, want errOwnSlack", err)
	}
}
