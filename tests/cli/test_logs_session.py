#!/usr/bin/env python3
"""`pct logs` as the session runs it: a read error in the middle of a file
(every line read before it written once, in order, one message, whatever the
thread count), SIGINT and SIGTERM (the output ends on a whole line, exit
130/143), stdout closed, --chunk-size below its least, file names and
arguments with control bytes in messages.

Usage: test_logs_session.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Prints one line per failed check, then "N passed, M failed"; exits 1 if any
check failed, 77 (a skip) when a group cannot run here, with the reason.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from clitest import SKIP, WRAPPER, check, run_groups, short

PCT = None


def log_lines(count):
    """count combined-format lines with escapes, deterministic."""
    return b"".join(('192.0.2.%d - - [14/Mar/2026:06:00:00 +0000] "GET /p%d/%%C3%%A9t%%C3%%A9/%s?q=a+b&n=%d '
                     'HTTP/1.1" 200 %d "-" "ua"\n' % (i % 250, i, "x" * (i % 50), i, i * 7)).encode()
                     for i in range(count))


def run(args, stdin=b"", **kw):
    return subprocess.run(WRAPPER + [PCT, "logs"] + args, input=stdin, capture_output=True,
                          timeout=600, **kw)


# --------------------------------------------------------------------------
# Defect 8: a read error (EIO) after 100 kB, with 2 threads: 0 lines of the
# file were written and the error said twice.
# --------------------------------------------------------------------------

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* Reads of the file PCT_FAULT_PATH fail with EIO from byte PCT_FAULT_AT on,
 * as a disk's bad sector does: a read that reaches it returns the bytes
 * before it, the next one fails. */
static int faulty(int fd)
{
    const char *want = getenv("PCT_FAULT_PATH");
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (want == NULL || n < 0)
        return 0;
    path[n] = '\0';
    return strcmp(path, want) == 0;
}

static size_t limit(int fd, long long at, size_t n, int *fail)
{
    *fail = 0;
    if (!faulty(fd))
        return n;
    long long bad = strtoll(getenv("PCT_FAULT_AT"), NULL, 10);
    if (at >= bad) {
        *fail = 1;
        return 0;
    }
    return (long long)n > bad - at ? (size_t)(bad - at) : n;
}

ssize_t read(int fd, void *buf, size_t n)
{
    static ssize_t (*real)(int, void *, size_t);
    if (real == NULL)
        real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    int fail;
    n = limit(fd, lseek64(fd, 0, SEEK_CUR), n, &fail);
    if (fail) {
        errno = EIO;
        return -1;
    }
    return real(fd, buf, n);
}

/* pread and pread64 are two functions where off_t is 32 bits (i386). */
#define FAULTY_PREAD(name, offset_type)                                           \
    ssize_t name(int fd, void *buf, size_t n, offset_type at)                     \
    {                                                                             \
        static ssize_t (*real)(int, void *, size_t, offset_type);                 \
        if (real == NULL)                                                         \
            real = (ssize_t (*)(int, void *, size_t, offset_type))dlsym(RTLD_NEXT, #name); \
        int fail;                                                                 \
        n = limit(fd, at, n, &fail);                                              \
        if (fail) {                                                               \
            errno = EIO;                                                          \
            return -1;                                                            \
        }                                                                         \
        return real(fd, buf, n, at);                                              \
    }
FAULTY_PREAD(pread, off_t)
FAULTY_PREAD(pread64, off64_t)
"""


def shim_compiler():
    """A C compiler for the pct binary's own architecture (the shim is loaded
    into it): the host's for a binary of the host's kind, the i686 cross
    compiler for a 32-bit x86 binary (run natively on an x86_64 kernel)."""
    with open(PCT, "rb") as f:
        head = f.read(20)
    if len(head) < 20 or head[:4] != b"\x7fELF":
        return None, "the pct binary is not ELF"
    elf_class, machine = head[4], int.from_bytes(head[18:20], "little" if head[5] == 1 else "big")
    host = os.uname().machine
    if (elf_class, machine) == (2, 62) and host == "x86_64":
        cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        return ([cc], None) if cc else (None, "no C compiler to build the EIO shim")
    if (elf_class, machine) == (1, 3):
        cc = shutil.which("i686-linux-gnu-gcc")
        return ([cc], None) if cc else (None, "no i686-linux-gnu-gcc to build the EIO shim for i386")
    return None, "no compiler here for the binary's architecture (ELF class %d, machine %d)" % (
        elf_class, machine)


def build_shim(tmp):
    cc, why = shim_compiler()
    if cc is None:
        return None, why
    src = os.path.join(tmp, "eio.c")
    lib = os.path.join(tmp, "eio.so")
    with open(src, "w") as f:
        f.write(SHIM)
    result = subprocess.run(cc + ["-shared", "-fPIC", "-O1", "-o", lib, src, "-ldl"], capture_output=True)
    if result.returncode != 0:
        return None, "the EIO shim does not build: " + short(result.stderr)
    return lib, None


def test_eio():
    if WRAPPER:
        print("SKIP: LD_PRELOAD does not reach the binary under an emulator")
        return SKIP
    tmp = tempfile.mkdtemp()
    try:
        lib, why = build_shim(tmp)
        if lib is None:
            print("SKIP: " + why)
            return SKIP
        data = log_lines(12000)  # ~1.5 MB: read in blocks by 2 threads (4 chunks or more)
        at = 100000
        path = os.path.realpath(os.path.join(tmp, "access.log"))
        with open(path, "wb") as f:
            f.write(data)
        # What the bytes before the error give as a file of their own: their
        # lines, the cut last one written as a line.
        head = os.path.join(tmp, "head.log")
        with open(head, "wb") as f:
            f.write(data[:at])
        want = run(["--threads", "1", head])
        check("eio (the head alone)", want.returncode == 0 and want.stdout.count(b"\n") == data[:at].count(b"\n") + 1)
        # (Under ASan, the shim may come first: it calls nothing ASan watches.)
        asan = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS"), "verify_asan_link_order=0"]))
        env = dict(os.environ, LD_PRELOAD=lib, PCT_FAULT_PATH=path, PCT_FAULT_AT=str(at), ASAN_OPTIONS=asan)
        for args in [["--threads", "1"], ["--threads", "2"], ["--threads", "3"],
                     ["--threads", "2", "--chunk-size", "64k"], ["--threads", "2", "--json"]]:
            name = "eio %s" % " ".join(args)
            expect = want.stdout if "--json" not in args else run(["--threads", "1", "--json", head]).stdout
            result = run(args + [path], env=env)
            check(name + " (exit 2)", result.returncode == 2, "exit %d" % result.returncode)
            check(name + " (every line read before the error, once, in order)", result.stdout == expect,
                  "%d lines, want %d" % (result.stdout.count(b"\n"), expect.count(b"\n")))
            lines = result.stderr.splitlines()
            check(name + " (one message)", len(lines) == 1, short(result.stderr))
            check(name + " (its offset)",
                  lines[:1] == [("pct logs: %s: read error after %d bytes: Input/output error" % (path, at)).encode()],
                  short(result.stderr))
        # A second file after the faulty one is still read.
        other = os.path.join(tmp, "other.log")
        with open(other, "wb") as f:
            f.write(log_lines(10))
        result = run(["--threads", "2", path, other], env=env)
        check("eio (the next file still read)",
              result.returncode == 2 and result.stdout == want.stdout + run([other]).stdout,
              "exit %d" % result.returncode)
    finally:
        shutil.rmtree(tmp)
    return 0


# --------------------------------------------------------------------------
# Defect 11: SIGINT in the middle of a run left a cut last line (1 run in 5).
# --------------------------------------------------------------------------

def wait_caught(pid, sig):
    """Waits until process pid catches sig (its handler is set: SigCgt in
    /proc/PID/status), at most 20 s; False if it never does."""
    for _ in range(2000):
        try:
            with open("/proc/%d/status" % pid) as f:
                caught = next(int(l.split()[1], 16) for l in f if l.startswith("SigCgt:"))
            if caught >> (sig - 1) & 1:
                return True
        except (OSError, StopIteration):
            return False
        time.sleep(0.01)
    return False


def wait_delivered(pid, sig):
    """Waits until sig is no longer pending for process pid (SigPnd and
    ShdPnd in /proc/PID/status), at most 20 s."""
    for _ in range(2000):
        try:
            with open("/proc/%d/status" % pid) as f:
                pending = [int(l.split()[1], 16) for l in f if l.startswith(("SigPnd:", "ShdPnd:"))]
        except OSError:
            return
        if not any(p >> (sig - 1) & 1 for p in pending):
            return
        time.sleep(0.01)


def test_signals():
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "big.log")
        data = log_lines(200000)  # ~26 MB: far more than a pipe holds
        with open(path, "wb") as f:
            f.write(data)
        full = run(["--threads", "1", path]).stdout
        runs = 0
        for threads in ["1", "2"]:
            for sig, code in [(signal.SIGINT, 130), (signal.SIGTERM, 143)] * 5:
                proc = subprocess.Popen(WRAPPER + [PCT, "logs", "--threads", threads, path],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                first = proc.stdout.read(1 << 16)  # pct is running, and writing
                proc.send_signal(sig)
                rest, err = proc.communicate(timeout=600)
                out = first + rest
                runs += 1
                name = "%s, %s thread(s), run %d" % (sig.name, threads, runs)
                check(name + " (exit %d)" % code, proc.returncode == code, "exit %d" % proc.returncode)
                check(name + " (ends with a whole line)", out.endswith(b"\n"), short(out[-60:]))
                check(name + " (a prefix of the output)", full.startswith(out), "%d bytes" % len(out))
                check(name + " (stopped early)", len(out) < len(full), "%d bytes" % len(out))
                check(name + " (message)", err == b"pct logs: interrupted (%s)\n" % sig.name.encode(),
                      short(err))
        # In the middle of a line longer than --max-line, streamed through:
        # the line is ended where it stopped.
        huge = os.path.join(tmp, "huge.log")
        with open(huge, "wb") as f:
            f.write(b"/" + b"a" * (64 << 20) + b"\n")
        for args, end in [([], b"\n"), (["--json"], b'"}\n')]:
            proc = subprocess.Popen(WRAPPER + [PCT, "logs", "--threads", "1"] + args + [huge],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            first = proc.stdout.read(1 << 16)
            proc.send_signal(signal.SIGINT)
            rest, err = proc.communicate(timeout=600)
            out = first + rest
            name = "SIGINT in a long line %s" % " ".join(args)
            check(name + " (exit 130)", proc.returncode == 130, "exit %d" % proc.returncode)
            check(name + " (one line, ended)", out.endswith(end) and out.count(b"\n") == 1, short(out[-60:]))
            check(name + " (cut short)", len(out) < (64 << 20), "%d bytes" % len(out))
        # Output to a reader that does not read: the first signal waits for
        # the write, a second one stops at once.
        if os.path.exists("/proc/self/status") and not WRAPPER:
            proc = subprocess.Popen(WRAPPER + [PCT, "logs", "--threads", "1", path],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            check("SIGINT handler seen in /proc", wait_caught(proc.pid, signal.SIGINT))
            proc.send_signal(signal.SIGINT)
            wait_delivered(proc.pid, signal.SIGINT)  # two at once would be one
            proc.send_signal(signal.SIGINT)
            try:
                code = proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
                check("second SIGINT (stops)", False, "still running after 20 s")
            check("second SIGINT (killed by it, or done after the first)", code in (-signal.SIGINT, 130),
                  "exit %d" % code)
            proc.stdout.close()
            proc.stderr.close()
        # An idle pipe (`tail -f log | pct logs`): the interrupt does not
        # wait for the next line, before the first byte or after some lines.
        some = log_lines(5)
        want = run(["--threads", "1"], some).stdout
        # (With no line before, only where /proc shows the handler is set.)
        for before in [b"", some] if os.path.exists("/proc/self/status") and not WRAPPER else [some]:
            for threads in ["1", "2"]:
                proc = subprocess.Popen(WRAPPER + [PCT, "logs", "--threads", threads],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                proc.stdin.write(before)
                proc.stdin.flush()
                got = b""
                while len(got) < len(want) and before:
                    got += os.read(proc.stdout.fileno(), 1 << 16)  # written as they came
                if not before and not wait_caught(proc.pid, signal.SIGINT):
                    check("SIGINT handler seen in /proc", False)
                proc.send_signal(signal.SIGINT)
                try:
                    rest, err = proc.communicate(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    rest, err = proc.communicate()
                name = "SIGINT, idle pipe, %d lines before, %s thread(s)" % (before.count(b"\n"), threads)
                check(name + " (exit 130)", proc.returncode == 130, "exit %d" % proc.returncode)
                check(name + " (the lines that came)", got + rest == (want if before else b""), short(got + rest))
                check(name + " (message)", err == b"pct logs: interrupted (SIGINT)\n", short(err))
                proc.stdin.close()
    finally:
        shutil.rmtree(tmp)
    return 0


# --------------------------------------------------------------------------
# Defect 12: `pct logs f >&-` said "input file is output file".
# --------------------------------------------------------------------------

def test_closed_stdout():
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "a.log")
        with open(path, "wb") as f:
            f.write(log_lines(3))
        for args in [[path], ["--json", path], []]:
            result = subprocess.run(WRAPPER + [PCT, "logs"] + args, stdin=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, timeout=60, pass_fds=(),
                                    preexec_fn=lambda: os.close(1))
            name = "stdout closed %s" % " ".join(args[:1])
            check(name + " (exit 2)", result.returncode == 2, "exit %d" % result.returncode)
            check(name + " (message)", result.stderr == b"pct logs: stdout is closed\n", short(result.stderr))
    finally:
        shutil.rmtree(tmp)
    return 0


# --------------------------------------------------------------------------
# Defect 18: --chunk-size 1 --threads 2 was 208 times slower: less than 64K
# is taken as 64K, as --help says.
# --------------------------------------------------------------------------

def test_chunk_size():
    help_text = run(["--help"]).stdout
    check("chunk-size (--help says its least)", b"less than 64K is taken as 64K" in help_text,
          short(help_text[help_text.find(b"--chunk-size"):][:160]))
    data = log_lines(20000)
    want = run(["--threads", "1"], data).stdout
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "a.log")
        with open(path, "wb") as f:
            f.write(data)
        for size in ["1", "1000", "64k"]:
            for source in ["file", "pipe"]:
                args = ["--threads", "2", "--chunk-size", size, "--stats"]
                result = run(args + [path]) if source == "file" else run(args, data)
                name = "chunk-size %s, %s" % (size, source)
                check(name + " (exit 0)", result.returncode == 0, short(result.stderr))
                check(name + " (output)", result.stdout == want)
        # Still a usage error out of range.
        result = run(["--chunk-size", "0"])
        check("chunk-size 0 (usage error)", result.returncode == 2 and b"--chunk-size must be 1..1G" in result.stderr,
              short(result.stderr))
    finally:
        shutil.rmtree(tmp)
    return 0


# --------------------------------------------------------------------------
# Defect 19: a file name with ESC or a newline was printed raw in messages.
# --------------------------------------------------------------------------

def test_names():
    tmp = tempfile.mkdtemp()
    try:
        evil = os.path.join(tmp, "a\nforged: \x1b[31mred\x1b[0m\\.log").encode()
        result = run([evil])  # no such file
        err = result.stderr
        check("name (exit 2)", result.returncode == 2, "exit %d" % result.returncode)
        check("name (one line)", err.count(b"\n") == 1, short(err))
        check("name (no raw control byte)", not any(b < 0x20 and b != 0x0a for b in err), short(err))
        check("name (escaped)", b"a\\x0aforged: \\x1b[31mred\\x1b[0m\\\\.log: No such file or directory" in err,
              short(err))
        # A file that exists, and a note about it (a line over --max-line).
        with open(evil, "wb") as f:
            f.write(b"x" * (1 << 20) + b"\n")  # longer than a read: reported
        result = run(["--max-line", "4k", evil])
        check("name, note (one line, escaped)",
              result.stderr.count(b"\n") == 1 and b"\x1b" not in result.stderr and b"\\x1b[31m" in result.stderr,
              short(result.stderr))
        # A W3C header too wide to use, reported with the name.
        with open(evil, "wb") as f:
            f.write(b"#Fields: " + b" ".join(b"x-c%d" % i for i in range(300)) + b"\n" + b"1 " * 300 + b"\n")
        result = run(["--format", "w3c", evil])
        check("name, W3C header (one line, escaped)",
              result.stderr.count(b"\n") == 1 and b"\x1b" not in result.stderr and b"\\x1b[31m" in result.stderr,
              short(result.stderr))
        # A C1 control (U+009B, a CSI on some terminals) too.
        c1 = os.path.join(tmp, "b\xc2\x9b2J.log").encode("latin-1")
        result = run([c1])
        check("name, C1 (escaped)", b"\xc2\x9b" not in result.stderr and b"\\xc2\\x9b2J" in result.stderr,
              short(result.stderr))
        # An argument echoed by a usage error.
        result = run(["--format", "x\x1b]0;title\x07"])
        check("argument (escaped)", result.returncode == 2 and b"\x1b" not in result.stderr and
              b"\x07" not in result.stderr and b"x\\x1b]0;title\\x07" in result.stderr, short(result.stderr))
    finally:
        shutil.rmtree(tmp)
    return 0


GROUPS = {"eio": test_eio, "signals": test_signals, "closed-stdout": test_closed_stdout,
          "chunk-size": test_chunk_size, "names": test_names}


def set_pct(path):
    global PCT
    PCT = path


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
