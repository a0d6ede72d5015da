package procs

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// SysmonSlack is the timer slack SlowSysmon gives the sysmon thread.
const SysmonSlack = time.Millisecond

// defaultSlack is Linux's timer slack for a thread nobody set one for (init's, inherited).
const defaultSlack = 50 * time.Microsecond

// Slack returns the calling thread's timer slack (prctl PR_GET_TIMERSLACK). Threads inherit it
// from the thread that starts them, so early in main it is the slack the process was started
// with: TimerSlackNSec= of a systemd unit, or what the parent had. 0 if prctl failed.
func Slack() time.Duration {
	r, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_GET_TIMERSLACK, 0, 0)
	if e != 0 {
		return 0
	}
	return time.Duration(r)
}

// errOwnSlack: the process was started with a timer slack of its own; SlowSysmon leaves it.
var errOwnSlack = errors.New("procs: the process runs with a timer slack of its own; sysmon keeps it")

// SlowSysmon sets the timer slack of the runtime's sysmon thread to SysmonSlack (Linux's default
// is 50 µs).
//
// sysmon is the runtime's monitor thread. When every P goes idle it sleeps until the next timer;
// the first system call after that (each chunk's read or write, when a chunk comes every few ms)
// wakes it, and it then sleeps 20 µs at a time until every P is idle again: with the default
// slack, a context switch every ~70 µs of each burst of work, on top of the work's own. With 1 ms
// of slack it looks once or twice per burst. What it does on those looks (taking a P back from
// a thread blocked in a system call, preempting a goroutine that ran for 10 ms, polling the
// network when nobody did for 10 ms) then happens up to 1 ms later; the runtime itself lets
// sysmon's sleep grow to 10 ms when nothing happens. No other thread's timers change.
//
// Another thread's slack can only be set with CAP_SYS_NICE (or as root): without it this returns
// the permission error and changes nothing. The thread is found as the first one the runtime
// started after the main thread (sysmon is started before any package's init) and checked to be
// in nanosleep, sysmon's sleep; if that check fails nothing is changed either.
//
// A process started with a timer slack other than Linux's default (the packaged units'
// TimerSlackNSec=, which every thread inherits, sysmon included, and which needs no capability)
// keeps it: SlowSysmon then changes nothing, so that a run as root measures what the units give.
func SlowSysmon() error {
	if Slack() != defaultSlack {
		return errOwnSlack
	}
	tid, err := sysmonTID()
	if err != nil {
		return err
	}
	return os.WriteFile(fmt.Sprintf("/proc/%d/timerslack_ns", tid), []byte(strconv.FormatInt(int64(SysmonSlack), 10)), 0)
}

var errNoSysmon = errors.New("procs: the sysmon thread was not found")

func sysmonTID() (int, error) {
	pid := os.Getpid()
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0, err
	}
	pidMax := 1 << 22
	if b, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && n > 0 {
			pidMax = n
		}
	}
	var tids []int
	for _, e := range ents {
		if t, err := strconv.Atoi(e.Name()); err == nil && t != pid {
			tids = append(tids, t)
		}
	}
	if len(tids) == 0 {
		return 0, errNoSysmon
	}
	// Thread ids are handed out in increasing order (wrapping at pid_max): the first thread
	// started after the main one is the closest above it.
	after := func(t int) int { return ((t-pid)%pidMax + pidMax) % pidMax }
	first := slices.MinFunc(tids, func(a, b int) int { return after(a) - after(b) })
	// sysmon spends nearly all its time in nanosleep while the process runs (it is running now,
	// in this init): look a few times, in case it is between two sleeps.
	for range 20 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/syscall", first))
		if err != nil {
			return 0, err
		}
		if nr, _, _ := strings.Cut(string(b), " "); nr == strconv.Itoa(syscall.SYS_NANOSLEEP) {
			return first, nil
		}
		time.Sleep(100 * time.Microsecond)
	}
	return 0, errNoSysmon
}
