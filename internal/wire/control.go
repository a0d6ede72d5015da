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
//
// Heartbeats (FeatureHeartbeat): a gateway that lists it in HelloAck.Features, beside
// FeatureControl, can keep an edge's link alive without reading the control stream. An edge
// that sees it sends one Ping with HeartbeatMillis set; the gateway answers it with a Pong, reads
// nothing more on the stream, and from then on sends a Pong with Seq 0 every HeartbeatMillis
// (a heartbeat) until the connection ends. The edge sends no more pings and declares the link
// dead when no Pong arrived for its ping timeout, as before. Either end of an older build keeps
// today's pings: an edge that does not know the feature never asks, and a gateway that does not
// offer it is never asked (an older gateway would ignore the field and answer the ping anyway).
// The point is the gateway's memory: an idle connection then holds no goroutine of the gateway
// parked on a read (docs/SCALE.md).
//
// Heartbeats only when idle (Ping.HeartbeatIdle, issue 20): an edge that counts the frames it
// reads on its request streams as signs of life, as it counts heartbeats, says so in the Ping
// that asks for heartbeats; the gateway then skips a heartbeat when it wrote data on a request
// stream of the connection since the previous one: while an answer streams, its packets are
// the heartbeat, and no extra packet (and the acknowledgement the peer sends for it 25 ms later)
// wakes either end. A heartbeat is then never more than two intervals after the last data. A
// gateway of an older build ignores the field and sends every heartbeat; an edge of an older
// build never sets it and gets every heartbeat.

// FeatureControl is the hello feature that keeps the control stream open.
const FeatureControl = "control"

// FeatureHeartbeat is the hello-ack feature of a gateway that sends heartbeats on request.
const FeatureHeartbeat = "heartbeat"

// Heartbeat intervals a gateway accepts; a request outside is clamped.
const (
	MinHeartbeatMillis = 50
	MaxHeartbeatMillis = 30_000
)

// Ping asks the gateway for a Pong with the same Seq. HeartbeatMillis (only to a gateway that
// offered FeatureHeartbeat) asks it to stop reading pings and send a Pong every that many
// milliseconds instead.
//
// HeartbeatIdle (with HeartbeatMillis) asks for heartbeats only while no request stream of the
// connection delivers data: the edge counts that data as a sign of life.
type Ping struct {
	Seq             uint64 `json:"seq"`
	HeartbeatMillis int64  `json:"heartbeat_ms,omitempty"`
	HeartbeatIdle   bool   `json:"heartbeat_idle,omitempty"`
}

// Pong answers a Ping; a heartbeat is a Pong with Seq 0 (pings are numbered from 1).
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
