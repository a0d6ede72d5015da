// Package wire is the protocol between edge-agent and dc-gateway over QUIC: small, versioned,
// length-prefixed frames. One long-lived connection per edge; its first stream carries the hello
// exchange; every user request gets its own bidirectional stream, so a slow user never blocks
// another.
//
// Frame layout (big-endian):
//
//	+---------+------+----------------+------------------+
//	| version | type | length (u32)   | payload (length) |
//	|  1 byte |1 byte|  4 bytes       |                  |
//	+---------+------+----------------+------------------+
//
// Every frame carries the protocol version, so a peer speaking another version is refused at its
// first frame, on either side, with ErrVersion. Payloads are JSON, except Chunk whose payload is
// the target's chat.completion.chunk JSON as it came (the gateway does not re-encode it).
//
// Everything that crosses this protocol leaves the branch: the edge must only ever put redacted
// text into a frame. This package must never log payloads.
package wire
