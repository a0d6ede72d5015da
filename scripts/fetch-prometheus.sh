#!/usr/bin/env bash
# Fetch Prometheus 2.42 (the server and promtool) from Debian bookworm's archive into
# .cache/prometheus, with no root side effects: a private apt state, the one package downloaded
# and unpacked with dpkg-deb, nothing installed on the system. Used by `make test` (promtool
# check/test rules on packaging/prometheus, check metrics) and by the ops end-to-end test, which
# runs a real Prometheus against the fleet exporter, a gateway and an agent.
# The binaries are Go programs that need only libc, so none of the package's web-UI
# dependencies are fetched.
set -euo pipefail
cd "$(cd "$(dirname "$0")" && git rev-parse --show-toplevel)"
. scripts/lib/private-apt.sh
dir="$PWD/.cache/prometheus"
if [ -x "$dir/bin/prometheus" ] && [ -x "$dir/bin/promtool" ] && "$dir/bin/promtool" --version >/dev/null 2>&1; then
  exit 0
fi
echo "fetching prometheus from Debian bookworm into $dir…"
apt_dir="$dir/apt"; root="$dir/root"
rm -rf "$root" "$dir/debs"
mkdir -p "$dir/debs" "$root" "$dir/bin"
private_apt "$apt_dir" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" bookworm
(cd "$dir/debs" && apt-get "${APT_OPTS[@]}" download prometheus >/dev/null)
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
for b in prometheus promtool; do
  [ -x "$root/usr/bin/$b" ] || { echo "fetch-prometheus: the package has no usr/bin/$b" >&2; exit 1; }
  ln -sf "$root/usr/bin/$b" "$dir/bin/$b"
done
"$dir/bin/promtool" --version | head -1
rm -rf "$dir/debs"
