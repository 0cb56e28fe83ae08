"""python -m pct.dask on clusters of separate processes (a `dask scheduler`
and `dask worker`s on 127.0.0.1) and on --local: every output byte-identical
to `pct logs` with the same options, whatever the block size; faults (a
worker killed mid-run, missing, unreadable, truncated and corrupt files)."""

import glob
import gzip
import math
import os
import subprocess
import sys
import time

import pytest

from dask_cluster import Cluster
from logs_data import cli, combined_lines, make_logs

SUFFIX = {"--json": ".jsonl", "--tsv": ".tsv", "--csv": ".csv", "--lines": ".txt"}


def cli_output(path, args=("--json",)):
    """What `pct logs ARGS FILE` writes (--lines: no output option)."""
    args = [a for a in args if a != "--lines"]
    return subprocess.run([cli(), "logs", *args, path], check=True, stdout=subprocess.PIPE).stdout


def pct_dask(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "pct.dask", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


def big_log(path, megabytes, seed=7):
    """A combined log of about megabytes MiB: a generated block, its lines
    numbered again in each copy."""
    import random

    block = combined_lines(random.Random(seed), 2000)
    with open(path, "wb") as f:
        copy = 0
        while f.tell() < megabytes << 20:
            f.write(block.replace(b" 200 ", b" %d " % (200 + copy % 300)))
            copy += 1
    return str(path)


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    return make_logs(str(tmp_path_factory.mktemp("dask-logs")))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with Cluster(tmp_path_factory.mktemp("dask-cluster"), workers=2) as c:
        yield c


def assert_outputs(out, files, args=("--json",)):
    suffix = SUFFIX[next((a for a in args if a in SUFFIX), "--json")]
    assert sorted(os.listdir(out)) == sorted(os.path.basename(p) + suffix for p in files)
    for p in files:
        got = (out / (os.path.basename(p) + suffix)).read_bytes()
        assert got == cli_output(p, args), (p, args)


def test_local_cluster_command(logs, tmp_path):
    out = tmp_path / "out"
    r = pct_dask("--local", "2", "--blocksize", "16KiB", "--output", str(out), *logs)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    assert_outputs(out, logs)


@pytest.mark.parametrize("args", [
    ("--json",),
    ("--json", "--format", "combined", "--referer", "--decode-slash", "--query", "keep", "--percent-u"),
    ("--tsv",),
    ("--tsv", "--header", "--fields", "time_iso,remote,path,query,status,line"),
    ("--csv", "--header", "--csv-safe", "--fields", "format,path,agent,truncated"),
    ("--lines", "--raw-spaces", "--query", "plain"),
    ("--lines", "--raw", "--bytes"),
    ("--json", "--field", "7"),
    ("--tsv", "--format", "json", "--json-key", "request.uri", "--fields", "format,line"),
    ("--json", "--log-format", '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent'),
])
def test_output_modes(cluster, logs, tmp_path, args, rng):
    """Each output mode and option, at a random block size (the seed is
    printed): the joined parts are pct logs' output with the same options."""
    blocksize = rng.randrange(4 << 10, 256 << 10)
    out = tmp_path / "out"
    r = pct_dask("--scheduler", cluster.address, "--blocksize", str(blocksize), "--output", str(out), *args, *logs)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    assert_outputs(out, logs, args)


@pytest.mark.parametrize("ship", [False, True])
def test_random_block_sizes(cluster, logs, tmp_path, rng, ship):
    """Every line in exactly one part, in order, at block sizes from 1 byte
    up (the seed is printed); with --parts the directory holds them."""
    from distributed import Client

    import pct.dask

    mixed = logs[0]
    size = os.path.getsize(mixed)
    with Client(cluster.address) as client:
        for blocksize in [rng.randrange(1 << 10, 64 << 10), rng.randrange(1, size), size, size + 1]:
            out = tmp_path / f"out-{blocksize}"
            r = pct.dask.run(client, logs, str(out), blocksize=blocksize, options={"threads": 1}, ship=ship)
            assert r.failed == {}
            assert_outputs(out, logs)
            if not ship:  # each part is a task of blocksize bytes
                staging = f"/.{os.path.basename(mixed)}.jsonl."
                parts = [s for s in r.parts if staging in s["part"]]
                assert len(parts) == math.ceil(size / blocksize)
                # the engine's counts: every byte and line read once
                assert sum(s["bytes_in"] for s in parts) == size
                with open(mixed, "rb") as f:
                    assert sum(s["lines"] for s in parts) == f.read().count(b"\n")
        # a range of a few bytes: a W3C log's lines still go with their #Fields: header
        out = tmp_path / "small"
        small = [logs[1], logs[3]]
        r = pct.dask.run(client, small, str(out), blocksize=rng.randrange(1, 64), ship=ship)
        assert_outputs(out, small)
        out = tmp_path / "parts"
        r = pct.dask.run(client, [mixed], str(out), blocksize=size // 7 + 1, keep_parts=True, ship=ship)
        parts = sorted(os.listdir(out / (os.path.basename(mixed) + ".jsonl")))
        assert parts[0] == "part-00000" and len(parts) >= 7
        joined = b"".join((out / (os.path.basename(mixed) + ".jsonl") / name).read_bytes() for name in parts)
        assert joined == cli_output(mixed)
        assert len(r.workers()) == 2, r.workers()  # both workers made parts


def test_output_names(logs, tmp_path):
    """Refused before any work: two inputs of one output name, an output
    that would replace an input."""
    import pct.dask

    with pytest.raises(ValueError, match="both write"):
        pct.dask.run(None, [logs[0], logs[0]], str(tmp_path / "dup"))
    a = tmp_path / "a"
    a.write_bytes(b"x\n")
    (tmp_path / "a.jsonl").write_bytes(b"y\n")
    with pytest.raises(ValueError, match="would replace the input"):
        pct.dask.run(None, [str(a), str(tmp_path / "a.jsonl")], str(tmp_path))
    assert (tmp_path / "a.jsonl").read_bytes() == b"y\n"


def test_bad_options(logs, tmp_path):
    """Options the engine refuses: its message, before any work (no output
    directory made), once, not per task."""
    import pct.dask

    for kwargs, words in [({"to": "json", "header": True}, "go with --tsv or --csv"),
                          ({"to": "lines", "options": {"csv_safe": True}}, "--csv-safe goes with --csv"),
                          ({"options": {"query": "x"}}, "query must be"),
                          ({"options": {"no_such": 1}}, "unknown option")]:
        with pytest.raises((ValueError, TypeError), match=words):
            pct.dask.run(None, [logs[0]], str(tmp_path / "out"), **kwargs)
    assert not (tmp_path / "out").exists()
    r = pct_dask("--local", "1", "--output", str(tmp_path / "out"), "--header", logs[0])
    assert r.returncode == 2 and r.stderr.decode().count("--header go with --tsv or --csv") == 1, r.stderr


def wait_for_output(out, nbytes, proc, timeout=120):
    """Waits until the run has written nbytes of output (parts, or parts
    joined so far): the run is under way."""
    deadline = time.monotonic() + timeout
    while sum(os.path.getsize(p) for p in glob.glob(os.path.join(out, ".*")) + glob.glob(os.path.join(out, ".*", "*"))
              if os.path.isfile(p)) < nbytes:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run wrote no parts"
        time.sleep(0.005)


@pytest.mark.parametrize("ship", [False, True])
def test_worker_killed_mid_run(tmp_path, ship):
    """A worker SIGKILLed while it runs a task: its tasks run again on the
    other worker (--ship: the blocks it held are read and sent again), and
    the output is still byte-identical."""
    from distributed import Client

    log = big_log(tmp_path / "big.log", 48)
    out = tmp_path / "out"
    with Cluster(tmp_path, workers=2) as c, Client(c.address) as client:
        proc = subprocess.Popen([sys.executable, "-m", "pct.dask", "--scheduler", c.address, "--blocksize", "96KiB",
                                 "--output", str(out), *(["--ship"] if ship else []), log],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            wait_for_output(out, 4 << 20, proc)
            pids = {pid: a for a, pid in client.run(os.getpid).items()}
            victim = None
            while victim is None:  # a worker while it runs a task
                busy = client.processing()
                victim = next((p for p in c.worker_procs if busy.get(pids[p.pid])), None)
                assert proc.poll() is None, proc.communicate()
            c.kill_worker(victim)
            _, err = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == 0, err.decode(errors="replace")
        assert victim.returncode == -9
    assert os.listdir(out) == ["big.log.jsonl"]  # no parts left behind
    assert (out / "big.log.jsonl").read_bytes() == cli_output(log)


def error_lines(err, path):
    """The lines of stderr that name path."""
    return [line for line in err.splitlines() if path in line]


def test_missing_and_unreadable_files(cluster, logs, tmp_path):
    missing = str(tmp_path / "missing.log")
    directory = str(tmp_path / "a-directory.log")
    os.mkdir(directory)
    files = [logs[0], missing, directory, logs[4]]
    unreadable = None
    if os.geteuid() != 0:  # root reads anything
        unreadable = str(tmp_path / "unreadable.log")
        with open(unreadable, "wb") as f:
            f.write(b"x\n")
        os.chmod(unreadable, 0)
        files.append(unreadable)
    out = tmp_path / "out"
    # an earlier output of a file that now fails is not left as if it were this run's
    os.makedirs(out)
    (out / "missing.log.jsonl").write_bytes(b"stale\n")
    for ship in ([], ["--ship"]):
        r = pct_dask("--scheduler", cluster.address, "--blocksize", "64KiB", "--output", str(out), *ship, *files)
        err = r.stderr.decode(errors="replace")
        assert r.returncode == 2, err
        assert any("No such file or directory" in line for line in error_lines(err, missing)), err
        assert any("Is a directory" in line for line in error_lines(err, directory)), err
        if unreadable:
            assert any("Permission denied" in line for line in error_lines(err, unreadable)), err
        assert_outputs(out, [logs[0], logs[4]])


def corrupt_files(directory, data):
    """A gzip file cut in the middle and one with bytes changed in the middle."""
    packed = gzip.compress(data)
    cut = os.path.join(directory, "cut.log.gz")
    with open(cut, "wb") as f:
        f.write(packed[:len(packed) // 2])
    bad = bytearray(packed)
    for i in range(len(bad) // 2, len(bad) // 2 + 64):
        bad[i] ^= 0x55
    corrupt = os.path.join(directory, "corrupt.log.gz")
    with open(corrupt, "wb") as f:
        f.write(bad)
    return cut, corrupt


def engine_message(path):
    """The engine's message for a faulty input, as `pct logs` prints it."""
    r = subprocess.run([cli(), "logs", "--json", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert r.returncode == 2
    return r.stderr.decode().strip().splitlines()[-1]


@pytest.mark.parametrize("ship", [False, True])
def test_truncated_and_corrupt_gzip(cluster, logs, tmp_path, ship):
    with open(logs[0], "rb") as f:
        cut, corrupt = corrupt_files(str(tmp_path), f.read())
    out = tmp_path / "out"
    r = pct_dask("--scheduler", cluster.address, "--output", str(out), *(["--ship"] if ship else []),
                 logs[0], cut, corrupt, logs[4])
    err = r.stderr.decode(errors="replace")
    assert r.returncode == 2, err
    for path in (cut, corrupt):
        message = engine_message(path)
        # the engine's words, after the file's name (--ship: the engine read bytes, not the file)
        words = message.split(path + ": ", 1)[1]
        assert any(words in line for line in error_lines(err, path)), (message, err)
    assert_outputs(out, [logs[0], logs[4]])


def test_file_shrinks_mid_run(cluster, logs, tmp_path):
    """A plain file truncated while its ranges are being decoded: an error
    naming it, no output for it, the other file written."""
    log = big_log(tmp_path / "shrinks.log", 24)
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "pct.dask", "--scheduler", cluster.address, "--blocksize", "64KiB",
                             "--threads", "1", "--output", str(out), logs[0], log],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_output(out, 1 << 20, proc)
        os.truncate(log, 5 << 20)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = err.decode(errors="replace")
    assert proc.returncode == 2, err
    assert f"{log}: " in err and "shrank" in err, err
    assert_outputs(out, [logs[0]])
