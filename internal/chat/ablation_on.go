//go:build ablate_allowlist

package chat

// This build removes the allow-list (see ablation.go): it is for scripts/egress-ablation.sh only.
const ablateAllowList = true
