package link

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/wire"
)

// ErrNotConnected means there is no established connection to the DC right now.
var ErrNotConnected = errors.New("link: not connected to the datacenter")

// RefusedError is a connection the gateway closed after the TLS handshake, with its reason
// (wrong protocol version, identity mismatch, …). Re-dialling will not help until an operator acts.
type RefusedError struct {
	Code   quic.ApplicationErrorCode
	Reason string
}

func (e *RefusedError) Error() string { return "link: the gateway refused this edge: " + e.Reason }

// Config configures the link.
type Config struct {
	Addr     string // host:port of the dc-gateway (UDP)
	EdgeID   string
	Software string
	TLS      *tls.Config
	Tuning
}

// Tuning is the edge-agent's `link:` section: how the QUIC connection is kept.
type Tuning struct {
	DialTimeout time.Duration `yaml:"dial_timeout"`
	// KeepAlive and IdleTimeout: a keepalive every KeepAlive; a connection silent for
	// IdleTimeout is dead.
	KeepAlive   time.Duration `yaml:"keepalive"`
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	BackoffMin  time.Duration `yaml:"backoff_min"`
	BackoffMax  time.Duration `yaml:"backoff_max"`
	// PingInterval and PingTimeout: with a gateway that has a control stream, a ping every
	// PingInterval; no pong for PingTimeout declares the link dead (its streams end, it re-dials).
	PingInterval time.Duration `yaml:"ping_interval"`
	PingTimeout  time.Duration `yaml:"ping_timeout"`
	// DeadAfterUnacknowledged requests in a row that the gateway did not acknowledge in time
	// declare the link dead too (for gateways without a control stream). 0 means the default.
	DeadAfterUnacknowledged int `yaml:"dead_after_unacknowledged"`
}

// DefaultTuning: 5 s dial and keepalive, 20 s idle timeout, re-dial backoff 100 ms to 10 s, a
// ping every 500 ms and dead after 1.5 s without a pong (or 3 unacknowledged requests in a row).
func DefaultTuning() Tuning {
	return Tuning{DialTimeout: 5 * time.Second, KeepAlive: 5 * time.Second, IdleTimeout: 20 * time.Second,
		BackoffMin: 100 * time.Millisecond, BackoffMax: 10 * time.Second,
		PingInterval: 500 * time.Millisecond, PingTimeout: 1500 * time.Millisecond, DeadAfterUnacknowledged: 3}
}

// Validate lists every problem at once.
func (t Tuning) Validate() error {
	var errs []error
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"link.dial_timeout", t.DialTimeout}, {"link.keepalive", t.KeepAlive}, {"link.idle_timeout", t.IdleTimeout},
		{"link.backoff_min", t.BackoffMin}, {"link.backoff_max", t.BackoffMax},
		{"link.ping_interval", t.PingInterval}, {"link.ping_timeout", t.PingTimeout}} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive", d.name))
		}
	}
	if t.KeepAlive >= t.IdleTimeout && t.IdleTimeout > 0 {
		errs = append(errs, fmt.Errorf("link.keepalive (%s) must be shorter than link.idle_timeout (%s)", t.KeepAlive, t.IdleTimeout))
	}
	if t.PingInterval >= t.PingTimeout && t.PingTimeout > 0 {
		errs = append(errs, fmt.Errorf("link.ping_interval (%s) must be shorter than link.ping_timeout (%s)", t.PingInterval, t.PingTimeout))
	}
	if t.BackoffMin > t.BackoffMax {
		errs = append(errs, errors.New("link.backoff_min must not exceed link.backoff_max"))
	}
	if t.DeadAfterUnacknowledged < 0 {
		errs = append(errs, errors.New("link.dead_after_unacknowledged must not be negative"))
	}
	return errors.Join(errs...)
}

func (c *Config) defaults() {
	d := DefaultTuning()
	for _, f := range []struct{ v, def *time.Duration }{{&c.DialTimeout, &d.DialTimeout}, {&c.KeepAlive, &d.KeepAlive},
		{&c.IdleTimeout, &d.IdleTimeout}, {&c.BackoffMin, &d.BackoffMin}, {&c.BackoffMax, &d.BackoffMax},
		{&c.PingInterval, &d.PingInterval}, {&c.PingTimeout, &d.PingTimeout}} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	if c.DeadAfterUnacknowledged <= 0 {
		c.DeadAfterUnacknowledged = d.DeadAfterUnacknowledged
	}
}

// Flow-control windows of the edge's receive side (see dial).
const (
	streamWindow = 1 << 20
	connWindow   = 256 * streamWindow
)

// Client keeps the connection to the DC and opens request streams on it.
type Client struct {
	cfg Config
	log *slog.Logger
	m   *metrics

	mu      sync.Mutex
	sess    *session // nil while down
	ack     wire.HelloAck
	lastErr error
	epoch   uint64        // connections established so far
	changed chan struct{} // closed and replaced whenever the state changes
}

// New returns a client; call Run to connect.
func New(cfg Config, reg prometheus.Registerer, log *slog.Logger) *Client {
	cfg.defaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Client{cfg: cfg, log: log, m: newMetrics(reg), changed: make(chan struct{})}
}

// Run dials the gateway and keeps the connection up until ctx ends. It returns only then.
func (c *Client) Run(ctx context.Context) error {
	backoff := c.cfg.BackoffMin
	for {
		sess, err := c.dial(ctx)
		if ctx.Err() != nil {
			if sess != nil {
				_ = sess.conn.CloseWithError(wire.CodeShutdown, "edge shutting down")
			}
			c.setSession(nil, wire.HelloAck{}, ErrNotConnected)
			return nil
		}
		if err != nil {
			c.setSession(nil, wire.HelloAck{}, err)
			c.m.dialFailures.Inc()
			wait := jitter(backoff)
			c.log.Warn("cannot connect to the datacenter gateway", "addr", c.cfg.Addr, "error", err.Error(), "retry_in", wait.String())
			backoff = min(backoff*2, c.cfg.BackoffMax)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(wait):
			}
			continue
		}
		backoff = c.cfg.BackoffMin
		c.log.Info("connected to the datacenter gateway", "addr", c.cfg.Addr, "gateway", c.Ack().Gateway, "control", sess.ctrl != nil)
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			c.watch(sess)
		}()
		select {
		case <-ctx.Done():
			_ = sess.conn.CloseWithError(wire.CodeShutdown, "edge shutting down")
			<-watched
			c.setSession(nil, wire.HelloAck{}, ErrNotConnected)
			return nil
		case <-sess.conn.Context().Done():
			<-watched
			cause := context.Cause(sess.conn.Context())
			if why := sess.deadReason(); why != "" {
				cause = fmt.Errorf("%w: %s", errDeclaredDead, why)
			}
			c.setSession(nil, wire.HelloAck{}, cause)
			c.m.disconnects.Inc()
			c.log.Warn("lost the datacenter gateway", "addr", c.cfg.Addr, "error", describe(cause))
		}
	}
}

func (c *Client) dial(ctx context.Context) (*session, error) {
	dctx, cancel := context.WithTimeout(ctx, c.cfg.DialTimeout)
	defer cancel()
	conn, err := quic.DialAddr(dctx, c.cfg.Addr, c.cfg.TLS, &quic.Config{
		HandshakeIdleTimeout: c.cfg.DialTimeout,
		MaxIdleTimeout:       c.cfg.IdleTimeout,
		KeepAlivePeriod:      c.cfg.KeepAlive,
		// Data a stuck user does not read stays in its stream's window, and counts against the
		// connection's window too. With quic-go's defaults (6 MB per stream, 15 MB per
		// connection) three stuck users stall every other request on the link. Small stream
		// windows and a connection window far larger than their sum keep one user's back-pressure
		// on that user's stream. 1 MiB per RTT is still 5 MB/s at 200 ms: far above token streams.
		InitialStreamReceiveWindow:     256 << 10,
		MaxStreamReceiveWindow:         streamWindow,
		InitialConnectionReceiveWindow: connWindow,
		MaxConnectionReceiveWindow:     connWindow,
	})
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", c.cfg.Addr, err)
	}
	ack, ctrl, err := c.hello(dctx, conn)
	if err != nil {
		var ve *wire.VersionError
		if errors.As(err, &ve) {
			_ = conn.CloseWithError(wire.CodeVersionMismatch, ve.Error())
		} else {
			_ = conn.CloseWithError(wire.CodeBadHello, "hello failed")
		}
		return nil, err
	}
	sess := newSession(conn, ctrl)
	c.setSession(sess, ack, nil)
	return sess, nil
}

// hello runs the hello exchange on the connection's first stream. When the gateway accepts
// wire.FeatureControl the stream stays open and is returned as the control stream.
func (c *Client) hello(ctx context.Context, conn *quic.Conn) (wire.HelloAck, *quic.Stream, error) {
	str, err := conn.OpenStreamSync(ctx)
	if err != nil {
		return wire.HelloAck{}, nil, refused(conn, err)
	}
	stop := context.AfterFunc(ctx, func() { str.CancelRead(wire.CodeBadHello) })
	defer stop()
	h := wire.Hello{Version: wire.Version, EdgeID: c.cfg.EdgeID, Software: c.cfg.Software, Features: []string{wire.FeatureControl}}
	if err := wire.WriteJSON(str, wire.TypeHello, h); err != nil {
		return wire.HelloAck{}, nil, refused(conn, err)
	}
	f, err := wire.NewReader(str).Read()
	if err != nil {
		return wire.HelloAck{}, nil, refused(conn, err)
	}
	var ack wire.HelloAck
	if f.Type != wire.TypeHelloAck || f.Decode(&ack) != nil {
		return wire.HelloAck{}, nil, fmt.Errorf("link: the gateway answered the hello with a %s frame", f.Type)
	}
	if ack.Version != wire.Version {
		return wire.HelloAck{}, nil, fmt.Errorf("link: %w: gateway speaks version %d, this edge %d", wire.ErrVersion, ack.Version, wire.Version)
	}
	if !stop() {
		return wire.HelloAck{}, nil, ctx.Err()
	}
	if !wire.HasFeature(ack.Features, wire.FeatureControl) {
		_ = str.Close() // a gateway of an older build: QUIC keepalives and accept timeouts only
		return ack, nil, nil
	}
	return ack, str, nil
}

// refused turns "the gateway closed the connection with a reason" into a RefusedError.
func refused(conn *quic.Conn, err error) error {
	var ae *quic.ApplicationError
	if errors.As(context.Cause(conn.Context()), &ae) || errors.As(err, &ae) {
		if ae.Remote {
			return &RefusedError{Code: ae.ErrorCode, Reason: ae.ErrorMessage}
		}
	}
	return err
}

func describe(err error) string {
	var ae *quic.ApplicationError
	if errors.As(err, &ae) && ae.Remote {
		return "closed by the gateway: " + ae.ErrorMessage
	}
	var ie *quic.IdleTimeoutError
	if errors.As(err, &ie) {
		return "idle timeout: no packets from the gateway"
	}
	var sr *quic.StatelessResetError
	if errors.As(err, &sr) {
		return "reset by the gateway (it restarted)"
	}
	if err == nil {
		return "closed"
	}
	return err.Error()
}

func (c *Client) setSession(sess *session, ack wire.HelloAck, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sess, c.ack, c.lastErr = sess, ack, err
	if sess != nil {
		c.epoch++
	}
	c.notifyLocked()
	if sess != nil {
		c.m.up.Set(1)
	} else {
		c.m.up.Set(0)
	}
}

func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Readiness reasons: stable codes for /readyz and metrics. The raw cause (addresses, TLS errors)
// goes to the log only.
const (
	ReasonDown      = "dc_link_down"        // no connection: never connected, lost, or re-dialling
	ReasonRefused   = "dc_refused"          // the gateway refused this edge (identity, version)
	ReasonHandshake = "dc_handshake_failed" // the TLS handshake failed (certificates, CA)
	ReasonDraining  = "dc_draining"         // the gateway said it is going away (GoAway)
	ReasonVersion   = "dc_version_mismatch" // the gateway speaks another protocol version
)

// NotReadyError says why the link cannot take new requests. Its text is the reason code and a
// sentence without addresses or raw errors; Unwrap gives the cause for logs.
type NotReadyError struct {
	Reason string
	Err    error
}

func (e *NotReadyError) Error() string {
	switch e.Reason {
	case ReasonVersion:
		return e.Reason + ": the datacenter gateway speaks another protocol version (see the edge log)"
	case ReasonRefused:
		return e.Reason + ": the datacenter gateway refused this edge (see the edge log)"
	case ReasonHandshake:
		return e.Reason + ": the TLS handshake with the datacenter gateway failed (see the edge log)"
	case ReasonDraining:
		return e.Reason + ": the datacenter gateway is going away; new requests go elsewhere"
	}
	return e.Reason + ": no connection to the datacenter gateway"
}

func (e *NotReadyError) Unwrap() error { return e.Err }

func notReady(err error) *NotReadyError {
	var re *RefusedError
	var te *quic.TransportError
	switch {
	case errors.Is(err, wire.ErrVersion) || (errors.As(err, &re) && re.Code == wire.CodeVersionMismatch):
		return &NotReadyError{Reason: ReasonVersion, Err: err}
	case errors.As(err, &re):
		return &NotReadyError{Reason: ReasonRefused, Err: err}
	case errors.As(err, &te) && te.ErrorCode.IsCryptoError():
		return &NotReadyError{Reason: ReasonHandshake, Err: err}
	case errors.Is(err, ErrDraining):
		return &NotReadyError{Reason: ReasonDraining, Err: err}
	}
	return &NotReadyError{Reason: ReasonDown, Err: err}
}

// Ready reports whether the link can take new requests now; if not, the error is the raw cause
// (for logs and tests: it can name addresses and TLS errors). Readiness gives the reason code.
func (c *Client) Ready() (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.sess; s != nil && s.conn.Context().Err() == nil {
		if s.draining.Load() {
			return false, ErrDraining
		}
		return true, nil
	}
	if c.lastErr == nil {
		return false, ErrNotConnected
	}
	return false, c.lastErr
}

// Readiness is Ready for /readyz: when not ready, the error is a *NotReadyError whose text is a
// reason code and a sentence, without addresses or raw TLS errors.
func (c *Client) Readiness() (bool, error) {
	ok, err := c.Ready()
	if ok {
		return true, nil
	}
	return false, notReady(err)
}

// Connections counts the connections established so far: it changes each time the link
// (re)connects, so a caller can tell a fresh connection from the one that failed it.
func (c *Client) Connections() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// WaitReady blocks until the link can take requests or ctx ends.
func (c *Client) WaitReady(ctx context.Context) error {
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		if ok, _ := c.Ready(); ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// Addr is the gateway address this link dials.
func (c *Client) Addr() string { return c.cfg.Addr }

// Ack is the gateway's hello acknowledgement of the current connection.
func (c *Client) Ack() wire.HelloAck {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ack
}

// RTT is quic-go's smoothed RTT estimate of the current connection (0 when down).
func (c *Client) RTT() time.Duration {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return 0
	}
	return s.conn.ConnectionStats().SmoothedRTT
}

// PingRTT is the round trip of the last answered ping (0 when down or without a control stream).
func (c *Client) PingRTT() time.Duration {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return 0
	}
	return time.Duration(s.pingRTT.Load())
}

func (c *Client) current() (*session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil || c.sess.conn.Context().Err() != nil {
		if c.lastErr != nil {
			return nil, fmt.Errorf("%w: %s", ErrNotConnected, describe(c.lastErr))
		}
		return nil, ErrNotConnected
	}
	if c.sess.draining.Load() {
		return nil, ErrDraining
	}
	return c.sess, nil
}

func jitter(d time.Duration) time.Duration {
	return d/2 + rand.N(d/2+1)
}
