#!/usr/bin/env bash
# `make bench-wakeups`: how often heraldd wakes at rest, beside dbus-daemon, in one run.
#
#   BASE=/path/to/old/heraldd NEW=/path/to/new/heraldd WINDOW=60 bash scripts/bench-wakeups.sh
#
# Starts each heraldd (BASE optional; NEW defaults to this tree's debug build) on a socket of
# its own with a Focus schedule, a summary time, a snooze and a mute pending (each an hour or
# more away) and no client connected, and a `dbus-daemon --session` beside them; after
# SETTLE seconds (default 65: past the periodic snapshot due --snapshot-interval, 30 s,
# after those changes, and past heraldd's coming to rest, 30–60 s after its last request,
# which costs one round of its alarm once), counts the context switches of every thread of each process over
# WINDOW seconds (voluntary + nonvoluntary, /proc/PID/task/*/status, read at the start and
# the end of the same window for all). No WATCHDOG_USEC: no watchdog pings to count.
set -euo pipefail
cd "$(dirname "$0")/.."
NEW=${NEW:-$(swift build --show-bin-path)/heraldd}
BASE=${BASE:-}
WINDOW=${WINDOW:-60}
SETTLE=${SETTLE:-65}
RUN=$(mktemp -d /tmp/herald-wakeups.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$RUN"; }
trap cleanup EXIT

# One JSON-RPC request on the socket; fails on an error answer.
call() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, socket, sys
path, method, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
s.sendall((json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}) + "\n").encode())
answer = b""
while not answer.endswith(b"\n"):
    chunk = s.recv(65536)
    if not chunk:
        break
    answer += chunk
reply = json.loads(answer)
if "error" in reply:
    sys.exit(f"{method}: {reply['error']}")
PY
}

clock_in() { date -u -d "@$(( $(date +%s) + $1 ))" +%H:%M:%S; }

# Starts heraldd $2 as label $1 and leaves its state with work pending.
start_heraldd() {
  local label=$1 binary=$2 socket="$RUN/$1.sock"
  env -u WATCHDOG_USEC -u NOTIFY_SOCKET -u LISTEN_FDS "$binary" --socket "$socket" --state-dir "$RUN/$label-state" \
    --log-target none 2>"$RUN/$label.log" &
  PIDS+=($!)
  echo "$label $!" >>"$RUN/pids"
  for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
  call "$socket" define-focus "{\"focus\":{\"name\":\"Evening\",\"schedules\":[{\"start\":\"$(clock_in 3600)\",\"end\":\"$(clock_in 7200)\"}]}}"
  call "$socket" set-summary "{\"apps\":[\"org.example.news\"],\"times\":[\"$(clock_in 10800)\"]}"
  call "$socket" update-content '{"app":"org.example.news","identifier":"n-1","content":{"title":"Held for the summary"}}'
  call "$socket" update-content '{"app":"org.example.chat","identifier":"m-1","content":{"title":"Ann"}}'
  call "$socket" snooze-notification '{"app":"org.example.chat","identifier":"m-1","seconds":3600}'
  call "$socket" set-conversation '{"app":"org.example.chat","conversationIdentifier":"c-1","mute":{"seconds":3600}}'
  call "$socket" snapshot '{}'
}

switches() {
  local total=0 n
  for status in /proc/"$1"/task/*/status; do
    n=$(awk '/ctxt_switches/ { s += $2 } END { print s + 0 }' "$status" 2>/dev/null || echo 0)
    total=$((total + n))
  done
  echo "$total"
}

: >"$RUN/pids"
[ -n "$BASE" ] && start_heraldd before "$BASE"
start_heraldd after "$NEW"
dbus-daemon --session --nofork --address="unix:path=$RUN/bus" --print-pid=3 3>"$RUN/bus.pid" &
PIDS+=($!)
echo "dbus-daemon $!" >>"$RUN/pids"
sleep "$SETTLE"
declare -A first
while read -r label pid; do first[$label]=$(switches "$pid"); done <"$RUN/pids"
sleep "$WINDOW"
printf '%-12s %10s %12s\n' process "wakeups" "per minute"
while read -r label pid; do
  last=$(switches "$pid")
  awk -v l="$label" -v d="$((last - ${first[$label]}))" -v w="$WINDOW" \
    'BEGIN { printf "%-12s %10d %12.1f\n", l, d, d * 60 / w }'
done <"$RUN/pids"
echo "(context switches over $WINDOW s at rest; heraldd with a Focus schedule, a summary, a snooze and a mute pending, no client)"
