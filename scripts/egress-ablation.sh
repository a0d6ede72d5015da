#!/usr/bin/env bash
# The egress property test must be able to fail: built without the allow-list (build tag
# ablate_allowlist) or without normalisation and the join pass (ablate_normalize), it has to
# report raw values at the DC or wrong outcomes. `make test` runs this after the test suite.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
status=0
for tag in ablate_allowlist ablate_normalize; do
  out=$(EGRESS_BODIES=${EGRESS_BODIES:-2000} $GO test -count=1 -tags "$tag" -run '^TestEgressProperty$' ./internal/e2e/ 2>&1)
  if grep -q 'EGRESS PROPERTY VIOLATED' <<<"$out"; then
    echo "ablation $tag: the egress property test fails, as it must: $(grep -o 'EGRESS PROPERTY VIOLATED.*' <<<"$out" | head -1)"
  else
    echo "ablation $tag: the egress property test did NOT fail without it — it no longer proves the boundary is needed" >&2
    tail -20 <<<"$out" >&2
    status=1
  fi
done
exit $status
