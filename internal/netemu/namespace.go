package netemu

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Namespace is a network namespace of its own (its own interfaces, routes, ports and TCP/UDP
// stacks), held open by a file descriptor. Sockets are bound to the namespace they were created
// in for their whole life, so a listener or connection made by Do can be used from any goroutine
// afterwards; a process started by Do runs in the namespace.
type Namespace struct {
	mu sync.Mutex
	fd int // -1 once closed
}

// NewNamespace creates an empty network namespace with its loopback interface up. It needs
// CAP_SYS_ADMIN (root).
func NewNamespace() (*Namespace, error) {
	type result struct {
		fd  int
		err error
	}
	ch := make(chan result, 1)
	go func() {
		// This thread's network namespace changes and it must never run another goroutine
		// again: the thread stays locked, and the runtime ends it when this goroutine returns.
		runtime.LockOSThread()
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			ch <- result{-1, fmt.Errorf("netemu: unshare(CLONE_NEWNET): %w (needs root)", err)}
			return
		}
		fd, err := unix.Open("/proc/thread-self/ns/net", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			ch <- result{-1, fmt.Errorf("netemu: open the new namespace: %w", err)}
			return
		}
		if err := ifUp("lo"); err != nil {
			unix.Close(fd)
			ch <- result{-1, err}
			return
		}
		ch <- result{fd, nil}
	}()
	r := <-ch
	if r.err != nil {
		return nil, r.err
	}
	return &Namespace{fd: r.fd}, nil
}

// Do runs fn on an OS thread of its own that is in the namespace, and waits for it. Sockets fn
// creates (net.Listen, net.Dial, net.ListenUDP...) and processes it starts (exec.Cmd.Start) are
// in the namespace; goroutines fn starts are not (they run on other threads). The thread is
// discarded afterwards.
func (n *Namespace) Do(fn func() error) error {
	n.mu.Lock()
	fd := n.fd
	n.mu.Unlock()
	if fd < 0 {
		return errors.New("netemu: namespace closed")
	}
	ch := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with this goroutine
		if err := unix.Setns(fd, unix.CLONE_NEWNET); err != nil {
			ch <- fmt.Errorf("netemu: setns: %w", err)
			return
		}
		ch <- fn()
	}()
	return <-ch
}

// Listen is net.Listen in the namespace.
func (n *Namespace) Listen(network, addr string) (net.Listener, error) {
	var ln net.Listener
	err := n.Do(func() (err error) {
		ln, err = net.Listen(network, addr)
		return err
	})
	return ln, err
}

// DialContext is a net.Dialer's DialContext in the namespace: an http.Transport's DialContext.
// addr should be an IP literal (a name would be resolved from the namespace, which has no DNS).
func (n *Namespace) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var c net.Conn
	err := n.Do(func() (err error) {
		c, err = (&net.Dialer{}).DialContext(ctx, network, addr)
		return err
	})
	return c, err
}

// Sysctl reads a sysctl of the namespace, by its path under /proc/sys
// ("net/ipv4/tcp_congestion_control").
func (n *Namespace) Sysctl(name string) (string, error) {
	var v string
	err := n.Do(func() error {
		b, err := os.ReadFile("/proc/sys/" + name)
		v = strings.TrimSpace(string(b))
		return err
	})
	return v, err
}

// SetSysctl writes a sysctl of the namespace.
func (n *Namespace) SetSysctl(name, value string) error {
	return n.Do(func() error { return os.WriteFile("/proc/sys/"+name, []byte(value), 0o644) })
}

// Close releases the namespace's descriptor. The namespace itself goes when nothing else holds
// it: no socket created in it is open and no process runs in it.
func (n *Namespace) Close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.fd < 0 {
		return nil
	}
	err := unix.Close(n.fd)
	n.fd = -1
	return err
}

// ifUp sets the interface up, in the calling thread's namespace.
func ifUp(name string) error {
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("netemu: socket: %w", err)
	}
	defer unix.Close(s)
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(s, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("netemu: %s flags: %w", name, err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP | unix.IFF_RUNNING)
	if err := unix.IoctlIfreq(s, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("netemu: %s up: %w", name, err)
	}
	return nil
}

// openTUN creates the TUN interface name (IPv4 packets without a header) with addr/30 and mtu,
// up, in the calling thread's namespace, and returns its packet descriptor (non-blocking).
func openTUN(name string, addr, mask [4]byte, mtu int) (int, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return -1, fmt.Errorf("netemu: open /dev/net/tun: %w", err)
	}
	fail := func(what string, err error) (int, error) {
		unix.Close(fd)
		return -1, fmt.Errorf("netemu: %s %s: %w", name, what, err)
	}
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return fail("name", err)
	}
	ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		return fail("TUNSETIFF", err)
	}
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fail("socket", err)
	}
	defer unix.Close(s)
	for _, step := range []struct {
		what string
		req  uint
		set  func(*unix.Ifreq) error
	}{
		{"address", unix.SIOCSIFADDR, func(r *unix.Ifreq) error { return r.SetInet4Addr(addr[:]) }},
		{"netmask", unix.SIOCSIFNETMASK, func(r *unix.Ifreq) error { return r.SetInet4Addr(mask[:]) }},
		{"mtu", unix.SIOCSIFMTU, func(r *unix.Ifreq) error { r.SetUint32(uint32(mtu)); return nil }},
	} {
		r, _ := unix.NewIfreq(name)
		if err := step.set(r); err != nil {
			return fail(step.what, err)
		}
		if err := unix.IoctlIfreq(s, step.req, r); err != nil {
			return fail(step.what, err)
		}
	}
	// No IPv6 on the link (router solicitations and the like): best effort, the pump forwards
	// IPv4 only anyway.
	_ = os.WriteFile("/proc/sys/net/ipv6/conf/"+name+"/disable_ipv6", []byte("1"), 0o644)
	if err := ifUp(name); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}
