#!/bin/sh
# @PKG@ postremove (deb postrm, rpm %postun). scripts/packages.sh renders it from
# packaging/nfpm/scripts/postremove.sh. systemd forgets the removed units. State in
# /var/lib/sucursal and the sucursal user stay, also on purge (Debian keeps system users; models
# and the JetStream store are data): remove them by hand.
set -e
case "$1" in
  remove|purge|0) [ ! -d /run/systemd/system ] || systemctl daemon-reload ;;
esac
exit 0
