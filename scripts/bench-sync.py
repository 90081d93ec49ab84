#!/usr/bin/env python3
"""`make bench-sync`: herald-sync's figures beside the broker's own, in one run.

Starts a mosquitto on a free port of 127.0.0.1 (anonymous, nothing persisted), two
heraldd ("hosts" A and B, each its own socket and state) and a herald-sync beside each,
as in docs/sync.md. Then:

1. **Change to applied**: CHANGES times (default 1,000), a client at A turns on Work or
   Sleep (alternately) with set-focus, and a client at B that follows B's Focus
   (get-focus subscribe) waits for the active-focus-changed that says it. The time from
   sending set-focus to A to that notification at B: A's heraldd, herald-sync at A, the
   broker, herald-sync at B, B's heraldd. The first WARMUP changes (default 20) are not
   counted.
2. **The broker's own round trip**, the same number of times in the same run: one
   `mosquitto_pub -l` (a message per line on its standard input) and one `mosquitto_sub`
   on the same topic, both running throughout; the time from writing a line to reading it
   back. The floor any bridge through this broker stands on.
3. **At rest**: herald-sync's resident memory (VmRSS) after the changes, and its context
   switches (voluntary and not, every thread, /proc/PID/task/*/status, as
   scripts/bench-wakeups.sh counts them) over WINDOW seconds (default 60) with nothing
   changing, beside mosquitto's over the same window. Its MQTT keepalive is KEEPALIVE
   seconds (default 60): one PINGREQ and its answer per keepalive is the floor.

  HERALDD=… HERALD_SYNC=… python3 scripts/bench-sync.py    (make bench-sync builds them in release)

Prints a table and writes the figures as one JSON document to bench-results/sync-STAMP.json.
Every process it starts it stops.
"""
import json
import os
import pathlib
import pwd
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHANGES = int(os.environ.get("CHANGES", "1000"))
WARMUP = int(os.environ.get("WARMUP", "20"))
WINDOW = float(os.environ.get("WINDOW", "60"))
KEEPALIVE = int(os.environ.get("KEEPALIVE", "60"))
TIMEOUT = 10.0


def say(text: str) -> None:
    print(f"bench-sync: {text}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Connection:
    """One JSON-RPC connection to a heraldd: requests answered in order, notifications kept."""

    def __init__(self, path: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 0

    def send(self, method: str, params: dict) -> int:
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        return self.next_id

    def read(self, deadline: float) -> dict:
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                raise TimeoutError("heraldd did not answer in time")
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("heraldd closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def call(self, method: str, params: dict) -> dict:
        ident = self.send(method, params)
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self.read(deadline)
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]


def wait_for_socket(path: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while not os.path.exists(path):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"no socket at {path}")
        time.sleep(0.05)


def wait_for_text(path: pathlib.Path, text: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while text not in path.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{path} never said {text!r}: {path.read_text(errors='replace')}")
        time.sleep(0.05)


def context_switches(pid: int) -> int:
    total = 0
    for status in pathlib.Path(f"/proc/{pid}/task").glob("*/status"):
        try:
            for line in status.read_text().splitlines():
                if "ctxt_switches" in line:
                    total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def resident_kib(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(sorted_values: list, fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main() -> int:
    heraldd = os.environ.get("HERALDD") or str(ROOT / ".build-bench/release/heraldd")
    herald_sync = os.environ.get("HERALD_SYNC") or str(pathlib.Path(heraldd).parent / "herald-sync")
    for tool in (heraldd, herald_sync, "/usr/sbin/mosquitto", "/usr/bin/mosquitto_pub", "/usr/bin/mosquitto_sub"):
        if not os.access(tool, os.X_OK):
            say(f"{tool} is missing (make bench-sync builds heraldd and herald-sync; make deps installs mosquitto)")
            return 1
    run = pathlib.Path(tempfile.mkdtemp(prefix="herald-bench-sync."))
    started: list = []
    environment = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "LISTEN_FDS", "LISTEN_PID")}

    def start(arguments: list, log: str, **options) -> subprocess.Popen:
        process = subprocess.Popen(arguments, stderr=open(run / log, "w"), env=environment, **options)
        started.append(process)
        return process

    try:
        port = free_port()
        (run / "mosquitto.conf").write_text(
            f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            f"user {pwd.getpwuid(os.getuid()).pw_name}\n"
        )
        broker = start(["/usr/sbin/mosquitto", "-c", str(run / "mosquitto.conf")], "mosquitto.log")
        wait_for_text(run / "mosquitto.log", "running", broker)

        hosts = {}
        for host in ("A", "B"):
            path = str(run / f"{host}.sock")
            daemon = start([heraldd, "--socket", path, "--state-dir", str(run / f"{host}-state"), "--log-target", "none"], f"heraldd-{host}.log")
            wait_for_socket(path, daemon)
            (run / f"sync-{host}.conf").write_text(
                f"broker-host = 127.0.0.1\nbroker-port = {port}\naccount = bench\nhost-name = {host}\nkeepalive = {KEEPALIVE}\n"
            )
            sync = start(
                [herald_sync, "--config", str(run / f"sync-{host}.conf"), "--socket", path, "--status-file", str(run / f"status-{host}.json")],
                f"sync-{host}.log",
            )
            wait_for_text(run / f"sync-{host}.log", "connected to the broker", sync)
            hosts[host] = (path, sync)

        # 1. Change to applied, A to B.
        at_a = Connection(hosts["A"][0])
        at_b = Connection(hosts["B"][0])
        at_b.call("get-focus", {"subscribe": True})
        latencies = []
        say(f"{CHANGES} changes at A, each waited for at B (and {WARMUP} first, not counted)")
        for index in range(WARMUP + CHANGES):
            name = "Work" if index % 2 == 0 else "Sleep"
            began = time.perf_counter()
            at_a.call("set-focus", {"focus": {"name": name}})
            deadline = time.monotonic() + TIMEOUT
            while True:
                message = at_b.read(deadline)
                if message.get("method") == "active-focus-changed" and message["params"].get("focus") == name:
                    break
            if index >= WARMUP:
                latencies.append((time.perf_counter() - began) * 1000)
        origin = at_b.call("get-focus", {}).get("origin")

        # 2. The broker's own round trip, the same count.
        topic = "bench/round-trip"
        subscriber = start(
            ["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-q", "1"], "sub.log",
            stdout=subprocess.PIPE, bufsize=0,
        )
        publisher = start(
            ["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-q", "1", "-l"], "pub.log",
            stdin=subprocess.PIPE, bufsize=0,
        )
        pending = b""

        def round_trip(text: str) -> float:
            nonlocal pending
            began = time.perf_counter()
            publisher.stdin.write(text.encode() + b"\n")
            while True:
                while b"\n" not in pending:
                    if not select.select([subscriber.stdout], [], [], TIMEOUT)[0]:
                        raise TimeoutError("mosquitto_sub did not receive in time")
                    pending += os.read(subscriber.stdout.fileno(), 65536)
                line, pending = pending.split(b"\n", 1)
                if line.decode() == text:
                    return (time.perf_counter() - began) * 1000

        # Until the subscription is in place, a probe is lost: probe until one comes back.
        deadline = time.monotonic() + 20
        while True:
            try:
                round_trip("probe")
                break
            except TimeoutError:
                if time.monotonic() > deadline:
                    raise
        broker_latencies = [round_trip(f"m-{index}") for index in range(WARMUP + CHANGES)][WARMUP:]
        for process in (publisher, subscriber):
            process.kill()
            process.wait()

        # 3. At rest.
        time.sleep(2)
        rest = {"herald-sync A": hosts["A"][1].pid, "herald-sync B": hosts["B"][1].pid, "mosquitto": broker.pid}
        memory = {label: resident_kib(pid) for label, pid in rest.items()}
        say(f"at rest for {WINDOW:.0f} s")
        first = {label: context_switches(pid) for label, pid in rest.items()}
        time.sleep(WINDOW)
        switches = {label: context_switches(pid) - first[label] for label, pid in rest.items()}

        latencies.sort()
        broker_latencies.sort()
        figures = {
            "changes": CHANGES,
            "changeToApplied": {"p50Ms": percentile(latencies, 0.5), "p99Ms": percentile(latencies, 0.99), "maxMs": latencies[-1]},
            "brokerRoundTrip": {
                "p50Ms": percentile(broker_latencies, 0.5), "p99Ms": percentile(broker_latencies, 0.99), "maxMs": broker_latencies[-1],
            },
            "originAtB": origin,
            "vmRSSKiB": memory,
            "windowSeconds": WINDOW,
            "keepaliveSeconds": KEEPALIVE,
            "contextSwitches": switches,
            "heraldd": heraldd,
            "heraldSync": herald_sync,
        }
        print(f"{'':34} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
        for label, key in (("change at A applied at B", "changeToApplied"), ("broker round trip (pub -l → sub)", "brokerRoundTrip")):
            row = figures[key]
            print(f"{label:34} {row['p50Ms']:8.2f} {row['p99Ms']:8.2f} {row['maxMs']:8.2f}")
        print(f"\nat rest over {WINDOW:.0f} s (keepalive {KEEPALIVE} s): context switches, per second, VmRSS")
        for label in rest:
            print(f"  {label:16} {switches[label]:6d} {switches[label] / WINDOW:8.3f}/s {memory[label] / 1024:8.1f} MiB")
        results = ROOT / "bench-results"
        results.mkdir(exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        (results / f"sync-{stamp}.json").write_text(json.dumps(figures, indent=2) + "\n")
        say(f"figures in bench-results/sync-{stamp}.json")
        return 0
    except Exception as error:
        say(f"failed: {error!r}")
        for log in sorted(run.glob("*.log")):
            say(f"--- {log.name} (its end)\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:]))
        return 1
    finally:
        for process in reversed(started):
            if process.poll() is None:
                process.terminate()
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(run, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
