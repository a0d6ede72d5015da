// Package fleet is the datacenter side of model distribution: it creates the JetStream buckets,
// publishes signed artifacts, stores rollout specs, runs the fleet controller (one active at a
// time through a lease in KV, the rest standing by) that moves desired state wave by wave and
// rolls a wave back when its gates fail, embeds a nats-server for small fleets (the hub), and
// summarises what the edges report. It meets the edges only through package fleetapi (bucket
// names, keys, records) and must never import their sync agent.
//
// All rollout state lives in KV and is written with compare-and-set on the revision, so any
// controller can pick up where another one died. It must never need a signing key at run time
// (rollback directives are signed when the operator starts the rollout), and must never read or
// write anything but model metadata, counts and timings.
package fleet
