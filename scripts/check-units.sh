#!/usr/bin/env bash
# Check every systemd unit in packaging/systemd without a running systemd (make test runs this):
#   - systemd-analyze verify, in a throwaway root holding the unit, the host's own units (the
#     targets ours depend on) and a stand-in for the ExecStart binary; any warning fails, since
#     verify exits 0 on an unknown key or a value it ignores;
#   - systemd-analyze security --offline=yes: the overall exposure must be <= MAX_EXPOSURE (2.0);
#   - the lines the packages and internal/sdnotify rely on are there, and the binary of every
#     Type=notify unit links internal/sdnotify (otherwise systemd never sees it start).
# docs/PACKAGING.md lists the scores and why each hardening line is in the units.
set -euo pipefail
cd "$(cd "$(dirname "$0")" && git rev-parse --show-toplevel)"
max=${MAX_EXPOSURE:-2.0}
command -v systemd-analyze >/dev/null || { echo "check-units: systemd-analyze is missing (apt-get install systemd)" >&2; exit 1; }
[ -d /usr/lib/systemd/system ] || { echo "check-units: /usr/lib/systemd/system is missing; the targets our units need come from there" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/lib/systemd" "$root/etc"
cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"

fail=0
bad() { echo "FAIL $unit: $*" >&2; fail=1; }
shopt -s nullglob
units=(packaging/systemd/*.service)
[ "${#units[@]}" -gt 0 ] || { echo "check-units: no units in packaging/systemd" >&2; exit 1; }
for path in "${units[@]}"; do
  unit=$(basename "$path")
  cp "$path" "$root/usr/lib/systemd/system/$unit"
  exe=$(sed -n 's/^ExecStart=[-@:+!]*\([^ ]*\).*/\1/p' "$path" | head -1)
  case "$exe" in
    /usr/bin/*) mkdir -p "$root/usr/bin"; printf '#!/bin/sh\nexit 0\n' >"$root$exe"; chmod 0755 "$root$exe" ;;
    *) bad "ExecStart must run a packaged binary from /usr/bin, not '$exe'" ;;
  esac
  # ExecReload= runs the target's /bin/sh (essential in Debian): a stand-in here too.
  for other in $(sed -n 's/^ExecReload=[-@:+!]*\([^ ]*\).*/\1/p' "$path"); do
    mkdir -p "$root$(dirname "$other")"; printf '#!/bin/sh\nexit 0\n' >"$root$other"; chmod 0755 "$root$other"
  done
  for want in '^Type=notify$' '^NotifyAccess=main$' '^WatchdogSec=[1-9]' '^User=sucursal$' \
    '^ConfigurationDirectory=sucursal$' '^StateDirectory=sucursal/[a-z]*$' '^CapabilityBoundingSet=$' \
    '^SystemCallErrorNumber=EPERM$'; do
    grep -q "$want" "$path" || bad "no line matching $want"
  done

  out=$(systemd-analyze verify --root="$root" "$unit" 2>&1) || bad "systemd-analyze verify failed"
  [ -z "$out" ] || bad "systemd-analyze verify said: $out"

  sec=$(systemd-analyze security --offline=yes --root="$root" "$unit" 2>&1) || true
  score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' <<<"$sec")
  [ -n "$score" ] || { bad "no score from systemd-analyze security: $sec"; continue; }
  [ -z "$(grep -v '^[ →✓✗]\|^  NAME' <<<"$sec" || true)" ] || bad "systemd-analyze security warned: $(grep -v '^[ →✓✗]\|^  NAME' <<<"$sec")"
  if awk -v s="$score" -v m="$max" 'BEGIN { exit !(s > m) }'; then
    bad "exposure $score > $max"
    grep '✗' <<<"$sec" >&2 || true
  fi
  printf '%-28s exposure %s (max %s)\n' "$unit" "$score" "$max"

  # Type=notify: systemd counts the unit as started only when the binary sends READY=1, and
  # kills it when watchdog pings stop; a binary that never does fails to start after
  # TimeoutStartSec. So the binary must link internal/sdnotify (docs/PACKAGING.md says where).
  bin=$(basename "$exe")
  if [ -d "cmd/$bin" ]; then
    deps=$(go list -deps "./cmd/$bin") || bad "go list ./cmd/$bin failed"
    grep -qx 'github.com/sucursal/sucursal/internal/sdnotify' <<<"$deps" ||
      bad "Type=notify, but cmd/$bin never links internal/sdnotify: it would never send READY=1 (see docs/PACKAGING.md)"
  else
    bad "no cmd/$bin for ExecStart $exe"
  fi
done
[ "$fail" = 0 ] || { echo "check-units: FAILED" >&2; exit 1; }
echo "check-units: ${#units[@]} units verified, every exposure <= $max"
