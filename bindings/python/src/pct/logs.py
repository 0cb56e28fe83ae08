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

__all__ = ["read", "LogError", "command", "formats", "read_bytes", "read_bytes_from"]


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


_OPTIONS = ("referer", "decode_slash", "query", "percent_u", "field", "threads")


def _options(format, options):
    """The options dict the extension takes; TypeError for an unknown one,
    ValueError for a bad value (format and query here, the rest checked by
    the engine as the CLI checks them)."""
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(unknown)}; options: {', '.join(_OPTIONS)}")
    if not isinstance(format, str) or format not in _format_names():
        raise ValueError(f"format must be one of {formats()} (or an alias), not {format!r}")
    opts = dict(options, format=format)
    for name in ("field", "threads"):
        if opts.get(name) is not None:
            opts[name] = int(opts[name])
    return opts


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
):
    """The argument list of the `pct logs` run (argv[0] is "pct") that writes
    what read() yields for files, for running the command line tool
    yourself. read() itself does not run it."""
    if format not in _format_names():
        raise ValueError(f"format must be one of {formats()}, not {format!r}")
    args = ["pct", "logs", "--no-progress"]
    if format != "auto":
        args += ["--format", format]
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


def _reader(path_or_file, opts):
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        path = os.fspath(path_or_file)
        if path in ("-", b"-"):
            return _pct.LogReader(opts)  # stdin, as `pct logs -`
        # opened here, so that a missing file raises FileNotFoundError (an
        # OSError with its errno and file name) when read() is called
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            return _pct.LogReader(opts, fd=fd, name=os.fsencode(path), own_fd=True)
        except BaseException:
            os.close(fd)
            raise
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
        return _pct.LogReader(opts, fd=fd, name=name)
    return _pct.LogReader(opts, file=path_or_file)


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
    options: referer, decode_slash, query ("form", "plain", "keep"),
    percent_u, field (N: field N of a whitespace-separated log is the URL),
    threads (worker threads of the log engine; default all cores).

    The engine runs in-process on a thread of its own (no GIL held while it
    decodes) and hands records over in batches through a bounded queue:
    memory stays bounded however large the log. Leaving the loop early
    (break, or closing the iterator) stops the run and joins its thread.
    A line longer than the engine's max line (4 MiB) is {"unparsed": its
    first 4 MiB} (`pct logs --json` writes it whole).

    Raises, when read() is called: FileNotFoundError (or another OSError)
    for a path that cannot be opened, TypeError for anything that is neither
    a path nor a file object, TypeError/ValueError for bad options. While
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
    return _json_text(_options(format, options), data=data)
