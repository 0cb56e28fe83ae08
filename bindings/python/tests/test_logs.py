"""pct.logs.read (the log engine in-process) against `pct logs --json` of the
pct tool built from the same tree (PCT_CLI): the same records, for every
format, hostile lines, plain/gzip/zstd input, 1 and 2 threads, paths and
file objects; early exit, errors, LogError pickling."""

import gzip
import io
import json
import os
import pickle
import shutil
import signal
import subprocess
import threading

import pytest

import pct.logs
from logs_data import FORMAT_LINES, cli, combined_lines, format_lines, make_logs


def cli_run(path, *extra):
    return subprocess.run([cli(), "logs", "--json", *extra, "--", path], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)


def cli_records(path, *extra):
    r = cli_run(path, *extra)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def os_threads():
    """The threads of this process, C threads included (Linux)."""
    return len(os.listdir("/proc/self/task"))


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    return make_logs(str(tmp_path_factory.mktemp("logs")))


def compressed(path, data):
    """path (plain), path.gz and, with the zstd tool, path.zst of data."""
    paths = [path]
    with open(path, "wb") as f:
        f.write(data)
    with gzip.open(path + ".gz", "wb") as f:
        f.write(data)
    paths.append(path + ".gz")
    if shutil.which("zstd"):
        subprocess.run(["zstd", "-q", "-f", path, "-o", path + ".zst"], check=True)
        paths.append(path + ".zst")
    return paths


def test_every_format(rng, tmp_path):
    """Each format of the registry, named and auto-detected: lines with
    random and hostile targets and bytes, as read() yields them and as
    `pct logs --json` writes them, equal; plain, gzip, zstd; 1 and 2
    threads (files of several chunks)."""
    names = [n for n in pct.logs.formats() if n != "auto"]
    missing = [n for n in names if n not in FORMAT_LINES]
    assert not missing, f"add a line of {missing} to logs_data.FORMAT_LINES"
    every = []
    for name in names:
        mutated = []
        data = format_lines(rng, name, 1500, mutated)
        every.append((data, mutated))
        for p in compressed(str(tmp_path / f"{name}.log"), data):
            for threads in (1, 2):
                extra = ["--threads", str(threads), "--chunk-size", "64K"]
                want = cli_records(p, "--format", name, *extra)
                assert len(want) >= 1500
                got = list(pct.logs.read(p, format=name, threads=threads))
                assert_same(mutated, got, want, (p, threads))
        # and found by auto detection
        p = str(tmp_path / f"{name}.log")
        assert_same(mutated, list(pct.logs.read(p)), cli_records(p), p)
    # all formats in one file (W3C last: its header makes the rest W3C)
    data = b"".join(d for d, _ in every)
    mutated = [m for _, ms in every for m in ms]
    for p in compressed(str(tmp_path / "all.log"), data):
        for threads in (1, 2):
            want = cli_records(p, "--threads", str(threads), "--chunk-size", "64K")
            assert_same(mutated, list(pct.logs.read(p, threads=threads)), want, (p, threads))


def assert_same(mutated, got, want, where):
    """got == want, record by record, except on lines with bytes inserted
    (mutated) whose CLI JSON comes from its fast path for combined/common
    (fmt_access.c): that parser refuses lines the format's template accepts
    (a doubled space, a '{' in the time) and splits inserted quotes
    differently, while the records (as --tsv, and --json of the other
    formats) come from the template: a difference inside the CLI, not of
    the records. Those lines are counted and printed."""
    assert len(got) == len(want) == len(mutated), where
    skipped = 0
    for i, (g, w) in enumerate(zip(got, want)):
        if g == w:
            continue
        fast = {"combined", "common"} & {g.get("format"), w.get("format")}
        if fast and mutated[i]:
            skipped += 1
            continue
        assert g == w, (where, i)
    if skipped:
        print(f"{where}: {skipped} of {sum(mutated)} lines with inserted bytes differ "
              f"(the CLI's combined/common fast path)")


def first_difference(got, want):
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return i, g, w
    return len(got), len(want)


def test_value_types(tmp_path):
    """Numbers and true/false of JSON lines, status and bytes: the types
    json.loads gives (int, float, bool), not strings."""
    p = tmp_path / "types.log"
    p.write_bytes(FORMAT_LINES["json"].replace("{T}", "/x").encode() + b"\n" +
                  FORMAT_LINES["combined"].replace("{T}", "/y").encode() + b"\n")
    got = list(pct.logs.read(str(p)))
    assert got == cli_records(str(p))
    assert [type(r["status"]) for r in got] == [int, int]
    assert got[0]["bytes"] == 1500.0 and type(got[0]["bytes"]) is float
    assert got[0]["ok"] is True


def test_paths(logs):
    assert len(logs) >= 6
    for p in logs:
        want = cli_records(p)
        got = list(pct.logs.read(p))
        assert got == want, p
    assert sum(len(cli_records(p)) for p in logs) > 5000


def test_options(logs):
    p = logs[0]
    assert list(pct.logs.read(p, referer=True, decode_slash=True, query="plain")) == cli_records(
        p, "--referer", "--decode-slash", "--query", "plain")
    assert list(pct.logs.read(p, query="keep", percent_u=True)) == cli_records(
        p, "--query", "keep", "--percent-u")
    assert list(pct.logs.read(p, format="combined")) == cli_records(p, "--format", "combined")
    assert list(pct.logs.read(p, threads=1)) == cli_records(p)
    for n in (1, 7, 64):
        assert list(pct.logs.read(p, field=n)) == cli_records(p, "--field", str(n))
    with pytest.raises(ValueError):
        pct.logs.read(p, format="nope")
    with pytest.raises(ValueError):
        pct.logs.read(p, threads=0)
    with pytest.raises(TypeError):
        pct.logs.read(p, no_such_option=1)


def test_file_objects(logs):
    for p in logs:
        want = cli_records(p)
        with open(p, "rb") as f:  # has a file descriptor: read by the engine
            assert list(pct.logs.read(f)) == want
        with open(p, "rb") as f:  # no descriptor: read() and fed to the engine
            assert list(pct.logs.read(io.BytesIO(f.read()))) == want


class Chunky(io.RawIOBase):
    """A file object without a descriptor that returns a few bytes at a
    time, then raises OSError at offset fail_at (if given)."""

    def __init__(self, data, fail_at=None):
        self.data, self.at, self.fail_at = data, 0, fail_at

    def readable(self):
        return True

    def read(self, n=-1):
        if self.fail_at is not None and self.at >= self.fail_at:
            raise OSError(5, "the test's read error")
        k = min(n if n >= 0 else len(self.data), 7919)
        if self.fail_at is not None:
            k = min(k, self.fail_at - self.at)
        block = self.data[self.at:self.at + k]
        self.at += len(block)
        return block


def test_fed_file_objects(logs):
    """Odd-sized reads, gzip through feed, and a read() that raises: the
    exception comes out after the records read before it."""
    for p in logs:
        with open(p, "rb") as f:
            data = f.read()
        assert list(pct.logs.read(Chunky(data), threads=2)) == cli_records(p), p
    plain = [p for p in logs if p.endswith("mixed.log")][0]
    with open(plain, "rb") as f:
        data = f.read()
    cut = data.index(b"\n", len(data) // 2) + 1
    records = []
    with pytest.raises(OSError, match="the test's read error"):
        for r in pct.logs.read(Chunky(data, fail_at=cut)):
            records.append(r)
    # a prefix of the records of the whole file (what was decoded by then)
    assert records == cli_records(plain)[:len(records)]


def test_bytes_identical_to_cli(logs):
    for p in logs:
        want = subprocess.run([cli(), "logs", "--json", p], check=True, stdout=subprocess.PIPE).stdout
        assert pct.logs.read_bytes(p) == want
        with open(p, "rb") as f:
            assert pct.logs.read_bytes_from(f.read()) == want


def test_early_break(tmp_path, rng):
    """Leaving the loop stops the run and joins its thread and the engine's
    worker threads: no thread left, whether the reader was iterated,
    broken out of, closed or never started."""
    p = tmp_path / "big.log"
    p.write_bytes(format_lines(rng, "combined", 60000))  # more than the queue holds
    before_py, before_os = threading.active_count(), os_threads()
    for threads in (1, 2):
        for r in pct.logs.read(str(p), threads=threads):
            break
        it = pct.logs.read(str(p), threads=threads)
        assert isinstance(next(it), dict)
        it.close()
        it = pct.logs.read(str(p), threads=threads)  # never iterated
        del it
        it = pct.logs.read(io.BytesIO(p.read_bytes()), threads=threads)  # fed
        next(it)
        del it
    assert threading.active_count() == before_py
    assert os_threads() == before_os


def test_errors(tmp_path):
    missing = str(tmp_path / "missing.log")
    with pytest.raises(FileNotFoundError) as e:
        pct.logs.read(missing)  # raised by the call, before any iteration
    assert e.value.filename == missing
    with pytest.raises(TypeError):
        pct.logs.read(42)
    with pytest.raises(TypeError):
        pct.logs.read(None)
    bad = tmp_path / "bad.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00garbage")
    r = cli_run(str(bad))
    with pytest.raises(pct.logs.LogError) as e:
        list(pct.logs.read(str(bad)))
    assert e.value.returncode == r.returncode != 0
    assert str(e.value) == r.stderr.decode().strip()


def test_truncated_gzip(tmp_path, rng):
    """A gzip file cut short: the records before the damage, then LogError
    with the message and exit status of `pct logs`."""
    data = combined_lines(rng, 20000)
    whole = gzip.compress(data)
    p = tmp_path / "cut.log.gz"
    p.write_bytes(whole[:len(whole) * 2 // 3])
    r = cli_run(str(p))
    assert r.returncode != 0
    want = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(want) > 1000
    for threads in (1, 2):
        got = []
        with pytest.raises(pct.logs.LogError) as e:
            for rec in pct.logs.read(str(p), threads=threads):
                got.append(rec)
        assert got == want
        assert e.value.returncode == r.returncode
        assert str(e.value) == r.stderr.decode().strip()
        assert "cut.log.gz" in str(e.value)


def test_log_error_pickles():
    e = pct.logs.LogError("pct logs: x.gz: truncated", 2)
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(e, proto))
        assert type(back) is pct.logs.LogError
        assert str(back) == str(e) and back.returncode == 2


def test_formats():
    """formats() is the engine's registry: every name `pct logs
    --list-formats` gives (aliases accepted by read() too)."""
    out = subprocess.run([cli(), "logs", "--list-formats"], check=True, stdout=subprocess.PIPE)
    rows = [line.split("\t") for line in out.stdout.decode().splitlines()]
    assert rows and pct.logs.formats() == ("auto",) + tuple(r[0] for r in rows)
    for name, aliases, _ in rows:
        for alias in filter(None, aliases.split(",")):
            pct.logs.read(os.devnull, format=alias).close()


def test_signal_while_waiting():
    """A reader waiting on an idle pipe still runs signal handlers (Ctrl-C
    reaches it), and closing it stops the engine on the idle pipe."""
    r, w = os.pipe()
    before = os_threads()
    with os.fdopen(r, "rb") as f:
        it = pct.logs.read(f)

        def alarm(signum, frame):
            raise TimeoutError("alarm")

        old = signal.signal(signal.SIGALRM, alarm)
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            with pytest.raises(TimeoutError):
                next(it)  # nothing comes
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        it.close()
    os.close(w)
    assert os_threads() == before


def test_fork_with_a_reader(tmp_path, rng):
    """A child forked while a reader runs: its copy of the reader raises
    RuntimeError instead of waiting for a thread the child does not have;
    the parent's reader goes on."""
    p = tmp_path / "f.log"
    p.write_bytes(combined_lines(rng, 30000))
    it = pct.logs.read(str(p))
    first = next(it)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            for _ in it:
                pass
        except RuntimeError:
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert [first] + list(it) == cli_records(str(p))


def test_duplicate_keys(tmp_path):
    """Lines whose fields would repeat a key (nginx trailing fields named
    like the request's, a JSON line with both uri and path, a W3C header
    naming a column twice, a field named time_iso): each key once, the
    later ones in "extra", as `pct logs --json` has them."""
    lines = [
        b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET /real?a=1 HTTP/1.1" 200 5 "-" "ua" '
        b'path=/admin remote=10.0.0.1 method=POST time_iso=x extra=y',
        b'{"uri":"/u%20v?q=1","path":"/admin","remote_addr":"192.0.2.2","status":200,'
        b'"time_local":"14/Mar/2026:06:00:10 +0000","time_iso":"mine"}',
    ]
    p = tmp_path / "dup.log"
    p.write_bytes(b"\n".join(lines) + b"\n")
    got = list(pct.logs.read(str(p)))
    assert got == cli_records(str(p))
    assert got[0]["path"] == "/real" and got[1]["path"] == "/u v"
    w3c = tmp_path / "dup-w3c.log"
    w3c.write_bytes(b"#Fields: date time cs-uri-stem c-ip cs-uri-stem sc-status\n"
                    b"2026-03-14 06:00:00 /a%20b 192.0.2.5 /admin 200\n")
    assert list(pct.logs.read(str(w3c))) == cli_records(str(w3c))


def test_log_format(tmp_path):
    """log_format= a custom format, as `pct logs --log-format` reads it; not
    beside a named format; in command()."""
    fmt = '$remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time'
    p = tmp_path / "custom.log"
    p.write_bytes(b'192.0.2.7 [14/Mar/2026:06:00:00 +0000] "GET /a%20b?x=%41 HTTP/1.1" 404 12 0.003\n'
                  b"junk\n")
    got = list(pct.logs.read(str(p), log_format=fmt))
    assert got == cli_records(str(p), "--log-format", fmt)
    assert got[0]["path"] == "/a b" and got[1] == {"unparsed": "junk"}
    with pytest.raises(ValueError):
        pct.logs.read(str(p), format="combined", log_format=fmt)
    with pytest.raises(ValueError, match="no closing quote"):
        pct.logs.read(str(p), log_format="log_format main '$remote_addr")
    args = pct.logs.command(["x.log"], log_format=fmt)
    assert args[args.index("--log-format") + 1] == fmt and args[-2:] == ["--", "x.log"]


def test_truncated_records(tmp_path):
    """Records a server cut (tools/logs/log_cut.h): "truncated": True in the
    dicts as in `pct logs --json` (absent on whole records); a squid entry
    squid cut at 8,191 bytes and a NUL is a record, the entry after the NUL
    another."""
    head = b"192.0.2.7 - - [27/Nov/2026:12:00:00 +0000] "
    squid_head = b"1764244800.123     27 192.0.2.3 TCP_MISS/200 5120 GET http://o.example/"
    data = (head + b'"GET /a%41 HTTP/1.1" 200 5 "-" "Mozilla (X11\n' +
            head + b'"GET /long" 414 0 "-" "-"\n' +
            head + b'"GET /w HTTP/1.1" 200 5 "-" "ua"\n' +
            (squid_head + b"a" * 9000)[:8191] + b"\0" +
            b"1764244801.000     27 192.0.2.3 TCP_MISS/404 10 GET http://o.example/next - "
            b"HIER_DIRECT/203.0.113.5 text/plain\n")
    p = tmp_path / "cut.log"
    p.write_bytes(data)
    for threads in (1, 2):
        got = list(pct.logs.read(str(p), threads=threads))
        assert got == cli_records(str(p), "--threads", str(threads))
        assert [r.get("truncated", False) for r in got] == [True, True, False, True, False]
        assert got[0]["path"] == "/aA" and got[0]["agent"] == "Mozilla (X11"
        assert got[3]["format"] == "squid" and got[3]["path"] == "/" + "a" * (8191 - len(squid_head))
        assert got[4]["path"] == "/next" and got[4]["status"] == 404
