"""python -m pct.dask: decode access logs on a Dask cluster.

    python -m pct.dask --local N --output DIR FILE...
    python -m pct.dask --scheduler tcp://HOST:8786 --output DIR FILE...

Each input file (plain, gzip or zstd) is one task: a worker runs libpct's log
code on it (pct.logs, the same C code as `pct logs`) and hands back the
output, which this process writes to DIR/<file name>.jsonl, byte for byte
what `pct logs --json FILE` writes. --local N starts a LocalCluster of N
worker processes on this machine; --scheduler uses a running cluster
(`dask scheduler` on one machine, `dask worker tcp://HOST:8786` on each of
the others, each with this package installed). Workers read the files by
path (the same path on every machine: a shared file system), or, with
--ship, receive their bytes from this process.
"""

import argparse
import os
import sys
import time

from pct.dask_frame import read_logs  # noqa: F401  (pct.dask.read_logs)


def decode_path(path, options):
    """Task: `pct logs --json` of the file at path, as bytes."""
    from pct import logs

    return logs.read_bytes(path, **options)


def decode_data(data, options):
    """Task: `pct logs --json` of a file's bytes, as bytes."""
    from pct import logs

    return logs.read_bytes_from(data, **options)


def output_name(path):
    return os.path.basename(os.fsdecode(path)) + ".jsonl"


def run(client, files, output, options=None, ship=False):
    """Decodes files on the cluster of client, writing output/<name>.jsonl for
    each. Returns {file: output path}. Raises on the first failed file (after
    the others are written)."""
    from distributed import as_completed

    # the task functions by their module's name (pickled by reference), also
    # when this file runs as __main__ (python -m pct.dask)
    from pct import dask as tasks

    options = dict(options or {})
    names = {}
    for f in files:
        name = output_name(f)
        if name in names:
            raise ValueError(f"two inputs would both write {name}: {names[name]!r} and {f!r}")
        names[name] = f
    os.makedirs(output, exist_ok=True)
    futures = {}
    for f in files:
        if ship:
            with open(f, "rb") as fh:
                data = fh.read()
            fut = client.submit(tasks.decode_data, data, options, pure=False)
        else:
            fut = client.submit(tasks.decode_path, os.path.abspath(f), options, pure=False)
        futures[fut] = f
    written = {}
    failures = []
    for fut in as_completed(list(futures)):
        f = futures[fut]
        try:
            data = fut.result()
        except Exception as e:  # a file that fails does not stop the others
            failures.append((f, e))
            continue
        target = os.path.join(output, output_name(f))
        tmp = target + ".part"
        with open(tmp, "wb") as out:
            out.write(data)
        os.replace(tmp, target)
        written[f] = target
    if failures:
        f, e = failures[0]
        raise RuntimeError(f"{len(failures)} file(s) failed; first: {f}: {e}") from e
    return written


def main(argv=None):
    from pct import logs

    p = argparse.ArgumentParser(
        prog="python -m pct.dask",
        description="Decode access logs (plain, gzip, zstd) with libpct on a Dask cluster: "
        "one task per file, DIR/<file name>.jsonl identical to `pct logs --json FILE`.",
    )
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--local", type=int, metavar="N", help="a LocalCluster of N worker processes")
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running cluster's scheduler, e.g. tcp://10.0.0.1:8786")
    p.add_argument("--output", "-o", required=True, metavar="DIR", help="where the .jsonl files go")
    p.add_argument("--ship", action="store_true", help="send the files' bytes to the workers (no shared file system)")
    p.add_argument("--format", default="auto", choices=logs.formats())
    p.add_argument("--referer", action="store_true")
    p.add_argument("--decode-slash", action="store_true")
    p.add_argument("--query", choices=["form", "plain", "keep"])
    p.add_argument("--percent-u", action="store_true")
    p.add_argument("--threads", type=int, metavar="N", help="log-code threads per task (default: 1 with --local, else all cores)")
    p.add_argument("files", nargs="+", metavar="FILE")
    args = p.parse_args(argv)

    from distributed import Client, LocalCluster

    options = {"format": args.format}
    for key in ("referer", "decode_slash", "percent_u"):
        if getattr(args, key):
            options[key] = True
    if args.query:
        options["query"] = args.query
    threads = args.threads
    if threads is None and args.local:
        threads = 1  # N worker processes already share the cores
    if threads is not None:
        options["threads"] = threads

    start = time.monotonic()
    if args.local is not None:
        if args.local < 1:
            p.error("--local needs at least 1 worker")
        cluster = LocalCluster(
            n_workers=args.local,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        client = Client(cluster)
    else:
        cluster = None
        client = Client(args.scheduler)
    try:
        written = run(client, args.files, args.output, options, ship=args.ship)
    except (RuntimeError, ValueError, OSError) as e:
        print(f"python -m pct.dask: {e}", file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    total = sum(os.path.getsize(t) for t in written.values())
    print(
        f"{len(written)} file(s) decoded to {args.output} ({total} bytes) in {time.monotonic() - start:.2f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
