package sdnotify

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// listen makes a real notify socket, as systemd does, and points NOTIFY_SOCKET at it.
func listen(t *testing.T) *net.UnixConn {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	t.Setenv("NOTIFY_SOCKET", path)
	return c
}

// next reads one datagram, or fails the test after wait.
func next(t *testing.T, c *net.UnixConn, wait time.Duration) string {
	t.Helper()
	buf := make([]byte, 256)
	_ = c.SetReadDeadline(time.Now().Add(wait))
	n, err := c.Read(buf)
	if err != nil {
		t.Fatalf("no notification within %v: %v", wait, err)
	}
	return string(buf[:n])
}

func TestStates(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"Ready", Ready, "READY=1"},
		{"Stopping", Stopping, "STOPPING=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := listen(t)
			if err := tc.call(); err != nil {
				t.Fatal(err)
			}
			if got := next(t, c, time.Second); got != tc.want {
				t.Errorf("sent %q, want %q", got, tc.want)
			}
			if os.Getenv("NOTIFY_SOCKET") == "" {
				t.Error("NOTIFY_SOCKET was unset; later notifications would be lost")
			}
		})
	}
}

func TestWatchdogPingsAtHalfTheInterval(t *testing.T) {
	c := listen(t)
	const usec = 200_000 // 200 ms: pings every 100 ms
	t.Setenv("WATCHDOG_USEC", strconv.Itoa(usec))
	t.Setenv("WATCHDOG_PID", strconv.Itoa(os.Getpid()))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Watchdog(ctx) }()

	start := time.Now()
	for i := 0; i < 4; i++ {
		if got := next(t, c, time.Second); got != "WATCHDOG=1" {
			t.Fatalf("ping %d: sent %q, want WATCHDOG=1", i, got)
		}
	}
	// Pings at 0, 100, 200, 300 ms: well inside the 200 ms deadline each time, never a burst.
	if el := time.Since(start); el < 250*time.Millisecond || el > 900*time.Millisecond {
		t.Errorf("4 pings took %v, want about 300ms (every WATCHDOG_USEC/2)", el)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Watchdog returned %v after cancel, want nil", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Watchdog did not return after its context ended")
	}
}

func TestNoSystemdIsANoOp(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	t.Setenv("WATCHDOG_USEC", "1000")
	t.Setenv("WATCHDOG_PID", strconv.Itoa(os.Getpid()))
	if err := Ready(); err != nil {
		t.Errorf("Ready: %v, want nil", err)
	}
	if err := Stopping(); err != nil {
		t.Errorf("Stopping: %v, want nil", err)
	}
}

func TestWatchdogOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		usec string
		pid  int
	}{
		{"no WATCHDOG_USEC", "", os.Getpid()},
		{"watchdog of another process", "1000", os.Getpid() + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := listen(t)
			t.Setenv("WATCHDOG_USEC", tc.usec)
			t.Setenv("WATCHDOG_PID", strconv.Itoa(tc.pid))
			done := make(chan error, 1)
			go func() { done <- Watchdog(context.Background()) }() // must return without a cancel
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Watchdog: %v, want nil", err)
				}
			case <-time.After(time.Second):
				t.Fatal("Watchdog blocked although no watchdog is set for this process")
			}
			_ = c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			if n, err := c.Read(make([]byte, 64)); err == nil {
				t.Errorf("sent %d bytes; nothing should be sent", n)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	t.Run("socket gone", func(t *testing.T) {
		t.Setenv("NOTIFY_SOCKET", filepath.Join(t.TempDir(), "missing"))
		if err := Ready(); err == nil {
			t.Error("Ready to a missing socket returned nil")
		}
	})
	t.Run("malformed WATCHDOG_USEC", func(t *testing.T) {
		listen(t)
		t.Setenv("WATCHDOG_USEC", "soon")
		t.Setenv("WATCHDOG_PID", strconv.Itoa(os.Getpid()))
		err := Watchdog(context.Background())
		var num *strconv.NumError
		if err == nil || !errors.As(err, &num) {
			t.Errorf("Watchdog with WATCHDOG_USEC=soon: %v, want a parse error", err)
		}
	})
}
