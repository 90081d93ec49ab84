#!/usr/bin/env python3
"""How late a Focus change by itself reaches a focus-changed subscriber: six set-focus calls
whose `until` falls 1.3-2.2 s away; prints how long after each `until` the subscriber heard
the Focus go off. With --soon, each `until` is less than a second away, each set while the
daemon's alarm sleeps until the one before: the request rings it early (DueAlarm).

    python3 scripts/bench-focus-changed.py HERALDD [--soon]
"""
import datetime
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1]
soon = "--soon" in sys.argv[2:]
folder = tempfile.mkdtemp(); sock = os.path.join(folder, "s.sock")
p = subprocess.Popen([binary, "--socket", sock, "--state-dir", folder + "/state", "--log-target", "none"], stderr=subprocess.DEVNULL)
while not os.path.exists(sock): time.sleep(0.05)
def conn():
    s = socket.socket(socket.AF_UNIX); s.connect(sock); return s, s.makefile("rb")
def call(c, o):
    c[0].sendall(json.dumps(o).encode() + b"\n"); return json.loads(c[1].readline())
a, b = conn(), conn()
app = "org.example.chat"
call(a, {"jsonrpc": "2.0", "id": 1, "method": "set-focus-authorization", "params": {"app": app, "status": "authorized"}})
call(b, {"jsonrpc": "2.0", "id": 1, "method": "request-focus", "params": {"app": app, "subscribe": True}})
lags = []
for i in range(6):
    until = time.time() + (0.1 + i * 0.15 if soon else 1.3 + i * 0.17)
    iso = datetime.datetime.fromtimestamp(until, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    r = call(a, {"jsonrpc": "2.0", "id": 2, "method": "set-focus", "params": {"focus": {"name": "Work", "until": iso}}})
    if "error" in r: sys.exit(r)
    # skip the "on" notification, wait for off
    while True:
        line = json.loads(b[1].readline())
        if line.get("method") == "focus-changed" and not line["params"].get("focusStatus", {}).get("isFocused", True):
            lags.append((time.time() - until) * 1000); break
print(binary, "(until within the second)" if soon else "", "focus-changed after until, ms:", sorted(round(x) for x in lags))
p.terminate(); p.wait()
