#!/usr/bin/env python3
"""Start-up times of Herald's programs, for builds side by side.

For each folder given (one holding heraldd, heraldctl and herald-notify), prints the
median of 20 runs of each program's --version and of 10 starts of heraldd until its first
answer on a socket (get-focus).

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


for folder in sys.argv[1:]:
    figures = ", ".join(f"{name} --version {version_ms(os.path.join(folder, name)):.1f} ms" for name in ("heraldd", "heraldctl", "herald-notify"))
    print(f"{folder}: {figures}, heraldd start to first answer {first_answer_ms(os.path.join(folder, 'heraldd')):.1f} ms")
