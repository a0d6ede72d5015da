// Package configcheck reads a binary's YAML configuration file the way the binary does (strictly,
// over its defaults) and lists every problem in it at once, each with its place: syntax errors
// with line and column, unknown keys with the closest known key, values of the wrong type; and it
// checks the certificate files a configuration names. `edge-agent config check` and
// `dc-gateway config check` are built on it.
//
// It reads files only: it must never open a connection or write anything.
package configcheck
