# shellcheck shell=bash
# Sourced by the scripts that fetch runtimes from Debian's archive. private_apt APT_DIR MIRROR
# SUITE... makes an apt state of its own in APT_DIR (its own sources.list naming the suites, its
# own lists and cache, no dpkg status, no lock), runs `apt-get update` on it and leaves the options
# in the array APT_OPTS, so `apt-get "${APT_OPTS[@]}" download PKG` and `apt-cache "${APT_OPTS[@]}"
# depends PKG` read that state only. Nothing on the system is installed or changed.
private_apt() {
  local apt_dir=$1 mirror=$2 suite
  shift 2
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -r "$keyring" ] || { echo "private_apt: $keyring is missing (apt-get install debian-archive-keyring)" >&2; return 1; }
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
  : >"$apt_dir/sources.list"
  for suite in "$@"; do
    printf 'deb [signed-by=%s] %s %s main\n' "$keyring" "$mirror" "$suite" >>"$apt_dir/sources.list"
  done
  APT_OPTS=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir" -o "Dir::State::Status=/dev/null"
    -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1" -q)
  apt-get "${APT_OPTS[@]}" update >/dev/null
}

# apt_runtime_deps PKG prints every package PKG needs at run time, as the archive says today
# (virtual packages and alternatives resolve to their first real provider). Needs private_apt first.
apt_runtime_deps() {
  apt-cache "${APT_OPTS[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances --no-pre-depends "$1" 2>/dev/null | grep -E '^[a-z0-9]' | sort -u
}
