#!/usr/bin/env bash
# Build the .deb and .rpm of sucursal-edge, sucursal-gateway and sucursal-fleet from the binaries
# in bin/ (make packages runs `make build` first). docs/PACKAGING.md describes the packages.
#
# nfpm runs through `go run …@version`: pinned here, never in go.mod (the module does not import
# it). The package version comes from VERSION, the Makefile's `git describe`, made valid for dpkg
# and rpm (pkg_version below); PKG_VERSION overrides it.
#
# Environment: VERSION, PKG_VERSION, PKG_RELEASE (default 1), DIST (default dist), FORMATS
# (default "deb rpm").
set -euo pipefail
cd "$(cd "$(dirname "$0")" && git rev-parse --show-toplevel)"
NFPM_VERSION=v2.45.2
nfpm=(go run "github.com/goreleaser/nfpm/v2/cmd/nfpm@$NFPM_VERSION")

die() { echo "packages.sh: $*" >&2; exit 1; }

version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}

# pkg_version maps `git describe` output to a version dpkg and rpm both order correctly:
#   v1.2.3                -> 1.2.3
#   v1.2.3-4-gabc1234     -> 1.2.3+git4.abc1234        (after 1.2.3, before 1.2.4)
#   abc1234 (no tag yet)  -> 0.0.0~git<commit time UTC>.abc1234   (before any 0.0.0 release)
#   …-dirty               -> ….dirty                   (after the same commit's clean build)
pkg_version() {
  local v=$1 dirty="" base
  case "$v" in *-dirty) dirty=.dirty; v=${v%-dirty} ;; esac
  if [[ $v =~ ^[0-9a-f]{7,40}$ ]]; then
    local when
    when=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S "$v" 2>/dev/null) ||
      die "cannot read the time of commit $v"
    echo "0.0.0~git$when.$v$dirty"
  elif [[ $v =~ ^v?([0-9][0-9A-Za-z.]*)-([0-9]+)-g([0-9a-f]+)$ ]]; then
    echo "${BASH_REMATCH[1]}+git${BASH_REMATCH[2]}.${BASH_REMATCH[3]}$dirty"
  elif [[ $v =~ ^v?([0-9][0-9A-Za-z.]*)$ ]]; then
    base=${BASH_REMATCH[1]}
    echo "$base${dirty:++dirty}"
  else
    die "cannot make a package version from '$1' (packages need a git checkout, or set PKG_VERSION)"
  fi
}

export PKG_VERSION=${PKG_VERSION:-$(pkg_version "$version")}
export PKG_RELEASE=${PKG_RELEASE:-1}
export PKG_ARCH=${PKG_ARCH:-$(go env GOARCH)}
[[ $PKG_VERSION =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "package version '$PKG_VERSION' is not valid for dpkg and rpm"
[[ $PKG_RELEASE =~ ^[0-9]+$ ]] || die "PKG_RELEASE '$PKG_RELEASE' must be a number"
dist=${DIST:-dist}
formats=${FORMATS:-deb rpm}

# The binaries must be this version's: a stale bin/ would ship a binary that reports another.
for b in edge-agent dc-gateway fleetctl; do
  [ -x "bin/$b" ] || die "bin/$b is missing: run make build (make packages does)"
  got=$("bin/$b" --version | head -1)
  [ "$got" = "$b $version" ] || die "bin/$b says '$got', want '$b $version': run make build"
done

# Maintainer scripts: one template each, the package's name and units filled in. Every unit is
# stopped and disabled on removal; the ENABLE ones are enabled on the first install (the hub is
# not: it has no NATS users, see packaging/fleetctl-hub.env).
render() { # package, units, units to enable
  local out=.cache/packages/scripts/$1 s
  mkdir -p "$out"
  for s in postinstall preremove postremove; do
    sed -e "s|@PKG@|$1|g" -e "s|@UNITS@|$2|g" -e "s|@ENABLE@|$3|g" "packaging/nfpm/scripts/$s.sh" >"$out/$s.sh"
    chmod 0755 "$out/$s.sh"
  done
}
render sucursal-edge "edge-agent.service" "edge-agent.service"
render sucursal-gateway "dc-gateway.service" "dc-gateway.service"
render sucursal-fleet "fleetctl-hub.service fleetctl-controller.service" "fleetctl-controller.service"

mkdir -p "$dist"
for p in sucursal-edge sucursal-gateway sucursal-fleet; do
  for f in $formats; do
    "${nfpm[@]}" package --config "packaging/nfpm/$p.yaml" --packager "$f" --target "$dist/" >/dev/null ||
      die "nfpm could not build $p ($f)"
  done
done
echo "packages $PKG_VERSION-$PKG_RELEASE ($PKG_ARCH) in $dist/:"
ls -1 "$dist" | grep -F -e "$PKG_VERSION" | sed 's/^/  /'
