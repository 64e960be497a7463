#!/usr/bin/env python3
"""Resident memory and file descriptors per idle session of a real fray-server, awake and
hibernated (BENCHMARKS.md, "Idle sessions: hibernation").

    cargo build --release -p fray-server --bin fray-server
    python3 server/benches/idle_sessions.py target/release/fray-server 1000

Starts the server on 127.0.0.1:0 in a temp dir (fsync never, hibernation after 3 s), creates
three batches of N sessions over HTTP, nobody connected, and after each batch reads the server's
VmRSS and its open descriptors (/proc/PID): right after creating (most sessions awake) and 6 s
later (all hibernated). glibc keeps freed memory, so the RSS after hibernation does not fall;
the growth of later batches, which reuse what earlier ones freed, bounds what a hibernated
session keeps.
"""
import json, os, subprocess, sys, tempfile, time, urllib.request
binary, n = sys.argv[1], int(sys.argv[2])
enc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../content/13th-age/encounters/goblin-ambush.toml")).read()
data = tempfile.mkdtemp()
p = subprocess.Popen([binary, "--listen", "127.0.0.1:0", "--data-dir", data, "--admin-token", "memory-bench-operator-key",
    "--creations-per-minute", "1000000", "--max-sessions", "1000000", "--hibernate-after-secs", "3", "--fsync", "never"],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
addr = p.stdout.readline().split()[-1]
def rss():
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith("VmRSS:"): return int(l.split()[1])
def fds(): return len(os.listdir(f"/proc/{p.pid}/fd"))
time.sleep(0.5)
body = json.dumps({"encounter": enc}).encode()
out = []
for batch in range(3):
    r0, f0 = rss(), fds()
    t = time.time()
    for i in range(n):
        req = urllib.request.Request(f"http://{addr}/sessions", data=body, headers={"Authorization": "Bearer memory-bench-operator-key", "Content-Type": "application/json"})
        urllib.request.urlopen(req).read()
    created = time.time() - t
    time.sleep(0.5)
    r1, f1 = rss(), fds()
    time.sleep(6)
    r2, f2 = rss(), fds()
    out.append({"batch": batch + 1, "sessions": n, "create_s": round(created, 2),
      "awake_kib_per_session": round((r1 - r0) / n, 1), "awake_fds_per_session": round((f1 - f0) / n, 2),
      "rss_growth_after_hibernation_kib_per_session": round((r2 - r0) / n, 1), "fds_after_hibernation_per_session": round((f2 - f0) / n, 2),
      "rss_kib": [r0, r1, r2], "fds": [f0, f1, f2]})
p.terminate(); p.wait()
for o in out: print(json.dumps(o))
