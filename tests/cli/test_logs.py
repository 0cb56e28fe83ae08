#!/usr/bin/env python3
"""Tests of `pct logs`, through the real binary.

Usage: test_logs.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Prints one line per failed check, then "N passed, M failed"; exits 1 if any
check failed, 2 on bad usage. Python 3 standard library only. Cross builds:
MESON_EXE_WRAPPER (or PCT_EXE_WRAPPER) runs the binary, as in test_cli.py.
"""
import fcntl
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

from clitest import WRAPPER, check, run_groups, short

PCT = None
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SAMPLE = os.path.join(ROOT, "data", "sample-access.log")
LOGS = os.path.join(HERE, "logs")


def run(args, stdin=b""):
    return subprocess.run(WRAPPER + [PCT, "logs"] + list(args), input=stdin, capture_output=True,
                          timeout=600)


def run_ok(name, args, stdin=b""):
    result = run(args, stdin)
    check(name + " (exit 0)", result.returncode == 0,
          "exit %d; stderr %s" % (result.returncode, short(result.stderr)))
    return result


def json_lines(name, args, data):
    """The objects of `pct logs --json ARGS` on data, one per line (a line
    that is not strict JSON fails a check and is {})."""
    out = run_ok(name, ["--json"] + args, data).stdout
    objs = []
    for line in out.decode("utf-8").splitlines():
        try:
            objs.append(json.loads(line))
        except ValueError:
            check(name + ": strict JSON", False, short(line))
            objs.append({})
    return objs


def same_lines(name, data, out):
    """One output line per input line; the last one always ends with a
    newline (so the next input's first line stays a line of its own)."""
    lines = data.count(b"\n") + (data != b"" and not data.endswith(b"\n"))
    check(name + " (line count)", lines == out.count(b"\n"),
          "in %d, out %d" % (lines, out.count(b"\n")))
    check(name + " (last terminator)", out.endswith(b"\n") or (data == b"" and out == b""),
          "in ends %s, out ends %s" % (short(data[-5:]), short(out[-5:])))
    check(name + " (CRLF kept)", data.count(b"\r\n") <= out.count(b"\r\n"),
          "in %d, out %d" % (data.count(b"\r\n"), out.count(b"\r\n")))


def controls_escaped(name, out, json_mode):
    """No raw control byte reaches the output, decoded or not, besides line
    terminators (and tabs, field separators, in line output)."""
    body = out.replace(b"\r\n", b"").replace(b"\n", b"")
    if not json_mode:
        body = body.replace(b"\t", b"")
    found = sorted(set(c for c in body if c < 0x20 or c == 0x7F))
    check(name + " (no raw control bytes)", not found, "found %s" % short(bytes(found[:10])))


def line(target, referer="-", agent="Mozilla/5.0", status="200", size="123"):
    return ('192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET %s HTTP/1.1" %s %s "%s" "%s"'
            % (target, status, size, referer, agent)).encode("latin-1")


# --------------------------------------------------------------------------
# Inputs every mode must keep line for line
# --------------------------------------------------------------------------

def inputs():
    rng = random.Random(1234)
    every_control = b"\n".join(line("/c%%%02X?q=%%%02X" % (c, c)) for c in list(range(0x20)) + [0x7F])
    garbage = bytes(rng.randrange(256) for _ in range(20000))
    # Lines are scanned in windows of 16 KiB: raw controls, C1 leads, high
    # bytes and backslashes anywhere in 200 KB of lines, so some fall at or
    # next to a window's edge.
    scattered = []
    for i in range(2000):
        text = line("/a%%20b/%d/%s" % (i, "x" * rng.randrange(120)))
        if rng.random() < 0.4:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + bytes([rng.choice(b"\x01\x1b\x7f\xc2\x85\\\t\xff\r")]) + text[at:]
        scattered.append(text)
    return {
        "raw bytes in 200 KB of lines": b"\n".join(scattered) + b"\n",
        "empty": b"",
        "no trailing newline": line("/a%20b") + b"\n" + line("/last"),
        "crlf": line("/a%0Ab") + b"\r\n" + line("/b") + b"\r\n",
        "lone cr": line("/a") + b"\r",
        "blank lines": b"\n\n\r\n" + line("/x") + b"\n\n",
        "long line": line("/" + "%41%0A" * ((8 << 20) // 6 + 1)) + b"\n" + line("/after") + b"\n",
        "text with a few raw controls": b"\x1b[2J\x00\x07 " + bytes(c for c in garbage[:200] if c >= 0x20)
        + b"\n" + (line("/x") + b"\n") * 20,
        "nul bytes": line("/a%00b") + b"\n\x00\x00\n" + line("/n\x00ul") + b"\n",
        "unparsed": b"not a log line\n" + b"\"GET / HTTP/1.1\"\n" + line("/ok") + b"\n[broken",
        "malformed escapes": line("/%zz%4%%%u12%uZZZZ%") + b"\n" + line("/?%=%&%%") + b"\n",
        "every control": every_control + b"\n",
        "invalid utf8": line("/%FF%C0%AF%ED%A0%80%F4%90%80%80/\xff\xfe") + b"\n",
        "percent u": line("/%uD83D%uDE00/%u0041/%uD800") + b"\n",
        "quotes and backslashes": line('/%22%5C\\"\\\\\\x41%22') + b"\n",
        "apache escapes": b'1.2.3.4 - - [t] "\\x16\\x03\\x01\\x00" 400 226 "-" "-"\n',
        "iis": open(os.path.join(LOGS, "iis-fields-change.log"), "rb").read(),
        "sample": open(SAMPLE, "rb").read(),
    }


MODES = [
    [],
    ["--json"],
    ["--referer", "--decode-slash"],
    ["--query", "plain", "--bytes"],
    ["--query", "keep", "--json", "--referer"],
    ["--format", "combined"],
    ["--format", "common", "--percent-u"],
    ["--format", "w3c"],
    ["--field", "7"],
    ["--field", "2", "--json"],
]


def test_lines():
    for name, data in inputs().items():
        for mode in MODES:
            label = "%s %s" % (name, " ".join(mode))
            result = run_ok(label, mode + ["--threads", "1"], data)
            same_lines(label, data, result.stdout)
            controls_escaped(label, result.stdout, "--json" in mode)
            if "--json" in mode:
                check_json(label, result.stdout)


def test_threads():
    """Same output for 1 and N threads, tiny chunks, files and pipes."""
    data = inputs()
    big = data["sample"] * 3 + data["nul bytes"] + data["every control"] + data["sample"]
    for name, blob in [("mixed", big), ("iis", data["iis"] * 50), ("long line", data["long line"])]:
        with tempfile.NamedTemporaryFile(suffix=".log") as f:
            f.write(blob)
            f.flush()
            for mode in [[], ["--json"], ["--format", "w3c"]]:
                ref = run_ok(name + " 1 thread", mode + ["--threads", "1", f.name]).stdout
                same_lines(name + " 1 thread", blob, ref)
                for threads, chunk in [(2, "4k"), (3, "1k"), (4, "64k"), (8, "100")]:
                    label = "%s %s threads %d chunk %s" % (name, " ".join(mode), threads, chunk)
                    out = run_ok(label, mode + ["--threads", str(threads), "--chunk-size", chunk,
                                                f.name]).stdout
                    check(label + " (same as 1 thread)", out == ref,
                          "%d vs %d bytes" % (len(out), len(ref)))
                out = run_ok(name + " stdin file", mode + ["--threads", "2", "-"], blob).stdout
                check(name + " stdin (same)", out == ref)
                label = name + " " + " ".join(mode) + " random-sized pipe writes"
                out = piped(mode + ["--threads", "3", "--chunk-size", "8k"], blob)
                check(label + " (same as 1 thread)", out == ref,
                      "%d vs %d bytes" % (len(out), len(ref)))


def test_pipe_size():
    """Pipes on stdin and stdout are widened to 1 MiB (where the system lets
    an unprivileged process): the other end runs ahead, a read or a write
    moves a chunk."""
    with open("/proc/sys/fs/pipe-max-size") as f:
        limit = int(f.read())
    r, w = os.pipe()
    before = fcntl.fcntl(w, fcntl.F_GETPIPE_SZ)
    proc = subprocess.Popen(WRAPPER + [PCT, "logs", "--threads", "2"], stdin=r,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(r)
    os.write(w, line("/first") + b"\n")
    first = proc.stdout.readline()  # a live input's first line comes at once: the pipe is open
    size = fcntl.fcntl(w, fcntl.F_GETPIPE_SZ)
    out_size = fcntl.fcntl(proc.stdout.fileno(), fcntl.F_GETPIPE_SZ)
    os.write(w, line("/second") + b"\n")
    os.close(w)
    rest, err = proc.communicate(timeout=60)
    check("pipe: first line as it came", b"GET /first " in first, short(first))
    check("pipe: the rest, exit 0", proc.returncode == 0 and b"GET /second " in rest, short(err))
    want = 1 << 20 if limit >= 1 << 20 else before
    check("pipe: input widened to 1 MiB (%d before, pipe-max-size %d)" % (before, limit),
          size == want, "%d bytes" % size)
    check("pipe: output widened to 1 MiB", out_size == want, "%d bytes" % out_size)


def piped(args, data, seed=7):
    rng = random.Random(seed)
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(WRAPPER + [PCT, "logs"] + args, stdin=subprocess.PIPE, stdout=out,
                                stderr=subprocess.PIPE)
        pos = 0
        while pos < len(data):
            n = rng.choice([1, 2, 7, 100, 4095, 4096, 65537, 300000])
            proc.stdin.write(data[pos:pos + n])
            proc.stdin.flush()
            pos += n
            if rng.random() < 0.01:
                time.sleep(0.002)
        proc.stdin.close()
        err = proc.stderr.read()
        code = proc.wait(timeout=600)
        check("pipe exit 0", code == 0, "exit %d; %s" % (code, short(err)))
        out.seek(0)
        return out.read()


# --------------------------------------------------------------------------
# A regular file read by threads in blocks of --chunk-size
# --------------------------------------------------------------------------

def without_timing(err):
    return re.sub(rb"^(elapsed|throughput):.*\n", b"", err, flags=re.M)


def same_as_one_thread(name, data, extra, runs):
    """Runs data as a file with one thread, then with each (threads, chunk)
    of runs: the same output, counts and messages."""
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        f.write(data)
        f.flush()
        ref = run(extra + ["--stats", "--threads", "1", f.name])
        check(name + " 1 thread (exit 0)", ref.returncode == 0, short(ref.stderr))
        for threads, chunk in runs:
            label = "%s %s threads %d chunk %s" % (name, " ".join(extra), threads, chunk)
            result = run(extra + ["--stats", "--threads", str(threads), "--chunk-size", chunk, f.name])
            check(label + " (same output)", result.stdout == ref.stdout,
                  first_difference(result.stdout, ref.stdout))
            check(label + " (same counts and messages)",
                  without_timing(result.stderr) == without_timing(ref.stderr),
                  short(result.stderr) + " vs " + short(ref.stderr))
        return ref


def random_lines(rng, count, chunk):
    """Lines of random lengths, many of them about a block long, so that
    lines start and end on every side of the blocks' edges."""
    out = []
    for i in range(count):
        pick = rng.random()
        if pick < 0.3:
            n = rng.choice([chunk - 2, chunk - 1, chunk, chunk + 1, 2 * chunk])
        elif pick < 0.4:
            n = rng.randrange(0, 3)
        else:
            n = rng.randrange(0, 2 * chunk)
        target = ("/%d/%%C3%%A9?q=a+b%%41" % i).encode() + b"x" * n
        out.append(line(target.decode()) + (b"\r\n" if rng.random() < 0.1 else b"\n"))
    return b"".join(out)


def test_blocks():
    """Each thread reads a block of the file itself (pread); the lines that
    start in a block are its own, however they straddle its edges."""
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("blocks: random lines from seed %d (PCT_TEST_SEED=%d repeats them)" % (seed, seed))
    rng = random.Random(seed)
    runs = [(2, "100"), (2, "1000"), (3, "4k"), (4, "1000")]
    same_as_one_thread("random short lines", random_lines(rng, 200, 10), [], [(2, "1"), (3, "7")])
    for chunk in [100, 1000]:
        data = random_lines(rng, 3000, chunk)
        for end, text in [("newline", data), ("no final newline", data.rstrip(b"\r\n"))]:
            for extra in [[], ["--json"]]:
                same_as_one_thread("random lines %d %s" % (chunk, end), text, extra,
                                   runs if extra == [] else runs[:2])
    # W3C: the #Fields: layout is carried from block to block in order.
    iis = open(os.path.join(LOGS, "iis-fields-change.log"), "rb").read().splitlines(keepends=True)
    data = iis[0] + b"".join(rng.choice(iis) for _ in range(3000))
    same_as_one_thread("w3c random lines", data, [], runs[:4])
    # Lines longer than --max-line across many blocks: streamed once, in
    # order, each reported with its number; the ones around them decoded.
    long_at = [2, 3, 26, 50]  # line numbers: two in a row, one ending on a block's edge, the last
    lines = [line("/" + "%41" * (1 << 18)) if n in long_at else line("/%d/%%41" % n) for n in range(1, 51)]
    # Line 26 ends where a 1000-byte block ends: line 27 starts one.
    head = sum(len(l) + 1 for l in lines[:25])
    lines[25] = line("/" + "%41" * (1 << 18) + "b" * (-(head + len(lines[25]) + 1) % 1000))
    check("long line 26 ends a block", (head + len(lines[25]) + 1) % 1000 == 0)
    data = b"\n".join(lines)  # no newline after the last, long, line
    ref = same_as_one_thread("long lines", data, ["--max-line", "4k"], [(2, "1000"), (3, "4k"), (2, "64k")])
    numbers = [int(n) for n in re.findall(rb"line (\d+) is longer than --max-line", ref.stderr)]
    check("long lines (each reported once, with its number)", numbers == long_at, short(ref.stderr))
    check("long lines (the others decoded)", ref.stdout.count(b"/A ") == 50 - len(long_at),
          "%d" % ref.stdout.count(b"/A "))
    check("long lines (streamed undecoded)", ref.stdout.count(b"%41" * 1000) >= len(long_at))
    # A regular file as stdin is read from its offset, and left at its end
    # as a reader in order leaves it.
    data = random_lines(rng, 3000, 1000)
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        f.write(data)
        f.flush()
        at = len(data) // 3
        want = run(["--threads", "1"], data[at:]).stdout
        fd = os.open(f.name, os.O_RDONLY)
        os.lseek(fd, at, os.SEEK_SET)
        result = subprocess.run(WRAPPER + [PCT, "logs", "--threads", "2", "--chunk-size", "1000"], stdin=fd,
                                capture_output=True)
        left = os.lseek(fd, 0, os.SEEK_CUR)
        os.close(fd)
        check("stdin file at its offset, threads", result.returncode == 0 and result.stdout == want,
              first_difference(result.stdout, want))
        check("stdin file left at its end", left == len(data), "%d of %d" % (left, len(data)))


# --------------------------------------------------------------------------
# Exact outputs
# --------------------------------------------------------------------------

def test_sample():
    for extra in [[], ["--threads", "2", "--chunk-size", "10k"]]:
        result = run_ok("sample", [SAMPLE] + extra)
        want = open(os.path.join(LOGS, "sample-access.expected"), "rb").read()
        check("sample %s (matches sample-access.expected)" % extra, result.stdout == want,
              first_difference(result.stdout, want))
    iis = os.path.join(LOGS, "iis-fields-change.log")
    result = run_ok("iis", [iis])
    want = open(os.path.join(LOGS, "iis-fields-change.expected"), "rb").read()
    check("iis (matches iis-fields-change.expected)", result.stdout == want,
          first_difference(result.stdout, want))


def first_difference(got, want):
    for i, (a, b) in enumerate(zip(got.split(b"\n"), want.split(b"\n"))):
        if a != b:
            return "line %d: got %s, want %s" % (i + 1, short(a, 300), short(b, 300))
    return "lengths %d vs %d" % (len(got), len(want))


def expect_line(name, args, data, want):
    result = run_ok(name, args, data)
    check(name + " (stdout)", result.stdout == want,
          "got %s, want %s" % (short(result.stdout, 300), short(want, 300)))


def test_decoding():
    p = b'1.2.3.4 - - [t] "GET '
    s = b' HTTP/1.1" 200 5 "-" "ua"\n'
    expect_line("path and form query", [], p + b"/a%20b/c%2Fd?x=1+2%26y%3D&z=%C3%A9" + s,
                p + b"/a\\x20b/c%2Fd?x=1\\x202%26y%3D&z=\xc3\xa9" + s)
    # A decoded space inside the quoted request: \x20, so the line splits into
    # the same fields (awk '{print $7}' is the whole target); --raw-spaces
    # writes it as it is.
    expect_line("raw spaces", ["--raw-spaces"], p + b"/a%20b?x=1+2" + s, p + b"/a b?x=1 2" + s)
    expect_line("decode slash", ["--decode-slash"], p + b"/c%2Fd" + s, p + b"/c/d" + s)
    expect_line("plain query", ["--query", "plain"], p + b"/?a=1+2%20" + s, p + b"/?a=1+2\\x20" + s)
    expect_line("keep query", ["--query", "keep"], p + b"/%41?a=%41+" + s, p + b"/A?a=%41+" + s)
    expect_line("keep query as written", ["--query", "keep"], p + b'/?a=\\"%0A' + s, p + b'/?a=\\"%0A' + s)
    expect_line("control escapes", [], p + b"/%0A%0D%09%1B[31m%00%7F" + s,
                p + b"/\\n\\r\\t\\x1b[31m\\x00\\x7f" + s)
    expect_line("C1 controls", [], p + b"/%C2%9B2J" + s, p + b"/\\xc2\\x9b2J" + s)
    # Controls in the text that is not decoded, wherever they are in the
    # line: escaped, a tab kept; a CR only ends a line before its newline.
    ua = b' HTTP/1.1" 200 5 "-" "u\ra\x1b\tb\x7f\xc2\x9b"'
    clean = (p + b"/%41" + s) * 4  # (few controls: not taken for binary data)
    for end in [b"\n", b"\r\n", b""]:
        expect_line("controls not decoded %r" % end, [], clean + b"1.2.3.4\x00 - - [t] \"GET /%41" + ua + end,
                    (p + b"/A" + s) * 4 + b"1.2.3.4\\x00 - - [t] \"GET /A" + ua.replace(b"\r", b"\\r").replace(b"\x1b", b"\\x1b")
                    .replace(b"\x7f", b"\\x7f").replace(b"\xc2\x9b", b"\\xc2\\x9b") + (end or b"\n"))
    expect_line("C1 lead alone not escaped", [], p + b"/%41" + b' HTTP/1.1" 200 5 "-" "\xc2\xa9"\r\n',
                p + b"/A" + b' HTTP/1.1" 200 5 "-" "\xc2\xa9"\r\n')
    expect_line("quote and backslash", [], p + b"/%22%5C" + s, p + b'/\\"\\\\' + s)
    expect_line("apache escapes kept", [], p + b'/\\"%22\\\\\\x41' + s, p + b'/\\"\\"\\\\\\x41' + s)
    expect_line("invalid utf8 -> U+FFFD", [], p + b"/%FFa" + s, p + b"/\xef\xbf\xbda" + s)
    expect_line("--bytes keeps", ["--bytes"], p + b"/%FFa" + s, p + b"/\xffa" + s)
    expect_line("percent-u", ["--percent-u"], p + b"/%uD83D%uDE00" + s, p + b"/\xf0\x9f\x98\x80" + s)
    expect_line("no percent-u by default", [], p + b"/%uD83D" + s, p + b"/%uD83D" + s)
    expect_line("referer", ["--referer"],
                b'1 - - [t] "GET /%41 HTTP/1.1" 200 5 "http://x/%41?q=a+b%0A" "u%41"\n',
                b'1 - - [t] "GET /A HTTP/1.1" 200 5 "http://x/A?q=a\\x20b\\n" "u%41"\n')
    expect_line("common", [], b'1 - - [t] "GET /%41 HTTP/1.0" 200 -\n', b'1 - - [t] "GET /A HTTP/1.0" 200 -\n')
    expect_line("combined needs referer", ["--format", "combined"], b'1 - - [t] "GET /%41 HTTP/1.0" 200 -\n',
                b'1 - - [t] "GET /%41 HTTP/1.0" 200 -\n')
    expect_line("field", ["--field", "2"], b"a /x%20y%0A?q=1+1 c\n", b"a /x\\x20y\\n?q=1\\x201 c\n")
    expect_line("field missing", ["--field", "5"], b"a /x%20y c\n", b"a /x%20y c\n")
    expect_line("unparsed: controls escaped", [], b"\x1b[2J\t%41 \xc2\x9b garbage\n",
                b"\\x1b[2J\t%41 \\xc2\\x9b garbage\n")
    expect_line("unparsed --raw", ["--raw"], b"\x1b[2J %41 garbage\n", b"\x1b[2J %41 garbage\n")
    expect_line("agent: controls escaped", [], p + b"/" + s.replace(b"ua", b"u\x1b]0;x\x07a"),
                p + b"/" + s.replace(b"ua", b"u\\x1b]0;x\\x07a"))
    expect_line("agent --raw", ["--raw"], p + b"/" + s.replace(b"ua", b"u\x1ba"),
                p + b"/" + s.replace(b"ua", b"u\x1ba"))
    # A stray backslash is a byte like any other: escaped, and what follows
    # it decoded and UTF-8-checked (it used to be copied undecoded).
    expect_line("stray backslash", ["--field", "2"], b"x /dir\\%C3%A9 y\n", b"x /dir\\\\\xc3\xa9 y\n")
    expect_line("stray backslash, raw byte", ["--field", "2"], b"x /a\\\xff y\n",
                b"x /a\\\\\xef\xbf\xbd y\n")
    expect_line("backslash at the end", ["--field", "2"], b"x /a%41\\ y\n", b"x /aA\\\\ y\n")
    # Decoded text cannot forge a W3C directive.
    w3c = b"#Fields: cs-uri-stem sc-status\n"
    expect_line("w3c %23Fields", ["--format", "w3c"], w3c + b"%23Fields:%20date 200\n",
                w3c + b"%23Fields:\\x20date 200\n")
    expect_line("field %23 at line start", ["--field", "1"], b"%23x y\n", b"%23x y\n")
    expect_line("w3c # inside", ["--format", "w3c"], w3c + b"/%23x 200\n", w3c + b"/#x 200\n")
    # UTF-8 is checked on the decoded bytes (Unicode Table 3-7), ill-formed
    # subparts each become U+FFFD; long ASCII and valid runs pass as they are.
    fffd = b"\xef\xbf\xbd"
    for name, target, want in [
            ("overlong", b"/%E0%80%80", fffd * 3), ("overlong 2", b"/%C0%AF", fffd * 2),
            ("surrogate", b"/%ED%A0%80", fffd * 3), ("above U+10FFFF", b"/%F4%90%80%80", fffd * 4),
            ("truncated", b"/%F0%9F%98", fffd), ("truncated 3", b"/%E2%82", fffd),
            ("stray continuation", b"/a%80b", b"a" + fffd + b"b"),
            ("valid 4 bytes", b"/%F0%9F%98%80x", b"\xf0\x9f\x98\x80x"),
            ("U+FFFF", b"/%EF%BF%BF", b"\xef\xbf\xbf"),
            ("long ascii then bad", b"/" + b"a" * 40 + b"%FF" + b"b" * 40,
             b"a" * 40 + fffd + b"b" * 40)]:
        expect_line("utf-8 " + name, [], p + target + s, p + b"/" + want + s)
        result = run_ok("utf-8 stats " + name, ["--stats"], p + target + s)
        bad = re.search(rb"^invalid UTF-8: *(\d+)", result.stderr, re.M)
        check("utf-8 stats " + name, bad is not None and int(bad.group(1)) == (want.find(fffd) >= 0),
              short(result.stderr))


def check_json(name, out):
    keys = {"remote", "time", "method", "path", "query", "status", "bytes", "referer", "agent"}
    ok = True
    for i, text in enumerate(out.splitlines()):
        try:
            obj = json.loads(text.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            return check(name + " (valid JSON)", False, "line %d: %s: %s" % (i + 1, e, short(text)))
        if not isinstance(obj, dict):
            ok = False
        elif "unparsed" in obj or "directive" in obj:
            ok &= len(obj) == 1
        elif "line" in obj:  # --field
            ok &= {"path", "query", "line"} == set(obj)
        elif "format" in obj:  # a record: every field of its format
            ok &= "path" in obj and isinstance(obj.get("query", []), list) and all(
                isinstance(p, list) and len(p) == 2 for p in obj.get("query", []))
        else:
            ok &= set(obj) == keys and isinstance(obj["query"], list) and all(
                isinstance(p, list) and len(p) == 2 for p in obj["query"])
        if not ok:
            return check(name + " (JSON keys)", False, "line %d: %s" % (i + 1, short(text)))
    return check(name + " (valid JSON)", True)


COMBINED_TEMPLATE = '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"'
COMMON_TEMPLATE = '%h %l %u %t "%r" %>s %b'


def random_access_line(rng, combined):
    """A well-formed combined or common line whose fields hold what real
    ones do and worse: escapes (good, stray, of controls and quotes), UTF-8
    good and bad, '+', absolute URLs, '-' fields, leading zeros, no '\\'."""
    def text(n):
        pieces = ["a", "b", "/", "%41", "%2F", "%C3%A9", "%E2%82%AC", "%C3", "%FF", "%0A", "%22",
                  "%5C", "%25", "%", "%4", "+", "=", "&", "?", "#", ";", "\u00e9", "\u6771",
                  "\x01", "\x7f", "\u0085", " "]
        return "".join(rng.choice(pieces) for _ in range(rng.randrange(n)))
    target = rng.choice(["", "http://example.com", "https://h.example:8443"]) + "/" + text(12)
    if rng.random() < 0.6:
        target += "?" + text(12)
    request = rng.choice(["GET %s HTTP/1.1", "POST %s HTTP/2.0", "GET %s", "%s", "get %s HTTP/1.0"]) % target
    request = request.replace('"', "")
    fields = [rng.choice(["192.0.2.%d" % rng.randrange(256), "-", "2001:db8::1"]),
              rng.choice(["-", "ident"]), rng.choice(["-", "frank", "b\u00f6b"]),
              "[" + rng.choice(["10/Oct/2026:13:55:36 +0000", "14/Mar/2026:06:00:00 -0700"]) + "]",
              '"' + request + '"',
              rng.choice(["200", "404", "007", "-", "0"] if rng.random() < 0.95 else ["2x0", "20-"]),
              rng.choice(["0", "123", "0123", "-", "99999999999", "12345678", "123456789", "9" * 19, "9" * 20]
                         if rng.random() < 0.95 else ["1234567-", "12:4", "1/2"])]
    if combined:
        fields += ['"' + rng.choice(["-", "", "https://r.example/?q=" + text(8).replace('"', "")]) + '"',
                   '"' + rng.choice(["-", "", "Mozilla/5.0 (X11; Linux x86_64)", text(10).replace('"', "")]) + '"']
    line = " ".join(fields).encode("utf-8").decode("unicode_escape").encode("latin-1", "replace")
    return line.replace(b"\\", b"/")


def random_head_line(rng):
    """A line shaped like a combined one whose first fields, status and size
    are drawn from good and bad pieces: empty fields, tabs, long remotes and
    users (the third space past byte 64), brackets, non-numbers, lines
    shorter than 64 bytes."""
    def pick(good, *bad):
        return good if rng.random() < 0.85 else rng.choice(bad)
    long_text = "".join(rng.choice("abc019.:-") for _ in range(rng.randrange(20, 70)))
    remote = pick(rng.choice(["192.0.2.1", "2001:db8:85a3::8a2e:370:7334", "-", long_text,
                              "a" * rng.randrange(1, 64)]), "", "a]b", "[x", "h\\tx")
    ident = pick("-", "", "frank", long_text, "x]")
    user = pick(rng.choice(["-", "frank", long_text]), "", "b\\tob", "[u")
    time_ = pick(rng.choice(["[14/Mar/2026:06:00:00 +0000]", "[t]"]), "[]", "[x]", "14/Mar/2026:06:00:00 +0000]",
                 "[no close", "[a]b]", "[" + long_text + "]", "[a b c]")
    sep = lambda: pick(" ", "  ", "\\t", "")
    status = pick(rng.choice(["200", "404", "-"]), "", "2x0", "0123", "2" * rng.randrange(1, 20), "20 0")
    size = pick(rng.choice(["512", "0", "-"]), "", "5x2", "1" * rng.randrange(1, 20), "5 12")
    agent = rng.choice(["ua", "", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"])
    text = (remote + sep() + ident + sep() + user + sep() + time_ + ' "GET /x%41y HTTP/1.1"' + sep() +
            status + sep() + size + ' "-" "' + agent + '"')
    return text.encode("utf-8").decode("unicode_escape").encode("latin-1")


HEAD_ORACLE = re.compile(rb'[^ ]+ [^ ]+ [^ ]+ \[[^\]]*\] "GET /x%41y HTTP/1\.1" (?:-|-?[0-9]+) (?:-|-?[0-9]+) "-" ".*"',
                         re.S)


def test_shapes():
    """Combined lines are parsed by fast paths (the first fields and the
    time from masks of the line's first 64 bytes, status and size from masks
    of 16 bytes) and by searches field by field where those do not apply:
    on random shapes of those fields, what is parsed must be exactly what
    the format's grammar (an independent regular expression here) accepts,
    in line output and in JSON."""
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("shapes: seed %d (PCT_TEST_SEED repeats it)" % seed)
    rng = random.Random(seed)
    lines = [random_head_line(rng) for _ in range(3000)]
    data = b"\n".join(lines) + b"\n"
    want = [bool(HEAD_ORACLE.fullmatch(x)) for x in lines]
    check("shapes: both kinds drawn", 300 < sum(want) < len(lines) - 300,
          "%d of %d lines parse" % (sum(want), len(lines)))
    check("shapes: both lengths drawn", 300 < sum(len(x) < 64 for x in lines) < len(lines) - 300,
          "%d lines under 64 bytes" % sum(len(x) < 64 for x in lines))
    out = run_ok("shapes lines", ["--format", "combined", "--raw"], data).stdout.split(b"\n")
    js = run_ok("shapes json", ["--format", "combined", "--json"], data).stdout.split(b"\n")
    bad_lines = bad_json = 0
    for i, (x, parsed) in enumerate(zip(lines, want)):
        expect = x.replace(b"/x%41y", b"/xAy") if parsed else x
        if out[i] != expect:
            bad_lines += 1
            if bad_lines <= 3:
                check("shapes line", False, "line %s: want %s, got %s" % (short(x), short(expect), short(out[i])))
        got_parsed = json.loads(js[i]).get("path") == "/xAy"
        if got_parsed != parsed:
            bad_json += 1
            if bad_json <= 3:
                check("shapes json", False, "line %s: parsed %s, want %s" % (short(x), got_parsed, parsed))
    check("shapes: line output as the grammar says (%d lines)" % len(lines), bad_lines == 0,
          "%d lines differ" % bad_lines)
    check("shapes: JSON as the grammar says (%d lines)" % len(lines), bad_json == 0,
          "%d lines differ" % bad_json)


def test_json_writers_agree():
    """JSON of combined and common lines is written by a fast writer from
    the parser's spans, and by the record writer for lines with log escapes
    or trailing fields: both must give the same object for the same line
    (the record writer reached here through --log-format)."""
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("json writers: seed %d (PCT_TEST_SEED repeats it)" % seed)
    rng = random.Random(seed)
    for combined, template in [(True, COMBINED_TEMPLATE), (False, COMMON_TEMPLATE)]:
        lines = [random_access_line(rng, combined) for _ in range(400)]
        data = b"\n".join(lines) + b"\n"
        for extra in [[], ["--referer"], ["--query", "plain"], ["--decode-slash"]]:
            fast = run_ok("json fast", ["--json", "--format", "combined" if combined else "common"] + extra, data)
            record = run_ok("json record", ["--json", "--log-format", template] + extra, data)
            bad = compared = 0
            for line_, a, b in zip(lines, fast.stdout.splitlines(), record.stdout.splitlines()):
                oa, ob = json.loads(a), json.loads(b)
                if "unparsed" in ob:  # the template's parser is stricter here and there
                    continue
                compared += 1
                ob["format"] = oa.get("format")
                if oa != ob:
                    bad += 1
                    if bad == 1:
                        check("json writers agree %s %s" % ("combined" if combined else "common", extra),
                              False, "line %s: fast %s, record %s" % (short(line_), short(a), short(b)))
            if bad == 0:
                check("json writers agree %s %s" % ("combined" if combined else "common", extra),
                      compared >= 0.8 * len(lines) and
                      len(fast.stdout.splitlines()) == len(lines) == len(record.stdout.splitlines()),
                      "%d of %d lines compared" % (compared, len(lines)))


def time_is_real(year, month, day, hms, zone_h, zone_m):
    """A day of its month (Gregorian leap years), a time of day (a leap
    second allowed) and an RFC 3339 offset."""
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    h, mi, sec = (int(x) for x in hms.split(":"))
    zone_ok = zone_h is None or (int(zone_h[1:]) <= 23 and int(zone_m) <= 59)
    return 1 <= day <= days and h <= 23 and mi <= 59 and sec <= 60 and zone_ok


def test_json_time_iso():
    """time_iso of access log times: the usual 26-byte form is converted by
    a fast path (its date kept from the line before when it is the same),
    anything else by the general parser. Random mutations of a time, and runs
    of times with one date and random times of day, compared with a rule
    written here (the form, the month names, and
    a real date and time: the day in its month, leap years, hours 0-23,
    minutes 0-59, seconds 0-60, offsets up to 23:59; else null)."""
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("json time_iso: seed %d (PCT_TEST_SEED repeats it)" % seed)
    rng = random.Random(seed)
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    form = re.compile(r"(\d\d)/(%s)/(\d{4}):(\d\d:\d\d:\d\d)(?: ([+-]\d\d)(\d\d))?" % "|".join(months))
    times = []
    for _ in range(3000):
        t = list("%02d/%s/%04d:%02d:%02d:%02d %s%04d" % (
            rng.randrange(100), rng.choice(months), rng.randrange(10000), rng.randrange(100),
            rng.randrange(100), rng.randrange(100), rng.choice("+-"), rng.randrange(10000)))
        for _ in range(rng.choice([0, 0, 1, 2])):  # mutations: digits, separators, letters
            t[rng.randrange(len(t))] = rng.choice("0123456789/:+- aMJnDc\x7f")
        if rng.random() < 0.1:
            t = t[:rng.randint(18, 26)]
        times.append("".join(t))
    # Runs of lines that share their date and zone, as in a real log (the
    # writer keeps the last date converted: only the time of day changes,
    # and may be out of range or broken).
    for _ in range(3000):
        if rng.random() < 0.1:
            t = "%02d/%s/%04d:%02d:%02d:%02d %s%02d%02d" % (
                rng.randrange(1, 32), rng.choice(months), rng.randrange(1900, 2100), rng.randrange(24),
                rng.randrange(60), rng.randrange(60), rng.choice("+-"), rng.randrange(24), rng.randrange(60))
        else:
            day = list("%02d:%02d:%02d" % (rng.randrange(26), rng.randrange(62), rng.randrange(62)))
            if rng.random() < 0.1:
                day[rng.randrange(8)] = rng.choice("0123456789:/ a")
            t = times[-1][:12] + "".join(day) + times[-1][20:]
        times.append(t)
    data = "".join('192.0.2.1 - - [%s] "GET /a HTTP/1.1" 200 5 "-" "x"\n' % t for t in times)
    out = run_ok("json time_iso", ["--json", "--format", "combined"], data.encode()).stdout.splitlines()
    bad = []
    for t, o in zip(times, out):
        m = form.fullmatch(t)
        want = None
        if m and time_is_real(int(m[3]), months.index(m[2]) + 1, int(m[1]), m[4], m[5], m[6]):
            want = "%s-%02d-%sT%s" % (m[3], months.index(m[2]) + 1, m[1], m[4])
            want += "%s:%s" % (m[5], m[6]) if m[5] else ""
        got = json.loads(o).get("time_iso", "missing")
        if got != want:
            bad.append("%r: %r, want %r" % (t, got, want))
    check("json time_iso of %d mutated times" % len(times), len(out) == len(times) and not bad,
          "; ".join(bad[:3]))


def test_json():
    data = (b'192.0.2.9 - bob [14/Mar/2026:06:00:00 +0000] "POST /a%2Fb/%E2%82%AC?x=1+2&y=%26&&z&=v HTTP/1.1" '
            b'201 17 "http://r/?q=%0A" "UA \\"quoted\\""\n')
    result = run_ok("json", ["--json"], data)
    check_json("json", result.stdout)
    obj = json.loads(result.stdout)
    # Every field, the log's own escapes (\\") undone.
    want = {"format": "combined", "remote": "192.0.2.9", "ident": None, "user": "bob",
            "time": "14/Mar/2026:06:00:00 +0000", "time_iso": "2026-03-14T06:00:00+00:00",
            "method": "POST", "path": "/a%2Fb/\u20ac",
            "query": [["x", "1 2"], ["y", "&"], ["z", ""], ["", "v"]], "protocol": "HTTP/1.1",
            "status": 201, "bytes": 17, "referer": "http://r/?q=%0A", "agent": 'UA "quoted"'}
    check("json values", obj == want, "got %r" % obj)
    # Queries decoded whole then split, and those split first (an escaped
    # '&' or '=', a %uXXXX, bad UTF-8): the same parameters either way.
    for target, query in [
            (b"/?a=%C3%A9+b&c=%0A%22%5C&d", [["a", "\u00e9 b"], ["c", '\n"\\'], ["d", ""]]),
            (b"/?a=%3D%3d&b=%26", [["a", "=="], ["b", "&"]]),
            (b"/?a=%C3&b=%C3%A9&%C2%85=%E2", [["a", "\ufffd"], ["b", "\u00e9"], ["\u0085", "\ufffd"]]),
            (b"/?a=%C3%A9%u0026b&%u003D", [["a", "\u00e9%u0026b"], ["%u003D", ""]])]:
        line = b'1 - - [t] "GET ' + target + b' HTTP/1.1" 200 1 "-" "-"\n'
        for args in [["--json"], ["--json", "--stats"]]:
            result = run_ok("json query %s" % target, args, line)
            check("json query %s %s" % (target, " ".join(args)),
                  json.loads(result.stdout)["query"] == query, short(result.stdout))
    result = run_ok("json percent-u query", ["--json", "--percent-u"], b'1 - - [t] "GET /?a=%u0026b&%u003D HTTP/1.1" 200 1 "-" "-"\n')
    check("json percent-u query", json.loads(result.stdout)["query"] == [["a", "&b"], ["=", ""]], short(result.stdout))
    result = run_ok("json referer", ["--json", "--referer"], data)
    check("json referer decoded", json.loads(result.stdout)["referer"] == "http://r/?q=\n")
    result = run_ok("json common", ["--json"], b'1 - - [t] "GET / HTTP/1.0" 404 -\n')
    obj = json.loads(result.stdout)
    check("json common: no referer or agent, bytes null",
          obj.get("format") == "common" and "referer" not in obj and "agent" not in obj
          and obj["bytes"] is None, short(result.stdout))
    result = run_ok("json unparsed", ["--json"], b"junk \xff\x1b\n")
    check("json unparsed", json.loads(result.stdout) == {"unparsed": "junk \ufffd\x1b"})
    result = run(["--json", "--bytes"])
    check("json --bytes is a usage error", result.returncode == 2)
    # JSON has no leading zeros: such a field is a string.
    for size, want in [(b"0123", "0123"), (b"007", "007"), (b"0", 0), (b"10", 10), (b"-", None)]:
        result = run_ok("json bytes %s" % size, ["--json"],
                        b'1 - - [t] "GET / HTTP/1.0" 200 ' + size + b"\n")
        check("json bytes %s" % size, json.loads(result.stdout)["bytes"] == want, short(result.stdout))
    w3c = b"#Fields: date c-ip cs-uri-stem time sc-status\n2026-03-14 1.2.3.4 /a 06:00:00 007\n"
    result = run_ok("json w3c", ["--json"], w3c)
    obj = json.loads(result.stdout.splitlines()[1])
    check("json w3c date, time, time_iso", obj["date"] == "2026-03-14" and obj["time"] == "06:00:00"
          and obj["time_iso"] == "2026-03-14T06:00:00Z", short(result.stdout))
    check("json w3c status 007 a string", obj["status"] == "007", short(result.stdout))
    test_json_writers_agree()
    test_json_time_iso()


def test_usage():
    for args in [["--bogus"], ["--format", "xml"], ["--query", "x"], ["--threads", "x"], ["--field"],
                 ["--json=1"], ["/nonexistent/file.log"]]:
        result = run(args)
        check("usage %s (exit 2)" % args, result.returncode == 2, "exit %d" % result.returncode)
        check("usage %s (message)" % args, result.stderr.strip() != b"")
    # Values out of range: a message naming the option and its range; huge
    # values neither wrap nor spin.
    for args, message in [(["--threads", "0"], b"--threads must be 1..256"),
                          (["--threads", "257"], b"--threads must be 1..256"),
                          (["--threads", "-1"], b"--threads must be 1..256"),
                          (["--chunk-size", "0"], b"--chunk-size must be 1..1G"),
                          (["--chunk-size", "9223372036854775809"], b"--chunk-size must be 1..1G"),
                          (["--chunk-size", "18446744073709551617"], b"--chunk-size must be 1..1G"),
                          (["--chunk-size", "17179869184k"], b"--chunk-size must be 1..1G"),
                          (["--chunk-size", "2G"], b"--chunk-size must be 1..1G"),
                          (["--chunk-size", "1x"], b"--chunk-size must be 1..1G"),
                          (["--max-line", "100"], b"--max-line must be 4K..256M"),
                          (["--max-line", "1G"], b"--max-line must be 4K..256M"),
                          (["--field", "65"], b"--field must be 1..64")]:
        result = run(args)
        check("usage %s (exit 2)" % args, result.returncode == 2, "exit %d" % result.returncode)
        check("usage %s (message)" % args, message in result.stderr, short(result.stderr))
    result = run(["/"])
    check("directory (exit 2)", result.returncode == 2)
    check("directory (named)", result.stderr.startswith(b"pct logs: /: is a directory"),
          short(result.stderr))
    result = run(["--help"])
    check("--help", result.returncode == 0 and b"Usage: pct logs" in result.stdout
          and b"Exit status" in result.stdout)
    result = subprocess.run(WRAPPER + [PCT, "--help"], capture_output=True)
    check("pct --help lists logs", b"logs" in result.stdout)
    result = subprocess.run(WRAPPER + [PCT, "--impl", "scalar", "logs", "--threads", "1"],
                            input=line("/%41") + b"\n", capture_output=True)
    check("options before logs", result.returncode == 0 and b"GET /A " in result.stdout,
          short(result.stdout + result.stderr))
    # Files and stdin mixed, in order.
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        f.write(line("/%41") + b"\n")
        f.flush()
        result = run([f.name, "-", f.name], line("/%42") + b"\n")
        check("files and -", result.stdout.count(b"GET /A ") == 2 and b"GET /B " in result.stdout
              and result.stdout.index(b"GET /B ") > result.stdout.index(b"GET /A "))


def test_stats():
    data = (line("/%41%zz") + b"\n" + line("/plain") + b"\n" + b"junk\n" + line("/%FF") + b"\n")
    result = run_ok("stats", ["--stats", "--threads", "2"], data)
    err = result.stderr.decode()
    for key, value in [("lines", 4), ("bytes", len(data)), ("lines with escapes", 2),
                       ("malformed escapes", 1), ("invalid UTF-8", 1), ("unparsed lines", 1)]:
        m = re.search(r"^%s: *(\d+)" % re.escape(key), err, re.M)
        check("stats %s" % key, m is not None and int(m.group(1)) == value, repr(err))
    check("stats GB/s", re.search(r"^throughput: *[\d.]+ GB/s", err, re.M) is not None, repr(err))
    # %uXXXX counts as an escape only where it is decoded: lower-case 'u'.
    result = run_ok("stats %u", ["--stats", "--percent-u"], line("/%u00E9") + b"\n" + line("/%U00E9") + b"\n")
    err = result.stderr.decode()
    for key, value in [("lines with escapes", 1), ("malformed escapes", 1)]:
        m = re.search(r"^%s: *(\d+)" % re.escape(key), err, re.M)
        check("stats %%u %s" % key, m is not None and int(m.group(1)) == value, repr(err))
    result = run_ok("progress", ["--progress", SAMPLE, "--threads", "1"])
    check("progress on stderr", b"%" in result.stderr and b"ETA" in result.stderr)
    # Threads that read a file in blocks: the bar still reaches 100%.
    result = run_ok("progress threads", ["--progress", SAMPLE, "--threads", "2", "--chunk-size", "1k"])
    check("progress threads (100%)", b"100%" in result.stderr, short(result.stderr[-200:]))
    result = run_ok("no progress when not a tty", [SAMPLE])
    check("no progress when not a tty", result.stderr == b"")


GROUPS = {"lines": test_lines, "threads": test_threads, "blocks": test_blocks, "sample": test_sample,
          "decoding": test_decoding, "json": test_json, "usage": test_usage, "stats": test_stats,
          "shapes": test_shapes, "pipe": test_pipe_size}


def set_pct(path):
    global PCT
    PCT = path


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
