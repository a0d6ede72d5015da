package gateway

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/wire"
)

// edgeConn is one edge's connection and its control stream (nil for an edge that did not offer
// wire.FeatureControl).
type edgeConn struct {
	id   string // the edge id of the verified client certificate
	conn *quic.Conn
	ctrl *quic.Stream

	mu    sync.Mutex // serialises writes on ctrl (pongs, heartbeats and the GoAway)
	gone  bool
	beat  *time.Timer // heartbeats (wire.FeatureHeartbeat), once the edge asked; nil before
	ended bool        // the connection is being torn down: no more heartbeats

	// idleOnly: the edge asked for heartbeats only while no stream delivers (wire.Ping's
	// HeartbeatIdle). delivered is set by every stream write of data (an atomic store, no timer
	// touched) and cleared by the heartbeat timer, which skips the heartbeat when it was set.
	idleOnly  bool
	delivered atomic.Bool
}

// deliveredData records that a request stream of this connection wrote data to the edge: with
// an edge that asked for heartbeats only when idle, the next heartbeat is skipped.
func (e *edgeConn) deliveredData() {
	if e != nil && !e.delivered.Load() { // a load first: no cache-line write per chunk once set
		e.delivered.Store(true)
	}
}

// heartbeatFrame is every heartbeat: a Pong with Seq 0, encoded once.
var heartbeatFrame = func() []byte {
	var b bytes.Buffer
	if err := wire.WriteJSON(&b, wire.TypePong, wire.Pong{}); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// startHeartbeats sends a heartbeat on the control stream every interval from a timer, until
// stopHeartbeats. No goroutine waits in between: a timer's function runs only when it fires.
func (e *edgeConn) startHeartbeats(interval time.Duration, idleOnly bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.beat != nil || e.ended {
		return
	}
	e.idleOnly = idleOnly
	e.beat = time.AfterFunc(interval, func() { e.heartbeat(interval) })
}

func (e *edgeConn) heartbeat(interval time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ended {
		return
	}
	if e.delivered.Swap(false) && e.idleOnly {
		// A request stream wrote data since the last heartbeat: the edge has heard from us.
		e.beat.Reset(interval)
		return
	}
	// TryWriteAll never blocks: a heartbeat that does not fit in the stream's flow-control window
	// right now (an edge that stopped reading) is skipped, and the edge's own timeout decides.
	err := e.ctrl.TryWriteAll(heartbeatFrame)
	if err != nil && !errors.Is(err, quic.ErrWouldBlock) {
		return // the stream or the connection ended
	}
	e.beat.Reset(interval)
}

// stopHeartbeats runs when the connection's serving ends.
func (e *edgeConn) stopHeartbeats() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ended = true
	if e.beat != nil {
		e.beat.Stop()
	}
}

// goAway tells the edge the gateway is draining. Edges without a control stream learn it from
// the dc_draining answer to their next request.
func (e *edgeConn) goAway(grace time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ctrl == nil || e.gone {
		return
	}
	e.gone = true
	_ = wire.WriteJSON(e.ctrl, wire.TypeGoAway, wire.GoAway{Reason: "draining", GraceMillis: grace.Milliseconds()})
}

func (e *edgeConn) write(t wire.Type, msg any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return wire.WriteJSON(e.ctrl, t, msg)
}

// serveControl answers the edge's pings until the stream or the connection ends, or until the
// edge asks for heartbeats (wire.FeatureHeartbeat): then it answers that ping, starts them and
// returns, so that an idle connection keeps no goroutine of the gateway reading. An edge that
// breaks its control stream loses its connection: the stream is how it knows the gateway lives.
func (s *Server) serveControl(e *edgeConn, log *slog.Logger) {
	fr := wire.NewReader(e.ctrl)
	for {
		f, err := fr.Read()
		if err != nil {
			if e.conn.Context().Err() == nil {
				log.Info("edge closed its control stream", "reason", err.Error())
				_ = e.conn.CloseWithError(wire.CodeProtocol, "control stream closed")
			}
			return
		}
		if f.Type != wire.TypePing {
			log.Warn("unexpected frame on the control stream", "type", f.Type.String())
			_ = e.conn.CloseWithError(wire.CodeProtocol, "unexpected "+f.Type.String()+" frame on the control stream")
			return
		}
		var p wire.Ping
		if f.Decode(&p) != nil {
			_ = e.conn.CloseWithError(wire.CodeProtocol, "unreadable ping")
			return
		}
		s.m.pings.Inc()
		if err := e.write(wire.TypePong, wire.Pong{Seq: p.Seq}); err != nil {
			return
		}
		if p.HeartbeatMillis > 0 {
			ms := min(max(p.HeartbeatMillis, wire.MinHeartbeatMillis), wire.MaxHeartbeatMillis)
			e.startHeartbeats(time.Duration(ms)*time.Millisecond, p.HeartbeatIdle)
			return
		}
	}
}

// tracker counts in-flight request streams and says when there are none.
type tracker struct {
	mu    sync.Mutex
	n     int
	empty chan struct{} // closed while n == 0; nil means "not made yet" (treated as closed)
}

func (t *tracker) add() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		t.empty = make(chan struct{})
	}
	t.n++
}

func (t *tracker) done() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n--
	if t.n == 0 {
		close(t.empty)
	}
}

func (t *tracker) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// idle returns a channel closed once no stream is in flight (already closed if none is).
func (t *tracker) idle() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		c := make(chan struct{})
		close(c)
		return c
	}
	return t.empty
}

// ResetKeyFromTLS derives the gateway's QUIC stateless-reset key from the private key of its
// TLS certificate (HKDF-SHA256), so the key is the same after every restart without another
// secret to manage, and changes when the gateway is re-keyed. The derived key reveals nothing of
// the private key.
func ResetKeyFromTLS(c *tls.Config) (*quic.StatelessResetKey, error) {
	if c == nil || len(c.Certificates) == 0 || c.Certificates[0].PrivateKey == nil {
		return nil, errors.New("gateway: no certificate private key to derive the stateless-reset key from")
	}
	der, err := x509.MarshalPKCS8PrivateKey(c.Certificates[0].PrivateKey)
	if err != nil {
		return nil, fmt.Errorf("gateway: stateless-reset key: %w", err)
	}
	return ResetKeyFromSecret(der)
}

// ResetKeyFromSecret derives a stateless-reset key from any secret of at least 32 bytes (a key
// file shared by gateways behind one address, for instance).
func ResetKeyFromSecret(secret []byte) (*quic.StatelessResetKey, error) {
	if len(secret) < 32 {
		return nil, fmt.Errorf("gateway: a stateless-reset secret needs at least 32 bytes, got %d", len(secret))
	}
	b, err := hkdf.Key(sha256.New, secret, nil, "sucursal dc-gateway quic stateless reset v1", 32)
	if err != nil {
		return nil, fmt.Errorf("gateway: stateless-reset key: %w", err)
	}
	var k quic.StatelessResetKey
	copy(k[:], b)
	return &k, nil
}
