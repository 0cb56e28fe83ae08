#!/usr/bin/env python3
"""Tests of the formats of `pct logs`: one realistic line of each (written
here, documentation addresses), checked field by field in every output mode
(line, JSON, TSV, CSV), auto-detected alone and mixed in one file, and by
name; custom nginx/Apache format strings; --stats per format and
--strict-format.

Usage: test_logs_formats.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Every expected value is written out by hand from the format's definition.
"""
import csv
import io
import json
import os
import random
import re
import sys

import test_logs
from clitest import check, run_groups, short
from test_logs import run, run_ok  # `pct logs ARGS`, as test_logs.py runs it


TSV_FIELDS = ["format", "remote", "time", "method", "path", "query", "status", "bytes", "referer",
              "agent"]

# name, --format, line, line output, JSON fields (a subset, each checked),
# TSV row of the default fields (None: \N).
SAMPLES = [
    ("combined", "combined",
     '192.0.2.10 - - [14/Mar/2026:06:00:00 +0000] "GET /caf%C3%A9?q=a%2Bb&x=%26 HTTP/1.1" 200 512 '
     '"https://example.org/" "Mozilla/5.0" "203.0.113.9" rt=0.005 urt="0.004"',
     '192.0.2.10 - - [14/Mar/2026:06:00:00 +0000] "GET /caf\u00e9?q=a+b&x=%26 HTTP/1.1" 200 512 '
     '"https://example.org/" "Mozilla/5.0" "203.0.113.9" rt=0.005 urt="0.004"',
     {"format": "combined", "remote": "192.0.2.10", "ident": None, "user": None,
      "time": "14/Mar/2026:06:00:00 +0000", "time_iso": "2026-03-14T06:00:00+00:00",
      "method": "GET", "path": "/caf\u00e9", "query": [["q", "a+b"], ["x", "&"]],
      "protocol": "HTTP/1.1", "status": 200, "bytes": 512, "referer": "https://example.org/",
      "agent": "Mozilla/5.0", "rt": "0.005", "urt": "0.004", "extra": ["203.0.113.9"]},
     ["combined", "192.0.2.10", "14/Mar/2026:06:00:00 +0000", "GET", "/caf\u00e9", "q=a+b&x=%26",
      "200", "512", "https://example.org/", "Mozilla/5.0"]),
    ("common", "common",
     '192.0.2.12 - - [14/Mar/2026:06:00:12 +0000] "GET /a%2Fb/%7Ex HTTP/1.0" 404 -',
     '192.0.2.12 - - [14/Mar/2026:06:00:12 +0000] "GET /a%2Fb/~x HTTP/1.0" 404 -',
     None,
     ["common", "192.0.2.12", "14/Mar/2026:06:00:12 +0000", "GET", "/a%2Fb/~x", None, "404", None,
      None, None]),
    ("vhost_combined", "vhost_combined",
     'www.example.com:443 192.0.2.11 - bob [14/Mar/2026:06:00:01 -0700] '
     '"GET /a%20b/%E2%82%AC?k=%C3%A9 HTTP/1.1" 404 0 "-" "curl/8.5.0"',
     'www.example.com:443 192.0.2.11 - bob [14/Mar/2026:06:00:01 -0700] '
     '"GET /a\\x20b/\u20ac?k=\u00e9 HTTP/1.1" 404 0 "-" "curl/8.5.0"',
     {"format": "vhost_combined", "vhost": "www.example.com", "port": 443, "remote": "192.0.2.11",
      "ident": None, "user": "bob", "time_iso": "2026-03-14T06:00:01-07:00", "method": "GET",
      "path": "/a b/\u20ac", "query": [["k", "\u00e9"]], "status": 404, "bytes": 0,
      "referer": None, "agent": "curl/8.5.0"},
     ["vhost_combined", "192.0.2.11", "14/Mar/2026:06:00:01 -0700", "GET", "/a b/\u20ac",
      "k=\u00e9", "404", "0", None, "curl/8.5.0"]),
    ("xff_combined", "xff_combined",
     '203.0.113.7, 198.51.100.2 - - [14/Mar/2026:06:00:02 +0000] "GET /s%C3%BCd HTTP/1.1" 200 5 '
     '"-" "UA"',
     '203.0.113.7, 198.51.100.2 - - [14/Mar/2026:06:00:02 +0000] "GET /s\u00fcd HTTP/1.1" 200 5 '
     '"-" "UA"',
     {"format": "xff_combined", "remote": "203.0.113.7, 198.51.100.2", "path": "/s\u00fcd",
      "query": [], "status": 200, "bytes": 5, "agent": "UA"},
     ["xff_combined", "203.0.113.7, 198.51.100.2", "14/Mar/2026:06:00:02 +0000", "GET",
      "/s\u00fcd", None, "200", "5", None, "UA"]),
    ("envoy", "envoy",
     '[2026-03-14T06:00:03.123Z] "POST /api/v1/%E2%82%AC?x=1%202 HTTP/2" 204 - 154 0 226 100 '
     '"192.0.2.33" "nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "api.example.com" '
     '"198.51.100.4:80"',
     '[2026-03-14T06:00:03.123Z] "POST /api/v1/\u20ac?x=1\\x202 HTTP/2" 204 - 154 0 226 100 '
     '"192.0.2.33" "nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "api.example.com" '
     '"198.51.100.4:80"',
     {"format": "envoy", "time": "2026-03-14T06:00:03.123Z",
      "time_iso": "2026-03-14T06:00:03.123Z", "method": "POST", "path": "/api/v1/\u20ac",
      "query": [["x", "1 2"]], "protocol": "HTTP/2", "status": 204, "response_flags": None,
      "bytes_received": 154, "bytes": 0, "duration": 226, "upstream_service_time": 100,
      "forwarded_for": "192.0.2.33", "agent": "nsq2http",
      "request_id": "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2", "authority": "api.example.com",
      "upstream_host": "198.51.100.4:80"},
     ["envoy", None, "2026-03-14T06:00:03.123Z", "POST", "/api/v1/\u20ac", "x=1 2", "204", "0",
      None, "nsq2http"]),
    ("haproxy (syslog, captures)", "haproxy",
     'Mar 14 06:00:04 lb1 haproxy[14389]: 192.0.2.44:33317 [14/Mar/2026:06:00:04.655] http-in '
     'static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {www.example.com|Mozilla/5.0} {} '
     '"GET /a%20b?c=%C3%A9 HTTP/1.1"',
     'Mar 14 06:00:04 lb1 haproxy[14389]: 192.0.2.44:33317 [14/Mar/2026:06:00:04.655] http-in '
     'static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {www.example.com|Mozilla/5.0} {} '
     '"GET /a\\x20b?c=\u00e9 HTTP/1.1"',
     {"format": "haproxy", "syslog": "Mar 14 06:00:04 lb1 haproxy[14389]",
      "remote": "192.0.2.44", "remote_port": 33317, "time": "14/Mar/2026:06:00:04.655",
      "time_iso": "2026-03-14T06:00:04.655", "frontend": "http-in", "backend": "static",
      "server": "srv1", "time_request": 10, "time_queue": 0, "time_connect": 30,
      "time_response": 69, "time_active": 109, "status": 200, "bytes": 2750,
      "termination_state": "----", "actconn": 1, "retries": 0, "backend_queue": 0,
      "request_header_1": "www.example.com", "request_header_2": "Mozilla/5.0",
      "response_header_1": None, "method": "GET", "path": "/a b", "query": [["c", "\u00e9"]]},
     ["haproxy", "192.0.2.44", "14/Mar/2026:06:00:04.655", "GET", "/a b", "c=\u00e9",
      "200", "2750", None, None]),
    ("haproxy (plain)", "haproxy",
     '192.0.2.45:33318 [14/Mar/2026:06:00:05.001] http-in~ app/srv2 0/0/1/2/3 302 120 - - --NI '
     '2/2/0/0/0 0/0 "GET /x%2Fy%7E HTTP/1.1"',
     '192.0.2.45:33318 [14/Mar/2026:06:00:05.001] http-in~ app/srv2 0/0/1/2/3 302 120 - - --NI '
     '2/2/0/0/0 0/0 "GET /x%2Fy~ HTTP/1.1"',
     {"format": "haproxy", "remote": "192.0.2.45", "remote_port": 33318, "frontend": "http-in~",
      "request_header_1": "(absent)", "status": 302, "path": "/x%2Fy~", "query": []},
     ["haproxy", "192.0.2.45", "14/Mar/2026:06:00:05.001", "GET", "/x%2Fy~", None, "302",
      "120", None, None]),
    ("alb", "alb",
     'https 2026-03-14T06:00:05.186641Z app/my-lb/50dc6c495c0c9188 192.0.2.55:2817 10.0.0.1:80 '
     '0.000 0.001 0.000 200 200 34 366 "GET https://www.example.com:443/p%20q?r=%C3%A9 HTTP/1.1" '
     '"curl/8.5.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 '
     'arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 '
     '"Root=1-58337262-36d228ad5d99923122bbe354" "www.example.com" '
     '"arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 '
     '2026-03-14T06:00:05.164000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234',
     'https 2026-03-14T06:00:05.186641Z app/my-lb/50dc6c495c0c9188 192.0.2.55:2817 10.0.0.1:80 '
     '0.000 0.001 0.000 200 200 34 366 "GET https://www.example.com:443/p\\x20q?r=\u00e9 HTTP/1.1" '
     '"curl/8.5.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 '
     'arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 '
     '"Root=1-58337262-36d228ad5d99923122bbe354" "www.example.com" '
     '"arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 '
     '2026-03-14T06:00:05.164000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234',
     {"format": "alb", "type": "https", "remote": "192.0.2.55:2817", "target": "10.0.0.1:80",
      "status": 200, "target_status_code": 200, "bytes_received": 34, "bytes": 366,
      "method": "GET", "origin": "https://www.example.com:443", "path": "/p q",
      "query": [["r", "\u00e9"]], "agent": "curl/8.5.0", "domain_name": "www.example.com",
      "actions_executed": "forward", "redirect_url": None, "extra": ["TID_1234"]},
     ["alb", "192.0.2.55:2817", "2026-03-14T06:00:05.186641Z", "GET", "/p q", "r=\u00e9", "200",
      "366", None, "curl/8.5.0"]),
    ("elb", "elb",
     '2026-03-14T06:00:06.945958Z my-loadbalancer 192.0.2.66:2817 10.0.0.1:80 0.000073 0.001048 '
     '0.000057 200 200 0 29 "GET http://www.example.com:80/a%2Bb%20c HTTP/1.1" "curl/8.5.0" - -',
     '2026-03-14T06:00:06.945958Z my-loadbalancer 192.0.2.66:2817 10.0.0.1:80 0.000073 0.001048 '
     '0.000057 200 200 0 29 "GET http://www.example.com:80/a+b\\x20c HTTP/1.1" "curl/8.5.0" - -',
     {"format": "elb", "elb": "my-loadbalancer", "remote": "192.0.2.66:2817",
      "backend": "10.0.0.1:80", "status": 200, "bytes": 29, "origin": "http://www.example.com:80",
      "path": "/a+b c", "query": [], "ssl_cipher": None},
     ["elb", "192.0.2.66:2817", "2026-03-14T06:00:06.945958Z", "GET", "/a+b c", None, "200", "29",
      None, "curl/8.5.0"]),
    ("squid", "squid",
     '1773468007.123    123 192.0.2.77 TCP_MISS/200 1234 GET http://www.example.com/a%20b?q=%C3%A9 '
     '- HIER_DIRECT/203.0.113.5 text/html',
     '1773468007.123    123 192.0.2.77 TCP_MISS/200 1234 GET http://www.example.com/a\\x20b?q=\u00e9 '
     '- HIER_DIRECT/203.0.113.5 text/html',
     {"format": "squid", "time": "1773468007.123", "time_iso": "2026-03-14T06:00:07.123Z",
      "duration": 123, "remote": "192.0.2.77", "cache_result": "TCP_MISS", "status": 200,
      "bytes": 1234,
      "method": "GET", "origin": "http://www.example.com", "path": "/a b",
      "query": [["q", "\u00e9"]], "user": None, "hierarchy": "HIER_DIRECT/203.0.113.5",
      "content_type": "text/html"},
     ["squid", "192.0.2.77", "1773468007.123", "GET", "/a b", "q=\u00e9", "200", "1234", None,
      None]),
    ("cloudfront (no header)", "cloudfront",
     "2026-03-14\t06:00:11\tIAD89-C1\t3260\t192.0.2.111\tGET\td111111abcdef8.cloudfront.net\t"
     "/a%2520b/caf%25C3%25A9/p%252525\t200\t-\tMozilla/5.0%20(X11;%20Linux)\tq=%2520x%2526y\t-\tHit\t"
     "SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==\td111111abcdef8.cloudfront.net\t"
     "https\t23\t0.001\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\t-\t-\t11040\t0.001\tHit\t"
     "text/html\t78\t-\t-",
     "2026-03-14\t06:00:11\tIAD89-C1\t3260\t192.0.2.111\tGET\td111111abcdef8.cloudfront.net\t"
     "/a\\x20b/caf\u00e9/p%25\t200\t-\tMozilla/5.0%20(X11;%20Linux)\tq=\\x20x%26y\t-\tHit\t"
     "SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==\td111111abcdef8.cloudfront.net\t"
     "https\t23\t0.001\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\t-\t-\t11040\t0.001\tHit\t"
     "text/html\t78\t-\t-",
     {"format": "cloudfront", "date": "2026-03-14", "time": "06:00:11",
      "time_iso": "2026-03-14T06:00:11Z", "edge_location": "IAD89-C1", "bytes": 3260,
      "remote": "192.0.2.111", "method": "GET", "host": "d111111abcdef8.cloudfront.net",
      "path": "/a b/caf\u00e9/p%25", "status": 200, "referer": None,
      "agent": "Mozilla/5.0 (X11; Linux)", "query": [["q", " x&y"]], "scheme": "https",
      "time_taken": 0.001, "protocol": "HTTP/2.0", "remote_port": 11040},
     ["cloudfront", "192.0.2.111", "06:00:11", "GET", "/a b/caf\u00e9/p%25", "q= x%26y", "200",
      "3260", None, "Mozilla/5.0 (X11; Linux)"]),
    ("caddy json", "json",
     '{"level":"info","ts":1773468008.5,"logger":"http.log.access","msg":"handled request",'
     '"request":{"remote_ip":"192.0.2.88","method":"GET","host":"example.com",'
     '"uri":"/caf%C3%A9?q=a%20b\\u0026x=%26","headers":{"User-Agent":["curl/8.5.0"]}},'
     '"status":200,"size":12}',
     '{"level":"info","ts":1773468008.5,"logger":"http.log.access","msg":"handled request",'
     '"request":{"remote_ip":"192.0.2.88","method":"GET","host":"example.com",'
     '"uri":"/caf\u00e9?q=a b&x=%26","headers":{"User-Agent":["curl/8.5.0"]}},'
     '"status":200,"size":12}',
     {"format": "json", "level": "info", "ts": 1773468008.5, "request.remote_ip": "192.0.2.88",
      "request.method": "GET", "path": "/caf\u00e9", "query": [["q", "a b"], ["x", "&"]],
      "status": 200, "size": 12},
     ["json", "192.0.2.88", "1773468008.5", "GET", "/caf\u00e9", "q=a b&x=%26", "200", "12", None,
      '["curl/8.5.0"]']),
    ("nginx escape=json", "json",
     '{"time_local":"14/Mar/2026:06:00:10 +0000","remote_addr":"192.0.2.90",'
     '"request":"GET /d%C3%A9j%C3%A0?a=%22x%22 HTTP/1.1","status":"200",'
     '"http_user_agent":"curl\\/8.5.0 \\"q\\""}',
     '{"time_local":"14/Mar/2026:06:00:10 +0000","remote_addr":"192.0.2.90",'
     '"request":"GET /d\u00e9j\u00e0?a=\\"x\\" HTTP/1.1","status":"200",'
     '"http_user_agent":"curl\\/8.5.0 \\"q\\""}',
     {"format": "json", "remote_addr": "192.0.2.90", "method": "GET", "path": "/d\u00e9j\u00e0",
      "query": [["a", '"x"']], "protocol": "HTTP/1.1", "status": "200",
      "http_user_agent": 'curl/8.5.0 "q"'},
     ["json", "192.0.2.90", "14/Mar/2026:06:00:10 +0000", "GET", "/d\u00e9j\u00e0", 'a="x"', "200",
      None, None, 'curl/8.5.0 "q"']),
    ("traefik json", "json",
     '{"ClientHost":"192.0.2.91","RequestMethod":"GET","RequestPath":"/t%20p?x=%E2%9C%93",'
     '"DownstreamStatus":200,"time":"2026-03-14T06:00:11Z"}',
     '{"ClientHost":"192.0.2.91","RequestMethod":"GET","RequestPath":"/t p?x=\u2713",'
     '"DownstreamStatus":200,"time":"2026-03-14T06:00:11Z"}',
     {"format": "json", "ClientHost": "192.0.2.91", "path": "/t p", "query": [["x", "\u2713"]],
      "DownstreamStatus": 200},
     ["json", "192.0.2.91", "2026-03-14T06:00:11Z", "GET", "/t p", "x=\u2713", "200", None, None,
      None]),
]

# Traefik's CLF: in auto mode a combined line with trailing fields; by name,
# those fields have names.
TRAEFIK = ('192.0.2.99 - - [14/Mar/2026:06:00:09 +0000] "GET /r%C3%A9sum%C3%A9 HTTP/1.1" 200 10 '
           '"-" "Go-http-client" 42 "router@docker" "http://10.0.0.2:80" 3ms')


def sample_bytes(text):
    return text.encode("utf-8")


def tsv_value(v):
    if v is None:
        return "\\N"
    return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def check_sample(name, fmt, line, want_line, want_json, want_row, detect):
    args = [] if detect else ["--format", fmt]
    how = "auto" if detect else fmt
    data = sample_bytes(line) + b"\n"
    result = run_ok("%s %s line" % (name, how), args, data)
    got = result.stdout.decode("utf-8", "replace")
    check("%s %s line output" % (name, how), got == want_line + "\n",
          "\n got  %r\n want %r" % (got, want_line + "\n"))
    if want_json is not None:
        result = run_ok("%s %s json" % (name, how), args + ["--json"], data)
        try:
            obj = json.loads(result.stdout)
        except ValueError as e:
            check("%s %s json parses" % (name, how), False, "%s: %s" % (e, short(result.stdout)))
            obj = {}
        for key, value in want_json.items():
            check("%s %s json %s" % (name, how, key), obj.get(key, "(absent)") == value,
                  "got %r, want %r" % (obj.get(key, "(absent)"), value))
    result = run_ok("%s %s tsv" % (name, how), args + ["--tsv"], data)
    want = "\t".join(tsv_value(v) for v in want_row) + "\n"
    got = result.stdout.decode("utf-8", "replace")
    check("%s %s tsv row" % (name, how), got == want, "\n got  %r\n want %r" % (got, want))
    result = run_ok("%s %s csv" % (name, how), args + ["--csv", "--header"], data)
    rows = list(csv.reader(io.StringIO(result.stdout.decode("utf-8"))))
    want_csv = [v if v is not None else "" for v in want_row]
    check("%s %s csv" % (name, how), rows == [TSV_FIELDS, want_csv],
          "got %r, want %r" % (rows, [TSV_FIELDS, want_csv]))


def test_formats():
    """Each format by name, every output mode, field by field."""
    for name, fmt, line, want_line, want_json, want_row in SAMPLES:
        check_sample(name, fmt, line, want_line, want_json, want_row, detect=False)
    result = run_ok("traefik by name", ["--format", "traefik", "--json"], sample_bytes(TRAEFIK) + b"\n")
    obj = json.loads(result.stdout)
    for key, value in [("format", "traefik"), ("path", "/r\u00e9sum\u00e9"), ("request_count", 42),
                       ("router", "router@docker"), ("server_url", "http://10.0.0.2:80"),
                       ("duration", "3ms")]:
        check("traefik json %s" % key, obj.get(key) == value, "got %r" % obj.get(key))


def test_detect():
    """Each format found in auto mode, alone and mixed in one file."""
    for name, fmt, line, want_line, want_json, want_row in SAMPLES:
        check_sample(name, fmt, line, want_line, want_json, want_row, detect=True)
    result = run_ok("traefik auto", ["--json"], sample_bytes(TRAEFIK) + b"\n")
    obj = json.loads(result.stdout)
    check("traefik auto: combined with extras",
          obj.get("format") == "combined" and obj.get("extra") ==
          ["42", "router@docker", "http://10.0.0.2:80", "3ms"], short(result.stdout))
    # One file, every format, lines shuffled; chunks of a few lines handed
    # to threads: each line is found on its own.
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("detect: seed %d (PCT_TEST_SEED repeats it)" % seed)
    rng = random.Random(seed)
    lines = [s for s in SAMPLES for _ in range(3)] + [(None, None, "junk that is no log", None,
                                                       None, None)]
    rng.shuffle(lines)
    data = b"".join(sample_bytes(s[2]) + b"\n" for s in lines)
    for args in [["--threads", "1"], ["--threads", "2", "--chunk-size", "700"]]:
        result = run_ok("mixed %s" % args, args + ["--tsv", "--fields", "format,path"], data)
        out = result.stdout.decode().splitlines()
        check("mixed %s: one line each" % args, len(out) == len(lines))
        for sample, text in zip(lines, out):
            want = "%s\t%s" % (sample[1], tsv_value(sample[5][4])) if sample[1] else "unparsed\t\\N"
            if not check("mixed %s: %s" % (args, sample[0]), text == want,
                         "got %r, want %r" % (text, want)):
                break
        result = run_ok("mixed json %s" % args, args + ["--json"], data)
        out = result.stdout.splitlines()
        for sample, text in zip(lines, out):
            obj = json.loads(text)
            want = sample[5][4] if sample[1] else None
            if not check("mixed json %s: %s" % (args, sample[0]), obj.get("path") == want,
                         "got %s" % short(text)):
                break
        result = run_ok("mixed %s lines" % args, args, data)
        want = "".join((s[3] if s[3] is not None else s[2]) + "\n" for s in lines)
        check("mixed %s: line output" % args, result.stdout.decode("utf-8") == want)
    result = run_ok("mixed stats", ["--stats", "--threads", "2", "--chunk-size", "900"], data)
    err = result.stderr.decode()
    counts = {}
    for s in SAMPLES:
        counts[s[1]] = counts.get(s[1], 0) + 3
    for fmt, count in counts.items():
        m = re.search(r"^format %s +(\d+) lines$" % re.escape(fmt), err, re.M)
        check("stats format %s" % fmt, m is not None and int(m.group(1)) == count, err)
    m = re.search(r"^unparsed lines: +(\d+)", err, re.M)
    check("stats unparsed", m is not None and int(m.group(1)) == 1, err)


def test_w3c():
    """CloudFront with its W3C headers: both layers, once each; IIS in TSV."""
    header = ("#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) "
              "cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query\n")
    row = ("2026-03-14\t06:00:11\tIAD89-C1\t3260\t192.0.2.111\tGET\td1.cloudfront.net\t"
           "/a%2520b/%252525\t200\t-\tMozilla/5.0%20(X11)\tq=%2520x\n")
    data = (header + row).encode()
    result = run_ok("cloudfront w3c", [], data)
    out = result.stdout.decode().splitlines()
    check("cloudfront w3c: directives kept", out[:2] == header.splitlines())
    check("cloudfront w3c: line", out[2] == row.rstrip("\n").replace("/a%2520b/%252525", "/a\\x20b/%25")
          .replace("q=%2520x", "q=\\x20x"), short(out[2]))
    result = run_ok("cloudfront w3c json", ["--json"], data)
    obj = json.loads(result.stdout.splitlines()[2])
    for key, value in [("format", "cloudfront"), ("path", "/a b/%25"), ("query", [["q", " x"]]),
                       ("agent", "Mozilla/5.0 (X11)"), ("time_iso", "2026-03-14T06:00:11Z"),
                       ("remote", "192.0.2.111"), ("status", 200), ("bytes", 3260)]:
        check("cloudfront w3c json %s" % key, obj.get(key) == value, "got %r" % obj.get(key))
    iis = (b"#Software: Microsoft Internet Information Services 10.0\n"
           b"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port c-ip cs(User-Agent) sc-status\n"
           b"2026-03-14 06:00:00 198.51.100.1 GET /caf%u00E9/a%20b x=%u2713&y=1 443 192.0.2.5 Mozilla/5.0+(Windows) 200\n"
           b"#Fields: date time c-ip cs-uri-stem sc-status\n"
           b"2026-03-14 06:00:01 192.0.2.6 /second%09tab 404\n")
    result = run_ok("iis json", ["--json"], iis)
    objs = [json.loads(t) for t in result.stdout.splitlines()]
    check("iis json directives", objs[0] == {"directive": iis.splitlines()[0].decode()}, short(result.stdout))
    for key, value in [("format", "w3c"), ("date", "2026-03-14"), ("time", "06:00:00"),
                       ("time_iso", "2026-03-14T06:00:00Z"), ("server_ip", "198.51.100.1"),
                       ("method", "GET"), ("path", "/caf\u00e9/a b"), ("query", [["x", "\u2713"], ["y", "1"]]),
                       ("port", 443), ("remote", "192.0.2.5"), ("agent", "Mozilla/5.0 (Windows)"),
                       ("status", 200)]:
        check("iis json %s" % key, objs[2].get(key, "(absent)") == value, "got %r" % objs[2].get(key, "(absent)"))
    check("iis json: second #Fields: layout", objs[4].get("path") == "/second\ttab" and objs[4].get("status") == 404
          and "method" not in objs[4], short(result.stdout))
    result = run_ok("iis tsv", ["--tsv", "--fields", "format,remote,time_iso,path,query,status,port"], iis)
    want = ("directive\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n" * 2 +
            "w3c\t192.0.2.5\t2026-03-14T06:00:00Z\t/caf\u00e9/a b\tx=\u2713&y=1\t200\t443\n" +
            "directive\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n" +
            "w3c\t192.0.2.6\t2026-03-14T06:00:01Z\t/second\\ttab\t\\N\t404\t\\N\n")
    got = result.stdout.decode()
    check("iis tsv", got == want, "\n got  %r\n want %r" % (got, want))


def test_custom():
    """--log-format: nginx and Apache strings."""
    nginx = ('$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
             '"$http_referer" "$http_user_agent" rt=$request_time ua="$upstream_addr" $host')
    line = (b'192.0.2.20 - - [14/Mar/2026:06:00:00 +0000] "GET /n%C3%A9?a=%20 HTTP/2.0" 200 7 '
            b'"-" "curl \\x22x\\x22" rt=0.120 ua="198.51.100.7:8080, 198.51.100.8:8080" www.example.com\n')
    result = run_ok("nginx format", ["--log-format", nginx, "--json"], line)
    obj = json.loads(result.stdout)
    for key, value in [("format", "custom"), ("remote", "192.0.2.20"), ("path", "/n\u00e9"),
                       ("query", [["a", " "]]), ("status", 200), ("bytes", 7),
                       ("agent", 'curl "x"'), ("request_time", 0.120),
                       ("upstream_addr", "198.51.100.7:8080, 198.51.100.8:8080"),
                       ("host", "www.example.com")]:
        check("nginx format json %s" % key, obj.get(key) == value, "got %r" % obj.get(key))
    result = run_ok("nginx format line", ["--log-format", nginx], line)
    check("nginx format line", result.stdout == line.replace(b"/n%C3%A9?a=%20", "/n\u00e9?a=\\x20".encode()),
          short(result.stdout))
    apache = '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D %{X-Request-Id}i'
    line = (b'192.0.2.21 - carol [14/Mar/2026:06:00:00 +0100] "POST /form%3Fx?b=%2F HTTP/1.1" 201 - '
            b'"https://example.org/a%20b" "Wget/1.21" 1534 req-77\n')
    result = run_ok("apache format", ["--log-format", apache, "--json", "--referer"], line)
    obj = json.loads(result.stdout)
    for key, value in [("remote", "192.0.2.21"), ("user", "carol"), ("method", "POST"),
                       ("path", "/form?x"), ("query", [["b", "/"]]), ("status", 201),
                       ("bytes", None), ("referer", "https://example.org/a b"),
                       ("duration_us", 1534), ("x_request_id", "req-77"),
                       ("time_iso", "2026-03-14T06:00:00+01:00")]:
        check("apache format json %s" % key, obj.get(key) == value, "got %r" % obj.get(key))
    result = run_ok("apache path+query", ["--log-format", '%a "%m %U%q %H" %>s', "--tsv", "--fields",
                                          "remote,method,path,query,protocol,status"],
                    b'192.0.2.22 "GET /p%20q?r=%C3%A9 HTTP/1.1" 200\n')
    check("apache %U%q", result.stdout == "192.0.2.22\tGET\t/p q\tr=\u00e9\tHTTP/1.1\t200\n".encode(),
          short(result.stdout))
    result = run_ok("nginx uri is_args args", ["--log-format", "$remote_addr $uri$is_args$args", "--json"],
                    b"192.0.2.23 /x%20y?k=v\n")
    obj = json.loads(result.stdout)
    check("nginx $uri$is_args$args", obj.get("path") == "/x y" and obj.get("query") == [["k", "v"]],
          short(result.stdout))
    # A field other than a time or a list ends at a space: the ':' of a later
    # field is not taken for the one after the host.
    result = run_ok("host:port", ["--log-format", "$host:$server_port $remote_addr \"$request\"", "--json"],
                    b'www.example.com 192.0.2.24 "GET /a:b HTTP/1.1"\nwww.example.com:8080 192.0.2.24 "GET /a%3Ab HTTP/1.1"\n')
    objs = [json.loads(t) for t in result.stdout.splitlines()]
    check("host:port without the port: unparsed", "unparsed" in objs[0], short(result.stdout))
    check("host:port", objs[1].get("host") == "www.example.com" and objs[1].get("port") == 8080
          and objs[1].get("path") == "/a:b", short(result.stdout))
    # Directives with an argument that is not a header's name: %{c}a, %{ms}T.
    result = run_ok("apache %{c}a", ["--log-format", '%{c}a %t %{ms}T "%r"', "--json"],
                    b'192.0.2.25 [14/Mar/2026:06:00:00 +0000] 12 "GET /x%20y HTTP/1.1"\n')
    obj = json.loads(result.stdout)
    check("apache %{c}a %{ms}T", obj.get("remote") == "192.0.2.25" and obj.get("duration") == 12
          and obj.get("path") == "/x y", short(result.stdout))
    # A line of another format: unparsed, passed through.
    result = run_ok("custom unparsed", ["--log-format", apache], b"not this format\n")
    check("custom unparsed", result.stdout == b"not this format\n")
    for bad in ["$a$b", "%h %{X", "%h %Z", "no fields", "$", "%"]:
        result = run(["--log-format", bad])
        check("bad --log-format %r (exit 2)" % bad, result.returncode == 2,
              "exit %d" % result.returncode)
        check("bad --log-format %r (message)" % bad, b"--log-format" in result.stderr,
              short(result.stderr))


def test_tables():
    """TSV/CSV: escaping, unparsed rows, header, one row per line."""
    line = (b'192.0.2.30 - - [14/Mar/2026:06:00:00 +0000] "GET /t%09a%0Ab%5Cc%2C%22d?q=%1B HTTP/1.1" '
            b'200 1 "-" "x, \\"y\\""\r\n' + b"junk\x1b[2J\n" + b"\n")
    fields = "format,path,query,agent,line"
    result = run_ok("tsv escaping", ["--tsv", "--fields", fields, "--header"], line)
    want = ("format\tpath\tquery\tagent\tline\r\n"[:-2] + "\n" +
            'combined\t/t\\ta\\nb\\\\c,"d\tq=\\x1b\tx, "y"\t'
            '192.0.2.30 - - [14/Mar/2026:06:00:00 +0000] "GET /t%09a%0Ab%5Cc%2C%22d?q=%1B HTTP/1.1" '
            '200 1 "-" "x, \\\\"y\\\\""\n'  # a CRLF row ends in "\n" (its CR is no data)
            "unparsed\t\\N\t\\N\t\\N\tjunk\\x1b[2J\n"
            "unparsed\t\\N\t\\N\t\\N\t\n")
    got = result.stdout.decode()
    check("tsv escaping", got == want, "\n got  %r\n want %r" % (got, want))
    result = run_ok("csv quoting", ["--csv", "--fields", fields], line)
    rows = list(csv.reader(io.StringIO(result.stdout.decode(), newline="")))
    check("csv rows", len(rows) == 3, repr(rows))
    if len(rows) == 3:
        check("csv combined row", rows[0][:4] == ["combined", '/t\\ta\\nb\\\\c,"d', "q=\\x1b", 'x, "y"'],
              repr(rows[0]))
        check("csv unparsed row", rows[1] == ["unparsed", "", "", "", "junk\\x1b[2J"], repr(rows[1]))
    for args in [["--tsv"], ["--csv"], ["--json"], []]:
        for sample in SAMPLES:
            out = run_ok("no raw controls %s %s" % (args, sample[0]), args,
                         sample_bytes(sample[2]) + b"\n").stdout
            body = out[:-1]
            if not args or args == ["--tsv"]:  # tabs: field separators
                body = body.replace(b"\t", b"")
            check("no raw controls %s %s" % (args, sample[0]),
                  out.endswith(b"\n") and not any(c < 0x20 or c == 0x7F for c in body), short(out))
    for args, message in [(["--tsv", "--json"], b"--json"), (["--fields", "a"], b"--fields"),
                          (["--header"], b"--header"), (["--tsv", "--fields", "a,,b"], b"empty"),
                          (["--tsv", "--fields", "a b"], b"--fields"),
                          (["--tsv", "--field", "3"], b"--field"),
                          (["--format", "nosuch"], b"unknown format")]:
        result = run(args)
        check("usage %s" % args, result.returncode == 2 and message in result.stderr,
              "exit %d %s" % (result.returncode, short(result.stderr)))


def test_strict():
    good = sample_bytes(SAMPLES[0][2]) + b"\n"
    result = run(["--strict-format"], good)
    check("strict, all parsed: exit 0", result.returncode == 0, short(result.stderr))
    result = run(["--strict-format"], good + b"junk\n" + good)
    check("strict, unparsed: exit 1", result.returncode == 1, "exit %d" % result.returncode)
    check("strict, unparsed: message", b"1 line did not parse" in result.stderr, short(result.stderr))
    check("strict, unparsed: output kept", result.stdout.count(b"\n") == 3)
    result = run([], good + b"junk\n")
    check("not strict: exit 0", result.returncode == 0)


def test_spaces():
    """Line output of the record formats: a decoded space is \\x20, so the
    line splits into the same fields; --raw-spaces writes it as it is."""
    env = sample_bytes(SAMPLES[4][2]) + b"\n"
    result = run_ok("spaces", [], env)
    check("spaces: same field count", len(result.stdout.split()) == len(env.split()))
    result = run_ok("raw spaces", ["--raw-spaces"], env)
    check("raw spaces", b"x=1 2 HTTP/2" in result.stdout, short(result.stdout))


FORMAT_NAMES = ["auto", "combined", "common", "vhost_combined", "xff_combined", "envoy", "haproxy",
                "alb", "elb", "squid", "cloudfront", "traefik", "json", "w3c"]


def mutate(rng, line):
    """The line with a few bytes changed, inserted or cut: quotes, escapes,
    separators, controls, bytes that are not UTF-8."""
    b = bytearray(line)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(4)
        at = rng.randrange(len(b) + 1)
        piece = rng.choice([b'"', b"\\", b" ", b"\t", b"%", b"%2", b"%25", b"[", b"]", b"{", b"}",
                            b"\x00", b"\x1b", b"\r", b"\xff", b"\xc2\x85", b"\\x22", b"=", b",",
                            b"\\u00", b"?", b"#", b"%0A", b"%C3"])
        if op == 0:
            b[at:at] = piece
        elif op == 1 and at < len(b):
            del b[at:at + rng.randint(1, 8)]
        elif op == 2:
            b = b[:at]
        else:
            b[at:at + len(piece)] = piece
    return bytes(b).replace(b"\n", b"")


def test_mutations():
    """Broken lines of every format in every mode: exit 0, one output line
    per input line, no raw control byte, JSON and CSV that parse, TSV rows
    of the same width."""
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("mutations: seed %d (PCT_TEST_SEED repeats it)" % seed)
    rng = random.Random(seed)
    base = [sample_bytes(s[2]) for s in SAMPLES] + [sample_bytes(TRAEFIK)]
    lines = [mutate(rng, rng.choice(base)) for _ in range(300)] + base
    rng.shuffle(lines)
    data = b"\n".join(lines) + b"\n"
    count = len(lines)
    for fmt in FORMAT_NAMES:
        for mode in [[], ["--json"], ["--tsv", "--fields", "format,remote,path,query,line"],
                     ["--csv", "--fields", "format,path,query,agent,extra"], ["--raw-spaces"]]:
            name = "mutations %s %s" % (fmt, " ".join(mode))
            result = run_ok(name, ["--format", fmt, "--threads", "2", "--chunk-size", "2k"] + mode, data)
            out = result.stdout
            check(name + " (line count)", out.count(b"\n") == count,
                  "in %d, out %d" % (count, out.count(b"\n")))
            body = out.replace(b"\r\n", b"").replace(b"\n", b"")
            if "--json" not in mode and "--csv" not in mode:
                body = body.replace(b"\t", b"")
            check(name + " (no raw controls)", not any(c < 0x20 or c == 0x7F for c in body),
                  short(bytes(c for c in body if c < 0x20 or c == 0x7F)))
            if "--json" in mode:
                bad = [t for t in out.splitlines() if not _is_json_object(t)]
                check(name + " (JSON)", not bad, repr(bad[:1]))
            if "--tsv" in mode:
                widths = set(t.count(b"\t") for t in out.splitlines())
                check(name + " (TSV width)", widths == {4}, repr(widths))
            if "--csv" in mode:
                rows = list(csv.reader(io.StringIO(out.decode("utf-8", "replace"), newline="")))
                check(name + " (CSV)", len(rows) == count and all(len(r) == 5 for r in rows),
                      "%d rows" % len(rows))


def _is_json_object(text):
    try:
        return isinstance(json.loads(text.decode("utf-8")), dict)
    except (ValueError, UnicodeDecodeError):
        return False


GROUPS = {"formats": test_formats, "detect": test_detect, "w3c": test_w3c, "custom": test_custom,
          "tables": test_tables, "strict": test_strict, "spaces": test_spaces,
          "mutations": test_mutations}


def set_pct(path):
    test_logs.set_pct(path)


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
