"""pct.logs.write (the engine's output written from C to a file) and the
byte_range option of read, read_frame, read_bytes and write, against the
pct tool built from the same tree (PCT_CLI): the same bytes as `pct logs
... [--byte-range START:END]`, and ranges cut at random offsets that
together give the whole file's records, each once, in order."""

import gzip
import io
import os
import subprocess

import pytest

import pct.logs
from logs_data import cli, damaged_log


def run_cli(args, path):
    r = subprocess.run([cli(), "logs", "--no-progress"] + args + ["--", path], capture_output=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def line_starts(data):
    return [0] * (len(data) > 0) + [i + 1 for i, c in enumerate(data) if c == 0x0A and i + 1 < len(data)]


def random_log(rng):
    """Combined lines and garbage, some empty, CRLF, and maybe no final newline."""
    return damaged_log(rng, rng.randrange(0, 300), empty=0.05, crlf=0.05, long_line=0.02,
                       long_escapes=(100, 3000))


def cuts(rng, size):
    points = {rng.randrange(0, size + 1) for _ in range(rng.randrange(1, 8))} if size else set()
    return [0] + sorted(points - {0} | {size}) if size else [0, 0]


@pytest.fixture
def log_path(tmp_path, rng):
    data = random_log(rng)
    p = tmp_path / "access.log"
    p.write_bytes(data)
    return str(p), data


# ------------------------------------------------------------------ write


@pytest.mark.parametrize("to, args, kw", [
    ("json", ["--json"], {}),
    ("tsv", ["--tsv"], {}),
    ("csv", ["--csv", "--header", "--fields", "time_iso,path,query,status,line"],
     {"header": True, "fields": ["time_iso", "path", "query", "status", "line"]}),
    ("tsv", ["--tsv", "--fields", "remote,path,truncated"], {"fields": "remote,path,truncated"}),
    ("lines", ["--referer"], {"referer": True}),
])
def test_write_is_the_cli_output(tmp_path, log_path, to, args, kw):
    path, data = log_path
    out = tmp_path / "out"
    counts = pct.logs.write(path, str(out), to=to, **kw)
    assert out.read_bytes() == run_cli(args, path)
    assert counts["lines"] == len(line_starts(data))
    assert counts["bytes"] == len(data)  # every byte of the file
    assert set(counts) >= {"lines", "bytes", "unparsed", "truncated", "long_lines", "formats"}
    assert sum(counts["formats"].values()) + counts["unparsed"] == counts["lines"]


def test_write_to_a_file_object_at_its_position(tmp_path, log_path):
    path, _ = log_path
    target = tmp_path / "out.jsonl"
    with open(target, "wb") as f:
        f.write(b"before\n")  # buffered: flushed by write() before the engine writes
        pct.logs.write(path, f)
        f.write(b"after\n")
    assert target.read_bytes() == b"before\n" + run_cli(["--json"], path) + b"after\n"


def test_write_errors(tmp_path, log_path):
    path, _ = log_path
    out = str(tmp_path / "out")
    with pytest.raises(FileNotFoundError):
        pct.logs.write(str(tmp_path / "missing.log"), out)
    with pytest.raises(OSError):
        pct.logs.write(path, str(tmp_path / "no-such-dir" / "out"))
    with pytest.raises(TypeError):
        pct.logs.write(path, io.BytesIO())  # no descriptor
    with open(out, "w") as text, pytest.raises(TypeError):
        pct.logs.write(path, text)
    with pytest.raises(ValueError):
        pct.logs.write(path, out, to="xml")
    with pytest.raises(ValueError):
        pct.logs.write(path, out, to="json", fields=["path"])
    with pytest.raises(ValueError):  # the engine's check: --csv-safe goes with --csv
        pct.logs.write(path, out, to="tsv", csv_safe=True)
    with pytest.raises(TypeError):
        pct.logs.write(path, out, no_such_option=1)
    before = open(path, "rb").read()
    with pytest.raises(ValueError, match="input"):  # not truncated, not read
        pct.logs.write(path, path)
    with open(path, "ab") as same, pytest.raises(ValueError, match="input"):
        pct.logs.write(path, same)
    assert open(path, "rb").read() == before
    garbage = tmp_path / "garbage.log"
    garbage.write_bytes(b"not a log line\n")
    with pytest.raises(pct.logs.LogError) as e:
        pct.logs.write(str(garbage), out, strict=True)
    assert e.value.returncode == 1


# ------------------------------------------------------------- byte_range


def test_byte_range_read_bytes_and_write_concatenate(tmp_path, log_path, rng):
    path, data = log_path
    whole = run_cli(["--json"], path)
    points = cuts(rng, len(data))
    parts = [pct.logs.read_bytes(path, byte_range=(a, b)) for a, b in zip(points, points[1:])]
    assert b"".join(parts) == whole, points
    starts = line_starts(data)
    for (a, b), part in zip(zip(points, points[1:]), parts):
        assert part.count(b"\n") == sum(1 for s in starts if a <= s < b)
        assert part == run_cli(["--json", "--byte-range", f"{a}:{b}"], path)
    written = b""
    total = 0
    for a, b in zip(points, points[1:]):
        out = tmp_path / f"part-{a}"
        total += pct.logs.write(path, str(out), to="tsv", byte_range=(a, b))["lines"]
        written += out.read_bytes()
    assert written == run_cli(["--tsv"], path)
    assert total == len(starts)


def test_byte_range_read_and_read_frame_concatenate(log_path, rng):
    pd = pytest.importorskip("pandas")
    path, data = log_path
    points = cuts(rng, len(data))
    ranges = list(zip(points, points[1:]))
    records = [r for a, b in ranges for r in pct.logs.read(path, byte_range=(a, b))]
    assert records == list(pct.logs.read(path)), points
    whole = pct.logs.read_frame(path, unparsed="column")
    frames = [pct.logs.read_frame(path, unparsed="column", byte_range=r) for r in ranges]
    joined = pd.concat(frames, ignore_index=True)
    pd.testing.assert_frame_equal(joined, whole)
    counted = [pct.logs.read_frame(path, byte_range=r).attrs["unparsed"] for r in ranges]
    assert sum(counted) == pct.logs.read_frame(path).attrs["unparsed"]


def test_command_takes_byte_range(log_path):
    path, data = log_path
    args = pct.logs.command([path], byte_range=(3, len(data)))
    assert args[args.index("--byte-range") + 1] == f"3:{len(data)}"
    r = subprocess.run([cli()] + args[1:], capture_output=True, check=True)
    assert r.stdout == pct.logs.read_bytes(path, byte_range=(3, len(data)))
    with pytest.raises(ValueError):
        pct.logs.command([path], byte_range=(4, 3))


def test_byte_range_of_a_file_object_with_a_descriptor(log_path):
    path, data = log_path
    with open(path, "rb") as f:
        got = list(pct.logs.read(f, byte_range=(0, len(data) // 2)))
    assert got == list(pct.logs.read(path, byte_range=(0, len(data) // 2)))


def test_byte_range_errors(tmp_path, log_path):
    path, data = log_path
    for bad in [(5, 3), (-1, 2), (0, 1 << 64)]:
        with pytest.raises(ValueError):
            pct.logs.read_bytes(path, byte_range=bad)
    for bad in [5, (1, 2, 3), ("0", 3), (0.0, 3), (True, 3)]:
        with pytest.raises(TypeError):
            pct.logs.read_bytes(path, byte_range=bad)
    with pytest.raises(ValueError):  # a file object read with .read(): no offsets
        pct.logs.read_frame(io.BytesIO(data), byte_range=(0, 10))
    with pytest.raises(ValueError):
        list(pct.logs.read(io.BytesIO(data), byte_range=(0, 10)))
    with pytest.raises(ValueError):
        pct.logs.read_bytes_from(data, byte_range=(0, 10))
    gz = tmp_path / "access.log.gz"
    gz.write_bytes(gzip.compress(data))
    with pytest.raises(pct.logs.LogError) as e:
        pct.logs.read_bytes(str(gz), byte_range=(0, 10))
    assert e.value.returncode == 2 and "access.log.gz" in str(e.value)
    assert "compressed" in str(e.value)
    r, w = os.pipe()
    try:
        with os.fdopen(r, "rb") as pipe, pytest.raises(pct.logs.LogError) as e:
            os.close(w)
            w = None
            list(pct.logs.read(pipe, byte_range=(0, 10)))
        assert e.value.returncode == 2 and "regular file" in str(e.value)
    finally:
        if w is not None:
            os.close(w)
