package gateway

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/wire"
)

// Config is what a gateway needs besides its TLS configuration.
type Config struct {
	// Target is the central model server.
	Target *openaicompat.Client
	// Name is reported to edges in the hello acknowledgement.
	Name string
	// HelloTimeout bounds how long a new connection may take to say hello.
	HelloTimeout time.Duration
	// MaxStreamsPerEdge bounds concurrent request streams of one edge (QUIC flow control).
	MaxStreamsPerEdge int64
	// IdleTimeout closes a connection that has been silent this long (edges keep it alive).
	IdleTimeout time.Duration
	// Guard serves OpGuard (built by guardsetup.DCClassifier); nil answers guard_not_configured.
	Guard guard.Classifier
	// Drafting verifies edge drafts (OpDraftHello, OpDraft; drafting.NewService); nil (an untyped
	// nil: leave it unset) answers drafting_not_configured.
	Drafting Drafting
	// DrainGrace is how long in-flight streams may still run once Serve's context ends (a
	// SIGTERM): every edge is told to go away at once, new streams are refused with dc_draining,
	// and connections close when their streams are done or the grace is over. Default 30 s.
	DrainGrace time.Duration
	// ResetKey makes QUIC stateless resets work across restarts (see StatelessResetKey). Nil
	// derives it from the TLS certificate's private key.
	ResetKey *quic.StatelessResetKey
	// TargetProbeInterval is how often the target is asked GET /models for /readyz (and
	// whenever a request finds it unreachable). Default 5 s.
	TargetProbeInterval time.Duration
	// Admission enforces fleet trust (trust.Gate: enrolment, revocation, one connection per
	// edge); nil admits any certificate of the fleet CA.
	Admission Admission
}

// DefaultDrainGrace is how long a draining gateway lets in-flight streams finish by default.
const DefaultDrainGrace = 30 * time.Second

// Server serves edges on a QUIC listener.
type Server struct {
	cfg Config
	tls *tls.Config
	log *slog.Logger
	m   *metrics

	draining atomic.Bool
	inflight tracker // request streams being served
	target   *targetHealth

	mu    sync.Mutex
	conns map[*edgeConn]struct{}
}

// New returns a gateway server. tlsConf must require and verify fleet client certificates
// (pki.ServerTLS does).
func New(cfg Config, tlsConf *tls.Config, reg prometheus.Registerer, log *slog.Logger) (*Server, error) {
	if cfg.Target == nil {
		return nil, errors.New("gateway: no target configured")
	}
	if !verifiesClients(tlsConf, cfg.Admission) { // admission.go
		return nil, errors.New("gateway: the TLS configuration must require and verify client certificates")
	}
	// Edges keep no TLS session cache (they never resume a session), so a session ticket issued
	// after each handshake would only be memory the connection holds and CPU to seal it.
	tlsConf = tlsConf.Clone()
	tlsConf.SessionTicketsDisabled = true
	if cfg.HelloTimeout <= 0 {
		cfg.HelloTimeout = 10 * time.Second
	}
	if cfg.MaxStreamsPerEdge <= 0 {
		cfg.MaxStreamsPerEdge = 1024
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 30 * time.Second
	}
	if cfg.Name == "" {
		cfg.Name = "dc-gateway"
	}
	if cfg.DrainGrace <= 0 {
		cfg.DrainGrace = DefaultDrainGrace
	}
	if cfg.TargetProbeInterval <= 0 {
		cfg.TargetProbeInterval = 5 * time.Second
	}
	if cfg.ResetKey == nil {
		k, err := ResetKeyFromTLS(tlsConf)
		if err != nil {
			return nil, err
		}
		cfg.ResetKey = k
	}
	s := &Server{cfg: cfg, tls: tlsConf, log: log, m: newMetrics(reg), conns: map[*edgeConn]struct{}{}}
	s.target = newTargetHealth(cfg.Target, log)
	s.m.registerState(reg, s)
	if reg != nil {
		reg.MustRegister(edgeCollector{s}) // per-edge link series (edgemetrics.go)
	}
	return s, nil
}

// QUICConfig is the transport configuration the gateway listens with.
func (s *Server) QUICConfig() *quic.Config {
	return &quic.Config{
		MaxIdleTimeout:       s.cfg.IdleTimeout,
		HandshakeIdleTimeout: s.cfg.HelloTimeout,
		MaxIncomingStreams:   s.cfg.MaxStreamsPerEdge,
		// The protocol uses bidirectional streams only (one per request, plus the hello/control
		// stream); an edge may open no unidirectional stream.
		MaxIncomingUniStreams: -1,
		KeepAlivePeriod:       s.cfg.IdleTimeout / 3,
	}
}

// Listener is the gateway's UDP socket and QUIC listener. The gateway owns the socket (through
// its own quic.Transport) so that closing it frees the port at once: a restarted gateway must be
// able to bind the same address.
type Listener struct {
	*quic.Listener
	tr   *quic.Transport
	conn *net.UDPConn
	once sync.Once
	err  error
}

// Close stops accepting and releases the socket, ending every connection on it.
func (l *Listener) Close() error {
	// quic.Transport does not close a socket it did not create.
	l.once.Do(func() { l.err = errors.Join(l.Listener.Close(), l.tr.Close(), l.conn.Close()) })
	return l.err
}

// Listen opens the UDP listener.
func (s *Server) Listen(addr string) (*Listener, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("gateway: listen address %q: %w", addr, err)
	}
	conn, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("gateway: listen on %s (UDP): %w", addr, err)
	}
	// The same stateless-reset key across restarts: a restarted gateway answers packets of a
	// connection it no longer knows with a reset the edge can verify, so the edge drops the old
	// connection at once and re-dials, instead of waiting for its idle timeout.
	tr := &quic.Transport{Conn: conn, StatelessResetKey: s.cfg.ResetKey}
	ln, err := tr.Listen(s.tls, s.QUICConfig())
	if err != nil {
		tr.Close()
		return nil, fmt.Errorf("gateway: listen on %s (UDP): %w", addr, err)
	}
	return &Listener{Listener: ln, tr: tr, conn: conn}, nil
}

// Serve accepts connections until ctx ends or the listener closes.
//
// When ctx ends the gateway drains: it stops accepting connections, tells every edge to go away
// (a GoAway on the control stream), answers new streams with dc_draining, lets in-flight streams
// finish for at most DrainGrace, then closes every connection and releases the socket. Closing
// the listener instead (ln.Close) is a hard stop: every connection ends at once.
func (s *Server) Serve(ctx context.Context, ln *Listener) error {
	hard, kill := context.WithCancel(context.WithoutCancel(ctx))
	defer ln.Close()
	defer s.cfg.Target.HTTP.CloseIdleConnections()
	var conns sync.WaitGroup
	defer conns.Wait()
	probe := make(chan struct{})
	defer func() { <-probe }()
	defer kill() // runs first: ends the probe and every connection
	go func() {
		defer close(probe)
		s.target.run(hard, s.cfg.TargetProbeInterval)
	}()

	accepted := make(chan error, 1)
	go func() {
		for {
			conn, err := ln.Accept(hard)
			if err != nil {
				accepted <- err
				return
			}
			conns.Add(1)
			go func() {
				defer conns.Done()
				s.serveConn(hard, conn)
			}()
		}
	}()
	select {
	case err := <-accepted:
		if hard.Err() != nil || errors.Is(err, quic.ErrServerClosed) || errors.Is(err, quic.ErrTransportClosed) {
			return nil
		}
		return fmt.Errorf("gateway: accept: %w", err)
	case <-ctx.Done():
	}
	s.drain(ln)
	<-accepted
	return nil
}

// drain runs when Serve's context ends; it returns once every stream ended or the grace is over,
// with every connection closed.
func (s *Server) drain(ln *Listener) {
	s.draining.Store(true)
	_ = ln.Listener.Close() // no new connections; established ones stay
	grace := s.cfg.DrainGrace
	edges := s.edges()
	s.log.Info("draining: telling edges to go away", "edges", len(edges), "streams", s.inflight.count(), "grace", grace.String())
	for _, e := range edges {
		e.goAway(grace)
	}
	// Edges that read the GoAway close their connection themselves once their last answer has
	// arrived (closing from here could drop frames still in flight). Edges of older builds do not:
	// theirs are closed a moment after their streams ended.
	const linger = time.Second
	end := time.Now().Add(grace)
	var idleSince time.Time
	for {
		now := time.Now()
		n := s.inflight.count()
		if n == 0 && idleSince.IsZero() {
			idleSince = now
		} else if n > 0 {
			idleSince = time.Time{}
		}
		if len(s.edges()) == 0 || (!idleSince.IsZero() && now.Sub(idleSince) >= linger) {
			s.log.Info("drained: every stream finished")
			break
		}
		if now.After(end) {
			s.log.Warn("drain grace over: closing connections with streams in flight", "streams", n)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, e := range s.edges() {
		_ = e.conn.CloseWithError(wire.CodeGoingAway, "gateway restarting")
	}
}

// Draining reports whether the gateway is draining (its context ended).
func (s *Server) Draining() bool { return s.draining.Load() }

// Abort ends every edge connection at once, without a drain: each edge gets a CONNECTION_CLOSE
// (not silence), so it fails over to its next gateway in milliseconds instead of waiting for an
// accept timeout or a missed ping. For a stop that cannot wait: a second stop signal during a
// drain, or a test that stops the gateway in-process. Streams in flight end with an error.
func (s *Server) Abort() {
	for _, e := range s.edges() {
		_ = e.conn.CloseWithError(wire.CodeShutdown, "gateway shutting down")
	}
}

func (s *Server) edges() []*edgeConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*edgeConn, 0, len(s.conns))
	for e := range s.conns {
		out = append(out, e)
	}
	return out
}

func (s *Server) serveConn(ctx context.Context, conn *quic.Conn) {
	// The TLS layer has verified the chain; the identity comes from the certificate only.
	edgeID, err := s.peerEdgeID(conn.ConnectionState().TLS)
	if err != nil {
		s.refuse(conn, "no_edge_id", wire.CodeIdentity, "client certificate carries no valid edge id")
		return
	}
	log := s.log.With("edge_id", edgeID, "remote", conn.RemoteAddr().String())
	ctrl, err := s.hello(ctx, conn, edgeID, log)
	if err != nil {
		return
	}
	s.m.connections.Inc()
	defer s.m.connections.Dec()
	log.Info("edge connected", "control", ctrl != nil)
	defer s.claim(conn, edgeID, log)() // one live connection per edge id (admission.go)

	connCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A connection that dies (the edge went away, the socket closed) cancels its upstream work.
	defer context.AfterFunc(conn.Context(), cancel)()
	e := &edgeConn{id: edgeID, conn: conn, ctrl: ctrl}
	defer e.stopHeartbeats()
	s.mu.Lock()
	s.conns[e] = struct{}{}
	draining := s.draining.Load()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.conns, e)
		s.mu.Unlock()
	}()
	if draining {
		e.goAway(s.cfg.DrainGrace) // connected while the drain began
	}
	// Closing the connection on a hard stop (or when serveConn returns and cancels connCtx)
	// unblocks AcceptStream below. An AfterFunc, not a goroutine parked on Done: every goroutine
	// is memory an idle edge costs (docs/SCALE.md).
	context.AfterFunc(connCtx, func() {
		_ = conn.CloseWithError(wire.CodeShutdown, "gateway shutting down")
	})
	var wg sync.WaitGroup
	defer wg.Wait()
	if ctrl != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveControl(e, log)
		}()
	}
	for {
		str, err := conn.AcceptStream(connCtx)
		if err != nil {
			log.Info("edge disconnected", "reason", err.Error())
			return
		}
		s.inflight.add()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.inflight.done()
			defer s.recoverStream(str, log)
			s.serveStream(connCtx, e, str, log)
		}()
	}
}

// recoverStream turns a panic while serving one stream (a bug) into that stream's reset: the
// edge answers its user with an error, every other stream and edge goes on, and the panic is
// counted and logged with its Go type and stack — never its value, which may hold text of the
// request.
func (s *Server) recoverStream(str *quic.Stream, log *slog.Logger) {
	v := recover()
	if v == nil {
		return
	}
	s.m.panics.Inc()
	kind, stack := gopanic.Describe(v) // the stream's watcher goroutine's own, when it panicked
	log.Error("stream panicked", "panic_type", kind, "stack", string(stack))
	str.CancelRead(wire.CodeProtocol)
	str.CancelWrite(wire.CodeProtocol)
}

// hello reads the edge's hello on the first stream and acknowledges it, or closes the connection
// with a code and a reason the edge can show its operator.
// When the edge offers wire.FeatureControl the stream stays open as the control stream and is
// returned; otherwise it is closed and nil is returned.
func (s *Server) hello(ctx context.Context, conn *quic.Conn, edgeID string, log *slog.Logger) (*quic.Stream, error) {
	hctx, cancel := context.WithTimeout(ctx, s.cfg.HelloTimeout)
	defer cancel()
	str, err := conn.AcceptStream(hctx)
	if err != nil {
		s.refuse(conn, "no_hello", wire.CodeBadHello, "no hello within "+s.cfg.HelloTimeout.String())
		return nil, err
	}
	stop := context.AfterFunc(hctx, func() { str.CancelRead(wire.CodeBadHello) })
	defer stop()
	f, err := wire.NewReader(str).Read()
	if err != nil {
		var ve *wire.VersionError
		if errors.As(err, &ve) {
			msg := fmt.Sprintf("unsupported protocol version %d: this gateway speaks version %d", ve.Got, ve.Want)
			log.Warn("edge refused", "reason", "version", "edge_version", ve.Got, "gateway_version", ve.Want)
			s.refuse(conn, "version", wire.CodeVersionMismatch, msg)
			return nil, err
		}
		s.refuse(conn, "bad_hello", wire.CodeBadHello, "could not read hello: "+err.Error())
		return nil, err
	}
	var h wire.Hello
	if f.Type != wire.TypeHello || f.Decode(&h) != nil {
		s.refuse(conn, "bad_hello", wire.CodeBadHello, "first frame must be a hello")
		return nil, errors.New("bad hello")
	}
	if h.Version != wire.Version {
		msg := fmt.Sprintf("unsupported protocol version %d: this gateway speaks version %d", h.Version, wire.Version)
		log.Warn("edge refused", "reason", "version", "edge_version", h.Version, "gateway_version", wire.Version)
		s.refuse(conn, "version", wire.CodeVersionMismatch, msg)
		return nil, errors.New("version mismatch")
	}
	if h.EdgeID != edgeID {
		// The certificate is the identity; an edge that claims another is misconfigured (or worse).
		log.Warn("edge refused", "reason", "identity_mismatch")
		s.refuse(conn, "identity_mismatch", wire.CodeIdentity,
			fmt.Sprintf("hello claims edge id %q but the client certificate is for %q", h.EdgeID, edgeID))
		return nil, errors.New("identity mismatch")
	}
	ack := wire.HelloAck{Version: wire.Version, Gateway: s.cfg.Name, EdgeID: edgeID}
	control := wire.HasFeature(h.Features, wire.FeatureControl)
	if control {
		// Heartbeats on request (control.go): an edge that asks for them is not read from again.
		ack.Features = []string{wire.FeatureControl, wire.FeatureHeartbeat}
	}
	if err := wire.WriteJSON(str, wire.TypeHelloAck, ack); err != nil {
		return nil, err
	}
	if !stop() {
		return nil, hctx.Err()
	}
	if !control {
		return nil, str.Close()
	}
	return str, nil
}

func (s *Server) refuse(conn *quic.Conn, reason string, code quic.ApplicationErrorCode, msg string) {
	s.m.helloRefused.WithLabelValues(reason).Inc()
	_ = conn.CloseWithError(code, msg)
}
