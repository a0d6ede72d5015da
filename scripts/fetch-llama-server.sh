#!/usr/bin/env bash
# Fetch llama.cpp's llama-server (used by the llama.cpp draft backend's integration test) from
# Debian's archive into .cache/llama-server, with no root side effects: a private apt state, the
# packages unpacked with dpkg-deb, and the binary run through the unpacked loader because the
# packages come from Debian testing/unstable (forky/sid), whose libc is newer than bookworm's.
# Dependencies are resolved from the archive each time rather than named here, so a library
# renamed in testing does not break the fetch; the archive itself moving is the remaining risk.
set -euo pipefail
cd "$(cd "$(dirname "$0")" && git rev-parse --show-toplevel)"
. scripts/lib/private-apt.sh
dir="$PWD/.cache/llama-server"
if [ -x "$dir/bin/llama-server" ] && "$dir/bin/llama-server" --version >/dev/null 2>&1; then
  exit 0
fi
echo "fetching llama-server from Debian testing into $dir (about a minute)…"
apt_dir="$dir/apt"; root="$dir/root"
rm -rf "$root" "$dir/debs"
mkdir -p "$dir/debs" "$root" "$dir/bin"
private_apt "$apt_dir" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" forky sid
mapfile -t pkgs < <(apt_runtime_deps llama.cpp-tools)
[ "${#pkgs[@]}" -gt 0 ] || { echo "fetch-llama-server: the archive has no llama.cpp-tools" >&2; exit 1; }
(cd "$dir/debs" && apt-get "${APT_OPTS[@]}" download "${pkgs[@]}" >/dev/null)
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
lib="$root/usr/lib/x86_64-linux-gnu"
backend=$(find "$lib" -name 'libggml-cpu-x64.so' | head -1)
[ -n "$backend" ] || backend=$(find "$lib" -name 'libggml-cpu*.so' | head -1)
cat >"$dir/bin/llama-server" <<SH
#!/bin/sh
GGML_BACKEND_PATH="$backend" exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$lib/llama:$lib/ggml" "$root/usr/bin/llama-server" "\$@"
SH
chmod +x "$dir/bin/llama-server"
"$dir/bin/llama-server" --version
rm -rf "$dir/debs"
