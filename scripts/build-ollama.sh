#!/usr/bin/env bash
# Builds the Ollama server used by the demo and the integration tests, from the Go module proxy,
# into a cached, git-ignored folder. Re-running is free once the binary exists.
#
# Why this is not a plain `go install`: Go module zips drop `vendor/` folders, and the cgo build of
# Ollama's bundled llama.cpp includes three header-only libraries from there. We fetch those headers
# from Debian's archive (bookworm for nlohmann-json and stb, trixie for miniaudio) with a private apt
# configuration, unpack them into the cache, and point CGO_CPPFLAGS at them. Nothing is installed
# system-wide.
set -euo pipefail

OLLAMA_VERSION="${OLLAMA_VERSION:-0.17.4}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${SUCURSAL_CACHE:-$root/.cache}"
bin="$cache/ollama-v$OLLAMA_VERSION/bin/ollama"

if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
  echo "ollama v$OLLAMA_VERSION: cached at $bin"
  exit 0
fi

command -v gcc >/dev/null || { echo "error: gcc is needed to build Ollama (cgo): apt-get install gcc g++" >&2; exit 1; }
command -v g++ >/dev/null || { echo "error: g++ is needed to build Ollama (cgo): apt-get install g++" >&2; exit 1; }
command -v apt-get >/dev/null || { echo "error: apt-get is needed to fetch header-only build dependencies" >&2; exit 1; }

inc="$cache/ollama-headers/include"
if [ ! -f "$inc/nlohmann/json_fwd.hpp" ] || [ ! -f "$inc/stb/stb_image.h" ] || [ ! -f "$inc/miniaudio/miniaudio.h" ]; then
  echo "fetching header-only build dependencies from Debian's archive…"
  apt_dir="$cache/apt"
  mkdir -p "$apt_dir/debs" "$cache/ollama-headers/root"
  . "$root/scripts/lib/private-apt.sh"
  private_apt "$apt_dir" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" bookworm trixie
  (cd "$apt_dir/debs" && apt-get "${APT_OPTS[@]}" download nlohmann-json3-dev/bookworm libstb-dev/bookworm libminiaudio-dev/trixie >/dev/null)
  for deb in "$apt_dir"/debs/*.deb; do dpkg-deb -x "$deb" "$cache/ollama-headers/root"; done
  r="$cache/ollama-headers/root/usr/include"
  mkdir -p "$inc/nlohmann" "$inc/stb" "$inc/miniaudio"
  cp -r "$r/nlohmann/." "$inc/nlohmann/"
  cp "$r/stb/stb_image.h" "$inc/stb/stb_image.h"
  ma="$(find "$cache/ollama-headers/root" -name miniaudio.h | head -n 1)"
  [ -n "$ma" ] || { echo "error: miniaudio.h not found in libminiaudio-dev" >&2; exit 1; }
  cp "$ma" "$inc/miniaudio/miniaudio.h"
fi

echo "building ollama v$OLLAMA_VERSION from the Go module proxy (about 6 minutes on 2 cores the first time)…"
tmp="$cache/ollama-v$OLLAMA_VERSION/bin.tmp"
rm -rf "$tmp" && mkdir -p "$tmp"
# A throwaway module directory keeps Ollama's requirements out of our go.mod.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && CGO_ENABLED=1 CGO_CPPFLAGS="-I$inc" GOFLAGS=-mod=mod GOBIN="$tmp" GOWORK=off \
  go install -ldflags "-s -w -X github.com/ollama/ollama/version.Version=$OLLAMA_VERSION" \
  "github.com/ollama/ollama@v$OLLAMA_VERSION")
mkdir -p "$(dirname "$bin")"
mv "$tmp/ollama" "$bin"
rmdir "$tmp"
echo "ollama v$OLLAMA_VERSION: built at $bin"
