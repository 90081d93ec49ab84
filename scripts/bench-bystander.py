#!/usr/bin/env python3
"""A bystander uid's simple request while one uid does its worst (issue 49): for each worst
case, a fresh heraldd, the attacker's list set up, then the bystander's `get-cooldown`, one
at a time on one connection, for SECONDS alone and SECONDS while the attacker repeats its
worst request on a connection of its own. One JSON line per case (`"kind":"bystander"`),
which `herald-bench report` tables beside the others.

    python3 scripts/bench-bystander.py HERALDD [SECONDS] [CASE ...]

Cases:
  remove-all          10,000 shop notifications (order and tracking numbers), removed
                      with `all: true` and posted again, in batches of 1,000
  search-one-letter   a search of sixteen one-letter words over 10,000 of them
  restore-most        `remove-notifications` of 500 identifiers by the person, then
                      `restore-notifications` of those 500 (the most one call takes)
  conversations-long  `list-conversations` of 1,000 conversations whose identifiers are
                      256 bytes of combining marks (the longest allowed)
  subscribe-since     batches of 200 `subscribe-notifications` with `since` over 10,000,
                      on a connection that reads nothing, closed after a second

As root the attacker is uid 65533 and the bystander uid 65534 (a socket open to every uid);
otherwise both are the caller's uid, on connections of their own ("sameUID": true).
"""
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

CASES = ["remove-all", "search-one-letter", "restore-most", "conversations-long", "subscribe-since"]
APP = "org.example.shop"
# Sixteen one-letter words, the slowest search there is (issue 49).
ONE_LETTERS = "o s t a y 1 2 3 4 5 6 7 8 9 0 z"


def connect(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    return s, s.makefile("rb")


def call(c, obj):
    c[0].sendall(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
    return c[1].readline()


def req(i, method, params):
    return {"jsonrpc": "2.0", "id": i, "method": method, "params": params}


def post_all(c, first=0, count=10_000):
    for start in range(first, first + count, 1000):
        line = call(c, [req(i, "update-content", {
            "app": APP, "identifier": f"o{i}",
            "content": {"title": "Your order shipped", "body": f"Order {100000 + i} shipped, tracking 1Z{i * 7919:09d} arrives soon"}})
            for i in range(start, min(start + 1000, first + count))])
        if b'"error"' in line:
            sys.exit(f"update-content failed: {line[:300]}")


def long_identifier(i):
    # 256 bytes of UTF-8, the longest allowed: a letter and 125 combining marks, one
    # grapheme cluster (issue 49 had 16 KB ones, before identifiers were bounded).
    return f"c{i:04d}" + "a" + "\u0301" * ((256 - 6) // 2)


def setup(path, case):
    c = connect(path)
    if case == "conversations-long":
        for start in range(0, 1000, 100):
            line = call(c, [req(i, "set-conversation", {"app": APP, "conversationIdentifier": long_identifier(i), "mute": {"seconds": 86400}})
                            for i in range(start, start + 100)])
            if b'"error"' in line:
                sys.exit(f"set-conversation failed: {line[:300]}")
    else:
        post_all(c)


def worst(path, case, seconds):
    """Repeats the case's worst request until SECONDS have passed; prints its count and median."""
    c = connect(path)
    durations = []
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        i += 1
        began = time.perf_counter()
        if case == "remove-all":
            line = call(c, req(i, "remove-notifications", {"app": APP, "all": True}))
            post_all(c)
        elif case == "search-one-letter":
            line = call(c, req(i, "search-notifications", {"query": ONE_LETTERS, "limit": 500}))
        elif case == "restore-most":
            ids = [f"o{(i * 500 + k) % 10_000}" for k in range(500)]
            line = call(c, req(i, "remove-notifications", {"app": APP, "identifiers": ids}))
            line = call(c, req(i, "restore-notifications", {"app": APP, "identifiers": ids}))
        elif case == "conversations-long":
            line = call(c, req(i, "list-conversations", {}))
        elif case == "subscribe-since":
            quiet = connect(path)
            batch = [req(k, "subscribe-notifications", {"since": "2000-01-01T00:00:00Z"}) for k in range(200)]
            quiet[0].sendall(json.dumps(batch, separators=(",", ":")).encode() + b"\n")
            time.sleep(1)
            quiet[0].close()
            line = b'"result"'
        durations.append(time.perf_counter() - began)
        if b'"result"' not in line:
            sys.exit(f"{case} failed: {line[:300]}")
    print(json.dumps({"requests": len(durations), "medianMs": statistics.median(durations) * 1000}))


def bystander(path, seconds):
    """`get-cooldown` one at a time for SECONDS; prints the latencies' figures in ms."""
    c = connect(path)
    latencies = []
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        i += 1
        began = time.perf_counter()
        line = call(c, req(i, "get-cooldown", {}))
        latencies.append(time.perf_counter() - began)
        if b'"result"' not in line:
            sys.exit(f"get-cooldown failed: {line[:300]}")
    latencies.sort()
    print(json.dumps({"answered": len(latencies), "p50Ms": latencies[len(latencies) // 2] * 1000,
                      "p99Ms": latencies[int(len(latencies) * 0.99)] * 1000, "maxMs": latencies[-1] * 1000}))


def as_uid(uid):
    return {} if uid is None else {"user": uid, "group": uid, "extra_groups": []}


def run_case(binary, case, seconds):
    folder = tempfile.mkdtemp(prefix="herald-bystander.")
    os.chmod(folder, 0o755)
    path = os.path.join(folder, "s.sock")
    root = os.getuid() == 0
    attacker, watcher = (65533, 65534) if root else (None, None)
    daemon = subprocess.Popen([binary, "--socket", path, "--socket-mode", "0666", "--state-dir", folder + "/state",
                               "--log-target", "none", "--snapshot-interval", "0"], stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            if os.path.exists(path):
                break
            time.sleep(0.05)
        # The other uids run a copy of this script by the system's python3: the caller's
        # own interpreter and checkout may be closed to them.
        script = os.path.join(folder, "bench-bystander.py")
        shutil.copy(os.path.abspath(__file__), script)
        os.chmod(script, 0o755)
        me = ["/usr/bin/python3" if root else sys.executable, script, "--role"]
        subprocess.run(me + ["setup", path, case], check=True, **as_uid(attacker))
        alone = json.loads(subprocess.run(me + ["bystander", path, str(seconds)], check=True, capture_output=True,
                                          **as_uid(watcher)).stdout)
        load = subprocess.Popen(me + ["worst", path, case, str(seconds + 1.5)], stdout=subprocess.PIPE, **as_uid(attacker))
        time.sleep(0.5)
        during = json.loads(subprocess.run(me + ["bystander", path, str(seconds)], check=True, capture_output=True,
                                           **as_uid(watcher)).stdout)
        worst_figures = json.loads(load.communicate()[0])
        if load.returncode != 0:
            sys.exit(f"{case}: the attacker failed")
    finally:
        daemon.terminate()
        daemon.wait()
        subprocess.run(["rm", "-rf", folder])
    return {"kind": "bystander", "case": case, "sameUID": not root, "seconds": seconds,
            "worstRequests": worst_figures["requests"], "worstMedianMs": round(worst_figures["medianMs"], 3),
            "aloneAnswered": alone["answered"], "aloneP50Ms": round(alone["p50Ms"], 3), "aloneP99Ms": round(alone["p99Ms"], 3),
            "aloneMaxMs": round(alone["maxMs"], 3),
            "answered": during["answered"], "p50Ms": round(during["p50Ms"], 3), "p99Ms": round(during["p99Ms"], 3),
            "maxMs": round(during["maxMs"], 3)}


if __name__ == "__main__":
    if sys.argv[1] == "--role":
        role = sys.argv[2]
        if role == "setup":
            setup(sys.argv[3], sys.argv[4])
        elif role == "worst":
            worst(sys.argv[3], sys.argv[4], float(sys.argv[5]))
        else:
            bystander(sys.argv[3], float(sys.argv[4]))
        sys.exit(0)
    binary = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5
    for case in sys.argv[3:] or CASES:
        print(json.dumps(run_case(binary, case, seconds), separators=(",", ":")), flush=True)
