#!/usr/bin/env bash
# The snapshot benchmark (make bench-snapshot): builds heraldd in release mode and runs
# scripts/bench-snapshot.py against it. N defaults to 1,000,000 interactions.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-1000000}"
SWIFT="${SWIFT:-swift}"
SCRATCH=()
if [ -n "${SCRATCH_PATH:-}" ]; then SCRATCH=(--scratch-path "$SCRATCH_PATH"); fi
"$SWIFT" build -c release "${SCRATCH[@]}" --product heraldd >&2
BIN="$("$SWIFT" build -c release "${SCRATCH[@]}" --show-bin-path)"
exec python3 scripts/bench-snapshot.py "$BIN/heraldd" "$N"
