package procs

import (
	"fmt"
	"os"
	"sync/atomic"
	"testing"
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
