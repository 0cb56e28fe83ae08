"""python -m pct.dask at scale: a 1 GiB combined log on a cluster of a
`dask scheduler` and 2 `dask worker` processes, while another process keeps
a core busy. The output is byte-identical to `pct logs --json`; both workers
make parts; the scheduler's peak RSS stays under 200 MB and each worker's
under 4 x the block size (nothing large goes through the scheduler, a task
streams its range to its part). Times are printed, not asserted.

Slow (about a minute here): run when PCT_TEST_DASK_SCALE=1, as
scripts/test.sh does without --quick."""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from dask_cluster import Cluster, peak_rss
from logs_data import cli, write_sized_log

pytestmark = pytest.mark.skipif(os.environ.get("PCT_TEST_DASK_SCALE") != "1",
                                reason="the 1 GiB run: PCT_TEST_DASK_SCALE=1 (scripts/test.sh without --quick)")

SIZE = 1 << 30
BLOCKSIZE = 128 << 20
SCHEDULER_RSS = 200 * 1000 * 1000


def sha256_of(stream):
    h = hashlib.sha256()
    while True:
        data = stream.read(1 << 20)
        if not data:
            return h.hexdigest()
        h.update(data)


def test_one_gib_on_two_workers_under_load():
    seed = int(os.environ.get("PCT_TEST_SEED", time.time_ns() % (1 << 32)))
    print(f"seed {seed} (PCT_TEST_SEED={seed} reproduces)")
    from distributed import Client

    import pct.dask

    work = tempfile.mkdtemp(prefix="pct-dask-scale-")
    busy = None
    try:
        log = os.path.join(work, "big.log")
        t = time.monotonic()
        write_sized_log(log, SIZE, seed)
        print(f"{os.path.getsize(log)} bytes written in {time.monotonic() - t:.1f} s")

        t = time.monotonic()
        with subprocess.Popen([cli(), "logs", "--json", log], stdout=subprocess.PIPE) as p:
            expected = sha256_of(p.stdout)
        assert p.returncode == 0
        print(f"pct logs --json (hashed as it is read): {time.monotonic() - t:.1f} s")

        with Cluster(work, workers=2) as cluster, Client(cluster.address) as client:
            # another process keeps a core busy for the whole run
            busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            t = time.monotonic()
            result = pct.dask.run(client, [log], os.path.join(work, "out"), blocksize=BLOCKSIZE,
                                  options={"threads": 1})
            wall = time.monotonic() - t
            busy.kill()
            busy.wait()
            busy = None
            scheduler_rss = peak_rss(cluster.scheduler.pid)
            worker_rss = [peak_rss(p.pid) for p in cluster.worker_procs]
        assert result.failed == {}
        tasks = sum(s["seconds"] for s in result.parts)
        print(f"2 workers, loaded: {wall:.1f} s for {len(result.parts)} parts ({result.workers()}); "
              f"the tasks' time one after another {tasks:.1f} s: {tasks / wall:.2f}x one worker; "
              f"peak RSS scheduler {scheduler_rss >> 20} MiB, workers {[r >> 20 for r in worker_rss]} MiB")
        assert len(result.workers()) == 2, result.workers()
        assert scheduler_rss <= SCHEDULER_RSS, scheduler_rss
        for rss in worker_rss:
            assert rss <= 4 * BLOCKSIZE, worker_rss
        with open(result.written[log], "rb") as f:
            assert sha256_of(f) == expected
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()
        shutil.rmtree(work, ignore_errors=True)
