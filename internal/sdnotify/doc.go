// Package sdnotify tells systemd how a service is doing, through the sd_notify protocol: that it
// has started (Ready), that it is shutting down (Stopping), and that it is still alive (Watchdog).
// The units in packaging/systemd are Type=notify with WatchdogSec=, so a binary started by them
// must call Ready once it serves and keep Watchdog running for as long as it does.
//
// Every function is a no-op when the process was not started by systemd (NOTIFY_SOCKET unset),
// so the same binary runs unchanged from a shell, a test or a container.
//
// This package must never: block or fail a service's start-up because systemd is absent; unset
// NOTIFY_SOCKET, WATCHDOG_USEC or WATCHDOG_PID (Stopping and Watchdog need them after Ready);
// send anything but the READY, STOPPING and WATCHDOG states (least of all STATUS= text, which
// could carry request data into the journal); import other packages of this module; or log.
package sdnotify
