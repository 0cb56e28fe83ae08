"""Speed of the pct package against urllib.parse (the README's Python table),
and of pct.logs.read_frame (the README's pandas figures).

    python bench.py [--quick] [--logs-only] [--cli PATH]

Medians of several runs (timeit); the machine is shared, so runs vary:
compare the ratios, measured in the same process. The log part compares
read_frame with `pct logs --tsv` to /dev/null (the pct tool: --cli, else
$PCT_CLI, else pct on PATH) and with a pure-Python parser (a regex and
urllib.parse.unquote) that builds the same frame, the three run in turn."""

import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import urllib.parse as up

import pct

QUICK = "--quick" in sys.argv
rng = random.Random(20261123)
ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789/-._"
ESC = ["%20", "%2F", "%C3%A9", "%E2%82%AC", "%3D"]


def target(n, rate=0.06):
    s, length = [], 0
    while length < n:
        p = rng.choice(ESC) if rng.random() < rate else rng.choice(ALPHA)
        s.append(p)
        length += len(p)
    return "".join(s)


def per_call(fn, arg, number):
    runs = timeit.repeat(lambda: fn(arg), number=number, repeat=3 if QUICK else 9)
    return statistics.median(runs) / number


def row(name, base, fast, unit):
    print(f"| {name} | {base} | {fast} | {unit} |")


LOGS_ONLY = "--logs-only" in sys.argv


def urllib_table():
    """The table of the drop-ins and batch calls against urllib.parse."""
    print(f"pct {pct.__version__}, implementation {pct.implementation()}, Python {sys.version.split()[0]}")
    print("| operation | urllib.parse | pct | speed-up |")
    print("|---|---|---|---|")
    s40 = target(40)
    for fn in ("unquote", "unquote_plus", "unquote_to_bytes"):
        a, b = per_call(getattr(up, fn), s40, 20000), per_call(getattr(pct, fn), s40, 20000)
        row(f"`{fn}`, {len(s40)}-char string", f"{a * 1e9:.0f} ns", f"{b * 1e9:.0f} ns", f"{a / b:.1f}×")
    q40 = "".join(rng.choice(ALPHA + " é&=?") for _ in range(40))
    for fn in ("quote", "quote_plus"):
        a, b = per_call(getattr(up, fn), q40, 20000), per_call(getattr(pct, fn), q40, 20000)
        row(f"`{fn}`, 40-char string", f"{a * 1e9:.0f} ns", f"{b * 1e9:.0f} ns", f"{a / b:.1f}×")
    big = target(65536)[:65536]
    a, b = per_call(up.unquote, big, 10), per_call(pct.unquote, big, 200)
    row("`unquote`, 64 KiB string", f"{65536 / a / 1e6:.0f} MB/s", f"{65536 / b / 1e6:.0f} MB/s", f"{a / b:.0f}×")
    bigq = "".join(rng.choice(ALPHA + " é&=?") for _ in range(65536))
    a, b = per_call(up.quote, bigq, 10), per_call(pct.quote, bigq, 200)
    row("`quote`, 64 KiB string", f"{65536 / a / 1e6:.0f} MB/s", f"{65536 / b / 1e6:.0f} MB/s", f"{a / b:.0f}×")
    items = [target(rng.randrange(20, 101)).encode() for _ in range(100000)]
    total = sum(map(len, items))
    reps = 3 if QUICK else 7
    a = statistics.median(timeit.repeat(lambda: [up.unquote_to_bytes(x) for x in items], number=1, repeat=reps))
    b = statistics.median(timeit.repeat(lambda: pct.decode_many(items), number=1, repeat=reps))
    c = statistics.median(timeit.repeat(lambda: [x[1:] for x in items], number=1, repeat=reps))
    row("`decode_many`, 100,000 strings of 20-100 bytes, vs `[unquote_to_bytes(x) for x in items]`",
        f"{a * 1e3:.0f} ms", f"{b * 1e3:.1f} ms", f"{a / b:.1f}×")
    print(f"\n(creating 100,000 bytes objects alone, [x[1:] for x in items]: {c * 1e3:.1f} ms; "
          f"{total / 1e6:.1f} MB in all)")
    assert pct.decode_many(items) == [up.unquote_to_bytes(x) for x in items]


# ------------------------------------------------------- pct.logs.read_frame

AGENTS = ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
          "curl/8.5.0", "Googlebot/2.1 (+http://www.google.com/bot.html)", "-"]
PATHS = ["/", "/index.html", "/caf%C3%A9/menu", "/api/v1/items", "/search", "/static/app.js",
         "/img/a%20b.png", "/%E2%82%AC/price", "/docs/%7Euser/page"]


def combined_log(lines, seed=20261127):
    """A combined log as servers write them: repeated clients, agents and
    paths, random ids and queries, some '-', 0.5% lines that do not parse
    and a few bytes that are not UTF-8."""
    r = random.Random(seed)
    out = []
    for i in range(lines):
        if r.random() < 0.005:
            out.append(b"\x16\x03\x01 not a request \xff")
            continue
        p = r.choice(PATHS) + (f"/{r.randrange(10**6)}" if r.random() < 0.6 else "")
        if r.random() < 0.4:
            p += f"?q={r.randrange(10**5)}&lang=fr&t=caf%C3%A9+cr%C3%A8me"
        ref = "-" if r.random() < 0.5 else f"https://example.com/r%C3%A9f?{r.randrange(1000)}"
        status = r.choice([200, 200, 200, 200, 304, 404, 301, 500])
        size = "-" if status == 304 else str(r.randrange(100000))
        line = (f'198.51.100.{r.randrange(256)} - - [14/Mar/2026:{r.randrange(24):02d}:{r.randrange(60):02d}:'
                f'{r.randrange(60):02d} +0100] "GET {p} HTTP/1.1" {status} {size} "{ref}" "{r.choice(AGENTS)}"')
        out.append(line.encode() + (b"\xe9" if r.random() < 0.001 else b""))
    return b"\n".join(out) + b"\n"


# The agent's closing quote is followed by the end of the line, a space or a
# tab (a '"' followed by anything else is data); else the line is a common
# one with fields after it.
COMBINED_RE = re.compile(r'(\S+) \S+ \S+ \[([^\]]+)\] "(\S+) ([^ "]+) (\S+)" (\d+|-) (\d+|-)'
                         r'(?: "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"(?=[ \t]|$))?.*$')


def python_frame(path):
    """The same frame built by a pure-Python parser: a regex, urllib.parse's
    unquote (unquote_plus for the query), pandas' own conversions."""
    import pandas as pd

    cols = {k: [] for k in ("format", "remote", "time", "method", "path", "query", "status", "bytes",
                            "referer", "agent")}
    unparsed = 0
    with open(path, encoding="utf-8", errors="replace", newline="\n") as f:
        for line in f:
            m = COMBINED_RE.match(line.rstrip("\n"))
            if m is None:
                unparsed += 1
                continue
            remote, when, method, target, _proto, status, size, ref, agent = m.groups()
            path_part, q, query = target.partition("?")
            cols["format"].append("combined" if agent is not None else "common")
            cols["remote"].append(remote)
            cols["time"].append(when)
            cols["method"].append(method)
            cols["path"].append(up.unquote(path_part))
            cols["query"].append(up.unquote_plus(query) if q else None)
            cols["status"].append(None if status == "-" else int(status))
            cols["bytes"].append(None if size == "-" else int(size))
            cols["referer"].append(None if ref in (None, "-") else ref)
            cols["agent"].append(None if agent in (None, "-") else agent)
    df = pd.DataFrame(cols)
    df["time"] = pd.to_datetime(df["time"], format="%d/%b/%Y:%H:%M:%S %z", utc=True)
    df["status"] = df["status"].astype("Int64")
    df["bytes"] = df["bytes"].astype("Int64")
    df.attrs["unparsed"] = unparsed
    return df


def cli_path():
    for i, a in enumerate(sys.argv):
        if a == "--cli" and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
    return os.environ.get("PCT_CLI") or shutil.which("pct")


def logs_table():
    import pandas as pd

    import pct.logs

    lines = 100_000 if QUICK else 400_000
    runs = 3 if QUICK else 7
    with tempfile.TemporaryDirectory() as d:
        big = os.path.join(d, "access.log")
        data = combined_log(lines)
        with open(big, "wb") as f:
            f.write(data)
        small = os.path.join(d, "small.log")  # the pure-Python parser: a quarter
        with open(small, "wb") as f:
            f.write(data[:data.index(b"\n", len(data) // 4) + 1])
        size, small_size = os.path.getsize(big), os.path.getsize(small)
        cli = cli_path()
        # the same frame (test_read_frame checks it too)
        ours, theirs = pct.logs.read_frame(small), python_frame(small)
        pd.testing.assert_frame_equal(ours, theirs)
        assert ours.attrs["unparsed"] == theirs.attrs["unparsed"]
        print(f"\nread_frame: {lines:,} combined lines, {size / 1e6:.0f} MB; pandas {pd.__version__}; "
              f"{os.cpu_count()} CPUs; runs alternate, medians of {runs}")

        cpu = {}  # CPU seconds of each run: all threads, and the calling thread's

        def timed(fn, key):
            t, c, ct = time.perf_counter(), time.process_time(), time.thread_time()
            child = resource.getrusage(resource.RUSAGE_CHILDREN)
            result = fn()
            t = time.perf_counter() - t
            done = resource.getrusage(resource.RUSAGE_CHILDREN)
            child = done.ru_utime + done.ru_stime - child.ru_utime - child.ru_stime
            cpu.setdefault(key, []).append((time.process_time() - c + child, time.thread_time() - ct))
            del result  # freeing a frame is not reading it
            return t

        def run_cli(threads):
            extra = ["--threads", str(threads)] if threads else []
            with open(os.devnull, "wb") as null:
                subprocess.run([cli, "logs", "--no-progress", "--tsv", *extra, big], stdout=null, check=True)

        # threads: 1 for both, then each one's default (pct logs: all cores;
        # read_frame: all cores but one, the calling thread making columns)
        times = {}
        for _ in range(runs):
            for threads in (1, None):
                if cli:
                    times.setdefault(("cli", threads), []).append(timed(lambda: run_cli(threads), ("cli", threads)))
                times.setdefault(("frame", threads), []).append(
                    timed(lambda: pct.logs.read_frame(big, threads=threads), ("frame", threads)))
            times.setdefault("python", []).append(timed(lambda: python_frame(small), "python"))
        med = {k: statistics.median(v) for k, v in times.items()}
        py = small_size / med["python"]
        print("| threads | `pct logs --tsv` > /dev/null | `read_frame` | ÷ CLI (≥ 0.5×) | pure Python | × Python (≥ 20×) |")
        print("|---|---|---|---|---|---|")
        for threads in (1, None):
            fr = size / med[("frame", threads)]
            c = size / med[("cli", threads)] if cli else None
            name = threads or "default"
            print(f"| {name} | {c / 1e6:.0f} MB/s |" if c else f"| {name} | (no pct tool) |",
                  f"{fr / 1e6:.0f} MB/s | {fr / c:.2f}× |" if c else f"{fr / 1e6:.0f} MB/s | - |",
                  f"{py / 1e6:.1f} MB/s | {fr / py:.0f}× |")
        # On few cores the ratio at each one's default is bounded by CPU:
        # with every core busy, at most the CLI's CPU over read_frame's.
        for threads in (1, None):
            fc = statistics.median(c for c, _ in cpu[("frame", threads)])
            main = statistics.median(m for _, m in cpu[("frame", threads)])
            line = f"CPU per run, threads={threads or 'default'}: read_frame {fc * 1e3:.0f} ms " \
                   f"(the calling thread, making the columns: {main * 1e3:.0f} ms)"
            if cli:
                cc = statistics.median(c for c, _ in cpu[("cli", threads)])
                line += f", pct logs --tsv {cc * 1e3:.0f} ms: {cc / fc:.2f}×"
            print(line)

if __name__ == "__main__":
    if not LOGS_ONLY:
        urllib_table()
    try:
        import pandas  # noqa: F401
    except ImportError:
        print("\n(no pandas: read_frame not measured)")
    else:
        logs_table()
