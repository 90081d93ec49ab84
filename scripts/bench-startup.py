#!/usr/bin/env python3
"""Size, start-up times and resting memory of Herald's programs, for builds side by side.

For each folder given (one holding heraldd, heraldctl, herald-notify and herald-sync),
prints each program's size (the disk its distinct files take: hard links count once), the
median of 20 runs of each program's --version and of 10 starts of heraldd until its first
answer on a socket (get-focus), and heraldd's memory 5 s after a start with no client and
again at rest (30 s later, when it has let go of its code pages): VmRSS, RssAnon and RssFile
from /proc/PID/status and, from /proc/PID/smaps, the resident part of heraldd's own file
(all of it, and its executable segment); then the time of the first three requests after
the rest, each on a connection of its own (the first maps again the code it runs).

Usage: scripts/bench-startup.py DIR [DIR…]
  e.g. a stripped static build (as make install installs) beside a dynamic one.
"""
import os, shutil, socket, statistics, subprocess, sys, tempfile, time


def version_ms(binary, runs=20):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([binary, "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def first_answer_ms(heraldd, runs=10):
    times = []
    for _ in range(runs):
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "h.sock")
        start = time.perf_counter()
        daemon = subprocess.Popen([heraldd, "--socket", path, "--state-dir", os.path.join(folder, "state"), "--log-target", "none"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while True:
            try:
                client = socket.socket(socket.AF_UNIX)
                client.connect(path)
                client.sendall(b'{"jsonrpc":"2.0","id":1,"method":"get-focus"}\n')
                if b'"result"' in client.recv(65536):
                    break
            except OSError:
                time.sleep(0.001)
        times.append(time.perf_counter() - start)
        daemon.terminate()
        daemon.wait()
        shutil.rmtree(folder)
    return statistics.median(times) * 1000


def memory_of(pid):
    """`pid`'s VmRSS, RssAnon and RssFile, and the resident part of its own program file (all
    of it, and its executable segment), in kB."""
    status = {}
    with open(f"/proc/{pid}/status") as lines:
        for line in lines:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile"):
                status[name] = int(value.split()[0])
    program = os.path.realpath(f"/proc/{pid}/exe")
    own = own_executable = 0
    mapping_is_own = mapping_is_executable = False
    with open(f"/proc/{pid}/smaps") as lines:
        for line in lines:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5 and all(c in "0123456789abcdef-" for c in fields[0]):
                mapping_is_own = len(fields) >= 6 and fields[5] == program
                mapping_is_executable = "x" in fields[1]
            elif fields[0] == "Rss:" and mapping_is_own:
                own += int(fields[1])
                if mapping_is_executable:
                    own_executable += int(fields[1])
    return status, own, own_executable


# heraldd comes to rest a whole spell (MemoryTrim.restAfter, 30 s) after its last request;
# with no client, 30 s after its start.
REST_AFTER = 30.0


def resting_memory(heraldd, settle=5.0):
    """heraldd's memory (``memory_of``) `settle` seconds after it started with no client, and
    again once it came to rest (`settle` seconds after ``REST_AFTER``)."""
    folder = tempfile.mkdtemp()
    daemon = subprocess.Popen([heraldd, "--socket", os.path.join(folder, "h.sock"), "--state-dir", os.path.join(folder, "state"),
                               "--log-target", "none"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(settle)
    started = memory_of(daemon.pid)
    time.sleep(REST_AFTER)
    rested = memory_of(daemon.pid)
    # What the rest costs the next request: its code mapped again, page by page.
    answers = [answer_ms(os.path.join(folder, "h.sock")) for _ in range(3)]
    daemon.terminate()
    daemon.wait()
    shutil.rmtree(folder)
    return started, rested, answers


def answer_ms(path):
    """The time of one get-focus on a new connection to `path`, in ms."""
    start = time.perf_counter()
    client = socket.socket(socket.AF_UNIX)
    client.connect(path)
    client.sendall(b'{"jsonrpc":"2.0","id":1,"method":"get-focus"}\n')
    reply = b""
    while b"\n" not in reply:
        reply += client.recv(65536)
    client.close()
    return (time.perf_counter() - start) * 1000


def megabytes(kilobytes):
    return f"{kilobytes / 1000:.1f} MB"


PROGRAMS = ("heraldd", "heraldctl", "herald-notify", "herald-sync")

for folder in sys.argv[1:]:
    files = {}
    for name in PROGRAMS:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            status = os.stat(path)
            files[(status.st_dev, status.st_ino)] = status.st_size
    sizes = ", ".join(f"{name} {os.path.getsize(os.path.join(folder, name)) / 1e6:.1f} MB" for name in PROGRAMS
                      if os.path.exists(os.path.join(folder, name)))
    print(f"{folder}: size {sizes}; on disk {sum(files.values()) / 1e6:.1f} MB")
    figures = ", ".join(f"{name} --version {version_ms(os.path.join(folder, name)):.1f} ms" for name in ("heraldd", "heraldctl", "herald-notify"))
    print(f"{folder}: {figures}, heraldd start to first answer {first_answer_ms(os.path.join(folder, 'heraldd')):.1f} ms")
    started, rested, answers = resting_memory(os.path.join(folder, "heraldd"))
    for when, (status, own, own_executable) in (("after start", started), ("at rest", rested)):
        print(f"{folder}: heraldd {when} VmRSS {megabytes(status['VmRSS'])}, RssAnon {megabytes(status['RssAnon'])}, "
              f"RssFile {megabytes(status['RssFile'])}; its own file {megabytes(own)}, of which executable {megabytes(own_executable)}")
    print(f"{folder}: heraldd's first three answers after its rest: " + ", ".join(f"{ms:.2f} ms" for ms in answers))
