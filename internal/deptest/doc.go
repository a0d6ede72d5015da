// Package deptest holds the layering rules of the codebase as tests (Tailscale's tstest/deptest
// idea): a binary that links test code, a pipeline that reaches for the transport, a transport that
// knows the guard, a redactor that opens connections — each fails `go test` instead of living in
// prose. It has no code of its own.
package deptest
