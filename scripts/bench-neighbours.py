#!/usr/bin/env python3
"""What a long request costs the other connections: fills a heraldd, then, while four other
connections send request-focus one at a time (closed loop), sends the long request
repeatedly on a connection of its own.

    python3 scripts/bench-neighbours.py HERALDD list-notifications   # a full list, 20 times
    python3 scripts/bench-neighbours.py HERALDD suggest-people [N]   # N outgoing donations (300,000), 5 times
    python3 scripts/bench-neighbours.py HERALDD delete-group [N]     # delete-interactions of a group, 5 times
    python3 scripts/bench-neighbours.py HERALDD delete-all [N]       # delete-interactions all: true, once
    python3 scripts/bench-neighbours.py HERALDD retention [N]        # N expire at once after a restart
    python3 scripts/bench-neighbours.py HERALDD search-and-post      # posts while a search holds the list, 2,000 times

`list-notifications` fills one uid's list with 10,000 notifications; `search-and-post` fills
it with 10,000 shop notifications with order and tracking numbers, keeps a search of
sixteen one-letter words ($SEARCH for another) going on one connection and times
`update-content` on another: each post changes the list the search holds (issue 49,
finding 4); `suggest-people`,
`delete-group`, `delete-all` and `retention` donate N outgoing messages (as root, an administrator, which suggest-people needs). Prints the long
request's median, and the other connections' p99 and longest request before and while the
long requests run, and how many of theirs were answered meanwhile. `retention` has no long
request: heraldd is stopped after a snapshot and started again with `--retention 1s`, so its
first pruning forgets all N at once while the other connections are served (for 5 s). A long request answered on
an event loop (or under the state's lock) holds them all up for its whole duration.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

binary, method = sys.argv[1], sys.argv[2]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 300_000
folder = tempfile.mkdtemp()
# search-and-post's query: sixteen one-letter words, the slowest search there is (issue 49).
SEARCH = os.environ.get("SEARCH", "o s t a y 1 2 3 4 5 6 7 8 9 0 z")
sock = os.path.join(folder, "s.sock")


def start(*extra):
    if os.path.exists(sock):
        os.unlink(sock)
    started = subprocess.Popen([binary, "--socket", sock, "--state-dir", folder + "/state", "--log-target", "none",
                                "--snapshot-interval", "0", "--max-interactions", str(2 * N), *extra],
                               stderr=subprocess.DEVNULL)
    for _ in range(600):
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    return started


p = start()


def conn():
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    return s, s.makefile("rb")


def call(c, obj):
    c[0].sendall(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
    return c[1].readline()


main = conn()
if method == "list-notifications":
    for first in range(0, 10_000, 1000):
        call(main, [{"jsonrpc": "2.0", "id": i, "method": "update-content", "params": {
            "app": "org.example.news", "identifier": f"n{i}",
            "content": {"title": f"Story {i}", "body": f"Story number {i}: what happened today"}}}
            for i in range(first, first + 1000)])
    request, times = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"app": "org.example.news"}}, 20
elif method == "search-and-post":
    for first in range(0, 10_000, 1000):
        call(main, [{"jsonrpc": "2.0", "id": i, "method": "update-content", "params": {
            "app": "org.example.shop", "identifier": f"o{i}",
            "content": {"title": "Your order shipped", "body": f"Order {100000 + i} shipped, tracking 1Z{i * 7919:09d} arrives soon"}}}
            for i in range(first, first + 1000)])
    searching = True

    def search():
        searcher = conn()
        while searching:
            call(searcher, {"jsonrpc": "2.0", "id": 1, "method": "search-notifications", "params": {"query": SEARCH, "limit": 500}})

    searcher_thread = threading.Thread(target=search)
    request, times = None, 2_000
    posts = iter(range(10_000, 10_000 + times))
else:
    for first in range(0, N, 1000):
        call(main, [{"jsonrpc": "2.0", "id": i, "method": "donate", "params": {
            "app": "org.example.chat", "interaction": {"identifier": f"m{i}", "direction": "outgoing", "intent": {
                "type": "sendMessage", "conversationIdentifier": f"c{i % 5000}", "content": "hi",
                "recipients": [{"handle": {"value": f"user{i % 5000}@example.org", "type": "emailAddress"},
                                "displayName": f"User {i % 5000}"}]}}}}
            for i in range(first, min(first + 1000, N))])
    times = 5
    if method == "retention":
        # Kept on disk, then started again with a retention all of them are past.
        call(main, {"jsonrpc": "2.0", "id": 1, "method": "snapshot", "params": {}})
        p.terminate()
        p.wait()
        time.sleep(1.1)
        p = start("--retention", "1s")
        main = conn()
        request, times = None, 0
    elif method == "delete-group":
        # A conversation of a few messages among N: deleting it looks at the app's interactions.
        request = {"jsonrpc": "2.0", "id": 1, "method": "delete-interactions",
                   "params": {"app": "org.example.chat", "groupIdentifier": "a-small-group"}}
    elif method == "delete-all":
        request = {"jsonrpc": "2.0", "id": 1, "method": "delete-interactions",
                   "params": {"app": "org.example.chat", "all": True}}
        times = 1
    else:
        request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"limit": 5}}

stop = False
latencies = []


def others():
    connections = [conn() for _ in range(4)]
    i = 0
    while not stop:
        for c in connections:
            began = time.perf_counter()
            call(c, {"jsonrpc": "2.0", "id": i, "method": "request-focus", "params": {"app": "org.example.chat"}})
            latencies.append(time.perf_counter() - began)
            i += 1


thread = threading.Thread(target=others)
thread.start()
time.sleep(1 if request or method == "search-and-post" else 0)
quiet = len(latencies)
durations = []
if method == "search-and-post":
    searcher_thread.start()
    time.sleep(0.2)
    for i in posts:
        began = time.perf_counter()
        line = call(main, {"jsonrpc": "2.0", "id": i, "method": "update-content", "params": {
            "app": "org.example.shop", "identifier": f"o{i}",
            "content": {"title": "Your order shipped", "body": f"Order {100000 + i} shipped"}}})
        durations.append(time.perf_counter() - began)
        if b'"result"' not in line:
            sys.exit(f"update-content failed: {line[:300]}")
    times = 0
    searching = False
    searcher_thread.join()
elif not request:
    # The first pruning comes a second after the start.
    time.sleep(5)
    durations = [0]
    left = json.loads(call(main, {"jsonrpc": "2.0", "id": 2, "method": "stats"}))["result"]["interactions"]
    if left:
        sys.exit(f"{left} interactions were not pruned")
for _ in range(times):
    began = time.perf_counter()
    line = call(main, request)
    durations.append(time.perf_counter() - began)
    if b'"result"' not in line:
        sys.exit(f"{method} failed: {line[:300]}")
stop = True
thread.join()
p.terminate()
p.wait()
q, d = sorted(latencies[:quiet]) or [0], sorted(latencies[quiet:])
print(f"{binary} {method}: median {sorted(durations)[len(durations) // 2] * 1000:.2f} ms"
      f" | others before: p99 {q[int(len(q) * .99)] * 1000:.2f} ms, longest {q[-1] * 1000:.2f} ms"
      f" | while it ran: p99 {d[int(len(d) * .99)] * 1000:.2f} ms, longest {d[-1] * 1000:.2f} ms, {len(d):,} answered")
