#!/usr/bin/env python3
"""Tests of Squid's built-in `combined` logformat (the squid_combined format):

  %>a %[ui %[un [%tl] "%rm %ru HTTP/%rv" %>Hs %<st "%{Referer}>h" "%{User-Agent}>h" %Ss:%Sh

Squid writes '"' and '\\' inside its quoted fields as they are (no escapes):
a '"' inside a field is data, and a literal "\\x22" or "\\t" in a URL is
text, not an escape (Apache's convention is not Squid's).

  generated  squid combined lines with raw '"' and '\\' (and literal \\x22,
             \\t) in the URL, the Referer and the User-Agent: auto mode and
             --format squid_combined
  auto       auto mode on a mixed file: Apache's combined lines stay
             combined (their escapes undone), Squid's are squid_combined;
             the writers agree (--tsv columns)
  real       lines of a real squid 5.7 log (Debian 12, 127.0.0.1), fields
             read off by hand from the requests sent

Usage: test_logs_squid.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Expected values come from the line written: the URL decoded with
urllib.parse (no log escaping to undo: Squid has none). PCT_TEST_SEED
replays the random lines.
"""
import os
import random
import sys
import urllib.parse

import test_logs
from clitest import check, run_groups, short
from test_logs import json_lines, run_ok

SEED = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
os.environ["PCT_TEST_SEED"] = str(SEED)
HEAD = '192.0.2.7 - %s [27/Nov/2026:12:00:00 +0000] '
TAGS = ["TCP_MISS:HIER_DIRECT", "TCP_HIT:HIER_NONE", "NONE_NONE:HIER_NONE",
        "TCP_MISS_ABORTED:FIRSTUP_PARENT", "TCP_DENIED:HIER_NONE", "TCP_REFRESH_MODIFIED:HIER_DIRECT"]
# Pieces of a URL: raw quotes and backslashes, literal Apache escapes
# (text in a Squid log), percent escapes. No space (a request target has
# none), no '+', '&', '=' or %2F escaped, so decoding is unquote().
URL_PIECES = ['"', "\\", "\\x22", "\\t", "\\\\", '\\"', "%22", "%5C", "%20", "%C3%A9", "a", "z", "0",
              "-", "_", ".", "~", "/"]
# Pieces of a header: the same, and spaces (never a space after a '"': a
# field "a" "b" could then be two fields, which no reader can tell apart).
TEXT_PIECES = ['"', "\\", "\\x22", "\\t", "\\\\", '\\"', "%22", "a", "b", "Z", "9", " ", "/", "(", ")",
               ";", "\u00e9"]


def pieces(rng, choices, lo, hi):
    text = "".join(rng.choice(choices) for _ in range(rng.randrange(lo, hi)))
    while '" ' in text:
        text = text.replace('" ', '"x')
    return text


def header(rng):
    text = pieces(rng, TEXT_PIECES, 1, 12).strip(" ")
    return text if text not in ("", "-") else "ua"


def squid_line(rng):
    """A squid combined line and the fields expected of it."""
    path = "/" + pieces(rng, URL_PIECES, 1, 14)
    query = pieces(rng, URL_PIECES, 1, 8).replace("/", "") if rng.random() < 0.5 else None
    target = "http://www.example.com" + path + ("?k=" + query if query is not None else "")
    user = rng.choice(["-", "alice"])
    referer, agent, tags = header(rng), header(rng), rng.choice(TAGS)
    status, size = rng.choice([200, 304, 403, 503]), rng.randrange(0, 99999)
    line = (HEAD % user) + '"GET %s HTTP/1.1" %d %d "%s" "%s" %s' % (target, status, size, referer,
                                                                        agent, tags)
    want = {"format": "squid_combined", "remote": "192.0.2.7", "user": None if user == "-" else user,
            "method": "GET", "origin": "http://www.example.com",
            "path": urllib.parse.unquote(path), "protocol": "HTTP/1.1", "status": status,
            "bytes": size, "referer": referer, "agent": agent,
            "cache_result": tags.split(":")[0], "hierarchy": tags.split(":")[1],
            "query": [["k", urllib.parse.unquote(query)]] if query is not None else []}
    return line, want


def differences(obj, want):
    return {k: (obj.get(k, "(absent)"), v) for k, v in want.items() if obj.get(k, "(absent)") != v}


def test_generated():
    """Raw quotes and backslashes in every quoted field: each value as Squid
    wrote it (the URL percent-decoded), in auto mode and named."""
    rng = random.Random(SEED)
    lines = [squid_line(rng) for _ in range(300)]
    data = "".join(line + "\n" for line, _ in lines).encode()
    for mode, args in (("auto", []), ("--format squid_combined", ["--format", "squid_combined"])):
        objs = json_lines("generated " + mode, args, data)
        if not check("generated %s: one record a line" % mode, len(objs) == len(lines), str(len(objs))):
            continue
        bad = [(line, differences(o, want)) for (line, want), o in zip(lines, objs) if differences(o, want)]
        check("generated %s: every field as Squid wrote it (%d lines)" % (mode, len(lines)), not bad,
              "%d wrong, e.g. %s" % (len(bad), short(bad[:1], 600)))
    # the cases the issue names, each alone
    for path, want_path in (('/a"b', '/a"b'), ("/r\\x22q", "/r\\x22q"), ("/t\\tu", "/t\\tu"),
                            ("/e\\", "/e\\"), ('/q"', '/q"'), ("/p%22%5C", '/p"\\')):
        for referer, agent in (('q"uote', '{"json":"x\\u0041"}'), ('end\\"', 'lit\\x22eral'),
                               ("back\\slash", 'tab\\there"')):
            line = HEAD % "-" + '"GET %s HTTP/1.0" 200 5 "%s" "%s" TCP_MISS:HIER_DIRECT' % (
                path, referer, agent)
            for args in ([], ["--format", "squid_combined"]):
                o = json_lines("case %r %s" % (line, args), args, (line + "\n").encode())
                want = {"format": "squid_combined", "path": want_path, "referer": referer,
                        "agent": agent, "protocol": "HTTP/1.0", "status": 200, "bytes": 5,
                        "cache_result": "TCP_MISS", "hierarchy": "HIER_DIRECT"}
                check("case %r %s" % (line, args), len(o) == 1 and not differences(o[0], want),
                      short(o and differences(o[0], want), 400))


def test_auto():
    """A mixed file: Apache's combined lines keep Apache's convention (their
    \\" and \\x22 undone) and stay combined; Squid's lines are
    squid_combined; lines without Squid's last field are not."""
    apache = HEAD % "-" + '"GET /a\\"b\\x22c HTTP/1.1" 200 5 "r\\"ef" "ag\\\\ent"'
    apache_trailing = HEAD % "-" + '"GET /a\\x22 HTTP/1.1" 200 5 "-" "ua" rt=0.005 "tcp_miss:hier"'
    squid = HEAD % "-" + '"GET /a\\"b\\x22c HTTP/1.1" 200 5 "r\\"ef" "ag\\\\ent" TCP_MISS:HIER_DIRECT'
    squid_raw = HEAD % "-" + '"GET /a"b HTTP/1.1" 200 5 "r"ef" "a"g" NONE_NONE:HIER_NONE'
    lines = [apache, squid, apache_trailing, squid_raw, apache]
    data = "".join(x + "\n" for x in lines).encode()
    o = json_lines("mixed", [], data)
    if not check("mixed: one record a line", len(o) == len(lines), short(o)):
        return
    want = [{"format": "combined", "path": '/a"b"c', "referer": 'r"ef', "agent": "ag\\ent"},
            {"format": "squid_combined", "path": '/a\\"b\\x22c', "referer": 'r\\"ef',
             "agent": "ag\\\\ent", "cache_result": "TCP_MISS", "hierarchy": "HIER_DIRECT"},
            {"format": "combined", "path": '/a"', "agent": "ua"},
            {"format": "squid_combined", "path": '/a"b', "referer": 'r"ef', "agent": 'a"g',
             "cache_result": "NONE_NONE", "hierarchy": "HIER_NONE"},
            {"format": "combined", "path": '/a"b"c'}]
    for i, (obj, w) in enumerate(zip(o, want)):
        check("mixed line %d: %r" % (i + 1, lines[i]), not differences(obj, w), short(differences(obj, w)))
    # TSV: the same records, one row each, the same column count
    tsv = run_ok("mixed --tsv", ["--tsv"], data).stdout.decode("utf-8").splitlines()
    check("mixed --tsv: a row a line, constant columns",
          len(tsv) == len(lines) and len({row.count("\t") for row in tsv}) == 1, short(tsv))
    check("mixed --tsv: squid's path as written",
          len(tsv) == len(lines) and tsv[1].split("\t")[0] == "squid_combined" and
          "/a\\\\\"b\\\\x22c" in tsv[1], short(tsv[1:2]))
    # --stats counts the format by name
    r = run_ok("mixed --stats", ["--stats"], data)
    check("mixed --stats: 2 squid_combined lines",
          "format squid_combined 2 lines" in " ".join(r.stderr.decode().split()), short(r.stderr))


# Lines of /work/notes/samples/squid-combined.log (squid 5.7, Debian 12),
# with the request that was sent (requests.txt) and the fields read off it.
REAL = [
    (b'127.0.0.1 - - [27/Nov/2026:20:23:36 +0000] "- error:transaction-end-before-headers NONE/0.0" 0 0 '
     b'"-" "-" NONE_NONE:HIER_NONE',
     {"format": "squid_combined", "path": None, "status": 0, "bytes": 0, "referer": None, "agent": None,
      "request": "- error:transaction-end-before-headers NONE/0.0", "cache_result": "NONE_NONE",
      "hierarchy": "HIER_NONE"}),
    # Referer: q"uote, User-Agent: "  spaced  out  " (squid trims it)
    (b'127.0.0.1 - - [27/Nov/2026:20:23:36 +0000] "GET http://127.0.0.1/_00007_/x%03y?k=%03 HTTP/1.1" '
     b'200 207 "q"uote" "spaced  out" TCP_MISS:FIRSTUP_PARENT',
     {"format": "squid_combined", "origin": "http://127.0.0.1", "path": "/_00007_/x\x03y",
      "query": [["k", "\x03"]], "protocol": "HTTP/1.1", "status": 200, "bytes": 207,
      "referer": 'q"uote', "agent": "spaced  out", "cache_result": "TCP_MISS",
      "hierarchy": "FIRSTUP_PARENT"}),
    # Referer: end\"  User-Agent: {"json":"x\u0041"}
    (b'127.0.0.1 - - [27/Nov/2026:20:23:36 +0000] "GET http://127.0.0.1/_00009_/x%05y?k=%05 HTTP/1.1" '
     b'200 207 "end\\"" "{"json":"x\\u0041"}" TCP_MISS:FIRSTUP_PARENT',
     {"format": "squid_combined", "path": "/_00009_/x\x05y", "referer": 'end\\"',
      "agent": '{"json":"x\\u0041"}'}),
    # GET /_00280_/r\x?k=\v, Referer: back\slash, User-Agent: tab<TAB>here
    (b'127.0.0.1 - - [27/Nov/2026:20:23:36 +0000] "GET http://127.0.0.1/_00280_/r\\x?k=\\v HTTP/1.1" '
     b'200 207 "back\\slash" "tab\there" TCP_MISS:FIRSTUP_PARENT',
     {"format": "squid_combined", "path": "/_00280_/r\\x", "query": [["k", "\\v"]],
      "referer": "back\\slash", "agent": "tab\there"}),
    # GET /_00305_/r"x?q=", Referer: café € (UTF-8), User-Agent: back\slash
    (b'127.0.0.1 - - [27/Nov/2026:20:23:36 +0000] "GET http://127.0.0.1/_00305_/r"x?q=" HTTP/1.1" '
     b'200 207 "caf\xc3\xa9 \xe2\x82\xac" "back\\slash" TCP_MISS:FIRSTUP_PARENT',
     {"format": "squid_combined", "path": '/_00305_/r"x', "query": [["q", '"']],
      "referer": "caf\u00e9 \u20ac", "agent": "back\\slash", "hierarchy": "FIRSTUP_PARENT"}),
]


def test_real():
    """Real squid lines: auto mode and --format squid_combined."""
    data = b"".join(line + b"\n" for line, _ in REAL)
    for args in ([], ["--format", "squid_combined"]):
        o = json_lines("real %s" % args, args, data)
        if not check("real %s: one record a line" % args, len(o) == len(REAL), short(o)):
            continue
        for (line, want), obj in zip(REAL, o):
            check("real %s: %r" % (args, line[:90]), not differences(obj, want),
                  short(differences(obj, want), 400))


GROUPS = {"generated": test_generated, "auto": test_auto, "real": test_real}


def set_pct(path):
    test_logs.set_pct(path)


if __name__ == "__main__":
    print("seed %d (PCT_TEST_SEED to replay)" % SEED)
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
