#!/usr/bin/env bash
# `make bench-compare`: two heraldd builds side by side with the references, alternating,
# so that a shared, noisy machine weighs on all of them alike.
#
#   BASE=/path/to/old/heraldd NEW=/path/to/new/heraldd bash scripts/bench-compare.sh
#
# Each round runs every scenario once against: the bare-socket floor, the SwiftNIO floor,
# BASE and NEW (journal off; JOURNAL=on adds both with --log-target journal), and redis SET
# at the same N × P; the order of the targets rotates from round to round. It prints, per
# scenario and target, the median p50 and req/s over the rounds with their min–max, and the
# ratios (target over floor for p50, target over redis for req/s) as median [min–max] of
# the per-round ratios. For BASE and NEW it also prints the server's CPU time per request
# and NEW over BASE per round: the comparison a noisy machine disturbs least.
# ROUNDS (default 5), DURATION (s, default 2), SCENARIOS ("donate:1:1 …").
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BASE:?BASE=/path/to/heraldd}" "${NEW:?NEW=/path/to/heraldd}"
BENCH=${BENCH:-$(dirname "$NEW")/herald-bench}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-2}
WARMUP=${WARMUP:-0.5}
JOURNAL=${JOURNAL:-off}
SCENARIOS=${SCENARIOS:-"donate:1:1 donate:16:1 donate:16:16"}
RUN=$(mktemp -d /tmp/herald-compare.XXXXXX)
OUT=${OUT:-$RUN/figures.jsonl}
SOCKET="$RUN/s.sock"
REDIS_SOCKET="$RUN/redis.sock"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

serve() {  # serve LOG CMD…: starts a server on $SOCKET, sets PID
  rm -f "$SOCKET"
  "${@:2}" >"$1" 2>&1 &
  PID=$!
  PIDS+=("$PID")
  for _ in $(seq 200); do [ -S "$SOCKET" ] && return 0; sleep 0.05; done
  echo "did not start: ${*:2}" >&2; cat "$1" >&2; exit 1
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || true; }  # user + system, in clock ticks
stop() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }

redis-server --save '' --appendonly no --port 0 --unixsocket "$REDIS_SOCKET" --unixsocketperm 700 \
  --daemonize no >"$RUN/redis.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$REDIS_SOCKET" ] && break; sleep 0.05; done

run_target() {  # run_target LABEL SCENARIO N P
  local label=$1 scenario=$2 n=$3 p=$4 bytes
  case $label in
    floor | nio-floor)
      bytes=$(cat "$RUN/bytes.$scenario" 2>/dev/null || echo 200)
      local nio=()
      [ "$label" = nio-floor ] && nio=(--nio)
      serve "$RUN/$label.log" "$BENCH" floor "${nio[@]}" --socket "$SOCKET" --response-bytes "$bytes"
      ;;
    base* | new*)
      local bin=$BASE target=none
      [[ $label == new* ]] && bin=$NEW
      [[ $label == *-journal ]] && target=journal
      serve "$RUN/$label.log" "$bin" --socket "$SOCKET" --log-target "$target" --state-dir "$RUN/state.$RANDOM$RANDOM"
      ;;
    redis)
      local count
      count=$(awk -v d="$DURATION" -v n="$n" -v p="$p" 'BEGIN { printf "%d", d * (n * p > 1 ? 150000 : 25000) }')
      redis-benchmark -s "$REDIS_SOCKET" -t set -c "$n" -P "$p" -n "$count" --csv 2>/dev/null \
        | awk -F'","' -v s="$scenario" -v n="$n" -v p="$p" -v r="$ROUND" '$1 ~ /SET/ { gsub(/"/, "", $0); split($0, f, ",");
            printf "{\"round\":%d,\"target\":\"redis\",\"scenario\":\"%s\",\"connections\":%d,\"inFlight\":%d,\"requestsPerSecond\":%s,\"p50Us\":%s}\n", r, s, n, p, f[2], f[5] * 1000 }' >>"$OUT"
      return
      ;;
  esac
  local line before after cpu=""
  before=$(cpu_ticks "$PID")
  line=$("$BENCH" load --socket "$SOCKET" --target "$label" --scenario "$scenario" --connections "$n" \
    --in-flight "$p" --duration "$DURATION" --warmup "$WARMUP" --journal n/a)
  after=$(cpu_ticks "$PID")
  stop
  [[ $label == base ]] && grep -o '"responseBytes":[0-9]*' <<<"$line" | cut -d: -f2 >"$RUN/bytes.$scenario"
  # The server's CPU time per request answered, warm-up included: the figure a busy,
  # shared machine disturbs least, since it does not count the time the server waited.
  if [ -n "$before" ] && [ -n "$after" ]; then
    cpu=$(python3 -c 'import json,sys; f=json.loads(sys.argv[1]); n=f["answeredLines"]*f["requestsPerLine"]; print(f",\"cpuUsPerRequest\":{(int(sys.argv[3])-int(sys.argv[2]))*1e6/int(sys.argv[4])/max(n,1):.3f}")' \
      "$line" "$before" "$after" "$(getconf CLK_TCK)")
  fi
  echo "{\"round\":$ROUND,${line#\{}" | sed "s/}\$/$cpu}/" >>"$OUT"
}

TARGETS=(base floor nio-floor new redis)
[ "$JOURNAL" = on ] && TARGETS+=(base-journal new-journal)
for ROUND in $(seq "$ROUNDS"); do
  for entry in $SCENARIOS; do
    IFS=: read -r scenario n p <<<"$entry"
    count=${#TARGETS[@]}
    # base first in round 1, so the floors know the response size; then rotate.
    for i in $(seq 0 $((count - 1))); do
      label=${TARGETS[$(((i + ROUND - 1) % count))]}
      [ "$ROUND" = 1 ] && label=${TARGETS[$i]}
      run_target "$label" "$scenario" "$n" "$p"
    done
  done
  echo "round $ROUND done" >&2
done

python3 - "$OUT" <<'PY'
import json, sys, statistics as st
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    key = (r["scenario"], r["connections"], r["inFlight"])
    by.setdefault(key, {}).setdefault(r["round"], {})[r["target"]] = r
def fmt(xs): return f"{st.median(xs):.2f} [{min(xs):.2f}–{max(xs):.2f}]"
for key, rounds in by.items():
    print(f"\n{key[0]} {key[1]}x{key[2]} ({len(rounds)} rounds)")
    targets = sorted({t for r in rounds.values() for t in r})
    for t in targets:
        p50 = [r[t]["p50Us"] for r in rounds.values() if t in r]
        rps = [r[t]["requestsPerSecond"] for r in rounds.values() if t in r]
        line = f"  {t:13s} p50 {st.median(p50):8.1f} µs [{min(p50):.1f}–{max(p50):.1f}]  {st.median(rps):9.0f} req/s [{min(rps):.0f}–{max(rps):.0f}]"
        if t not in ("floor", "redis"):
            vf = [r[t]["p50Us"] / r["floor"]["p50Us"] for r in rounds.values() if t in r and "floor" in r]
            vr = [r[t]["requestsPerSecond"] / r["redis"]["requestsPerSecond"] for r in rounds.values() if t in r and "redis" in r]
            if vf: line += f"  p50/floor {fmt(vf)}"
            if vr: line += f"  rps/redis {fmt(vr)}"
        cpu = [r[t]["cpuUsPerRequest"] for r in rounds.values() if "cpuUsPerRequest" in r.get(t, {})]
        if cpu: line += f"  cpu {st.median(cpu):.2f} µs/request [{min(cpu):.2f}–{max(cpu):.2f}]"
        print(line)
    vs = [r["new"]["cpuUsPerRequest"] / r["base"]["cpuUsPerRequest"] for r in rounds.values()
          if "cpuUsPerRequest" in r.get("new", {}) and "cpuUsPerRequest" in r.get("base", {})]
    if vs: print(f"  new/base cpu per request {fmt(vs)}")
PY
echo "figures: $OUT" >&2
