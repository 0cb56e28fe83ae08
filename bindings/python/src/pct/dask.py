"""python -m pct.dask: decode access logs on a Dask cluster.

    python -m pct.dask --local N --output DIR [OPTIONS] FILE...
    python -m pct.dask --scheduler tcp://HOST:8786 --output DIR [OPTIONS] FILE...

Writes DIR/NAME.jsonl for each FILE (NAME.tsv, NAME.csv, NAME.txt with
--tsv, --csv, --lines), byte for byte what `pct logs --json FILE` (--tsv,
--csv, no output option) writes with the same options.

A plain file is split into byte ranges of --blocksize bytes (default 128
MiB), as `pct logs --byte-range` reads them: every line in exactly one
range. A compressed file (gzip, zstd) is one range, and so is a file that
starts with a W3C directive (#Software:, #Fields:...), whose lines are
read by the '#Fields:' line before them, which a later range has not seen.
Each range is a task: a worker runs libpct's log engine on it
(pct.logs.write, the C code of `pct logs`) and writes its output straight
to a part file in a hidden directory next to DIR/NAME (under a temporary
name, renamed when complete, so that a task run twice, after its worker
died, leaves one whole part); only a summary (bytes, lines, the part's
name) comes back through the scheduler. This process appends each file's
parts in order to DIR/NAME as they come in, or with --parts keeps them as
DIR/NAME/part-00000, part-00001, ... Workers read the files and write the
parts by path: the same paths on every machine (a shared file system).

--ship is for workers without that file system: this process reads the
files, one block of whole lines at a time (--blocksize, default 32 MiB; a
longer line whole), and sends each block to a worker, which sends its
output back; at most two blocks per worker thread are out at a time, and
this process writes each output as it comes: a block and its output (2-3
times as large as JSON) are what a worker and this process hold, a few at
a time. Blocks and outputs go between this process and the workers
directly, not through the scheduler. A block lost with a worker is read
and sent again. A file that is one range (compressed, W3C) is sent in
blocks to one worker, which holds all its bytes while it decodes them.

A file that cannot be read or that the engine finds faulty (truncated,
corrupt) is named on stderr with the engine's message and leaves no output
(not even one of an earlier run); the other files are still written; the
exit status is then 2, as `pct logs` gives for a faulty input.

pct.dask.read_logs (pct.dask_frame) reads logs into a Dask DataFrame.
"""

import argparse
import io
import os
import shutil
import stat
import sys
import tempfile
import time
import uuid

from pct.dask_frame import read_logs  # noqa: F401  (pct.dask.read_logs)

DEFAULT_BLOCKSIZE = 128 << 20
# --ship: a block and its output (2-3 times its size as JSON) are in the
# memory of a worker and of this process, a few at a time
DEFAULT_SHIP_BLOCKSIZE = 32 << 20
MODES = ("json", "tsv", "csv", "lines")
SUFFIXES = {"json": ".jsonl", "tsv": ".tsv", "csv": ".csv", "lines": ".txt"}
# gzip, zstd: what the engine detects as compressed, by content
COMPRESSED_MAGIC = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd")
# --ship: a block that failed on the cluster's side (its worker died with
# the bytes) is read and sent again this many times
SHIP_ATTEMPTS = 3
# --ship: how long a block is offered again to workers that refuse it (one
# has died and the scheduler has not seen it yet)
SCATTER_RETRY_SECONDS = 60


def parse_size(text):
    """A byte count, as Dask reads one (and pct.dask.read_logs' blocksize):
    1048576, "64KiB", "128MiB", "1GiB"; "128MB" is 128,000,000."""
    from dask.utils import parse_bytes

    try:
        value = parse_bytes(text)
    except (ValueError, TypeError):
        raise ValueError(f"not a size: {text!r} (e.g. 64MiB, 1GiB, 1048576)") from None
    if value < 1:
        raise ValueError(f"a size is at least 1 byte, not {text!r}")
    return value


def output_name(path, to="json"):
    return os.path.basename(os.fsdecode(path)) + SUFFIXES[to]


def part_name(index, count):
    return f"part-{index:0{max(5, len(str(count - 1)))}d}"


def plan_file(path, blocksize):
    """The ranges of one file: [(start, end), ...] for a plain file, [None]
    (the whole file) for a compressed or empty one, and for one that starts
    with a W3C directive (#Software:, #Fields: ...: its lines are read by
    the '#Fields:' line before them, which a range after it has not seen).
    Raises OSError when the file cannot be read, ValueError when it is not
    a regular file."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{os.fsdecode(path)}: not a regular file (workers read files by path)")
        head = f.read(4)
    if st.st_size == 0 or head.startswith(COMPRESSED_MAGIC) or head.startswith(b"#"):
        return [None], st.st_size
    return [(s, min(s + blocksize, st.st_size)) for s in range(0, st.st_size, blocksize)], st.st_size


def _task_summary(stats, part, bytes_out, started):
    """What a task hands back: the engine's counts (bytes: the text read,
    decompressed; lines; unparsed lines), the output's size, where it ran."""
    from distributed import get_worker

    try:
        worker = get_worker().address
    except ValueError:  # run outside a worker (tests call the task directly)
        worker = None
    return {
        "part": part,
        "bytes_in": stats.get("bytes", 0),
        "bytes_out": bytes_out,
        "lines": stats.get("lines", 0),
        "unparsed": stats.get("unparsed", 0),
        "worker": worker,
        "pid": os.getpid(),
        "seconds": time.monotonic() - started,
    }


def write_part(path, byte_range, size, part, to, fields, options):
    """Task: the output of one range of the file at path (a plain file's
    (start, end), or None: all of it), written to part. size: the file's size
    when the range was planned (a file that has shrunk since is an error,
    not a short part). Returns a summary."""
    from pct import logs

    started = time.monotonic()
    tmp = f"{part}.tmp-{os.getpid()}-{uuid.uuid4().hex}"
    try:
        stats = logs.write(path, tmp, to=to, fields=fields, byte_range=byte_range, **options)
        now = os.stat(path).st_size
        if now < size:
            raise logs.LogError(
                f"pct logs: {os.fsdecode(path)}: shrank from {size} to {now} bytes while it was read", 2)
        bytes_out = os.path.getsize(tmp)
        os.replace(tmp, part)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return _task_summary(stats, part, bytes_out, started)


class _ChunksReader(io.RawIOBase):
    """A file object over a list of bytes objects, read in order."""

    def __init__(self, chunks):
        self._chunks = list(chunks)
        self._i = 0
        self._pos = 0

    def readable(self):
        return True

    def readinto(self, buffer):
        while self._i < len(self._chunks) and self._pos == len(self._chunks[self._i]):
            self._chunks[self._i] = b""  # read: no longer held
            self._i += 1
            self._pos = 0
        if self._i == len(self._chunks):
            return 0
        chunk = self._chunks[self._i]
        n = min(len(buffer), len(chunk) - self._pos)
        buffer[:n] = memoryview(chunk)[self._pos:self._pos + n]
        self._pos += n
        return n


def decode_block(chunks, to, fields, options):
    """Task (--ship): the output of a block of a log file, given as its
    bytes in chunks (whole lines of a plain file, or a compressed file).
    Returns (output bytes, summary)."""
    from pct import logs

    started = time.monotonic()
    # the engine writes to a file descriptor: an unnamed file of the worker's
    with tempfile.TemporaryFile() as out:
        stats = logs.write(io.BufferedReader(_ChunksReader(chunks)), out, to=to, fields=fields, **options)
        del chunks
        out.seek(0)
        data = out.read()
    return data, _task_summary(stats, None, len(data), started)


class Result:
    """What a run did: written {file: output path}, failed {file: message},
    parts [summary, ...] of the files written, in order."""

    def __init__(self):
        self.written = {}
        self.failed = {}
        self.parts = []

    def workers(self):
        """{worker address: number of parts it made}."""
        counts = {}
        for s in self.parts:
            counts[s["worker"]] = counts.get(s["worker"], 0) + 1
        return counts


class _Output:
    """One input's output: its parts, written into a hidden directory of its
    own next to DIR/NAME, and appended in order to a hidden file as soon as
    the parts before them are there (each removed once appended), renamed
    to DIR/NAME when the last is in; with keep_parts the directory is
    renamed to DIR/NAME instead. count: the number of parts, None until
    known (--ship finds it as it reads); most: an upper bound, for the
    names' width."""

    def __init__(self, file, output, to, keep_parts, count, most):
        self.file = file
        self.target = os.path.join(output, output_name(file, to))
        self.staging = os.path.join(output, f".{output_name(file, to)}.{uuid.uuid4().hex}")
        self.keep_parts = keep_parts
        self.count = count
        self.most = max(1, most)
        self.done = {}
        self.failed = False
        self.joined = None  # the file the parts are appended to
        self.next = 0  # the part to append next
        os.mkdir(self.staging)

    def part(self, index):
        return os.path.join(self.staging, part_name(index, self.most))

    def complete(self):
        return self.count is not None and len(self.done) == self.count

    def add(self, index, summary):
        """A part is in: appends it and those after it that are in too."""
        self.done[index] = summary
        if self.keep_parts:
            return
        if self.joined is None:
            self.joined = open(self.staging + ".joined", "wb")
        while self.next in self.done:
            part = self.part(self.next)
            with open(part, "rb") as f:
                _copy(f, self.joined)
            os.unlink(part)
            self.next += 1

    def finish(self):
        """DIR/NAME made of the parts, replacing what was there."""
        for name in os.listdir(self.staging):
            if ".tmp-" in name:  # left by a task whose worker died writing it
                os.unlink(os.path.join(self.staging, name))
        if self.keep_parts:
            _remove(self.target)
            os.rename(self.staging, self.target)
            return self.target
        if self.joined is None:  # no parts (an empty file shipped)
            self.joined = open(self.staging + ".joined", "wb")
        self.joined.close()
        os.replace(self.joined.name, self.target)
        self.joined = None
        shutil.rmtree(self.staging)
        return self.target

    def discard(self):
        """A failed input: no output, not even one of an earlier run."""
        shutil.rmtree(self.staging, ignore_errors=True)
        if self.joined is not None:
            self.joined.close()
            self.joined = None
        try:
            os.unlink(self.staging + ".joined")
        except FileNotFoundError:
            pass
        _remove(self.target)


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)


def _copy(src, dst):
    """Appends file src to file dst, in the kernel where it can."""
    if hasattr(os, "copy_file_range"):
        at = dst.tell()
        try:
            while os.copy_file_range(src.fileno(), dst.fileno(), 1 << 30):
                pass
            return
        except OSError:  # not between these files (an old kernel, some file systems)
            src.seek(0)
            dst.seek(at)
            dst.truncate()
    shutil.copyfileobj(src, dst, 1 << 20)


def _message(file, error):
    from pct.logs import LogError

    text = str(error) or type(error).__name__
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        text = f"{os.fsdecode(error.filename)}: {error.strerror}"  # as pct logs says it
    elif not isinstance(error, (LogError, OSError)):
        text = f"{type(error).__name__}: {text}"
    name = os.fsdecode(file)
    if name in text or os.path.abspath(name) in text:  # the engine's message names it
        return text
    return f"{name}: {text}"


def run(client, files, output, *, to="json", fields=None, options=None, blocksize=None,
        ship=False, keep_parts=False, header=False):
    """Decodes files on the cluster of client into output/NAME (see the
    module's doc). to: "json", "tsv", "csv" or "lines"; fields: the TSV/CSV
    columns; header: TSV/CSV column names first; options: the options of
    pct.logs.write (format, log_format, referer, query, ...). Returns a
    Result: a file that fails is in its failed, with a message naming it,
    and has no output; the others are written. Raises, before any work,
    ValueError when two inputs would write the same output name or an
    output would replace an input, ValueError or TypeError for options that
    pct.logs.write refuses."""
    if to not in MODES:
        raise ValueError(f"to must be one of {MODES}, not {to!r}")
    if blocksize is None:
        blocksize = DEFAULT_SHIP_BLOCKSIZE if ship else DEFAULT_BLOCKSIZE
    blocksize = parse_size(blocksize)
    options = dict(options or {})
    names = {}
    for f in files:
        name = output_name(f, to)
        if name in names:
            raise ValueError(f"two inputs would both write {name}: {names[name]!r} and {f!r}")
        names[name] = f
    for name in names:
        target = os.path.join(output, name)
        for f in files:
            try:
                same = os.path.samefile(f, target)
            except OSError:  # either is not there
                continue
            if same:
                raise ValueError(f"the output {target} would replace the input {f!r}")
    _check_options(to, fields, options, header)
    os.makedirs(output, exist_ok=True)
    result = Result()
    plans = {}
    for f in files:
        try:
            plans[f] = plan_file(f, blocksize)
        except (OSError, ValueError) as e:
            result.failed[f] = _message(f, e)
            _remove(os.path.join(output, output_name(f, to)))
    outputs = {}
    try:
        for f, (ranges, size) in plans.items():
            if ship and ranges != [None]:  # cut as read: at most one block more than ranges
                outputs[f] = _Output(f, output, to, keep_parts, None, len(ranges) + 1)
            else:
                outputs[f] = _Output(f, output, to, keep_parts, len(ranges), len(ranges))
        if ship:
            _run_shipped(client, plans, outputs, to, fields, options, blocksize, header, result)
        else:
            _run_shared(client, plans, outputs, to, fields, options, header, result)
    finally:
        for out in outputs.values():
            if out.file not in result.written:
                out.discard()
    for f in plans:  # never a file silently left out
        if f not in result.written and f not in result.failed:
            result.failed[f] = f"{os.fsdecode(f)}: not all of its parts were made"
    # in the order given
    result.failed = {f: result.failed[f] for f in files if f in result.failed}
    return result


def _check_options(to, fields, options, header):
    """Bad options raise here (ValueError, TypeError: the engine's words, as
    the CLI's usage errors), not once per task: a run over no input."""
    from pct import logs

    logs.write(io.BytesIO(b""), os.devnull, to=to, fields=fields, **_part_options(options, header, 0))


def _part_options(options, header, index):
    # a TSV/CSV header is the first part's only
    return dict(options, header=True) if header and index == 0 else options


def _settle(out, index, summary, error, result):
    """Records a finished part, or the file's failure; finishes the file
    when all its parts are there."""
    if out.failed:
        return
    if error is not None:
        out.failed = True
        result.failed[out.file] = _message(out.file, error)
        out.discard()
        return
    if index is not None:
        out.add(index, summary)
    if out.complete():
        result.written[out.file] = out.finish()
        result.parts += [out.done[i] for i in range(out.count)]


def _run_shared(client, plans, outputs, to, fields, options, header, result):
    from distributed import as_completed

    # the task functions by their module's name (pickled by reference), also
    # when this file runs as __main__ (python -m pct.dask)
    from pct import dask as tasks

    futures = {}
    for f, (ranges, size) in plans.items():
        out = outputs[f]
        path = os.path.abspath(f)
        for index, byte_range in enumerate(ranges):
            fut = client.submit(tasks.write_part, path, byte_range, size, out.part(index), to, fields,
                                _part_options(options, header, index), pure=False)
            futures[fut] = (out, index)
    for fut in as_completed(list(futures)):
        out, index = futures.pop(fut)
        if out.failed:  # cancelled with its file
            fut.release()
            continue
        try:
            # a summary lost with its worker since is made again: this waits
            summary = fut.result()
        except Exception as e:
            _settle(out, index, None, e, result)
            # the file's other parts are not needed any more
            client.cancel([g for g, (o, _i) in futures.items() if o is out])
        else:
            _settle(out, index, summary, None, result)
        fut.release()


def _ship_blocks(path, ranges, blocksize):
    """--ship: the blocks of a file as (offset, [bytes, ...]), read one at a
    time: a plain file in blocks of whole lines (those of the next blocksize
    bytes, cut after the last newline; a longer line whole), a file planned
    whole (compressed, W3C) as one block of blocksize chunks."""
    with open(path, "rb") as f:
        if ranges == [None]:
            chunks = []
            while True:
                data = f.read(blocksize)
                if not data:
                    break
                chunks.append(data)
            yield 0, chunks
            return
        offset = 0
        carry = b""
        while True:
            data = f.read(blocksize)
            if not data:
                if carry:  # the last line, with no newline
                    yield offset, [carry]
                return
            data = carry + data if carry else data
            cut = data.rfind(b"\n") + 1
            if cut == 0:  # no line ends here yet
                carry = data
                continue
            carry = data[cut:]
            block = data[:cut] if cut < len(data) else data
            del data  # not held while the block is out
            yield offset, [block]
            del block
            offset += cut


def _read_again(path, ranges, offset, length, blocksize):
    """A block of _ship_blocks read again (to send it once more)."""
    if ranges == [None]:
        return next(_ship_blocks(path, ranges, blocksize))[1]
    with open(path, "rb") as f:
        data = os.pread(f.fileno(), length, offset)
    if len(data) != length:
        raise OSError(f"{os.fsdecode(path)}: shrank while it was read")
    return [data]


def _run_shipped(client, plans, outputs, to, fields, options, blocksize, header, result):
    from distributed import as_completed
    from distributed.comm import CommClosedError

    from pct import dask as tasks

    # enough blocks in flight to keep every worker thread busy, and no more:
    # each is a block's bytes (and then its output) in memory
    window = max(2, 2 * sum(client.nthreads().values()))
    inflight = {}
    pending = as_completed()

    def scatter(chunks):
        """The chunks onto workers; a worker that has just died is retried
        until the scheduler has seen it go."""
        if not chunks:
            return []  # scatter refuses an empty list
        deadline = time.monotonic() + SCATTER_RETRY_SECONDS
        while True:
            try:
                return client.scatter(chunks, direct=True, hash=False)
            except (OSError, CommClosedError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def send(out, index, offset, chunks, attempt):
        data = scatter(chunks)
        fut = client.submit(tasks.decode_block, data, to, fields, _part_options(options, header, index),
                            pure=False)
        inflight[fut] = (out, index, offset, sum(len(c) for c in chunks), attempt, data)
        pending.add(fut)

    def collect(fut):
        out, index, offset, length, attempt, data = inflight.pop(fut)
        status = fut.status
        if status == "finished":
            try:
                output, summary = client.gather(fut, direct=True)
            except Exception:  # its worker died before it was fetched
                status = "lost"
            else:
                part = out.part(index)
                if not out.failed:
                    with open(part, "wb") as w:
                        w.write(output)
                summary["part"] = part
                del output
                _settle(out, index, summary, None, result)
        elif status == "error":
            error = fut.exception()
            from pct.logs import LogError

            if isinstance(error, (LogError, OSError, ValueError, TypeError)) or attempt >= SHIP_ATTEMPTS:
                _settle(out, index, None, error, result)
            else:
                status = "lost"
        if status not in ("finished", "error") and not out.failed:
            if attempt >= SHIP_ATTEMPTS:
                _settle(out, index, None, RuntimeError(f"block at byte {offset} lost {attempt} times"), result)
            else:
                f = out.file
                try:
                    chunks = _read_again(f, plans[f][0], offset, length, blocksize)
                except OSError as e:
                    _settle(out, index, None, e, result)
                else:
                    send(out, index, offset, chunks, attempt + 1)
        fut.release()
        for d in data:
            d.release()

    for f, (ranges, _size) in plans.items():
        out = outputs[f]
        index = 0
        try:
            for offset, chunks in _ship_blocks(f, ranges, blocksize):
                if out.failed:
                    break
                send(out, index, offset, chunks, 1)
                index += 1
                del chunks
                while len(inflight) >= window:
                    collect(next(pending))
        except OSError as e:
            _settle(out, None, None, e, result)
        if not out.failed:
            out.count = index
            _settle(out, None, None, None, result)  # an empty file: complete now
    while inflight:
        collect(next(pending))


def _options_from(args):
    """The pct.logs.write options of the command line."""
    options = {}
    if args.format != "auto":
        options["format"] = args.format
    for key in ("log_format", "json_key", "field", "query", "threads"):
        value = getattr(args, key)
        if value is not None:
            options[key] = value
    for key in ("referer", "decode_slash", "percent_u", "bytes", "raw", "raw_spaces", "csv_safe"):
        if getattr(args, key):
            options[key] = True
    return options


def main(argv=None):
    from pct import logs

    p = argparse.ArgumentParser(
        prog="python -m pct.dask",
        description="Decode access logs (plain, gzip, zstd) with libpct on a Dask cluster: plain files split "
        "into byte ranges, each decoded by a worker into a part; DIR/NAME.jsonl (.tsv, .csv, .txt) "
        "identical to `pct logs --json FILE` (--tsv, --csv, line output).",
    )
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--local", type=int, metavar="N", help="a LocalCluster of N worker processes on this machine")
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running cluster's scheduler, e.g. tcp://10.0.0.1:8786")
    p.add_argument("--output", "-o", required=True, metavar="DIR", help="where the outputs go")
    p.add_argument("--blocksize", type=parse_size, metavar="SIZE",
                   help="bytes of a plain file per task (default 128MiB, with --ship 32MiB; 64MiB, 1GiB, "
                   "100MB, 1048576...)")
    p.add_argument("--parts", action="store_true",
                   help="keep each file's parts as DIR/NAME/part-00000, ... instead of joining them")
    p.add_argument("--ship", action="store_true",
                   help="send the files' bytes to the workers and the outputs back (no shared file system)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--json", dest="to", action="store_const", const="json", help="JSON lines (the default)")
    mode.add_argument("--tsv", dest="to", action="store_const", const="tsv", help="TSV rows of --fields")
    mode.add_argument("--csv", dest="to", action="store_const", const="csv", help="CSV rows of --fields")
    mode.add_argument("--lines", dest="to", action="store_const", const="lines",
                      help="the log's lines, decoded (pct logs without --json, --tsv, --csv)")
    p.add_argument("--fields", metavar="LIST", help="TSV/CSV columns, as pct logs --fields")
    p.add_argument("--header", action="store_true", help="TSV/CSV: the column names first")
    p.add_argument("--csv-safe", action="store_true")
    p.add_argument("--raw", action="store_true")
    p.add_argument("--raw-spaces", action="store_true")
    p.add_argument("--format", default="auto", choices=logs.formats(), metavar="NAME",
                   help="the log's format: auto (default) or a name of pct logs --list-formats")
    p.add_argument("--log-format", metavar="STR", help="a custom format, as pct logs --log-format")
    p.add_argument("--json-key", metavar="KEY")
    p.add_argument("--field", type=int, metavar="N")
    p.add_argument("--referer", action="store_true")
    p.add_argument("--decode-slash", action="store_true")
    p.add_argument("--query", choices=["form", "plain", "keep"])
    p.add_argument("--percent-u", action="store_true")
    p.add_argument("--bytes", action="store_true")
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="log engine threads per task (default 1: a worker runs as many tasks at once "
                   "as it has threads)")
    p.add_argument("files", nargs="+", metavar="FILE")
    args = p.parse_args(argv)
    to = args.to or "json"
    if args.fields is not None and to not in ("tsv", "csv"):
        p.error("--fields goes with --tsv or --csv")
    if args.local is not None and args.local < 1:
        p.error("--local needs at least 1 worker")
    options = _options_from(args)
    try:  # before a cluster is started for nothing
        _check_options(to, args.fields, options, args.header)
    except (ValueError, TypeError) as e:
        print(f"python -m pct.dask: {e}", file=sys.stderr)
        return 2

    import dask
    from distributed import Client, LocalCluster

    start = time.monotonic()
    cluster = None
    try:
        if args.local is not None:
            # the workers' own log of a task that failed is not this
            # command's output (the failure is said once, below); set
            # before they start, as they read it when they do
            os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
            dask.config.refresh()
            # on 127.0.0.1 only, HTTP servers too (dashboard_address=None
            # alone leaves the scheduler's on 0.0.0.0:8787)
            cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=None,
                                   scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                   worker_dashboard_address="127.0.0.1:0")
            client = Client(cluster)
        else:
            client = Client(args.scheduler)
    except (OSError, TimeoutError) as e:
        print(f"python -m pct.dask: no cluster: {e}", file=sys.stderr)
        if cluster is not None:
            cluster.close()
        return 1
    try:
        result = run(client, args.files, args.output, to=to, fields=args.fields, options=options,
                     blocksize=args.blocksize, ship=args.ship, keep_parts=args.parts, header=args.header)
    except (ValueError, TypeError, OSError) as e:
        print(f"python -m pct.dask: {e}", file=sys.stderr)
        return 2
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for message in result.failed.values():
        print(f"python -m pct.dask: {message}", file=sys.stderr)
    parts = result.parts
    print(
        f"python -m pct.dask: {len(result.written)} file(s) decoded to {args.output} in "
        f"{time.monotonic() - start:.2f} s: {len(parts)} part(s) on {len(result.workers())} worker(s), "
        f"{sum(s['bytes_in'] for s in parts)} bytes in, {sum(s['bytes_out'] for s in parts)} out, "
        f"{sum(s['lines'] for s in parts)} lines ({sum(s['unparsed'] for s in parts)} unparsed)"
        + (f"; {len(result.failed)} file(s) failed" if result.failed else ""),
        file=sys.stderr,
    )
    return 2 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
