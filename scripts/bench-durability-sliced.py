#!/usr/bin/env python3
"""`make bench-durability-sliced`: heraldd's CPU a request in each --durability mode, every
mode's heraldd running at once and taking turns by the second.

`scripts/bench-durability.sh` runs the modes one after the other: on these shared machines the
CPU time a request costs drifts by a quarter from one run to the next, more than issue 44's
goal (the default at most 1.15x `snapshot`'s CPU a request) leaves between them. Here each
mode has its own heraldd and its own `herald-bench load` (16 connections x 16 in flight),
started together; the loads are stopped (SIGSTOP) and let go in turn, SLICE seconds each,
the order reversed every round, so that whatever the machine does over a minute falls on
every mode alike. A heraldd whose load is stopped answers what is in flight and sleeps (it
wakes for nothing at rest: docs/performance.md, "At rest"), so each one's CPU time over the
whole run — its compactions' snapshots and its log's syncs among it, whenever they run —
over the requests it answered is its CPU a request.

    python3 scripts/bench-durability-sliced.py
    SLICES=60 SCENARIO=update-content python3 scripts/bench-durability-sliced.py
    SERVERS="snapshot=/bin/dir:snapshot base=/old/bin:log-everysec new=/new/bin:log-everysec" \\
        python3 scripts/bench-durability-sliced.py

PERF=file.data also records every heraldd with `perf record -g` over the measured rounds
(their pids printed first), to tell apart what each spends a request.

SERVERS: name=folder:mode, the first the one the others are compared to (default: this
checkout's release build in `snapshot` and `log-everysec`). Each heraldd keeps its state in
a folder of its own under /tmp, the journal off. The mode `nio` serves with the folder's
`herald-bench floor --nio` instead: the SwiftNIO floor (issue 46's reference), answering
each line with a line of the first heraldd's answer size (a second of load on it first
finds that size); its requests are the bytes it wrote (`wchar` of /proc/PID/io) over that
size, since it keeps no counts. Prints one line a server: requests a second
in its slices, CPU microseconds a request, and over the first: the ratio over the whole run
and by round (median [min-max]).
"""
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

SCENARIO = os.environ.get("SCENARIO", "donate")
SLICE = float(os.environ.get("SLICE", "1"))
SLICES = int(os.environ.get("SLICES", "30"))
# After each slice: the in-flight answers drain before the stats are read.
DRAIN = 0.2
TICK = os.sysconf("SC_CLK_TCK")


def default_servers():
    folder = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], capture_output=True, text=True,
                            check=True).stdout.strip()
    return [("snapshot", folder, "snapshot"), ("default", folder, "log-everysec")]


def parse_servers(text):
    servers = []
    for item in text.split():
        name, rest = item.split("=", 1)
        folder, mode = rest.rsplit(":", 1)
        servers.append((name, folder, mode))
    return servers


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def answered(sock, floor=None):
    """Requests of the scenario's method heraldd answered (`stats.methods`); for a floor
    server, (pid, answer size), the lines it wrote."""
    if floor:
        pid, size = floor
        for line in open(f"/proc/{pid}/io"):
            if line.startswith("wchar:"):
                return int(line.split()[1]) // size
        raise SystemExit(f"bench-durability-sliced: no wchar in /proc/{pid}/io")
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock)
        s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"stats"}\n')
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                raise SystemExit(f"bench-durability-sliced: {sock} closed before answering stats")
            data += chunk
    return json.loads(data)["result"]["methods"].get(SCENARIO, {}).get("requests", 0)


def main():
    servers = parse_servers(os.environ["SERVERS"]) if os.environ.get("SERVERS") else default_servers()
    run = tempfile.mkdtemp(prefix="herald-sliced.")
    daemons, loads, perf = [], [], None
    try:
        def listening(name, sock):
            for _ in range(200):
                if os.path.exists(sock):
                    return
                time.sleep(0.05)
            raise SystemExit(f"bench-durability-sliced: {name}'s server never listened")

        # One load generator for all: the first folder that has one.
        load_bin = next((folder for _, folder, _ in servers if os.path.exists(f"{folder}/herald-bench")), None)
        if load_bin is None:
            raise SystemExit("bench-durability-sliced: no folder in SERVERS has herald-bench")
        if servers[0][2] == "nio":
            raise SystemExit("bench-durability-sliced: the first server must be a heraldd")
        daemons = [None] * len(servers)
        # Every heraldd first: a floor answers with lines of the first one's answer size.
        for index, (name, folder, mode) in enumerate(servers):
            if mode == "nio":
                continue
            sock = f"{run}/sock{index}"
            daemon = subprocess.Popen(
                [f"{folder}/heraldd", "--socket", sock, "--state-dir", f"{run}/state{index}", "--log-target", "none",
                 "--durability", mode], stderr=open(f"{run}/heraldd{index}.err", "w"))
            daemons[index] = (name, daemon, sock, None)
            listening(name, sock)
        if any(mode == "nio" for _, _, mode in servers):
            probe = subprocess.run(
                [f"{load_bin}/herald-bench", "load", "--socket", daemons[0][2], "--scenario", SCENARIO, "--connections",
                 "1", "--in-flight", "1", "--duration", "1", "--warmup", "0"], capture_output=True, text=True, check=True)
            size = int(re.search(r'"responseBytes":(\d+)', probe.stdout).group(1))
            for index, (name, folder, mode) in enumerate(servers):
                if mode != "nio":
                    continue
                sock = f"{run}/sock{index}"
                floor = subprocess.Popen(
                    [f"{folder}/herald-bench", "floor", "--nio", "--socket", sock, "--response-bytes", str(size)],
                    stdout=subprocess.DEVNULL, stderr=open(f"{run}/floor{index}.err", "w"))
                daemons[index] = (name, floor, sock, (floor.pid, size))
                listening(name, sock)
        # Long enough for every slice and the reads between them; stopped at the end.
        duration = (SLICE + 1) * SLICES * len(servers) * 4 + 60
        for _, _, sock, _ in daemons:
            load = subprocess.Popen(
                [f"{load_bin}/herald-bench", "load", "--socket", sock, "--scenario", SCENARIO, "--connections", "16",
                 "--in-flight", "16", "--duration", str(duration), "--warmup", "0"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            load.send_signal(signal.SIGSTOP)
            loads.append(load)
        for load in loads:  # A second each, unmeasured.
            load.send_signal(signal.SIGCONT)
            time.sleep(1)
            load.send_signal(signal.SIGSTOP)
            time.sleep(DRAIN)

        start = [(cpu_seconds(d.pid), answered(sock, floor)) for _, d, sock, floor in daemons]
        if os.environ.get("PERF"):
            print("bench-durability-sliced: pids " + ", ".join(f"{name} {d.pid}" for name, d, _, _ in daemons), flush=True)
            perf = subprocess.Popen(
                ["perf", "record", "-F", "999", "-g", "-o", os.environ["PERF"], "-p", ",".join(str(d.pid) for _, d, _, _ in daemons)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        by_round = [[] for _ in daemons]
        for round_number in range(SLICES):
            order = range(len(daemons)) if round_number % 2 == 0 else reversed(range(len(daemons)))
            for index in order:
                _, daemon, sock, floor = daemons[index]
                cpu, requests = cpu_seconds(daemon.pid), answered(sock, floor)
                loads[index].send_signal(signal.SIGCONT)
                time.sleep(SLICE)
                loads[index].send_signal(signal.SIGSTOP)
                time.sleep(DRAIN)
                by_round[index].append((cpu_seconds(daemon.pid) - cpu, answered(sock, floor) - requests))
        time.sleep(2)  # A compaction still running is counted with its heraldd.
        if perf:
            perf.send_signal(signal.SIGINT)
            perf.wait()
        whole = []
        for (cpu, requests), (_, daemon, sock, floor) in zip(start, daemons):
            whole.append((cpu_seconds(daemon.pid) - cpu, answered(sock, floor) - requests))

        base_cpu, base_requests = whole[0]
        print(f"bench-durability-sliced: {SCENARIO} 16x16, {SLICES} rounds of {SLICE:g} s each, "
              f"load average {open('/proc/loadavg').read().split()[0]}")
        for index, ((name, _, mode), (cpu, requests)) in enumerate(zip(servers, whole)):
            line = (f"{name} ({mode}): {requests / (SLICE * SLICES):,.0f} req/s in its slices, "
                    f"{cpu * 1e6 / requests:.2f} µs CPU/request")
            if index > 0:
                ratios = [(c / r) / (bc / br) for (c, r), (bc, br) in zip(by_round[index], by_round[0]) if r and br]
                line += (f"; over {servers[0][0]}: {(cpu / requests) / (base_cpu / base_requests):.3f}x, by round "
                         f"{statistics.median(ratios):.3f}x [{min(ratios):.2f}-{max(ratios):.2f}]")
            print(line, flush=True)
    finally:
        if perf and perf.poll() is None:
            perf.send_signal(signal.SIGINT)
            perf.wait()
        for load in loads:
            load.send_signal(signal.SIGCONT)
            load.kill()
            load.wait()
        for _, daemon, _, _ in filter(None, daemons):
            daemon.terminate()
            daemon.wait()
        shutil.rmtree(run, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
