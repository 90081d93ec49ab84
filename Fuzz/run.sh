#!/usr/bin/env bash
# Runs Herald's libFuzzer targets (built by Fuzz/build.sh).
#
#   bash Fuzz/run.sh SECONDS [TARGET…]   fuzz each target for SECONDS over a working copy of
#                                        its corpus (.build-fuzz/work/TARGET); new inputs stay
#                                        there, crashes land in .build-fuzz/findings/
#   bash Fuzz/run.sh --check [TARGET…]   what `make test` runs: every committed input once,
#                                        then a few seconds of fuzzing from it; fails on a
#                                        crash, a hang (10 s per input) or a leak
#
# Leak detection is on (the address sanitizer's default here), inputs are at most 64 KiB,
# and memory is capped at 2 GiB per target. Each run prints libFuzzer's last status line.
# The snapshot reader decodes record chunks on Dispatch's threads, whose bookkeeping makes
# libFuzzer scan the whole heap for leaks after nearly every input (15 times slower): that
# target fuzzes with leak detection off, then runs every input of its corpus once more with
# it on, so each input it kept is checked for leaks all the same.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${FUZZ_BUILD:-.build-fuzz}
# Swift's own backtracer would report libFuzzer's deliberate crashes a second time, and
# the address sanitizer takes it for an error of its own.
export SWIFT_BACKTRACE=enable=no
ALL=(framer-parser params snapshot change-log notify sync-focus)

mode=fuzz
if [ "${1:-}" = --check ]; then
  mode=check; shift
  seconds=${FUZZ_CHECK_SECONDS:-5}
else
  seconds=${1:?usage: Fuzz/run.sh SECONDS [TARGET…] | --check [TARGET…]}; shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL[@]}")

bash Fuzz/build.sh
mkdir -p "$OUT/findings"
status=0
for target in "${targets[@]}"; do
  work="$OUT/work/$target"
  mkdir -p "$work"
  cp -n Fuzz/corpus/"$target"/* "$work"/ 2>/dev/null || true
  log="$OUT/$target.log"
  options=(-max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix="$OUT/findings/$target-")
  if [ "$mode" = check ]; then
    # Every committed input (regression inputs included) once, then a little fuzzing.
    if ! "$OUT/$target" "${options[@]}" -runs=0 Fuzz/corpus/"$target" >"$log" 2>&1; then
      echo "fuzz: $target fails on a committed input:" >&2; tail -30 "$log" >&2; status=1; continue
    fi
  fi
  leaks=()
  [ "$target" = snapshot ] && leaks=(-detect_leaks=0)
  if "$OUT/$target" "${options[@]}" "${leaks[@]}" -max_total_time="$seconds" "$work" >"$log" 2>&1 \
    && { [ ${#leaks[@]} -eq 0 ] || "$OUT/$target" "${options[@]}" -runs=0 "$work" >"$log.leaks" 2>&1; }; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | head -1 | grep -o '[0-9]*$' || echo '?')
    echo "fuzz: $target: $runs executions in ${seconds} s, no crash, hang or leak; $(grep -E '^#[0-9]+' "$log" | grep -v INITED | tail -1)"
  else
    echo "fuzz: $target found a problem (input saved under $OUT/findings/):" >&2
    grep -hE 'ERROR|SUMMARY|Fatal error|==[0-9]+==' "$log" "$log.leaks" 2>/dev/null | head -20 >&2
    status=1
  fi
done
exit $status
