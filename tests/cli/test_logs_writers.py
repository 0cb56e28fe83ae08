#!/usr/bin/env python3
"""Tests of the writers of `pct logs` (line, JSON, TSV, CSV): the rules
every writer follows, checked over a generated corpus of hostile lines in
every format, and one regression test per defect the writers had.

Usage: test_logs_writers.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

The corpus is random: its seed is printed, and PCT_SEED=N replays it.
"""
import csv
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile

import test_logs
from clitest import WRAPPER, check, run_groups, short
from test_logs import run, run_ok  # `pct logs ARGS`, as test_logs.py runs it

FORMATS = ["combined", "common", "vhost_combined", "xff_combined", "w3c", "cloudfront", "alb",
           "elb", "haproxy", "envoy", "squid", "traefik", "json"]

# One line of each format, written from its definition; {T} is the request
# target, {Q} a quoted-field payload (agent, referer...).
TEMPLATES = {
    "combined": '192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET {T} HTTP/1.1" 200 5 "{Q}" "{Q}"',
    "common": '192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET {T} HTTP/1.1" 200 5',
    "vhost_combined": 'www.example.com:443 192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] '
                      '"GET {T} HTTP/1.1" 200 5 "{Q}" "{Q}"',
    "xff_combined": '203.0.113.7, 198.51.100.2 - - [14/Mar/2026:06:00:00 +0000] '
                    '"GET {T} HTTP/1.1" 200 5 "{Q}" "{Q}"',
    "w3c": "2026-03-14 06:00:00 192.0.2.1 GET {P} {QS} 80 - 192.0.2.9 UA - 200 0 0 15",
    "cloudfront": "2026-03-14\t06:00:00\tLHR62-C2\t1045\t192.0.2.1\tGET\td1.cloudfront.net\t{P}\t200"
                  "\t-\tUA\t{QS}\t-\tHit\tabc==\texample.com\thttps\t420\t0.001\t-\tTLSv1.3"
                  "\tTLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\t-\t-\t54321\t0.001\tHit\ttext/html"
                  "\t1045\t-\t-",
    "alb": 'https 2026-03-14T06:00:00.123456Z app/my-lb/50dc6c495c0c9188 192.0.2.1:2817 '
           '10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET https://example.com:443{T} '
           'HTTP/1.1" "{Q}" - - arn:aws:elasticloadbalancing:us-east-2:1:targetgroup/t/1 '
           '"Root=1-58337262-36d228ad5d99923122bbe354" "-" "-" 0 2026-03-14T06:00:00.000000Z '
           '"forward" "-" "-" "10.0.0.1:80" "200" "-" "-"',
    "elb": '2026-03-14T06:00:00.123456Z my-lb 192.0.2.1:2817 10.0.0.1:80 0.000 0.001 0.000 200 '
           '200 0 29 "GET http://example.com:80{T} HTTP/1.1" "{Q}" - -',
    "haproxy": 'Mar 14 06:00:00 lb haproxy[123]: 192.0.2.1:4567 [14/Mar/2026:06:00:00.123] '
               'http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 '
               '{{{Q}}} "GET {T} HTTP/1.1"',
    "envoy": '[2026-03-14T06:00:03.123Z] "POST {T} HTTP/2" 204 - 154 0 226 100 "192.0.2.33" '
             '"{Q}" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "api.example.com" "198.51.100.4:80"',
    "squid": "1773468007.123    120 192.0.2.77 TCP_MISS/200 1234 GET http://example.com{T} - "
             "HIER_DIRECT/203.0.113.5 text/html",
    "traefik": '192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET {T} HTTP/1.1" 200 5 "{Q}" "{Q}" '
               '42 "router@docker" "http://10.0.0.5:80" 3ms',
    "json": '{{"ts":1773468008.5,"request":{{"remote_ip":"192.0.2.88","method":"GET",'
            '"uri":{JT},"headers":{{"User-Agent":[{JQ}]}}}},"status":200,"size":12}}',
}
W3C_HEADER = ("#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query s-port cs-username "
              "s-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken")

# Hostile pieces: percent-encoded controls, C1 controls, '#' and formula
# starts, quotes and backslashes, invalid UTF-8, raw controls.
PCT_PIECES = ["%1B[2J", "%0A", "%0D", "%0D%0A", "%00", "%7F", "%C2%9B", "%C2%85", "%23", "%3D",
              "%2B", "%40", "%2D", "%20", "%09", "%22", "%5C", "%2C", "%FF", "%C3", "%E2%82",
              "%uD800", "%u001B", "+", "=", "&", "?", "%", "%%", "%zz", "caf%C3%A9", "%F0%9F%9A%80",
              "a", "b", ",", ";"]
RAW_PIECES = ["\x1b[31m", "\x07", "\x00", "\x7f", "\r", "\t", "\x0b", "\u009b", "\u0085", "\\",
              '\\"', "\\x1b", "\\x0a", "=1+2", "@SUM(A1)", "-2", ",", " ", "'"]


def rand_target(rng):
    parts = [rng.choice(PCT_PIECES) for _ in range(rng.randint(0, 6))]
    if rng.random() < 0.3:
        parts.insert(0, rng.choice(["%23Fields:", "%3D", "%2B", "%40"]))
    path = "/" + "".join(parts)
    if rng.random() < 0.6:
        path += "?" + "&".join(rng.choice(PCT_PIECES) + "=" + rng.choice(PCT_PIECES)
                               for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.15:
        path += rng.choice(RAW_PIECES)
    return path


def rand_quoted(rng):
    text = "".join(rng.choice(RAW_PIECES + PCT_PIECES) for _ in range(rng.randint(0, 4)))
    return text.replace('"', '\\"') if rng.random() < 0.8 else text


def make_line(rng, fmt):
    target = rand_target(rng)
    q = rand_quoted(rng)
    if fmt == "json":
        line = TEMPLATES[fmt].format(JT=json.dumps(target), JQ=json.dumps(q))
    elif fmt in ("w3c", "cloudfront"):
        stem, _, qs = target.partition("?")
        sep = "\t" if fmt == "cloudfront" else " "
        line = TEMPLATES[fmt].format(P=stem.replace(sep, "%09").replace(" ", "%20") or "/",
                                     QS=(qs or "-").replace(sep, "%09").replace(" ", "%20"))
    else:
        line = TEMPLATES[fmt].format(T=target.replace(" ", "%20"), Q=q)
    r = rng.random()
    if r < 0.1:  # trailing fields that name a request part or a field again
        line += ' path=/admin remote=10.0.0.1 "%s"' % rng.choice(["x", "=cmd", "\x1b"])
    elif r < 0.15:  # not a line of the format
        line = rng.choice(["junk \x1b[2J", "#Fields: x", "=1+2,3", "", "\r", "\x00\x01"])
    data = line.encode("utf-8", "surrogateescape")
    if rng.random() < 0.05:
        data += b"\xff\xfe"  # invalid UTF-8 in the line itself
    return data


def corpus(rng, fmt, count=40):
    lines = [make_line(rng, fmt) for _ in range(count)]
    if fmt == "w3c":
        lines.insert(0, W3C_HEADER.encode())
    if fmt == "cloudfront":
        lines.insert(0, b"#Version: 1.0")
        lines.insert(1, b"#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) "
                        b"cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) "
                        b"x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes "
                        b"time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type "
                        b"cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte "
                        b"x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start "
                        b"sc-range-end")
    ending = b"\r\n" if rng.random() < 0.3 else b"\n"
    return ending.join(lines) + ending


# Control characters a terminal acts on: C0 (but a tab, and the newline),
# DEL, and U+0080-U+009F as UTF-8.
RAW_CONTROL = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]|\xc2[\x80-\x9f]")


def no_duplicate_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate keys %r" % keys)
    return dict(pairs)


def strict_json(text):
    """The object text holds, or None: strict JSON with no key twice."""
    try:
        obj = json.loads(text, object_pairs_hook=no_duplicate_keys)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def out_lines(out):
    """The output's lines, each without its ending (LF, or CRLF)."""
    assert out.endswith(b"\n") or out == b""
    return [l[:-1] if l.endswith(b"\r") else l for l in out.split(b"\n")[:-1]]


def check_writer_rules(name, mode, data, out, ncols=None, utf8=True):
    """The rules of every writer: one output line per input line, no raw
    control byte, strict JSON, a constant number of TSV/CSV columns, and
    UTF-8 text unless --bytes (utf8=False) asked for the bytes."""
    nlines = data.count(b"\n")
    lines = out_lines(out)
    if not check(name + ": one output line per input line", len(lines) == nlines,
                 "in %d, out %d" % (nlines, len(lines))):
        return
    for i, l in enumerate(lines):
        bad = RAW_CONTROL.search(l)
        if not check(name + ": no raw control byte", bad is None,
                     "line %d: %s" % (i + 1, short(l))):
            return
        if utf8:
            try:
                l.decode("utf-8")
            except UnicodeDecodeError as e:
                check(name + ": UTF-8 without --bytes", False, "line %d: %s" % (i + 1, e))
                return
        if mode == "json":
            if not check(name + ": strict JSON, no key twice", strict_json(l) is not None,
                         "line %d: %s" % (i + 1, short(l))):
                return
        elif mode == "tsv":
            if not check(name + ": constant TSV columns", l.count(b"\t") + 1 == ncols,
                         "line %d: %d columns, want %d: %s" % (i + 1, l.count(b"\t") + 1, ncols,
                                                               short(l))):
                return
    if mode == "csv":
        rows = list(csv.reader(io.StringIO(out.decode("utf-8", "replace"), newline="")))
        widths = sorted(set(len(r) for r in rows))
        check(name + ": constant CSV columns", len(rows) == nlines and widths == [ncols],
              "%d rows of widths %r, want %d of %d" % (len(rows), widths, nlines, ncols))


WRITER_ARGS = {"line": [], "json": ["--json"],
               "tsv": ["--tsv", "--fields", "format,origin,path,query,line"],
               "csv": ["--csv", "--fields", "format,origin,path,query,agent,line"],
               "csv-safe": ["--csv", "--csv-safe", "--fields", "format,origin,path,query,agent,line"]}
WRITER_COLS = {"tsv": 5, "csv": 6, "csv-safe": 6}


def seeded_rng(name):
    seed = int(os.environ.get("PCT_SEED", random.randrange(1 << 31)))
    print("%s: seed %d (PCT_SEED=%d replays it)" % (name, seed, seed))
    return random.Random(seed)


def test_corpus():
    """Hostile lines of every format through every writer: the rules hold."""
    rng = seeded_rng("corpus")
    for fmt in FORMATS:
        data = corpus(rng, fmt)
        for how in (["--format", fmt], []):
            for writer, args in WRITER_ARGS.items():
                for extra in ([], ["--query", "keep"], ["--bytes"], ["--threads", "2",
                                                                     "--chunk-size", "512"]):
                    if writer == "json" and extra == ["--bytes"]:
                        continue  # refused: JSON text is UTF-8
                    name = "%s %s %s" % (fmt, writer, " ".join(how + extra))
                    result = run(how + args + extra, data)
                    if not check(name + " (exit)", result.returncode in (0, 1),
                                 "exit %d: %s" % (result.returncode, short(result.stderr))):
                        continue
                    mode = "csv" if writer.startswith("csv") else writer
                    check_writer_rules(name, mode, data, result.stdout, WRITER_COLS.get(writer),
                                       utf8=writer != "line" and "--bytes" not in extra)
                    if writer == "csv-safe":
                        rows = csv.reader(io.StringIO(result.stdout.decode("utf-8", "replace"),
                                                      newline=""))
                        for row in rows:
                            bad = [c for c in row if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
                            if not check(name + ": no cell starts a formula", not bad, repr(row)):
                                break


def test_long_lines():
    """A line longer than --max-line: the same output in every writer and
    thread count, noticed on stderr, counted in --stats; rows keep their
    shape."""
    rng = seeded_rng("long-lines")
    target = "/" + "".join(rng.choice(["a", "%41", ",", "%2C", "\x1b", '\\"', "%C2%9B", "\u00e9"])
                           for _ in range(6000))
    long_line = TEMPLATES["combined"].format(T=target, Q="x").encode()
    short_line = TEMPLATES["combined"].format(T="/ok%41", Q="x").encode()
    data = short_line + b"\n" + long_line + b"\r\n" + short_line + b"\n"
    for writer, args in WRITER_ARGS.items():
        outs = set()
        for threads in ("1", "2"):
            for chunk in ("256K", "1K"):
                name = "long line %s --threads %s --chunk-size %s" % (writer, threads, chunk)
                with tempfile.NamedTemporaryFile(suffix=".log") as f:
                    f.write(data * 300)
                    f.flush()
                    result = run(args + ["--max-line", "4K", "--threads", threads, "--chunk-size",
                                         chunk, "--stats", f.name])
                check(name + " (exit 0)", result.returncode == 0, short(result.stderr))
                mode = "csv" if writer.startswith("csv") else writer
                check_writer_rules(name, mode, data * 300, result.stdout, WRITER_COLS.get(writer))
                check(name + ": noticed", b"longer than --max-line" in result.stderr,
                      short(result.stderr))
                check(name + ": counted", re.search(rb"long lines: +300\b", result.stderr)
                      is not None, short(result.stderr))
                outs.add(result.stdout)
                lines = out_lines(result.stdout)
                second = lines[1] if len(lines) > 1 else b""
                check(name + ": not decoded", b"%41" in second and b"%2C" in second,
                      short(second))
        check("long line %s: the same output for every thread count and chunk size" % writer,
              len(outs) == 1, "%d different outputs" % len(outs))
    # The 6 KB line held whole by one read (it was decoded, silently).
    result = run_ok("6 KB line, --max-line 4K", ["--max-line", "4K"], long_line + b"\n")
    check("6 KB line: not decoded", b"%41" in result.stdout, short(result.stdout))
    check("6 KB line: noticed", b"line 1 is longer than --max-line" in result.stderr,
          short(result.stderr))


def test_big_line_threads():
    """A 5 MB line: the same output with 1 and 2 threads."""
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        ok = TEMPLATES["combined"].format(T="/x%41", Q="-").encode() + b"\n"
        f.write(ok * 20000)
        f.write(TEMPLATES["combined"].format(T="/" + "b%41" * (5 << 18), Q="-").encode() + b"\n")
        f.write(ok * 1000)
        f.flush()
        outs = [run_ok("5 MB line --threads %d" % t, ["--threads", str(t), f.name]).stdout
                for t in (1, 2)]
    check("5 MB line: same output with 1 and 2 threads", outs[0] == outs[1],
          "%d and %d bytes" % (len(outs[0]), len(outs[1])))
    check("5 MB line: not decoded", b"b%41b%41" in outs[0], "")


def test_controls():
    """Control bytes are escaped in every mode unless --raw."""
    esc = "\x1b[31mred"
    cases = {
        "combined": TEMPLATES["combined"].format(T="/a?x=" + esc, Q="-"),
        "w3c": W3C_HEADER + "\n" + TEMPLATES["w3c"].format(P="/a", QS="x=" + esc),
        "envoy": TEMPLATES["envoy"].format(T="/a?x=" + esc, Q="-"),
    }
    for fmt, text in cases.items():
        data = text.encode() + b"\n"
        for args in (["--query", "keep"], ["--query", "keep", "--threads", "1"]):
            result = run_ok("%s %s" % (fmt, args), ["--format", fmt] + args, data)
            check("--query keep %s: ESC escaped in line output" % fmt,
                  b"\x1b" not in result.stdout and b"\\x1b[31mred" in result.stdout,
                  short(result.stdout))
        result = run_ok("%s --query keep --raw" % fmt, ["--format", fmt, "--query", "keep", "--raw"],
                        data)
        check("--query keep --raw %s: as written" % fmt, b"\x1b[31mred" in result.stdout,
              short(result.stdout))
    data = TEMPLATES["combined"].format(T="/a%C2%9B31m", Q="-").encode() + b"\n"
    result = run_ok("--bytes C1", ["--bytes"], data)
    check("--bytes: a decoded C1 CSI is escaped", b"\xc2\x9b" not in result.stdout and
          b"\\xc2\\x9b31m" in result.stdout, short(result.stdout))
    data = TEMPLATES["combined"].format(T="/a%FF%C2%9B", Q="-").encode() + b"\n"
    result = run_ok("--bytes tsv C1", ["--bytes", "--tsv", "--fields", "path"], data)
    check("--bytes --tsv: C1 escaped, other bytes kept", result.stdout == b"/a\xff\\xc2\\x9b\n",
          short(result.stdout))


def test_duplicates():
    """The request's own fields win; a later duplicate is in "extra" as
    NAME=VALUE; never a key twice in one object."""
    line = TEMPLATES["combined"].format(T="/real", Q="-") + " path=/admin remote=10.0.0.1"
    result = run_ok("trailing duplicates --json", ["--json"], line.encode() + b"\n")
    obj = strict_json(result.stdout)
    check("trailing duplicates: strict JSON", obj is not None, short(result.stdout))
    if obj is not None:
        check("trailing duplicates: the request's path, the line's remote",
              obj.get("path") == "/real" and obj.get("remote") == "192.0.2.1", short(obj))
        check("trailing duplicates: kept in extra",
              obj.get("extra") == ["path=/admin", "remote=10.0.0.1"], short(obj))
    result = run_ok("trailing duplicates --tsv", ["--tsv", "--fields", "remote,path"],
                    line.encode() + b"\n")
    check("trailing duplicates --tsv: the request's path", result.stdout == b"192.0.2.1\t/real\n",
          short(result.stdout))
    data = b'{"uri":"/real","path":"/admin"}\n{"path":"/admin","uri":"/real?a=1"}\n'
    result = run_ok("json line uri and path", ["--json"], data)
    objs = [strict_json(l) for l in result.stdout.splitlines()]
    check("json line uri and path: strict JSON", None not in objs, short(result.stdout))
    if None not in objs:
        check("json line uri and path: uri wins", [o.get("path") for o in objs] == ["/real"] * 2,
              short(objs))
        check("json line uri and path: path in extra",
              [o.get("extra") for o in objs] == [["path=/admin"]] * 2, short(objs))
    result = run_ok("json line --tsv path", ["--tsv", "--fields", "path,query"], data)
    check("json line --tsv path: the request's", result.stdout == b"/real\t\\N\n/real\ta=1\n",
          short(result.stdout))
    data = b'{"uri":"/x","a":1,"a":2}\n'
    result = run_ok("json line key twice", ["--json"], data)
    obj = strict_json(result.stdout)
    check("json line key twice: first wins, second in extra",
          obj is not None and obj.get("a") == "1" or obj is not None and obj.get("a") == 1,
          short(result.stdout))
    data = (b"#Fields: date time cs-uri-stem cs-uri-stem c-ip c-ip\n"
            b"2026-01-01 00:00:00 /a /b 192.0.2.1 10.0.0.1\n")
    result = run_ok("w3c field named twice", ["--json"], data)
    objs = [strict_json(l) for l in result.stdout.splitlines()]
    check("w3c field named twice: strict JSON", None not in objs, short(result.stdout))
    if None not in objs:
        check("w3c field named twice: the first wins", objs[1].get("path") == "/a", short(objs))


def test_crlf():
    """A CR before LF is the line ending's: no row ends in a raw CR; a lone
    CR in a line is a control byte."""
    data = (TEMPLATES["combined"].format(T="/a", Q="-").encode() + b"\r\n" + b"junk\r\n" +
            TEMPLATES["combined"].format(T="/b", Q="x\ry").encode() + b"\r\n")
    for args in (["--tsv"], ["--csv"], ["--tsv", "--fields", "format,line"]):
        result = run_ok("crlf %s" % args, args, data)
        check("crlf %s: no CR in the output" % args, b"\r" not in result.stdout,
              short(result.stdout))
        check("crlf %s: 3 rows" % args, result.stdout.count(b"\n") == 3, short(result.stdout))
    result = run_ok("crlf line output", [], data)
    check("crlf line output: endings kept, lone CR escaped",
          result.stdout.count(b"\r\n") == 3 and result.stdout.count(b"\r") == 3 and
          b"x\\ry" in result.stdout, short(result.stdout))


def test_csv_safe():
    """--csv-safe: a "'" before cells a spreadsheet would run."""
    data = (b'=1+2 - +cmd [14/Mar/2026:06:00:00 +0000] "GET /x?a=1 HTTP/1.1" 200 5 "%3DSUM(1)" '
            b'"@x, -2"\n'
            b'192.0.2.1 - -2 [14/Mar/2026:06:00:00 +0000] "GET /x HTTP/1.1" 200 5 "-" "\tx"\n')
    fields = ["--referer", "--fields", "remote,user,path,query,referer,agent"]
    result = run_ok("csv", ["--csv"] + fields, data)
    rows = list(csv.reader(io.StringIO(result.stdout.decode(), newline="")))
    check("--csv: cells as they are",
          rows == [["=1+2", "+cmd", "/x", "a=1", "=SUM(1)", "@x, -2"],
                   ["192.0.2.1", "-2", "/x", "", "", "\\tx"]], repr(rows))
    result = run_ok("csv-safe", ["--csv", "--csv-safe", "--header"] + fields, data)
    rows = list(csv.reader(io.StringIO(result.stdout.decode(), newline="")))
    check("--csv-safe: formula starts guarded",
          rows[1:] == [["'=1+2", "'+cmd", "/x", "a=1", "'=SUM(1)", "'@x, -2"],
                       ["192.0.2.1", "'-2", "/x", "", "", "'\\tx"]], repr(rows))
    result = run(["--tsv", "--csv-safe"], data)
    check("--csv-safe without --csv: usage error", result.returncode == 2, short(result.stderr))
    result = run_ok("help", ["--help"])
    check("--help documents --csv-safe", b"--csv-safe" in result.stdout, "")
    man = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "man", "pct.1")
    with open(man, "rb") as f:
        check("the man page documents --csv-safe", b"\\-\\-csv\\-safe" in f.read(), "")


def test_spaces():
    """Text that was not decoded stays as written: the spaces of a request
    with more than three words are not \\x20."""
    data = TEMPLATES["combined"].format(T="/x%20y HTTP/1.1 extra", Q="-").encode() + b"\n"
    result = run_ok("extra words", [], data)
    check("spaces that were not decoded stay", b'"GET /x\\x20y HTTP/1.1 extra HTTP/1.1"'
          in result.stdout, short(result.stdout))
    check("same number of fields", len(result.stdout.split()) == len(data.split()),
          short(result.stdout))


def test_hash():
    """A decoded '#' never starts a line, in line output or a TSV/CSV row
    (it would read as a W3C directive, or a comment)."""
    data = b"%23Fields: date x\n/a %23b\n"
    result = run_ok("--field 1", ["--field", "1"], data)
    check("--field 1: a decoded '#' at the line's start stays %23",
          result.stdout == b"%23Fields:\\x20date x\n/a %23b\n" or
          result.stdout.startswith(b"%23"), short(result.stdout))
    line = TEMPLATES["combined"].format(T="/a", Q="%23r").encode() + b"\n"
    for writer in ("--tsv", "--csv"):
        result = run_ok("%s referer first" % writer,
                        [writer, "--referer", "--fields", "referer,path"], line)
        check("%s: a decoded '#' does not start the row" % writer,
              not result.stdout.startswith(b"#") and result.stdout.startswith(b"%23r"),
              short(result.stdout))


def child_max_rss_kb(args, path):
    """Runs `pct logs ARGS PATH` to /dev/null; its exit status and its own
    max RSS in KB (os.wait4: that child's, not every child's so far)."""
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(WRAPPER + [test_logs.PCT, "logs"] + args + [path], stdout=null,
                                 stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, usage.ru_maxrss


def test_memory():
    """Memory does not grow with fields x line length: rows of 8 big fields
    of 4 MB lines (32 MB each, 384 MB in all) stay within a bound: a few
    rows in flight, not every row a thread or slot ever held."""
    if WRAPPER:
        print("memory: skipped under an emulator (its own memory is counted)")
        return
    with open(test_logs.PCT, "rb") as f:
        if b"__asan_init" in f.read():
            print("memory: skipped with AddressSanitizer (its shadow memory is counted)")
            return
    line = TEMPLATES["combined"].format(T="/" + "b%41" * 1000000, Q="-") + "\n"
    with tempfile.NamedTemporaryFile(suffix=".log") as f:
        f.write(line.encode() * 12)
        f.flush()
        for threads in ("2", "8"):
            status, kb = child_max_rss_kb(["--tsv", "--fields", ",".join(["line"] * 8),
                                           "--threads", threads], f.name)
            print("memory --threads %s: max RSS %d MB" % (threads, kb >> 10))
            check("memory --threads %s: exit 0" % threads, status == 0, "exit %d" % status)
            check("memory --threads %s: max RSS under 110 MB" % threads, kb < 110 << 10,
                  "%d MB" % (kb >> 10))


def test_origin():
    """The origin of an absolute target is text, as every other text cell:
    bytes that are not UTF-8 are U+FFFD in --json, --tsv and --csv (as
    bytes.decode(errors="replace") makes them), kept with --bytes."""
    hosts = [b"h\xff.example", b"caf\xc3\xa9.example", b"x\xc3.example:8080", b"\xe2\x82.y"]
    lines = b"".join(TEMPLATES["combined"].format(T="http://HOST/a%20b?q=1", Q="-").encode()
                     .replace(b"HOST", h) + b"\n" for h in hosts)
    want = ["http://" + h.decode("utf-8", "replace") for h in hosts]
    out = run_ok("origin --json", ["--json"], lines).stdout
    got = [json.loads(l).get("origin") for l in out.decode("utf-8").splitlines()]
    check("origin --json: U+FFFD for bytes that are not UTF-8", got == want, repr(got))
    for mode in ("--tsv", "--csv"):
        out = run_ok("origin " + mode, [mode, "--fields", "origin,path"], lines).stdout
        try:
            text = out.decode("utf-8")
        except UnicodeDecodeError as e:
            check("origin %s: UTF-8" % mode, False, str(e))
            continue
        cells = [row[0] for row in csv.reader(io.StringIO(text, newline=""),
                                                  delimiter="\t" if mode == "--tsv" else ",")]
        check("origin %s: U+FFFD for bytes that are not UTF-8" % mode, cells == want, repr(cells))
        out = run_ok("origin %s --bytes" % mode, [mode, "--bytes", "--fields", "origin"], lines).stdout
        check("origin %s --bytes: the bytes kept" % mode,
              out.split(b"\n")[:-1] == [b"http://" + h for h in hosts], short(out))


def test_long_line_twice():
    """--fields naming `line` twice: a line over --max-line streams through
    once, into the first `line` column; the second is null (TSV \\N, CSV
    empty), never an empty string that looks like an empty line."""
    long_line = TEMPLATES["combined"].format(T="/" + "a" * 5000, Q="-")
    short_line = TEMPLATES["combined"].format(T="/b", Q="-")
    data = (long_line + "\n" + short_line + "\n").encode()
    out = run(["--tsv", "--max-line", "4096", "--fields", "line,format,line"], data).stdout
    rows = [r.split(b"\t") for r in out.split(b"\n")[:-1]]
    check("long line, line twice: TSV rows", rows == [[long_line.encode(), b"unparsed", b"\\N"],
                                                   [short_line.encode(), b"combined",
                                                    short_line.encode()]], short(out))


GROUPS = {"corpus": test_corpus, "long-lines": test_long_lines, "big-line": test_big_line_threads,
          "controls": test_controls, "duplicates": test_duplicates, "crlf": test_crlf,
          "csv-safe": test_csv_safe, "spaces": test_spaces, "hash": test_hash,
          "memory": test_memory, "origin": test_origin,
          "long-line-twice": test_long_line_twice}


def set_pct(path):
    test_logs.set_pct(path)


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
