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
    (some malformed), '+', and sometimes a query."""
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
        check("haproxy captured header of %r" % target, obj.get("captured_headers") == '{ua "x" #1 \\q}',
              "got %r" % obj.get("captured_headers"))
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


GROUPS = {"haproxy": test_haproxy}


def set_pct(path):
    test_logs.PCT = path


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
