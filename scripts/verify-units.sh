#!/bin/sh
# Checks Units/herald.socket and Units/herald.service with systemd's own tools:
#   - `systemd-analyze verify` must print nothing, on the units as they are in Units/ and
#     on the service as `make install` writes it (ExecStart= an absolute path, here a
#     stand-in executable in a temporary directory).
#   - `systemd-analyze security --offline=yes` must rate the service at most MAX_EXPOSURE.
# Usage: scripts/verify-units.sh [MAX_EXPOSURE]   (default 1.2; exit 1 on any failure)
set -eu

MAX_EXPOSURE=${1:-1.2}
UNITS=$(cd "$(dirname "$0")/../Units" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cp /bin/true "$TMP/heraldd"
sed "s|^ExecStart=/usr/bin/env heraldd|ExecStart=$TMP/heraldd|" "$UNITS/herald.service" >"$TMP/herald.service"
cp "$UNITS/herald.socket" "$TMP/herald.socket"
if ! grep -q "^ExecStart=$TMP/heraldd" "$TMP/herald.service"; then
    echo "verify-units: herald.service has no ExecStart=/usr/bin/env heraldd for make install to rewrite" >&2
    exit 1
fi

for dir in "$UNITS" "$TMP"; do
    status=0
    output=$(cd "$dir" && systemd-analyze verify ./herald.socket ./herald.service 2>&1) || status=$?
    if [ -n "$output" ] || [ "$status" -ne 0 ]; then
        echo "verify-units: systemd-analyze verify failed in $dir (exit $status):" >&2
        echo "$output" >&2
        exit 1
    fi
done
echo "verify-units: systemd-analyze verify: clean"

score=$(systemd-analyze security --offline=yes --no-pager "$UNITS/herald.service" 2>/dev/null \
    | sed -n 's/.*Overall exposure level for herald.service: \([0-9.]*\).*/\1/p')
if [ -z "$score" ]; then
    echo "verify-units: systemd-analyze security printed no exposure level" >&2
    exit 1
fi
if ! awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s <= m) }'; then
    echo "verify-units: exposure $score is above $MAX_EXPOSURE" >&2
    systemd-analyze security --offline=yes --no-pager "$UNITS/herald.service" | grep -v '✓' >&2
    exit 1
fi
echo "verify-units: systemd-analyze security --offline=yes: exposure $score (at most $MAX_EXPOSURE)"
