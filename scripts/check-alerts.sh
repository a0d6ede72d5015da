#!/usr/bin/env bash
# promtool on the shipped alert rules: they parse (check rules), their unit tests pass (test
# rules), and every alert has at least one unit test. `promtool check metrics` on every binary's
# /metrics runs in the ops end-to-end test (internal/e2e/ops_test.go), which scrapes them live.
set -euo pipefail
cd "$(cd "$(dirname "$0")" && git rev-parse --show-toplevel)"
./scripts/fetch-prometheus.sh
promtool=.cache/prometheus/bin/promtool
rules=packaging/prometheus/sucursal-alerts.yml
tests=packaging/prometheus/sucursal-alerts.test.yml
"$promtool" check rules "$rules"
(cd "$(dirname "$tests")" && "../../$promtool" test rules "$(basename "$tests")")
missing=0
for a in $(sed -n 's/^ *- alert: *//p' "$rules"); do
  if ! grep -q "alertname: $a\$" "$tests"; then
    echo "check-alerts: $a has no promtool unit test in $tests" >&2
    missing=1
  fi
done
exit "$missing"
