package netemu

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// These tests need root and /dev/net/tun: without them New fails, and so do they.

func newLink(t *testing.T, cfg Config) *Link {
	t.Helper()
	l, err := New(cfg)
	if err != nil {
		t.Fatalf("the emulated link needs root and /dev/net/tun: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestLinkDeliversDropsAndDelays sends datagrams A→B one batch at a time and checks each is
// delivered intact, at most once, never earlier than RTT/2 after it was sent, and that the seeded
// loss dropped about its share. No upper bound on any time.
func TestLinkDeliversDropsAndDelays(t *testing.T) {
	const n, loss, rtt = 2000, 0.03, 20 * time.Millisecond
	l := newLink(t, Config{RTT: rtt, Jitter: 5 * time.Millisecond, Loss: loss, Seed: 7})
	var rx *net.UDPConn
	if err := l.B.Do(func() (err error) {
		rx, err = net.ListenUDP("udp", &net.UDPAddr{IP: l.AddrB.AsSlice(), Port: 9000})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	if raw, err := rx.SyscallConn(); err == nil {
		_ = raw.Control(func(fd uintptr) {
			_ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, 8<<20)
		})
	}
	var tx *net.UDPConn
	if err := l.A.Do(func() (err error) {
		tx, err = net.DialUDP("udp", nil, &net.UDPAddr{IP: l.AddrB.AsSlice(), Port: 9000})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer tx.Close()

	sent := make([]time.Time, n)
	arrived := make([]time.Time, n)
	var mu sync.Mutex
	var order []int
	var bad []string
	go func() {
		buf := make([]byte, 2048)
		for {
			m, err := rx.Read(buf)
			if err != nil {
				return
			}
			now := time.Now()
			mu.Lock()
			i := int(binary.BigEndian.Uint32(buf))
			switch {
			case m != 200 || i >= n || !bytes.Equal(buf[4:m], payload(i)):
				bad = append(bad, "a corrupt datagram")
			case !arrived[i].IsZero():
				bad = append(bad, "datagram "+strconv.Itoa(i)+" twice")
			default:
				arrived[i] = now
				order = append(order, i)
			}
			mu.Unlock()
		}
	}()

	// Wait for every datagram sent so far to be either lost on the link or received; fail,
	// rather than wait for ever, if the receiving kernel dropped one (its socket buffer is large,
	// and at most one batch is outstanding, so it should not).
	var ab Stats
	settle := func(upTo int) {
		t.Helper()
		for poll := 0; ; poll++ {
			ab, _ = l.Stats()
			mu.Lock()
			got := uint64(len(order) + len(bad))
			mu.Unlock()
			if ab.Packets == uint64(upTo) && got+ab.Lost+ab.Overflowed == uint64(upTo) {
				return
			}
			if poll%50 == 49 {
				if e := kernelDrops(t, l.A) + kernelDrops(t, l.B); e > 0 {
					t.Fatalf("a kernel dropped %d packets (link stats %+v, %d received)", e, ab, got)
				}
			}
			time.Sleep(time.Millisecond)
		}
	}
	msg := make([]byte, 200)
	for i := range n {
		binary.BigEndian.PutUint32(msg, uint32(i))
		copy(msg[4:], payload(i))
		mu.Lock()
		sent[i] = time.Now()
		mu.Unlock()
		if _, err := tx.Write(msg); err != nil {
			t.Fatal(err)
		}
		if i%50 == 49 {
			settle(i + 1)
		}
	}
	settle(n)
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 {
		t.Fatalf("%d bad datagrams, first: %s", len(bad), bad[0])
	}
	if ab.Overflowed != 0 || uint64(len(order)) != ab.Delivered || ab.Delivered+ab.Lost != n {
		t.Fatalf("stats %+v, %d datagrams received of %d sent", ab, len(order), n)
	}
	// 3 % of 2 000 is 60; the seed fixes the draw, the range only says the probability is used.
	if ab.Lost < 30 || ab.Lost > 120 {
		t.Errorf("lost %d of %d at %g", ab.Lost, n, loss)
	}
	overtaken := 0
	for k, i := range order {
		if d := arrived[i].Sub(sent[i]); d < rtt/2 {
			t.Fatalf("datagram %d arrived %s after it was sent, before RTT/2 = %s", i, d, rtt/2)
		}
		if k > 0 && i < order[k-1] {
			overtaken++
		}
	}
	// The pump writes packets in order without Reorder, but the kernel may still swap two that
	// were written from different CPUs (each CPU has its own receive backlog): counted, not failed.
	t.Logf("A→B %+v; %d datagrams overtaken", ab, overtaken)
}

func payload(i int) []byte {
	return bytes.Repeat([]byte{byte(i), byte(i >> 8)}, 98)
}

// TestKernelTCPRecoversLossOnTheLink streams 2 MiB over kernel TCP, A→B, through 5 % loss each
// way: every byte arrives, in order (the kernels retransmit what the link dropped), and the link
// did drop packets in both directions (data one way, ACKs the other).
func TestKernelTCPRecoversLossOnTheLink(t *testing.T) {
	l := newLink(t, Config{RTT: 10 * time.Millisecond, Loss: 0.05, Seed: 11})
	ln, err := l.B.Listen("tcp", net.JoinHostPort(l.AddrB.String(), "9001"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	data := make([]byte, 2<<20)
	for i := range data {
		data[i] = byte(i * 7 / 5)
	}
	got := make(chan [32]byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- [32]byte{}
			return
		}
		defer c.Close()
		h := sha256.New()
		_, _ = io.Copy(h, c)
		var sum [32]byte
		copy(sum[:], h.Sum(nil))
		got <- sum
	}()
	c, err := l.A.DialContext(t.Context(), "tcp", net.JoinHostPort(l.AddrB.String(), "9001"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(data); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if <-got != sha256.Sum256(data) {
		t.Fatal("the stream did not arrive intact")
	}
	ab, ba := l.Stats()
	if ab.Lost == 0 || ba.Lost == 0 {
		t.Fatalf("nothing lost: A→B %+v, B→A %+v", ab, ba)
	}
	t.Logf("A→B %+v, B→A %+v", ab, ba)
}

// TestNamespacesAreIsolated: a port bound in one namespace is not seen in the other, and the
// namespace's own sysctls are read.
func TestNamespacesAreIsolated(t *testing.T) {
	l := newLink(t, Config{})
	ln, err := l.A.Listen("tcp", "127.0.0.1:9002")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ln2, err := l.B.Listen("tcp", "127.0.0.1:9002"); err != nil {
		t.Fatalf("the same port in B: %v", err)
	} else {
		ln2.Close()
	}
	if v, err := l.A.Sysctl("net/ipv4/tcp_congestion_control"); err != nil || v == "" {
		t.Fatalf("sysctl: %q %v", v, err)
	}
}

// kernelDrops is what the namespace's kernel dropped: UDP InErrors and RcvbufErrors
// (/proc/net/snmp) and wan0's receive and transmit drops (/proc/net/dev).
func kernelDrops(t *testing.T, ns *Namespace) uint64 {
	t.Helper()
	var total uint64
	if err := ns.Do(func() error {
		snmp, err := os.ReadFile("/proc/thread-self/net/snmp")
		if err != nil {
			return err
		}
		var names []string
		for _, line := range strings.Split(string(snmp), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || f[0] != "Udp:" {
				continue
			}
			if names == nil {
				names = f
				continue
			}
			for k, name := range names {
				if (name == "InErrors" || name == "RcvbufErrors") && k < len(f) {
					v, _ := strconv.ParseUint(f[k], 10, 64)
					total += v
				}
			}
		}
		dev, err := os.ReadFile("/proc/thread-self/net/dev")
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(dev), "\n") {
			name, counters, ok := strings.Cut(strings.TrimSpace(line), ":")
			if !ok || name != ifName {
				continue
			}
			// receive: bytes packets errs drop ...; transmit (from the 9th): bytes packets errs drop
			if f := strings.Fields(counters); len(f) >= 12 {
				for _, k := range []int{3, 11} {
					v, _ := strconv.ParseUint(f[k], 10, 64)
					total += v
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return total
}
