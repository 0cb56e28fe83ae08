#!/usr/bin/env python3
"""Tests of JSON-lines access logs (tools/logs/fmt_json.c) as nginx writes
them with escape=json (issue 24, item 4; defects 8, 9, 10):

  request   an empty (or absent) request_uri/uri: the URL from "request"
            (nginx writes "" for the $request_uri of a request it refused);
            method and protocol from "request" beside a request_uri (9)
  dash      a string "-" is data, not null; JSON null is null (10)
  values    numbers and booleans kept as JSON values, strings as strings;
            keys matched with their escapes undone
  line      line output of a JSON line is JSON: a DEL or C1 control in a
            field that is not decoded is \\u007f / \\u0080, never \\x7f or
            \\xc2\\x80; ill-formed UTF-8 repaired (8)

Usage: test_logs_jsonl.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Expected values are derived here: Python's json module reads the lines
written and the output, urllib.parse.unquote decodes the targets. Random
lines: PCT_TEST_SEED replays them.
"""
import json
import os
import random
import sys
import urllib.parse

import test_logs
from clitest import check, run_groups, short
from test_logs import run_ok

SEED = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
os.environ["PCT_TEST_SEED"] = str(SEED)  # the groups' processes: the same lines


def nginx_json(request, request_uri, status=200, referer="", agent="curl/7.88.1", extra=None):
    """A line as nginx's log_format escape=json writes it (its variables as
    keys, $status and $body_bytes_sent unquoted)."""
    obj = {"time_local": "27/Nov/2026:12:00:00 +0000", "remote_addr": "192.0.2.5",
           "request": request, "request_uri": request_uri}
    line = json.dumps(obj, ensure_ascii=False)[:-1]
    line += ', "status": %d, "body_bytes_sent": 612, "http_referer": %s, "http_user_agent": %s' % (
        status, json.dumps(referer), json.dumps(agent))
    for k, v in (extra or {}).items():
        line += ", %s: %s" % (json.dumps(k), v)
    return line + "}"


def objects(name, args, data):
    out = run_ok(name, ["--json"] + args, data).stdout
    got = []
    for line in out.decode("utf-8").splitlines():
        try:
            got.append(json.loads(line))
        except ValueError:
            check(name + ": strict JSON", False, short(line))
    return got


def decoded(target):
    path, q, query = target.partition("?")
    pairs = [[urllib.parse.unquote(k, errors="replace"), urllib.parse.unquote(v, errors="replace")]
             for k, _, v in (p.partition("=") for p in query.split("&") if p)] if q else []
    return urllib.parse.unquote(path, errors="replace"), pairs


def test_request():
    rng = random.Random(SEED)
    lines, want = [], []
    for i in range(200):
        target = "/r%d/%s?k=%s" % (i, rng.choice(["a%20b", "caf%C3%A9", "x", "%41%42"]),
                                  rng.choice(["1", "v%20w", "%C3%BC"]))
        method = rng.choice(["GET", "POST", "HEAD"])
        proto = rng.choice(["HTTP/1.1", "HTTP/1.0"])
        refused = rng.random() < 0.3  # nginx: $request_uri "" (a request it refused)
        lines.append(nginx_json("%s %s %s" % (method, target, proto), "" if refused else target,
                                400 if refused else 200))
        want.append((method, target, proto))
    objs = objects("nginx escape=json lines", [], ("\n".join(lines) + "\n").encode())
    check("nginx escape=json: one object per line", len(objs) == len(lines), "%d" % len(objs))
    bad = []
    for o, (method, target, proto) in zip(objs, want):
        path, query = decoded(target)
        if (o.get("format"), o.get("method"), o.get("path"), o.get("query"), o.get("protocol")) != (
                "json", method, path, query, proto):
            bad.append((target, o))
    check("nginx escape=json: method, path, query, protocol from request_uri or, when it is "
          "empty, from request (seed %d)" % SEED, not bad, "%d bad: %s" % (len(bad), short(bad[:2])))
    # the same as TSV columns
    tsv = run_ok("nginx escape=json tsv", ["--tsv", "--fields", "method,path,protocol,status"],
                 ("\n".join(lines) + "\n").encode()).stdout.decode().split("\n")
    rows_ok = all(row.split("\t")[:3] == [m, decoded(t)[0], p] for row, (m, t, p) in zip(tsv, want))
    check("nginx escape=json tsv: method, path, protocol", rows_ok, short(tsv[:3]))
    # request_uri absent: request
    line = '{"request":"PUT /only%20request?z=9 HTTP/2.0","status":201}'
    o = objects("request alone", [], (line + "\n").encode())
    check("request alone: parsed", o == [{"format": "json", "method": "PUT", "path": "/only request",
                                          "query": [["z", "9"]], "protocol": "HTTP/2.0",
                                          "status": 201}], short(o))
    # a key of the line's own wins over the request's parts
    line = '{"request":"GET /a HTTP/1.1","request_uri":"/a","method":"mine","protocol":"p"}'
    o = objects("own method", [], (line + "\n").encode())
    check("own method and protocol kept", o and o[0].get("method") == "mine" and
          o[0].get("protocol") == "p" and o[0].get("path") == "/a", short(o))
    # a request nginx refused for its tabs: request_uri "", the request's
    # blanks JSON-escaped tabs
    line = '{"request":"GET\\t/_00322_/t%41b\\tHTTP/1.1","request_uri":"","status":400}'
    o = objects("tab request", [], (line + "\n").encode())
    check("a request with tabs, request_uri empty: its parts", o and o[0].get("method") == "GET" and
          o[0].get("path") == "/_00322_/tAb" and o[0].get("protocol") == "HTTP/1.1", short(o))
    # nothing but empty ones: parsed (as before), an empty target
    line = '{"request":"","request_uri":"","status":400}'
    o = objects("all empty", [], (line + "\n").encode())
    check("request and request_uri empty: still parsed", o and o[0].get("format") == "json" and
          o[0].get("status") == 400, short(o))


def test_dash():
    line = nginx_json("GET /d HTTP/1.1", "/d", referer="-", agent="-",
                      extra={"upstream": '"-"', "nothing": "null", "empty": '""'})
    o = objects("dash strings", [], (line + "\n").encode())
    check("a string \"-\" is text, null is null, \"\" is \"\"", o and
          o[0].get("http_referer") == "-" and o[0].get("http_user_agent") == "-" and
          o[0].get("upstream") == "-" and o[0]["nothing"] is None and o[0].get("empty") == "",
          short(o))
    tsv = run_ok("dash tsv", ["--tsv", "--fields", "referer,agent,upstream,nothing"],
                 (line + "\n").encode()).stdout.decode()
    check("tsv: \"-\" is -, null is \\N", tsv == "-\t-\t-\t\\N\n", repr(tsv))
    # --referer: a "-" referer is its text too
    o = objects("dash referer decoded", ["--referer"], (line + "\n").encode())
    check("--referer: \"-\" kept", o and o[0].get("http_referer") == "-", short(o))


def test_values():
    line = ('{"uri":"/v","status":404,"ratio":-1.5e-3,"ok":true,"bad":false,"none":null,'
            '"s":"200","big":123456789012345678901234567890,"arr":[1,"a"],'
            '"pa\\u0074h_\\u00e9":"k\\u00e9y","st\\u0061tus_text":"Not Found"}')
    o = objects("values", [], (line + "\n").encode())
    want = json.loads(line)
    check("numbers, booleans, null as JSON values; strings as strings",
          o and o[0].get("status") == 404 and o[0].get("ratio") == -1.5e-3 and o[0]["ok"] is True
          and o[0]["bad"] is False and o[0]["none"] is None and o[0].get("s") == "200" and
          o[0].get("big") == want["big"], short(o))
    check("escaped keys matched, unescaped", o and o[0].get("path_é") == "kéy" and
          o[0].get("status_text") == "Not Found", short(o))
    line = '{"request_\\u0075ri":"/esc%41?q=1","st\\u0061tus":301}'
    o = objects("escaped url key", [], (line + "\n").encode())
    check("an escaped request_uri key is the URL", o == [
        {"format": "json", "path": "/escA", "query": [["q", "1"]], "status": 301}], short(o))


def test_line():
    """Line output of JSON lines: JSON, with no raw control."""
    rng = random.Random(SEED + 1)
    specials = ["\x7f", "\u0080", "\u009b", "\u009f", "\t", "\n", "\"", "\\", "é", "\ufffd", "-",
                "\u2028", "\x1b[31m"]
    lines, wants = [], []
    for i in range(300):
        agent = "".join(rng.choice(specials + ["a", "b", " "]) for _ in range(rng.randrange(0, 12)))
        target = "/l%d/%s" % (i, rng.choice(["a%20b", "%7F", "%C2%80", "x"]))
        obj = {"request": "GET %s HTTP/1.1" % target, "request_uri": target,
               "http_user_agent": agent, "n": i}
        text = json.dumps(obj, ensure_ascii=rng.random() < 0.3)
        if rng.random() < 0.5:  # nginx writes DEL and bytes >= 0x80 raw, C1 too
            text = text.replace("\\u007f", "\x7f").replace("\\u0080", "\u0080").replace(
                "\\u009b", "\u009b")
        lines.append(text.encode("utf-8"))
        wants.append((agent, target))
    bad_utf8 = b'{"uri":"/b","x":"bad \xff\xc3 end","d":"\x7f"}'
    lines.append(bad_utf8)
    data = b"\n".join(lines) + b"\n"
    out = run_ok("json lines, line output", [], data).stdout
    out_lines = out.split(b"\n")[:-1]
    check("line output: one line per line", len(out_lines) == len(lines), "%d" % len(out_lines))
    raw = [l for l in out_lines if any(b < 0x20 and b != 0x09 or b == 0x7f for b in l) or
           b"\xc2\x80" in l or b"\xc2\x9b" in l or b"\xc2\x9f" in l]
    check("line output: no raw control, DEL or C1", not raw, short(raw[:2]))
    objs, invalid = [], []
    for l in out_lines:
        try:
            objs.append(json.loads(l.decode("utf-8")))
        except ValueError:
            invalid.append(l)
    check("line output of JSON lines is JSON (seed %d)" % SEED, not invalid, short(invalid[:2]))
    if objs and len(objs) == len(lines):
        mism = []
        for o, (agent, target) in zip(objs, wants):
            path, _ = decoded(target)
            if o.get("http_user_agent") != agent or not o.get("request_uri", "").startswith(path):
                mism.append((agent, target, o))
        check("line output: undecoded text as written, the target decoded", not mism,
              short(mism[:2]))
        check("line output: ill-formed UTF-8 repaired", objs[-1].get("x") == "bad \ufffd\ufffd end"
              and objs[-1].get("d") == "\x7f", short(objs[-1]))
    # --raw: as it is
    out = run_ok("json line --raw", ["--raw"], bad_utf8 + b"\n").stdout
    check("--raw: the undecoded text as it is", out == bad_utf8 + b"\n", short(out))


NGINX_JSON = ("log_format j escape=json '{\"remote_addr\":\"$remote_addr\",\"request\":\"$request\","
              "\"status\":$status,\"http_referer\":\"$http_referer\","
              "\"http_user_agent\":\"$http_user_agent\"}';")


def test_log_format():
    """The same log read with nginx's own escape=json format (--log-format):
    "-" is data, line output is JSON."""
    line = ('{"remote_addr":"192.0.2.1","request":"GET /a%20b?q=%C3%A9 HTTP/1.1","status":200,'
            '"http_referer":"-","http_user_agent":"x\x7f \u0080 \udcff y"}')
    data = line.encode("utf-8", "surrogateescape").replace(b"\xed\xb3\xbf", b"\xff")
    o = objects("--log-format escape=json", ["--log-format", NGINX_JSON], data + b"\n")
    check("--log-format escape=json: parsed, \"-\" is text", o and o[0].get("path") == "/a b" and
          o[0].get("query") == [["q", "é"]] and o[0].get("referer") == "-", short(o))
    out = run_ok("--log-format escape=json, line output", ["--log-format", NGINX_JSON],
                 data + b"\n").stdout
    try:
        got = json.loads(out.decode("utf-8"))
    except ValueError:
        got = None
    check("--log-format escape=json, line output: JSON, no raw DEL or C1", got is not None and
          got.get("http_user_agent") == "x\x7f \x80 \ufffd y" and
          got.get("request") == "GET /a b?q=é HTTP/1.1" and b"\x7f" not in out and
          b"\xc2\x80" not in out, short(out))


GROUPS = {"request": test_request, "dash": test_dash, "values": test_values, "line": test_line,
          "log-format": test_log_format}


def set_pct(path):
    test_logs.set_pct(path)


if __name__ == "__main__":
    print("seed %d (PCT_TEST_SEED to replay)" % SEED)
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
