// Package sync is the edge side of model distribution: it watches the desired model versions in
// NATS JetStream KV, verifies each signed manifest against the edge's trusted keys, downloads the
// artifact with its own resumable chunk reader (progress persisted on disk, bounded memory,
// optional bandwidth limit), checks the sha256, installs it into the local runtime, smoke-tests it,
// tells the pipeline to switch, keeps the previous version for instant rollback and reports what it
// actually runs to the status KV. The buckets, keys and records it shares with the fleet
// controller are package fleetapi.
//
// It must never install anything whose manifest does not verify, whose bytes do not match the
// digest, or whose version is older than the installed one without a signed rollback directive.
// It must never put prompt text or personal data in status, logs or metrics: it only ever handles
// model metadata, byte counts and timings.
package sync
