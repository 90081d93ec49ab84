#!/usr/bin/env python3
"""Each scenario of a `make bench` run next to the same scenario of the run before it.

    python3 scripts/bench-previous.py bench-results/NEW.json

The run before is the latest `bench-results/*.json` named before it (the folder stays on the machine,
so on a fresh clone there is none, and this says so). Absolute req/s moves with the
machine's load; the ratios to redis SET measured in the same run travel better, and both
are printed.
"""
import glob
import json
import os
import sys

new_path = sys.argv[1]
# Runs are named by their UTC time: the one before is the latest name that sorts first.
others = sorted(p for p in glob.glob(os.path.join(os.path.dirname(new_path) or ".", "*.json"))
                if os.path.basename(p)[:1].isdigit() and os.path.basename(p) < os.path.basename(new_path))
if not others:
    print("previous run: none in bench-results/ to compare with")
    sys.exit(0)
old_path = others[-1]


def rows(path):
    run = json.load(open(path))
    table = {}
    for row in run["rows"]:
        herald = row["herald"]
        key = (herald["scenario"], herald["journal"], herald["connections"], herald["inFlight"])
        table[key] = (herald["requestsPerSecond"], row.get("throughputOverRedis"))
    return run["machine"].get("commit", "?"), table


old_commit, old = rows(old_path)
new_commit, new = rows(new_path)
print(f"against the previous run ({os.path.basename(old_path)}, heraldd {old_commit}; now {new_commit}):")
print(f"  {'scenario':15s} {'journal':7s} {'N×P':6s} {'req/s before':>12s} {'now':>9s} {'ratio':>6s}   ×redis before → now")
for key, (rps, redis) in new.items():
    scenario, journal, n, p = key
    line = f"  {scenario:15s} {journal:7s} {f'{n}×{p}':6s}"
    if key not in old:
        print(line + "   (not in the previous run)")
        continue
    old_rps, old_redis = old[key]
    line += f" {old_rps:12.0f} {rps:9.0f} {rps / old_rps if old_rps else 0:6.2f}"
    if redis is not None and old_redis is not None:
        line += f"   {old_redis:.2f} → {redis:.2f}"
    print(line)
