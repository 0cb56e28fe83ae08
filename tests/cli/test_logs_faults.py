#!/usr/bin/env python3
"""Fault injection for `pct logs`: files that change while they are read,
lines longer than any buffer, outputs that fail, compressed and binary input.
Whatever happens, no line read is lost, the fault is named on stderr, and the
exit status says so.

Usage: test_logs_faults.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Prints one line per failed check, then "N passed, M failed"; exits 1 if any
check failed, 77 (a skip, for meson) when a group cannot run here, with the
reason. MESON_EXE_WRAPPER (or PCT_EXE_WRAPPER) runs the binary in cross
builds.
"""
import gzip
import hashlib
import os
import random
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

from clitest import SKIP, WRAPPER, check, log_lines, run_groups, short

PCT = None


def pct(args, **kw):
    return subprocess.Popen(WRAPPER + [PCT, "logs"] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)


def run(args, stdin=b""):
    return subprocess.run(WRAPPER + [PCT, "logs"] + args, input=stdin, capture_output=True,
                          timeout=600)


def expected(data):
    """What pct logs makes of data when nothing goes wrong."""
    result = run(["--threads", "1"], data)
    assert result.returncode == 0, result.stderr
    return result.stdout


def whole_lines_prefix(name, out, want):
    """out is want up to some line, then perhaps the part of the next line
    that was read before the input ended (written as a line)."""
    check(name + " (some output)", len(out) > 0)
    check(name + " (whole lines)", out.endswith(b"\n"), short(out[-40:]))
    out = out[:out.rfind(b"\n", 0, len(out) - 1) + 1]
    check(name + " (a prefix of the full output)", want.startswith(out),
          "%d bytes, differs at %d" % (len(out), next((i for i, (a, b) in enumerate(zip(out, want))
                                                       if a != b), -1)))


# --------------------------------------------------------------------------
# Files that change while they are read
# --------------------------------------------------------------------------

def change_under_reader(name, data, change, extra_files=(), threads="1"):
    """Runs pct logs on a file, reads a little output (pct is then blocked
    writing to the pipe, the file only partly read), calls change(path),
    reads the rest. Returns (exit status, stdout, stderr, path)."""
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "access.log")
    with open(path, "wb") as f:
        f.write(data)
    proc = pct(["--threads", threads, "--chunk-size", "64k", path] + list(extra_files))
    first = proc.stdout.read(4096)
    change(path)
    rest, err = proc.communicate(timeout=600)
    shutil.rmtree(tmp)
    return proc.returncode, first + rest, err, path


def test_changes():
    data = log_lines(120000, 1)  # ~14 MB: far more than pct reads ahead
    want = expected(data)
    # logrotate's copytruncate: the file is emptied while it is read.
    code, out, err, path = change_under_reader("truncated", data, lambda p: os.truncate(p, 0))
    check("truncated (exit 2)", code == 2, "exit %d" % code)
    check("truncated (message names the file)", err.startswith(("pct logs: %s: file shrank" % path).encode()),
          short(err))
    whole_lines_prefix("truncated", out, want)
    # Shrinks to a size that cuts a line: the part read is still written.
    code, out, err, path = change_under_reader("shrank", data, lambda p: os.truncate(p, 5000007))
    check("shrank (exit 2)", code == 2, "exit %d" % code)
    check("shrank (message)", b"file shrank while being read" in err, short(err))
    check("shrank (all read is written)", out.count(b"\n") == data[:5000007].count(b"\n") + 1,
          "%d lines" % out.count(b"\n"))
    whole_lines_prefix("shrank", out, want)

    def append(p):
        with open(p, "ab") as f:
            f.write(log_lines(10, 2))
    code, out, err, path = change_under_reader("grew", data, append)
    check("grew (exit 2)", code == 2, "exit %d" % code)
    check("grew (message)", ("pct logs: %s: file grew" % path).encode() in err, short(err))
    check("grew (everything written)", out == expected(data + log_lines(10, 2)))
    code, out, err, path = change_under_reader("removed", data, os.unlink)
    check("removed (exit 2)", code == 2, "exit %d" % code)
    check("removed (message)", ("pct logs: %s: file removed" % path).encode() in err, short(err))
    check("removed (everything written)", out == want)
    # The other files are still processed after a fault.
    with tempfile.NamedTemporaryFile(suffix=".log") as other:
        other.write(log_lines(3, 3))
        other.flush()
        code, out, err, path = change_under_reader("then another", data,
                                                   lambda p: os.truncate(p, 0), [other.name])
        check("then another (exit 2)", code == 2)
        check("then another (processed)", out.endswith(expected(log_lines(3, 3))))
    # With threads that each read blocks of the file (a regular file of
    # several chunks): the same reports, and the output still whole lines in
    # order.
    for threads in ["2", "3"]:
        label = "threads %s " % threads
        code, out, err, path = change_under_reader(label + "truncated", data, lambda p: os.truncate(p, 0),
                                                   threads=threads)
        check(label + "truncated (exit 2)", code == 2, "exit %d" % code)
        check(label + "truncated (message)",
              err.startswith(("pct logs: %s: file shrank" % path).encode()), short(err))
        whole_lines_prefix(label + "truncated", out, want)
        code, out, err, path = change_under_reader(label + "shrank", data, lambda p: os.truncate(p, 5000007),
                                                   threads=threads)
        check(label + "shrank (exit 2)", code == 2, "exit %d" % code)
        check(label + "shrank (message)", b"file shrank while being read" in err, short(err))
        check(label + "shrank (all read is written)", out.count(b"\n") == data[:5000007].count(b"\n") + 1,
              "%d lines" % out.count(b"\n"))
        whole_lines_prefix(label + "shrank", out, want)
        code, out, err, path = change_under_reader(label + "grew", data, append, threads=threads)
        check(label + "grew (exit 2)", code == 2, "exit %d" % code)
        check(label + "grew (message)", ("pct logs: %s: file grew" % path).encode() in err, short(err))
        check(label + "grew (everything written)", out == expected(data + log_lines(10, 2)))
        code, out, err, path = change_under_reader(label + "removed", data, os.unlink, threads=threads)
        check(label + "removed (message)", ("pct logs: %s: file removed" % path).encode() in err,
              short(err))
        check(label + "removed (everything written)", out == want)


def test_inputs():
    data = log_lines(50, 4)
    want = expected(data)
    # A live pipe (`tail -f log | pct logs`): a line is written while the
    # writer still holds the pipe open, the first one too. (The timeout only
    # keeps a hang from blocking the suite.)
    for first in [data[:data.index(b"\n") + 1], b"x\n"]:
        proc = subprocess.Popen(WRAPPER + [PCT, "logs"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        proc.stdin.write(first)
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        got = proc.stdout.readline() if ready else b""
        proc.stdin.close()
        proc.stdout.read()
        proc.stderr.read()
        proc.wait(timeout=600)
        check("live pipe %s (line written before the pipe closes)" % short(first[:10]),
              got == expected(first), short(got))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "a.log")
        with open(path, "wb") as f:
            f.write(data)
        # A regular-file stdin is read from where it is: `{ read x; pct logs; } < f`.
        fd = os.open(path, os.O_RDONLY)
        first = data.index(b"\n") + 1
        os.lseek(fd, first, os.SEEK_SET)
        result = subprocess.run(WRAPPER + [PCT, "logs"], stdin=fd, capture_output=True)
        os.close(fd)
        check("stdin at its offset", result.returncode == 0 and result.stdout == want[want.index(b"\n") + 1:],
              short(result.stdout[:200]))
        # A file without a final newline, then another: two lines, not one.
        nonl = os.path.join(tmp, "nonl.log")
        with open(nonl, "wb") as f:
            f.write(data[:-1])
        result = run(["--json", nonl, path])
        lines = result.stdout.splitlines()
        check("no final newline (lines)", len(lines) == 100, "%d lines" % len(lines))
        check("no final newline (valid JSON)", all(l.startswith(b"{") and l.endswith(b"}") for l in lines))
        # Output to an input file is refused, as cat does; the file is unchanged.
        for args in [[path], ["-"]]:
            with open(path, "ab") as out:
                stdin = open(path, "rb") if args == ["-"] else subprocess.DEVNULL
                result = subprocess.run(WRAPPER + [PCT, "logs"] + args, stdin=stdin, stdout=out,
                                        stderr=subprocess.PIPE)
                if stdin is not subprocess.DEVNULL:
                    stdin.close()
            check("input is output %s (exit 2)" % args, result.returncode == 2)
            check("input is output %s (message)" % args, b"input file is output file" in result.stderr,
                  short(result.stderr))
            check("input is output %s (file unchanged)" % args, open(path, "rb").read() == data)
        with open(path, "ab") as out, open(path, "rb") as stdin:
            result = subprocess.run(WRAPPER + [PCT, "decode"], stdin=stdin, stdout=out,
                                    stderr=subprocess.PIPE)
        check("pct decode < f >> f (exit 2)", result.returncode == 2)
        check("pct decode < f >> f (message)", b"input file is output file" in result.stderr)
        check("pct decode < f >> f (file unchanged)", open(path, "rb").read() == data)
        # Missing files and directories are named; the others still done.
        result = run([os.path.join(tmp, "missing.log"), tmp, path])
        check("missing and dir (exit 2)", result.returncode == 2)
        check("missing and dir (named)", b"missing.log: No such file" in result.stderr
              and (tmp + ": is a directory").encode() in result.stderr, short(result.stderr))
        check("missing and dir (others done)", result.stdout == want)


# --------------------------------------------------------------------------
# Outputs that fail
# --------------------------------------------------------------------------

def test_outputs():
    data = log_lines(20000, 5)
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            result = subprocess.run(WRAPPER + [PCT, "logs"], input=data, stdout=full,
                                    stderr=subprocess.PIPE)
        check("/dev/full (exit 2)", result.returncode == 2, "exit %d" % result.returncode)
        check("/dev/full (message)", result.stderr ==
              b"pct logs: write error: No space left on device, after 0 lines; stopped\n",
              short(result.stderr))
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        f.write(data)
        f.flush()
        # `pct logs F | head -1`: a reader that goes away. Whatever SIGPIPE
        # is set to (shells: its default), pct ignores it: one message
        # saying how many lines went out, and exit 2; never silent, never 0.
        for ignore in [False, True]:
            proc = subprocess.Popen(WRAPPER + [PCT, "logs", "--threads", "2", f.name],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    preexec_fn=(lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
                                    if ignore else None)
            first = proc.stdout.readline()
            proc.stdout.close()
            err = proc.stderr.read()
            code = proc.wait(timeout=600)
            label = "closed pipe, SIGPIPE %s" % ("ignored" if ignore else "default")
            check(label + " (first line)", first == expected(data).split(b"\n")[0] + b"\n")
            check(label + " (exit 2)", code == 2, "exit %d" % code)
            m = re.fullmatch(rb"pct logs: output closed \(broken pipe\) after (\d+) lines?; stopped\n", err)
            check(label + " (message)", m is not None and 1 <= int(m.group(1)) < 20000, short(err))


# --------------------------------------------------------------------------
# Long lines
# --------------------------------------------------------------------------

def feed(proc, chunks):
    def writer():
        try:
            for c in chunks:
                proc.stdin.write(c)
        finally:
            proc.stdin.close()
    t = threading.Thread(target=writer)
    t.start()
    return t


def test_long_line():
    """A 256 MiB line through a pipe: streamed, never held whole. Memory is
    asserted (max RSS), not time."""
    block = b"a%41" * (1 << 18)
    for mode in [[], ["--json"], ["--threads", "2"]]:
        size = (256 if not mode else 32) << 20 if not WRAPPER else (200 if not mode else 24) << 20
        proc = subprocess.Popen(WRAPPER + [PCT, "logs"] + mode, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        t = feed(proc, [b"first\n"] + [block] * (size // len(block)) + [b"\nlast\n"])
        digest, total, head, tail = hashlib.sha256(), 0, b"", b""
        while True:
            piece = proc.stdout.read(1 << 20)
            if not piece:
                break
            if total == 0:
                head = piece[:64]
            digest.update(piece)
            total += len(piece)
            tail = (tail + piece)[-64:]
        err = proc.stderr.read()
        code = proc.wait(timeout=600)
        t.join()
        label = "long line %s" % " ".join(mode)
        check(label + " (exit 0)", code == 0, "exit %d %s" % (code, short(err)))
        check(label + " (reported with its line number)",
              b"standard input: line 2 is longer than --max-line" in err, short(err))
        body = size if not mode == ["--json"] else size + len('{"unparsed":""}')
        check(label + " (passed through whole)", total == len(b"first\n\nlast\n") + body
              + (len('{"unparsed":"first"}') - 5 + len('{"unparsed":"last"}') - 4 if "--json" in mode else 0),
              "%d bytes" % total)
        end = b'a%41"}\n{"unparsed":"last"}\n' if "--json" in mode else b"a%41\nlast\n"
        check(label + " (unchanged)", tail.endswith(end) and head.startswith(b'{"unparsed":"first"}\n{"unparsed":"a%41'
                                                                            if "--json" in mode else b"first\na%41"),
              short(head + tail))
    # The lines read with a long line's end are lines of their own: decoded,
    # not taken for more long lines, even when they add up to more than
    # --max-line.
    short_lines = log_lines(3000, 11)
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        f.write(b"/" + b"%41" * (1 << 18) + b"\n" + short_lines)
        f.flush()
        for mode in [["--threads", "1"], ["--threads", "2"]]:
            result = run(["--max-line", "4k"] + mode + [f.name])
            label = "long line then short ones %s" % " ".join(mode)
            check(label + " (one reported)", result.stderr.count(b"longer than --max-line") == 1
                  and b"line 1 is longer" in result.stderr, short(result.stderr))
            check(label + " (the others decoded)", result.stdout.endswith(expected(short_lines)),
                  short(result.stdout[-200:]))
    # Plain lines, a file far bigger than a chunk: chunks keep their size
    # (memory bounded by the chunks in flight, whatever the file's size).
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        block = log_lines(50000, 4)
        for _ in range(12 if not WRAPPER else 4):
            f.write(block)
        f.flush()
        for mode in [["--threads", "1"], ["--threads", "2"], ["--json", "--threads", "3"]]:
            result = subprocess.run(WRAPPER + [PCT, "logs"] + mode + [f.name], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, timeout=600)
            check("big file %s (exit 0)" % " ".join(mode), result.returncode == 0, short(result.stderr))
    # Under an emulator its own memory counts too: a looser bound, still
    # below the size of the longest line.
    rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    limit = 64 if not WRAPPER else 160
    check("long line memory bounded (max RSS %.0f MiB < %d)" % (rss_mib, limit), rss_mib < limit)


def test_huge_line():
    """A 3 GiB line through a pipe is streamed through, never held: the run
    ends with bounded memory. (Not a sparse file: a run of NULs is a hole,
    taken out of the text, see test_logs_inputs.py.)"""
    if WRAPPER:
        print("skipped: 3 GiB under an emulator takes minutes")
        return SKIP
    size = 3 << 30
    text = log_lines(1000, 6)
    piece = b"x" * (1 << 20)
    proc = subprocess.Popen([PCT, "logs", "--raw", "--stats"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    writer = feed(proc, [text] + [piece] * (size // len(piece)) + [b"\n" + text])
    err = proc.stderr.read()
    proc.wait()
    writer.join()
    check("3 GiB line (exit 0)", proc.returncode == 0, "exit %d %s" % (proc.returncode, short(err)))
    check("3 GiB line (reported)", b"line 1001 is longer than --max-line" in err, short(err))
    check("3 GiB line (all passed through)", re.search(rb"^bytes: *%d$" % (2 * len(text) + size + 1), err, re.M)
          and re.search(rb"^long lines: *1 ", err, re.M) and re.search(rb"^lines: *2001$", err, re.M),
          short(err))
    rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    check("3 GiB line memory bounded (max RSS %.0f MiB < 64)" % rss_mib, rss_mib < 64)


# --------------------------------------------------------------------------
# Compressed and binary input
# --------------------------------------------------------------------------

def have(tool):
    return shutil.which(tool) is not None


def built_with(kind, sample):
    """1 if this pct reads kind (a cross build may lack the libraries)."""
    result = run([], sample)
    return b"built without" not in result.stderr


def make_files(tmp, data):
    """access.log and its .gz .zst .xz .bz2 made by the real tools."""
    plain = os.path.join(tmp, "access.log")
    with open(plain, "wb") as f:
        f.write(data)
    made = []
    for tool, args, suffix in [("gzip", ["-k", "-f"], ".gz"), ("zstd", ["-q", "-k", "-f"], ".zst"),
                               ("xz", ["-k", "-f"], ".xz"), ("bzip2", ["-k", "-f"], ".bz2")]:
        if check("%s installed (scripts/lib.sh PCT_PACKAGES)" % tool, have(tool)):
            subprocess.run([tool] + args + [plain], check=True)
            made.append(suffix)
    return plain, made


def test_compressed():
    data = log_lines(30000, 7)
    if not built_with("gzip", gzip.compress(b"x\n")):
        print("skipped: this pct was built without gzip and zstd support")
        return SKIP
    want = expected(data)
    with tempfile.TemporaryDirectory() as tmp:
        plain, made = make_files(tmp, data)
        gz, zst = plain + ".gz", plain + ".zst"
        if ".gz" in made:
            for mode in [["--threads", "1"], ["--threads", "2", "--chunk-size", "16k"]]:
                result = run(mode + [gz])
                check("gzip %s" % mode, result.returncode == 0 and result.stdout == want,
                      short(result.stderr))
            # Progress counts compressed bytes against the file's size, and
            # says how much text that made.
            for threads in ["1", "2"]:
                result = run(["--progress", "--threads", threads, gz])
                size = "%.1f KB" % (os.path.getsize(gz) / 1000)
                err = result.stderr.decode()
                check("gzip progress --threads %s (compressed size, 100%%)" % threads,
                      ("100%% %s / %s" % (size, size)) in err, short(result.stderr))
                check("gzip progress --threads %s (decompressed)" % threads,
                      ("(%.1f MB decompressed)" % (len(data) / 1e6)) in err, short(result.stderr))
            # Multi-member (logrotate, `cat a.gz b.gz`), also from stdin.
            both = open(gz, "rb").read() * 2
            result = run([], both)
            check("gzip multi-member", result.returncode == 0 and result.stdout == want * 2,
                  short(result.stderr))
            # Truncated: what was decoded is kept, where it broke is said.
            cut = os.path.join(tmp, "cut.log.gz")
            with open(cut, "wb") as f:
                f.write(both[:len(both) * 3 // 4])
            result = run([cut, plain])
            check("truncated gzip (exit 2)", result.returncode == 2)
            check("truncated gzip (message)", ("pct logs: %s: gzip data truncated at compressed byte" % cut).encode()
                  in result.stderr, short(result.stderr))
            out = result.stdout[:len(result.stdout) - len(want)]
            check("truncated gzip (next file done)", result.stdout.endswith(want))
            check("truncated gzip (kept what it decoded)", len(out) > len(want), "%d bytes" % len(out))
            whole_lines_prefix("truncated gzip", out, want * 2)
            # Corrupt data, and trailing garbage.
            bad = bytearray(open(gz, "rb").read())
            bad[len(bad) // 2] ^= 0xFF
            bad[len(bad) // 2 + 1] ^= 0x55
            result = run([], bytes(bad))
            check("corrupt gzip (exit 2)", result.returncode == 2, short(result.stderr))
            check("corrupt gzip (message)", b"standard input: gzip data" in result.stderr, short(result.stderr))
            result = run([], open(gz, "rb").read() + b"trailing junk")
            check("gzip trailing data (exit 2)", result.returncode == 2 and result.stdout == want,
                  short(result.stderr))
        if ".zst" in made:
            result = run(["--threads", "2", zst])
            check("zstd", result.returncode == 0 and result.stdout == want, short(result.stderr))
            two = open(zst, "rb").read() * 2
            result = run([], two)
            check("zstd two frames", result.returncode == 0 and result.stdout == want * 2)
            result = run([], two[:len(two) - 100])
            check("truncated zstd (exit 2)", result.returncode == 2)
            check("truncated zstd (message)", b"zstd data truncated" in result.stderr, short(result.stderr))
    test_rotations()
    # Python's own gzip writer: a header with a file name field.
    result = run([], gzip.compress(data))
    check("gzip from python", result.returncode == 0 and result.stdout == want)


def test_rotations():
    """Several compressed files (logrotate's access.log.N.gz): with threads,
    each is decompressed by a thread of its own, ahead of its turn, in a
    bounded buffer. The output is the same bytes as a serial run and as
    `zcat FILES | pct logs`; a fault in one file is reported in its turn,
    with what was decoded before it written."""
    zstd_ok = have("zstd") and built_with("zstd", b"\x28\xb5\x2f\xfd")
    parts = [log_lines(n, 100 + n) for n in (25000, 3000, 1, 18000, 12000)]
    with tempfile.TemporaryDirectory() as tmp:
        names, texts = [], []
        for i, data in enumerate(parts):
            name = os.path.join(tmp, "access.log.%d" % (i + 1))
            if i % 2 == 1 and zstd_ok:
                with open(name, "wb") as f:
                    f.write(data)
                subprocess.run(["zstd", "-q", "-f", "--rm", name], check=True)
                name += ".zst"
            else:
                name += ".gz"
                with open(name, "wb") as f:
                    f.write(gzip.compress(data, 1))
            names.append(name)
            texts.append(data)
        # Multi-member: two members of one file; and a plain file among them.
        multi = os.path.join(tmp, "multi.log.gz")
        with open(multi, "wb") as f:
            f.write(gzip.compress(parts[1]) + gzip.compress(parts[0]))
        plain = os.path.join(tmp, "access.log")
        with open(plain, "wb") as f:
            f.write(parts[2] + parts[1])
        names += [multi, plain]
        texts += [parts[1] + parts[0], parts[2] + parts[1]]
        want = expected(b"".join(texts))
        serial = run(["--threads", "1"] + names)
        check("rotations serial", serial.returncode == 0 and serial.stdout == want,
              short(serial.stderr))
        for mode in [["--threads", "2"], ["--threads", "4"], ["--threads", "4", "--chunk-size", "16k"],
                     ["--threads", "3", "--json"]]:
            result = run(mode + names)
            same = serial.stdout if "--json" not in mode else run(["--threads", "1", "--json"] + names).stdout
            check("rotations %s" % mode, result.returncode == 0 and result.stdout == same,
                  short(result.stderr))
        # A truncated file and an unreadable one in the middle: reported in
        # their turn, what came before kept, the files after them done.
        cut = os.path.join(tmp, "cut.log.gz")
        whole = gzip.compress(parts[3] + parts[4])
        with open(cut, "wb") as f:
            f.write(whole[:len(whole) * 2 // 3])
        missing = os.path.join(tmp, "missing.log.gz")
        faulty = names[:2] + [cut] + names[2:4] + [missing] + names[4:]
        serial = run(["--threads", "1"] + faulty)
        check("rotations with faults, serial (exit 2)", serial.returncode == 2, short(serial.stderr))
        for threads in ["1", "2", "4"]:
            result = run(["--threads", threads] + faulty)
            label = "rotations with faults, --threads %s" % threads
            check(label + " (exit 2)", result.returncode == 2, "exit %d" % result.returncode)
            check(label + " (same output as serial)", result.stdout == serial.stdout)
            check(label + " (same messages, same order)", result.stderr == serial.stderr,
                  short(result.stderr))
            err = result.stderr.decode(errors="replace").splitlines()
            check(label + " (truncated named)", len(err) == 2 and err[0].startswith(
                "pct logs: %s: gzip data truncated at compressed byte" % cut), short(result.stderr))
            check(label + " (missing named)", len(err) == 2 and err[1] ==
                  "pct logs: %s: No such file or directory" % missing, short(result.stderr))
            head = expected(b"".join(texts[:2]))
            tail = expected(b"".join(texts[2:4])) + expected(b"".join(texts[4:]))
            out = result.stdout
            check(label + " (before and after the faults)", out.startswith(head) and out.endswith(tail))
            whole_lines_prefix(label, out[len(head):len(out) - len(tail)], expected(parts[3] + parts[4]))
        if have("zcat"):
            gz = [n for n in names if n.endswith(".gz")]
            piped = subprocess.run("zcat %s | %s" % (" ".join(gz), " ".join(WRAPPER + [PCT, "logs"])),
                                   shell=True, capture_output=True)
            result = run(["--threads", "2"] + gz)
            check("rotations: same as zcat | pct logs", piped.returncode == 0 and
                  result.stdout == piped.stdout, short(piped.stderr))


def test_refused():
    data = log_lines(3000, 9)
    want = expected(data)
    with tempfile.TemporaryDirectory() as tmp:
        plain, made = make_files(tmp, data)
        # Formats it cannot read: an error naming the file, nothing copied.
        for suffix, what in [(".xz", b"xz"), (".bz2", b"bzip2")]:
            if suffix in made:
                name = plain + suffix
                result = run([name, plain])
                check("%s refused (exit 2)" % suffix, result.returncode == 2)
                check("%s refused (message)" % suffix,
                      ("pct logs: %s: " % name).encode() + what + b" data, not a text log" in result.stderr,
                      short(result.stderr))
                check("%s refused (nothing copied, next file done)" % suffix, result.stdout == want)
        rng = random.Random(8)
        garbage = bytes(rng.randrange(256) for _ in range(100000))
        result = run([], garbage)
        check("random bytes refused", result.returncode == 2 and result.stdout == b""
              and b"binary data" in result.stderr, short(result.stderr))


GROUPS = {"changes": test_changes, "inputs": test_inputs, "outputs": test_outputs,
          "long-line": test_long_line, "huge-line": test_huge_line, "compressed": test_compressed,
          "refused": test_refused}


def set_pct(path):
    global PCT
    PCT = path


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
