#!/bin/sh
# @PKG@ preremove (deb prerm, rpm %preun). scripts/packages.sh renders it from
# packaging/nfpm/scripts/preremove.sh. Removal stops and disables the units; an upgrade does
# neither (postinstall restarts running units once the new files are in place).
set -e
units="@UNITS@"

# deb: remove | upgrade | deconfigure | failed-upgrade; rpm: 0 erase, 1 upgrade.
case "$1" in
  remove|0) ;;
  *) exit 0 ;;
esac
if [ -d /run/systemd/system ]; then
  # As Debian's own helpers do: a unit that fails to stop must not block the removal.
  systemctl disable --now $units || true
else
  for u in $units; do rm -f "/etc/systemd/system/multi-user.target.wants/$u"; done
fi
exit 0
