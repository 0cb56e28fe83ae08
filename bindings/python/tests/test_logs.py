"""pct.logs.read against `pct logs --json`: the same records, for plain and
compressed files, paths and file objects."""

import io
import json
import subprocess

import pytest

import pct.logs
from logs_data import cli, make_logs


def cli_records(path, *extra):
    out = subprocess.run([cli(), "logs", "--json", *extra, path], check=True, stdout=subprocess.PIPE).stdout
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    return make_logs(str(tmp_path_factory.mktemp("logs")))


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
    assert list(pct.logs.read(p, format="combined")) == cli_records(p, "--format", "combined")
    assert list(pct.logs.read(p, threads=1)) == cli_records(p)


def test_file_objects(logs):
    for p in logs:
        want = cli_records(p)
        with open(p, "rb") as f:  # has a file descriptor
            assert list(pct.logs.read(f)) == want
        with open(p, "rb") as f:  # no descriptor: copied by a thread
            assert list(pct.logs.read(io.BytesIO(f.read()))) == want


def test_bytes_identical_to_cli(logs):
    for p in logs:
        want = subprocess.run([cli(), "logs", "--json", p], check=True, stdout=subprocess.PIPE).stdout
        assert pct.logs.read_bytes(p) == want


def test_errors(tmp_path):
    with pytest.raises(pct.logs.LogError) as e:
        list(pct.logs.read(str(tmp_path / "missing.log")))
    assert e.value.returncode != 0 and "missing.log" in str(e.value)
    bad = tmp_path / "bad.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(pct.logs.LogError):
        list(pct.logs.read(str(bad)))
    with pytest.raises(ValueError):
        pct.logs.read("x", format="nope").__next__()


def test_early_stop(logs):
    it = pct.logs.read(logs[0])
    first = next(it)
    assert isinstance(first, dict)
    it.close()  # the child is stopped, nothing hangs
