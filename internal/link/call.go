package link

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/procs"
	"github.com/sucursal/sucursal/internal/wire"
)

// ErrBusy means the gateway's limit of concurrent streams for this edge is reached.
var ErrBusy = errors.New("link: the datacenter gateway's stream limit for this branch is reached")

// ErrStreamLost means the stream or the connection under it broke before the answer ended.
var ErrStreamLost = errors.New("link: the connection to the datacenter broke during the request")

// Call is one request on its own stream.
type Call struct {
	c        *Client
	sess     *session
	str      *quic.Stream
	fr       *wire.Reader
	stop     func() bool
	once     sync.Once
	m        *metrics
	accepted chan struct{}
	ackOnce  sync.Once
}

// Open opens a stream, sends req, and returns the call whose frames the caller reads with Next.
// If ctx ends before the call is closed, the gateway is told to cancel (a Cancel frame, then the
// stream is reset), so the upstream request stops too.
//
// Open sends what it is given: the exit check is the caller's (package dc, the only caller).
func (c *Client) Open(ctx context.Context, req wire.Request) (*Call, error) {
	sess, err := c.current()
	if err != nil {
		return nil, err
	}
	conn := sess.conn
	// OpenStream, not OpenStreamSync: when the gateway's per-edge stream limit is reached, the
	// request is refused at once (ErrBusy) instead of waiting silently for a stream to free.
	str, err := conn.OpenStream()
	if err != nil {
		var limit *quic.StreamLimitReachedError
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &limit):
			c.m.busy.Inc()
			return nil, ErrBusy
		}
		return nil, fmt.Errorf("%w: %w", ErrNotConnected, err)
	}
	// Buffered: the gateway sends chunks that arrived together in one write, and reading them
	// frame by frame from the stream would lock it twice per frame.
	call := &Call{c: c, sess: sess, str: str, fr: wire.NewReader(bufio.NewReaderSize(str, 4<<10)), m: c.m, accepted: make(chan struct{})}
	c.m.openStreams.Inc()
	procs.Begin() // how many Ps the agent runs on follows the streams in flight (package procs)
	sess.opened()
	if err := wire.WriteJSON(str, wire.TypeRequest, req); err != nil {
		call.abort(wire.CodeProtocol)
		if sess.gone(err) {
			return nil, fmt.Errorf("%w: %w: %w", ErrStreamLost, ErrConnectionGone, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrStreamLost, err)
	}
	call.stop = context.AfterFunc(ctx, call.cancel)
	return call, nil
}

// Accepted is closed when the gateway has acknowledged the request (or sent anything at all).
func (call *Call) Accepted() <-chan struct{} { return call.accepted }

// Next returns the next frame from the gateway. The gateway's acknowledgement is not returned:
// it closes Accepted.
func (call *Call) Next() (wire.Frame, error) {
	f, err := call.fr.Read()
	if err == nil {
		// A frame proves the gateway alive as a heartbeat does: while an answer streams, a
		// gateway asked for heartbeats only when idle sends none (session.watchHeartbeats).
		call.sess.heardNow()
		call.ackOnce.Do(func() {
			close(call.accepted)
			call.sess.unacked.Store(0)
		})
		if f.Type == wire.TypeAccepted {
			f, err = call.fr.Read()
		}
	}
	if err != nil {
		var se *quic.StreamError
		if errors.As(err, &se) && se.ErrorCode == wire.CodeCancelled {
			return f, context.Canceled
		}
		return f, fmt.Errorf("%w: %w", ErrStreamLost, err)
	}
	return f, nil
}

// Retryable reports whether err, from Next, means the connection under the call died before the
// gateway acknowledged the request (a restarted gateway reset it, or the link was declared
// dead): the gateway did not serve it, so it may be sent again once the link is back.
func (call *Call) Retryable(err error) bool {
	select {
	case <-call.accepted:
		return false
	default:
	}
	return errors.Is(err, ErrStreamLost) && call.sess.gone(err)
}

// ErrConnectionGone marks an Open whose request could not be written because the connection
// under it died: nothing reached the gateway, and the request may be sent again once the link
// is back.
var ErrConnectionGone = errors.New("link: the connection died before the request was sent")

// gone reports whether err is the connection's death rather than the stream's own reset. A stream
// may see the error a moment before the connection's context ends: wait for it briefly, so that a
// caller who then waits for the link sees it down, not the dead connection as still up.
func (s *session) gone(err error) bool {
	var se *quic.StreamError
	if errors.As(err, &se) {
		return false // the gateway reset this stream; the connection lives
	}
	select {
	case <-s.conn.Context().Done():
		return true
	case <-time.After(250 * time.Millisecond):
		return false
	}
}

// Close ends the call after its answer was read (or abandoned). It is safe to call twice.
func (call *Call) Close() {
	call.once.Do(func() {
		call.stop()
		_ = call.str.Close()
		call.str.CancelRead(wire.CodeOK)
		call.m.openStreams.Dec()
		procs.End()
		call.sess.closed()
	})
}

// Abandon gives up on the call from any goroutine: the gateway is told to cancel and a pending
// Next returns an error.
func (call *Call) Abandon() { call.cancel() }

// Unacknowledged abandons a call the gateway did not acknowledge in time, and counts it against
// the connection: several in a row mean the gateway is gone, and the link is declared dead.
func (call *Call) Unacknowledged() {
	call.cancel()
	call.c.unacknowledged(call.sess)
}

// cancel runs when the caller's context ends first: tell the gateway, then reset the stream.
func (call *Call) cancel() {
	call.once.Do(func() {
		_ = wire.WriteJSON(call.str, wire.TypeCancel, wire.Cancel{Reason: "client went away"})
		_ = call.str.Close()
		call.str.CancelRead(wire.CodeCancelled)
		call.m.cancels.Inc()
		call.m.openStreams.Dec()
		procs.End()
		call.sess.closed()
	})
}

func (call *Call) abort(code quic.StreamErrorCode) {
	call.once.Do(func() {
		call.str.CancelWrite(code)
		call.str.CancelRead(code)
		call.m.openStreams.Dec()
		procs.End()
		call.sess.closed()
	})
}
