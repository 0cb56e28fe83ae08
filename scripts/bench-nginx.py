#!/usr/bin/env python3
"""scripts/bench-nginx.py - what `pct_path on` costs an nginx worker.

Builds the module (contrib/nginx/build.sh into build/nginx), starts a back
end (its own nginx, answering "ok") and a front nginx with the module, one
worker pinned to CPU 0, with four servers that proxy to the back end over
keep-alive connections:

    off        pct_path off;  proxy_pass http://backend;
    on         pct_path on;   proxy_pass http://backend;
    off, var   pct_path off;  proxy_pass http://backend$pct_path$is_args$args;
    on, var    pct_path on;   proxy_pass http://backend$pct_path$is_args$args;

on / off is what the module costs; on, var / off what forwarding $pct_path
costs against no module (nginx builds and parses the URL of a proxy_pass
with variables per request: its own cost, the same with the module off).

wrk (Debian's), pinned with the back end to the other CPU, sends the same
target to each in turn, round after round; the front worker's CPU time
(/proc/PID/stat) divided by the requests wrk completed is the CPU per
request. Prints a Markdown table: median microseconds per request for each
target and server, and the medians of the per-round ratios.

    python3 scripts/bench-nginx.py [--rounds N] [--seconds S]

Targets: a 30-byte REST path, a 2 KB path with an escape every ~30 bytes,
and the same with a few dot segments and a backslash (which nginx routes
after normalization: the module parses the normalized path once more).
This is a benchmark, not a test: the numbers depend on the machine and its
load.
"""
import argparse
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "nginx"))
from harness import HEAD, Nginx, free_ports  # noqa: E402


def escaped_path(size, dots, seed=7):
    """A path of about size bytes: words, an escape every ~30 bytes."""
    rng = random.Random(seed)
    words = ["users", "orders", "items", "files", "api", "v2", "caf%C3%A9", "a%20b", "x%2Fy",
             "report", "2026", "%7Euser", "photo%20of%20the%20day.jpg", "data"]
    out, since = "", 0
    while len(out) < size:
        w = rng.choice(words)
        if "%" not in w and since > 25:
            w += "%20" + rng.choice(words)
        since = 0 if "%" in w else since + len(w)
        out += "/" + w
        if dots and rng.random() < 0.05:
            out += rng.choice(["/./x", "/y/..", "/z\\..", "//"])
    return out[:size].rstrip("%0123456789ABCDEFabcdef") or "/"


TARGETS = [
    ("30-byte REST path", "/api/v1/users/12345/profile?x=1"),
    ("2 KB, escape every ~30 bytes", escaped_path(2048, False)),
    ("2 KB, escapes, dot segments, '\\'", escaped_path(2048, True)),
]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(port, target, seconds):
    out = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", "-c4", "-d%ds" % seconds,
                          "http://127.0.0.1:%d%s" % (port, target)],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"(\d+) requests in", out)
    if not m or "Non-2xx" in out:
        raise RuntimeError("wrk: unexpected output:\n" + out)
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=int, default=3)
    args = ap.parse_args()
    for tool in ("wrk", "taskset"):
        if subprocess.run(["sh", "-c", "command -v " + tool], capture_output=True).returncode:
            sys.exit("bench-nginx.py: needs %s (Debian: apt-get install wrk util-linux)" % tool)
    module = subprocess.run(["bash", os.path.join(ROOT, "contrib/nginx/build.sh"),
                             os.path.join(ROOT, "build/nginx")], check=True, capture_output=True,
                            text=True).stdout.strip().splitlines()[-1]
    back_port, off_port, on_port, offvar_port, onvar_port = free_ports(5)
    with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
        back = Nginx(module, d1)
        back.write('    server { listen 127.0.0.1:%d; location / { return 200 "ok"; } }\n'
                   % back_port)
        front = Nginx(module, d2)
        front.write("""    upstream backend { server 127.0.0.1:%(back)d; keepalive 16; }
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    server { listen 127.0.0.1:%(off)d; pct_path off;
        location / { proxy_pass http://backend; } }
    server { listen 127.0.0.1:%(on)d; pct_path on;
        location / { proxy_pass http://backend; } }
    server { listen 127.0.0.1:%(offvar)d; pct_path off;
        location / { proxy_pass http://backend$pct_path$is_args$args; } }
    server { listen 127.0.0.1:%(onvar)d; pct_path on;
        location / { proxy_pass http://backend$pct_path$is_args$args; } }
""" % {"back": back_port, "off": off_port, "on": on_port, "offvar": offvar_port,
       "onvar": onvar_port})
        back.start([back_port])
        front.start([off_port, on_port, offvar_port, onvar_port])
        try:
            subprocess.run(["taskset", "-pc", "1", str(back.proc.pid)], check=True,
                           capture_output=True)
            subprocess.run(["taskset", "-pc", "0", str(front.proc.pid)], check=True,
                           capture_output=True)
            ports = {"off": off_port, "on": on_port, "offvar": offvar_port,
                     "onvar": onvar_port}
            pairs = [("on", "off"), ("onvar", "offvar"), ("onvar", "off")]
            rows = []
            for name, target in TARGETS:
                us = {k: [] for k in ports}
                ratios = {pair: [] for pair in pairs}
                for r in range(args.rounds):
                    got = {}
                    order = list(ports) if r % 2 == 0 else list(reversed(list(ports)))
                    for which in order:
                        c0 = cpu_seconds(front.proc.pid)
                        n = wrk(ports[which], target, args.seconds)
                        got[which] = (cpu_seconds(front.proc.pid) - c0) / n * 1e6
                        us[which].append(got[which])
                    for a, b in pairs:
                        ratios[(a, b)].append(got[a] / got[b])
                rows.append((name, len(target)) + tuple(statistics.median(us[k]) for k in ports) +
                            tuple(statistics.median(ratios[p]) for p in pairs))
        finally:
            front.stop()
            back.stop()
    print("nginx worker CPU per request, %d rounds of %d s (medians; %s; load %s)"
          % (args.rounds, args.seconds, os.uname().release, os.getloadavg()[0]))
    print()
    print("| target | bytes | off µs | on µs | off, var µs | on, var µs | on / off "
          "| on, var / off, var | on, var / off |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f | %.3f |" % row)

if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
