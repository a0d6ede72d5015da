// Package ollamatest starts a real `ollama serve` for tests: its own loopback port, HOME and models
// directory per server, so test packages running in parallel processes never share state, and a
// log file whose tail is printed when something fails.
//
// A test that needs Ollama and cannot start it fails (t.Fatal, pointing at `make deps`); this
// package never skips. It must never talk to a server it did not start, never bind anything but
// loopback, and never leave a process behind: every server is killed and waited for in t.Cleanup.
package ollamatest
