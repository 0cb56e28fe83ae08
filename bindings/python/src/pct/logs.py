"""pct.logs: web server access logs decoded by libpct's log code.

read() runs the C code of `pct logs --json` (tools/logs, built into this
package as the helper executable pct-logs) and yields its records: the very
same records, decoded the very same way, as the command line tool writes,
compressed input (gzip, zstd) included. The log code runs in a child process,
with its own worker threads, so a damaged input never takes the interpreter
down and the GIL is never held while logs are decoded.
"""

import functools
import json
import os
import subprocess
import threading

__all__ = ["read", "LogError", "helper_path", "command", "formats"]


class LogError(RuntimeError):
    """pct logs failed (unreadable, truncated or corrupt input, refused
    data); the message is what it wrote on stderr."""

    def __init__(self, message, returncode):
        super().__init__(message)
        self.returncode = returncode


def helper_path():
    """The path of the pct-logs helper executable installed with pct."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "pct-logs")


def _list_formats():
    """The log code's format registry, from the helper: (name, aliases,
    description) per format, as `pct logs --list-formats` writes them."""
    out = subprocess.run([helper_path(), "logs", "--list-formats"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True).stdout
    rows = []
    for line in out.decode("utf-8").splitlines():
        name, aliases, description = line.split("\t", 2)
        rows.append((name, tuple(a for a in aliases.split(",") if a), description))
    return tuple(rows)


@functools.lru_cache(maxsize=None)
def _format_table():
    return _list_formats()


def formats():
    """The names `format` takes: "auto" (found per file and per line) and
    every format the log code knows (`pct logs --list-formats`), read from
    it once: never a list of its own."""
    return ("auto",) + tuple(row[0] for row in _format_table())


def _format_names():
    """The names and aliases `format` takes."""
    return set(formats()).union(*(row[1] for row in _format_table()))


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
    """The argument list of a `pct logs` run (argv[0] is "pct")."""
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


def _feed(src, dst):
    try:
        while True:
            block = src.read(1 << 20)
            if not block:
                break
            if isinstance(block, str):
                block = block.encode("utf-8", "surrogateescape")
            dst.write(block)
    except (BrokenPipeError, ValueError, OSError):
        pass
    finally:
        try:
            dst.close()
        except OSError:
            pass


def read(path_or_file, format="auto", **options):
    """Iterates over the records of an access log, as dicts: the objects that
    `pct logs --json` writes, one per line (remote, time, method, path, query
    as [[name, value], ...], status, bytes, referer, agent; {"unparsed":
    line} for a line that does not parse, {"directive": line} for a W3C
    directive).

    path_or_file: a path (str, bytes, os.PathLike) or a binary file object
    (one with a file descriptor is read by the log code directly; any other
    is copied to it by a thread). Plain or compressed (gzip, zstd: detected
    by content). format: one of formats() ("auto", the default, and the
    names `pct logs --list-formats` gives), or an alias of one.
    options: referer, decode_slash, query ("form", "plain", "keep"),
    percent_u, field (N: field N of a whitespace-separated log is the URL),
    threads (worker threads of the log code; default all cores).
    Raises LogError when pct logs fails (after the records before the fault).
    """
    feeder = None
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        args = command([path_or_file], format, **options)
        stdin = subprocess.DEVNULL
    else:
        args = command(["-"], format, **options)
        try:
            path_or_file.fileno()
            stdin = path_or_file
        except (AttributeError, OSError, ValueError):
            stdin = subprocess.PIPE
    proc = subprocess.Popen(
        args,
        executable=helper_path(),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if stdin is subprocess.PIPE:
        feeder = threading.Thread(target=_feed, args=(path_or_file, proc.stdin), daemon=True)
        feeder.start()
    errors = []
    drain = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    drain.start()
    finished = False
    try:
        loads = json.loads
        for line in proc.stdout:
            yield loads(line)
        finished = True
    finally:
        if not finished:
            proc.kill()
        proc.stdout.close()
        rc = proc.wait()
        drain.join()
        proc.stderr.close()
        if feeder is not None:
            feeder.join()
    if rc != 0:
        message = b"".join(errors).decode("utf-8", "replace").strip()
        raise LogError(message or f"pct logs exited with status {rc}", rc)


def _run(files, format, data, options):
    """The helper's stdout for files (data on its stdin when files is ["-"]);
    LogError with its message when it fails."""
    proc = subprocess.run(
        command(files, format, **options),
        executable=helper_path(),
        input=data,
        stdin=subprocess.DEVNULL if data is None else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip()
        raise LogError(message or f"pct logs exited with status {proc.returncode}", proc.returncode)
    return proc.stdout


def read_bytes(path, format="auto", **options):
    """The whole `pct logs --json` output for a file, as bytes (what
    python -m pct.dask writes for each file). Raises LogError."""
    return _run([path], format, None, options)


def read_bytes_from(data, format="auto", **options):
    """Like read_bytes, for the bytes of a log file (plain or compressed)."""
    return _run(["-"], format, data, options)
