#!/usr/bin/env python3
"""Coming back after --exit-idle-time: from a client's first connection to its first
answer, with heraldd started as systemd starts it on that connection, beside the same
start with nothing to restore, in one run.

    python3 scripts/bench-idle-start.py BIN [INTERACTIONS [NOTIFICATIONS]]
    REFERENCE=OTHER_BIN python3 scripts/bench-idle-start.py BIN …   # beside another build

BIN holds a release heraldd and herald-bench. `herald-bench snapshot-payload` writes the
state folder once: INTERACTIONS of bench-snapshot's shape (500,000 by default) and
NOTIFICATIONS in one uid's list (100,000). Then, RUNS times (5, environment) for each
folder, the filled one and an empty one in turn: systemd-socket-activate listens, a client
connects and sends get-focus, which starts heraldd (socket activation, as herald.socket
does), and the time from connect() to the answer's last byte is taken; then `stats` on
the same connection, which needs the interactions and notifications, and the time from the
same connect() to its answer, with heraldd's CPU time by then; heraldd is then stopped with SIGTERM (nothing changed: no
snapshot to write). Prints the fill's own figures for the in-process restore, then the
median, fastest and slowest of each, and of the CPU time heraldd had used by the first
answer (all its threads: a figure other load on a shared machine disturbs less than the
wall time). With REFERENCE, the heraldd there is started the same way in the same runs,
in turn with this one, on folders of the same state that its own herald-bench wrote (a
build may read a format the other does not): a before and after in one run.
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
# Each build's name and folder of programs.
DAEMONS = [("this build", BIN)]
if os.environ.get("REFERENCE"):
    DAEMONS.append(("reference", os.environ["REFERENCE"]))
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


def answer(client, request):
    """The answer line to `request` on `client`."""
    client.sendall(request)
    line = b""
    while not line.endswith(b"\n"):
        chunk = client.recv(65536)
        if not chunk:
            raise SystemExit("heraldd closed without answering")
        line += chunk
    return line


def first_answer_ms(heraldd, folder):
    """One start on the first connection: milliseconds from connect() to the answer, the
    CPU milliseconds heraldd used by then (systemd-socket-activate execs it in place), and
    milliseconds from the same connect() to the answer of a `stats` sent after it, and the
    CPU milliseconds heraldd used by that answer."""
    work = tempfile.mkdtemp(prefix="herald-idle-start-")
    path = os.path.join(work, "herald.sock")
    daemon = subprocess.Popen(
        ["systemd-socket-activate", f"--listen={path}", "--fdname=herald", heraldd, "--state-dir", folder,
         "--log-target", "none"] + LIMITS,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not os.path.exists(path):
            time.sleep(0.005)
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        start = time.perf_counter()
        client.connect(path)
        focus = answer(client, b'{"jsonrpc":"2.0","id":1,"method":"get-focus"}\n')
        elapsed = (time.perf_counter() - start) * 1000
        cpu = cpu_ms(daemon.pid)
        if b'"result"' not in focus:
            raise SystemExit(f"get-focus answered {focus!r}")
        stats = answer(client, b'{"jsonrpc":"2.0","id":2,"method":"stats"}\n')
        whole = (time.perf_counter() - start) * 1000
        whole_cpu = cpu_ms(daemon.pid)
        if b'"result"' not in stats:
            raise SystemExit(f"stats answered {stats[:200]!r}")
        client.close()
        return elapsed, cpu, whole, whole_cpu
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait()
        shutil.rmtree(work)


def main():
    root = tempfile.mkdtemp(prefix="herald-idle-state-")
    try:
        filled = {}
        empty = {}
        stages = []
        for daemon, programs in DAEMONS:
            # An empty folder each too: a heraldd that exits may leave a snapshot there.
            empty[daemon] = os.path.join(root, f"empty-{len(empty)}")
            os.makedirs(empty[daemon])
            filled[daemon] = os.path.join(root, f"filled-{len(filled)}")
            fill = subprocess.run(
                [os.path.join(programs, "herald-bench"), "snapshot-payload", "--interactions", str(INTERACTIONS),
                 "--notifications", str(NOTIFICATIONS), "--folder", filled[daemon], "--repeats", "1"],
                stdout=subprocess.PIPE, text=True, check=True)
            # The file's size, and the in-process restore's stages, as snapshot-payload times them.
            stages += [f"{daemon}: {line.strip()}" for line in fill.stdout.splitlines()
                       if line.startswith("snapshot payload") or line.strip().startswith(("restore", "decode alone"))]
            os.chmod(filled[daemon], 0o700)
        times = {(daemon, name): [] for daemon, _ in DAEMONS for name in ("filled", "empty")}
        for _ in range(RUNS):
            for daemon, programs in DAEMONS:
                heraldd = os.path.join(programs, "heraldd")
                times[(daemon, "filled")].append(first_answer_ms(heraldd, filled[daemon]))
                times[(daemon, "empty")].append(first_answer_ms(heraldd, empty[daemon]))
        print(f"heraldd started on its first connection: {INTERACTIONS:,} interactions and {NOTIFICATIONS:,} "
              f"notifications to restore, beside none ({RUNS} runs each, {os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.1f})")
        for line in stages:
            print(f"  {line}")
        for (daemon, name), runs in times.items():
            label = f"{daemon}, " + ("with the state" if name == "filled" else "empty state")
            walls = [run[0] for run in runs]
            cpus = [run[1] for run in runs]
            wholes = [run[2] for run in runs]
            whole_cpus = [run[3] for run in runs]
            print(f"  first connection to first answer, {label}: median {statistics.median(walls):.0f} ms "
                  f"(fastest {min(walls):.0f}, slowest {max(walls):.0f}); heraldd's CPU by then: median "
                  f"{statistics.median(cpus):.0f} ms (least {min(cpus):.0f}, most {max(cpus):.0f}); "
                  f"to the answer of stats after it: median {statistics.median(wholes):.0f} ms "
                  f"(fastest {min(wholes):.0f}, slowest {max(wholes):.0f}); heraldd's CPU by then: median "
                  f"{statistics.median(whole_cpus):.0f} ms (least {min(whole_cpus):.0f}, most {max(whole_cpus):.0f})")
    finally:
        shutil.rmtree(root)


main()
