"""pct.logs: web server access logs decoded by libpct's log engine.

read() runs the log engine of `pct logs` (tools/logs, linked into this
package's extension) in-process, on a thread of its own that holds no GIL
while it reads and decodes, and yields its records as dicts: the objects
`pct logs --json` writes, built in C from the engine's records (no child
process, no JSON text in between), compressed input (gzip, zstd) included.
"""

import atexit
import os
import weakref

from pct import _pct

__all__ = ["read", "read_frame", "write", "LogError", "command", "formats", "read_bytes",
           "read_bytes_from"]


class LogError(RuntimeError):
    """The log engine failed (unreadable, truncated or corrupt input,
    refused data). str() is what `pct logs` would print on stderr;
    returncode the exit status it would give (2: a fault in an input)."""

    def __init__(self, message, returncode):
        super().__init__(message)
        self.returncode = returncode

    def __reduce__(self):
        # the default pickles self.args (the message alone) and then fails
        # to call __init__ with one argument
        return (type(self), (self.args[0], self.returncode))


def formats():
    """The names `format` takes: "auto" (found per file and per line) and
    every format of the log engine's registry (`pct logs --list-formats`),
    read from the engine in-process: never a list of its own."""
    return ("auto",) + tuple(row[0] for row in _pct.log_formats())


def _format_names():
    """The names and aliases `format` takes."""
    names = set(formats())
    for _name, aliases, _description in _pct.log_formats():
        names.update(aliases)
    return names


_OPTIONS = ("log_format", "referer", "decode_slash", "query", "percent_u", "field", "threads",
            "byte_range")


def _byte_range(value):
    """byte_range as the extension takes it: (start, end), two ints with
    0 <= start <= end; None stays None."""
    if value is None:
        return None
    try:
        start, end = value
    except (TypeError, ValueError):
        raise TypeError(f"byte_range must be (start, end), not {value!r}") from None
    for v in (start, end):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise TypeError(f"byte_range offsets must be ints, not {type(v).__name__}")
    start, end = start.__index__(), end.__index__()
    if not 0 <= start <= end < 1 << 64:
        raise ValueError(f"byte_range must have 0 <= start <= end, not {(start, end)!r}")
    return (start, end)


def _options(format, options):
    """The options dict the extension takes; TypeError for an unknown one,
    ValueError for a bad value (format and query here, the rest checked by
    the engine as the CLI checks them)."""
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(unknown)}; options: {', '.join(_OPTIONS)}")
    if not isinstance(format, str) or format not in _format_names():
        raise ValueError(f"format must be one of {formats()} (or an alias), not {format!r}")
    if options.get("log_format") is not None and format != "auto":
        raise ValueError("give format or log_format, not both")
    opts = dict(options, format=format)
    for name in ("field", "threads"):
        if opts.get(name) is not None:
            opts[name] = int(opts[name])
    if "byte_range" in opts:
        opts["byte_range"] = _byte_range(opts["byte_range"])
    return opts


def _check_range_source(opts, source):
    """A byte range is of a file: a file object read with .read() has no
    offsets to seek to."""
    if opts.get("byte_range") is not None and "file" in source:
        raise ValueError("byte_range needs a path or a file object with a file descriptor")


def command(
    files,
    format="auto",
    *,
    json_output=True,
    referer=False,
    decode_slash=False,
    query=None,
    percent_u=False,
    field=None,
    threads=None,
    log_format=None,
    byte_range=None,
):
    """The argument list of the `pct logs` run (argv[0] is "pct") that writes
    what read() yields for files, for running the command line tool
    yourself. read() itself does not run it."""
    if format not in _format_names():
        raise ValueError(f"format must be one of {formats()}, not {format!r}")
    args = ["pct", "logs", "--no-progress"]
    if format != "auto":
        args += ["--format", format]
    if log_format is not None:
        args += ["--log-format", log_format]
    if json_output:
        args.append("--json")
    if referer:
        args.append("--referer")
    if decode_slash:
        args.append("--decode-slash")
    if query is not None:
        args += ["--query", str(query)]
    if percent_u:
        args.append("--percent-u")
    if field is not None:
        args += ["--field", str(int(field))]
    if threads is not None:
        args += ["--threads", str(int(threads))]
    if byte_range is not None:
        start, end = _byte_range(byte_range)
        args += ["--byte-range", f"{start}:{end}"]
    args.append("--")
    args += [os.fsdecode(f) for f in files]
    return args


# Readers not closed yet: closed at exit, before the interpreter goes (their
# threads take the GIL).
_live = weakref.WeakSet()


@atexit.register
def _close_all():
    for reader in list(_live):
        reader.close()


def _forget_all():
    # a child process after fork() has none of the readers' threads
    for reader in list(_live):
        reader._after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_all)


def _source(path_or_file):
    """The input's keyword arguments for the extension (fd and name, file,
    or none: stdin) and whether its fd was opened here (then the caller's to
    close). A path is opened here, so that a missing file raises
    FileNotFoundError (an OSError with its errno and file name) at the
    call."""
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        path = os.fspath(path_or_file)
        if path in ("-", b"-"):
            return {}, False  # stdin, as `pct logs -`
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        return {"fd": fd, "name": os.fsencode(path)}, True
    if not hasattr(path_or_file, "read"):
        raise TypeError(
            f"path_or_file must be a path (str, bytes, os.PathLike) or a binary file object, "
            f"not {type(path_or_file).__name__}")
    try:
        fd = path_or_file.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is not None:
        name = getattr(path_or_file, "name", "-")
        name = os.fsencode(name) if isinstance(name, (str, bytes)) else b"-"
        return {"fd": fd, "name": name}, False
    return {"file": path_or_file}, False


def _reader(path_or_file, opts):
    source, opened = _source(path_or_file)
    try:
        _check_range_source(opts, source)
        return _pct.LogReader(opts, own_fd=opened, **source)
    except BaseException:
        if opened:
            os.close(source["fd"])
        raise


def _records(reader):
    try:
        for batch in reader:
            yield from batch
        code, message = reader.result()
    finally:
        reader.close()
        _live.discard(reader)
    if code != 0:
        raise LogError(message or f"pct logs failed with status {code}", code)


def read(path_or_file, format="auto", **options):
    """Iterates over the records of an access log, as dicts: the objects that
    `pct logs --json` writes, one per line (remote, time, method, path, query
    as [[name, value], ...], status, bytes, referer, agent; {"unparsed":
    line} for a line that does not parse, {"directive": line} for a W3C
    directive), with the same keys and value types.

    path_or_file: a path (str, bytes, os.PathLike; "-" is stdin) or a binary
    file object (one with a file descriptor is read by the log engine from
    it directly; any other is read with .read() and fed to the engine).
    Plain or compressed (gzip, zstd: detected by content).
    format: one of formats() ("auto", the default, and the names `pct logs
    --list-formats` gives), or an alias of one.
    options: log_format (a custom format, as `pct logs --log-format`: an
    nginx log_format string or directive, or an Apache LogFormat; instead
    of format), referer, decode_slash, query ("form", "plain", "keep"),
    percent_u, field (N: field N of a whitespace-separated log is the URL),
    threads (worker threads of the log engine; default all cores),
    byte_range ((start, end): only the lines that start in bytes [start,
    end) of a plain file, each read to its end, as `pct logs --byte-range
    START:END`; ranges cut at any offsets give every line once, in order;
    ValueError for a file object without a descriptor, LogError for a
    compressed file or a pipe).

    The engine runs in-process on a thread of its own (no GIL held while it
    decodes) and hands records over in batches through a bounded queue:
    memory stays bounded however large the log. Leaving the loop early
    (break, or closing the iterator) stops the run and joins its thread.
    A line longer than the engine's max line (4 MiB) is {"unparsed": its
    first 4 MiB} (`pct logs --json` writes it whole).

    Raises, when read() is called: FileNotFoundError (or another OSError)
    for a path that cannot be opened, TypeError for anything that is neither
    a path nor a file object (None too: standard input is "-"),
    TypeError/ValueError for bad options. While
    iterating: LogError when the engine fails (a truncated or corrupt file,
    a read error), after the records before the fault; an exception raised
    by a file object's read() as it is, after the records decoded by then
    (the run is stopped at a line's end: no cut line is yielded).
    """
    opts = _options(format, options)
    reader = _reader(path_or_file, opts)
    _live.add(reader)
    return _records(reader)


def _json_text(opts, **source):
    data, code, message = _pct.logs_json(opts, **source)
    if code != 0:
        raise LogError(message or f"pct logs failed with status {code}", code)
    return data


def read_bytes(path, format="auto", **options):
    """The whole `pct logs --json` output for a file, as bytes (what
    python -m pct.dask writes for each file), made in-process. Raises
    LogError."""
    return _json_text(_options(format, options), path=path)


def read_bytes_from(data, format="auto", **options):
    """Like read_bytes, for the bytes of a log file (plain or compressed)."""
    if options.get("byte_range") is not None:
        raise ValueError("byte_range needs a file: slice the bytes instead")
    return _json_text(_options(format, options), data=data)


# read_frame: the kinds of column the extension fills (logs_frame.c).
_TEXT, _TIME, _INT, _BOOL = range(4)
_TYPED = {"time": _TIME, "status": _INT, "bytes": _INT, "truncated": _BOOL}
DEFAULT_FIELDS = ("format", "remote", "time", "method", "path", "query", "status", "bytes",
                  "referer", "agent")
_MAX_FIELDS = 62  # the engine's 64 columns, less format and line


def _frame_fields(fields, unparsed):
    if fields is None:
        fields = DEFAULT_FIELDS
    elif isinstance(fields, str):
        fields = tuple(f.strip() for f in fields.split(","))
    else:
        fields = tuple(fields)
    for f in fields:
        if not isinstance(f, str):
            raise TypeError(f"fields must be names (str), not {type(f).__name__}")
        if not f or "," in f:  # the rest is checked by the engine, as --fields
            raise ValueError(f"a field name is not empty and has no ',': {f!r}")
    if not fields:
        raise ValueError("fields names no column")
    if len(fields) > _MAX_FIELDS:
        raise ValueError(f"fields names at most {_MAX_FIELDS} columns")
    if len(set(fields)) != len(fields):
        raise ValueError(f"fields names a column twice: {', '.join(fields)}")
    if unparsed not in ("count", "column"):
        raise ValueError(f"unparsed must be 'count' or 'column', not {unparsed!r}")
    if unparsed == "column" and "unparsed" in fields:
        raise ValueError("unparsed='column' adds a column 'unparsed': fields cannot name one")
    return fields


def _import_pandas():
    try:
        import numpy
        import pandas
    except ImportError as e:
        raise ImportError(
            "pct.logs.read_frame needs pandas (and NumPy): pip install pandas, or on Debian "
            "apt-get install python3-pandas") from e
    return numpy, pandas


def _frame_column(np, pd, frame, rows, i, kind):
    """Column i of the extension's frame as a pandas array."""
    if kind == _TEXT:
        # the strs are moved in by C: no list in between, no reference
        # count touched (a copy from a list costs as much as making them)
        values = np.empty(rows, dtype=object)
        if not (values.flags.c_contiguous and values.dtype == object and values.shape == (rows,)):
            raise RuntimeError("pct.logs.read_frame: numpy made no plain object array")
        _pct.frame_column(frame, i, values.__array_interface__["data"][0])
        return values
    values, mask = _pct.frame_column(frame, i)
    mask = np.frombuffer(mask, dtype=np.bool_)
    if kind == _TIME:  # nulls are NaT already
        return pd.arrays.DatetimeArray(np.frombuffer(values, dtype="M8[ns]"),
                                       dtype=pd.DatetimeTZDtype(tz="UTC"))
    if kind == _INT:
        return pd.arrays.IntegerArray(np.frombuffer(values, dtype=np.int64), mask)
    return pd.arrays.BooleanArray(np.frombuffer(values, dtype=np.bool_), mask)


def read_frame(path_or_file, fields=None, *, format="auto", unparsed="count", **options):
    """The records of an access log as a pandas DataFrame, one row per
    record, one column per field: the values `pct logs --tsv --fields
    FIELDS` writes (decoded by the same C code, in-process), typed:

    - time: datetime64[ns, UTC] (the time as `time_iso` gives it, converted
      to UTC; times without a zone are UTC; NaT when absent or invalid);
    - status, bytes: pandas' nullable Int64 (<NA> when absent, "-" or not a
      decimal integer);
    - truncated: pandas' nullable boolean;
    - any other field (format, remote, method, path, query, referer, agent,
      time_iso, origin, protocol, line, a format's own fields...): str
      (object dtype), None when absent or "-".

    path_or_file, format and the options: as read() (log_format, referer,
    decode_slash, query, percent_u, threads, byte_range; not field, which
    has no names), except that threads defaults to all cores but one: the calling
    thread makes the columns while the engine's threads decode. fields: the columns, a list of names or "a,b,c" (default:
    format, remote, time, method, path, query, status, bytes, referer,
    agent).
    unparsed: "count" (the default): lines that do not parse are not rows;
    df.attrs["unparsed"] counts them. "column": they are rows too, with
    every field null and their line (as `pct logs --tsv --fields line`
    writes it, decoded) in an extra column "unparsed" (None for records).
    W3C directives (#Fields: ...) are never rows: df.attrs["directives"].

    Columns are filled in C by the calling thread as the engine's threads
    write their rows (through a bounded queue; the GIL is released while
    it waits): no JSON, no dicts, no child process. The whole frame is in
    memory.

    Raises ImportError without pandas; FileNotFoundError (or another
    OSError) at the call for a path that cannot be opened;
    TypeError/ValueError for bad arguments (ValueError with the engine's
    message for a bad log_format or field name); LogError when the engine
    fails (a truncated or corrupt file); an exception of a file object's
    read() as it is.
    """
    names = _frame_fields(fields, unparsed)
    if "field" in options:
        raise TypeError("read_frame takes no 'field' option (use format= or log_format=)")
    if options.get("threads") is None:
        # the calling thread makes the columns: the engine gets the rest
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        options = dict(options, threads=max(1, (cores or 1) - 1))
    opts = _options(format, options)
    np, pd = _import_pandas()
    kinds = tuple(_TYPED.get(n, _TEXT) for n in names)
    tsv = ["format"] + [n + "_iso" if k == _TIME else n for n, k in zip(names, kinds)]
    column = unparsed == "column"
    line_cell = -1  # the row's cell that holds an unparsed line
    if column:
        # a line column of the caller's is the one (the engine writes a
        # line over its max line into the first line column only)
        if "line" not in names:
            tsv.append("line")
        line_cell = tsv.index("line")
    source, opened = _source(path_or_file)
    try:
        _check_range_source(opts, source)
        frame, rows, unparsed_lines, directives, code, message = _pct.logs_frame(
            opts, ",".join(tsv), kinds, line_cell, **source)
    finally:
        if opened:
            os.close(source["fd"])
    if code != 0:
        raise LogError(message or f"pct logs failed with status {code}", code)
    if column:
        names += ("unparsed",)
        kinds += (_TEXT,)
    # as Series: a DataFrame made from a dict of arrays turns a tz-aware
    # DatetimeArray into Timestamp objects and back (pandas 1.5), 40x slower
    data = {n: pd.Series(_frame_column(np, pd, frame, rows, i, k), copy=False)
            for i, (n, k) in enumerate(zip(names, kinds))}
    df = pd.DataFrame(data, copy=False)
    df.attrs["unparsed"] = unparsed_lines
    df.attrs["directives"] = directives
    return df


_WRITE_TO = ("json", "tsv", "csv", "lines")
# the output's options, as pct logs --header, --csv-safe, --raw,
# --raw-spaces, --bytes, --strict-format, --json-key
_WRITE_OPTIONS = ("header", "csv_safe", "raw", "raw_spaces", "bytes", "strict", "json_key")


def _refuse_input_as_output(source, out):
    """ValueError when out is the input file (a path to it would be
    truncated before it is read), as `pct logs` refuses its output file."""
    if "file" in source:
        return
    try:
        given = os.fstat(source.get("fd", 0))
        if isinstance(out, (str, bytes, os.PathLike)):
            target = os.stat(out)
        elif hasattr(out, "fileno"):
            target = os.fstat(out.fileno())
        else:
            return
    except (OSError, ValueError):
        return  # a new file, or not one to compare: _output_fd says what is wrong
    import stat

    if stat.S_ISREG(given.st_mode) and (given.st_dev, given.st_ino) == (target.st_dev, target.st_ino):
        raise ValueError("out is the input file")


def _output_fd(out):
    """The fd to write to and whether it was opened here: a path is
    created (or truncated); a file object is flushed and its descriptor
    written at its position."""
    if isinstance(out, (str, bytes, os.PathLike)):
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)
        return os.open(out, flags, 0o666), True
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        raise TypeError(
            f"out must be a path or a binary file object with fileno(), not {type(out).__name__}"
        ) from None
    if hasattr(out, "encoding"):
        raise TypeError("out must be a binary file object (the output is bytes), not a text one")
    flush = getattr(out, "flush", None)
    if flush is not None:
        flush()
    return fd, False


def write(path, out, *, to="json", fields=None, byte_range=None, format="auto", **options):
    """Writes what `pct logs` writes for an input (or a byte range of it)
    to out, from C: the engine's own writers write straight to out's file
    descriptor, nothing passes through Python objects. Returns the run's
    counts (what --stats prints) as a dict: lines, bytes, escaped_lines,
    malformed, invalid_utf8, unparsed, long_lines, truncated (records the
    server cut), formats ({name: lines parsed}).

    path: the input, as read() takes it (a path, "-", or a file object).
    out: a path (created or truncated) or a binary file object with
    fileno() (flushed first; written from its position, which is moved to
    the end of what was written when it is seekable).
    to: "json" (--json), "tsv", "csv" (--tsv, --csv; fields: the columns,
    a list or "a,b,c", default the CLI's) or "lines" (the default line
    output). byte_range: (start, end), as read() takes it (`pct logs
    --byte-range START:END`).
    format and options: as read() (log_format, referer, decode_slash,
    query, percent_u, field, threads), and the output's: header, csv_safe,
    raw, raw_spaces, bytes, strict (as --strict-format: unparsed lines make
    it fail with returncode 1), json_key.

    Raises FileNotFoundError (or another OSError) for an input or output
    that cannot be opened, TypeError/ValueError for bad arguments (the
    engine's message for options it refuses, as the CLI's usage errors),
    LogError when the run fails (a fault in the input, a write error),
    after the whole lines before it were written.
    """
    if to not in _WRITE_TO:
        raise ValueError(f"to must be one of {_WRITE_TO}, not {to!r}")
    if fields is not None:
        if to not in ("tsv", "csv"):
            raise ValueError("fields go with to='tsv' or to='csv'")
        if not isinstance(fields, str):
            fields = ",".join(fields)
    extra = {k: options.pop(k) for k in _WRITE_OPTIONS if k in options}
    opts = _options(format, dict(options, byte_range=byte_range))
    opts.update(extra)
    if to in ("tsv", "csv"):
        opts["table"] = to
    source, opened = _source(path)
    out_fd = None
    out_opened = False
    try:
        _check_range_source(opts, source)
        _refuse_input_as_output(source, out)
        out_fd, out_opened = _output_fd(out)
        counts, code, message = _pct.logs_write(opts, out_fd, json=to == "json", fields=fields,
                                                **source)
        if not out_opened and getattr(out, "seekable", lambda: False)():
            out.seek(os.lseek(out_fd, 0, os.SEEK_CUR))
    finally:
        if opened:
            os.close(source["fd"])
        if out_opened:
            os.close(out_fd)
    if code != 0:
        raise LogError(message or f"pct logs failed with status {code}", code)
    return counts
