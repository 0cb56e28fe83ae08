#!/usr/bin/env python3
"""What `pct logs` makes of damaged, unusual and doubly compressed input:
corrupt gzip and zstd (every line decoded before the damage written, the
damage's compressed offset named, the same output with any --threads), zstd
with skippable frames, `gzip | gzip`, holes of NUL bytes in text (a few bytes
to 2 GiB, in bounded memory), text with a few control bytes, a text log that
starts like a bzip2 file, and a deleted file read through /proc/self/fd/N.

Usage: test_logs_inputs.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Prints one line per failed check, then "N passed, M failed"; exits 1 if any
check failed, 77 (a skip, for meson) when a group cannot run here, with the
reason. MESON_EXE_WRAPPER (or PCT_EXE_WRAPPER) runs the binary in cross
builds.
"""
import gzip
import os
import random
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import threading

from clitest import SKIP, WRAPPER, check, log_lines, run_groups, short

PCT = None


def run(args, stdin=b"", **kw):
    return subprocess.run(WRAPPER + [PCT, "logs"] + args, input=stdin, capture_output=True,
                          timeout=600, **kw)


def expected(data):
    """What pct logs makes of data when nothing goes wrong."""
    result = run(["--threads", "1"], data)
    assert result.returncode == 0, result.stderr
    return result.stdout


def have(tool):
    return shutil.which(tool) is not None


def reads(kind, sample):
    """1 if this pct reads kind (a build may lack the library)."""
    return b"built without" not in run([], sample).stderr


def zstd_compress(path, data, args=()):
    with open(path, "wb") as f:
        f.write(data)
    subprocess.run(["zstd", "-q", "-f", "--rm"] + list(args) + [path], check=True)
    return path + ".zst"


def stopped_at(err):
    """(compressed byte, lines written) from a decompression fault message."""
    m = re.search(rb"at compressed byte (\d+): the (\d+) lines? before it (?:was|were) written", err)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def same_for_threads(label, args, want_code=2):
    """Runs args with --threads 1, 2 and 4: the same exit, output and
    messages. Returns the --threads 1 result."""
    first = run(["--threads", "1"] + args)
    for threads in ["2", "4"]:
        other = run(["--threads", threads] + args)
        check("%s: --threads %s as 1 (exit)" % (label, threads), other.returncode == first.returncode)
        check("%s: --threads %s as 1 (output)" % (label, threads), other.stdout == first.stdout,
              "%d vs %d lines" % (other.stdout.count(b"\n"), first.stdout.count(b"\n")))
        check("%s: --threads %s as 1 (messages)" % (label, threads), other.stderr == first.stderr,
              short(other.stderr) + " vs " + short(first.stderr))
    check("%s (exit %d)" % (label, want_code), first.returncode == want_code,
          "exit %d: %s" % (first.returncode, short(first.stderr)))
    return first


# --------------------------------------------------------------------------
# Corrupt compressed input
# --------------------------------------------------------------------------

def test_corrupt():
    data = log_lines(20000, 31)
    if not reads("gzip", gzip.compress(b"x\n")):
        print("skipped: this pct was built without gzip support")
        return SKIP
    want = expected(data)
    with tempfile.TemporaryDirectory() as tmp:
        packed = gzip.compress(data, 6)
        # A flipped byte of the CRC-32 in the trailer: every byte of the data
        # is decoded (zcat writes all of it); the checksum names the trailer.
        bad = bytearray(packed)
        crc_at = len(bad) - 8
        bad[crc_at] ^= 0xFF
        path = os.path.join(tmp, "crc.log.gz")
        with open(path, "wb") as f:
            f.write(bad)
        zcat = subprocess.run(["zcat", path], capture_output=True) if have("zcat") else None
        if zcat is not None:
            check("gzip CRC: zcat writes every line", zcat.stdout == data)
        result = same_for_threads("gzip CRC", [path])
        check("gzip CRC (every line written)", result.stdout == want,
              "%d of 20000 lines" % result.stdout.count(b"\n"))
        at, lines = stopped_at(result.stderr)
        check("gzip CRC (the trailer's offset named)", at == crc_at, "%r: %s" % (at, short(result.stderr)))
        check("gzip CRC (lines written said)", lines == 20000, short(result.stderr))
        # A damaged deflate stream: what zcat writes before the damage, pct
        # writes too (a cut last line is written as a line, and said).
        for seed in range(3):
            bad = bytearray(packed)
            flip = len(bad) // 3 + seed * 7919
            bad[flip] ^= 0x55
            path = os.path.join(tmp, "mid%d.log.gz" % seed)
            with open(path, "wb") as f:
                f.write(bad)
            label = "gzip damaged at byte %d" % flip
            result = same_for_threads(label, [path])
            got = result.stdout.count(b"\n")
            at, lines = stopped_at(result.stderr)
            check(label + " (lines written said)", lines == got, "%r vs %d" % (lines, got))
            check(label + " (offset at or after the damage)", at is not None and flip <= at < len(bad),
                  "%r: %s" % (at, short(result.stderr)))
            if zcat is not None:
                # Bytes decoded between the damage and where it is found are
                # garbage: zcat writes them too. The same lines as pct makes
                # of zcat's output, at least as many.
                z = subprocess.run(["zcat", path], capture_output=True).stdout
                zout = expected(z)
                zlines = zout.count(b"\n")
                check(label + " (at least zcat's lines)", got >= zlines, "%d < %d" % (got, zlines))
                check(label + " (the lines zcat writes)", result.stdout.startswith(zout[:zout.rfind(b"\n", 0, len(zout) - 1) + 1]))
        if have("zstd") and reads("zstd", b"\x28\xb5\x2f\xfd"):
            zst = zstd_compress(os.path.join(tmp, "z.log"), data)
            packed = open(zst, "rb").read()
            for flip in [len(packed) // 2, len(packed) // 3, len(packed) - 2]:
                bad = bytearray(packed)
                bad[flip] ^= 0x55
                path = os.path.join(tmp, "bad%d.log.zst" % flip)
                with open(path, "wb") as f:
                    f.write(bad)
                label = "zstd damaged at byte %d of %d" % (flip, len(bad))
                result = same_for_threads(label, [path])
                got = result.stdout.count(b"\n")
                at, lines = stopped_at(result.stderr)
                check(label + " (lines written said)", lines == got, "%r vs %d" % (lines, got))
                # Damage is found in its block or a later one (blocks share
                # tables), at most 128 KiB and a 3-byte header after the
                # found block's start, or by the frame's checksum, at its end.
                checksum = b"checksum mismatch" in result.stderr
                check(label + " (offset: the block where the damage was found, or the checksum)",
                      at is not None and ((checksum and at == len(bad) - 4) or
                                          (not checksum and flip - (128 << 10) - 3 <= at < len(bad))),
                      "%r: %s" % (at, short(result.stderr)))
                z = subprocess.run(["zstd", "-d", "-c", "-q", path], capture_output=True).stdout
                zout = expected(z)
                zlines = zout.count(b"\n")
                check(label + " (at least zstdcat's lines)", got >= zlines, "%d < %d" % (got, zlines))
                check(label + " (the lines zstdcat writes)",
                      result.stdout.startswith(zout[:zout.rfind(b"\n", 0, len(zout) - 1) + 1]))


# --------------------------------------------------------------------------
# Skippable zstd frames, and compressed data inside compressed data
# --------------------------------------------------------------------------

def skippable(payload, nibble=0):
    return struct.pack("<II", 0x184D2A50 + nibble, len(payload)) + payload


def test_containers():
    data = log_lines(3000, 32)
    want = expected(data)
    with tempfile.TemporaryDirectory() as tmp:
        if have("zstd") and reads("zstd", b"\x28\xb5\x2f\xfd"):
            frame = open(zstd_compress(os.path.join(tmp, "a.log"), data), "rb").read()
            half = len(data) // 2
            first = open(zstd_compress(os.path.join(tmp, "h1.log"), data[:half]), "rb").read()
            second = open(zstd_compress(os.path.join(tmp, "h2.log"), data[half:]), "rb").read()
            # Skippable frames first (as pzstd writes), between frames and at
            # the end, with every magic 0x184D2A50..5F.
            for label, blob in [("skippable frame first", skippable(b"\x04\0\0\0") + frame),
                                ("skippable frames everywhere", skippable(b"", 15) + first +
                                 skippable(b"x" * 100, 7) + second + skippable(b"yz", 3))]:
                path = os.path.join(tmp, "skip.log.zst")
                with open(path, "wb") as f:
                    f.write(blob)
                for threads in ["1", "2"]:
                    result = run(["--threads", threads, path])
                    check("%s --threads %s" % (label, threads), result.returncode == 0 and result.stdout == want,
                          short(result.stderr))
                result = run([], blob)
                check(label + " (stdin)", result.returncode == 0 and result.stdout == want, short(result.stderr))
            if have("pzstd"):
                plain = os.path.join(tmp, "p.log")
                with open(plain, "wb") as f:
                    f.write(data)
                subprocess.run(["pzstd", "-q", "-f", "-p", "2", plain, "-o", plain + ".zst"],
                               check=True, stderr=subprocess.DEVNULL)
                check("pzstd writes a skippable frame first",
                      open(plain + ".zst", "rb").read(4) == struct.pack("<I", 0x184D2A50))
                result = run([plain + ".zst"])
                check("pzstd file", result.returncode == 0 and result.stdout == want, short(result.stderr))
        # gzip | gzip, and other compressed data inside gzip: refused, named,
        # nothing written.
        if reads("gzip", gzip.compress(b"x\n")):
            inner = {"gzip": gzip.compress(data)}
            if have("zstd"):
                inner["zstd"] = open(zstd_compress(os.path.join(tmp, "i.log"), data), "rb").read()
            if have("bzip2"):
                inner["bzip2"] = subprocess.run(["bzip2", "-c"], input=data, capture_output=True).stdout
            if have("xz"):
                inner["xz"] = subprocess.run(["xz", "-c"], input=data, capture_output=True).stdout
            plain = os.path.join(tmp, "next.log")
            with open(plain, "wb") as f:
                f.write(data)
            rng = random.Random(37)
            inner["binary"] = bytes(rng.randrange(256) for _ in range(100000))
            for kind, blob in inner.items():
                path = os.path.join(tmp, "twice-%s.gz" % kind)
                with open(path, "wb") as f:
                    f.write(gzip.compress(blob))
                for threads in ["1", "2"]:
                    result = run(["--threads", threads, path, plain])
                    label = "%s inside gzip --threads %s" % (kind, threads)
                    check(label + " (exit 2)", result.returncode == 2, short(result.stderr))
                    check(label + " (message)", ("pct logs: %s: gzip data holding %s data" % (path, kind)).encode()
                          in result.stderr, short(result.stderr))
                    check(label + " (nothing of it written, next file done)", result.stdout == want)


# --------------------------------------------------------------------------
# Text with holes, control bytes, and names that start like magic numbers
# --------------------------------------------------------------------------

NUL_NOTE = rb"pct logs: (.*): (\d+) NUL bytes? at (?:decompressed )?byte (\d+) skipped"


def test_text():
    data = log_lines(90000, 33)
    want = expected(data)
    with tempfile.TemporaryDirectory() as tmp:
        # A hole (4 KiB of NULs) at the start, then good lines; and holes in
        # the middle and at the end. Every line out; each run named once.
        middle = data.index(b"\n", len(data) // 2) + 1
        holed = b"\0" * 4096 + data[:middle] + b"\0" * 777 + data[middle:] + b"\0" * 500
        path = os.path.join(tmp, "holed.log")
        with open(path, "wb") as f:
            f.write(holed)
        runs = [(4096, 0), (777, 4096 + middle), (500, len(holed) - 500)]
        for args in [["--threads", "1", path], ["--threads", "2", path],
                     ["--threads", "2", "--chunk-size", "64k", path], []]:
            result = run(args, holed if args == [] else b"")
            label = "NUL holes %s" % (args[:-1] if args else "stdin")
            check(label + " (every line written)", result.stdout == want,
                  "%d of 90000 lines: %s" % (result.stdout.count(b"\n"), short(result.stderr)))
            notes = [(int(m[1]), int(m[2])) for m in re.findall(NUL_NOTE, result.stderr)]
            check(label + " (each run named with offset and length)", notes == runs,
                  "%r: %s" % (notes, short(result.stderr)))
            check(label + " (exit 2: damaged input)", result.returncode == 2)
        if reads("gzip", gzip.compress(b"x\n")):
            gz = os.path.join(tmp, "holed.log.gz")
            with open(gz, "wb") as f:
                f.write(gzip.compress(holed, 1))
            result = same_for_threads("NUL holes in gzip", [gz])
            check("NUL holes in gzip (every line written)", result.stdout == want)
            notes = [(int(m[1]), int(m[2])) for m in re.findall(NUL_NOTE, result.stderr)]
            check("NUL holes in gzip (runs named)", notes == runs, short(result.stderr))
        # Random NUL runs (1 to 300 bytes, often cut between reads): those of
        # 64 or more are holes, taken out and named; shorter ones are text.
        seed = int(os.environ.get("PCT_TEST_SEED", random.randrange(1 << 30)))
        print("NUL runs: seed %d (PCT_TEST_SEED replays it)" % seed)
        rng = random.Random(seed)
        lines = data[:200000].split(b"\n")
        pieces, runs, text, at = [], [], [], 0
        for line in lines[:-1]:
            line += b"\n"
            if rng.random() < 0.05:
                cut = rng.randrange(len(line))  # in the line, or before it
                n = rng.choice([rng.randrange(1, 64), rng.randrange(64, 300)])
                pieces += [line[:cut], b"\0" * n, line[cut:]]
                if n >= 64:
                    runs.append((n, at + cut))
                else:
                    text.append(line[:cut] + b"\0" * n + line[cut:])
                    at += len(line) + n
                    continue
                at += len(line) + n
                text.append(line)
            else:
                pieces.append(line)
                text.append(line)
                at += len(line)
        blob = b"".join(pieces)
        want_runs = expected(b"".join(text))
        proc = subprocess.Popen(WRAPPER + [PCT, "logs"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        def writer():
            i = 0
            while i < len(blob):
                n = rng.randrange(1, 3000)
                proc.stdin.write(blob[i:i + n])
                proc.stdin.flush()
                i += n
            proc.stdin.close()
        t = threading.Thread(target=writer)
        t.start()
        out = proc.stdout.read()
        err = proc.stderr.read()
        proc.wait()
        t.join()
        notes = [(int(m[1]), int(m[2])) for m in re.findall(NUL_NOTE, err)]
        check("random NUL runs through a pipe (output)", out == want_runs, short(err))
        check("random NUL runs through a pipe (holes named)", notes == runs, "%r vs %r" % (notes[:5], runs[:5]))
        path = os.path.join(tmp, "random-runs.log")
        with open(path, "wb") as f:
            f.write(blob)
        for args in [["--threads", "1"], ["--threads", "2", "--chunk-size", "4k"]]:
            result = run(args + [path])
            notes = [(int(m[1]), int(m[2])) for m in re.findall(NUL_NOTE, result.stderr)]
            check("random NUL runs %s (output)" % args, result.stdout == want_runs)
            check("random NUL runs %s (holes named)" % args, notes == runs)
        # A hole past --max-line in a long line, in a file read by several
        # threads: taken out as when the file is read in order.
        path = os.path.join(tmp, "long-holed.log")
        long_line = b"GET /" + b"x" * 20000 + b"\0" * 100 + b"y" * 100 + b"\n"
        with open(path, "wb") as f:
            f.write(data[:100000] + long_line + data[100000:200000])
        one = run(["--max-line", "4k", "--threads", "1", path])
        two = run(["--max-line", "4k", "--threads", "2", "--chunk-size", "4k", path])
        check("hole in a long line (one thread as two: output)", one.stdout == two.stdout)
        check("hole in a long line (one thread as two: messages)", one.stderr == two.stderr,
              short(one.stderr) + " vs " + short(two.stderr))
        check("hole in a long line (taken out)", b"100 NUL bytes at byte" in one.stderr
              and b"\\x00" not in one.stdout, short(one.stderr))
        # A W3C log (its #Fields: header at the start) with a hole and a long
        # line in the middle, read by several threads: the lines after them
        # keep the header's layout, as when read in order.
        head = b"#Version: 1.0\n#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status\n"
        body = b"".join(b"2026-03-14 06:00:00 192.0.2.%d GET /w%d/caf%%C3%%A9 q=%d 200\n" % (i % 250, i, i)
                        for i in range(4000))
        mid = body.index(b"\n", len(body) // 2) + 1
        path = os.path.join(tmp, "w3c-holed.log")
        with open(path, "wb") as f:
            f.write(head + body[:mid] + b"\0" * 4096 + body[mid:] + b"GET /" + b"z" * 9000 + b"\n" + body[:mid])
        one = run(["--json", "--max-line", "4k", "--threads", "1", path])
        two = run(["--json", "--max-line", "4k", "--threads", "2", "--chunk-size", "4k", path])
        check("W3C with a hole (one thread as two)", one.stdout == two.stdout and one.stderr == two.stderr,
              short(one.stderr) + " vs " + short(two.stderr))
        parsed = two.stdout.count(b'"path":"/w')
        check("W3C with a hole (every line parsed)", parsed == 4000 + body[:mid].count(b"\n"), "%d" % parsed)
        # A few control bytes in a short log are text: escaped as always.
        line = (b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET /a\x01b HTTP/1.1" 200 5 "-" '
                b'"ua\x02\x7f"\n')
        for label, blob in [("one line, 3 control bytes", line),
                            ("a vhost log starting BZh", b"BZhost.example " + line * 3),
                            ("text starting BZh9 without the block magic", b"BZh91 " + line)]:
            result = run([], blob)
            check(label + " (read, exit 0)", result.returncode == 0, short(result.stderr))
            check(label + " (every line written)", result.stdout.count(b"\n") == blob.count(b"\n"),
                  short(result.stdout))
            check(label + " (control bytes escaped)", not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", result.stdout),
                  short(result.stdout))
        # Binary data is still refused, by its full magic or by its bytes.
        rng = random.Random(34)
        for label, blob, what in [("bzip2 magic", b"BZh91AY&SY" + bytes(rng.randrange(256) for _ in range(200)), b"bzip2"),
                                  ("ELF", b"\x7fELF\x02\x01\x01" + b"\0" * 9 + b"\x02\0" * 40, b"ELF executable"),
                                  ("random bytes", bytes(rng.randrange(256) for _ in range(100000)), b"binary")]:
            result = run([], blob)
            check(label + " refused", result.returncode == 2 and result.stdout == b""
                  and what + b" data, not a text log" in result.stderr, short(result.stderr))


def test_sparse():
    """2 GiB of NULs between two good lines (a sparse file: no disk used):
    both lines out, the run named, memory bounded."""
    lines = log_lines(2, 35)
    first, second = lines.split(b"\n")[0] + b"\n", lines.split(b"\n")[1] + b"\n"
    want = expected(first + second)
    hole = 2 << 30
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sparse.log")
        with open(path, "wb") as f:
            f.write(first)
            f.truncate(len(first) + hole)
            f.seek(len(first) + hole)
            f.write(second)
        for threads in ["1", "2"]:
            result = run(["--threads", threads, path])
            label = "2 GiB hole --threads %s" % threads
            check(label + " (both lines out)", result.stdout == want, short(result.stdout))
            check(label + " (run named)", ("pct logs: %s: %d NUL bytes at byte %d skipped" % (
                path, hole, len(first))).encode() in result.stderr, short(result.stderr))
            check(label + " (exit 2)", result.returncode == 2)
        rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        check("2 GiB hole (max RSS < 200 MB)", rss_mb < 200, "%.0f MB" % rss_mb)


def test_deleted():
    """A file unlinked before it is opened (/proc/self/fd/N of a deleted
    file) reads as any file; one unlinked while it is read is still named."""
    data = log_lines(2000, 36)
    want = expected(data)
    if not os.path.isdir("/proc/self/fd"):
        print("skipped: no /proc/self/fd here")
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "gone.log")
        with open(path, "wb") as f:
            f.write(data)
        fd = os.open(path, os.O_RDONLY)
        os.unlink(path)
        try:
            for threads in ["1", "2"]:
                os.lseek(fd, 0, os.SEEK_SET)
                result = subprocess.run(WRAPPER + [PCT, "logs", "--threads", threads, "/proc/self/fd/%d" % fd],
                                        pass_fds=[fd], capture_output=True, timeout=600)
                label = "deleted file via /proc/self/fd --threads %s" % threads
                check(label + " (exit 0)", result.returncode == 0, short(result.stderr))
                check(label + " (every line)", result.stdout == want)
                check(label + " (no message)", result.stderr == b"", short(result.stderr))
            result = subprocess.run("exec 3<&%d; %s logs /proc/self/fd/3" % (fd, " ".join(WRAPPER + [PCT])),
                                    shell=True, pass_fds=[fd], capture_output=True, timeout=600)
            check("deleted file via exec 3< (exit 0, every line)", result.returncode == 0 and result.stdout == want,
                  short(result.stderr))
        finally:
            os.close(fd)


GROUPS = {"corrupt": test_corrupt, "containers": test_containers, "text": test_text,
          "sparse": test_sparse, "deleted": test_deleted}


def set_pct(path):
    global PCT
    PCT = path


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
