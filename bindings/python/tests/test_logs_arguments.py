"""pct.logs.read and read_frame: what they take and how they fail, at the
call and not once iterated (issue 25's list): a path, "-" for standard
input, a binary file object; TypeError for anything else (None is not
standard input: "-" is); FileNotFoundError for a missing file; LogError
pickles, also into another process (a Dask worker boundary)."""

import json
import pickle
import subprocess
import sys

import pytest

import pct.logs
from logs_data import FORMAT_LINES, cli

LINES = "".join(FORMAT_LINES["combined"].replace("{T}", f"/p{i}%20x?q=%41") + "\n"
                for i in range(50)).encode()


def cli_records(path):
    r = subprocess.run([cli(), "logs", "--json", "--", path], stdout=subprocess.PIPE, check=True)
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_dash_reads_stdin(tmp_path):
    p = tmp_path / "a.log"
    p.write_bytes(LINES)
    want = cli_records(str(p))
    assert len(want) == 50
    child = ("import ast, json, sys, pct.logs\n"
             "json.dump(list(pct.logs.read(ast.literal_eval(sys.argv[1]))), sys.stdout)\n")
    for dash in ("'-'", "b'-'"):
        with open(p, "rb") as stdin:
            r = subprocess.run([sys.executable, "-c", child, dash], stdin=stdin,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
        assert json.loads(r.stdout) == want
    child_frame = ("import sys, pct.logs\n"
                   "print(list(pct.logs.read_frame('-', ['path', 'status']).path))\n")
    with open(p, "rb") as stdin:
        r = subprocess.run([sys.executable, "-c", child_frame], stdin=stdin,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True, text=True)
    assert r.stdout.strip() == repr([w["path"] for w in want])


@pytest.mark.parametrize("bad", [42, None, 1.5, ["a.log"], object()])
def test_not_a_path_nor_a_file_is_type_error_at_the_call(bad):
    with pytest.raises(TypeError):
        pct.logs.read(bad)  # no iteration: raised by the call
    with pytest.raises(TypeError):
        pct.logs.read_frame(bad)


def test_missing_file_raises_at_the_call(tmp_path):
    missing = str(tmp_path / "nope.log")
    with pytest.raises(FileNotFoundError) as e:
        pct.logs.read(missing)
    assert e.value.filename == missing
    with pytest.raises(FileNotFoundError):
        pct.logs.read(missing.encode())
    with pytest.raises(FileNotFoundError):
        pct.logs.read(tmp_path / "nope.log")
    with pytest.raises(FileNotFoundError):
        pct.logs.read_frame(missing)


def test_log_error_pickles_across_processes():
    e = pct.logs.LogError("pct logs: x.gz: unexpected end of file", 2)
    child = ("import pickle, sys, pct.logs\n"
             "e = pickle.load(sys.stdin.buffer)\n"
             "assert type(e) is pct.logs.LogError and isinstance(e, RuntimeError)\n"
             "pickle.dump(pct.logs.LogError(str(e) + ' (seen)', e.returncode + 1), sys.stdout.buffer)\n")
    r = subprocess.run([sys.executable, "-c", child], input=pickle.dumps(e),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    back = pickle.loads(r.stdout)
    assert type(back) is pct.logs.LogError
    assert str(back) == "pct logs: x.gz: unexpected end of file (seen)" and back.returncode == 3
