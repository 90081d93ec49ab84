#!/usr/bin/env bash
# What a snapshot costs a running heraldd in memory and CPU, for one or more release builds.
#
#   BINS="base=/one/release/bin new=/other/release/bin" RUNS=2 FILL=8 bash scripts/bench-snapshot-memory.sh
#
# Each folder holds heraldd, heraldctl and herald-bench. For each run, each build in turn:
# heraldd with --durability snapshot --snapshot-interval 0 (so it snapshots only when asked),
# filled by `herald-bench load` (donate, 16 connections × 16 in flight) for FILL seconds;
# `heraldctl snapshot`; 3 s more of the same load; a second `heraldctl snapshot`. Around
# each snapshot: VmHWM and VmRSS (/proc/PID/status) and heraldd's CPU ticks
# (/proc/PID/stat, utime + stime). docs/performance.md, "A snapshot written from its pieces".
set -euo pipefail
cd "$(dirname "$0")/.."
BINS=${BINS:?"BINS=\"name=/release/bin …\""}
RUNS=${RUNS:-2}
FILL=${FILL:-8}
RUN=$(mktemp -d /tmp/herald-snapshot-memory.XXXXXX)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$RUN"; }
trap cleanup EXIT

kib() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$PID/status"; }
ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
mb() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f MB", (b - a) / 1000 }'; }

# snapshot NAME BIN: one heraldctl snapshot; prints what it cost.
snapshot() {
    local hwm rss cpu
    hwm=$(kib VmHWM) rss=$(kib VmRSS) cpu=$(ticks)
    "$2/heraldctl" --socket "$RUN/h.sock" snapshot >/dev/null
    printf '  %s: VmHWM %s, VmRSS %s, %s CPU ticks\n' "$1" "$(mb "$hwm" "$(kib VmHWM)")" "$(mb "$rss" "$(kib VmRSS)")" "$(($(ticks) - cpu))"
}

for run in $(seq 1 "$RUNS"); do
    for entry in $BINS; do
        name=${entry%%=*} bin=${entry#*=}
        rm -rf "$RUN/state" "$RUN/h.sock"
        "$bin/heraldd" --socket "$RUN/h.sock" --state-dir "$RUN/state" --durability snapshot --snapshot-interval 0 2>"$RUN/log" &
        PID=$!
        for _ in $(seq 50); do [ -S "$RUN/h.sock" ] && break; sleep 0.1; done
        "$bin/herald-bench" load --socket "$RUN/h.sock" --connections 16 --in-flight 16 --duration "$FILL" >/dev/null
        interactions=$("$bin/heraldctl" --socket "$RUN/h.sock" status | awk '$1 == "interactions:" { print $2 }')
        echo "run $run, $name: $interactions interactions"
        snapshot "first snapshot" "$bin"
        echo "  snapshot file: $(stat -c %s "$RUN/state/state.snapshot") bytes"
        "$bin/herald-bench" load --socket "$RUN/h.sock" --connections 16 --in-flight 16 --duration 3 >/dev/null
        snapshot "second snapshot" "$bin"
        kill "$PID"
        wait "$PID" 2>/dev/null || true
        PID=""
    done
done
