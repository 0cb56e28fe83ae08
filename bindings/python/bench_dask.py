"""Speed and memory of python -m pct.dask on a 1 GiB combined log (the
README's Dask figures): `pct logs --json FILE > file` against a cluster of
a `dask scheduler` and 1, then 2 `dask worker` processes (one thread each)
on this machine, each writing DIR/NAME.jsonl; peak RSS (VmHWM) of the
scheduler and the workers.

    python bench_dask.py [--size MiB] [--rounds N] [--blocksize SIZE] [--ship] [--parts]
                         [--workdir DIR] [--cli PATH]

The three are run in turn, --rounds times (default 2), and every time is
printed: the machine may be shared, so compare times of the same round.
The outputs are checked equal to pct logs' (their SHA-256). --ship: the
runs ship the blocks (python -m pct.dask --ship); this process's peak RSS
is printed too. --parts: the parts are kept (python -m pct.dask --parts),
not joined into one file (the join writes the output a second time, in one
process). --workdir: where the log and the outputs go (default: the temp
directory; /dev/shm takes the disk out of the measure)."""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))

from dask_cluster import Cluster, peak_rss  # noqa: E402
from logs_data import write_sized_log  # noqa: E402


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            data = f.read(1 << 20)
            if not data:
                return h.hexdigest()
            h.update(data)


def sha256_output(path):
    """The SHA-256 of a file, or of a directory's parts joined in order."""
    if not os.path.isdir(path):
        return sha256_file(path)
    h = hashlib.sha256()
    for name in sorted(os.listdir(path)):
        with open(os.path.join(path, name), "rb") as f:
            while True:
                data = f.read(1 << 20)
                if not data:
                    break
                h.update(data)
    return h.hexdigest()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=1024, help="MiB of log (default 1024)")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--blocksize", help="default: python -m pct.dask's")
    p.add_argument("--ship", action="store_true")
    p.add_argument("--parts", action="store_true")
    p.add_argument("--workdir")
    p.add_argument("--cli", default=os.environ.get("PCT_CLI") or shutil.which("pct"))
    args = p.parse_args()
    from distributed import Client

    import pct.dask

    work = tempfile.mkdtemp(prefix="pct-bench-dask-", dir=args.workdir)
    try:
        log = os.path.join(work, "big.log")
        write_sized_log(log, args.size << 20, 20261127)
        size = os.path.getsize(log)
        print(f"{size} bytes of combined log; {os.cpu_count()} CPUs; blocksize {args.blocksize or 'default'}")
        expected = None
        for rnd in range(1, args.rounds + 1):
            out = os.path.join(work, "cli.jsonl")
            t = time.monotonic()
            with open(out, "wb") as f:
                subprocess.run([args.cli, "logs", "--json", log], stdout=f, check=True)
            cli_s = time.monotonic() - t
            if expected is None:
                expected = sha256_file(out)
            os.unlink(out)
            print(f"round {rnd}: pct logs --json > file: {cli_s:.2f} s ({size / cli_s / 1e9:.2f} GB/s)")
            for workers in (1, 2):
                cdir = os.path.join(work, f"cluster{workers}")
                os.makedirs(cdir, exist_ok=True)
                with Cluster(cdir, workers=workers) as c, Client(c.address) as client:
                    t = time.monotonic()
                    r = pct.dask.run(client, [log], os.path.join(work, "out"), blocksize=args.blocksize,
                                     options={"threads": 1}, ship=args.ship, keep_parts=args.parts)
                    s = time.monotonic() - t
                    sched = peak_rss(c.scheduler.pid)
                    wrss = [peak_rss(w.pid) for w in c.worker_procs]
                assert not r.failed, r.failed
                same = sha256_output(r.written[log]) == expected
                shutil.rmtree(r.written[log]) if args.parts else os.unlink(r.written[log])
                mode = (" --ship" if args.ship else "") + (" --parts" if args.parts else "")
                print(f"round {rnd}: python -m pct.dask{mode}, {workers} worker(s): {s:.2f} s "
                      f"({size / s / 1e9:.2f} GB/s, {cli_s / s:.2f}x pct logs), {len(r.parts)} parts "
                      f"{sorted(r.workers().values())}; peak RSS scheduler {sched / 1e6:.0f} MB, "
                      f"workers {', '.join(f'{w / 1e6:.0f}' for w in wrss)} MB, "
                      f"this process {peak_rss(os.getpid()) / 1e6:.0f} MB; output "
                      f"{'identical' if same else 'DIFFERENT'}")
                if not same:
                    return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
