//go:build ablate_normalize

package redact

// This build removes normalisation (see ablation.go): it is for scripts/egress-ablation.sh only.
const ablateNormalize = true
