"""Speed of pct.dask.read_logs on a LocalCluster of 1 and of 2 worker
processes against pct.logs.read_frame in one process, on one big combined
log (made here unless --log names one):

    python bench_read_logs.py [--size 256MiB] [--blocksize 32MiB] [--runs 3] [--log PATH]
                              [--threads N]   (the engine's threads per read_frame)

Each run computes the 404s per hour (the frame's rows stay where they were
made; only the counts come back): read_frame then pandas in this process,
read_logs then Dask on the cluster (one result: two computed together
would read every partition twice, each fused with its own branch). The runs of the three go
in turn, so that a machine whose load changes affects them alike; the
clusters (127.0.0.1 only, no dashboard) are started, and a first round
run, before timing. The
machine may be shared: the medians vary from run to run."""

import argparse
import os
import statistics
import sys
import tempfile
import time

import pct.dask
import pct.logs


def make_log(path, size):
    from bench import combined_log

    block = combined_log(200_000)
    with open(path, "wb") as f:
        written = 0
        while written < size:
            f.write(block)
            written += len(block)
    return os.path.getsize(path)


def per_hour_404(df):
    hits = df[df.status == 404]
    return hits.assign(hour=hits.time.dt.hour).groupby("hour").size()


def one_process(path, options):
    return per_hour_404(pct.logs.read_frame(path, ["time", "path", "status"], **options))


def on_cluster(client, path, blocksize, options):
    df = pct.dask.read_logs(path, blocksize=blocksize, fields=["time", "path", "status"], **options)
    return client.compute(per_hour_404(df), sync=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--size", default="256MiB")
    p.add_argument("--blocksize", default="32MiB")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--log")
    p.add_argument("--threads", type=int)
    args = p.parse_args()
    options = {"threads": args.threads} if args.threads else {}
    from dask.utils import format_bytes, parse_bytes
    from distributed import Client, LocalCluster

    tmp = tempfile.TemporaryDirectory()
    path = args.log or os.path.join(tmp.name, "access.log")
    if not args.log:
        make_log(path, parse_bytes(args.size))
    size = os.path.getsize(path)
    print(f"{path}: {format_bytes(size)}, blocksize {args.blocksize}, cores {os.cpu_count()}, "
          f"threads {args.threads or 'default'}")
    clusters = {}
    for n in (1, 2):
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None,
                               scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                               worker_dashboard_address="127.0.0.1:0")
        clusters[n] = (cluster, Client(cluster))
    times = {"read_frame, 1 process": [], "read_logs, 1 worker": [], "read_logs, 2 workers": []}
    try:
        want = None
        for run in range(args.runs + 1):  # run 0 warms the workers up (imports): not timed
            for name in times:
                start = time.perf_counter()
                if name.startswith("read_frame"):
                    counts = one_process(path, options)
                else:
                    client = clusters[1 if "1 worker" in name else 2][1]
                    counts = on_cluster(client, path, args.blocksize, options)
                if run > 0:
                    times[name].append(time.perf_counter() - start)
                got = counts.sort_index().to_dict()
                if want is None:
                    want = got
                elif got != want:
                    sys.exit(f"{name}: a different result: {got}, not {want}")
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()
    print(f"{sum(want.values())} 404s")
    base = statistics.median(times["read_frame, 1 process"])
    for name, t in times.items():
        m = statistics.median(t)
        print(f"{name:24} median {m:6.2f} s  ({size / m / 1e6:6.1f} MB/s, {base / m:4.2f}x read_frame)"
              f"  runs {' '.join(f'{x:.2f}' for x in t)}")


if __name__ == "__main__":
    main()
