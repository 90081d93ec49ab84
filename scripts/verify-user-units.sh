#!/bin/sh
# Checks the user units in Units/user/ (herald-notify.service, herald-gateway.service,
# herald-renderer-bus.service, herald-renderer@.service, herald-sync.service) with systemd's own tools:
# `systemd-analyze --user verify` must print nothing, on the unit as it is in Units/user/
# and on the unit as `make install` writes it (ExecStart= an absolute path, here a
# stand-in executable in a temporary directory). A user manager needs $XDG_RUNTIME_DIR:
# a private one is made when it is not set (as for root under make test).
# Usage: scripts/verify-user-units.sh   (exit 1 on any failure)
set -eu

UNITS=$(cd "$(dirname "$0")/../Units/user" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -m 0700 "$TMP/runtime" "$TMP/installed"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$TMP/runtime}"

cp /bin/true "$TMP/herald-notify"
for unit in herald-notify.service herald-gateway.service; do
    sed "s|^ExecStart=/usr/bin/env herald-notify|ExecStart=$TMP/herald-notify|" "$UNITS/$unit" >"$TMP/installed/$unit"
    if ! grep -q "^ExecStart=$TMP/herald-notify" "$TMP/installed/$unit"; then
        echo "verify-user-units: $unit has no ExecStart=/usr/bin/env herald-notify for make install to rewrite" >&2
        exit 1
    fi
done
cp /bin/true "$TMP/herald-sync"
sed "s|^ExecStart=/usr/bin/env herald-sync|ExecStart=$TMP/herald-sync|" "$UNITS/herald-sync.service" >"$TMP/installed/herald-sync.service"
if ! grep -q "^ExecStart=$TMP/herald-sync" "$TMP/installed/herald-sync.service"; then
    echo "verify-user-units: herald-sync.service has no ExecStart=/usr/bin/env herald-sync for make install to rewrite" >&2
    exit 1
fi
cp "$UNITS/herald-renderer-bus.service" "$UNITS/herald-renderer@.service" "$TMP/installed/"

for dir in "$UNITS" "$TMP/installed"; do
    status=0
    output=$(cd "$dir" && systemd-analyze --user verify ./herald-notify.service ./herald-gateway.service \
        ./herald-renderer-bus.service ./herald-renderer@dunst.service ./herald-sync.service 2>&1) || status=$?
    if [ -n "$output" ] || [ "$status" -ne 0 ]; then
        echo "verify-user-units: systemd-analyze --user verify failed in $dir (exit $status):" >&2
        echo "$output" >&2
        exit 1
    fi
done
echo "verify-user-units: systemd-analyze --user verify of the user units: clean"
