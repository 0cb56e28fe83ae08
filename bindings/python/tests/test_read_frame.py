"""pct.logs.read_frame against `pct logs --tsv --fields ...` of the pct tool
built from the same tree (PCT_CLI): the same values in every column, on
random logs (every format, hostile bytes, non-UTF-8, "-" values, lines that
do not parse); dtypes; gzip and file objects; errors; an empty log. The
CLI's rows are read back by a TSV reader of this file's own, and typed
values (times, integers) computed from their text here."""

import datetime
import gzip
import io
import os
import re
import subprocess
import sys
import urllib.parse

import pytest

import pct.logs
from logs_data import HOSTILE, TARGETS, cli, format_lines

pd = pytest.importorskip("pandas")

TEXT = "object"
TYPES = {"time": "datetime64[ns, UTC]", "status": "Int64", "bytes": "Int64",
         "truncated": "boolean"}
EXTRA = ["time_iso", "protocol", "origin", "line", "truncated"]


# ---------------------------------------------------------- the CLI's rows

TSV_ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|[\\tnr])")


def tsv_cell(cell):
    """A TSV cell as `pct logs --tsv` documents it: \\N null, \\\\ \\t \\n
    \\r \\xHH escapes (a C1 control is two \\xHH), UTF-8 text."""
    if cell == b"\\N":
        return None

    def undo(m):
        e = m.group(1)
        if e[:1] == b"x":
            return bytes([int(e[1:], 16)])
        return {b"\\": b"\\", b"t": b"\t", b"n": b"\n", b"r": b"\r"}[e]

    # surrogateescape: an absolute URL's origin is written as it is, not
    # UTF-8-repaired (the frame's str keeps its bytes the same way)
    return TSV_ESCAPE.sub(undo, cell).decode("utf-8", "surrogateescape")


def cli_rows(path, fields, *extra):
    """The rows of `pct logs --tsv --fields format,FIELDS,line`, as lists of
    values (format first, line last)."""
    r = subprocess.run([cli(), "logs", "--no-progress", "--tsv", "--fields",
                        ",".join(["format"] + fields + ["line"]), *extra, "--", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert r.returncode == 0, r.stderr
    rows = [[tsv_cell(c) for c in line.split(b"\t")] for line in r.stdout.split(b"\n")[:-1]]
    assert all(len(row) == len(fields) + 2 for row in rows)
    return rows


ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?")


def iso_ns(text):
    """ISO 8601 text as nanoseconds since the epoch, UTC (no zone: UTC);
    None when it is not a valid time."""
    m = ISO.fullmatch(text) if text is not None else None
    if m is None:
        return None
    y, mo, d, h, mi, s = (int(x) for x in m.groups()[:6])
    try:
        t = datetime.datetime(y, mo, d, h, mi, s, tzinfo=datetime.timezone.utc)
    except ValueError:
        return None
    ns = (t - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(
        microseconds=1) * 1000
    ns += int((m.group(7) or "0")[:9].ljust(9, "0"))
    zone = m.group(8)
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        ns -= sign * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60) * 10**9
    return ns


def int_value(text):
    """A decimal integer that fits int64, or None."""
    if text is None or not re.fullmatch(r"-?[0-9]+", text):
        return None
    v = int(text)
    return v if -(2**63) <= v < 2**63 else None


def expected(rows, fields, unparsed):
    """The frame's columns (as lists) from the CLI's rows, and the counts."""
    cols = {f: [] for f in fields}
    lines = []
    counts = {"unparsed": 0, "directives": 0}
    for row in rows:
        fmt, values, line = row[0], row[1:-1], row[-1]
        if "line" in fields:  # the first line column has a line over the max line, whole
            line = values[fields.index("line")]
        if fmt == "directive":
            counts["directives"] += 1
            continue
        if fmt == "unparsed":
            counts["unparsed"] += 1
            if unparsed == "count":
                continue
        for f, v in zip(fields, values):
            if f == "time":
                v = iso_ns(v)
            elif f in ("status", "bytes"):
                v = int_value(v)
            elif f == "truncated":
                v = {"true": True, "false": False}.get(v)
            cols[f].append(v)
        lines.append(line if fmt == "unparsed" else None)
    if unparsed == "column":
        cols["unparsed"] = lines
    return cols, counts


def frame_values(df, name):
    """Column name of df as a list: None for null; times as int64 ns."""
    s = df[name]
    if name == "time":
        ns = s.values.view("i8")  # UTC; NaT is the least int64
        return [None if isna else int(v) for v, isna in zip(ns, s.isna())]
    if str(s.dtype) in ("Int64", "boolean"):
        return [None if v is pd.NA else (bool(v) if str(s.dtype) == "boolean" else int(v))
                for v in s.tolist()]
    return s.tolist()


def assert_frame_is_cli(df, path, fields, unparsed, cli_args, where):
    tsv_fields = ["time_iso" if f == "time" else f for f in fields]
    want, counts = expected(cli_rows(path, tsv_fields, *cli_args), fields, unparsed)
    names = list(fields) + (["unparsed"] if unparsed == "column" else [])
    assert list(df.columns) == names, where
    for name in names:
        assert str(df[name].dtype) == TYPES.get(name, TEXT), (where, name)
        got = frame_values(df, name)
        assert len(got) == len(want[name]), (where, name)
        for i, (g, w) in enumerate(zip(got, want[name])):
            assert g == w, (where, name, i, g, w)
    assert df.attrs == counts, where
    return len(df)


# ------------------------------------------------------------- random logs

def hostile_combined(rng, n):
    """Combined and common lines with random targets, hostile bytes, "-"
    in any field that may be one, times good and bad, and lines that do
    not parse (random bytes, cut lines)."""
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.06:
            out.append(bytes(rng.choice(b"ab \t\"[]-\\%\xff\xc3\x01") for _ in range(rng.randrange(40))))
            continue
        target = rng.choice(TARGETS) + str(i)
        if rng.random() < 0.1:
            target = target.encode().replace(b"a", b"\xe9").decode("latin-1")
        day = rng.choice(["14", "31", "29", "00"])
        month = rng.choice(["Mar", "Feb", "Foo"])
        zone = rng.choice(["+0000", "-0700", "+0530", "+9999"])
        when = rng.choice([f"[{day}/{month}/2026:06:{i % 60:02d}:{i % 61:02d} {zone}]", "-"])
        status = rng.choice(["200", "404", "-", "0123", "99999999999999999999", "2x"])
        size = rng.choice([str(i), "-", "0", "-5"])
        ref = rng.choice(['"-"', '"https://example.com/r%C3%A9f?a=1"', '"\xff\\"x"', '""'])
        agent = rng.choice(['"curl/8.5.0"', '"-"', '"Mozilla/5.0 (X11; \x1b[31m)"', '"a\\\\b"'])
        user = rng.choice(["-", "bob", "\xe9"])
        line = f'192.0.2.{i % 256} - {user} {when} "GET {target} HTTP/1.1" {status} {size}'
        if rng.random() < 0.8:
            line += f" {ref} {agent}"
        data = line.encode("utf-8", "surrogateescape")
        if rng.random() < 0.15:
            at = rng.randrange(len(data) + 1)
            data = data[:at] + rng.choice(HOSTILE) + data[at:]
        out.append(data.replace(b"\n", b"").replace(b"\r", b""))
    return b"\n".join(out) + b"\n"


@pytest.fixture(scope="module")
def mixed(tmp_path_factory, request):
    """A log of every format (W3C last) and hostile combined lines; seeded
    like the rng fixture (PCT_TEST_SEED)."""
    import random
    import time

    seed = int(os.environ.get("PCT_TEST_SEED", time.time_ns() % (1 << 32)))
    print(f"mixed log: seed {seed} (PCT_TEST_SEED={seed} reproduces)")
    rng = random.Random(seed)
    names = [n for n in pct.logs.formats() if n not in ("auto", "w3c")] + ["w3c"]
    data = hostile_combined(rng, 3000)
    data += b"".join(format_lines(rng, n, 300) for n in names)
    p = tmp_path_factory.mktemp("frame") / "mixed.log"
    p.write_bytes(data)
    return str(p), seed


# ------------------------------------------------------------------ tests

def test_columns_and_dtypes(tmp_path):
    p = tmp_path / "one.log"
    p.write_bytes(b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0100] "GET /caf%C3%A9%20x?q=a+b%26c HTTP/1.1" '
                  b'200 - "-" "curl/8.5.0"\nnot a log line\n')
    df = pct.logs.read_frame(str(p))
    assert list(df.columns) == list(pct.logs.DEFAULT_FIELDS)
    assert {c: str(t) for c, t in df.dtypes.items()} == {
        "format": TEXT, "remote": TEXT, "time": "datetime64[ns, UTC]", "method": TEXT,
        "path": TEXT, "query": TEXT, "status": "Int64", "bytes": "Int64", "referer": TEXT,
        "agent": TEXT}
    assert len(df) == 1 and df.attrs == {"unparsed": 1, "directives": 0}
    row = df.iloc[0]
    # values from reasoning: the time in UTC, the path as urllib decodes it,
    # the query's escapes of '&' kept (form mode: '+' is a space), '-' null
    assert row["time"] == pd.Timestamp("2026-03-14T05:00:00", tz="UTC")
    assert row["path"] == urllib.parse.unquote("/caf%C3%A9%20x")
    assert row["query"] == "q=a b%26c"
    assert row["status"] == 200 and row["bytes"] is pd.NA and row["referer"] is None
    assert (row["format"], row["remote"], row["method"], row["agent"]) == (
        "combined", "192.0.2.1", "GET", "curl/8.5.0")
    df = pct.logs.read_frame(str(p), "path,truncated,status", unparsed="column")
    assert list(df.columns) == ["path", "truncated", "status", "unparsed"]
    assert [str(t) for t in df.dtypes] == [TEXT, "boolean", "Int64", TEXT]
    assert df["unparsed"].tolist() == [None, "not a log line"]
    assert df["path"].tolist() == ["/café x", None]
    assert df["truncated"].tolist() == [False, pd.NA]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("unparsed", ["count", "column"])
def test_every_column_is_the_cli(mixed, threads, unparsed):
    """Every format, hostile bytes, lines that do not parse: each column of
    the frame is the CLI's TSV column (times and integers read from its
    text here), with the default fields and more."""
    path, seed = mixed
    for fields in (list(pct.logs.DEFAULT_FIELDS), list(pct.logs.DEFAULT_FIELDS) + EXTRA):
        df = pct.logs.read_frame(path, fields, threads=threads, unparsed=unparsed)
        n = assert_frame_is_cli(df, path, fields, unparsed, ["--threads", str(threads)],
                                (seed, threads, unparsed))
        assert n > 3000
        assert df.attrs["unparsed"] > 100


def test_named_formats(tmp_path, rng):
    """format= every name of the registry, and its own fields."""
    for name in (n for n in pct.logs.formats() if n != "auto"):
        p = tmp_path / f"{name}.log"
        p.write_bytes(format_lines(rng, name, 400))
        fields = ["format", "remote", "time", "method", "path", "query", "status", "bytes"]
        df = pct.logs.read_frame(str(p), fields, format=name, threads=2)
        assert_frame_is_cli(df, str(p), fields, "count", ["--format", name], name)
        assert (df["format"] == name).sum() >= 300


def test_options_as_the_cli(mixed):
    path, seed = mixed
    fields = ["path", "query", "referer", "time", "status"]
    for opts, args in [({"query": "keep"}, ["--query", "keep"]),
                       ({"query": "plain"}, ["--query", "plain"]),
                       ({"decode_slash": True, "referer": True}, ["--decode-slash", "--referer"]),
                       ({"percent_u": True}, ["--percent-u"])]:
        df = pct.logs.read_frame(path, fields, **opts)
        assert_frame_is_cli(df, path, fields, "count", args, (seed, opts))


def test_log_format(tmp_path):
    fmt = '$remote_addr [$time_local] "$request" $status $body_bytes_sent "$http_user_agent" $request_time'
    p = tmp_path / "custom.log"
    p.write_bytes(b'192.0.2.7 [14/Mar/2026:06:00:00 +0000] "GET /a%20b?x=%41 HTTP/1.1" 404 12 "ua" 0.003\n'
                  b'192.0.2.8 [14/Mar/2026:06:00:01 +0000] "-" 400 0 "-" 0.000\n'
                  b"junk\n")
    fields = ["remote", "time", "path", "query", "status", "bytes", "agent", "request_time"]
    df = pct.logs.read_frame(str(p), fields, log_format=fmt, unparsed="column")
    assert_frame_is_cli(df, str(p), fields, "column", ["--log-format", fmt], "log_format")
    assert df["path"].tolist() == ["/a b", None, None]
    assert df["request_time"].tolist() == ["0.003", "0.000", None]
    with pytest.raises(ValueError, match="no closing quote"):
        pct.logs.read_frame(str(p), log_format="log_format main '$remote_addr")
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), format="combined", log_format=fmt)


def test_gzip_and_file_objects(mixed, tmp_path):
    path, seed = mixed
    data = open(path, "rb").read()
    gz = tmp_path / "mixed.log.gz"
    gz.write_bytes(gzip.compress(data))
    fields = list(pct.logs.DEFAULT_FIELDS) + ["line"]
    want = pct.logs.read_frame(path, fields, unparsed="column")
    assert len(want) > 3000
    assert_frame_is_cli(pct.logs.read_frame(str(gz), fields, unparsed="column"), str(gz), fields,
                        "column", [], seed)
    for source in (lambda: open(gz, "rb"), lambda: io.BytesIO(gz.read_bytes()),
                   lambda: io.BytesIO(data), lambda: open(path, "rb")):
        f = source()
        with f:
            got = pct.logs.read_frame(f, fields, unparsed="column")
        pd.testing.assert_frame_equal(got, want)
        assert got.attrs == want.attrs


def test_empty_log(tmp_path):
    p = tmp_path / "empty.log"
    p.write_bytes(b"")
    for unparsed in ("count", "column"):
        fields = list(pct.logs.DEFAULT_FIELDS) + ["truncated"]
        df = pct.logs.read_frame(str(p), fields, unparsed=unparsed)
        names = fields + (["unparsed"] if unparsed == "column" else [])
        assert list(df.columns) == names and len(df) == 0
        assert [str(t) for t in df.dtypes] == [TYPES.get(n, TEXT) for n in names]
        assert df.attrs == {"unparsed": 0, "directives": 0}
    only_junk = tmp_path / "junk.log"
    only_junk.write_bytes(b"junk\n\xff\n")
    df = pct.logs.read_frame(str(only_junk))
    assert len(df) == 0 and df.attrs["unparsed"] == 2
    assert str(df["time"].dtype) == "datetime64[ns, UTC]"


def test_errors(tmp_path):
    missing = str(tmp_path / "missing.log")
    with pytest.raises(FileNotFoundError) as e:
        pct.logs.read_frame(missing)
    assert e.value.filename == missing
    p = tmp_path / "a.log"
    p.write_bytes(b"x\n")
    for bad in (42, None, 1.5):
        with pytest.raises(TypeError):
            pct.logs.read_frame(bad)
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), format="nonsense")
    with pytest.raises(ValueError, match="fields"):
        pct.logs.read_frame(str(p), ["path", "has space"])  # the engine's check
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), ["path", "path"])
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), ["path,status"])  # one name per item
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), "path,,status")
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), [])
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), ["f%d" % i for i in range(63)])
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), unparsed="drop")
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), ["unparsed"], unparsed="column")
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), query="nonsense")
    with pytest.raises(ValueError):
        pct.logs.read_frame(str(p), threads=0)
    with pytest.raises(TypeError):
        pct.logs.read_frame(str(p), nonsense=1)
    with pytest.raises(TypeError):
        pct.logs.read_frame(str(p), field=7)
    bad = tmp_path / "bad.gz"
    bad.write_bytes(gzip.compress(b"".join(b'1.2.3.4 - - [x] "GET /%d HTTP/1.0" 200 1\n' % (i * 7919 % 10007)
                                           for i in range(5000)))[:3000])
    r = subprocess.run([cli(), "logs", "--no-progress", "--tsv", "--", str(bad)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with pytest.raises(pct.logs.LogError) as e:
        pct.logs.read_frame(str(bad))
    assert e.value.returncode == r.returncode != 0
    assert str(e.value) == r.stderr.decode().strip()

    class Failing(io.RawIOBase):
        def read(self, n=-1):
            raise OSError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        pct.logs.read_frame(Failing())


def test_without_pandas(monkeypatch, tmp_path):
    """pct and pct.logs import without pandas; read_frame says what it
    needs."""
    code = ("import sys; sys.modules['pandas'] = None\n"
            "import pct, pct.logs\n"
            "try:\n"
            "    pct.logs.read_frame('-')\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, check=True)
    assert b"needs pandas" in r.stdout, r.stderr


def test_signal_while_reading(tmp_path):
    """Ctrl-C while read_frame waits on a pipe that sends nothing: the run
    stops and KeyboardInterrupt reaches the caller."""
    code = ("import os, signal, threading, pct.logs\n"
            "r, w = os.pipe()\n"
            "threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
            "try:\n"
            "    pct.logs.read_frame(os.fdopen(r, 'rb'))\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted')\n")
    r = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    assert r.stdout.strip() == b"interrupted", r.stderr


def test_long_lines(tmp_path):
    """A line longer than the engine's max line (4 MiB): an unparsed line,
    whole in the "unparsed" column as in the CLI's line column (its rows
    come in pieces), and the lines around it as they are."""
    good = b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET /a%20b HTTP/1.1" 200 5 "-" "ua"\n'
    p = tmp_path / "long.log"
    p.write_bytes(good + b"x\t\\y\xe9" * (1 << 20) + b"\n" + good)
    for fields in (["path", "status"], ["path", "line", "status"]):
        for unparsed in ("count", "column"):
            for threads in (1, 2):
                df = pct.logs.read_frame(str(p), fields, unparsed=unparsed, threads=threads)
                assert_frame_is_cli(df, str(p), fields, unparsed, [], (fields, unparsed, threads))
                assert df["path"].tolist() == (["/a b", "/a b"] if unparsed == "count"
                                               else ["/a b", None, "/a b"])
        assert len(df["unparsed"][1]) == 5 << 20
        assert df["unparsed"][0] is None and df["unparsed"][2] is None


def test_independent_parser(tmp_path):
    """bench.py's pure-Python parser (a regex, urllib.parse.unquote, pandas'
    own conversions) builds the same frame from a combined log."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "pct_bench", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    p = tmp_path / "combined.log"
    p.write_bytes(bench.combined_log(20000, seed=7))
    ours, theirs = pct.logs.read_frame(str(p)), bench.python_frame(str(p))
    assert ours.attrs["unparsed"] == theirs.attrs["unparsed"] > 50
    pd.testing.assert_frame_equal(ours, theirs, check_like=False)


def test_signal_while_rows_flow():
    """Ctrl-C while an endless log flows (the engine blocked on the full
    queue, the caller making columns): KeyboardInterrupt, the run stopped
    and joined, nothing left running."""
    code = ("import io, os, signal, threading, pct.logs\n"
            "line = b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] \"GET /a%20b HTTP/1.1\" 200 5 \"-\" \"ua\"\\n'\n"
            "class Endless(io.RawIOBase):\n"
            "    def readable(self):\n"
            "        return True\n"
            "    def read(self, n=-1):\n"
            "        return line * 4096\n"
            "threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
            "try:\n"
            "    pct.logs.read_frame(Endless(), threads=2)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', threading.active_count(), len(os.listdir('/proc/self/task')))\n")
    r = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    assert r.stdout.split() == [b"interrupted", b"1", b"1"], (r.stdout, r.stderr)


def test_many_rows(tmp_path, rng):
    """More rows than a column's block (65,536) holds, in both unparsed
    modes: every value still in its place."""
    lines = []
    for i in range(140_000):
        if rng.random() < 0.01:
            lines.append(b"junk %d" % i)
        else:
            lines.append(b'10.0.%d.%d - - [14/Mar/2026:06:%02d:%02d +0000] "GET /p%%20%d HTTP/1.0" %s %s'
                         % (i >> 8 & 255, i & 255, i // 60 % 60, i % 60, i,
                            rng.choice([b"200", b"-"]), rng.choice([b"5", b"-"])))
    p = tmp_path / "many.log"
    p.write_bytes(b"\n".join(lines) + b"\n")
    fields = ["remote", "time", "path", "status", "bytes"]
    for unparsed in ("count", "column"):
        df = pct.logs.read_frame(str(p), fields, unparsed=unparsed)
        assert assert_frame_is_cli(df, str(p), fields, unparsed, [], unparsed) > 138_000
    assert df["path"][139_999] in ("/p 139999", None)


def test_stdin(mixed):
    """"-" reads standard input, as `pct logs -`."""
    path, seed = mixed
    code = ("import pct.logs\n"
            "df = pct.logs.read_frame('-', ['path', 'status'], unparsed='column')\n"
            "print(len(df), df.attrs['unparsed'], df['path'].count(), df['status'].count())\n")
    with open(path, "rb") as f:
        r = subprocess.run([sys.executable, "-c", code], stdin=f, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, check=True)
    want = pct.logs.read_frame(path, ["path", "status"], unparsed="column")
    assert r.stdout.split() == [str(x).encode() for x in (
        len(want), want.attrs["unparsed"], want["path"].count(), want["status"].count())], seed
