#!/usr/bin/env python3
"""One notification's path through Herald's gateway, step by step, from a `perf trace -T`
of the processes on it (`GATEWAY=steps make bench` writes one).

An app's Notify crosses the person's bus, herald-notify, heraldd, herald-notify again and
the renderer's bus before the monitor (herald-bench, beside the renderer) sees it. Each
step is found as the syscall that does it: the app's sendmsg, the bus's recvmsg of it and
sendmsg on, herald-notify's recvmsg, its write to heraldd, heraldd's read, its write of
the presenter event, herald-notify's read of that, its sendmsg of the bubble's Notify, the
renderer bus's recvmsg and sendmsg, the monitor's recvmsg. Under a standing grant (the
default; --decided for the path above), the path is the app's, the bus's, herald-notify's
recvmsg and its sendmsg of the bubble, the renderer bus's and the monitor's. A step that starts in another
process than the one before is a wakeup of that process: on a busy machine it waits for a
core. Inside herald-notify and heraldd, a step done by another thread than the step before
in the same process is a thread hop.

Whether heraldd read the notification before or after the app had its answer to Notify
(the gateway's answer wakes the app's bus and the app), with heraldd's wakeup in each case.

Off the path, per notification: the threads of herald-notify and heraldd that ran within
50 ms of the app's send, and the futex wakes they made (each wakes a thread: heraldd's
journal writer, say), which compete for the cores with the path.

    scripts/gateway-steps.py TRACE THREADS --app PID --person-bus PID --renderer-bus PID --gateway PID --heraldd PID
"""

import argparse
import re
import statistics

LINE = re.compile(r"^\s*([\d.]+) \(\s*([\d.]*)\s*(?:ms)?\): (.*?)/(\d+) (\w+)\((.*?)\)\s*(?:=\s*(.*))?$")


def read_trace(path):
    rows = []
    with open(path, errors="replace") as trace:
        for line in trace:
            match = LINE.match(line.rstrip())
            if not match:
                continue
            start, duration, comm, tid, call, args, result = match.groups()
            try:
                size = int((result or "").split()[0])
            except (ValueError, IndexError):
                size = -1
            rows.append({"t": float(start), "end": float(start) + float(duration or 0), "comm": comm, "tid": int(tid),
                         "call": call, "args": args, "size": size})
    rows.sort(key=lambda row: row["t"])
    return rows


def thread_groups(path):
    """tid -> pid, from lines `pid tid` (read from /proc/PID/task while the processes ran):
    perf trace names a thread by its tid and its own name only."""
    groups = {}
    with open(path) as threads:
        for line in threads:
            pid, tid = line.split()
            groups[int(tid)] = int(pid)
    return groups


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace")
    parser.add_argument("threads", help="lines `pid tid` of the traced processes")
    for name in ("app", "person-bus", "renderer-bus", "gateway", "heraldd"):
        parser.add_argument("--" + name, type=int, required=True)
    parser.add_argument(
        "--decided", action="store_true",
        help="trace the path through heraldd's decision (a Focus or summary holding the app), "
        "not the standing grant's; herald-bench's plain notifications go by the grant from the second on")
    options = parser.parse_args()
    rows = read_trace(options.trace)

    groups = thread_groups(options.threads)
    names = {options.app: "app", options.person_bus: "person bus", options.renderer_bus: "renderer bus",
             options.gateway: "herald-notify", options.heraldd: "heraldd"}

    def process(row):
        return names.get(groups.get(row["tid"], row["tid"]))

    def sent(row, minimum):
        return row["call"] in ("sendmsg", "sendto", "write", "writev") and row["size"] >= minimum

    def received(row, minimum):
        return row["call"] in ("recvmsg", "recvfrom", "read") and row["size"] >= minimum

    decided = [
        ("the app sends Notify", lambda r: r["tid"] == options.app and sent(r, 200)),
        ("the person's bus reads it", lambda r: r["tid"] == options.person_bus and received(r, 200)),
        ("the person's bus passes it on", lambda r: r["tid"] == options.person_bus and sent(r, 200)),
        ("herald-notify reads it", lambda r: process(r) == "herald-notify" and r["call"] == "recvmsg" and r["size"] >= 200),
        ("herald-notify writes update-content", lambda r: process(r) == "herald-notify" and r["call"] in ("sendto", "write") and r["size"] >= 100),
        ("heraldd reads it", lambda r: process(r) == "heraldd" and received(r, 100)),
        ("heraldd writes the presenter event", lambda r: process(r) == "heraldd" and r["call"] in ("write", "writev") and r["size"] >= 400),
        ("herald-notify reads the event", lambda r: process(r) == "herald-notify" and r["call"] == "read" and r["size"] >= 400),
        ("herald-notify sends the bubble's Notify", lambda r: process(r) == "herald-notify" and r["call"] == "sendmsg" and r["size"] >= 200),
        ("the renderer's bus reads it", lambda r: r["tid"] == options.renderer_bus and received(r, 200)),
        ("the renderer's bus passes it on", lambda r: r["tid"] == options.renderer_bus and sent(r, 200)),
        ("the monitor reads it", lambda r: process(r) == "app" and r["tid"] != options.app and received(r, 200)),
    ]
    # Under a standing grant herald-notify sends the bubble before it writes update-content,
    # and heraldd sends no event back. Which path was traced is said, not guessed: herald-notify
    # also reads update-content's answers, which the trace cannot tell from events.
    granted = decided[:4] + [
        ("herald-notify sends the bubble's Notify", lambda r: process(r) == "herald-notify" and r["call"] == "sendmsg" and r["size"] >= 200),
    ] + decided[9:]
    steps = decided if options.decided else granted
    if steps is granted:
        print("the granted path: heraldd is off it (--decided for the path through its decision)")
    window = 90.0  # ms: a notification's path ends before the next is sent (10/s)
    gaps = [[] for _ in steps]
    totals = []
    wakeups = []
    thread_hops = 0
    off_path = {"herald-notify": [], "heraldd": []}
    futex_wakes = {"herald-notify": [], "heraldd": []}
    answered_first, heraldd_first = [], []
    starts = [index for index, row in enumerate(rows) if steps[0][1](row)]
    for first in starts:
        index, times, done = first, [rows[first]["t"]], [rows[first]]
        for _, matches in steps[1:]:
            index += 1
            while index < len(rows) and rows[index]["t"] - times[0] < window and not matches(rows[index]):
                index += 1
            if index >= len(rows) or rows[index]["t"] - times[0] >= window:
                break
            row = rows[index]
            # Data is there when a read returns; a write has sent it when it starts.
            times.append(row["end"] if row["call"] in ("recvmsg", "recvfrom", "read") else row["t"])
            done.append(row)
        if len(times) < len(steps):
            continue
        for step in range(1, len(steps)):
            gaps[step].append(times[step] - times[step - 1])
        totals.append(times[-1] - times[0])
        woken = sum(1 for a, b in zip(done, done[1:]) if process(a) != process(b))
        wakeups.append(woken)
        thread_hops += sum(1 for a, b in zip(done, done[1:]) if process(a) == process(b) and a["tid"] != b["tid"])
        # Whether the app had its answer (its first read after the send) before heraldd read
        # the notification: both wakeups then came first on the cores.
        answer = next((r for r in rows[first + 1:] if r["tid"] == options.app and received(r, 1)), None)
        if answer is not None and steps is decided:
            (answered_first if answer["end"] < times[5] else heraldd_first).append(gaps[5][-1])
        begin = times[0]
        near = [r for r in rows[first:] if r["t"] - begin < 50.0]
        for name in off_path:
            off_path[name].append(len({r["tid"] for r in near if process(r) == name}))
            futex_wakes[name].append(
                sum(1 for r in near if process(r) == name and r["call"] == "futex" and "WAKE" in r["args"] and r["size"] > 0))

    def quantile(values, q):
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    if not totals:
        print(f"no notification's whole path is in {options.trace}: did perf trace run?")
        return
    print(f"{len(totals)} notifications traced, each step from the one before (ms):")
    print(f"  {'step':44} {'p50':>7} {'p90':>7} {'max':>7}")
    for step in range(1, len(steps)):
        values = gaps[step]
        print(f"  {steps[step][0]:44} {quantile(values, .5):7.3f} {quantile(values, .9):7.3f} {max(values):7.3f}")
    print(f"  {'the app sends to the monitor reads, in all':44} {quantile(totals, .5):7.3f} {quantile(totals, .9):7.3f} {max(totals):7.3f}")
    print(f"processes woken on the path: {statistics.median(wakeups):.0f} a notification (directly: 2, the bus and the monitor)")
    print(f"thread hops inside herald-notify and heraldd on the path: {thread_hops} in {len(totals)} notifications")
    for label, values in (("after the app had its answer", answered_first), ("before the app had its answer", heraldd_first)):
        median = f", heraldd's wakeup median {statistics.median(values):.3f} ms" if values else ""
        print(f"heraldd read the notification {label}: {len(values)} times{median}")
    for name in off_path:
        print(f"{name}: {statistics.median(off_path[name]):.0f} threads ran, {statistics.median(futex_wakes[name]):.0f} futex wakes "
              f"(median a notification, within 50 ms of its send)")


if __name__ == "__main__":
    main()
