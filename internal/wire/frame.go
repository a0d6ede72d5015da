package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Version is the protocol version this build speaks.
const Version = 1

// HeaderSize is the size of a frame header.
const HeaderSize = 6

// DefaultMaxPayload bounds a frame's payload; a request body is limited well below it by the edge.
const DefaultMaxPayload = 16 << 20

// Type says what a frame carries.
type Type uint8

const (
	TypeHello    Type = 1 // edge → gateway, first frame of the control stream
	TypeHelloAck Type = 2 // gateway → edge
	TypeRequest  Type = 3 // edge → gateway, first frame of a request stream
	TypeChunk    Type = 4 // gateway → edge: one chat.completion.chunk (raw JSON)
	TypeResponse Type = 5 // gateway → edge: a whole non-streamed response
	TypeDone     Type = 6 // gateway → edge: the stream ended normally
	TypeError    Type = 7 // either way: the request failed
	TypeCancel   Type = 8 // edge → gateway: the user went away
	// TypeAccepted: gateway → edge, sent as soon as a request is read, before the target is
	// called. It proves the gateway is alive within one round trip, independently of how long the
	// model takes to answer, so the edge can fail over from a dead gateway in about a second.
	TypeAccepted Type = 9
	// TypeVerifyResult: gateway → edge, the answer to one drafting round (OpDraft, see verify.go).
	TypeVerifyResult Type = 10
	// Control-stream frames (control.go): only between peers that both offered FeatureControl in
	// the hello, so a peer of an older build never receives a type it does not know.
	TypePing   Type = 11 // edge → gateway: are you there? (Ping)
	TypePong   Type = 12 // gateway → edge: the answer to a Ping, echoing it
	TypeGoAway Type = 13 // gateway → edge: I am going away; open no new streams (GoAway)
)

func (t Type) String() string {
	switch t {
	case TypeHello:
		return "hello"
	case TypeHelloAck:
		return "hello-ack"
	case TypeRequest:
		return "request"
	case TypeChunk:
		return "chunk"
	case TypeResponse:
		return "response"
	case TypeDone:
		return "done"
	case TypeError:
		return "error"
	case TypeCancel:
		return "cancel"
	case TypeAccepted:
		return "accepted"
	case TypeVerifyResult:
		return "verify-result"
	case TypePing:
		return "ping"
	case TypePong:
		return "pong"
	case TypeGoAway:
		return "goaway"
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

func (t Type) known() bool { return t >= TypeHello && t <= TypeGoAway }

var (
	// ErrVersion means the peer speaks a protocol version this build does not.
	ErrVersion = errors.New("wire: unsupported protocol version")
	// ErrTooLarge means a frame's declared length exceeds the limit.
	ErrTooLarge = errors.New("wire: frame too large")
	// ErrUnknownType means a frame type this version does not define.
	ErrUnknownType = errors.New("wire: unknown frame type")
)

// VersionError says which version the peer spoke.
type VersionError struct{ Got, Want uint8 }

func (e *VersionError) Error() string {
	return fmt.Sprintf("wire: peer speaks protocol version %d, this build speaks %d", e.Got, e.Want)
}

func (e *VersionError) Unwrap() error { return ErrVersion }

// Frame is one decoded frame.
type Frame struct {
	Type    Type
	Payload []byte
}

// Write writes one frame with the given payload in a single Write call (QUIC streams send a
// write as soon as they can; one call keeps header and payload in one STREAM frame when they fit).
func Write(w io.Writer, t Type, payload []byte) error {
	return writeVersion(w, Version, t, payload)
}

func writeVersion(w io.Writer, v uint8, t Type, payload []byte) error {
	if len(payload) > DefaultMaxPayload {
		return fmt.Errorf("%w: %d bytes", ErrTooLarge, len(payload))
	}
	buf := make([]byte, HeaderSize+len(payload))
	buf[0] = v
	buf[1] = byte(t)
	binary.BigEndian.PutUint32(buf[2:6], uint32(len(payload)))
	copy(buf[HeaderSize:], payload)
	_, err := w.Write(buf)
	return err
}

// WriteJSON encodes msg as the frame's payload.
func WriteJSON(w io.Writer, t Type, msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("wire: encode %s: %w", t, err)
	}
	return Write(w, t, b)
}

// Reader decodes frames from a stream.
type Reader struct {
	r          io.Reader
	MaxPayload int
	hdr        [HeaderSize]byte
}

// NewReader returns a Reader with the default payload limit.
func NewReader(r io.Reader) *Reader { return &Reader{r: r, MaxPayload: DefaultMaxPayload} }

// Read returns the next frame. io.EOF means the peer closed the stream cleanly between frames;
// io.ErrUnexpectedEOF means it closed inside a frame.
func (fr *Reader) Read() (Frame, error) {
	if _, err := io.ReadFull(fr.r, fr.hdr[:]); err != nil {
		return Frame{}, err
	}
	if fr.hdr[0] != Version {
		return Frame{}, &VersionError{Got: fr.hdr[0], Want: Version}
	}
	t := Type(fr.hdr[1])
	if !t.known() {
		return Frame{}, fmt.Errorf("%w: %d", ErrUnknownType, fr.hdr[1])
	}
	n := binary.BigEndian.Uint32(fr.hdr[2:6])
	if int64(n) > int64(fr.MaxPayload) {
		return Frame{}, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, n, fr.MaxPayload)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(fr.r, p); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return Frame{}, err
	}
	return Frame{Type: t, Payload: p}, nil
}

// Decode unmarshals a frame's JSON payload, naming the frame type in the error.
func (f Frame) Decode(v any) error {
	if err := json.Unmarshal(f.Payload, v); err != nil {
		return fmt.Errorf("wire: bad %s payload: %w", f.Type, err)
	}
	return nil
}
