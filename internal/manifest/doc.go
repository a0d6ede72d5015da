// Package manifest defines the signed description of a model artifact (role, version, digest,
// size, runtime, validity window, signer) and the signed rollback directive that allows an edge to
// install an older version, together with the ed25519 keys that sign them.
//
// It is the one place that decides whether a manifest is trustworthy. It must never accept a
// manifest whose signature does not verify against a trusted key, never treat an expired manifest
// as valid, and never carry or log anything but model metadata (no prompts, no personal data).
package manifest
