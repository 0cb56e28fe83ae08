#!/usr/bin/env python3
"""Tests of records a server cut (tools/logs/log_cut.h; issue 24, items 12
and 13): decoded as far as they go and flagged ("truncated": true in --json,
the `truncated` column of --fields, a --stats count), never unparsed; a line
that is not a cut record stays unparsed.

  quoted    a line that ends inside a quoted field (haproxy's 1,024-byte cut,
            syslog's message size): combined lines cut in the request, the
            referer, the agent; haproxy lines cut in the request
  status    nginx/Apache log a 414 request line as far as they read it: no
            protocol (or "HTTP/1." cut) and status 414
  varnish   varnishncsa: varnishd keeps 254 bytes of a URL (vsl_reclen 255)
  varnish-f the same with `--log-format 'varnishncsa -F ...'` and %U%q
  squid     squid writes an entry over 8 KiB as its first 8,191 bytes and a
            NUL, with no newline: the next entry is a record of its own
  outputs   the flag in --tsv/--csv (--fields truncated), --stats, line output
  whole     lines that are not cut: unparsed or parsed as before, no flag

Usage: test_logs_cut.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Expected values are derived here from the line written (the target decoded
with urllib.parse.unquote, cut where the line was cut), never copied from
the program's output. PCT_TEST_SEED replays the random lines.
"""
import json
import os
import random
import sys
import urllib.parse

import test_logs
from clitest import check, log_lines, run_groups, short
from test_logs import json_lines, run_ok

SEED = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
os.environ["PCT_TEST_SEED"] = str(SEED)  # the groups' processes: the same lines
HEAD = '192.0.2.7 - - [27/Nov/2026:12:00:00 +0000] '
SQUID_CUT = 8191  # squid's logfilePrintf buffer (8,192 bytes) less its NUL
VARNISH_URL = 254  # varnishd's vsl_reclen (255) less the NUL of its record


def target(rng):
    """A request target with escapes (letters, UTF-8, spaces) and a query;
    no %2F, '+' or '&'/'=' escapes, so that decoding it is unquote()."""
    segs = []
    for _ in range(rng.randrange(1, 6)):
        seg = ""
        for _ in range(rng.randrange(1, 12)):
            c = rng.choice("abcxyz019-_.~")
            r = rng.random()
            seg += ("%%%02X" % ord(c)) if r < 0.3 else "%C3%A9" if r < 0.4 else "%20" if r < 0.5 else c
        segs.append(seg)
    return "/" + "/".join(segs) + "?a=1&b=x%20y&c=%C3%A9"


def expect_url(text):
    """(path, query pairs) of a (possibly cut) target, decoded."""
    path, q, query = text.partition("?")
    pairs = []
    for part in query.split("&") if q else []:
        if part:
            k, _, v = part.partition("=")
            pairs.append([urllib.parse.unquote(k, errors="replace"),
                          urllib.parse.unquote(v, errors="replace")])
    return urllib.parse.unquote(path, errors="replace"), pairs


def test_quoted():
    """Combined and haproxy lines cut inside a quoted field."""
    rng = random.Random(SEED)
    for i in range(60):
        t = target(rng)
        whole = HEAD + '"GET %s HTTP/1.1" 200 %d "http://r.example/ref?x=%d" "Mozilla/5.0 (X11; Linux)"' % (
            t, 100 + i, i)
        request_at = whole.index('"GET ') + 1
        where = rng.choice(["request", "referer", "agent"])
        if where == "request":  # after "GET /", before the target's end
            cut = request_at + 5 + rng.randrange(0, len(t) - 1)
        elif where == "referer":
            start = whole.index('"http://r.') + 1
            cut = start + rng.randrange(1, len("http://r.example/ref?x=%d" % i))
        else:
            start = whole.index('"Mozilla') + 1
            cut = start + rng.randrange(1, len("Mozilla/5.0 (X11; Linux)"))
        line = whole[:cut]
        for args in ([], ["--format", "combined"]):
            name = "quoted %d %s cut at %d %s (seed %d)" % (i, where, cut, args, SEED)
            objs = json_lines(name, args, (line + "\n").encode())
            if not check(name + ": one object", len(objs) == 1, short(objs)):
                continue
            o = objs[0]
            check(name + ": truncated", o.get("truncated") is True and o.get("format") == "combined",
                  short(o))
            check(name + ": remote, time", o.get("remote") == "192.0.2.7" and
                  o.get("time_iso") == "2026-11-27T12:00:00+00:00", short(o))
            if where == "request":
                path, query = expect_url(line[request_at + 4:])
                check(name + ": the cut request decoded", o.get("method") == "GET" and
                      o.get("path") == path and o.get("query") == query and
                      o.get("protocol") is None, "want %r %r, got %s" % (path, query, short(o)))
                check(name + ": no fields after the cut", "status" not in o and "agent" not in o,
                      short(o))
            else:
                path, query = expect_url(t)
                check(name + ": the request whole", o.get("path") == path and o.get("query") == query
                      and o.get("protocol") == "HTTP/1.1" and o.get("status") == 200, short(o))
                cut_text = line[line.rindex('"') + 1:]
                key = "referer" if where == "referer" else "agent"
                check(name + ": the cut field as far as it goes", o.get(key) == cut_text, short(o))
                if where == "referer":
                    check(name + ": no agent", "agent" not in o, short(o))

    # haproxy (its default 1,024-byte cut, with a syslog prefix)
    t = "/h" + "%41b" * 400
    whole = ('Nov 27 12:28:20 lb haproxy[123]: 192.0.2.9:41234 [27/Nov/2026:12:28:20.123] fe be/s1 '
             '0/0/0/1/1 200 123 - - ---- 1/1/0/0/0 0/0 "GET %s HTTP/1.1"' % t)
    line = whole[:1023]
    o = json_lines("haproxy cut", [], (line + "\n").encode())
    path, _ = expect_url(line[line.index('"GET ') + 5:])
    check("haproxy cut at 1,023 bytes: truncated, the path decoded",
          len(o) == 1 and o[0].get("format") == "haproxy" and o[0].get("truncated") is True and
          o[0].get("path") == path and o[0].get("protocol") is None and o[0].get("status") == 200,
          short(o))


def test_status():
    """414: the request line as far as the server read it."""
    rng = random.Random(SEED + 1)
    for i in range(20):
        t = target(rng) + "x" * rng.randrange(0, 50)
        for request, cut in (("GET " + t, True), ("GET %s HTTP/1." % t, True),
                             ("GET %s HTTP/1.1" % t, False)):
            line = HEAD + '"%s" 414 %d "-" "-"' % (request, 150 + i)
            name = "414 %r (seed %d)" % (request[-12:], SEED)
            objs = json_lines(name, [], (line + "\n").encode())
            o = objs[0] if objs else {}
            path, query = expect_url(t)
            check(name + ": flagged %s" % cut, o.get("truncated", False) is cut, short(o))
            check(name + ": decoded, status kept", o.get("path") == path and o.get("query") == query
                  and o.get("status") == 414 and o.get("method") == "GET", short(o))
    # the cut in the protocol: its start is no part of the target
    for cut in ("H", "HT", "HTT", "HTTP", "http"):
        line = HEAD + '"GET /p%%41?q=1 %s" 414 0 "-" "-"' % cut
        o = json_lines("414 cut in the protocol " + cut, [], (line + "\n").encode())
        check("414 cut in the protocol %r: the target without it" % cut, o and
              o[0].get("truncated") is True and o[0].get("path") == "/pA" and
              o[0].get("query") == [["q", "1"]] and o[0].get("protocol") is None, short(o))
        o = json_lines("haproxy-like cut in the protocol", [], (HEAD + '"GET /p%%41?q=1 %s' % cut + "\n").encode())
        check("a line cut in the protocol %r: the target without it" % cut, o and
              o[0].get("truncated") is True and o[0].get("query") == [["q", "1"]], short(o))
    # not 414: a request without a protocol is HTTP/0.9's, not a cut one
    o = json_lines("200 without protocol", [], (HEAD + '"GET /old" 200 5 "-" "-"\n').encode())
    check("200 without protocol: not truncated", o and "truncated" not in o[0] and
          o[0].get("path") == "/old", short(o))
    # an nginx format with trailing fields, and the record path (TSV)
    line = HEAD + '"GET /long%41" 414 0 "-" "-" rt=0.000'
    o = json_lines("414 trailing", [], (line + "\n").encode())
    check("414 with trailing fields: truncated", o and o[0].get("truncated") is True and
          o[0].get("path") == "/longA" and o[0].get("rt") == "0.000", short(o))


def test_varnish():
    """varnishncsa's %r: "GET http://host" + the URL varnishd kept."""
    for size, cut in ((VARNISH_URL, True), (VARNISH_URL - 1, False), (VARNISH_URL + 1, False)):
        url = "/v?q=" + "%41" * ((size - 5) // 3) + "z" * ((size - 5) % 3)
        assert len(url) == size
        line = HEAD + '"GET http://cache.example:6081%s HTTP/1.1" 200 7 "-" "curl/7.88"' % url
        o = json_lines("varnish URL of %d bytes" % size, [], (line + "\n").encode())
        path, query = expect_url(url)
        check("varnish URL of %d bytes: truncated %s" % (size, cut),
              o and o[0].get("truncated", False) is cut and o[0].get("path") == path and
              o[0].get("query") == query and o[0].get("origin") == "http://cache.example:6081",
              short(o))


VARNISH_F = '%h %t "%m %U%q %H" %s %b "%{User-agent}i"'


def sh_double(text):
    """text as one word in POSIX sh double quotes."""
    return '"' + "".join("\\" + c if c in '"\\$`' else c for c in text) + '"'


def test_varnish_f():
    """varnishncsa -F with %U%q: the URL has no origin, and only a
    --log-format given as the varnishncsa command line says it is
    varnishncsa's (whose URLs are cut at 254 bytes once unescaped)."""
    commands = ["varnishncsa -F '%s'" % VARNISH_F,
                "varnishncsa -n /var/lib/varnish/x -q 'ReqURL ~ \"^/a\"' -F '%s' -a -w /tmp/l" % VARNISH_F,
                "varnishncsa -F%s" % sh_double(VARNISH_F),
                "varnishncsa -F '%%h' -F %s" % sh_double(VARNISH_F)]  # the last -F wins
    cases = []  # (the URL as logged, its length once unescaped)
    for size in (VARNISH_URL - 1, VARNISH_URL, VARNISH_URL + 1):
        url = "/f?q=" + "%41" * ((size - 5) // 3) + "z" * ((size - 5) % 3)
        cases.append((url, size))
    # varnishncsa escapes '"' and '\\' (\" \\ \x..): counted unescaped
    base = "/f?q=" + "b" * (VARNISH_URL - 8)  # 251 bytes
    cases.append(('/\\"x' + base, VARNISH_URL))  # logged 255 bytes, 254 read: cut
    cases.append(('/\\"xy' + base, VARNISH_URL + 1))  # 255 read: not cut
    cases.append(("/\\x41" + base, VARNISH_URL - 1))  # logged 256, 253 read: not cut
    lines = "".join('127.0.0.1 [27/Nov/2026:10:00:00 +0000] "GET %s HTTP/1.1" 200 5 "ua"\n' % u
                    for u, _ in cases).encode()
    for command in commands:
        o = json_lines("varnishncsa command %r" % command, ["--log-format", command], lines)
        for (url, n), obj in zip(cases, o):
            check("%s: URL of %d bytes read: truncated %s" % (command[:40], n, n == VARNISH_URL),
                  obj.get("truncated", False) is (n == VARNISH_URL) and "unparsed" not in obj and
                  obj.get("method") == "GET", short(obj))
        check("%s: one object per line" % command[:40], len(o) == len(cases), str(len(o)))
    # the bare format string does not say whose it is: nothing flagged
    o = json_lines("bare varnishncsa format", ["--log-format", VARNISH_F], lines)
    check("bare -F format: no URL flagged", len(o) == len(cases) and
          all("truncated" not in x and "unparsed" not in x for x in o), short(o))
    for command, why in (("varnishncsa -n x", "no -F format"), ("varnishncsa -f /etc/f", "-f FILE"),
                         ("varnishncsa -F '%h", "no closing quote"), ("varnishncsa -F ''", "empty")):
        p = test_logs.run(["--log-format", command])
        check("refused: %r (%s)" % (command, why), p.returncode == 2 and why.encode() in p.stderr,
              "exit %d: %s" % (p.returncode, short(p.stderr)))


def squid_entry(url, t="1764244800.123", status=200, ctype="text/html"):
    return "%s %6d 192.0.2.3 TCP_MISS/%03d 5120 GET %s - HIER_DIRECT/203.0.113.5 %s" % (
        t, 27, status, url, ctype)


def test_squid():
    """A NUL ends a squid entry squid cut: the text after it is the next
    entry's record, on a line of its own in every output."""
    rng = random.Random(SEED + 2)
    for i in range(8):
        long_url = "http://origin.example/" + "".join(
            rng.choice(["a", "%41", "%C3%A9", "b/"]) for _ in range(4000))
        cut = squid_entry(long_url).encode()[:SQUID_CUT]
        nxt = squid_entry("http://origin.example/next%%20one?n=%d" % i, "1764244801.000", 404,
                          "text/plain")
        after = squid_entry("http://origin.example/after")
        ends = rng.choice([b"\n", b"\r\n"])
        data = cut + b"\0" + nxt.encode() + ends + after.encode() + ends
        for args in ([], ["--format", "squid"]):
            name = "squid cut %d %s (seed %d)" % (i, args, SEED)
            objs = json_lines(name, args, data)
            if not check(name + ": three records", len(objs) == 3, short(objs)):
                continue
            a, b, c = objs
            url = cut.decode()[cut.decode().index("GET ") + 4:]
            path, _ = expect_url(url[len("http://origin.example"):])
            check(name + ": the cut entry, truncated", a.get("format") == "squid" and
                  a.get("truncated") is True and a.get("status") == 200 and
                  a.get("origin") == "http://origin.example" and a.get("path") == path and
                  "content_type" not in a, short(a))
            check(name + ": the entry after the NUL, whole", "truncated" not in b and
                  b.get("path") == "/next one" and b.get("query") == [["n", str(i)]] and
                  b.get("status") == 404 and b.get("content_type") == "text/plain" and
                  b.get("time") == "1764244801.000", short(b))
            check(name + ": the next line", "truncated" not in c and c.get("path") == "/after",
                  short(c))
        # line output: one line per record, the NUL not written
        out = run_ok("squid cut line output", [], data).stdout
        lines = out.split(b"\n")
        check("squid cut line output: three lines, no NUL", out.count(b"\n") == 3 and
              b"\0" not in out and b"\\x00" not in out and lines[1].startswith(b"1764244801.000"),
              short(out[-300:]))
        # the NUL then the newline (no entry after it): one record
        data = cut + b"\0\n" + after.encode() + b"\n"
        objs = json_lines("squid cut, NUL then newline", [], data)
        check("squid cut, NUL then newline: two records", len(objs) == 2 and
              objs[0].get("truncated") is True and objs[1].get("path") == "/after", short(objs))

    # --stats: the NUL-ended entry is a line; one truncated record
    data = cut + b"\0" + nxt.encode() + b"\n"
    err = run_ok("squid --stats", ["--stats"], data).stderr.decode()
    check("squid --stats: 2 lines, 1 truncated, 0 unparsed",
          "lines:              2\n" in err and "truncated records:  1 " in err and
          "unparsed lines:     0\n" in err, err)

    # a NUL elsewhere is not squid's cut: the line as before (not split)
    bad = squid_entry("http://origin.example/a\0b") + "\n"
    out = run_ok("squid NUL elsewhere", [], bad.encode()).stdout
    check("squid NUL elsewhere: one line", out.count(b"\n") == 1, short(out))
    # holes of NULs (a crash's) are still taken out by the input layer
    hole = b"\0" * 100
    data = (squid_entry("http://origin.example/1") + "\n").encode() + hole + (
        squid_entry("http://origin.example/2") + "\n").encode()
    result = test_logs.run(["--json"], data)
    objs = [json.loads(line) for line in result.stdout.decode().splitlines()]
    check("squid NUL hole: reported, skipped, two records",
          b"100 NUL bytes" in result.stderr and [o.get("path") for o in objs] == ["/1", "/2"],
          short(objs) + short(result.stderr))


def test_outputs():
    """The flag in the other outputs: --fields truncated (TSV, CSV), --stats."""
    cut_line = HEAD + '"GET /a%41?q=1 HTTP/1.1" 200 5 "-" "Mozilla/5.0 (X'
    whole = HEAD + '"GET /w HTTP/1.1" 200 5 "-" "curl"'
    s414 = HEAD + '"GET /long" 414 0 "-" "-"'
    data = "\n".join([whole, cut_line, s414, "not a log line \"x"]).encode() + b"\n"
    tsv = run_ok("tsv truncated", ["--tsv", "--fields", "truncated,path,agent"], data).stdout
    check("--tsv --fields truncated", tsv.decode().split("\n") == [
        "false\t/w\tcurl", "true\t/aA\tMozilla/5.0 (X", "true\t/long\t\\N", "\\N\t\\N\t\\N", ""],
        short(tsv))
    csv_out = run_ok("csv truncated", ["--csv", "--fields", "format,truncated,path"], data).stdout
    check("--csv --fields truncated", csv_out.decode().split("\r\n")[:4] == [
        "combined,false,/w", "combined,true,/aA", "combined,true,/long", "unparsed,,"] or
        csv_out.decode().split("\n")[:4] == [
        "combined,false,/w", "combined,true,/aA", "combined,true,/long", "unparsed,,"],
        short(csv_out))
    for args in ([], ["--json"], ["--tsv"]):
        err = run_ok("--stats " + " ".join(args), ["--stats"] + args, data).stderr.decode()
        check("--stats %s: 2 truncated, 1 unparsed" % args,
              "truncated records:  2 " in err and "unparsed lines:     1\n" in err, err)
    out = run_ok("line output", [], data).stdout.decode()
    check("line output of a cut line: decoded, one line",
          out.split("\n")[1] == HEAD + '"GET /aA?q=1 HTTP/1.1" 200 5 "-" "Mozilla/5.0 (X', short(out))


def test_whole():
    """Lines that are not cut records: no flag; unparsed stays unparsed."""
    unparsed = [
        'garbage "x',
        '192.0.2.7 - - [27/Nov/2026:12:00',  # cut in the time: not inside a quoted field
        '192.0.2.7 - - [27/Nov/2026:12:00:00 +0000] "GET /a"b HTTP/1.1" 2x0 5',  # closed, bad
        '"GET /only-a-request',
        # varnishncsa -F '%h %t "%m %U%q %H" %s %b %D "%{Referer}i" "%{User-agent}i" "%{X-Forwarded-For}i"'
        # is no format of pct's: the haproxy template must not take it as cut
        # (its bare fields would hold quotes, its request nothing)
        '127.0.0.1 [27/Nov/2026:19:29:18 +0000] "GET /_00001_/q?v=%00%01 HTTP/1.1" 200 3 3525 '
        '"c1\\xc2\\x80" "end\\\\\\"" "203.0.113.1, 198.51.100.2, 127.0.0.1"',
    ]
    for line in unparsed:
        o = json_lines("unparsed %r" % line, [], (line + "\n").encode())
        check("not cut, stays unparsed: %r" % line, o == [{"unparsed": line}], short(o))
    # a line that ends right after a quote: no cut field (as before: common)
    line = HEAD + '"GET /a HTTP/1.1" 200 5 "-" "'
    o = json_lines("ends with a quote", [], (line + "\n").encode())
    check("ends with a quote: not truncated", o and "truncated" not in o[0] and
          o[0].get("format") == "common", short(o))
    data = log_lines(50, SEED)
    objs = json_lines("generated combined lines", [], data)
    check("generated combined lines: none truncated",
          len(objs) == 50 and all("truncated" not in o and o.get("format") == "combined" for o in objs),
          short([o for o in objs if "truncated" in o][:2]))


GROUPS = {"quoted": test_quoted, "status": test_status, "varnish": test_varnish,
          "varnish-f": test_varnish_f,
          "squid": test_squid, "outputs": test_outputs, "whole": test_whole}


def set_pct(path):
    test_logs.set_pct(path)


if __name__ == "__main__":
    print("seed %d (PCT_TEST_SEED to replay)" % SEED)
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
