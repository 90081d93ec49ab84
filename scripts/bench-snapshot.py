#!/usr/bin/env python3
"""The snapshot benchmark: fills a release heraldd with N interactions over its socket,
then measures a snapshot's duration and size, the restart that restores it, resident
memory per interaction (and per notification, with NOTIFICATIONS), and donate's latency with and without a snapshot being written.

    python3 scripts/bench-snapshot.py HERALDD [N]        (make bench-snapshot)

NOTIFICATIONS=K (environment) also puts K notifications in the notification list (one
uid's, with --max-notifications raised to hold them) before the snapshot is measured.

Every request is a `donate` of a typical shape: an incoming message with a sender and one
recipient. Latency is measured by one client sending one request at a time (closed loop),
so it includes this Python client's own time; compare the two runs, not absolute numbers.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

BINARY = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
BATCH = 1000
NOTIFICATIONS = int(os.environ.get("NOTIFICATIONS", "0"))


def donation(i, rid):
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "donate",
        "params": {
            "app": "org.example.chat",
            "interaction": {
                "identifier": f"m{i}",
                "direction": "incoming",
                "intent": {
                    "type": "sendMessage",
                    "sender": {"handle": {"value": f"user{i % 5000}@example.org", "type": "emailAddress"},
                               "displayName": f"User {i % 5000}"},
                    "recipients": [{"handle": {"value": "me@example.org", "type": "emailAddress"}, "displayName": "Me"}],
                    "content": f"Message number {i}: are we still on for lunch?",
                    "conversationIdentifier": f"c{i % 20000}",
                },
            },
        },
    }


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""

    def send_line(self, data: bytes):
        self.sock.sendall(data + b"\n")

    def read_line(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError("heraldd closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def call(self, method, params=None):
        request = {"jsonrpc": "2.0", "id": 1, "method": method}
        if params is not None:
            request["params"] = params
        self.send_line(json.dumps(request).encode())
        response = json.loads(self.read_line())
        if "error" in response:
            raise RuntimeError(f"{method}: {response['error']}")
        return response["result"]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def start(folder, socket_path):
    began = time.monotonic()
    process = subprocess.Popen(
        [BINARY, "--socket", socket_path, "--state-dir", os.path.join(folder, "state"), "--log-target", "none",
         "--snapshot-interval", "0", "--max-interactions", str(N * 2),
         "--max-interactions-per-uid", str(N * 2), "--max-notifications", str(max(10_000, NOTIFICATIONS * 2))],
        stderr=subprocess.DEVNULL,
    )
    while True:
        if process.poll() is not None:
            sys.exit(f"heraldd exited with {process.returncode}")
        try:
            client = Client(socket_path)
            stats = client.call("stats")
            return process, client, time.monotonic() - began, stats
        except (FileNotFoundError, ConnectionRefusedError, EOFError):
            time.sleep(0.005)


def fill(client, count):
    began = time.monotonic()
    for first in range(0, count, BATCH):
        batch = [donation(i, i) for i in range(first, min(first + BATCH, count))]
        client.send_line(json.dumps(batch, separators=(",", ":")).encode())
        responses = json.loads(client.read_line())
        errors = [r for r in responses if "error" in r]
        if errors:
            sys.exit(f"donate failed: {errors[0]}")
    return time.monotonic() - began


def fill_notifications(client, count):
    """Puts `count` notifications in the caller's list with update-content, in batches."""
    for first in range(0, count, BATCH):
        batch = [{"jsonrpc": "2.0", "id": i, "method": "update-content",
                  "params": {"app": "org.example.news", "identifier": f"n{i}",
                             "content": {"title": f"Story {i}", "body": f"Story number {i}: what happened today",
                                         "relevanceScore": (i % 100) / 100}}}
                 for i in range(first, min(first + BATCH, count))]
        client.send_line(json.dumps(batch, separators=(",", ":")).encode())
        errors = [r for r in json.loads(client.read_line()) if "error" in r]
        if errors:
            sys.exit(f"update-content failed: {errors[0]}")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def measure_latency(client, start_index, seconds=None, until=None):
    """Closed-loop donates; returns latencies in microseconds."""
    latencies = []
    i = start_index
    deadline = time.monotonic() + seconds if seconds else None
    while True:
        if deadline and time.monotonic() >= deadline:
            break
        if until and until.is_set():
            break
        line = json.dumps(donation(i, i), separators=(",", ":")).encode()
        began = time.perf_counter_ns()
        client.send_line(line)
        client.read_line()
        latencies.append((time.perf_counter_ns() - began) / 1000)
        i += 1
    return latencies, i


def main():
    folder = tempfile.mkdtemp(prefix="herald-bench-snapshot-")
    socket_path = os.path.join(folder, "herald.sock")
    try:
        process, client, _, _ = start(folder, socket_path)
        time.sleep(0.5)
        empty_rss = rss_kib(process.pid)
        fill_seconds = fill(client, N)
        time.sleep(0.5)
        interactions_rss = rss_kib(process.pid)
        fill_notifications(client, NOTIFICATIONS)
        time.sleep(0.5)
        full_rss = rss_kib(process.pid)
        # --max-notification-bytes keeps fewer than were sent: the memory is of those kept.
        kept_notifications = client.call("stats").get("notifications", 0)

        began = time.monotonic()
        result = client.call("snapshot")
        snapshot_wall = time.monotonic() - began

        # donate latency: 5 s of steady load alone, then while snapshots are being written.
        load = Client(socket_path)
        measure_latency(load, N, seconds=1)  # warm up
        quiet, next_index = measure_latency(load, N + 10_000_000, seconds=5)
        done = threading.Event()
        during_results = []

        def snapshots():
            admin = Client(socket_path)
            for _ in range(2):
                # Something must change for a periodic one; `snapshot` always writes.
                during_results.append(admin.call("snapshot"))
            done.set()

        writer = threading.Thread(target=snapshots)
        writer.start()
        during, _ = measure_latency(load, next_index, until=done)
        writer.join()

        stop_began = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=120)
        stop_seconds = time.monotonic() - stop_began
        state_bytes = os.path.getsize(os.path.join(folder, "state", "state.snapshot"))

        process, client, restart_seconds, stats = start(folder, socket_path)
        restored = stats["interactions"]
        restored_notifications = stats.get("notifications", 0)
        restored_rss = rss_kib(process.pid)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=120)

        per_interaction = (interactions_rss - empty_rss) * 1024 / N
        per_notification = (full_rss - interactions_rss) * 1024 / kept_notifications if kept_notifications else None
        q50, q99 = percentile(quiet, 0.50), percentile(quiet, 0.99)
        d50, d99 = percentile(during, 0.50), percentile(during, 0.99)
        print(f"heraldd snapshot benchmark: {N:,} interactions, {NOTIFICATIONS:,} notifications ({os.cpu_count()} CPUs)")
        print(f"  fill over the socket:      {fill_seconds:.1f} s ({N / fill_seconds:,.0f} donations/s in batches of {BATCH})")
        print(f"  snapshot (method):         {result['durationMs'] / 1000:.2f} s, {result['bytes'] / 1e6:.1f} MB"
              f" (wall {snapshot_wall:.2f} s)   target <= 3 s")
        print(f"  snapshots under load:      " + ", ".join(f"{r['durationMs'] / 1000:.2f} s" for r in during_results))
        print(f"  SIGTERM to exit:           {stop_seconds:.2f} s (final snapshot {state_bytes / 1e6:.1f} MB)")
        print(f"  restart to first answer:   {restart_seconds:.2f} s, {restored:,} interactions, {restored_notifications:,} notifications restored   target <= 3 s")
        print(f"  resident memory:           empty {empty_rss / 1024:.0f} MiB, full {full_rss / 1024:.0f} MiB,"
              f" restored {restored_rss / 1024:.0f} MiB")
        print(f"  memory per interaction:    {per_interaction:.0f} B   target <= 1536 B")
        if per_notification is not None:
            print(f"  memory per notification:   {per_notification:.0f} B ({kept_notifications:,} kept of {NOTIFICATIONS:,})")
        print(f"  donate latency, quiet:     p50 {q50:.0f} us, p99 {q99:.0f} us, max {max(quiet):.0f} us ({len(quiet):,} requests)")
        print(f"  donate latency, snapshot:  p50 {d50:.0f} us, p99 {d99:.0f} us, max {max(during):.0f} us ({len(during):,} requests)")
        print(f"  p99 ratio:                 {d99 / q99:.2f}x   target <= 2x (p50 ratio {d50 / q50:.2f}x)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
