"""python -m pct.dask on a 2-worker LocalCluster: every DIR/<name>.jsonl
byte-identical to `pct logs --json FILE`."""

import os
import subprocess
import sys

import pytest

from logs_data import cli, make_logs


def cli_output(path):
    return subprocess.run([cli(), "logs", "--json", path], check=True, stdout=subprocess.PIPE).stdout


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    return make_logs(str(tmp_path_factory.mktemp("dask-logs")))


def test_local_cluster_command(logs, tmp_path):
    out = tmp_path / "out"
    r = subprocess.run(
        [sys.executable, "-m", "pct.dask", "--local", "2", "--output", str(out), *logs],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300,
    )
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    assert sorted(os.listdir(out)) == sorted(os.path.basename(p) + ".jsonl" for p in logs)
    for p in logs:
        got = (out / (os.path.basename(p) + ".jsonl")).read_bytes()
        assert got == cli_output(p), p


def test_ship_and_failure(logs, tmp_path):
    from distributed import Client, LocalCluster

    import pct.dask

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        written = pct.dask.run(client, logs, str(tmp_path / "ship"), {"threads": 1}, ship=True)
        for p in logs:
            assert open(written[p], "rb").read() == cli_output(p)
        missing = str(tmp_path / "missing.log")
        with pytest.raises(RuntimeError, match="missing.log"):
            pct.dask.run(client, [logs[0], missing], str(tmp_path / "fail"))
        # the good file was still written
        assert (tmp_path / "fail" / (os.path.basename(logs[0]) + ".jsonl")).read_bytes() == cli_output(logs[0])
        with pytest.raises(ValueError, match="both write"):
            pct.dask.run(client, [logs[0], logs[0]], str(tmp_path / "dup"))


def test_existing_scheduler(logs, tmp_path):
    """--scheduler: a running cluster (`dask scheduler` and `dask worker`
    processes, here on 127.0.0.1), as on several machines."""
    import json
    import time

    sched_file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    sched = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                              "--port", "0", "--no-dashboard", "--scheduler-file", str(sched_file)], **quiet)
    worker = None
    try:
        deadline = time.monotonic() + 120
        while not sched_file.exists() or not sched_file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            assert sched.poll() is None, "the scheduler exited"
            time.sleep(0.2)
        address = json.loads(sched_file.read_text())["address"]
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                   "--nworkers", "2", "--nthreads", "1", "--no-dashboard"], **quiet)
        out = tmp_path / "out"
        r = subprocess.run([sys.executable, "-m", "pct.dask", "--scheduler", address, "--output", str(out), *logs],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        assert r.returncode == 0, r.stderr.decode(errors="replace")
        for p in logs:
            assert (out / (os.path.basename(p) + ".jsonl")).read_bytes() == cli_output(p), p
    finally:
        for proc in (worker, sched):
            if proc is not None:
                proc.terminate()
        for proc in (worker, sched):
            if proc is not None:
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
