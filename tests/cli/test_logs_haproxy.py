#!/usr/bin/env python3
"""Tests of HAProxy's logs in `pct logs` (tools/logs/fmt_haproxy.c and the
haproxy rows of tools/logs/log_format_registry.c): option httplog, httpslog,
tcplog and httplog clf, each with an RFC 3164 syslog prefix (as rsyslog
writes it, and with its <PRI> as received on the wire), an RFC 5424 one, a
<PRI> alone (log stdout format short), or none (log stdout format raw);
captured request and response headers (HAProxy's #XX encoding); the
<BADREQ> and <NOSRV> lines; lines cut at HAProxy's 1024-byte default; and
HAProxy log-format strings given to --log-format (issue 24, defects 1 and
13).

Usage: test_logs_haproxy.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

The lines are written here the way HAProxy 2.6 writes them (src/log.c:
default_http_log_format and the others; a separator is one space, %hr and
%hs write nothing, separator included, when nothing is captured; +Q quotes
text variables only), from values drawn at random (PCT_TEST_SEED replays
them); the expected fields are those values, and paths and queries are
decoded with Python's urllib.parse, never copied from the program's output.
"""
import datetime
import json
import os
import random
import re
import sys
import urllib.parse

import test_logs
from clitest import check, run_groups, short
from test_logs import run, run_ok  # `pct logs ARGS`, as test_logs.py runs it

SEED = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()

HTTPLOG = ("%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc "
           "%sq/%bq %hr %hs %{+Q}r")
HTTPSLOG = (HTTPLOG + " %[fc_err]/%[ssl_fc_err,hex]/%[ssl_c_err]/%[ssl_c_ca_err]/"
            "%[ssl_fc_is_resumed] %[ssl_fc_sni]/%sslv/%sslc")
TCPLOG = "%ci:%cp [%t] %ft %b/%s %Tw/%Tc/%Tt %B %ts %ac/%fc/%bc/%sc/%rc %sq/%bq"


def rng_for(name):
    """The random values of a group, from SEED (printed: PCT_TEST_SEED=N
    draws them again)."""
    print("%s: seed %d (PCT_TEST_SEED repeats it)" % (name, SEED))
    return random.Random("%d %s" % (SEED, name))


# ------------------------------------------------------------------ values

def json_number(text):
    """What --json writes for a number field: a JSON number when the text
    is one without sign or leading zero (RFC 8259 has no '+', and pct keeps
    '-1' and '+5' as written), '-' is null, else the text."""
    if text == "-":
        return None
    if re.fullmatch(r"0|[1-9][0-9]{0,18}", text):
        return int(text)
    return text


def bare_text(text):
    """A text field outside quotes: '-' and nothing are null."""
    return None if text in ("-", "") else text


def encode_segment(rng):
    """A path segment as a client sends it: letters, percent-encoded
    UTF-8 and spaces (no %2F, '#', '"': their decoding is not tested here)."""
    word = "".join(rng.choice("abcxyz019-._~\u00e9\u20ac \u00fc") for _ in range(rng.randint(1, 8)))
    return urllib.parse.quote(word, safe="-._~")


def make_target(rng):
    path = "/" + "/".join(encode_segment(rng) for _ in range(rng.randint(1, 4)))
    if rng.random() < 0.2:  # as a client may send them: HAProxy logs "#22", "\\"
        path += rng.choice(['/r"x', "/b\\s", '/q\\x22"'])
    if rng.random() < 0.6:
        params = []
        for _ in range(rng.randint(1, 3)):
            key = urllib.parse.quote_plus(rng.choice(["q", "k\u00e9y", "a b", "x"]))
            value = urllib.parse.quote_plus("".join(rng.choice("ab \u20ac+&=") for _ in range(3)))
            params.append(key + "=" + value)
        path += "?" + "&".join(params)
    return path


def expect_request(method, target, protocol):
    """method, path, query and protocol of a request line, decoded by
    urllib.parse: the path as it reads, the query by form rules."""
    path, _, query = target.partition("?")
    pairs = [[urllib.parse.unquote_plus(k), urllib.parse.unquote_plus(v)]
             for k, _, v in (p.partition("=") for p in query.split("&") if p)]
    return {"method": method, "path": urllib.parse.unquote(path), "query": pairs,
            "protocol": protocol}


def header_value(rng):
    """A captured header's value as the client sent it: spaces, quotes,
    HAProxy's own separators ('|', '{', '}'), '#', a tab, UTF-8, literal
    backslash escapes."""
    return rng.choice(["www.example.com", "Mozilla/5.0 (X11; Linux x86_64)", "", "curl/8.5.0",
                       "a b  c", "en-US,en;q=0.9", "-", 'say "hi"', "a|b", "{x}", "#22 #zz",
                       "tab\there", "caf\u00e9", "lit\\x22eral \\\" \\"])


def hap_encode(text, header):
    """HAProxy's encoding of a request line (url_encode_map) or a captured
    header (hdr_encode_map): '"', '#', controls and bytes from 0x7f as #XX,
    and '{', '|', '}' too in headers; a backslash as it is."""
    special = b'"#{|}' if header else b'"#'
    return "".join("#%02X" % b if b < 0x20 or b >= 0x7f or b in special else chr(b)
                   for b in text.encode("utf-8"))


def draw(rng):
    """The values of one HAProxy log line."""
    when = datetime.datetime(2026, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                             rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 999) * 1000)
    v = {
        "ci": rng.choice(["192.0.2.%d" % rng.randint(1, 254), "2001:db8::%x" % rng.randint(1, 999),
                          "::1", "10.0.0.7"]),
        "cp": str(rng.randint(1, 65535)),
        "when": when,
        "ft": rng.choice(["http-in", "fe~", "www_front", "f.1"]),
        "b": rng.choice(["static", "app", "be-2"]),
        "s": rng.choice(["srv1", "web_2", "<NOSRV>"]),
        "TR": rng.choice(["0", "12", "-1"]),
        "Tw": rng.choice(["0", "3", "-1"]),
        "Tc": rng.choice(["1", "0", "-1"]),
        "Tr": rng.choice(["69", "0", "-1"]),
        "Ta": rng.choice(["109", "+2500", "0"]),
        "Tt": rng.choice(["110", "+30001"]),
        "ST": rng.choice(["200", "404", "503", "400"]),
        "B": rng.choice(["2750", "0", "+1234"]),
        "CC": rng.choice(["-", "SESSID=abc"]),
        "CS": rng.choice(["-", "SRV=s1"]),
        "tsc": rng.choice(["----", "--NI", "CD--", "PR--", "sH--"]),
        "ts": rng.choice(["--", "CD", "sD"]),
        "ac": str(rng.randint(0, 99)), "fc": str(rng.randint(0, 99)), "bc": str(rng.randint(0, 9)),
        "sc": str(rng.randint(0, 9)), "rc": rng.choice(["0", "1", "+1"]),
        "sq": str(rng.randint(0, 3)), "bq": str(rng.randint(0, 3)),
        "method": rng.choice(["GET", "POST", "HEAD", "OPTIONS"]),
        "target": make_target(rng),
        "protocol": rng.choice(["HTTP/1.1", "HTTP/1.0", "HTTP/2.0"]),
        "hr": None, "hs": None,
        "ssl": [rng.choice(["0", "21"]), rng.choice(["00000000", "-"]), "0", "0",
                rng.choice(["0", "1"]), rng.choice(["www.example.com", "-"]),
                rng.choice(["TLSv1.3", "-"]), rng.choice(["TLS_AES_256_GCM_SHA384", "-"])],
    }
    return v


def date_ms(when):
    """%tr, %t: 27/Nov/2026:12:28:20.123"""
    return "%02d/%s/%04d:%02d:%02d:%02d.%03d" % (when.day, MONTHS[when.month - 1], when.year,
                                                 when.hour, when.minute, when.second,
                                                 when.microsecond // 1000)


def date_gmt(when):
    """%trg: 27/Nov/2026:12:28:20 +0000"""
    return "%02d/%s/%04d:%02d:%02d:%02d +0000" % (when.day, MONTHS[when.month - 1], when.year,
                                                  when.hour, when.minute, when.second)


# ------------------------------------------------------------------ lines

def request_text(v):
    return hap_encode("%s %s %s" % (v["method"], v["target"], v["protocol"]), False)


SEP = object()


def haproxy_join(parts):
    """A line as HAProxy's sess_build_logline writes it: a separator (SEP)
    is one space, written only when the text before it is no separator; a
    variable that writes nothing (None: %hr, %hs, %hrl, %hsl when nothing
    is captured) leaves that as it was, any other text ends it."""
    out, last_is_space = [], True
    for part in parts:
        if part is SEP:
            if not last_is_space:
                out.append(" ")
                last_is_space = True
        elif part is not None:
            out.append(part)
            last_is_space = False
    return "".join(out)


def httplog(v):
    head = "%s:%s [%s] %s %s/%s %s/%s/%s/%s/%s %s %s %s %s %s %s/%s/%s/%s/%s %s/%s" % (
        v["ci"], v["cp"], date_ms(v["when"]), v["ft"], v["b"], v["s"], v["TR"], v["Tw"], v["Tc"],
        v["Tr"], v["Ta"], v["ST"], v["B"], v["CC"], v["CS"], v["tsc"], v["ac"], v["fc"], v["bc"],
        v["sc"], v["rc"], v["sq"], v["bq"])
    hr, hs = (None if b is None else "{" + "|".join(hap_encode(h, True) for h in b) + "}"
              for b in (v["hr"], v["hs"]))
    return haproxy_join([head, SEP, hr, SEP, hs, SEP, '"' + request_text(v) + '"'])


def httpslog(v):
    s = v["ssl"]
    return httplog(v) + " %s/%s/%s/%s/%s %s/%s/%s" % tuple(s)


def tcplog(v):
    return "%s:%s [%s] %s %s/%s %s/%s/%s %s %s %s/%s/%s/%s/%s %s/%s" % (
        v["ci"], v["cp"], date_ms(v["when"]), v["ft"], v["b"], v["s"], v["Tw"], v["Tc"], v["Tt"],
        v["B"], v["ts"], v["ac"], v["fc"], v["bc"], v["sc"], v["rc"], v["sq"], v["bq"])


def clf_quoted(text):
    """A text variable under %{+Q}o: quoted, nothing inside when empty."""
    return '"%s"' % ("" if text == "-" else text)


def httplog_clf(v):
    head = ('%s - - [%s] "%s" %s %s "" "" %s %03d %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s '
            '%s %s') % (
        v["ci"], date_gmt(v["when"]), request_text(v), v["ST"], v["B"], v["cp"],
        v["when"].microsecond // 1000, clf_quoted(v["ft"]), clf_quoted(v["b"]), clf_quoted(v["s"]),
        v["TR"], v["Tw"], v["Tc"], v["Tr"], v["Ta"], v["tsc"], v["ac"], v["fc"], v["bc"], v["sc"],
        v["rc"], v["sq"], v["bq"], clf_quoted(v["CC"]), clf_quoted(v["CS"]))
    # %hrl %hsl: a quoted value each; the line ends with the separator
    # before a list that writes nothing (as HAProxy 2.6.12 writes it)
    hrl, hsl = (None if b is None else " ".join('"%s"' % hap_encode(h, True) for h in b)
                for b in (v["hr"], v["hs"]))
    return haproxy_join([head, SEP, hrl, SEP, hsl])


WRITERS = {"haproxy": httplog, "haproxy_https": httpslog, "haproxy_tcp": tcplog,
           "haproxy_clf": httplog_clf}


def expected(fmt, v):
    """The --json members the line's values give."""
    o = {"format": fmt, "remote": v["ci"], "remote_port": int(v["cp"]),
         "frontend": v["ft"], "backend": v["b"], "server": v["s"],
         "bytes": json_number(v["B"]), "actconn": int(v["ac"]), "feconn": int(v["fc"]),
         "beconn": int(v["bc"]), "srv_conn": int(v["sc"]), "retries": json_number(v["rc"]),
         "srv_queue": int(v["sq"]), "backend_queue": int(v["bq"])}
    if fmt == "haproxy_tcp":
        o.update({"time": date_ms(v["when"]), "time_queue": json_number(v["Tw"]),
                  "time_connect": json_number(v["Tc"]), "time_total": json_number(v["Tt"]),
                  "termination_state": v["ts"]})
        return o
    o.update({"time_request": json_number(v["TR"]), "time_queue": json_number(v["Tw"]),
              "time_connect": json_number(v["Tc"]), "time_response": json_number(v["Tr"]),
              "time_active": json_number(v["Ta"]), "status": int(v["ST"]),
              "termination_state": v["tsc"]})
    o.update(expect_request(v["method"], v["target"], v["protocol"]))
    if fmt == "haproxy_clf":
        o.update({"time": date_gmt(v["when"]), "accept_ms": json_number(
            "%03d" % (v["when"].microsecond // 1000)),
            "request_cookie": "" if v["CC"] == "-" else v["CC"],
            "response_cookie": "" if v["CS"] == "-" else v["CS"]})
        values = (v["hr"] or []) + (v["hs"] or [])  # the lists follow each other
        for i, h in enumerate(values):  # quoted: "" is a value, "-" null as everywhere
            o["captured_header_%d" % (i + 1)] = None if h == "-" else h
        return o
    o.update({"time": date_ms(v["when"]), "request_cookie": bare_text(v["CC"]),
              "response_cookie": bare_text(v["CS"])})
    # one block alone is the request's: HAProxy writes nothing for %hs when
    # nothing is captured, so a lone block reads as %hr
    blocks = [b for b in (v["hr"], v["hs"]) if b is not None]
    for name, block in zip(("request_header", "response_header"), blocks):
        for i, h in enumerate(block):
            o["%s_%d" % (name, i + 1)] = bare_text(h)
    if fmt == "haproxy_https":
        for key, value in zip(["fc_err", "ssl_fc_err", "ssl_c_err", "ssl_c_ca_err",
                               "ssl_fc_is_resumed", "ssl_fc_sni", "ssl_version", "ssl_cipher"],
                              v["ssl"]):
            o[key] = bare_text(value)
    return o


# Syslog prefixes: (name, prefix, the "syslog" field it gives)
def prefixes(rng):
    day = rng.randint(1, 28)
    pid = rng.randint(1, 99999)
    rfc3164 = "Nov %2d 12:28:20 lb1 haproxy[%d]" % (day, pid)
    wire = "<134>Nov %2d 12:28:20 haproxy[%d]" % (day, pid)
    rfc5424 = "<134>1 2026-11-%02dT12:28:20.123456+01:00 lb1 haproxy %d - -" % (day, pid)
    # rsyslog's RSYSLOG_SyslogProtocol23Format: the RFC 3164 message's space kept
    rsyslog_5424 = "<134>1 2026-11-%02dT12:28:20+00:00 localhost haproxy %d - -" % (day, pid)
    rsyslog_iso = "2026-11-%02dT12:28:20.123456+00:00 lb1 haproxy[%d]" % (day, pid)
    return [("raw", "", None), ("rfc3164", rfc3164 + ": ", rfc3164), ("wire", wire + ": ", wire),
            ("rfc5424", rfc5424 + " ", rfc5424), ("rsyslog-iso", rsyslog_iso + ": ", rsyslog_iso),
            ("rsyslog-5424", rsyslog_5424 + "  ", rsyslog_5424),
            ("short", "<134>", "<134>")]


def parse_json(name, out, count):
    lines = out.decode("utf-8").splitlines()
    if not check("%s: %d lines out" % (name, count), len(lines) == count, "%d" % len(lines)):
        return []
    objs = []
    for line in lines:
        try:
            objs.append(json.loads(line))
        except ValueError:
            check("%s: JSON" % name, False, short(line))
            objs.append({})
    return objs


def first_json(out):
    """The first line of out as JSON; {} when it is not."""
    try:
        return json.loads(out.decode("utf-8").splitlines()[0])
    except (ValueError, IndexError):
        return {}


def compare(name, got, want):
    """Every member of want in got, equal; and no member of got missing
    from want but for time_iso and syslog (checked apart)."""
    bad = [(k, got.get(k, "(absent)"), w) for k, w in want.items() if got.get(k, "(absent)") != w]
    return check(name, not bad, "; ".join("%s: got %r, want %r" % b for b in bad[:4]) +
                 " line %s" % short(got.get("unparsed", "")))


# ------------------------------------------------------------------ groups

def captures(rng, fmt):
    """None / request only / both, at random."""
    if fmt == "haproxy_tcp":
        return None, None
    kind = rng.randrange(3)
    hr = [header_value(rng) for _ in range(rng.randint(1, 3))] if kind >= 1 else None
    hs = [header_value(rng) for _ in range(rng.randint(1, 2))] if kind == 2 else None
    if fmt == "haproxy_clf":  # quoted values: no '"' of their own there
        hr = [h for h in hr] if hr else hr
    return hr, hs


def test_variants():
    """Each variant with each prefix, headers captured or not, named with
    --format and found in auto mode: every field as written."""
    rng = rng_for("variants")
    for fmt, writer in WRITERS.items():
        for pname, prefix, syslog in prefixes(rng):
            values, lines = [], []
            for _ in range(40):
                v = draw(rng)
                v["hr"], v["hs"] = captures(rng, fmt)
                values.append(v)
                lines.append(prefix + writer(v))
            data = ("\n".join(lines) + "\n").encode()
            for how in (["--format", fmt], []):
                label = "%s %s %s" % (fmt, pname, "auto" if not how else "named")
                objs = parse_json(label, run_ok(label, how + ["--json"], data).stdout, len(lines))
                for i, (o, v) in enumerate(zip(objs, values)):
                    want = expected(fmt, v)
                    if syslog is not None:
                        want["syslog"] = syslog
                    if not compare("%s line %d" % (label, i + 1), o, want):
                        print("  line: %s" % lines[i])
                        break
                    check("%s line %d: no syslog field" % (label, i + 1),
                          syslog is not None or "syslog" not in o)


def test_defect1():
    """Defect 1: `option httplog clf` through rsyslog (the RFC 3164 prefix):
    2,001 of 2,001 lines were unparsed; every one parses, as haproxy_clf,
    its path decoded."""
    rng = rng_for("defect1")
    lines, values = [], []
    for i in range(2001):
        v = draw(rng)
        v["hr"], v["hs"] = captures(rng, "haproxy_clf")
        values.append(v)
        lines.append("Nov 27 12:28:%02d localhost haproxy[4242]: %s" % (i % 60, httplog_clf(v)))
    data = ("\n".join(lines) + "\n").encode()
    result = run_ok("defect 1", ["--stats", "--tsv", "--fields", "format,path"], data)
    m = re.search(r"^unparsed lines: +(\d+)$", result.stderr.decode(), re.M)
    check("defect 1: no line unparsed", m is not None and m.group(1) == "0", short(result.stderr))
    rows = result.stdout.decode("utf-8").splitlines()
    want = ["haproxy_clf\t" + expect_request(v["method"], v["target"], v["protocol"])["path"]
            .replace("\\", "\\\\") for v in values]
    bad = [i for i, (r, w) in enumerate(zip(rows, want)) if r != w]
    check("defect 1: format and path of every line", len(rows) == 2001 and not bad,
          "%d rows; first bad %s" % (len(rows), bad[:1] and (rows[bad[0]], want[bad[0]])))


def test_clf_auto():
    """An httplog clf line without a prefix (log stdout format raw) reads
    as a combined line with "" "" and fields after it: auto mode takes it as
    haproxy_clf; a combined line with an empty referer and agent stays
    combined."""
    rng = rng_for("clf-auto")
    v = draw(rng)
    line = httplog_clf(v)
    plain = '192.0.2.1 - - [27/Nov/2026:12:28:20 +0000] "GET /a%20b HTTP/1.1" 200 5 "" ""'
    data = (line + "\n" + plain + "\n").encode()
    for mode in (["--json"], ["--tsv", "--fields", "format"], ["--csv", "--fields", "format"]):
        out = run_ok("clf auto %s" % mode[0], mode, data).stdout.decode("utf-8").splitlines()
        got = [first_json(o.encode()).get("format") for o in out] if mode[0] == "--json" else out
        check("clf auto %s: formats" % mode[0], got == ["haproxy_clf", "combined"], repr(got))
    o = first_json(run_ok("clf auto json", ["--json"], data).stdout)
    compare("clf auto: fields", o, expected("haproxy_clf", v))


def test_badreq():
    """<BADREQ> (a request HAProxy could not parse) and <NOSRV> (no server):
    the line parses, its fields as written, the request is no path."""
    lines = [
        '192.0.2.45:33318 [27/Nov/2026:12:28:20.001] http-in http-in/<NOSRV> -1/-1/-1/-1/3 400 '
        '187 - - PR-- 1/1/0/0/0 0/0 "<BADREQ>"',
        'Nov 27 12:28:20 lb1 haproxy[7]: 192.0.2.46:1 [27/Nov/2026:12:28:20.002] fe be/<NOSRV> '
        '0/-1/-1/-1/0 503 216 - - SC-- 2/2/0/0/3 0/0 {www.example.com|} "GET /x HTTP/1.1"',
        '192.0.2.47 - - [27/Nov/2026:12:28:20 +0000] "<BADREQ>" 400 187 "" "" 1234 001 "fe" "fe" '
        '"<NOSRV>" -1 -1 -1 -1 3 PR-- 1 1 0 0 0 0 0 "" "" ',
        # haproxy 2.6.12's own lines for a connection closed before its
        # request (httplog through rsyslog, httplog clf on stdout)
        'Nov 27 19:15:32 localhost haproxy[16808]: 127.0.0.1:57598 [27/Nov/2026:19:15:32.119] fe '
        'fe/<NOSRV> -1/-1/-1/-1/0 400 0 - - CR-- 1/1/0/0/0 0/0 "<BADREQ>"',
        '127.0.0.1 - - [27/Nov/2026:19:15:32 +0000] "<BADREQ>" 400 0 "" "" 39576 486 "fe" "fe" '
        '"<NOSRV>" -1 -1 -1 -1 0 CR-- 2 2 0 0 0 0 0 "" "" ',
    ]
    out = run_ok("badreq", ["--json"], ("\n".join(lines) + "\n").encode()).stdout
    objs = parse_json("badreq", out, len(lines))
    if len(objs) != len(lines):
        return
    compare("badreq httplog rsyslog", objs[3], {
        "format": "haproxy", "syslog": "Nov 27 19:15:32 localhost haproxy[16808]",
        "remote": "127.0.0.1", "remote_port": 57598, "backend": "fe", "server": "<NOSRV>",
        "status": 400, "termination_state": "CR--", "method": None})
    compare("badreq clf stdout", objs[4], {
        "format": "haproxy_clf", "remote": "127.0.0.1", "remote_port": 39576, "accept_ms": 486,
        "frontend": "fe", "backend": "fe", "server": "<NOSRV>", "status": 400,
        "termination_state": "CR--", "feconn": 2, "request_cookie": "", "response_cookie": "",
        "method": None, "path": None, "request": "<BADREQ>"})
    compare("badreq httplog", objs[0], {
        "format": "haproxy", "server": "<NOSRV>", "status": 400, "termination_state": "PR--",
        "time_request": "-1", "time_active": 3, "method": None, "path": None,
        "request": "<BADREQ>"})
    compare("nosrv", objs[1], {
        "format": "haproxy", "backend": "be", "server": "<NOSRV>", "status": 503,
        "retries": 3, "request_header_1": "www.example.com", "request_header_2": None,
        "path": "/x", "syslog": "Nov 27 12:28:20 lb1 haproxy[7]"})
    compare("badreq clf", objs[2], {
        "format": "haproxy_clf", "server": "<NOSRV>", "status": 400, "accept_ms": "001",
        "method": None})


def cut(line, limit=1024):
    return line[:limit]


def test_truncated():
    """Defect 13 (haproxy): lines cut at HAProxy's 1024-byte default (no
    closing quote; or inside the captured headers) are records decoded as
    far as they go and flagged ("truncated": true, counted by --stats), not
    unparsed lines; whole lines are not flagged."""
    rng = rng_for("truncated")
    cases = []
    for fmt in ("haproxy", "haproxy_clf"):
        for pname, prefix, syslog in prefixes(rng):
            if fmt == "haproxy_clf" and pname == "short":
                continue  # "<134>" and a cut combined line: see below
            v = draw(rng)
            v["target"] = "/" + "/".join("seg%d%%20x" % i for i in range(200)) + "?q=1"
            v["hr"], v["hs"] = (["www.example.com"], None) if fmt == "haproxy" else (None, None)
            line = cut(prefix + WRITERS[fmt](v))
            # what stays of the target: up to the cut
            kept = line[line.index(v["target"][:20]):]
            # without a prefix, an httplog clf line cut in its request is a
            # combined line cut there: nothing of HAProxy's is left
            cases.append((fmt if pname != "raw" or fmt == "haproxy" else "combined", pname, syslog,
                          v, line, kept))
    # cut inside a captured header block
    v = draw(rng)
    v["hr"] = ["x" * 2000]
    block_line = cut(httplog(v))
    whole = [httplog(draw(rng)), httplog_clf(draw(rng))]
    lines = [c[4] for c in cases] + [block_line] + whole
    result = run_ok("truncated", ["--json", "--stats"], ("\n".join(lines) + "\n").encode())
    stats = result.stderr.decode()
    m = re.search(r"^unparsed lines: +(\d+)$", stats, re.M)
    check("truncated: no line unparsed", m is not None and m.group(1) == "0", short(stats))
    m = re.search(r"^truncated records: +(\d+)", stats, re.M)
    check("truncated: --stats counts them", m is not None and int(m.group(1)) == len(cases) + 1,
          short(stats))
    objs = parse_json("truncated", result.stdout, len(lines))
    if len(objs) != len(lines):
        return
    for (fmt, pname, syslog, w, _, kept), o in zip(cases, objs):
        want = {"format": fmt, "remote": w["ci"], "method": w["method"], "truncated": True,
                "path": urllib.parse.unquote(kept), "query": [], "protocol": None}
        if fmt == "haproxy":
            want["status"] = int(w["ST"])  # before the request; clf: after it, cut off
        else:
            check("truncated %s %s: no status" % (fmt, pname), "status" not in o, repr(o)[:300])
        if syslog is not None:
            want["syslog"] = syslog
        compare("truncated %s %s" % (fmt, pname), o, want)
    o = objs[len(cases)]
    compare("truncated in headers", o, {"format": "haproxy", "remote": v["ci"], "truncated": True,
                                        "request_header_1": block_line[block_line.index("{") + 1:]})
    check("truncated in headers: no request", "path" not in o and "method" not in o, repr(o)[:300])
    for o in objs[len(cases) + 1:]:
        check("whole %s: not truncated" % o.get("format"), "truncated" not in o, repr(o)[:300])
    # named, each cut line is a cut record of its format (a clf one too)
    for fmt in ("haproxy", "haproxy_clf"):
        mine = [c for c in cases if c[0] == fmt or (fmt == "haproxy_clf" and c[0] == "combined")]
        data = ("\n".join(c[4] for c in mine) + "\n").encode()
        objs = parse_json("truncated named %s" % fmt,
                          run_ok("truncated named", ["--json", "--format", fmt], data).stdout,
                          len(mine))
        for c, o in zip(mine, objs):
            compare("truncated --format %s %s" % (fmt, c[1]), o, {
                "format": fmt, "truncated": True, "path": urllib.parse.unquote(c[5])})


def test_log_format():
    """HAProxy log-format strings given to --log-format: httplog's, tcplog's
    and httpslog's read their lines as the named formats do; a string of
    other variables (%HM %HP %HQ %HV, %[sample], %ID, a variable pct does
    not know as a text field named after it), '\\ ' for a space; the whole
    log-format directive of haproxy.cfg."""
    rng = rng_for("log-format")
    for fmt, text in (("haproxy", HTTPLOG), ("haproxy_tcp", TCPLOG), ("haproxy_https", HTTPSLOG)):
        values = []
        for _ in range(20):
            v = draw(rng)
            v["hr"], v["hs"] = captures(rng, fmt)
            values.append(v)
        for pname, prefix, syslog in prefixes(rng)[:2] + prefixes(rng)[3:4]:
            data = "".join(prefix + WRITERS[fmt](v) + "\n" for v in values).encode()
            label = "log-format %s %s" % (fmt, pname)
            objs = parse_json(label, run_ok(label, ["--json", "--log-format", text], data).stdout,
                              len(values))
            for i, (o, v) in enumerate(zip(objs, values)):
                want = expected(fmt, v)
                want["format"] = "custom"
                if syslog is not None:
                    want["syslog"] = syslog
                if not compare("%s line %d" % (label, i + 1), o, want):
                    break
    # the directive as haproxy.cfg has it: quoted, or its spaces as "\ "
    v = draw(rng)
    v["hr"], v["hs"] = ["h"], None
    for directive in ('log-format "%s"' % HTTPLOG,
                      "  log-format %s  " % HTTPLOG.replace(" ", "\\ ")):
        o = first_json(run_ok("log-format directive", ["--json", "--log-format", directive],
                              (httplog(v) + "\n").encode()).stdout)
        want = expected("haproxy", v)
        want["format"] = "custom"
        compare("log-format directive %s" % short(directive, 40), o, want)
    r = run(["--log-format", 'log-format "%ci [%tr]'], b"x\n")
    check("log-format directive without its closing quote (exit 2)", r.returncode == 2,
          short(r.stderr))
    # httplog's string with its separators written as "\ "
    escaped = HTTPLOG.replace(" ", "\\ ")
    v = draw(rng)
    v["hr"], v["hs"] = ["h1", "h 2"], ["r1"]
    o = first_json(run_ok("log-format escaped spaces", ["--json", "--log-format", escaped],
                          (httplog(v) + "\n").encode()).stdout)
    want = expected("haproxy", v)
    want["format"] = "custom"
    compare("log-format with '\\ '", o, want)

    other = ('%ci [%tr] %HM %{+Q}HP %HQ %HV %ST %{+Q}[req.hdr(host),lower] %ID %Ts %zz '
             '%{+Q}CC %U')
    lines = ['2001:db8::7 [27/Nov/2026:12:28:20.123] GET "/a%20b/%C3%A9" ?x=1&y=%E2%82%AC+z '
             'HTTP/1.1 200 "www.example.com" 7F000001:C1A8_0001 1795782500 anything "" 512',
             '192.0.2.1 [27/Nov/2026:12:28:20.124] HEAD "/"  HTTP/1.0 304 "" - 1795782500 - '
             '"SID=1" 0']
    objs = parse_json("log-format other", run_ok("log-format other", [
        "--json", "--log-format", other], ("\n".join(lines) + "\n").encode()).stdout, 2)
    if len(objs) == 2:
        compare("log-format other 1", objs[0], {
            "format": "custom", "remote": "2001:db8::7", "time": "27/Nov/2026:12:28:20.123",
            "method": "GET", "path": "/a b/\u00e9", "query": [["x", "1"], ["y", "\u20ac z"]],
            "protocol": "HTTP/1.1", "status": 200, "req_hdr": "www.example.com",
            "unique_id": "7F000001:C1A8_0001", "zz": "anything", "request_cookie": "",
            "bytes_received": 512})
        compare("log-format other 2 (empty query)", objs[1], {
            "format": "custom", "remote": "192.0.2.1", "method": "HEAD", "path": "/",
            "query": [], "protocol": "HTTP/1.0", "status": 304, "req_hdr": "",
            "unique_id": None, "zz": None, "request_cookie": "SID=1", "bytes_received": 0})
    # errors: said, exit 2
    for bad in ("%ci %{+Q", "%ci %[src", "%ci %"):
        r = run(["--log-format", bad], b"x\n")
        check("log-format %r refused (exit 2)" % bad, r.returncode == 2 and r.stderr,
              "exit %d %s" % (r.returncode, short(r.stderr)))


def test_detect():
    """A file of every variant, prefixes mixed, and combined lines between:
    each line's format found by auto detection."""
    rng = rng_for("detect")
    lines, formats = [], []
    for _ in range(400):
        fmt = rng.choice(list(WRITERS) + ["combined"])
        if fmt == "combined":
            lines.append('192.0.2.%d - - [27/Nov/2026:12:28:20 +0000] "GET %s HTTP/1.1" 200 5 "-" '
                         '"curl/8.5.0"' % (rng.randint(1, 254),
                                           make_target(rng).replace('"', "%22")))
        else:
            v = draw(rng)
            v["hr"], v["hs"] = captures(rng, fmt)
            _, prefix, _ = rng.choice(prefixes(rng))
            if fmt == "haproxy_clf" and prefix == "":
                prefix = "Nov 27 12:28:20 lb1 haproxy[1]: "
            lines.append(prefix + WRITERS[fmt](v))
        formats.append(fmt)
    data = ("\n".join(lines) + "\n").encode()
    for threads in ("1", "2"):
        out = run_ok("detect", ["--tsv", "--fields", "format", "--threads", threads,
                                "--chunk-size", "4k"], data).stdout.decode().splitlines()
        bad = [(i, f, o) for i, (f, o) in enumerate(zip(formats, out)) if f != o]
        check("detect --threads %s: every line's format" % threads,
              len(out) == len(formats) and not bad,
              "%d lines; first bad %r: %s" % (len(out), bad[:1], bad and lines[bad[0][0]]))


def test_line_output():
    """Line output of each variant: the line as it was with its target
    decoded in place (a decoded space is \\x20), one line out per line."""
    rng = rng_for("line-output")
    for fmt, writer in WRITERS.items():
        if fmt == "haproxy_tcp":
            continue
        v = draw(rng)
        v["hr"], v["hs"] = captures(rng, fmt)
        v["target"] = "/caf%C3%A9/a%20b?q=%E2%82%AC"
        line = "Nov 27 12:28:20 lb1 haproxy[1]: " + writer(v)
        out = run_ok("line " + fmt, [], (line + "\n").encode()).stdout.decode("utf-8")
        want = line.replace(v["target"], "/caf\u00e9/a\\x20b?q=\u20ac") + "\n"
        check("line output %s" % fmt, out == want, "got %s want %s" % (short(out), short(want)))


# Lines haproxy 2.6.12 wrote (Debian 12; rsyslogd 8.2302 in its default
# file format, its RFC 3339 one and RSYSLOG_SyslogProtocol23Format; stdout
# raw), with what each field is, read off the line by hand.
REAL = [
    ('Nov 27 19:41:27 localhost haproxy[31104]: 127.0.0.1:54038 [27/Nov/2026:19:41:27.370] fe '
     'be/s1 0/0/0/0/0 200 74 - - ---- 1/1/0/0/0 0/0 {hash#2322#2309|hash#2322#2309} '
     '"GET /_00023_/x%13y?k=%13 HTTP/1.1"',
     {"format": "haproxy", "syslog": "Nov 27 19:41:27 localhost haproxy[31104]",
      "remote": "127.0.0.1", "remote_port": 54038, "time_iso": "2026-11-27T19:41:27.370",
      "frontend": "fe", "backend": "be", "server": "s1", "time_active": 0, "status": 200,
      "bytes": 74, "termination_state": "----", "actconn": 1, "srv_conn": 0,
      "request_header_1": "hash#22#09", "request_header_2": "hash#22#09",
      "path": "/_00023_/x\x13y", "query": [["k", "\x13"]], "protocol": "HTTP/1.1"}),
    ('<134>1 2026-11-27T19:41:27+00:00 localhost haproxy 31104 - -  127.0.0.1:54438 '
     '[27/Nov/2026:19:41:27.391] fe be/s1 0/0/0/0/0 200 74 - - ---- 2/2/0/0/0 0/0 '
     '{end\\#22|c1#C2#80#C2#9Fdel} "GET /_00068_/x%40y?k=%40 HTTP/1.1"',
     {"format": "haproxy", "syslog": "<134>1 2026-11-27T19:41:27+00:00 localhost haproxy 31104 - -",
      "remote_port": 54438, "actconn": 2, "request_header_1": 'end\\"',
      "request_header_2": "c1\u0080\u009fdel", "path": "/_00068_/x@y", "query": [["k", "@"]]}),
    ('2026-11-27T19:41:27+00:00 localhost haproxy[31104]: 127.0.0.1:54398 '
     '[27/Nov/2026:19:41:27.389] fe be/s1 0/0/0/0/0 200 74 - - ---- 1/1/0/0/0 0/0 '
     '{http://r.example/a%20b|curl/8.5.0} "GET /_00063_/x%3By?k=%3B HTTP/1.1"',
     {"format": "haproxy", "syslog": "2026-11-27T19:41:27+00:00 localhost haproxy[31104]",
      "request_header_1": "http://r.example/a%20b", "request_header_2": "curl/8.5.0",
      "path": "/_00063_/x;y", "query": [["k", ";"]]}),
    ('127.0.0.1 - - [27/Nov/2026:19:41:27 +0000] "GET /_00063_/x%3By?k=%3B HTTP/1.1" 200 74 "" "" '
     '52668 724 "fe" "be" "s1" 0 0 0 0 0 ---- 1 1 0 0 0 0 0 "" "" "http://r.example/a%20b" '
     '"curl/8.5.0" ',
     {"format": "haproxy_clf", "remote": "127.0.0.1", "time_iso": "2026-11-27T19:41:27+00:00",
      "status": 200, "bytes": 74, "remote_port": 52668, "accept_ms": 724, "frontend": "fe",
      "backend": "be", "server": "s1", "termination_state": "----", "request_cookie": "",
      "captured_header_1": "http://r.example/a%20b", "captured_header_2": "curl/8.5.0",
      "path": "/_00063_/x;y", "query": [["k", ";"]]}),
    ('Nov 27 19:41:28 localhost haproxy[31832]: 127.0.0.1:54990 [27/Nov/2026:19:41:28.028] fe '
     'be/s1 1/0/0 86 -- 1/1/0/0/0 0/0',
     {"format": "haproxy_tcp", "remote": "127.0.0.1", "remote_port": 54990,
      "time_iso": "2026-11-27T19:41:28.028", "frontend": "fe", "backend": "be", "server": "s1",
      "time_queue": 1, "time_connect": 0, "time_total": 0, "bytes": 86,
      "termination_state": "--", "feconn": 1, "backend_queue": 0}),
]


def test_real():
    """Lines of a real haproxy 2.6.12 run, each in auto mode: every field as
    the line says (#XX undone in the captures, a backslash kept)."""
    data = ("\n".join(line for line, _ in REAL) + "\n").encode()
    objs = parse_json("real", run_ok("real", ["--json"], data).stdout, len(REAL))
    for (line, want), o in zip(REAL, objs):
        compare("real %s" % short(line, 60), o, want)


GROUPS = {"real": test_real, "variants": test_variants, "defect1": test_defect1, "clf-auto": test_clf_auto,
          "badreq": test_badreq, "truncated": test_truncated, "log-format": test_log_format,
          "detect": test_detect, "line-output": test_line_output}


def set_pct(path):
    test_logs.set_pct(path)


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
