package link

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/wire"
)

// ErrDraining means the gateway announced it is going away (GoAway): no new stream is opened on
// its connection; in-flight ones finish.
var ErrDraining = errors.New("link: the datacenter gateway is going away")

// errDeclaredDead is the cause of a connection the edge closed itself because the gateway stopped
// answering (pings or requests), long before QUIC's idle timeout would say so.
var errDeclaredDead = errors.New("link: the datacenter gateway stopped answering")

// session is one established connection and what the edge learns about it.
type session struct {
	conn *quic.Conn
	ctrl *quic.Stream // nil with a gateway of an older build

	draining atomic.Bool
	pingRTT  atomic.Int64 // ns, the last answered ping
	unacked  atomic.Int32 // requests in a row not acknowledged in time
	streams  atomic.Int32 // request streams open on this connection

	// heard is when the gateway was last heard from (a pong, a heartbeat, or, with heartbeats
	// only when idle, a frame read on a request stream), in monotonic ns since born: an atomic
	// store per frame, no timer moved.
	born  time.Time
	heard atomic.Int64

	mu   sync.Mutex
	sent [8]sentPing
	dead string // why the edge declared it dead ("" if it did not)
}

type sentPing struct {
	seq uint64
	at  time.Time
}

func newSession(conn *quic.Conn, ctrl *quic.Stream) *session {
	return &session{conn: conn, ctrl: ctrl, born: time.Now()} // heard 0: at birth
}

// heardNow records a sign of life from the gateway.
func (s *session) heardNow() { s.heard.Store(int64(time.Since(s.born))) }

// lastHeard is when the gateway was last heard from.
func (s *session) lastHeard() time.Time { return s.born.Add(time.Duration(s.heard.Load())) }

// declareDead closes the connection because the gateway stopped answering: every stream on it
// ends at once with an error, and Run re-dials.
func (s *session) declareDead(why string) {
	s.mu.Lock()
	if s.dead == "" {
		s.dead = why
	}
	s.mu.Unlock()
	_ = s.conn.CloseWithError(wire.CodeLinkDead, why)
}

// opened and closed count request streams. Once the gateway is going away and the last stream
// has been read to its end, the edge closes the connection itself: the gateway then knows every
// answer arrived (closing from its side could drop the last frames still in flight), and the
// link re-dials.
func (s *session) opened() { s.streams.Add(1) }

func (s *session) closed() {
	if s.streams.Add(-1) == 0 && s.draining.Load() {
		s.finishDrain()
	}
}

func (s *session) finishDrain() {
	if s.streams.Load() == 0 {
		_ = s.conn.CloseWithError(wire.CodeGoingAway, "drained")
	}
}

func (s *session) deadReason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dead
}

// watch runs the control stream until the connection ends: pings out, pongs and GoAway in.
func (c *Client) watch(s *session) {
	if s.ctrl == nil {
		<-s.conn.Context().Done()
		return
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		c.readControl(s)
	}()
	defer func() { <-read }()
	// A gateway that offers heartbeats (wire.FeatureHeartbeat) is asked for one every ping
	// interval with the first ping, and is not pinged again: a heartbeat counts as a pong. The
	// gateway then holds no goroutine reading this connection's control stream while it is idle
	// (its memory per edge, docs/SCALE.md).
	if wire.HasFeature(c.Ack().Features, wire.FeatureHeartbeat) {
		c.watchHeartbeats(s)
		return
	}
	tick := time.NewTicker(c.cfg.PingInterval)
	defer tick.Stop()
	var seq uint64
	// A NUC whose cores are busy with its models can leave this process unscheduled for longer
	// than the timeout; the silence is then this side's, and a pong may be waiting unread. After
	// such a gap the gateway gets a whole PingTimeout again before the link is declared dead.
	last, resumed := time.Now(), time.Time{}
	for {
		select {
		case <-s.conn.Context().Done():
			return
		case <-tick.C:
			now := time.Now() // not the tick's time: a tick that waited in the channel is stale
			if now.Sub(last) > c.cfg.PingTimeout {
				resumed = now
			}
			last = now
			from := s.lastHeard()
			if resumed.After(from) {
				from = resumed
			}
			if silent := now.Sub(from); silent > c.cfg.PingTimeout {
				c.m.pingTimeouts.Inc()
				s.declareDead("no pong for " + silent.Round(time.Millisecond).String())
				return
			}
			seq++
			c.sendPing(s, wire.Ping{Seq: seq}, now)
		}
	}
}

// idleHeartbeats reports whether the edge asks for heartbeats only while no request stream
// delivers data (wire.Ping's HeartbeatIdle). The gateway then sends one at most two intervals
// after the last data; the timeout must leave room for that and some lateness.
func (c *Client) idleHeartbeats() bool {
	return c.cfg.PingTimeout >= 2*c.cfg.PingInterval+c.cfg.PingInterval/2
}

// watchHeartbeats is watch with a gateway that sends heartbeats: one ping asks for them, then
// one timer, due when the silence would exceed PingTimeout, checks. Nothing the gateway sends
// moves it (a frame read is an atomic store, session.heardNow): when it fires it looks at when
// the gateway was last heard from and either declares the link dead or sleeps until the new due
// time. While the gateway is heard from, it fires about once per PingTimeout.
//
// With heartbeats only when idle, a gateway writing an answer that the edge does not read (a
// slow user: the frames wait in the stream's receive window) sends none, and the edge reads
// nothing either, until the window is full. Packets still arrive: the connection's count of
// received packets, looked at when the timer fires, says so. It does not say when, only since
// the previous look, so while it is the only sign of life the timer looks every PingInterval;
// the link is then declared dead at most one interval later than otherwise.
func (c *Client) watchHeartbeats(s *session) {
	s.heardNow()
	c.sendPing(s, wire.Ping{Seq: 1, HeartbeatMillis: c.cfg.PingInterval.Milliseconds(), HeartbeatIdle: c.idleHeartbeats()}, time.Now())
	// grace: a heartbeat due exactly at the timeout (the third one after the last heard, with
	// the defaults; each is sent a little over an interval after the previous one, up to the
	// timer slack later) is not yet missing, nor is a first pong from a gateway that a loaded
	// machine starves for a moment. The old 500 ms ticker declared a link dead 0 to one
	// interval after the timeout (a whole interval for the first pong, its ticks being aligned
	// with the session's start); this timer does it at the timeout plus half an interval
	// (250 ms with the defaults), the ticker's average.
	grace := c.cfg.PingInterval / 2
	limit := c.cfg.PingTimeout + grace
	looked := time.Now()
	packets := s.conn.ConnectionStats().PacketsReceived
	due := looked.Add(limit)
	timer := time.NewTimer(limit)
	defer timer.Stop()
	// A NUC whose cores are busy with its models can leave this process unscheduled for longer
	// than the timeout; the silence is then this side's, and a heartbeat may be waiting unread.
	// When the timer fires more than an interval late, the gateway gets a whole PingTimeout
	// again before the link is declared dead.
	var resumed, byPackets time.Time
	for {
		select {
		case <-s.conn.Context().Done():
			return
		case <-timer.C:
		}
		now := time.Now()
		if now.Sub(due) > c.cfg.PingInterval {
			resumed = now
		}
		st := s.conn.ConnectionStats()
		if st.PacketsReceived != packets {
			packets, byPackets = st.PacketsReceived, looked // a packet came after the last look
		}
		looked = now
		// Heartbeats are one-way: past the first ping's answer, the round trip is QUIC's own
		// estimate (the histogram keeps the answered pings only).
		s.pingRTT.Store(int64(st.SmoothedRTT))
		from := s.lastHeard()
		onPackets := byPackets.After(from)
		if onPackets {
			from = byPackets
		}
		if resumed.After(from) {
			from = resumed
		}
		if silent := now.Sub(from); silent > limit {
			c.m.pingTimeouts.Inc()
			s.declareDead("no pong for " + silent.Round(time.Millisecond).String())
			return
		}
		due = from.Add(limit)
		if next := now.Add(c.cfg.PingInterval); onPackets && next.Before(due) {
			due = next
		}
		timer.Reset(due.Sub(now))
	}
}

func (c *Client) sendPing(s *session, p wire.Ping, now time.Time) {
	s.mu.Lock()
	s.sent[p.Seq%uint64(len(s.sent))] = sentPing{seq: p.Seq, at: now}
	s.mu.Unlock()
	// A dead peer stops acknowledging: a write must never hold up the deadline check.
	_ = s.ctrl.SetWriteDeadline(now.Add(c.cfg.PingInterval))
	_ = wire.WriteJSON(s.ctrl, wire.TypePing, p)
}

func (c *Client) readControl(s *session) {
	fr := wire.NewReader(s.ctrl)
	for {
		f, err := fr.Read()
		if err != nil {
			if s.conn.Context().Err() == nil {
				s.declareDead("the gateway closed the control stream")
			}
			return
		}
		switch f.Type {
		case wire.TypePong:
			var p wire.Pong
			if f.Decode(&p) != nil {
				continue
			}
			now := time.Now()
			s.heardNow()
			s.mu.Lock()
			sp := s.sent[p.Seq%uint64(len(s.sent))]
			s.mu.Unlock()
			if sp.seq == p.Seq && !sp.at.IsZero() {
				rtt := now.Sub(sp.at)
				s.pingRTT.Store(int64(rtt))
				c.m.pingRTT.Observe(rtt.Seconds())
			}
		case wire.TypeGoAway:
			var g wire.GoAway
			_ = f.Decode(&g)
			if !s.draining.Swap(true) {
				c.log.Info("the datacenter gateway is going away: new requests go elsewhere", "addr", c.cfg.Addr,
					"grace", (time.Duration(g.GraceMillis) * time.Millisecond).String())
				c.m.goAways.Inc()
				c.mu.Lock()
				c.notifyLocked()
				c.mu.Unlock()
				s.finishDrain()
			}
		default:
			c.log.Warn("unexpected frame on the control stream", "addr", c.cfg.Addr, "type", f.Type.String())
		}
	}
}

// unacknowledged records a request the gateway did not acknowledge in time; enough of them in a
// row declare the link dead. An acknowledgement resets the count (acknowledged).
func (c *Client) unacknowledged(s *session) {
	if n := s.unacked.Add(1); int(n) >= c.cfg.DeadAfterUnacknowledged {
		c.m.ackTimeouts.Inc()
		s.declareDead("requests not acknowledged in time")
	}
}
