// Package apikey holds the branch endpoint's API keys: one per app or user, each mapped to a
// tenant (a low-cardinality name used in metrics and admission limits) and a priority class.
//
// Keys are random (a 96-bit id and a 256-bit secret, "sk-suc-<id>-<secret>") and stored only as
// argon2id hashes in a YAML key file that `edge-agent keys add|list|revoke` edits and the agent
// re-reads when it changes. Verifying a key costs one argon2id derivation the first time it is
// seen; afterwards a keyed SHA-256 of the presented key is compared from memory, so the cost of a
// request does not depend on the hash parameters — and derivations are bounded in number at once,
// so a flood of wrong keys cannot exhaust the NUC.
//
// It must never log or return a key's secret, and never store it.
package apikey
