// Package fleetapi is the contract between the fleet controller/fleetctl and the edges' sync
// agents: bucket names, key layouts, and the records stored under those keys (desired state,
// edge status with its health). It is what both sides must agree on byte for byte, because edges
// already deployed read and write it.
//
// It does no I/O: no NATS, no files, no network. Changing a key function or a JSON field here is
// a protocol change for every edge in the field; records_test.go pins the encodings.
package fleetapi
