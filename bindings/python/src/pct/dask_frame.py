"""pct.dask.read_logs: access logs as a Dask DataFrame, read by libpct's log
engine on the workers.

A plain file is split into byte ranges of blocksize: each partition is
`pct.logs.read_frame(path, byte_range=(start, end))` run on a worker, the
lines that start in its range (`pct logs --byte-range`), so every line is
in exactly one partition and the partitions, in order, are the file's
records in order. A compressed file (gzip, zstd: known by its first bytes,
as the engine knows it) cannot be entered in the middle: it is one
partition. Only paths and offsets go to the workers, and each worker
reads its range of the file itself (a file system the workers share, or
the same paths on every machine); nothing but the partitions' frames
comes back, when the caller asks for them.
"""

import errno
import glob
import os

from pct import logs

__all__ = ["read_logs"]

# The first bytes of what the engine decompresses (log_input_magic in
# tools/logs/log_input.c): gzip, zstd, and zstd's skippable frames
# (0x184D2A50..5F, as pzstd writes first).
_GZIP = b"\x1f\x8b\x08"
_ZSTD = b"\x28\xb5\x2f\xfd"


def _compressed(path):
    """1 if the engine reads path as gzip or zstd (then it has no byte
    ranges)."""
    with open(path, "rb") as f:
        head = f.read(4)
    skippable = len(head) == 4 and head[0] & 0xF0 == 0x50 and head[1:] == b"\x2a\x4d\x18"
    return head.startswith(_GZIP) or head == _ZSTD or skippable


def _has_magic(path):
    return any(c in os.fsdecode(path) for c in "*?[")


def expand_paths(paths):
    """The files paths names, in order: a path, or a list of them; a glob
    pattern (*, ?, [...]) that is not the name of a file is replaced by the
    files it matches, sorted.
    FileNotFoundError names a pattern that matches nothing, or a file that
    does not exist; IsADirectoryError a directory."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    files = []
    for p in paths:
        if not isinstance(p, (str, bytes, os.PathLike)):
            raise TypeError(f"paths must be paths (str, bytes, os.PathLike), not {type(p).__name__}")
        p = os.fspath(p)
        if _has_magic(p) and not os.path.exists(p):  # a file may be named "a[1].log"
            matches = sorted(m for m in glob.glob(p) if not os.path.isdir(m))
            if not matches:
                raise FileNotFoundError(errno.ENOENT, "no file matches the pattern", p)
            files.extend(matches)
            continue
        if os.path.isdir(p):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), p)
        os.stat(p)  # FileNotFoundError (or another OSError) naming it
        files.append(p)
    if not files:
        raise ValueError("paths names no file")
    return files


def parse_blocksize(blocksize):
    """Bytes per partition of a plain file: an int, or a string with a unit
    ("128MiB", "64MB", "1GiB", "4096"); None: a whole file per partition."""
    if blocksize is None:
        return None
    if isinstance(blocksize, str):
        from dask.utils import parse_bytes

        try:
            size = parse_bytes(blocksize)
        except ValueError as e:
            raise ValueError(f"blocksize: {e}") from None
    elif isinstance(blocksize, bool) or not hasattr(blocksize, "__index__"):
        raise TypeError(f"blocksize must be an int or a str such as '128MiB', not {blocksize!r}")
    else:
        size = blocksize.__index__()
    if size < 1:
        raise ValueError(f"blocksize must be at least 1 byte, not {blocksize!r}")
    return size


def _w3c(path):
    """1 if path starts with a W3C directive (#Software:, #Fields: ...): its
    lines are read by the #Fields: line before them, which a range after it
    has not seen, so it is read whole (as python -m pct.dask does)."""
    with open(path, "rb") as f:
        return f.read(1) == b"#"


def partitions(files, blocksize):
    """(path, byte_range) per partition, in order: a plain file's ranges of
    blocksize (the last one shorter), a compressed, W3C or empty file whole
    (byte_range None)."""
    parts = []
    for path in files:
        size = os.path.getsize(path)
        if blocksize is None or size == 0 or _compressed(path) or _w3c(path):
            parts.append((path, None))
            continue
        parts.extend((path, (start, min(start + blocksize, size)))
                     for start in range(0, size, blocksize))
    return parts


def frame_meta(fields=None, unparsed="count"):
    """An empty DataFrame with the columns and dtypes read_frame gives for
    fields (made here, no file read)."""
    import pandas as pd

    names = logs._frame_fields(fields, unparsed)
    dtypes = {logs._TIME: pd.DatetimeTZDtype(tz="UTC"), logs._INT: "Int64",
              logs._BOOL: "boolean", logs._TEXT: object}
    columns = {n: pd.Series([], dtype=dtypes[logs._TYPED.get(n, logs._TEXT)]) for n in names}
    if unparsed == "column":
        columns["unparsed"] = pd.Series([], dtype=object)
    return pd.DataFrame(columns)


def read_partition(part, fields, options):
    """Task: one partition, (path, byte_range), as a DataFrame. Its attrs
    (unparsed, directives) are dropped: Dask does not keep them."""
    if type(part).__name__ == "Serialize":
        # distributed 2022.12 hands from_map's inputs to the workers of an
        # in-process cluster (processes=False) still wrapped in its
        # Serialize (dd.read_csv fails the same way there)
        part = part.data
    path, byte_range = part
    df = logs.read_frame(path, fields, byte_range=byte_range, **options)
    df.attrs = {}
    return df


def read_logs(paths, blocksize="128MiB", fields=None, **options):
    """Access logs as a dask.dataframe.DataFrame: one partition per byte
    range of blocksize of each plain file (the lines that start in it,
    each whole: every line in exactly one partition, in file order), one
    per compressed file (gzip, zstd); the files in the order given, a glob
    pattern's matches sorted. Columns and dtypes as pct.logs.read_frame
    gives them for fields (meta is declared: nothing is read until the
    frame is computed). Each partition's index runs from 0, as read_frame's
    (divisions unknown).

    paths: a path, a list of paths, or glob patterns (FileNotFoundError,
    at the call, for a pattern that matches nothing or a missing file).
    blocksize: bytes per partition, an int or "128MiB", "64MB"...; None:
    one partition per file.
    fields and options: as read_frame (format, log_format, referer,
    decode_slash, query, percent_u, threads, unparsed), run on the workers.
    threads: the engine's threads per partition (read_frame's default:
    all cores but one); with several tasks at once per machine (worker
    processes or threads), threads=1 keeps them from sharing cores.
    Lines that do not parse: with unparsed="count" (the default) they are
    no rows, and their counts, which read_frame keeps in df.attrs, are
    dropped (Dask keeps no attrs); unparsed="column" keeps them as rows,
    their line in an "unparsed" column (None for records):
    df.unparsed.notna().sum() counts them. A file that starts with a W3C
    directive (#Fields: ...) is one partition: its lines need the header
    before them.

    The workers open the files by their paths: on a cluster of several
    machines, paths all of them can read (a shared file system). Errors in
    a file (corrupt, unreadable) raise pct.logs.LogError when that
    partition is computed.
    """
    import dask.dataframe as dd

    if "byte_range" in options:
        raise TypeError("read_logs sets byte_range itself (blocksize splits the files)")
    if "field" in options:
        raise TypeError("read_logs takes no 'field' option (use format= or log_format=)")
    unparsed = options.get("unparsed", "count")
    meta = frame_meta(fields, unparsed)
    frame_options = {k: v for k, v in options.items() if k not in ("format", "unparsed")}
    logs._options(options.get("format", "auto"), frame_options)  # bad options: at the call
    size = parse_blocksize(blocksize)
    parts = partitions(expand_paths(paths), size)
    return dd.from_map(read_partition, parts, args=[fields, options], meta=meta,
                       label="read-logs")
