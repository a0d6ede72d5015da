#!/bin/sh
# @PKG@ postinstall (deb postinst, rpm %post). scripts/packages.sh renders it from
# packaging/nfpm/scripts/postinstall.sh. It must work with systemd running (a NUC), with systemd
# installed but not running (a chroot, an image build) and without systemd at all (a minimal
# root): docs/PACKAGING.md.
set -e
pkg=@PKG@
units="@UNITS@"
enable="@ENABLE@"

# deb: configure <version it replaces, empty on a first install>; rpm: 1 install, 2 upgrade.
first=no
case "$1" in
  configure) [ -n "$2" ] || first=yes ;;
  1) first=yes ;;
  2) ;;
  *) exit 0 ;;
esac

# The service user, from our sysusers.d file; groupadd/useradd (passwd, always in Debian) where
# systemd-sysusers is absent.
if command -v systemd-sysusers >/dev/null 2>&1; then
  systemd-sysusers "/usr/lib/sysusers.d/$pkg.conf"
elif ! getent passwd sucursal >/dev/null; then
  getent group sucursal >/dev/null || groupadd --system sucursal
  useradd --system --gid sucursal --home-dir /var/lib/sucursal --no-create-home \
    --shell /usr/sbin/nologin --comment "Sucursal services" sucursal
fi

# Directories and config ownership, from our tmpfiles.d file; where systemd-tmpfiles is absent,
# or cannot run (it refuses to without /proc, as in a chroot during an image build), its 'd' and
# 'z' lines (the only types we use) are applied here with the same meaning.
if command -v systemd-tmpfiles >/dev/null 2>&1 && [ -e /proc/self ]; then
  systemd-tmpfiles --create "/usr/lib/tmpfiles.d/$pkg.conf"
else
  grep -v '^[[:space:]]*\(#\|$\)' "/usr/lib/tmpfiles.d/$pkg.conf" | while read -r type path mode user group _; do
    case "$type" in
      d) mkdir -p "$path" && chmod "$mode" "$path" && chown "$user:$group" "$path" ;;
      z) if [ -e "$path" ]; then chmod "$mode" "$path" && chown "$user:$group" "$path"; fi ;;
      *) echo "$pkg: tmpfiles type '$type' needs systemd-tmpfiles" >&2; exit 1 ;;
    esac
  done
fi

# Enabled, not started: branch IT configures the service first, then starts it (or reboots).
# Enabled on the first install only, so an upgrade keeps a unit the admin disabled.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  if [ "$first" = yes ]; then
    [ -z "$enable" ] || systemctl enable $enable
  else
    # A running service picks up the new binary; a stopped one stays stopped.
    systemctl try-restart $units
  fi
elif [ "$first" = yes ]; then
  # No running systemd: make the symlink `systemctl enable` would (every unit has
  # WantedBy=multi-user.target), so the unit starts at the next boot.
  for u in $enable; do
    mkdir -p /etc/systemd/system/multi-user.target.wants
    ln -sf "/usr/lib/systemd/system/$u" "/etc/systemd/system/multi-user.target.wants/$u"
  done
fi
exit 0
