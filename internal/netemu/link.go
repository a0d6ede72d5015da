// Package netemu emulates a WAN link at the packet level between two network namespaces, for
// benchmarks that must put kernel TCP and UDP (QUIC) through exactly the same delay, jitter and
// loss.
//
// New makes two namespaces, A and B, each with a TUN interface "wan0" (A is 10.77.0.1/30, B is
// 10.77.0.2/30). A pump in the calling process reads every IP packet either side sends on wan0
// and writes it to the other side's wan0 after the link's one-way delay, or drops it. The
// kernels' TCP (congestion control, fast retransmit, RACK, tail-loss probes, timeouts) and
// anything over UDP see the same link. It needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN) and
// /dev/net/tun; there is no qdisc (netem) involved.
package netemu

import (
	"container/heap"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Config is what the link does to every packet, the same in both directions.
type Config struct {
	// RTT is the round-trip time: each packet is delayed by RTT/2 one way.
	RTT time.Duration
	// Jitter: each packet gets a further delay drawn uniformly from [0, Jitter).
	Jitter time.Duration
	// Loss is the probability that a packet is dropped, independently per packet.
	Loss float64
	// Reorder lets a packet with less jitter overtake an earlier one with more. Without it (the
	// default) the link is a FIFO, as one path through routers is: a packet leaves no earlier
	// than the one before it, so jitter bunches packets up instead of reordering them. (The
	// receiving kernel may still swap two packets written to it from different CPUs.)
	Reorder bool
	// Rate caps each direction at this many bytes per second (a packet occupies the link for
	// its size / Rate before its propagation delay). 0 (the default) means no cap.
	Rate int64
	// Queue is how many packets each direction holds at most (in flight on the link, waiting
	// for their delivery time); a packet arriving at a full queue is dropped (tail drop).
	// 0 means 1000.
	Queue int
	// MTU of both interfaces; 0 means 1500.
	MTU int
	// Seed for the loss and jitter draws (one generator per direction, seeded from it): the
	// same packets through the same config are dropped and delayed the same way.
	Seed uint64
}

// Stats counts one direction's IPv4 packets.
type Stats struct {
	Packets    uint64 // read from the sending side
	Lost       uint64 // dropped by the loss probability
	Overflowed uint64 // dropped because the queue was full
	Delivered  uint64 // written to the receiving side
	Ignored    uint64 // not IPv4 (not forwarded, not counted above)
}

// Link is a running emulated link between namespaces A and B.
type Link struct {
	A, B         *Namespace
	AddrA, AddrB netip.Addr // the two ends' addresses (on wan0)
	ab, ba       *direction
	wg           sync.WaitGroup
	closeOnce    sync.Once
}

const ifName = "wan0"

var (
	addrA = [4]byte{10, 77, 0, 1}
	addrB = [4]byte{10, 77, 0, 2}
	mask  = [4]byte{255, 255, 255, 252}
)

// New creates the two namespaces and their interfaces and starts the pump.
func New(cfg Config) (*Link, error) {
	if cfg.Loss < 0 || cfg.Loss > 1 || cfg.RTT < 0 || cfg.Jitter < 0 || cfg.Rate < 0 || cfg.Queue < 0 || cfg.MTU < 0 {
		return nil, fmt.Errorf("netemu: invalid config %+v", cfg)
	}
	if cfg.Queue == 0 {
		cfg.Queue = 1000
	}
	if cfg.MTU == 0 {
		cfg.MTU = 1500
	}
	l := &Link{AddrA: netip.AddrFrom4(addrA), AddrB: netip.AddrFrom4(addrB)}
	var err error
	if l.A, err = NewNamespace(); err != nil {
		return nil, err
	}
	if l.B, err = NewNamespace(); err != nil {
		l.A.Close()
		return nil, err
	}
	fa, fb := -1, -1
	errA := l.A.Do(func() (err error) { fa, err = openTUN(ifName, addrA, mask, cfg.MTU); return err })
	errB := l.B.Do(func() (err error) { fb, err = openTUN(ifName, addrB, mask, cfg.MTU); return err })
	if err := errors.Join(errA, errB); err != nil {
		for _, fd := range []int{fa, fb} {
			if fd >= 0 {
				unix.Close(fd)
			}
		}
		l.A.Close()
		l.B.Close()
		return nil, err
	}
	// Non-blocking descriptors: os.File reads and writes them through the runtime's poller, and
	// Close unblocks a pending Read.
	ta, tb := os.NewFile(uintptr(fa), "tun-a"), os.NewFile(uintptr(fb), "tun-b")
	l.ab = newDirection(cfg, ta, tb, 1)
	l.ba = newDirection(cfg, tb, ta, 2)
	for _, d := range []*direction{l.ab, l.ba} {
		l.wg.Add(2)
		go func() { defer l.wg.Done(); d.read() }()
		go func() { defer l.wg.Done(); d.deliver() }()
	}
	return l, nil
}

// Stats returns the counts so far, A→B and B→A.
func (l *Link) Stats() (ab, ba Stats) { return l.ab.stats(), l.ba.stats() }

// Close stops the pump, removes the interfaces and releases the namespaces (each goes once no
// socket or process of its own is left).
func (l *Link) Close() error {
	var err error
	l.closeOnce.Do(func() {
		close(l.ab.done)
		close(l.ba.done)
		err = errors.Join(l.ab.src.Close(), l.ba.src.Close())
		l.wg.Wait()
		err = errors.Join(err, l.A.Close(), l.B.Close())
	})
	return err
}

type packet struct {
	at  time.Time
	seq uint64
	b   []byte
}

type queue []packet

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].at.Equal(q[j].at) {
		return q[i].seq < q[j].seq
	}
	return q[i].at.Before(q[j].at)
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(packet)) }
func (q *queue) Pop() any {
	old := *q
	p := old[len(old)-1]
	*q = old[:len(old)-1]
	return p
}

// direction pumps packets from src to dst.
type direction struct {
	cfg      Config
	src, dst *os.File
	rng      *rand.Rand // read's only
	done     chan struct{}
	wake     chan struct{}

	mu   sync.Mutex
	q    queue
	seq  uint64
	last time.Time // the latest delivery time given (FIFO)
	busy time.Time // when the link is free again (Rate)

	packets, lost, overflowed, delivered, ignored atomic.Uint64
}

func newDirection(cfg Config, src, dst *os.File, stream uint64) *direction {
	return &direction{cfg: cfg, src: src, dst: dst, rng: rand.New(rand.NewPCG(cfg.Seed, stream)),
		done: make(chan struct{}), wake: make(chan struct{}, 1)}
}

func (d *direction) stats() Stats {
	return Stats{Packets: d.packets.Load(), Lost: d.lost.Load(), Overflowed: d.overflowed.Load(),
		Delivered: d.delivered.Load(), Ignored: d.ignored.Load()}
}

// read takes every packet off src and queues it for its delivery time, or drops it.
func (d *direction) read() {
	buf := make([]byte, 1<<16)
	for {
		n, err := d.src.Read(buf)
		if err != nil {
			return // closed
		}
		if n == 0 || buf[0]>>4 != 4 {
			d.ignored.Add(1)
			continue
		}
		d.packets.Add(1)
		// The same draws for every packet, lost or not, so that a seed fixes the pattern.
		lost := d.rng.Float64() < d.cfg.Loss
		var jitter time.Duration
		if d.cfg.Jitter > 0 {
			jitter = time.Duration(d.rng.Int64N(int64(d.cfg.Jitter)))
		}
		if lost {
			d.lost.Add(1)
			continue
		}
		now := time.Now()
		d.mu.Lock()
		if len(d.q) >= d.cfg.Queue {
			d.mu.Unlock()
			d.overflowed.Add(1)
			continue
		}
		sent := now
		if d.cfg.Rate > 0 {
			start := now
			if d.busy.After(start) {
				start = d.busy
			}
			d.busy = start.Add(time.Duration(int64(n) * int64(time.Second) / d.cfg.Rate))
			sent = d.busy
		}
		at := sent.Add(d.cfg.RTT/2 + jitter)
		if !d.cfg.Reorder {
			if at.Before(d.last) {
				at = d.last
			}
			d.last = at
		}
		d.seq++
		heap.Push(&d.q, packet{at: at, seq: d.seq, b: append([]byte(nil), buf[:n]...)})
		d.mu.Unlock()
		select {
		case d.wake <- struct{}{}:
		default:
		}
	}
}

// deliver writes each queued packet to dst at its time.
func (d *direction) deliver() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		d.mu.Lock()
		if len(d.q) == 0 {
			d.mu.Unlock()
			select {
			case <-d.wake:
				continue
			case <-d.done:
				return
			}
		}
		if wait := time.Until(d.q[0].at); wait > 0 {
			d.mu.Unlock()
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-d.wake: // an earlier packet may have arrived (Reorder)
				timer.Stop()
			case <-d.done:
				return
			}
			continue
		}
		p := heap.Pop(&d.q).(packet)
		d.mu.Unlock()
		// A write fails only when the receiving side is gone or cannot take the packet; either
		// way it is lost, as on a wire.
		if _, err := d.dst.Write(p.b); err == nil {
			d.delivered.Add(1)
		}
	}
}
