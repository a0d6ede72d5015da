// Package fleettest gives tests a real embedded NATS hub with the fleet's buckets, a signing key,
// and in-process edge agents whose runtime installer only records what it was asked to install.
//
// It is for tests only and must never be imported by a binary.
package fleettest
