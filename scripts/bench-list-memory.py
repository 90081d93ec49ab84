#!/usr/bin/env python3
"""heraldd's memory while clients ask for a large notification list and do not read.

Issue 28's case: 24 update-content calls, each with userInfo of 58 strings of 16,000
characters (every member within its limit), then 16 connections each sending
list-notifications requests without reading the answers. Prints heraldd's resident memory
before, at its peak while the connections are open, and three seconds after they close.

Usage: scripts/bench-list-memory.py HERALDD   (a release heraldd; make release builds one)
"""
import json, os, shutil, socket, subprocess, sys, tempfile, time


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def request(sock, method, params, ident=1):
    sock.sendall(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode() + b"\n")


def read_line(sock):
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        data += chunk
    return data


def main():
    heraldd = sys.argv[1]
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "h.sock")
    daemon = subprocess.Popen([heraldd, "--socket", path, "--state-dir", os.path.join(folder, "state"), "--log-target", "none"])
    try:
        while not os.path.exists(path):
            time.sleep(0.01)
        client = socket.socket(socket.AF_UNIX)
        client.connect(path)
        strings = ["%02d" % i + "x" * 15_998 for i in range(58)]
        for index in range(24):
            content = {"title": f"Story {index}", "userInfo": {f"k{i}": s for i, s in enumerate(strings)}}
            request(client, "update-content", {"app": "org.example.news", "identifier": f"s-{index}", "content": content}, index)
            answer = read_line(client)
            assert b'"result"' in answer, answer[:300]
        request(client, "list-notifications", {"app": "org.example.news"}, 99)
        page = read_line(client)
        time.sleep(1)
        before = rss_mb(daemon.pid)
        sockets = []
        for _ in range(16):
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            s.setblocking(False)
            sockets.append(s)
        line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "list-notifications", "params": {"app": "org.example.news"}}).encode() + b"\n"
        peak = before
        deadline = time.time() + 5
        while time.time() < deadline:
            for s in sockets:
                try:
                    s.send(line)
                except BlockingIOError:
                    pass
            peak = max(peak, rss_mb(daemon.pid))
            time.sleep(0.01)
        for s in sockets:
            s.close()
        time.sleep(3)
        after = rss_mb(daemon.pid)
        print(f"list page: {len(page)} bytes; heraldd RSS: {before:.0f} MB with the list, peak {peak:.0f} MB "
              f"with 16 connections not reading, {after:.0f} MB three seconds after they closed")
    finally:
        daemon.terminate()
        daemon.wait()
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
