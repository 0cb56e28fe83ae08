#!/usr/bin/env python3
"""Tests of `pct logs` reading each server's own escaping, and request lines
as servers accept them.

Lines are generated here: a target as a client sent it (bytes), written
into a line escaped the way the server escapes it (the functions below
follow each server's source: HAProxy's '#XX' encoding maps, Apache's
ap_escape_logitem, nginx's ngx_http_log_escape, JSON), then read back by
pct. Every expected value is the target the client sent, decoded here
independently (urllib's percent-decoding; '%2F' kept, as pct does by
default), never pct's own output.

Usage: test_logs_escaping.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)
Random groups print their seed; PCT_TEST_SEED replays one.
"""
import csv
import io
import json
import os
import random
import re
import sys
import urllib.parse

import test_logs
from clitest import check, run_groups, short
from test_logs import run_ok


def seeded(name):
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("%s: seed %d (PCT_TEST_SEED repeats it)" % (name, seed))
    return random.Random(seed)


# --------------------------------------------------------------------------
# Each server's escaping, as its source writes it
# --------------------------------------------------------------------------
def haproxy_escape(raw, header=False):
    """HAProxy's url_encode_map (request line) or hdr_encode_map (captured
    headers): '"', '#', bytes < 0x20 and >= 0x7f (and '{|}' in headers) as
    '#' and two upper-case hex digits. A backslash is written as it is."""
    special = b'"#{|}' if header else b'"#'
    return b"".join(b"#%02X" % c if c < 0x20 or c >= 0x7F or c in special else bytes([c]) for c in raw)


APACHE_LETTERS = {0x08: b"\\b", 0x0A: b"\\n", 0x0D: b"\\r", 0x09: b"\\t", 0x0B: b"\\v",
                  0x22: b'\\"', 0x5C: b"\\\\"}


def apache_escape(raw):
    """ap_escape_logitem (and lighttpd's accesslog escaping): \\" \\\\ \\b \\n
    \\r \\t \\v, other controls and bytes >= 0x7f as \\xhh."""
    return b"".join(APACHE_LETTERS.get(c) or (b"\\x%02x" % c if c < 0x20 or c >= 0x7F else bytes([c]))
                    for c in raw)


def nginx_escape(raw):
    """ngx_http_log_escape (escape=default): '"', '\\\\', bytes < 0x20 and
    >= 0x7f as \\xHH."""
    return b"".join(b"\\x%02X" % c if c < 0x20 or c >= 0x7F or c in b'"\\' else bytes([c]) for c in raw)


# --------------------------------------------------------------------------
# The independent decoding: what pct's JSON holds for a target
# --------------------------------------------------------------------------
def decoded_path(raw):
    """A target's path (up to its first '?') percent-decoded, '%2F' kept as
    written, ill-formed UTF-8 replaced."""
    path = raw.split(b"?", 1)[0]
    pieces = re.split(rb"(%2[fF])", path)
    out = b"".join(p if re.fullmatch(rb"%2[fF]", p) else urllib.parse.unquote_to_bytes(p) for p in pieces)
    return out.decode("utf-8", "replace")


def decoded_query(raw):
    """A target's query as [[name, value], ...] (WHATWG urlencoded: '&',
    then the first '=', '+' a space), or [] with none."""
    if b"?" not in raw:
        return []
    query = raw.split(b"?", 1)[1]
    out = []
    for part in query.split(b"&"):
        if not part:
            continue
        name, _, value = part.partition(b"=")
        out.append([urllib.parse.unquote_to_bytes(x.replace(b"+", b" ")).decode("utf-8", "replace")
                    for x in (name, value)])
    return out


def random_target(rng, alphabet, length=24):
    """A target a client may send: '/' then bytes of alphabet, percent escapes
    (some malformed), '+', and sometimes a query; it does not end with a tab
    (which would be a blank of the request line, as a space is)."""
    out = bytearray(b"/")
    for _ in range(rng.randrange(1, length)):
        r = rng.random()
        if r < 0.15:
            out += rng.choice([b"%22", b"%C3%A9", b"%2F", b"%zz", b"%", b"%20", b"%5C", b"%23"])
        else:
            out.append(rng.choice(alphabet))
    if rng.random() < 0.6:
        out += b"?" + b"&".join(b"k%d=%s" % (i, bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 6))))
                                for i in range(rng.randrange(1, 4)))
    if out.endswith(b"\t"):
        out += b"x"
    return bytes(out)


def json_objects(name, out):
    objs = []
    for i, text in enumerate(out.splitlines()):
        try:
            objs.append(json.loads(text.decode("utf-8")))
        except (ValueError, UnicodeDecodeError) as e:
            check(name + " (valid JSON)", False, "line %d: %s: %s" % (i + 1, e, short(text)))
            objs.append({})
    return objs


# --------------------------------------------------------------------------
# HAProxy: #XX in the request line and captured headers, backslash literal
# --------------------------------------------------------------------------
HAPROXY_HEAD = (b"Nov 27 12:28:20 lb1 haproxy[123]: 127.0.0.1:40000 [27/Nov/2026:12:28:20.123] "
                b"fe be/srv 0/0/0/1/1 200 512 - - ---- 1/1/0/0/0 0/0 ")


def haproxy_line(target, header=b"x"):
    return (HAPROXY_HEAD + b"{" + haproxy_escape(header, header=True) + b"} \"GET "
            + haproxy_escape(target) + b' HTTP/1.1"\n')


def test_haproxy():
    """A client's '"' is #22 in HAProxy's log, a tab #09, a '#' #23; its
    backslashes are written as they are: \\x22 is four bytes of the target."""
    cases = [(b'/r"x', '/r"x'), (b"/a\\x22b", "/a\\x22b"), (b"/h#x%23y", "/h#x#y"),
             (b'/q?a="1"&b=#', None), (b"/t\tab", "/t\tab"), (b"/b\\\\s", "/b\\\\s")]
    data = b"".join(haproxy_line(t, header=b'ua "x" #1 \\q') for t, _ in cases)
    objs = json_objects("haproxy json", run_ok("haproxy json", ["--format", "haproxy", "--json"], data).stdout)
    for (target, want), obj in zip(cases, objs):
        check("haproxy path of %r" % target, obj.get("path") == decoded_path(target),
              "got %r, want %r" % (obj.get("path"), decoded_path(target)))
        if want is not None:
            check("haproxy path of %r (by hand)" % target, obj.get("path") == want, "got %r" % obj.get("path"))
        check("haproxy query of %r" % target, obj.get("query") == decoded_query(target),
              "got %r, want %r" % (obj.get("query"), decoded_query(target)))
        check("haproxy captured header of %r" % target, obj.get("request_header_1") == 'ua "x" #1 \\q',
              "got %r" % obj.get("request_header_1"))
    # TSV and auto detection read it the same way.
    result = run_ok("haproxy tsv", ["--tsv", "--fields", "format,path"], data)
    want = "".join("haproxy\t%s\n" % decoded_path(t).replace("\\", "\\\\").replace("\t", "\\t")
                   for t, _ in cases)
    check("haproxy tsv", result.stdout.decode() == want, "\n got  %r\n want %r" % (result.stdout, want))
    # Line output: the target decoded in place, what #XX stood for escaped
    # as line output escapes it (\" \t \\), never left as #22.
    result = run_ok("haproxy line", ["--format", "haproxy"], haproxy_line(b'/r"x\\y'))
    check("haproxy line output", result.stdout.endswith(b'"GET /r\\"x\\\\y HTTP/1.1"\n'), short(result.stdout))
    # Random targets: every printable byte, '#', '"', '\\', controls.
    rng = seeded("haproxy random")
    alphabet = list(range(0x21, 0x7F)) + [0x09, 0x22, 0x23, 0x5C, 0x5C, 0x01]
    targets = [random_target(rng, alphabet) for _ in range(300)]
    data = b"".join(haproxy_line(t) for t in targets)
    objs = json_objects("haproxy random", run_ok("haproxy random", ["--format", "haproxy", "--json"], data).stdout)
    bad = [(t, o.get("path"), o.get("query")) for t, o in zip(targets, objs)
           if o.get("path") != decoded_path(t) or o.get("query") != decoded_query(t)]
    check("haproxy random targets (%d)" % len(targets), not bad and len(objs) == len(targets),
          "first: %r" % (bad[:1],))


# --------------------------------------------------------------------------
# Apache, lighttpd, Varnish (and nginx, a subset): backslash escapes
# --------------------------------------------------------------------------
def combined_line(logged_request, agent=b"ua", trailing=b""):
    return (b'192.0.2.1 - - [27/Nov/2026:12:00:00 +0000] "' + logged_request + b'" 200 5 "-" "'
            + agent + b'"' + trailing + b"\n")


def test_apache():
    """\\t \\n \\r \\b \\v \\f are undone like \\" \\\\ \\xhh, in the request
    and in the other fields; line output keeps them as written (it used to
    write \\b as \\\\b)."""
    target = b"/c\x08\x0b\x0c\t\n\r?k=\x08v"
    logged = b"GET " + apache_escape(target) + b" HTTP/1.1"
    check("apache escape letters", b"\\b" in logged and b"\\v" in logged and b"\\t" in logged, short(logged))
    formfeed = b"GET /f\\fg HTTP/1.1"  # \f: lighttpd and Varnish
    data = combined_line(logged, agent=b"a\\tb\\bc") + combined_line(formfeed)
    objs = json_objects("apache json", run_ok("apache json", ["--json"], data).stdout)
    check("apache json path", objs[0].get("path") == decoded_path(target),
          "got %r, want %r" % (objs[0].get("path"), decoded_path(target)))
    check("apache json query", objs[0].get("query") == [["k", "\bv"]], "got %r" % objs[0].get("query"))
    check("apache json agent", objs[0].get("agent") == "a\tb\bc", "got %r" % objs[0].get("agent"))
    check("apache json \\f", objs[1].get("path") == "/f\fg", "got %r" % objs[1].get("path"))
    result = run_ok("apache tsv", ["--tsv", "--fields", "path,agent"], data)
    check("apache tsv", result.stdout == b"/c\\x08\\x0b\\x0c\\t\\n\\r\ta\\tb\\x08c\n/f\\x0cg\tua\n",
          short(result.stdout))
    result = run_ok("apache line", [], data)
    check("apache line output keeps the escapes", result.stdout == data, short(result.stdout))
    # Random targets, Apache's and nginx's escaping, through JSON and TSV.
    rng = seeded("backslash random")
    alphabet = list(range(0x21, 0x7F)) + [0x22, 0x5C, 0x5C, 0x09, 0x08, 0x0B, 0x0A, 0x0D, 0x01, 0x7F, 0xC3, 0xA9]
    for name, escape in [("apache", apache_escape), ("nginx", nginx_escape)]:
        targets = [random_target(rng, alphabet) for _ in range(300)]
        data = b"".join(combined_line(b"GET " + escape(t) + b" HTTP/1.1") for t in targets)
        objs = json_objects(name + " random", run_ok(name + " random", ["--json"], data).stdout)
        bad = [(t, o.get("path"), o.get("query")) for t, o in zip(targets, objs)
               if o.get("path") != decoded_path(t) or o.get("query") != decoded_query(t)]
        check("%s random targets (%d)" % (name, len(targets)), not bad and len(objs) == len(targets),
              "first: %r" % (bad[:1],))
        result = run_ok(name + " random tsv", ["--tsv", "--fields", "path"], data)
        want = "".join(tsv_cell(decoded_path(t)) + "\n" for t in targets)
        check("%s random tsv" % name, result.stdout.decode() == want, first_difference(result.stdout.decode(), want))


def tsv_cell(text):
    """A TSV value as pct writes it: \\\\ \\t \\n \\r, other controls (and C1) \\xhh."""
    out = []
    for ch in text:
        c = ord(ch)
        if ch in "\\\t\n\r":
            out.append({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}[ch])
        elif c < 0x20 or c == 0x7F:
            out.append("\\x%02x" % c)
        elif 0x80 <= c <= 0x9F:
            out.append("".join("\\x%02x" % b for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def first_difference(got, want):
    for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines())):
        if a != b:
            return "line %d:\n got  %r\n want %r" % (i + 1, a, b)
    return "%d lines, want %d" % (len(got.splitlines()), len(want.splitlines()))


# --------------------------------------------------------------------------
# One convention per format: the registry row's
# --------------------------------------------------------------------------
def test_conventions():
    """Squid writes a URL as received (nothing to undo: \\x22 is four bytes);
    JSON lines hold JSON escapes; W3C puts '+' for a space in text fields
    but not in URLs."""
    squid = b'1764246500.123    5 192.0.2.7 TCP_MISS/200 512 GET http://example.org/a\\x22b%20c - HIER_DIRECT/192.0.2.8 text/html\n'
    obj = json_objects("squid", run_ok("squid", ["--format", "squid", "--json"], squid).stdout)[0]
    check("squid: no escapes to undo", obj.get("path") == "/a\\x22b c", "got %r" % obj.get("path"))
    # Squid's line for a connection that sent nothing: its URL is no target.
    error = b"1764246500.123      0 192.0.2.7 NONE_NONE/000 0 - error:transaction-end-before-headers - HIER_NONE/- -\n"
    obj = json_objects("squid error", run_ok("squid error", ["--format", "squid", "--json"], error).stdout)[0]
    check("squid: a URL that is no target", (obj.get("path", "(absent)"), obj.get("url")) ==
          (None, "error:transaction-end-before-headers"), short(obj))
    result = run_ok("squid error tsv", ["--format", "squid", "--tsv", "--fields", "path,url"], error)
    check("squid: a URL that is no target (tsv)", result.stdout == b"\\N\terror:transaction-end-before-headers\n",
          short(result.stdout))
    line = json.dumps({"time": "2026-11-27T12:00:00+00:00", "request_uri": "/j\t%20x\\y\u00e9?q=\"1\"",
                       "http_user_agent": "t\tab \"q\""}).encode() + b"\n"
    obj = json_objects("json lines", run_ok("json lines", ["--format", "json", "--json"], line).stdout)[0]
    check("json lines path", obj.get("path") == "/j\t x\\y\u00e9", "got %r" % obj.get("path"))
    check("json lines query", obj.get("query") == [["q", '"1"']], "got %r" % obj.get("query"))
    check("json lines agent", obj.get("http_user_agent") == 't\tab "q"', "got %r" % obj.get("http_user_agent"))
    iis = (b"#Software: Microsoft Internet Information Services 10.0\n"
           b"#Fields: date time cs-method cs-uri-stem cs-uri-query c-ip cs(User-Agent) cs(Referer) sc-status\n"
           b"2026-11-27 12:00:00 GET /a+b q=x+y 192.0.2.5 Mozilla/5.0+(X11;+Linux) http://r.example/a+b 200\n")
    obj = json_objects("w3c", run_ok("w3c", ["--json"], iis).stdout)[2]
    check("w3c agent: '+' is a space", obj.get("agent") == "Mozilla/5.0 (X11; Linux)", "got %r" % obj.get("agent"))
    check("w3c path: '+' as sent", obj.get("path") == "/a+b", "got %r" % obj.get("path"))
    check("w3c query: '+' a form space", obj.get("query") == [["q", "x y"]], "got %r" % obj.get("query"))
    check("w3c referer: '+' as sent", obj.get("referer") == "http://r.example/a+b", "got %r" % obj.get("referer"))


# --------------------------------------------------------------------------
# Request lines as servers accept them
# --------------------------------------------------------------------------
def test_request_line():
    """Runs of spaces (or tabs) between method, target and protocol (nginx
    takes "GET  /x  HTTP/1.1"); the protocol in any case (Varnish serves
    "http/1.1"); spaces after it; a target that holds spaces."""
    cases = [(b"GET  /sp2%20x  HTTP/1.1", "GET", "/sp2 x", "HTTP/1.1"),
             (b"GET /lc%20x http/1.1", "GET", "/lc x", "http/1.1"),
             (b"POST \t /t?a=1\t\tHttp/2.0", "POST", "/t", "Http/2.0"),
             (b"GET /a b HTTP/1.0  ", "GET", "/a b", "HTTP/1.0"),
             (b"GET /nine", "GET", "/nine", None),
             (b"m-search * HTTP/1.1", "m-search", "*", "HTTP/1.1")]
    data = b"".join(combined_line(r) for r, _, _, _ in cases)
    # Through the fast path, and through the record (a trailing field).
    for how, lines in [("fast", data), ("record", data.replace(b'"ua"\n', b'"ua" rt=1\n'))]:
        objs = json_objects("request line " + how, run_ok("request line " + how, ["--json"], lines).stdout)
        for (request, method, path, protocol), obj in zip(cases, objs):
            got = (obj.get("method"), obj.get("path"), obj.get("protocol"))
            check("request line %s %r" % (how, request), got == (method, path, protocol) and "request" not in obj,
                  "got %r, want %r" % (got, (method, path, protocol)))
        result = run_ok("request line tsv " + how, ["--tsv", "--fields", "method,path,protocol"], lines)
        want = "".join("%s\t%s\t%s\n" % (m, p.replace("\t", "\\t"), pr or "\\N") for _, m, p, pr in cases)
        check("request line tsv " + how, result.stdout.decode() == want, first_difference(result.stdout.decode(), want))
    # Tabs as the log escapes them are blanks too (HAProxy, Squid and
    # Varnish take tab-separated requests; nginx and Apache refuse them with
    # 400 and log what they got): the same path whichever server logged it.
    # An escaped backslash before a 't' is no tab.
    tabbed = [([], combined_line(b"GET\\x09/q%20t\\x09HTTP/1.1"), ("GET", "/q t", "HTTP/1.1")),
              ([], combined_line(b"GET\\t/q%20t\\t\\tHTTP/1.1\\t"), ("GET", "/q t", "HTTP/1.1")),
              ([], combined_line(b"GET /a\\\\t HTTP/1.1"), ("GET", "/a\\t", "HTTP/1.1")),
              ([], combined_line(b"GET /a\\\\x09 HTTP/1.1"), ("GET", "/a\\x09", "HTTP/1.1")),
              (["--format", "haproxy"], HAPROXY_HEAD + b'{x} "GET#09/q%20t#09#09HTTP/1.1"\n', ("GET", "/q t", "HTTP/1.1")),
              (["--log-format", "escape=json {\"r\":\"$request\"}"], b'{"r":"GET\\t/q%20t\\u0009HTTP/1.1"}\n',
               ("GET", "/q t", "HTTP/1.1")),
              (["--log-format", "escape=json {\"r\":\"$request\"}"], b'{"r":"GET /a\\\\t HTTP/1.1"}\n',
               ("GET", "/a\\t", "HTTP/1.1"))]
    for args, line, want in tabbed:
        obj = json_objects("tabs %r" % line, run_ok("tabs %r" % line, args + ["--json"], line).stdout)[0]
        got = (obj.get("method"), obj.get("path"), obj.get("protocol"))
        check("tabs %r" % line, got == want, "got %r, want %r" % (got, want))
    result = run_ok("tabs not after a method", ["--json"], combined_line(b"GET\\\\t/q HTTP/1.1"))
    obj = json_objects("tabs not after a method", result.stdout)[0]
    check("an escaped backslash is no blank", (obj.get("path", "(absent)"), obj.get("request")) == (None, "GET\\t/q HTTP/1.1"),
          short(obj))
    # Line output: the target decoded in place, the spaces as they were.
    result = run_ok("request line line", [], combined_line(b"GET  /sp2%20x  http/1.1"))
    check("request line line output", b'"GET  /sp2\\x20x  http/1.1"' in result.stdout, short(result.stdout))
    # Random runs of blanks, cases and targets.
    rng = seeded("request line random")
    lines, want = [], []
    for _ in range(300):
        target = random_target(rng, list(range(0x21, 0x7F)))
        target = target.replace(b'"', b"%22").replace(b"\\", b"%5C")
        blank = lambda: bytes(rng.choice(b" \t") for _ in range(rng.randrange(1, 4)))
        proto = bytes(c ^ 0x20 if rng.random() < 0.5 and chr(c).isalpha() else c for c in b"HTTP/1.1")
        lines.append(combined_line(b"GET" + blank() + target + blank() + proto + blank()[:rng.randrange(0, 2)]))
        want.append(("GET", decoded_path(target), decoded_query(target), proto.decode()))
    objs = json_objects("request line random", run_ok("request line random", ["--json"], b"".join(lines)).stdout)
    bad = [(l, w) for l, w, o in zip(lines, want, objs)
           if (o.get("method"), o.get("path"), o.get("query"), o.get("protocol")) != w]
    check("request line random (%d)" % len(lines), not bad and len(objs) == len(lines), "first: %r" % (bad[:1],))


# --------------------------------------------------------------------------
# A request field that is not a request line: its text, no path, in every
# writer
# --------------------------------------------------------------------------
NOT_REQUESTS = [(b"<BADREQ>", "<BADREQ>"), (b"  ", "  "), (b"\\x16\\x03\\x01\\x02\\x00", "\x16\x03\x01\x02\x00"),
                (b"GET", "GET"), (b"-", None), (b"hello world, this", "hello world, this"),
                (b"- http://localhost HTTP/1.0", "- http://localhost HTTP/1.0"), (b"GET %2Fx HTTP/1.1", "GET %2Fx HTTP/1.1")]


def test_not_request():
    """HAProxy's <BADREQ>, lighttpd's "  ", TLS bytes, a method alone,
    Varnish's "-" for no method, a target in none of HTTP's forms (what
    Apache logs of "hello world, this"; nginx refuses "%2Fx" as a target):
    method, path, protocol null, query [], and the text as "request" in
    JSON (fast path and record alike), TSV and CSV (--fields request)."""
    fast = b"".join(combined_line(r) for r, _ in NOT_REQUESTS)
    record = fast.replace(b'"ua"\n', b'"ua" rt=1\n')
    for how, data in [("fast", fast), ("record", record)]:
        objs = json_objects("not a request " + how, run_ok("not a request " + how, ["--json"], data).stdout)
        for (logged, text), obj in zip(NOT_REQUESTS, objs):
            got = [obj.get(k, "(absent)") for k in ("method", "path", "query", "protocol", "request")]
            check("not a request %s %r" % (how, logged), got == [None, None, [], None, text],
                  "got %r" % got)
            keys = list(obj)
            check("not a request %s %r: key order" % (how, logged),
                  keys[keys.index("method"):keys.index("method") + 5] == ["method", "path", "query", "protocol", "request"],
                  "keys %r" % keys)
        for mode, sep in [("--tsv", "\t"), ("--csv", ",")]:
            result = run_ok("not a request %s %s" % (how, mode), [mode, "--fields", "method,path,query,protocol,request"], data)
            if mode == "--tsv":
                rows = [line.split("\t") for line in result.stdout.decode().splitlines()]
                want = [["\\N"] * 4 + [tsv_cell(text) if text is not None else "\\N"] for _, text in NOT_REQUESTS]
            else:
                rows = list(csv.reader(io.StringIO(result.stdout.decode())))
                # CSV escapes a value as TSV does, then quotes it (the reader unquotes)
                want = [[""] * 4 + [tsv_cell(text) if text is not None else ""] for _, text in NOT_REQUESTS]
            check("not a request %s %s" % (how, mode), rows == want, "got %r, want %r" % (rows, want))
    # Line output: written as it was, nothing decoded.
    result = run_ok("not a request line", [], fast)
    check("not a request line output", result.stdout == fast, short(result.stdout))
    # A format with $request_method too: the request's method is still null
    # in every writer (the other "method" goes to JSON's "extra").
    fmt = '$remote_addr "$request" $request_method $status'
    data = b'192.0.2.9 "<BADREQ>" GET 400\n'
    obj = json_objects("badreq method", run_ok("badreq method", ["--log-format", fmt, "--json"], data).stdout)[0]
    check("not a request, $request_method: json", (obj.get("method", "(absent)"), obj.get("path", "(absent)"),
          obj.get("extra")) == (None, None, ["method=GET"]), short(obj))
    result = run_ok("badreq method tsv", ["--log-format", fmt, "--tsv", "--fields", "method,path,request"], data)
    check("not a request, $request_method: tsv", result.stdout == b"\\N\t\\N\t<BADREQ>\n", short(result.stdout))
    # HAProxy's own <BADREQ> line.
    badreq = HAPROXY_HEAD + b'{x} "<BADREQ>"\n'
    obj = json_objects("haproxy badreq", run_ok("haproxy badreq", ["--format", "haproxy", "--json"], badreq).stdout)[0]
    check("haproxy <BADREQ>", (obj.get("path", "(absent)"), obj.get("request")) == (None, "<BADREQ>"), short(obj))


# --------------------------------------------------------------------------
# --log-format: the template inherits its server's convention
# --------------------------------------------------------------------------
def nginx_json_format(uri_first=False):
    """An nginx log_format directive with escape=json, as nginx.conf writes it."""
    request = ['"request":"$request",', '"request_uri":"$request_uri",']
    if uri_first:
        request.reverse()
    return ("log_format jsonlog escape=json '{\"time\":\"$time_iso8601\",\"remote\":\"$remote_addr\",'\n"
            "    '" + "".join(request) + "\"status\":$status,'\n"
            "    '\"agent\":\"$http_user_agent\"}';")


def nginx_json_line(request, uri, agent, uri_first=False):
    """A line of nginx_json_format: nginx's escape=json writes JSON string
    escapes (ngx_escape_json)."""
    esc = lambda b: json.dumps(b.decode("latin-1"))[1:-1].encode("latin-1")
    members = [b'"request":"' + esc(request) + b'",', b'"request_uri":"' + esc(uri) + b'",']
    if uri_first:
        members.reverse()
    return (b'{"time":"2026-11-27T12:00:00+00:00","remote":"192.0.2.9",' + b"".join(members)
            + b'"status":200,"agent":"' + esc(agent) + b'"}\n')


def test_custom():
    """nginx's log_format with escape=json: JSON escapes undone, the path
    and query once (the request line, which has method and protocol, wins
    over $request_uri, kept in "extra"); escape=default: \\xHH; escape=none:
    nothing; Apache's LogFormat directive: Apache's escapes."""
    target = b'/n\tj"s\\x?q=a%20b\x01'
    data = nginx_json_line(b"GET " + target + b" HTTP/1.1", target, b'tab\there "q" \\ \x01')
    objs = json_objects("nginx escape=json", run_ok("nginx escape=json", ["--log-format", nginx_json_format(), "--json"], data).stdout)
    obj = objs[0]
    check("escape=json path once", obj.get("path") == decoded_path(target) and obj.get("query") == decoded_query(target)
          and obj.get("method") == "GET" and obj.get("protocol") == "HTTP/1.1",
          "got %r" % obj)
    check("escape=json request_uri in extra", obj.get("extra") == ["url=" + target.decode()], "got %r" % obj.get("extra"))
    check("escape=json agent", obj.get("agent") == 'tab\there "q" \\ \x01', "got %r" % obj.get("agent"))
    # $request_uri first: the request line still wins.
    line = nginx_json_line(b"GET " + target + b" HTTP/1.1", target, b"a", uri_first=True)
    obj = json_objects("escape=json uri first", run_ok("escape=json uri first", ["--log-format", nginx_json_format(True), "--json"], line).stdout)[0]
    check("escape=json, $request_uri first", (obj.get("method"), obj.get("path"), obj.get("protocol")) ==
          ("GET", decoded_path(target), "HTTP/1.1"), "got %r" % obj)
    # TSV reads it the same way.
    result = run_ok("escape=json tsv", ["--log-format", nginx_json_format(), "--tsv", "--fields", "method,path,query,agent"], data)
    want = "GET\t%s\tq=a b\\x01\t%s\n" % (tsv_cell(decoded_path(target)), tsv_cell('tab\there "q" \\ \x01'))
    check("escape=json tsv", result.stdout.decode() == want, "got %r, want %r" % (result.stdout, want))
    # Line output of a JSON template is still JSON: the path decoded in a JSON string.
    result = run_ok("escape=json line", ["--log-format", nginx_json_format()], data)
    try:
        back = json.loads(result.stdout)
    except ValueError as e:
        back = {}
        check("escape=json line output is JSON", False, "%s: %s" % (e, short(result.stdout)))
    check("escape=json line output: the target decoded", back.get("request_uri") == '/n\tj"s\\x?q=a b\x01',
          "got %r" % back.get("request_uri"))
    # escape=default (nginx's \xHH only: a lone backslash is a byte) and escape=none.
    fmt = '$remote_addr "$request" $status "$http_user_agent"'
    line = b'192.0.2.9 "GET /d\\x22\\q HTTP/1.1" 200 "a\\x5Cb\\tc"\n'
    for option, path, agent in [("", '/d"\\q', "a\\b\\tc"), ("escape=default ", '/d"\\q', "a\\b\\tc"),
                                ("escape=none ", "/d\\x22\\q", "a\\x5Cb\\tc")]:
        for text in [option + fmt, "log_format main " + option + "'" + fmt + "';"]:
            obj = json_objects("nginx " + text, run_ok("nginx " + text, ["--log-format", text, "--json"], line).stdout)[0]
            check("nginx %r" % text, (obj.get("path"), obj.get("agent")) == (path, agent),
                  "got %r, want %r" % ((obj.get("path"), obj.get("agent")), (path, agent)))
    # A format shaped as a JSON object, given without escape=: nginx's
    # escape=json one (its JSON escapes undone; \\xHH of escape=default too).
    fmt = '{"r":"$request","a":"$http_user_agent"}'
    line = b'{"r":"GET\\t/j%20s\\u0009HTTP/1.1","a":"t\\tab \\"q\\" \\x22x\\x22"}\n'
    obj = json_objects("json-shaped", run_ok("json-shaped", ["--log-format", fmt, "--json"], line).stdout)[0]
    check("json-shaped nginx format", (obj.get("path"), obj.get("agent")) == ("/j s", 't\tab "q" "x"'), short(obj))
    # Apache's LogFormat directive, as httpd.conf writes it.
    apache = 'LogFormat "%h \\"%r\\" %>s \\"%{User-Agent}i\\"" agent'
    line = b'192.0.2.9 "GET /a\\tb\\\\c HTTP/1.1" 200 "x\\by"\n'
    obj = json_objects("apache LogFormat", run_ok("apache LogFormat", ["--log-format", apache, "--json"], line).stdout)[0]
    check("apache LogFormat", (obj.get("path"), obj.get("agent")) == ("/a\tb\\c", "x\by"), "got %r" % obj)
    for bad in ["escape=yaml $remote_addr", "log_format main escape=json '{\"a\":\"$remote_addr\"}", "LogFormat %h",
                "log_format '$remote_addr';", "log_format main '$remote_addr'; x"]:
        result = test_logs.run(["--log-format", bad])
        check("bad --log-format %r (exit 2)" % bad, result.returncode == 2, "exit %d" % result.returncode)


GROUPS = {"haproxy": test_haproxy, "apache": test_apache, "conventions": test_conventions,
          "request-line": test_request_line, "not-request": test_not_request,
          "custom": test_custom}


def set_pct(path):
    test_logs.PCT = path


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
