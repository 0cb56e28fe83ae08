#!/usr/bin/env python3
"""Tests of `pct logs --byte-range START:END` (log_session_set_range): a
range holds the lines that start in [START, END), each read to its end, so
ranges cut at any offsets give every line of the file once, in order.

  random    random files (combined lines, garbage, empty lines, CRLF, lines
            longer than the ranges and than --max-line, no final newline)
            cut at random offsets: the ranges' --json outputs concatenated
            are the whole file's output byte for byte, with one thread and
            with several (the blocks read with pread), and each range has as
            many output lines as lines start in it (counted here)
  edges     cut points on a line's first byte, on a newline, on the last
            byte; empty ranges; END past the end; START past the end; an
            empty file; a file of newlines; --stats counts the range
  refused   a compressed file, a pipe, two files, START > END, bad syntax:
            exit 2 and a message naming the file or the option

Usage: test_logs_ranges.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

PCT_TEST_SEED replays the random files and cut points.
"""
import gzip
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import test_logs
from clitest import WRAPPER, check, log_lines, run_groups, short

SEED = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
os.environ["PCT_TEST_SEED"] = str(SEED)  # the groups' processes: the same files


def pct_logs(args, stdin=None):
    return subprocess.run(WRAPPER + [test_logs.PCT, "logs", "--no-progress"] + list(args),
                          stdin=stdin, capture_output=True, timeout=600)


def line_starts(data):
    """The offsets where lines start: 0 (if there are bytes) and after
    every newline that is not the last byte."""
    return [0] * (len(data) > 0) + [m.end() for m in re.finditer(b"\n", data) if m.end() < len(data)]


def lines_in(starts, start, end):
    return sum(1 for s in starts if start <= s < end)


def random_file(rng):
    """Lines of many kinds, as bytes."""
    parts = []
    for _ in range(rng.randrange(0, 400)):
        kind = rng.random()
        if kind < 0.55:
            line = log_lines(1, rng.randrange(1 << 30)).rstrip(b"\n")
        elif kind < 0.65:
            line = b""
        elif kind < 0.75:
            line = bytes(rng.choice(b"abc xyz%20\"[]-/?=&\t") for _ in range(rng.randrange(1, 80)))
        elif kind < 0.8:  # longer than many ranges, and than --max-line 4K
            line = b"GET /" + b"x%41" * rng.randrange(100, 3000)
        else:
            line = log_lines(1, rng.randrange(1 << 30)).rstrip(b"\n") + b"\r"  # CRLF
        parts.append(line)
    data = b"\n".join(parts)
    if parts and rng.random() < 0.7:
        data += b"\n"  # else the last line has none
    return data


def cut_points(rng, size):
    """0 = c0 < c1 < ... < cn = size: a few at random, some on line
    boundaries; sometimes one byte apart."""
    if size == 0:
        return [0, 0]
    cuts = set()
    for _ in range(rng.randrange(1, 12)):
        cuts.add(rng.randrange(1, size + 1))
    for _ in range(rng.randrange(0, 3)):
        at = rng.randrange(1, size + 1)
        cuts.update((at, min(at + 1, size)))
    return [0] + sorted(cuts | {size})


def concatenated(path, cuts, extra):
    out, ok = [], True
    for a, b in zip(cuts, cuts[1:]):
        r = pct_logs(["--json"] + extra + ["--byte-range", "%d:%d" % (a, b), path])
        ok = check("range %d:%d %s exit 0" % (a, b, extra), r.returncode == 0,
                   short(r.stderr)) and ok
        out.append(r.stdout)
    return out, ok


def test_random():
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "access.log")
        for round in range(14):
            data = random_file(rng)
            if round % 4 == 3:  # big enough for several blocks of 64K per thread
                while len(data) < 600 << 10:
                    data += log_lines(2000, rng.randrange(1 << 30))
            with open(path, "wb") as f:
                f.write(data)
            starts = line_starts(data)
            extra = rng.choice([[], ["--threads", "1"], ["--threads", "2", "--chunk-size", "64K"],
                                ["--max-line", "4K"], ["--threads", "3", "--max-line", "4K"]])
            whole = pct_logs(["--json"] + extra + [path])
            check("round %d whole file exit 0" % round, whole.returncode == 0, short(whole.stderr))
            check("round %d one output line per line" % round,
                  whole.stdout.count(b"\n") == len(starts),
                  "%d lines, %d out" % (len(starts), whole.stdout.count(b"\n")))
            cuts = cut_points(rng, len(data))
            parts, ok = concatenated(path, cuts, extra)
            name = "round %d (%d bytes, cuts %s, %s)" % (round, len(data), short(cuts), extra)
            got = b"".join(parts)
            if not check(name + ": ranges concatenated == whole", got == whole.stdout,
                         "first difference at byte %d" % next(
                             (i for i, (x, y) in enumerate(zip(got, whole.stdout)) if x != y),
                             min(len(got), len(whole.stdout)))):
                continue
            counts = [p.count(b"\n") for p in parts]
            want = [lines_in(starts, a, b) for a, b in zip(cuts, cuts[1:])]
            check(name + ": each range's lines are those that start in it", counts == want,
                  "got %s, want %s" % (short(counts), short(want)))


def test_edges():
    data = (b'192.0.2.1 - - [27/Nov/2026:12:00:00 +0000] "GET /a%20b HTTP/1.1" 200 5\n'
            b"\n"
            b"garbage line\r\n"
            b'192.0.2.2 - - [27/Nov/2026:12:00:01 +0000] "GET /c?x=%41 HTTP/1.1" 404 -\n'
            b"no newline at the end")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "edges.log")
        with open(path, "wb") as f:
            f.write(data)
        starts = line_starts(data)
        whole = pct_logs(["--json", path]).stdout.splitlines(keepends=True)
        check("edges: five lines", len(whole) == 5 == len(starts), short(whole))
        size = len(data)
        newlines = [i for i, c in enumerate(data) if c == 0x0A]
        cases = [(0, 0), (0, 1), (1, 1), (0, size), (size, size), (size, size + 10),
                 (size + 5, size + 9), (0, size + 100), (size - 1, size)]
        for s in starts:  # on a line's first byte, and around it
            cases += [(s, s + 1), (max(s - 1, 0), s), (s, size), (0, s), (s + 1, size)]
        for n in newlines:  # on a newline, and the newline as the last byte
            cases += [(n, n + 1), (0, n + 1), (n, size), (n + 1, size)]
        for a, b in cases:
            r = pct_logs(["--json", "--byte-range", "%d:%d" % (a, b), path])
            want = b"".join(whole[i] for i, s in enumerate(starts) if a <= s < b)
            check("edges: range %d:%d" % (a, b), r.returncode == 0 and r.stdout == want,
                  "exit %d, got %s, want %s %s" % (r.returncode, short(r.stdout), short(want),
                                                   short(r.stderr)))
        # --stats counts the lines of the range
        r = pct_logs(["--stats", "--byte-range", "%d:%d" % (starts[1], starts[3]), path])
        m = re.search(rb"^lines: +(\d+)$", r.stderr, re.M)
        check("edges: --stats counts the range's lines", m is not None and int(m.group(1)) == 2,
              short(r.stderr))
        # an empty file, a file of newlines
        for content in (b"", b"\n", b"\n\n\n"):
            with open(path, "wb") as f:
                f.write(content)
            whole = pct_logs(["--json", path]).stdout
            for cuts in ([0, len(content)], [0, 1, len(content)], [0, len(content) + 3]):
                cuts = sorted(set(min(c, max(len(content), c)) for c in cuts))
                got = b"".join(pct_logs(["--json", "--byte-range", "%d:%d" % (a, b), path]).stdout
                               for a, b in zip(cuts, cuts[1:]))
                check("edges: %r cut %s" % (content, cuts), got == whole,
                      "got %s, want %s" % (short(got), short(whole)))


def refused(name, args, stdin=None, mentions=()):
    r = pct_logs(args, stdin=stdin)
    err = r.stderr.decode("utf-8", "replace")
    check(name + ": exit 2", r.returncode == 2, "exit %d, stderr %s" % (r.returncode, short(err)))
    check(name + ": nothing written", r.stdout == b"", short(r.stdout))
    for word in mentions:  # a word, or a tuple of the words it may be
        words = word if isinstance(word, tuple) else (word,)
        check(name + ": the message says %s" % " or ".join(map(repr, words)),
              any(w in err for w in words), short(err))


def test_refused():
    line = b'192.0.2.1 - - [27/Nov/2026:12:00:00 +0000] "GET /a HTTP/1.1" 200 5\n'
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain.log")
        with open(plain, "wb") as f:
            f.write(line * 50)
        gz = os.path.join(tmp, "rotated.log.1.gz")
        with open(gz, "wb") as f:
            f.write(gzip.compress(line * 50))
        # a pct built without a decompressor (the cross builds) refuses the
        # file before its range: it reads no compressed data at all
        refused("gzip", ["--byte-range", "0:100", gz],
                mentions=("rotated.log.1.gz", ("compressed", "built without gzip support")))
        zstd = shutil.which("zstd")
        if zstd:
            zst = os.path.join(tmp, "rotated.log.zst")
            subprocess.run([zstd, "-q", plain, "-o", zst], check=True)
            refused("zstd", ["--byte-range", "0:100", zst],
                    mentions=("rotated.log.zst", ("compressed", "built without zstd support")))
        with open(plain, "rb") as f:  # a regular file as stdin is a file
            r = pct_logs(["--json", "--byte-range", "0:%d" % len(line), "-"], stdin=f)
            check("regular stdin: one line", r.returncode == 0 and r.stdout.count(b"\n") == 1,
                  short(r.stdout + r.stderr))
        cat = subprocess.Popen(["cat", plain], stdout=subprocess.PIPE)
        refused("pipe", ["--byte-range", "0:100"], stdin=cat.stdout,
                mentions=("standard input", "regular file"))
        cat.stdout.close()
        cat.wait()
        refused("two files", ["--byte-range", "0:100", plain, plain], mentions=("one input",))
        refused("no file: stdin, a pipe", ["--byte-range", "0:100"], stdin=subprocess.PIPE)
        for bad in ("5:3", "1:", ":5", "a:b", "1-5", "5", "-1:3", "1:2:3",
                    "18446744073709551616:18446744073709551617"):
            refused("--byte-range %s" % bad, ["--byte-range", bad, plain], mentions=("--byte-range",))


GROUPS = {"random": test_random, "edges": test_edges, "refused": test_refused}


def set_pct(path):
    test_logs.set_pct(path)


if __name__ == "__main__":
    print("seed %d (PCT_TEST_SEED to replay)" % SEED)
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
