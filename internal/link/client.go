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
}

// DefaultTuning: 5 s dial and keepalive, 20 s idle timeout, re-dial backoff 100 ms to 10 s.
func DefaultTuning() Tuning {
	return Tuning{DialTimeout: 5 * time.Second, KeepAlive: 5 * time.Second, IdleTimeout: 20 * time.Second,
		BackoffMin: 100 * time.Millisecond, BackoffMax: 10 * time.Second}
}

// Validate lists every problem at once.
func (t Tuning) Validate() error {
	var errs []error
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"link.dial_timeout", t.DialTimeout}, {"link.keepalive", t.KeepAlive}, {"link.idle_timeout", t.IdleTimeout},
		{"link.backoff_min", t.BackoffMin}, {"link.backoff_max", t.BackoffMax}} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive", d.name))
		}
	}
	if t.KeepAlive >= t.IdleTimeout && t.IdleTimeout > 0 {
		errs = append(errs, fmt.Errorf("link.keepalive (%s) must be shorter than link.idle_timeout (%s)", t.KeepAlive, t.IdleTimeout))
	}
	if t.BackoffMin > t.BackoffMax {
		errs = append(errs, errors.New("link.backoff_min must not exceed link.backoff_max"))
	}
	return errors.Join(errs...)
}

func (c *Config) defaults() {
	d := DefaultTuning()
	if c.DialTimeout <= 0 {
		c.DialTimeout = d.DialTimeout
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = d.KeepAlive
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = d.IdleTimeout
	}
	if c.BackoffMin <= 0 {
		c.BackoffMin = d.BackoffMin
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = d.BackoffMax
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
	conn    *quic.Conn
	ack     wire.HelloAck
	lastErr error
	changed chan struct{} // closed and replaced whenever conn changes
}

// New returns a client; call Run to connect.
func New(cfg Config, reg prometheus.Registerer, log *slog.Logger) *Client {
	cfg.defaults()
	return &Client{cfg: cfg, log: log, m: newMetrics(reg), changed: make(chan struct{})}
}

// Run dials the gateway and keeps the connection up until ctx ends. It returns only then.
func (c *Client) Run(ctx context.Context) error {
	backoff := c.cfg.BackoffMin
	for {
		conn, err := c.dial(ctx)
		if ctx.Err() != nil {
			if conn != nil {
				_ = conn.CloseWithError(wire.CodeShutdown, "edge shutting down")
			}
			return nil
		}
		if err != nil {
			c.setConn(nil, wire.HelloAck{}, err)
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
		c.log.Info("connected to the datacenter gateway", "addr", c.cfg.Addr, "gateway", c.Ack().Gateway)
		select {
		case <-ctx.Done():
			_ = conn.CloseWithError(wire.CodeShutdown, "edge shutting down")
			c.setConn(nil, wire.HelloAck{}, ErrNotConnected)
			return nil
		case <-conn.Context().Done():
			cause := context.Cause(conn.Context())
			c.setConn(nil, wire.HelloAck{}, cause)
			c.m.disconnects.Inc()
			c.log.Warn("lost the datacenter gateway", "addr", c.cfg.Addr, "error", describe(cause))
		}
	}
}

func (c *Client) dial(ctx context.Context) (*quic.Conn, error) {
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
	ack, err := c.hello(dctx, conn)
	if err != nil {
		var ve *wire.VersionError
		if errors.As(err, &ve) {
			_ = conn.CloseWithError(wire.CodeVersionMismatch, ve.Error())
		} else {
			_ = conn.CloseWithError(wire.CodeBadHello, "hello failed")
		}
		return nil, err
	}
	c.setConn(conn, ack, nil)
	return conn, nil
}

func (c *Client) hello(ctx context.Context, conn *quic.Conn) (wire.HelloAck, error) {
	str, err := conn.OpenStreamSync(ctx)
	if err != nil {
		return wire.HelloAck{}, refused(conn, err)
	}
	stop := context.AfterFunc(ctx, func() { str.CancelRead(wire.CodeBadHello) })
	defer stop()
	if err := wire.WriteJSON(str, wire.TypeHello, wire.Hello{Version: wire.Version, EdgeID: c.cfg.EdgeID, Software: c.cfg.Software}); err != nil {
		return wire.HelloAck{}, refused(conn, err)
	}
	f, err := wire.NewReader(str).Read()
	if err != nil {
		return wire.HelloAck{}, refused(conn, err)
	}
	var ack wire.HelloAck
	if f.Type != wire.TypeHelloAck || f.Decode(&ack) != nil {
		return wire.HelloAck{}, fmt.Errorf("link: the gateway answered the hello with a %s frame", f.Type)
	}
	if ack.Version != wire.Version {
		return wire.HelloAck{}, fmt.Errorf("link: %w: gateway speaks version %d, this edge %d", wire.ErrVersion, ack.Version, wire.Version)
	}
	_ = str.Close()
	return ack, nil
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
	if err == nil {
		return "closed"
	}
	return err.Error()
}

func (c *Client) setConn(conn *quic.Conn, ack wire.HelloAck, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn, c.ack, c.lastErr = conn, ack, err
	close(c.changed)
	c.changed = make(chan struct{})
	if conn != nil {
		c.m.up.Set(1)
	} else {
		c.m.up.Set(0)
	}
}

// Ready reports whether the connection to the DC is up, and if not, the last reason.
func (c *Client) Ready() (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil && c.conn.Context().Err() == nil {
		return true, nil
	}
	if c.lastErr == nil {
		return false, ErrNotConnected
	}
	return false, c.lastErr
}

// WaitReady blocks until the link is up or ctx ends.
func (c *Client) WaitReady(ctx context.Context) error {
	for {
		c.mu.Lock()
		ok := c.conn != nil && c.conn.Context().Err() == nil
		ch := c.changed
		c.mu.Unlock()
		if ok {
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
	conn := c.conn
	c.mu.Unlock()
	if conn == nil {
		return 0
	}
	return conn.ConnectionStats().SmoothedRTT
}

func (c *Client) current() (*quic.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil || c.conn.Context().Err() != nil {
		if c.lastErr != nil {
			return nil, fmt.Errorf("%w: %s", ErrNotConnected, describe(c.lastErr))
		}
		return nil, ErrNotConnected
	}
	return c.conn, nil
}

func jitter(d time.Duration) time.Duration {
	return d/2 + rand.N(d/2+1)
}
