#!/usr/bin/env bash
# Install the packages on clean Debian 12 roots and check what branch IT would rely on (make test
# runs this; it needs root for chroot and mount). On three roots: a minimal one without systemd,
# one with systemd installed but not running (a chroot) and /proc mounted, and the same without
# /proc (as in an image build, where systemd-tmpfiles refuses to run):
#   install the three .deb, run every binary's --version and `version` there, check files,
#   owners, modes, the sucursal user, conffiles and enabled units; modify a config, upgrade to a
#   higher version, check the change survived (and a unit the admin disabled stayed disabled);
#   remove and purge one package.
# The roots come from debootstrap (minbase, bookworm, the mirror in /etc/apt), cached as tarballs
# in .cache/debian-root/; debootstrap itself, when the machine lacks it, is unpacked from Debian's
# archive into .cache/debootstrap/ through a private apt state, as fetch-llama-server.sh does.
# It fails, never skips, when it cannot do its job. The .rpm are built but not installed here.
set -euo pipefail
cd "$(cd "$(dirname "$0")" && git rev-parse --show-toplevel)"
top=$PWD
cache=$top/.cache
suite=bookworm
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

die() { echo "test-packages: FAIL: $*" >&2; exit 1; }
step() { echo "test-packages: $*" >&2; }
[ "$(id -u)" = 0 ] || die "must run as root (chroot, mount, file owners)"
[ -r "$keyring" ] || die "$keyring is missing (apt-get install debian-archive-keyring)"

# --- the Debian mirror: DEBIAN_MIRROR, else the one /etc/apt uses for bookworm ------------------
find_mirror() {
  local f line types="" uris="" suites=""
  hit() { [[ " $types " == *" deb "* && " $suites " == *" $suite "* ]] && [ -n "$uris" ] && { echo "${uris%% *}"; return 0; }; return 1; }
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    types="" uris="" suites=""
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in
        "") hit && return 0; types="" uris="" suites="" ;;
        Types:*) types=$(echo ${line#Types:}) ;;
        URIs:*) uris=$(echo ${line#URIs:}) ;;
        Suites:*) suites=$(echo ${line#Suites:}) ;;
      esac
    done <"$f"
    hit && return 0
  done
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -n 's/\[[^]]*\]//; s/^deb[[:space:]]\+\([^[:space:]]\+\)[[:space:]]\+'"$suite"'[[:space:]].*/\1/p' | head -1
}
mirror=${DEBIAN_MIRROR:-$(find_mirror)}
[ -n "$mirror" ] || die "no $suite mirror in /etc/apt (set DEBIAN_MIRROR)"

# --- debootstrap: the machine's, or Debian's package unpacked into .cache/debootstrap -----------
debootstrap=(debootstrap)
if ! command -v debootstrap >/dev/null; then
  dir=$cache/debootstrap
  if [ ! -x "$dir/root/usr/sbin/debootstrap" ]; then
    step "fetching debootstrap from $mirror into $dir"
    apt_dir=$dir/apt
    rm -rf "$dir"
    mkdir -p "$dir/debs" "$dir/root"
    . scripts/lib/private-apt.sh # (the cwd is the top of the checkout)
    private_apt "$apt_dir" "$mirror" "$suite" || die "apt-get update of the private state failed"
    (cd "$dir/debs" && apt-get "${APT_OPTS[@]}" download debootstrap >/dev/null) || die "cannot download debootstrap"
    dpkg-deb -x "$dir"/debs/debootstrap_*.deb "$dir/root"
    rm -rf "$dir/debs"
  fi
  debootstrap=(env "DEBOOTSTRAP_DIR=$dir/root/usr/share/debootstrap" "$dir/root/usr/sbin/debootstrap")
fi

# --- clean roots, cached as tarballs --------------------------------------------------------------
# root_tar NAME [--include=…]: the tarball of a fresh minbase root, made once.
root_tar() {
  local name=$1 tar=$cache/debian-root/$suite-$1.tar; shift
  if [ ! -s "$tar" ]; then
    step "debootstrap $suite ($name) from $mirror (once; cached in $tar)"
    local tmp; tmp=$(mktemp -d "$cache/debian-root/build.XXXXXX")
    chmod 0755 "$tmp" # it becomes the root's /: mktemp's 0700 would lock every service user out
    "${debootstrap[@]}" --variant=minbase "$@" --keyring="$keyring" "$suite" "$tmp" "$mirror" >"$tmp.log" 2>&1 ||
      { tail -20 "$tmp.log" >&2; rm -rf "$tmp"; die "debootstrap failed (log above)"; }
    rm -f "$tmp.log"
    # debootstrap may leave the host's /proc (or /sys) mounted in the new root; archiving it would
    # fail on the live procfs.
    for m in proc sys; do ! mountpoint -q "$tmp/$m" || umount "$tmp/$m" || umount -l "$tmp/$m"; done
    rm -rf "$tmp"/var/cache/apt/archives/*.deb
    tar -C "$tmp" -cf "$tar.tmp" . && mv "$tar.tmp" "$tar"
    rm -rf "$tmp"
  fi
  echo "$tar"
}
mkdir -p "$cache/debian-root"

# --- the packages: v1 (release 1) and the same build as a higher version (release 2) ------------
step "building binaries and packages"
make --no-print-directory -s build >/dev/null
version=$(bin/edge-agent --version | head -1); version=${version#edge-agent }
work=$(mktemp -d "$cache/test-packages.XXXXXX")
mounted=()
cleanup() {
  local m
  for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
VERSION=$version DIST=$work/v1 PKG_RELEASE=1 ./scripts/packages.sh >/dev/null
VERSION=$version DIST=$work/v2 PKG_RELEASE=2 FORMATS=deb ./scripts/packages.sh >/dev/null
pkgs=(sucursal-edge sucursal-gateway sucursal-fleet)
for p in "${pkgs[@]}"; do
  ls "$work"/v1/${p}_*_*.deb "$work"/v1/$p-*.rpm "$work"/v2/${p}_*_*.deb >/dev/null || die "$p: a package is missing"
  head -c4 "$work"/v1/$p-*.rpm | od -An -tx1 | grep -q 'ed ab ee db' || die "$p: the .rpm has no rpm lead"
done
pkg_version=$(dpkg-deb -f "$work"/v1/sucursal-edge_*.deb Version)
pkg_version=${pkg_version%-1}

# --- checks, run in one root ----------------------------------------------------------------------
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C DEBIAN_FRONTEND=noninteractive "$@"; }
expect() { # path "mode user:group"
  local got
  got=$(in_root stat -c '%a %U:%G' "$1" 2>&1) || die "$name: $1 is missing"
  [ "$got" = "$2" ] || die "$name: $1 is '$got', want '$2'"
}
enabled() { [ -L "$root/etc/systemd/system/multi-user.target.wants/$1" ]; }

check_root() { # name tarball proc|noproc
  name=$1 root=$work/root-$1
  mkdir -p "$root"
  tar -C "$root" -xf "$2"
  chmod 0755 "$root"
  if [ "$3" = proc ]; then
    mount -t proc proc "$root/proc" && mounted+=("$root/proc") || die "cannot mount /proc in $root"
  fi
  mkdir -p "$root/tmp/pkgs"
  cp "$work"/v1/*.deb "$root/tmp/pkgs/"

  step "$name: dpkg -i ${pkgs[*]}"
  in_root sh -c 'dpkg -i /tmp/pkgs/*.deb' </dev/null >"$work/$name-install.log" 2>&1 || { cat "$work/$name-install.log" >&2; die "$name: dpkg -i failed"; }

  for b in edge-agent dc-gateway fleetctl; do
    out=$(in_root "$b" --version) || die "$name: $b --version failed"
    [ "$(head -1 <<<"$out")" = "$b $version" ] || die "$name: $b --version says '$(head -1 <<<"$out")', want '$b $version'"
    grep -q '^commit: [0-9a-f]\{40\}' <<<"$out" && grep -q '^built:  20' <<<"$out" && grep -q '^go:     go1\.' <<<"$out" ||
      die "$name: $b --version lacks commit, build date or Go version: $out"
    [ "$(in_root "$b" version)" = "$out" ] || die "$name: '$b version' differs from '$b --version'"
  done

  in_root getent passwd sucursal >/dev/null || die "$name: no sucursal user"
  IFS=: read -r _ _ uid gid _ home shell < <(in_root getent passwd sucursal)
  [ "$uid" -lt 1000 ] || die "$name: sucursal has uid $uid, want a system user (< 1000)"
  [ "$(in_root getent group sucursal | cut -d: -f3)" = "$gid" ] || die "$name: sucursal's group is not 'sucursal'"
  [ "$home:$shell" = /var/lib/sucursal:/usr/sbin/nologin ] || die "$name: sucursal has home:shell $home:$shell"

  for f in /usr/bin/edge-agent /usr/bin/dc-gateway /usr/bin/fleetctl; do expect "$f" "755 root:root"; done
  for u in edge-agent dc-gateway fleetctl-hub fleetctl-controller; do
    expect "/usr/lib/systemd/system/$u.service" "644 root:root"
    cmp -s "$root/usr/lib/systemd/system/$u.service" "packaging/systemd/$u.service" || die "$name: $u.service differs from packaging/"
  done
  for p in "${pkgs[@]}"; do
    expect "/usr/lib/sysusers.d/$p.conf" "644 root:root"
    expect "/usr/lib/tmpfiles.d/$p.conf" "644 root:root"
  done
  expect /etc/sucursal "755 root:root"
  expect /etc/sucursal/pki "750 root:sucursal"
  expect /etc/sucursal/edge-agent.yaml "640 root:sucursal"
  expect /etc/sucursal/dc-gateway.yaml "640 root:sucursal"
  cmp -s "$root/etc/sucursal/dc-gateway.yaml" packaging/dc-gateway.yaml || die "$name: dc-gateway.yaml differs from packaging/"
  cmp -s "$root/etc/sucursal/edge-agent.yaml" packaging/edge-agent.yaml || die "$name: edge-agent.yaml differs from packaging/"
  for e in dc-gateway fleetctl-hub fleetctl-controller; do
    expect "/etc/sucursal/$e.env" "600 root:root"
    cmp -s "$root/etc/sucursal/$e.env" "packaging/$e.env" || die "$name: $e.env differs from packaging/"
  done
  expect /var/lib/sucursal "755 root:root"
  for d in edge gateway hub controller; do expect "/var/lib/sucursal/$d" "750 sucursal:sucursal"; done

  # What the services do first, as the service user: read the config, write the state directory.
  in_root setpriv --reuid=sucursal --regid=sucursal --init-groups sh -c \
    'cd / && cat /etc/sucursal/edge-agent.yaml /etc/sucursal/dc-gateway.yaml >/dev/null && for d in edge gateway hub controller; do touch /var/lib/sucursal/$d/.w && rm /var/lib/sucursal/$d/.w || exit 1; done' ||
    die "$name: the sucursal user cannot read /etc/sucursal/edge-agent.yaml and dc-gateway.yaml or write its state directories"

  conffiles() { grep -qx "$2" "$root/var/lib/dpkg/info/$1.conffiles" 2>/dev/null || die "$name: $2 is not a conffile of $1"; }
  conffiles sucursal-edge /etc/sucursal/edge-agent.yaml
  conffiles sucursal-gateway /etc/sucursal/dc-gateway.env
  conffiles sucursal-gateway /etc/sucursal/dc-gateway.yaml
  conffiles sucursal-fleet /etc/sucursal/fleetctl-hub.env
  conffiles sucursal-fleet /etc/sucursal/fleetctl-controller.env

  for u in edge-agent dc-gateway fleetctl-controller; do
    enabled "$u.service" || die "$name: $u.service is not enabled"
    [ "$(readlink "$root/etc/systemd/system/multi-user.target.wants/$u.service")" = "/usr/lib/systemd/system/$u.service" ] ||
      die "$name: the $u.service wants link points elsewhere"
  done
  ! enabled fleetctl-hub.service || die "$name: fleetctl-hub.service is enabled (it has no NATS users; it must be opt-in)"
  [ ! -e "$root/run/systemd/system" ] || die "$name: the root claims a running systemd"
  if [ -x "$root/usr/bin/systemctl" ]; then
    [ "$(in_root systemctl is-enabled edge-agent.service 2>&1)" = enabled ] || die "$name: systemctl does not see edge-agent.service enabled"
    [ "$(in_root systemctl is-enabled fleetctl-hub.service 2>&1)" = disabled ] || die "$name: systemctl does not see fleetctl-hub.service disabled"
    # The installed units, with the real binaries and the real user, as systemd would load them.
    for u in edge-agent dc-gateway fleetctl-hub fleetctl-controller; do
      out=$(systemd-analyze verify --root="$root" "$u.service" 2>&1) && [ -z "$out" ] || die "$name: verify $u.service: $out"
    done
  fi

  step "$name: upgrade to $pkg_version-2 with a modified config and a disabled unit"
  marker="# changed by test-packages.sh $$"
  echo "$marker" >>"$root/etc/sucursal/edge-agent.yaml"
  rm "$root/etc/systemd/system/multi-user.target.wants/dc-gateway.service"
  rm -f "$root"/tmp/pkgs/*.deb
  cp "$work"/v2/*.deb "$root/tmp/pkgs/"
  in_root sh -c 'dpkg -i /tmp/pkgs/*.deb' </dev/null >"$work/$name-upgrade.log" 2>&1 || { cat "$work/$name-upgrade.log" >&2; die "$name: dpkg -i (upgrade) failed"; }
  for p in "${pkgs[@]}"; do
    got=$(in_root dpkg-query -W -f '${Version} ${db:Status-Status}' "$p")
    [ "$got" = "$pkg_version-2 installed" ] || die "$name: $p is '$got' after the upgrade, want '$pkg_version-2 installed'"
  done
  grep -qxF "$marker" "$root/etc/sucursal/edge-agent.yaml" || die "$name: the upgrade replaced the modified edge-agent.yaml"
  expect /etc/sucursal/edge-agent.yaml "640 root:sucursal"
  [ -z "$(find "$root/etc/sucursal" -name '*.dpkg-*')" ] || die "$name: dpkg left $(find "$root/etc/sucursal" -name '*.dpkg-*')"
  ! enabled dc-gateway.service || die "$name: the upgrade re-enabled dc-gateway.service, which the admin had disabled"
  enabled edge-agent.service || die "$name: the upgrade disabled edge-agent.service"
  in_root edge-agent --version >/dev/null || die "$name: edge-agent does not run after the upgrade"

  step "$name: remove and purge sucursal-gateway, remove sucursal-edge"
  ln -s /usr/lib/systemd/system/dc-gateway.service "$root/etc/systemd/system/multi-user.target.wants/dc-gateway.service"
  in_root dpkg -r sucursal-gateway </dev/null >"$work/$name-remove.log" 2>&1 || { cat "$work/$name-remove.log" >&2; die "$name: dpkg -r failed"; }
  [ ! -e "$root/usr/bin/dc-gateway" ] && [ ! -e "$root/usr/lib/systemd/system/dc-gateway.service" ] || die "$name: dpkg -r left the gateway's files"
  ! enabled dc-gateway.service || die "$name: removal left dc-gateway.service enabled"
  [ -e "$root/etc/sucursal/dc-gateway.env" ] || die "$name: dpkg -r removed the config (only purge should)"
  in_root dpkg -P sucursal-gateway </dev/null >>"$work/$name-remove.log" 2>&1 || { cat "$work/$name-remove.log" >&2; die "$name: dpkg -P failed"; }
  [ ! -e "$root/etc/sucursal/dc-gateway.env" ] || die "$name: purge left /etc/sucursal/dc-gateway.env"
  in_root dpkg -r sucursal-edge </dev/null >>"$work/$name-remove.log" 2>&1 || { cat "$work/$name-remove.log" >&2; die "$name: dpkg -r sucursal-edge failed"; }
  ! enabled edge-agent.service || die "$name: removal left edge-agent.service enabled"
  in_root fleetctl --version >/dev/null || die "$name: removing the other packages broke sucursal-fleet"

  if [ "$3" = proc ]; then umount "$root/proc" && mounted=(); fi
  rm -rf "$root"
  step "$name: ok"
}

check_root minbase "$(root_tar minbase)" noproc
check_root systemd "$(root_tar systemd --include=systemd)" proc
check_root systemd-noproc "$(root_tar systemd --include=systemd)" noproc
echo "test-packages: ok: ${pkgs[*]} $pkg_version install, upgrade (config kept), remove and purge on $suite minbase without systemd, and with systemd (not running) with and without /proc"
