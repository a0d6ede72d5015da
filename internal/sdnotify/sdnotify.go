package sdnotify

import (
	"context"
	"fmt"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// Ready tells systemd that start-up is done: a Type=notify unit counts as started only now, and
// units ordered after it start only now. Call it once, when the service answers requests.
func Ready() error { return send(daemon.SdNotifyReady) }

// Stopping tells systemd that shutdown has begun, so a slow graceful stop is not mistaken for a
// hang. Call it when the shutdown signal arrives, before draining.
func Stopping() error { return send(daemon.SdNotifyStopping) }

// Watchdog pings systemd's watchdog at half of WATCHDOG_USEC until ctx ends, then returns nil.
// It returns nil at once when no watchdog is set for this process, and an error when the
// environment is malformed or a ping cannot be sent. Run it in a goroutine owned by the service's
// main errgroup: when the process hangs so badly that this goroutine no longer runs, systemd
// kills and restarts it after WatchdogSec.
func Watchdog(ctx context.Context) error {
	// false: keep WATCHDOG_USEC/WATCHDOG_PID so a later call (or a test) reads the same values.
	every, err := daemon.SdWatchdogEnabled(false)
	if err != nil {
		return fmt.Errorf("sdnotify: watchdog: %w", err)
	}
	if every <= 0 {
		return nil
	}
	t := time.NewTicker(every / 2)
	defer t.Stop()
	for {
		// Ping first: the first deadline is WatchdogSec after start, and Ready may come late.
		if err := send(daemon.SdNotifyWatchdog); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

func send(state string) error {
	// false: never unset NOTIFY_SOCKET; Stopping and Watchdog need it after Ready.
	if _, err := daemon.SdNotify(false, state); err != nil {
		return fmt.Errorf("sdnotify: %s: %w", state, err)
	}
	return nil
}
