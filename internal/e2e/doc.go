// Package e2e holds the end-to-end tests of the edge⇄DC path: a real edge-agent, real QUIC with
// mutual TLS over loopback (optionally through a WAN-emulating UDP proxy), a real dc-gateway and a
// real Ollama serving a deterministic tiny model. It has no non-test code.
package e2e
