"""tests/cli/clitest.py - what the CLI test scripts share: how to run the pct
binary (through the exe wrapper in cross builds) and counted checks."""

import os
import shlex

# Cross builds: how to run the pct binary (meson sets MESON_EXE_WRAPPER, e.g.
# "qemu-aarch64 -L /usr/aarch64-linux-gnu", when it is passed as a program).
WRAPPER = shlex.split(os.environ.get("MESON_EXE_WRAPPER") or os.environ.get("PCT_EXE_WRAPPER") or "")

counts = {"passed": 0, "failed": 0}


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
