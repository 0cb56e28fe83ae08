"""pct.dask.read_logs: plain files split into byte ranges at random block
sizes give the same frame as pct.logs.read_frame of the whole file, and
the same values as `pct logs --tsv` (PCT_CLI), with Dask's synchronous
scheduler and on a LocalCluster of 2 worker processes; compressed files
are one partition each; glob patterns, missing files, meta."""

import gzip
import os
import shutil
import subprocess

import pytest

pd = pytest.importorskip("pandas")
dask = pytest.importorskip("dask")
pytest.importorskip("dask.dataframe")

import pct.dask  # noqa: E402
import pct.logs  # noqa: E402
from logs_data import damaged_log  # noqa: E402
from test_read_frame import cli_rows, expected, frame_values  # noqa: E402

FIELDS = ["remote", "time", "method", "path", "query", "status", "bytes", "referer", "agent"]


def random_log(rng, n):
    """Combined lines, garbage, empty lines, CRLF, a long line, and maybe no
    final newline."""
    return damaged_log(rng, n, empty=0.03, crlf=0.03, long_line=0.005, long_escapes=(1000, 20000))


def synchronous(df):
    with dask.config.set(scheduler="synchronous"):
        return df.compute()


def assert_same_frame(got, want, where):
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True),
                                  obj=str(where))


def assert_is_cli(df, path, fields, unparsed):
    """df's columns hold the values `pct logs --tsv --fields ...` writes
    (typed as test_read_frame types them from the CLI's text)."""
    tsv_fields = ["time_iso" if f == "time" else f for f in fields]
    want, _counts = expected(cli_rows(path, tsv_fields), fields, unparsed)
    names = list(fields) + (["unparsed"] if unparsed == "column" else [])
    assert list(df.columns) == names
    for name in names:
        assert frame_values(df, name) == want[name], name


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    import random

    d = tmp_path_factory.mktemp("dask-frame")
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print(f"plain logs: seed {seed} (PCT_TEST_SEED={seed} reproduces)")
    rng = random.Random(seed)
    paths = []
    for i, n in enumerate((2500, 400, 0)):
        p = d / f"access-{i}.log"
        p.write_bytes(random_log(rng, n))
        paths.append(str(p))
    return paths


def test_random_blocksizes_synchronous(plain, rng):
    path = plain[0]
    size = os.path.getsize(path)
    whole = {u: pct.logs.read_frame(path, FIELDS, unparsed=u) for u in ("count", "column")}
    for blocksize in [rng.randrange(1000, 8000), rng.randrange(8000, 60000), size - 1, size, "1MiB"]:
        unparsed = rng.choice(["count", "column"])
        df = pct.dask.read_logs(path, blocksize=blocksize, fields=FIELDS, unparsed=unparsed)
        bs = pct.dask_frame.parse_blocksize(blocksize)
        assert df.npartitions == -(-size // bs)
        got = synchronous(df)
        assert_same_frame(got, whole[unparsed], (blocksize, unparsed))
    assert_is_cli(got, path, FIELDS, unparsed)


def test_several_files_in_order(plain):
    df = pct.dask.read_logs(plain, blocksize=20000)
    want = pd.concat([pct.logs.read_frame(p) for p in plain], ignore_index=True)
    assert_same_frame(synchronous(df), want, "three files")


def test_meta_is_the_computed_dtypes(plain):
    for fields, unparsed in [(None, "count"), (FIELDS + ["truncated", "time_iso"], "column"),
                             ("path,status", "count")]:
        df = pct.dask.read_logs(plain[1], blocksize=4096, fields=fields, unparsed=unparsed)
        got = synchronous(df)
        assert list(df.columns) == list(got.columns)
        assert df.dtypes.to_dict() == got.dtypes.to_dict()
        assert str(got["path"].dtype) == "object"
        if "time" in got:
            assert str(got["time"].dtype) == "datetime64[ns, UTC]"
        if "status" in got:
            assert str(got["status"].dtype) == "Int64"
        if "truncated" in got:
            assert str(got["truncated"].dtype) == "boolean"
    empty = synchronous(pct.dask.read_logs(plain[2]))  # an empty file: one empty partition
    assert len(empty) == 0 and list(empty.columns) == list(pct.logs.DEFAULT_FIELDS)


def test_meta_reads_no_file(tmp_path):
    p = tmp_path / "a.log"
    p.write_bytes(b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET / HTTP/1.1" 200 1\n' * 100)
    size = p.stat().st_size
    df = pct.dask.read_logs(str(p), blocksize=512, fields=["path", "status"])
    p.write_bytes(b"")  # made from the file's size at the call; nothing read yet
    assert df.npartitions == -(-size // 512)
    assert list(df._meta.columns) == ["path", "status"]


def test_compressed_files_one_partition_each(plain, tmp_path):
    data = open(plain[0], "rb").read()
    gz = tmp_path / "access-0.log.gz"
    gz.write_bytes(gzip.compress(data))
    paths = [str(gz)]
    if shutil.which("zstd"):
        zst = tmp_path / "access-0.log.zst"
        subprocess.run(["zstd", "-q", "-f", plain[0], "-o", str(zst)], check=True)
        paths.append(str(zst))
    plain_copy = tmp_path / "access-0.log"
    plain_copy.write_bytes(data)
    paths.append(str(plain_copy))
    df = pct.dask.read_logs(paths, blocksize=10000)
    assert df.npartitions == len(paths) - 1 + -(-len(data) // 10000)
    one = pct.logs.read_frame(plain[0])
    assert_same_frame(synchronous(df), pd.concat([one] * len(paths), ignore_index=True),
                      "compressed")


def test_w3c_files_one_partition(tmp_path):
    """A W3C log's lines are read by the #Fields: header before them: a
    range after it would give them unparsed, so the file is one partition,
    and the frame is read_frame's of the whole file."""
    header = b"#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status\n"
    rows = b"".join(b"2026-03-14 06:00:%02d 192.0.2.5 GET /a%%20b/%d q=%d 200\n" % (i % 60, i, i)
                    for i in range(3000))
    path = tmp_path / "iis.log"
    path.write_bytes(b"#Software: Microsoft Internet Information Services 10.0\n" + header + rows)
    df = pct.dask.read_logs(str(path), blocksize=4096, fields=["path", "status"],
                            unparsed="column")
    assert df.npartitions == 1
    got = synchronous(df)
    assert len(got) == 3000 and got.unparsed.isna().all()  # directives are no rows
    assert list(got.path.dropna()) == ["/a b/%d" % i for i in range(3000)]
    want = pct.logs.read_frame(str(path), fields=["path", "status"], unparsed="column")
    assert_same_frame(got, want, "w3c")


def test_globs_and_missing_files(plain, tmp_path):
    d = os.path.dirname(plain[0])
    df = pct.dask.read_logs(os.path.join(d, "access-*.log"), blocksize=None)
    assert df.npartitions == 3
    want = pd.concat([pct.logs.read_frame(p) for p in sorted(plain)], ignore_index=True)
    assert_same_frame(synchronous(df), want, "glob")
    assert pct.dask_frame.expand_paths([os.path.join(d, "access-[21].log"), plain[0]]) == \
        [plain[1], plain[2], plain[0]]
    literal = tmp_path / "rotated[1].log"  # a name, not a pattern
    literal.write_bytes(open(plain[1], "rb").read())
    assert pct.dask_frame.expand_paths(str(literal)) == [str(literal)]
    pattern = os.path.join(d, "nothing-*.log")
    with pytest.raises(FileNotFoundError, match="nothing-"):
        pct.dask.read_logs([plain[0], pattern])
    missing = str(tmp_path / "missing.log")
    with pytest.raises(FileNotFoundError) as e:
        pct.dask.read_logs([plain[0], missing])
    assert e.value.filename == missing
    with pytest.raises(IsADirectoryError):
        pct.dask.read_logs(str(tmp_path))


def test_bad_arguments(plain):
    for bad in (0, -5, "0B", "lots"):
        with pytest.raises(ValueError):
            pct.dask.read_logs(plain[0], blocksize=bad)
    for bad in (1.5, True, [1]):
        with pytest.raises(TypeError):
            pct.dask.read_logs(plain[0], blocksize=bad)
    assert pct.dask_frame.parse_blocksize("64MB") == 64_000_000
    assert pct.dask_frame.parse_blocksize("128MiB") == 128 << 20
    with pytest.raises(TypeError):
        pct.dask.read_logs(plain[0], byte_range=(0, 10))
    with pytest.raises(TypeError):
        pct.dask.read_logs(plain[0], no_such_option=True)
    with pytest.raises(ValueError):
        pct.dask.read_logs(plain[0], format="no-such-format")
    with pytest.raises(ValueError):
        pct.dask.read_logs(plain[0], fields=["path", "path"])
    with pytest.raises(TypeError):
        pct.dask.read_logs(42)


def test_a_corrupt_file_fails_when_computed(tmp_path):
    gz = tmp_path / "cut.log.gz"
    gz.write_bytes(gzip.compress(b'192.0.2.1 - - [x] "GET / HTTP/1.1" 200 1\n' * 1000)[:-20])
    df = pct.dask.read_logs(str(gz))
    with pytest.raises(pct.logs.LogError, match="cut.log.gz"):
        synchronous(df)


@pytest.fixture(scope="module")
def cluster_client():
    distributed = pytest.importorskip("distributed")
    with loopback_cluster(distributed, 2) as cluster, distributed.Client(cluster) as client:
        yield client


def loopback_cluster(distributed, workers, processes=True):
    """A LocalCluster of worker processes on 127.0.0.1 (or of threads, talking
    in-process), its HTTP servers too (they listen on every interface by
    default), with no dashboard."""
    where = {"host": "127.0.0.1"} if processes else {}
    return distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=processes, **where,
        dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        worker_dashboard_address="127.0.0.1:0")


def test_local_cluster_of_two_processes(cluster_client, plain, rng):
    assert len(cluster_client.scheduler_info()["workers"]) == 2
    path = plain[0]
    blocksize = rng.randrange(2000, 40000)
    df = pct.dask.read_logs([path, plain[1]], blocksize=blocksize, fields=FIELDS,
                            unparsed="column")
    got = cluster_client.compute(df).result()
    want = pd.concat([pct.logs.read_frame(p, FIELDS, unparsed="column") for p in (path, plain[1])],
                     ignore_index=True)
    assert_same_frame(got, want, ("cluster", blocksize))
    # partitions ran on both workers (each one a process of its own)
    from distributed import wait

    futures = cluster_client.compute(df.to_delayed())
    wait(futures)
    who_has = {str(k): v for k, v in cluster_client.who_has(futures).items()}
    where = {w for f in futures for w in who_has[str(f.key)]}
    assert len(where) == 2
    # the 404s per path: a computation that stays on the cluster
    counts = df[df.status == 404].groupby("path").size().compute()
    assert counts.sum() == (want.status == 404).sum()


def test_in_process_cluster(plain):
    """Workers as threads of this process (processes=False): the inputs
    reach them unserialized."""
    distributed = pytest.importorskip("distributed")
    with loopback_cluster(distributed, 1, processes=False) as cluster, \
            distributed.Client(cluster) as client:
        df = pct.dask.read_logs(plain[1], blocksize=8000)
        got = client.compute(df, sync=True)
    assert_same_frame(got, pct.logs.read_frame(plain[1]), "in-process cluster")
