#!/usr/bin/env python3
"""list-notifications of a full list: fills one uid's list with 10,000 notifications
(update-content in batches of 1,000), then times 30 list-notifications calls of it.

    python3 scripts/bench-list-notifications.py HERALDD

Prints the median and fastest call in milliseconds and the response's size; run two builds
one after the other, alternated, and compare them, not absolute times (the Python client
reads and parses each 5 MB line too).
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1]
folder = tempfile.mkdtemp()
sock = os.path.join(folder, "s.sock")
p = subprocess.Popen([binary, "--socket", sock, "--state-dir", folder + "/state", "--log-target", "none"], stderr=subprocess.DEVNULL)
for _ in range(200):
    if os.path.exists(sock): break
    time.sleep(0.05)
s = socket.socket(socket.AF_UNIX); s.connect(sock); f = s.makefile("rb")
def call(obj):
    s.sendall(json.dumps(obj, separators=(",", ":")).encode() + b"\n"); return f.readline()
for first in range(0, 10000, 1000):
    batch = [{"jsonrpc":"2.0","id":i,"method":"update-content","params":{"app":"org.example.news","identifier":f"n{i}","content":{"title":f"Story {i}","body":f"Story number {i}: what happened today","relevanceScore":(i%100)/100}}} for i in range(first, first+1000)]
    call(batch)
times = []
for i in range(30):
    t = time.perf_counter(); line = call({"jsonrpc":"2.0","id":1,"method":"list-notifications","params":{"app":"org.example.news"}}); times.append(time.perf_counter()-t)
times.sort()
print(binary, "list-notifications of", len(json.loads(line)["result"]["notifications"]), "median ms %.1f min %.1f" % (times[15]*1000, times[0]*1000), "bytes", len(line))
p.terminate(); p.wait()
