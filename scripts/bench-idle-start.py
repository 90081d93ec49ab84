#!/usr/bin/env python3
"""Coming back after --exit-idle-time: from a client's first connection to its first
answer, with heraldd started as systemd starts it on that connection, beside the same
start with nothing to restore, in one run.

    python3 scripts/bench-idle-start.py BIN [INTERACTIONS [NOTIFICATIONS]]

BIN holds a release heraldd and herald-bench. `herald-bench snapshot-payload` writes the
state folder once: INTERACTIONS of bench-snapshot's shape (500,000 by default) and
NOTIFICATIONS in one uid's list (100,000). Then, RUNS times (5, environment) for each
folder, the filled one and an empty one in turn: systemd-socket-activate listens, a client
connects and sends get-focus, which starts heraldd (socket activation, as herald.socket
does), and the time from connect() to the answer's last byte is taken; heraldd is then
stopped with SIGTERM (nothing changed: no snapshot to write). Prints the fill's own
figures for the in-process restore, then the median, fastest and slowest of each, and of
the CPU time heraldd had used by the answer (all its threads: a figure other load on a
shared machine disturbs less than the wall time).
"""
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1]
INTERACTIONS = int(sys.argv[2]) if len(sys.argv) > 2 else 500_000
NOTIFICATIONS = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
RUNS = int(os.environ.get("RUNS", "5"))
HERALDD = os.path.join(BIN, "heraldd")
# The limits that let one uid's list and store hold what the fill put there.
LIMITS = [
    "--max-interactions", str(max(1_000_000, INTERACTIONS * 2)),
    "--max-interactions-per-uid", str(max(500_000, INTERACTIONS * 2)),
    "--max-notifications", str(max(10_000, NOTIFICATIONS * 2)),
    "--max-notification-bytes", str(1 << 34),
]


def cpu_ms(pid):
    """The CPU time all of process `pid`'s threads used so far (user and system), in ms."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def first_answer_ms(folder):
    """One start on the first connection: milliseconds from connect() to the answer, and
    the CPU milliseconds heraldd used by then (systemd-socket-activate execs it in place)."""
    work = tempfile.mkdtemp(prefix="herald-idle-start-")
    path = os.path.join(work, "herald.sock")
    daemon = subprocess.Popen(
        ["systemd-socket-activate", f"--listen={path}", "--fdname=herald", HERALDD, "--state-dir", folder,
         "--log-target", "none"] + LIMITS,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not os.path.exists(path):
            time.sleep(0.005)
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        start = time.perf_counter()
        client.connect(path)
        client.sendall(b'{"jsonrpc":"2.0","id":1,"method":"get-focus"}\n')
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = client.recv(65536)
            if not chunk:
                raise SystemExit(f"heraldd closed without answering ({folder})")
            answer += chunk
        elapsed = (time.perf_counter() - start) * 1000
        cpu = cpu_ms(daemon.pid)
        if b'"result"' not in answer:
            raise SystemExit(f"get-focus answered {answer!r}")
        client.close()
        return elapsed, cpu
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait()
        shutil.rmtree(work)


def main():
    root = tempfile.mkdtemp(prefix="herald-idle-state-")
    filled = os.path.join(root, "filled")
    empty = os.path.join(root, "empty")
    os.makedirs(empty)
    try:
        fill = subprocess.run(
            [os.path.join(BIN, "herald-bench"), "snapshot-payload", "--interactions", str(INTERACTIONS),
             "--notifications", str(NOTIFICATIONS), "--folder", filled, "--repeats", "1"],
            stdout=subprocess.PIPE, text=True, check=True)
        # The file's size, and the in-process restore's stages, as snapshot-payload times them.
        stages = [line.strip() for line in fill.stdout.splitlines()
                  if line.startswith("snapshot payload") or line.strip().startswith(("restore", "decode alone"))]
        os.chmod(filled, 0o700)
        times = {"filled": [], "empty": []}
        for _ in range(RUNS):
            times["filled"].append(first_answer_ms(filled))
            times["empty"].append(first_answer_ms(empty))
        print(f"heraldd started on its first connection: {INTERACTIONS:,} interactions and {NOTIFICATIONS:,} "
              f"notifications to restore, beside none ({RUNS} runs each, {os.cpu_count()} CPUs)")
        for line in stages:
            print(f"  {line}")
        for name, label in (("filled", "with the state"), ("empty", "empty state")):
            walls = [wall for wall, _ in times[name]]
            cpus = [cpu for _, cpu in times[name]]
            print(f"  first connection to first answer, {label}: median {statistics.median(walls):.0f} ms "
                  f"(fastest {min(walls):.0f}, slowest {max(walls):.0f}); heraldd's CPU by then: median "
                  f"{statistics.median(cpus):.0f} ms (least {min(cpus):.0f}, most {max(cpus):.0f})")
    finally:
        shutil.rmtree(root)


main()
