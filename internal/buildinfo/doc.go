// Package buildinfo says which build of a binary is running: its version, the commit it was built
// from, when it was built, and the Go toolchain. `make build` stamps the first three with
// -ldflags -X (see the Makefile); a plain `go build` or `go install` falls back to what the Go
// toolchain recorded (module version, vcs.revision, vcs.time), so no build prints nothing.
//
// This package must never import other packages of this module or anything outside the standard
// library, read files or the environment, or fail: a version print has to work on a broken host.
package buildinfo
