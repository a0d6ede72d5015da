//go:build !linux

package ollamatest

import (
	"fmt"
	"net"
)

// portHold cannot hold a port without listening outside Linux; it only picks a free one.
type portHold struct{}

func holdPort(port int) (*portHold, int, error) {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, 0, fmt.Errorf("ollamatest: %w", err)
	}
	defer l.Close()
	return &portHold{}, l.Addr().(*net.TCPAddr).Port, nil
}

func (h *portHold) release() {}

func (h *portHold) held() bool { return false }
