#!/usr/bin/env python3
"""herald-bench load's own CPU time per request: two herald-bench builds side by side.

    python3 scripts/bench-generator.py --heraldd .build-bench/release/heraldd \\
        --reference /path/to/old/herald-bench --new .build-bench/release/herald-bench

Each round runs every scenario once with each generator, in turns (which goes first
alternates), each against a fresh heraldd (journal off, a state folder of its own), for a
fixed number of lines, and reads the generator's user and system time from wait4: the
generator's cost alone, which a shared machine disturbs least, since time spent waiting for
a CPU is not counted. Prints, per scenario, each generator's CPU µs per request (median
[min–max] over the rounds) and new over reference per round.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# scenario, connections, lines in flight per connection, lines per connection
SCENARIOS = [("donate", 1, 1, 20000), ("donate", 16, 16, 4000), ("donate-batch", 16, 1, 100), ("request-focus", 16, 16, 4000)]


def serve(heraldd, folder, index):
    socket = os.path.join(folder, f"h{index}.sock")
    server = subprocess.Popen(
        [heraldd, "--socket", socket, "--log-target", "none", "--state-dir", os.path.join(folder, f"state{index}")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        if os.path.exists(socket):
            return server, socket
        time.sleep(0.05)
    server.kill()
    sys.exit(f"{heraldd} did not start")


def measure(bench, heraldd, folder, index, scenario, n, p, lines):
    """The generator's CPU µs per request answered, and its figures."""
    server, socket = serve(heraldd, folder, index)
    try:
        run = subprocess.Popen(
            [bench, "load", "--socket", socket, "--scenario", scenario, "--connections", str(n), "--in-flight", str(p),
             "--lines", str(lines)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        output = run.stdout.read()
        _, status, usage = os.wait4(run.pid, 0)
        run.returncode = os.waitstatus_to_exitcode(status)
    finally:
        server.terminate()
        server.wait()
    if run.returncode != 0:
        sys.exit(f"{bench} load failed ({run.returncode})")
    figures = json.loads(output)
    requests = figures["answeredLines"] * figures["requestsPerLine"]
    if figures["errors"] or requests != n * lines * figures["requestsPerLine"]:
        sys.exit(f"{bench}: {figures['errors']} errors, {requests} requests answered: {figures['errorSamples']}")
    return (usage.ru_utime + usage.ru_stime) * 1e6 / requests


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--heraldd", required=True)
    parser.add_argument("--reference", required=True, help="the herald-bench to compare with")
    parser.add_argument("--new", required=True, help="the herald-bench measured")
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="herald-generator.")
    figures = {}
    index = 0
    for round in range(arguments.rounds):
        for scenario, n, p, lines in SCENARIOS:
            order = [("reference", arguments.reference), ("new", arguments.new)]
            if round % 2:
                order.reverse()
            for label, bench in order:
                index += 1
                cost = measure(bench, arguments.heraldd, folder, index, scenario, n, p, lines)
                figures.setdefault((scenario, n, p), {}).setdefault(label, []).append(cost)
    print("| scenario | N×P | reference CPU µs/req | new CPU µs/req | new/reference per round |")
    print("|---|---|---|---|---|")
    for (scenario, n, p), costs in figures.items():
        def spread(values):
            return f"{statistics.median(values):.3f} [{min(values):.3f}–{max(values):.3f}]"
        ratios = " ".join(f"{new / old:.2f}" for old, new in zip(costs["reference"], costs["new"]))
        print(f"| {scenario} | {n}×{p} | {spread(costs['reference'])} | {spread(costs['new'])} | {ratios} |")


if __name__ == "__main__":
    main()
