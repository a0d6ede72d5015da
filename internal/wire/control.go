package wire

// The control stream. A connection's first stream carries the hello exchange; when both peers
// offer FeatureControl (the edge in Hello.Features, the gateway in HelloAck.Features) it stays
// open afterwards and carries, for the life of the connection:
//
//   - Ping (edge → gateway) and Pong (gateway → edge, echoing Seq): a cheap, active probe. The
//     edge measures the round trip and declares the link dead when pongs stop, so an idle
//     branch knows its state, and a gateway that died without closing the connection is noticed
//     in about a second instead of at the QUIC idle timeout.
//   - GoAway (gateway → edge): the gateway is draining (a deploy, a SIGTERM). The edge opens no
//     new streams on this connection, sends new requests elsewhere, and lets its in-flight
//     streams finish; the gateway closes the connection when they are done or the grace ends.
//
// A peer that did not offer the feature closes the stream after the hello as before, and never
// sees these frame types: the protocol version stays 1.

// FeatureControl is the hello feature that keeps the control stream open.
const FeatureControl = "control"

// Ping asks the gateway for a Pong with the same Seq.
type Ping struct {
	Seq uint64 `json:"seq"`
}

// Pong answers a Ping.
type Pong struct {
	Seq uint64 `json:"seq"`
}

// GoAway announces that the gateway is draining. GraceMillis is how long in-flight streams may
// still take before the gateway closes the connection.
type GoAway struct {
	Reason      string `json:"reason,omitempty"`
	GraceMillis int64  `json:"grace_ms,omitempty"`
}

// HasFeature reports whether features lists f.
func HasFeature(features []string, f string) bool {
	for _, x := range features {
		if x == f {
			return true
		}
	}
	return false
}
