#!/usr/bin/env bash
# Fetch Debian bookworm's nginx-light (1.22) into .cache/nginx for the relay-cost benchmark
# (internal/e2e BenchmarkRelayCost, issue #20), with no root side effects: a private apt state,
# the packages unpacked with dpkg-deb, and the binary run through the unpacked loader with the
# unpacked libraries, so it does not depend on what the host has installed. Dependencies are
# resolved from the archive each time rather than named here.
set -euo pipefail
cd "$(cd "$(dirname "$0")" && git rev-parse --show-toplevel)"
. scripts/lib/private-apt.sh
dir="$PWD/.cache/nginx"
if [ -x "$dir/bin/nginx" ] && "$dir/bin/nginx" -v >/dev/null 2>&1; then
  exit 0
fi
echo "fetching nginx-light from Debian bookworm into $dir (under a minute)…"
apt_dir="$dir/apt"; root="$dir/root"
rm -rf "$root" "$dir/debs"
mkdir -p "$dir/debs" "$root" "$dir/bin"
private_apt "$apt_dir" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" bookworm
mapfile -t pkgs < <(apt_runtime_deps nginx-light)
[ "${#pkgs[@]}" -gt 0 ] || { echo "fetch-nginx: the archive has no nginx-light" >&2; exit 1; }
(cd "$dir/debs" && apt-get "${APT_OPTS[@]}" download "${pkgs[@]}" >/dev/null)
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
lib="$root/lib/x86_64-linux-gnu"
[ -e "$lib/ld-linux-x86-64.so.2" ] || lib="$root/usr/lib/x86_64-linux-gnu"
cat >"$dir/bin/nginx" <<SH
#!/bin/sh
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$root/usr/lib/x86_64-linux-gnu" "$root/usr/sbin/nginx" "\$@"
SH
chmod +x "$dir/bin/nginx"
"$dir/bin/nginx" -v
rm -rf "$dir/debs"
