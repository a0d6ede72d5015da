//go:build linux

package ollamatest

import (
	"fmt"
	"syscall"
)

// portHold keeps a loopback TCP port ours without listening on it: while a socket is bound to it,
// the kernel hands the port to no other bind(port 0), so parallel test processes picking free ports
// cannot take it, and connections to it are still refused, which is what a test of a dead server
// wants to see. SO_REUSEADDR lets us re-bind over the TIME_WAIT connections a killed server leaves.
type portHold struct{ fd int }

// holdPort binds 127.0.0.1:port (0 picks a free port) and returns the hold and the port.
func holdPort(port int) (*portHold, int, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("ollamatest: socket: %w", err)
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		_ = syscall.Close(fd)
		return nil, 0, fmt.Errorf("ollamatest: setsockopt: %w", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		_ = syscall.Close(fd)
		return nil, 0, fmt.Errorf("ollamatest: bind 127.0.0.1:%d: %w", port, err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		_ = syscall.Close(fd)
		return nil, 0, fmt.Errorf("ollamatest: getsockname: %w", err)
	}
	return &portHold{fd: fd}, sa.(*syscall.SockaddrInet4).Port, nil
}

func (h *portHold) held() bool { return h.fd >= 0 }

// release frees the port so the server can bind it. Safe to call twice.
func (h *portHold) release() {
	if h == nil || h.fd < 0 {
		return
	}
	_ = syscall.Close(h.fd)
	h.fd = -1
}
