"""Checks what the examples print and return.

  check_examples.py path-check EXE      allowed targets pass, attacks are denied
  check_examples.py log-decode EXE DIR  the streaming decoder on an input with
                                        escapes cut at every chunk edge equals
                                        urllib.parse.unquote_to_bytes (the same
                                        lenient decoding)
"""
import os
import pathlib
import shlex
import subprocess
import sys
import urllib.parse

failures = []
# Cross builds: how to run the examples (e.g. qemu-aarch64 -L ...).
WRAPPER = shlex.split(os.environ.get("MESON_EXE_WRAPPER")
                      or os.environ.get("PCT_EXE_WRAPPER") or "")


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def path_check(exe):
    allowed = {
        "/static/app.js": "/static/app.js",
        "/static//css/../img/%7elogo.png": "/static/img/~logo.png",
        "/api/v1/users?id=%2e%2e": "/api/v1/users?id=%2e%2e",
    }
    for target, normalized in allowed.items():
        r = subprocess.run(WRAPPER + [exe, target], capture_output=True, text=True)
        check(r.returncode == 0 and r.stdout == f"ALLOW {target} -> {normalized}\n",
              f"allow {target!r} as {normalized!r} (got {r.returncode}: {r.stdout!r})")
    # Traversal, also in escaped spellings; an escaped NUL; outside the prefixes.
    denied = ["/api/../../admin", "/static/%2e%2e/admin", "/static/.%2E/%2E./etc/passwd",
              "/static/a%00.js", "/admin"]
    for target in denied:
        r = subprocess.run(WRAPPER + [exe, target], capture_output=True, text=True)
        check(r.returncode == 1 and r.stdout.startswith(f"DENY  {target}"),
              f"deny {target!r} (got {r.returncode}: {r.stdout!r})")


def log_decode(exe, scratch):
    scratch = pathlib.Path(scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    line = b'203.0.113.7 - - "GET /caf%C3%A9/%E2%9C%93?q=a%20b%2x%zz&r=%41 HTTP/1.1" 200 %\n'
    data = line * 2000  # ~170 KB: escapes land across every 4096-byte chunk edge
    path = scratch / "log_decode_input.log"
    path.write_bytes(data)
    r = subprocess.run(WRAPPER + [exe, str(path)], capture_output=True)
    want = urllib.parse.unquote_to_bytes(data)
    check(r.returncode == 0 and r.stdout == want,
          f"log_decode of {len(data)} bytes equals unquote_to_bytes ({len(want)} bytes)")


if sys.argv[1] == "path-check":
    path_check(sys.argv[2])
else:
    log_decode(sys.argv[2], sys.argv[3])
sys.exit(1 if failures else 0)
