//go:build !ablate_allowlist

package chat

// ablateAllowList is true only in the test build that removes the allow-list (build tag
// ablate_allowlist, scripts/egress-ablation.sh) to show the egress property test fails without
// it. A release binary never has it.
const ablateAllowList = false
