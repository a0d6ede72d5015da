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

	mu       sync.Mutex
	lastPong time.Time
	sent     [8]sentPing
	dead     string // why the edge declared it dead ("" if it did not)
}

type sentPing struct {
	seq uint64
	at  time.Time
}

func newSession(conn *quic.Conn, ctrl *quic.Stream) *session {
	return &session{conn: conn, ctrl: ctrl, lastPong: time.Now()}
}

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
	tick := time.NewTicker(c.cfg.PingInterval)
	defer tick.Stop()
	var seq uint64
	// A gateway that offers heartbeats (wire.FeatureHeartbeat) is asked for one every ping
	// interval with the first ping, and is not pinged again: the silence check below is the
	// same, a heartbeat counts as a pong. The gateway then holds no goroutine reading this
	// connection's control stream while it is idle (its memory per edge, docs/SCALE.md).
	beats := wire.HasFeature(c.Ack().Features, wire.FeatureHeartbeat)
	if beats {
		seq++
		c.sendPing(s, wire.Ping{Seq: seq, HeartbeatMillis: c.cfg.PingInterval.Milliseconds()}, time.Now())
	}
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
			s.mu.Lock()
			from := s.lastPong
			s.mu.Unlock()
			if resumed.After(from) {
				from = resumed
			}
			silent := now.Sub(from)
			if silent > c.cfg.PingTimeout {
				c.m.pingTimeouts.Inc()
				s.declareDead("no pong for " + silent.Round(time.Millisecond).String())
				return
			}
			if beats {
				// Heartbeats are one-way: past the first ping's answer, the round trip is QUIC's
				// own estimate (the histogram keeps the answered pings only).
				s.pingRTT.Store(int64(s.conn.ConnectionStats().SmoothedRTT))
				continue
			}
			seq++
			c.sendPing(s, wire.Ping{Seq: seq}, now)
		}
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
			s.mu.Lock()
			s.lastPong = now
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
