#!/bin/sh
# Make sure a real systemd-journald is listening on /run/systemd/journal/socket,
# so that tests can write to the journal and read it back with journalctl.
#
# On a systemd host journald already runs and this script only checks it.
# In a container where PID 1 is not systemd (CI, the dev machines) and we are
# root, it starts /lib/systemd/systemd-journald itself, in the background:
#   - journald needs /run/systemd/journal to exist; when not socket-activated it
#     binds /run/systemd/journal/{socket,stdout,dev-log} itself (stale ones
#     left by a killed instance are removed first);
#   - storage is volatile (/run/log/journal/<machine-id>), which journalctl
#     reads without a flush; a machine-id is created if the image has none;
#   - a drop-in /etc/systemd/journald.conf.d/herald-test.conf turns off rate
#     limiting (RateLimitIntervalSec=0: tests write bursts of hundreds of
#     entries from one PID, which the default 10000/30s would start dropping)
#     and the reading of /dev/kmsg (kernel noise the tests do not need).
# It then writes a probe entry with systemd-cat and waits until
# `journalctl -o json` returns it.
#
# Idempotent: safe to call any number of times. Exit 0 when journald works,
# and also when it cannot be started because we are not root (tests that need
# journald skip themselves then); exit 1 when a started journald does not work.
set -eu

SOCKET=/run/systemd/journal/socket
JOURNALD=/lib/systemd/systemd-journald
DROPIN_DIR=/etc/systemd/journald.conf.d
DROPIN="$DROPIN_DIR/herald-test.conf"
LOG=/run/herald-test-journald.log
PIDFILE=/run/herald-test-journald.pid

say() { echo "ensure-journald: $*"; }

# A live systemd-journald (its comm is cut to 15 characters); zombies do not count,
# since PID 1 in a container may never reap them.
journald_running() {
    ps -eo stat=,comm= | awk '$1 !~ /^Z/ && ($2 == "systemd-journal" || $2 == "systemd-journald") { found = 1 } END { exit !found }'
}

# Writes a probe entry and waits (up to ~5 s) until journalctl returns it.
probe() {
    marker="herald-ensure-journald-$$-$(date +%s%N)"
    echo "$marker" | systemd-cat -t herald-ensure-journald -p info || return 1
    i=0
    while [ $i -lt 50 ]; do
        if journalctl --no-pager -o json -t herald-ensure-journald 2>/dev/null | grep -q "$marker"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

if journald_running && [ -S "$SOCKET" ]; then
    if probe; then
        say "systemd-journald already running; probe entry read back"
        exit 0
    fi
    # Perhaps it is stopping (a killed journald takes a moment to flush and exit).
    i=0
    while journald_running && [ $i -lt 30 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if journald_running; then
        say "systemd-journald is running but the probe entry was not read back" >&2
        exit 1
    fi
    say "systemd-journald was stopping; starting a new one"
fi

if [ "$(id -u)" -ne 0 ]; then
    say "no systemd-journald running and not root: not starting one (journald tests will be skipped)"
    exit 0
fi
if [ ! -x "$JOURNALD" ]; then
    say "no $JOURNALD (install the systemd package): journald tests will be skipped"
    exit 0
fi

mkdir -p "$DROPIN_DIR"
cat >"$DROPIN" <<'EOF'
# Written by herald's scripts/ensure-journald.sh for tests: never rate-limit
# test bursts, keep the journal in /run, skip the kernel log.
[Journal]
Storage=volatile
RateLimitIntervalSec=0
ReadKMsg=no
EOF
say "wrote $DROPIN"

if [ ! -s /etc/machine-id ]; then
    systemd-machine-id-setup >/dev/null 2>&1 || true
    say "created /etc/machine-id"
fi

mkdir -p /run/systemd/journal /run/log/journal
# A journald that was killed leaves its sockets behind: no journald runs, so
# they are stale; remove them so that the wait below sees the new ones.
rm -f /run/systemd/journal/socket /run/systemd/journal/stdout /run/systemd/journal/dev-log
SYSTEMD_LOG_TARGET=console setsid "$JOURNALD" </dev/null >"$LOG" 2>&1 &
echo $! >"$PIDFILE"
say "started $JOURNALD as PID $(cat "$PIDFILE") (log: $LOG)"

i=0
until [ -S "$SOCKET" ] && journald_running; do
    i=$((i + 1))
    if [ $i -gt 50 ]; then
        say "journald did not create $SOCKET within 5 s; its log:" >&2
        cat "$LOG" >&2 || true
        exit 1
    fi
    sleep 0.1
done

if probe; then
    say "journald is listening on $SOCKET; probe entry read back"
    exit 0
fi
say "journald started but the probe entry was not read back; its log:" >&2
cat "$LOG" >&2 || true
exit 1
