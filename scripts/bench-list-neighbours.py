#!/usr/bin/env python3
"""What a full list-notifications costs the other connections: fills one uid's list with
10,000 notifications, then, while four other connections send request-focus one at a
time (closed loop), lists the full list 20 times on a connection of its own.

    python3 scripts/bench-list-neighbours.py HERALDD

Prints the listing's median, and the other connections' p50, p99 and longest request
before and while the listings run, and how many they got answered. Answered on an event
loop, a listing holds up every connection of that loop for its whole duration.
"""
binary = sys.argv[1]
folder = tempfile.mkdtemp(); sock = os.path.join(folder, "s.sock")
p = subprocess.Popen([binary, "--socket", sock, "--state-dir", folder + "/state", "--log-target", "none"], stderr=subprocess.DEVNULL)
for _ in range(200):
    if os.path.exists(sock): break
    time.sleep(0.05)
def conn():
    s = socket.socket(socket.AF_UNIX); s.connect(sock); return s, s.makefile("rb")
s, f = conn()
def call(s, f, obj):
    s.sendall(json.dumps(obj, separators=(",", ":")).encode() + b"\n"); return f.readline()
for first in range(0, 10000, 1000):
    call(s, f, [{"jsonrpc":"2.0","id":i,"method":"update-content","params":{"app":"org.example.news","identifier":f"n{i}","content":{"title":f"Story {i}","body":f"Story number {i}: what happened today"}}} for i in range(first, first+1000)])
stop = False; lat = []
def pinger():
    # several connections so that some share the lister's event loop
    cs = [conn() for _ in range(4)]
    i = 0
    while not stop:
        for c in cs:
            t = time.perf_counter(); call(c[0], c[1], {"jsonrpc":"2.0","id":i,"method":"request-focus","params":{"app":"org.example.chat"}}); lat.append(time.perf_counter()-t); i += 1
th = threading.Thread(target=pinger); th.start()
time.sleep(1)
quiet = len(lat)
lists = []
for i in range(20):
    t = time.perf_counter(); call(s, f, {"jsonrpc":"2.0","id":1,"method":"list-notifications","params":{"app":"org.example.news"}}); lists.append(time.perf_counter()-t)
stop = True; th.join()
q = sorted(lat[:quiet]); d = sorted(lat[quiet:])
print(binary, "list median ms %.1f" % (sorted(lists)[10]*1000), "| ping quiet p99 ms %.2f max %.2f | during lists p50 %.2f p99 %.2f max %.2f (n=%d)" % (q[int(len(q)*.99)]*1000, q[-1]*1000, d[len(d)//2]*1000, d[int(len(d)*.99)]*1000, d[-1]*1000, len(d)))
p.terminate(); p.wait()
