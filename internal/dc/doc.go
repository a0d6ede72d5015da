// Package dc is the edge's client of the datacenter gateway: one method per wire operation
// (Chat, Models, Guard, DraftHello, Verify), in the shape of Ollama's api/client.go — each a few
// lines over two private helpers (do for one-answer operations, stream for chat), one exit
// check, and one mapping of link and wire errors to the errors branch users see.
//
// It is the only package that opens streams on the QUIC link (package link is transport only).
// Every request passes the exit check (an Exit, package egress) before a byte is written: a
// client without one sends nothing. It must never log or return request or answer text.
package dc
