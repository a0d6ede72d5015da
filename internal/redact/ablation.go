//go:build !ablate_normalize

package redact

// ablateNormalize is true only in the test build that removes normalisation and the join pass
// (build tag ablate_normalize, scripts/egress-ablation.sh) to show the egress property test fails
// without them. A release binary never has it.
const ablateNormalize = false
