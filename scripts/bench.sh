#!/usr/bin/env bash
# `make bench`: Herald against its references — the floor (a trivial server on the same
# socket type, answering with Herald's response size), the same floor written with SwiftNIO
# (the framework's own cost), and redis-server (SET, persistence
# off) — with the same N connections × P in flight, in one run, and the ratios between them.
#
#   bash scripts/bench.sh              full run (5 s per measurement, a few minutes)
#   QUICK=1 bash scripts/bench.sh      quick run (1 s per measurement, under a minute)
#   PROFILE=1 bash scripts/bench.sh    also profile heraldd on donate 16×16, journal off
#   PROFILE=only bash scripts/bench.sh the profile alone
#   GATEWAY=only bash scripts/bench.sh the desktop gateway's figures alone (GATEWAY=0: without them)
#   GATEWAY=beside bash scripts/bench.sh its latency alone: both paths interleaved at 10/s
#   GATEWAY=steps bash scripts/bench.sh that, after one path traced step by step (perf trace)
#   BYSTANDER=only bash scripts/bench.sh a bystander uid's figures alone (BYSTANDER=0: without them)
#   SYNC=0 bash scripts/bench.sh        without herald-sync's figures (scripts/bench-sync.py; make bench-sync: them alone)
#
# Builds in release mode (with debug symbols, for the profile) into .build-bench, starts a
# fresh heraldd per scenario and journal setting, writes every figure as JSON lines and as
# one JSON document under bench-results/, and prints the tables. Everything runs on Unix
# sockets on this machine; every process it starts it stops.
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=${QUICK:-0}
PROFILE=${PROFILE:-0}
GATEWAY=${GATEWAY:-1}
# The gateway's figures alone (only), or a part of them alone (beside, steps).
case "$GATEWAY" in only | beside | steps) GATEWAY_ALONE=1 ;; *) GATEWAY_ALONE=0 ;; esac
BYSTANDER=${BYSTANDER:-1}
SYNC=${SYNC:-1}
SWIFT=${SWIFT:-swift}
SCRATCH=${SCRATCH:-.build-bench}
if [ "$QUICK" = 1 ]; then
  DURATION=1; WARMUP=0.2; CEILING_SECONDS=1
else
  DURATION=5; WARMUP=1; CEILING_SECONDS=4
fi

say() { echo "bench: $*" >&2; }

for tool in redis-server redis-benchmark cc pkg-config; do
  command -v "$tool" >/dev/null || { say "$tool is missing: run make bench-deps"; exit 1; }
done
# Always: a socket left by a journald that has since died is not a journald (the ceiling
# then fails every entry); the script only checks one that runs.
bash scripts/ensure-journald.sh >&2 || true
[ -S /run/systemd/journal/socket ] || { say "no journald: the journal-on scenarios need one (scripts/ensure-journald.sh)"; exit 1; }

# HERALDD=/path/to/heraldd benchmarks a heraldd built elsewhere (another commit, say);
# NOTIFY=/path/to/herald-notify, the gateway's herald-notify.
say "building in $SCRATCH (release, -g)${HERALDD:+; heraldd given: $HERALDD}"
if [ -z "${HERALDD:-}" ]; then
  $SWIFT build -c release --scratch-path "$SCRATCH" -Xswiftc -g --product heraldd >&2
fi
$SWIFT build -c release --scratch-path "$SCRATCH" -Xswiftc -g --product herald-bench >&2
if [ "$GATEWAY" != 0 ] && [ "$BYSTANDER" != only ]; then
  $SWIFT build -c release --scratch-path "$SCRATCH" -Xswiftc -g --product herald-notify >&2
fi
if [ "$SYNC" != 0 ]; then
  $SWIFT build -c release --scratch-path "$SCRATCH" -Xswiftc -g --product herald-sync >&2
fi
BIN=$($SWIFT build -c release --scratch-path "$SCRATCH" -Xswiftc -g --show-bin-path)
HERALDD=${HERALDD:-$BIN/heraldd}
BENCH="$BIN/herald-bench"
NOTIFY=${NOTIFY:-$BIN/herald-notify}

RUN=$(mktemp -d /tmp/herald-bench.XXXXXX)
CEILING="$RUN/journal-ceiling"
cc -O2 -o "$CEILING" scripts/journal-ceiling.c $(pkg-config --cflags --libs libsystemd)

mkdir -p bench-results
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
LINES="bench-results/$STAMP.jsonl"
: > "$LINES"

STARTED=()
stop_all() {
  for pid in "${STARTED[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${STARTED[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$RUN"
}
trap stop_all EXIT

# Starts a process in the background and waits for its socket; sets STARTED_PID.
start_serving() {
  local socket=$1 log=$2; shift 2
  rm -f "$socket"
  "$@" >"$log" 2>&1 &
  STARTED_PID=$!
  STARTED+=("$STARTED_PID")
  for _ in $(seq 200); do
    [ -S "$socket" ] && return 0
    kill -0 "$STARTED_PID" 2>/dev/null || break
    sleep 0.05
  done
  say "$* did not start:"; cat "$log" >&2; exit 1
}

stop_serving() {
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

clean() { tr -d '"\\' | tr '\n' ' ' | sed 's/ *$//'; }

# The run: when, which commit, on what.
{
  printf '{"kind":"meta","timestamp":"%s","commit":"%s","dirty":%s,"quick":%s,' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    "$( [ -n "$(git status --porcelain 2>/dev/null)" ] && echo true || echo false)" \
    "$( [ "$QUICK" = 1 ] && echo true || echo false)"
  printf '"kernel":"%s","cpu":"%s","cores":%s,"memoryKiB":%s,"swift":"%s","redis":"%s","loadAverage":"%s","heraldd":"%s"}\n' \
    "$(uname -r | clean)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //' | clean)" \
    "$(nproc)" "$(awk '/MemTotal/ {print $2}' /proc/meminfo)" \
    "$($SWIFT --version 2>/dev/null | head -1 | clean)" "$(redis-server --version | awk '{print $3}' | clean)" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" "$(clean <<<"$HERALDD")"
} >> "$LINES"

journal_ceiling() {
  say "journald ceiling: sd_journal_send with Herald's fields, ${CEILING_SECONDS} s"
  "$CEILING" --seconds "$CEILING_SECONDS" | tee -a "$LINES" >&2
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # user + system, in clock ticks

# load TARGET SCENARIO N P JOURNAL [extra flags]: one closed-loop run against the server
# STARTED_PID, its JSON line appended with the server's CPU time per request: its user and
# system time from the end of the warm-up to the end of the run (the journal's drain
# included, with --stats), over the requests answered after the warm-up.
load() {
  local target=$1 scenario=$2 n=$3 p=$4 journal=$5; shift 5
  local server=$STARTED_PID before after line
  "$BENCH" load --socket "$SOCKET" --target "$target" --scenario "$scenario" \
    --connections "$n" --in-flight "$p" --duration "$DURATION" --warmup "$WARMUP" --journal "$journal" "$@" \
    >"$RUN/load.json" &
  local generator=$!
  sleep "$WARMUP"
  before=$(cpu_ticks "$server")
  wait "$generator"
  after=$(cpu_ticks "$server")
  line=$(cat "$RUN/load.json")
  python3 -c 'import json, sys
f = json.loads(sys.argv[1])
requests = f["answeredLines"] * f["requestsPerLine"]
f["cpuUsPerRequest"] = round((int(sys.argv[3]) - int(sys.argv[2])) * 1e6 / int(sys.argv[4]) / max(requests, 1), 3)
print(json.dumps(f, separators=(",", ":"), ensure_ascii=False))' "$line" "$before" "$after" "$(getconf CLK_TCK)" \
    | tee -a "$LINES"
}

SOCKET="$RUN/server.sock"

# A fresh heraldd: its own empty state folder when it keeps one (so that no run starts from
# another's snapshot, and nothing is written to the user's own), journal none or journald.
STARTS=0
start_heraldd() {
  local target=$1 state=()
  STARTS=$((STARTS + 1))
  if "$HERALDD" --help 2>&1 | grep -q -- '--state-dir'; then
    state=(--state-dir "$RUN/state.$STARTS")
  fi
  start_serving "$SOCKET" "$RUN/heraldd.log" "$HERALDD" --socket "$SOCKET" --log-target "$target" "${state[@]}"
}

# scenario, connections, request lines in flight per connection
SCENARIOS=(
  "donate 1 1"
  "donate 16 1"
  "donate 16 16"
  "donate-batch 16 1"
  "update-content 16 16"
  "request-focus 16 16"
)

measure_scenarios() {
  journal_ceiling

  for entry in "${SCENARIOS[@]}"; do
    read -r scenario n p <<<"$entry"

    start_heraldd none
    figures=$(load herald "$scenario" "$n" "$p" off)
    stop_serving "$STARTED_PID"
    bytes=$(grep -o '"responseBytes":[0-9]*' <<<"$figures" | cut -d: -f2)

    start_serving "$SOCKET" "$RUN/floor.log" "$BENCH" floor --socket "$SOCKET" --response-bytes "$bytes"
    load floor "$scenario" "$n" "$p" n/a >/dev/null
    stop_serving "$STARTED_PID"

    start_serving "$SOCKET" "$RUN/nio-floor.log" "$BENCH" floor --nio --socket "$SOCKET" --response-bytes "$bytes"
    load nio-floor "$scenario" "$n" "$p" n/a >/dev/null
    stop_serving "$STARTED_PID"

    start_heraldd journal
    load herald "$scenario" "$n" "$p" on --stats >/dev/null
    stop_serving "$STARTED_PID"
  done

  journal_ceiling
}

measure_redis() {
  # redis-server on its own Unix socket, persistence off; SET at each N × P the scenarios used
  # (a batch line of 64 counts as a pipeline of 64).
  REDIS_SOCKET="$RUN/redis.sock"
  start_serving "$REDIS_SOCKET" "$RUN/redis.log" redis-server --save '' --appendonly no --port 0 \
    --unixsocket "$REDIS_SOCKET" --unixsocketperm 700 --daemonize no
  REDIS_PID=$STARTED_PID
  for pair in "1 1 30000" "16 1 60000" "16 16 400000" "16 64 800000"; do
    read -r n p rate <<<"$pair"
    count=$(awk -v d="$DURATION" -v r="$rate" 'BEGIN { printf "%d", d * r }')
    say "redis SET -c $n -P $p -n $count"
    local before after figures
    before=$(cpu_ticks "$REDIS_PID")
    figures=$(redis-benchmark -s "$REDIS_SOCKET" -t set -c "$n" -P "$p" -n "$count" --csv 2>/dev/null)
    after=$(cpu_ticks "$REDIS_PID")
    # redis-server's CPU time over the run, per SET (the connections' set-up included).
    awk -F'","' -v n="$n" -v p="$p" -v count="$count" -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" '
          $1 ~ /SET/ { gsub(/"/, "", $0); split($0, f, ",");
            printf "{\"kind\":\"redis\",\"connections\":%d,\"pipeline\":%d,\"requests\":%d,\"requestsPerSecond\":%s,\"p50Ms\":%s,\"p99Ms\":%s,\"cpuUsPerRequest\":%.3f}\n", n, p, count, f[2], f[5], f[7], ticks * 1e6 / hz / count }' \
      <<<"$figures" | tee -a "$LINES" >&2
  done
  stop_serving "$REDIS_PID"
}

# The desktop gateway (issue 43): an app's Notify until the renderer, dunst under Xvfb with
# its defaults but at most 20 bubbles at once (Debian's dunstrc shows every one, and dunst
# then redraws them all for each new one), has taken it — directly (dunst owns the name on
# the app's bus) and through Herald (herald-notify owns it; dunst runs on its private bus;
# heraldd decides, the journal on, as installed). herald-bench watches the renderer's bus
# with a monitor and times each Notify from the app's send.
#
# At 10 a second both paths run at once, each with its own dunst on the one display, their
# sends interleaved half an interval apart: the p99 they are compared by is a handful of
# samples, and on a shared machine two runs a minute apart meet different moments (a direct
# p99 of 0.6 ms on a quiet machine, 4 ms beside a build). Then, each path alone, at 1,000 a
# second and unpaced (64 unanswered at most): the most a second that reach the renderer,
# and how many never do.
if [ "$QUICK" = 1 ]; then
  GATEWAY_BESIDE="10 60"
  GATEWAY_RUNS=("1000 1000" "unpaced 1000")
else
  GATEWAY_BESIDE="10 600"
  GATEWAY_RUNS=("1000 5000" "unpaced 5000")
fi

# start_bus SOCKET: a session bus as the person's (Debian's session.conf: its limits and
# policy) on SOCKET.
start_bus() {
  start_serving "$1" "$RUN/bus.$(basename "$1").log" dbus-daemon --session --address="unix:path=$1" --nofork
}

# wait_for_name BUS_SOCKET NAME: until NAME has an owner on the bus.
wait_for_name() {
  for _ in $(seq 200); do
    dbus-send --bus="unix:path=$1" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner "string:$2" 2>/dev/null | grep -q 'boolean true' && return 0
    sleep 0.05
  done
  say "nothing took $2 on $1"; exit 1
}

# start_dunst BUS_SOCKET: a dunst owning the name on BUS_SOCKET; sets DUNST_PID.
start_dunst() {
  printf '[global]\n    notification_limit = 20\n' >"$RUN/dunstrc"
  DISPLAY=$XDISPLAY DBUS_SESSION_BUS_ADDRESS="unix:path=$1" dunst -config "$RUN/dunstrc" >>"$RUN/dunst.log" 2>&1 &
  DUNST_PID=$!
  STARTED+=("$DUNST_PID")
  wait_for_name "$1" org.freedesktop.Notifications
}

# gateway_runs PATH APP_BUS RENDERER_BUS: each of GATEWAY_RUNS, one JSON line each, each
# with a fresh dunst (one still holding thousands of queued bubbles is slower at the next).
gateway_runs() {
  local path=$1 app=$2 renderer=$3 pace count
  for entry in "${GATEWAY_RUNS[@]}"; do
    read -r pace count <<<"$entry"
    local how=(--rate "$pace")
    [ "$pace" = unpaced ] && how=(--in-flight 64)
    start_dunst "$renderer"
    "$BENCH" notify --path "$path" --app-bus "unix:path=$app" --renderer-bus "unix:path=$renderer" \
      --count "$count" "${how[@]}" | tee -a "$LINES"
    stop_serving "$DUNST_PID"
  done
}

# trace_gateway_steps APP_BUS RENDERER_BUS PIDS: 100 notifications at 10/s through Herald
# alone, with perf trace on the app, both buses, herald-notify, heraldd and dunst (PIDS);
# scripts/gateway-steps.py reads the trace back as each step's time and each process's
# wakeups on one notification's path. perf trace costs every traced syscall some µs: the
# steps are the path's shape, not its figures (the interleaved run's are).
trace_gateway_steps() {
  local app=$1 renderer=$2 pids=$3 out="bench-results/$STAMP-gateway-steps"
  perf trace -e write true >/dev/null 2>&1 || { say "perf trace cannot trace syscalls here: no gateway steps"; return 0; }
  say "gateway: one path's steps, traced (perf trace), 10/s, 100 notifications"
  "$BENCH" notify --path herald --app-bus "unix:path=$app" --renderer-bus "unix:path=$renderer" \
    --rate 10 --count 100 --warmup 5 >"$RUN/steps.json" &
  local bench=$!
  sleep 0.2
  perf trace -T -o "$RUN/steps.trace" -p "$(tr ' ' ',' <<<"$bench $pids")" \
    -e 'read,write,writev,sendmsg,recvmsg,sendto,recvfrom,poll,ppoll,epoll_wait,futex' 2>/dev/null &
  local tracer=$!
  for pid in $bench $pids; do
    for task in /proc/"$pid"/task/*; do echo "$pid ${task##*/}"; done
  done >"$RUN/steps.threads"
  wait "$bench"
  kill -INT "$tracer" 2>/dev/null || true
  wait "$tracer" || true
  local person_bus renderer_bus notify heraldd
  read -r person_bus renderer_bus notify heraldd _ <<<"$pids"
  python3 scripts/gateway-steps.py "$RUN/steps.trace" "$RUN/steps.threads" --app "$bench" --person-bus "$person_bus" \
    --renderer-bus "$renderer_bus" --gateway "$notify" --heraldd "$heraldd" | tee "$out.txt" >&2
}

measure_gateway() {
  for tool in dbus-daemon dbus-send dunst Xvfb; do
    command -v "$tool" >/dev/null || { say "$tool is missing: run make bench-deps (the gateway's figures need it)"; return 0; }
  done
  local displays="$RUN/display" direct="$RUN/direct-bus" person="$RUN/person-bus" renderer="$RUN/renderer-bus"
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$displays" 2>"$RUN/xvfb.log" &
  STARTED+=($!)
  for _ in $(seq 200); do [ -s "$displays" ] && break; sleep 0.05; done
  XDISPLAY=":$(cat "$displays")"

  start_bus "$direct"; local direct_bus=$STARTED_PID
  start_bus "$person"; local person_bus=$STARTED_PID
  start_bus "$renderer"; local renderer_bus=$STARTED_PID
  start_dunst "$renderer"; local herald_dunst=$DUNST_PID
  start_heraldd journal; local heraldd=$STARTED_PID
  mkdir -p "$RUN/runtime" "$RUN/state-home" && chmod 700 "$RUN/runtime"
  XDG_RUNTIME_DIR="$RUN/runtime" XDG_STATE_HOME="$RUN/state-home" DBUS_SESSION_BUS_ADDRESS="unix:path=$person" \
    "$NOTIFY" --gateway --renderer-bus "unix:path=$renderer" --socket "$SOCKET" >"$RUN/herald-notify.log" 2>&1 &
  local notify=$!
  STARTED+=("$notify")
  for _ in $(seq 200); do grep -q 'presenting uid' "$RUN/herald-notify.log" && break; sleep 0.05; done
  grep -q 'presenting uid' "$RUN/herald-notify.log" || { say "herald-notify did not start:"; cat "$RUN/herald-notify.log" >&2; exit 1; }

  if [ "$GATEWAY" = steps ]; then
    trace_gateway_steps "$person" "$renderer" "$person_bus $renderer_bus $notify $heraldd $herald_dunst"
  fi

  local pace count
  read -r pace count <<<"$GATEWAY_BESIDE"
  say "gateway: directly and through Herald at once, ${pace}/s each, interleaved (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  start_dunst "$direct"; local direct_dunst=$DUNST_PID
  "$BENCH" notify --path direct --app-bus "unix:path=$direct" --renderer-bus "unix:path=$direct" \
    --beside-path herald --beside-app-bus "unix:path=$person" --beside-renderer-bus "unix:path=$renderer" \
    --rate "$pace" --count "$count" | tee -a "$LINES"
  stop_serving "$direct_dunst"; stop_serving "$herald_dunst"

  if [ "$GATEWAY" != beside ] && [ "$GATEWAY" != steps ]; then
    say "gateway: directly, the app and dunst on one bus"
    gateway_runs direct "$direct" "$direct"
    say "gateway: through Herald, dunst on herald-notify's private bus"
    gateway_runs herald "$person" "$renderer"
  fi
  stop_serving "$notify"; stop_serving "$heraldd"
  stop_serving "$renderer_bus"; stop_serving "$person_bus"; stop_serving "$direct_bus"
  # What herald-notify and heraldd said, beside the figures: a loss is explained there.
  cp "$RUN/herald-notify.log" "bench-results/$STAMP-herald-notify.log"
  cp "$RUN/heraldd.log" "bench-results/$STAMP-heraldd.log"
}

# The hottest scenario (donate 16×16, journal off), profiled. With hardware counters
# (`perf stat -e instructions true` counts), `perf record`; else callgrind, when valgrind
# can run heraldd at all; else `perf record -e cpu-clock`, a timer-based sample.
profile() {
  local out="bench-results/$STAMP-donate-16x16"
  local demangle=cat
  command -v swift-demangle >/dev/null && demangle="swift-demangle --simplified"
  if command -v perf >/dev/null && perf stat -e instructions true 2>&1 | grep -q '[0-9] *instructions'; then
    perf_profile "$out" "$demangle" cycles
  elif command -v valgrind >/dev/null && valgrind --tool=none "$HERALDD" --help >/dev/null 2>&1; then
    callgrind_profile "$out" "$demangle"
  elif command -v perf >/dev/null; then
    say "profile: no hardware counters, and valgrind cannot run heraldd here: sampling on cpu-clock"
    perf_profile "$out" "$demangle" cpu-clock
  else
    say "profile: neither perf nor valgrind here"
  fi
}

perf_profile() {
  local out=$1 demangle=$2 event=$3
  say "profile: perf record -e $event on donate 16×16, journal off, ${DURATION} s"
  start_heraldd none
  local pid=$STARTED_PID
  perf record -e "$event" -F 2000 -g -o "$out.perf.data" -p "$pid" -- sleep "$DURATION" >/dev/null 2>&1 &
  local perf_pid=$!
  "$BENCH" load --socket "$SOCKET" --scenario donate --connections 16 --in-flight 16 \
    --duration "$DURATION" --warmup 0 --target profile >/dev/null
  wait "$perf_pid" || true
  stop_serving "$pid"
  perf report -i "$out.perf.data" --no-children --sort comm,dso --stdio -g none 2>/dev/null \
    | grep '%' >"$out.threads.txt" || true
  perf report -i "$out.perf.data" --no-children --sort symbol --stdio -g none --percent-limit 0.5 2>/dev/null \
    | grep '%' | $demangle >"$out.self.txt" || true
  perf report -i "$out.perf.data" --children --sort symbol --stdio -g none --percent-limit 2 2>/dev/null \
    | grep '%' | $demangle >"$out.inclusive.txt" || true
  say "profile: $out.perf.data; by thread $out.threads.txt, self $out.self.txt, inclusive $out.inclusive.txt"
}

callgrind_profile() {
  local out=$1 demangle=$2
  say "profile: callgrind on donate 16×16, journal off (slow: about a minute)"
  start_serving "$SOCKET" "$RUN/heraldd.log" valgrind --tool=callgrind --callgrind-out-file="$out.callgrind.out" \
    "$HERALDD" --socket "$SOCKET" --log-target none
  local pid=$STARTED_PID
  # Warm up (first-touch costs, caches), then zero the counters and measure a fixed count.
  "$BENCH" load --socket "$SOCKET" --scenario donate --connections 16 --in-flight 16 --lines 20 \
    --target profile >/dev/null
  callgrind_control --zero "$pid" >/dev/null 2>&1 || true
  "$BENCH" load --socket "$SOCKET" --scenario donate --connections 16 --in-flight 16 --lines "${PROFILE_LINES:-250}" \
    --target profile >/dev/null
  callgrind_control --dump "$pid" >/dev/null 2>&1 || true
  stop_serving "$pid"
  local dump
  dump=$(ls -t "$out".callgrind.out* 2>/dev/null | head -1)
  callgrind_annotate --inclusive=no "$dump" 2>/dev/null | head -70 | $demangle >"$out.self.txt" || true
  callgrind_annotate --inclusive=yes "$dump" 2>/dev/null | head -120 | $demangle >"$out.inclusive.txt" || true
  say "profile: $dump; top costs in $out.self.txt and $out.inclusive.txt"
}

# A bystander uid's get-cooldown while another uid (as root: 65533 and 65534) repeats a worst
# case — remove-all, a search of one-letter words, the most a restore takes, long
# conversation identifiers, subscriptions with since — each case on a fresh heraldd
# (scripts/bench-bystander.py says what each does).
measure_bystander() {
  say "bystander: get-cooldown alone and while another uid does its worst, ${DURATION} s each"
  python3 scripts/bench-bystander.py "$HERALDD" "$DURATION" | tee -a "$LINES"
}

ONLY=0
[ "$GATEWAY_ALONE" = 1 ] || [ "$BYSTANDER" = only ] || [ "$PROFILE" = only ] && ONLY=1
if [ "$ONLY" = 0 ]; then
  measure_scenarios
  measure_redis
fi
if [ "$PROFILE" != only ] && [ "$BYSTANDER" != only ] && [ "$GATEWAY" != 0 ]; then measure_gateway; fi
if [ "$PROFILE" != only ] && [ "$GATEWAY_ALONE" = 0 ] && [ "$BYSTANDER" != 0 ]; then measure_bystander; fi
if [ "$PROFILE" != 0 ] && [ "$GATEWAY_ALONE" = 0 ] && [ "$BYSTANDER" != only ]; then profile; fi
if [ "$ONLY" = 0 ] && [ "$SYNC" != 0 ]; then
  say "herald-sync: a change at one host applied at another, beside the broker's round trip; at rest"
  HERALDD="$HERALDD" HERALD_SYNC="$BIN/herald-sync" WINDOW="$([ "$QUICK" = 1 ] && echo 10 || echo 60)" \
    CHANGES="$([ "$QUICK" = 1 ] && echo 200 || echo 1000)" python3 scripts/bench-sync.py >&2
fi
if [ "$PROFILE" != only ]; then
  "$BENCH" report --input "$LINES" --output "bench-results/$STAMP.json"
  python3 scripts/bench-previous.py "bench-results/$STAMP.json"
fi
