#!/usr/bin/env python3
"""run_fuzz.py - one short libFuzzer run, as a meson test (tests/fuzz/meson.build).

    run_fuzz.py FUZZER SEED_DIR WORK_DIR CRASH_DIR [SECONDS]

Copies the checked-in seed corpus SEED_DIR to a fresh WORK_DIR (the fuzzer
adds what it finds there, never to SEED_DIR), then runs FUZZER on it for
SECONDS (default: $PCT_FUZZ_SECONDS, else 20). A crash, leak, timeout or
sanitizer report is written to CRASH_DIR and fails the test; the line to
reproduce it is printed. Extra libFuzzer flags: $PCT_FUZZ_ARGS. Dictionary:
logs.dict for the log targets (fuzz_logs*), else pct.dict.
"""
import os
import shutil
import subprocess
import sys


def dictionary(name):
    """The log targets have their own dictionary (log syntax)."""
    return "logs.dict" if name.startswith("fuzz_logs") else "pct.dict"


def main():
    if len(sys.argv) not in (5, 6):
        sys.stderr.write(__doc__)
        return 2
    fuzzer, seeds, work, crashes = sys.argv[1:5]
    seconds = int(sys.argv[5] if len(sys.argv) == 6 else os.environ.get("PCT_FUZZ_SECONDS", "20"))
    shutil.rmtree(work, ignore_errors=True)
    if os.path.isdir(seeds):
        shutil.copytree(seeds, work)
    else:
        os.makedirs(work)
    os.makedirs(crashes, exist_ok=True)
    name = os.path.basename(fuzzer)
    cmd = [
        fuzzer,
        "-max_total_time=%d" % seconds,
        "-rss_limit_mb=2048",
        "-max_len=1024",
        "-timeout=10",
        "-print_final_stats=1",
        "-artifact_prefix=" + os.path.join(crashes, name + "-"),
        "-dict=" + os.path.join(os.path.dirname(os.path.abspath(__file__)), dictionary(name)),
    ] + os.environ.get("PCT_FUZZ_ARGS", "").split() + [work]
    env = dict(os.environ)
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    print("run_fuzz: " + " ".join(cmd), flush=True)
    rc = subprocess.call(cmd, env=env)
    if rc != 0:
        print("run_fuzz: %s FAILED (exit status %d); the input is in %s; reproduce with: %s %s<file>"
              % (name, rc, crashes, fuzzer, os.path.join(crashes, name + "-")), flush=True)
        return 1
    print("run_fuzz: %s: no failure in %d s (corpus: %d files in %s)"
          % (name, seconds, len(os.listdir(work)), work), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
