package gateway

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/quic-go/quic-go"

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
	// Admission enforces fleet trust (trust.Gate: enrolment, revocation, one connection per
	// edge); nil admits any certificate of the fleet CA.
	Admission Admission
}

// Server serves edges on a QUIC listener.
type Server struct {
	cfg Config
	tls *tls.Config
	log *slog.Logger
	m   *metrics
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
	return &Server{cfg: cfg, tls: tlsConf, log: log, m: newMetrics(reg)}, nil
}

// QUICConfig is the transport configuration the gateway listens with.
func (s *Server) QUICConfig() *quic.Config {
	return &quic.Config{
		MaxIdleTimeout:       s.cfg.IdleTimeout,
		HandshakeIdleTimeout: s.cfg.HelloTimeout,
		MaxIncomingStreams:   s.cfg.MaxStreamsPerEdge,
		KeepAlivePeriod:      s.cfg.IdleTimeout / 3,
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
	tr := &quic.Transport{Conn: conn}
	ln, err := tr.Listen(s.tls, s.QUICConfig())
	if err != nil {
		tr.Close()
		return nil, fmt.Errorf("gateway: listen on %s (UDP): %w", addr, err)
	}
	return &Listener{Listener: ln, tr: tr, conn: conn}, nil
}

// Serve accepts connections until ctx ends or the listener closes, then closes every connection
// (telling each edge why) and waits for all their streams to finish before releasing the socket.
func (s *Server) Serve(ctx context.Context, ln *Listener) error {
	var wg sync.WaitGroup
	defer ln.Close()
	defer s.cfg.Target.HTTP.CloseIdleConnections()
	defer wg.Wait()
	for {
		conn, err := ln.Accept(ctx)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, quic.ErrServerClosed) {
				return nil
			}
			return fmt.Errorf("gateway: accept: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveConn(ctx, conn)
		}()
	}
}

func (s *Server) serveConn(ctx context.Context, conn *quic.Conn) {
	// The TLS layer has verified the chain; the identity comes from the certificate only.
	edgeID, err := s.peerEdgeID(conn.ConnectionState().TLS)
	if err != nil {
		s.refuse(conn, "no_edge_id", wire.CodeIdentity, "client certificate carries no valid edge id")
		return
	}
	log := s.log.With("edge_id", edgeID, "remote", conn.RemoteAddr().String())
	if err := s.hello(ctx, conn, edgeID, log); err != nil {
		return
	}
	s.m.connections.Inc()
	defer s.m.connections.Dec()
	log.Info("edge connected")
	defer s.claim(conn, edgeID, log)() // one live connection per edge id (admission.go)

	connCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		// Closing the connection on shutdown unblocks AcceptStream below.
		<-connCtx.Done()
		_ = conn.CloseWithError(wire.CodeShutdown, "gateway shutting down")
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		str, err := conn.AcceptStream(connCtx)
		if err != nil {
			log.Info("edge disconnected", "reason", err.Error())
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveStream(connCtx, edgeID, str, log)
		}()
	}
}

// hello reads the edge's hello on the first stream and acknowledges it, or closes the connection
// with a code and a reason the edge can show its operator.
func (s *Server) hello(ctx context.Context, conn *quic.Conn, edgeID string, log *slog.Logger) error {
	hctx, cancel := context.WithTimeout(ctx, s.cfg.HelloTimeout)
	defer cancel()
	str, err := conn.AcceptStream(hctx)
	if err != nil {
		s.refuse(conn, "no_hello", wire.CodeBadHello, "no hello within "+s.cfg.HelloTimeout.String())
		return err
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
			return err
		}
		s.refuse(conn, "bad_hello", wire.CodeBadHello, "could not read hello: "+err.Error())
		return err
	}
	var h wire.Hello
	if f.Type != wire.TypeHello || f.Decode(&h) != nil {
		s.refuse(conn, "bad_hello", wire.CodeBadHello, "first frame must be a hello")
		return errors.New("bad hello")
	}
	if h.Version != wire.Version {
		msg := fmt.Sprintf("unsupported protocol version %d: this gateway speaks version %d", h.Version, wire.Version)
		log.Warn("edge refused", "reason", "version", "edge_version", h.Version, "gateway_version", wire.Version)
		s.refuse(conn, "version", wire.CodeVersionMismatch, msg)
		return errors.New("version mismatch")
	}
	if h.EdgeID != edgeID {
		// The certificate is the identity; an edge that claims another is misconfigured (or worse).
		log.Warn("edge refused", "reason", "identity_mismatch")
		s.refuse(conn, "identity_mismatch", wire.CodeIdentity,
			fmt.Sprintf("hello claims edge id %q but the client certificate is for %q", h.EdgeID, edgeID))
		return errors.New("identity mismatch")
	}
	if err := wire.WriteJSON(str, wire.TypeHelloAck, wire.HelloAck{Version: wire.Version, Gateway: s.cfg.Name, EdgeID: edgeID}); err != nil {
		return err
	}
	return str.Close()
}

func (s *Server) refuse(conn *quic.Conn, reason string, code quic.ApplicationErrorCode, msg string) {
	s.m.helloRefused.WithLabelValues(reason).Inc()
	_ = conn.CloseWithError(code, msg)
}
