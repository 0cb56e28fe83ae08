"""tests/cli/clitest.py - what the CLI test scripts share: how to run the pct
binary (through the exe wrapper in cross builds), counted checks, and the
generated combined-format lines the `pct logs` scripts read."""

import os
import random
import re
import shlex
import subprocess
import sys

# Cross builds: how to run the pct binary (meson sets MESON_EXE_WRAPPER, e.g.
# "qemu-aarch64 -L /usr/aarch64-linux-gnu", when it is passed as a program).
WRAPPER = shlex.split(os.environ.get("MESON_EXE_WRAPPER") or os.environ.get("PCT_EXE_WRAPPER") or "")

counts = {"passed": 0, "failed": 0}


def log_lines(count, seed):
    """count combined-format lines with escapes, deterministic."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        target = "/p%d/%%C3%%A9t%%C3%%A9/%s?q=a+b%%26c&n=%d" % (i, "x" * rng.randrange(1, 60), i)
        out.append(('192.0.2.%d - - [14/Mar/2026:06:00:00 +0000] "GET %s HTTP/1.1" 200 %d "-" "ua"\n'
                    % (i % 250, target, rng.randrange(1, 99999))).encode())
    return b"".join(out)


def short(value, limit=160):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "...(%d bytes)" % len(value)


def check(name, condition, detail=""):
    """Counts one check; prints it when it fails. Returns the condition."""
    if condition:
        counts["passed"] += 1
    else:
        counts["failed"] += 1
        print("FAIL %s%s" % (name, ": " + detail if detail else ""))
    return condition


def summary():
    """Prints "N passed, M failed"; returns the exit status."""
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    return 1 if counts["failed"] else 0


# A group that cannot run here returns SKIP; run alone, the script then exits
# with it (meson counts 77 as a skipped test).
SKIP = 77


def run_groups(argv, groups, set_pct):
    """The main of a CLI test script: argv is [script, PATH_TO_PCT, GROUP...]
    (no GROUP: all); set_pct receives the absolute path of the binary.
    Returns the exit status."""
    if len(argv) < 2:
        sys.stderr.write("usage: %s PATH_TO_PCT [GROUP...]\ngroups: %s\n" % (argv[0], " ".join(groups)))
        return 2
    set_pct(os.path.abspath(argv[1]))
    names = argv[2:] or list(groups)
    for name in names:
        if name not in groups:
            sys.stderr.write("unknown group %r; groups: %s\n" % (name, " ".join(groups)))
            return 2
    if len(names) == 1:
        return SKIP if groups[names[0]]() == SKIP else summary()
    # Several groups: each in a process of its own, as meson runs them, so
    # that what one group measures of its children (peak memory:
    # RUSAGE_CHILDREN keeps the largest child so far) is its own.
    for name in names:
        child = subprocess.run([sys.executable, argv[0], argv[1], name], stdout=subprocess.PIPE,
                               universal_newlines=True)
        out = child.stdout
        last = re.search(r"^(\d+) passed, (\d+) failed\n?\Z", out, re.M)
        sys.stdout.write(out[:last.start()] if last else out)
        if last:
            counts["passed"] += int(last.group(1))
            counts["failed"] += int(last.group(2))
        if child.returncode not in (0, SKIP) and not (last and int(last.group(2)) > 0):
            check("group %s (exit %d)" % (name, child.returncode), False)
    return summary()
