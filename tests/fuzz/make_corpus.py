#!/usr/bin/env python3
"""make_corpus.py - writes the seed corpus corpus/<target>/ (deterministic).

    python3 tests/fuzz/make_corpus.py

Each seed of the libpct targets is the 5-byte header of fuzz.h (flags, set,
keep, chunk seed, misalignment) followed by a payload: typical URLs, form
bodies, %uXXXX, malformed escapes, UTF-8 edge cases, binary. The log targets
(fuzz_logs, fuzz_logs_files) take the 8-byte header of logs_fuzz.h (format,
writer, decoding, threads and chunk sizes, max-line, chunking seed, field N
and variants, --log-format length), then a few lines of a log: every format
of the registry, each through a writer, with escapes, controls, CRLF and a
last line without a newline. Re-running rewrites the same files; the fuzzers
never write here (run_fuzz.py and fuzz.sh work on copies).
"""
import os

PLUS, STRICT, UTF8, KEEP_ESCAPES, PERCENT_U, UTF8_REPLACE = 1, 2, 4, 8, 16, 32
# Set selectors (byte 1), keep selectors (byte 2): see fuzz.h.
C0, FRAGMENT, QUERY, SPECIAL_QUERY, PATH, USERINFO, COMPONENT, FORM, RFC3986, URI, URI_COMPONENT = \
    range(11)
EMPTY, FULL, USER32, ESCAPE_BYTES, USER_ASCII = 11, 12, 13, 14, 15
K_NULL, K_SLASH, K_DECODE_URI, K_RFC3986, K_USER32, K_FULL, K_EMPTY = range(7)

LONG = (b"https://user:p%40ss@example.com:8080/a%20path/%E6%97%A5%E6%9C%AC/x.html"
        b"?q=caf%C3%A9+au+lait&tag=%F0%9F%98%80&empty=&bad=%zz%4&u=%u00e9%uD83D%uDE00"
        b"#frag%20ment/%2F%2f%7e%7E") * 3

PAYLOADS = {
    "url": b"https://example.com/a%20b/c%2Fd?q=1&r=%E2%82%AC#frag",
    "form": b"name=John+Doe&city=S%C3%A3o+Paulo&x=%2B1&y=a+%2B+b&z=100%25",
    "percent-u": b"%u0041%u00e9%u20AC%uD83D%uDE00 lone %uD800 x %uDC00%u00%uZZZZ%U0041",
    "malformed": b"%%41%4%G1%zz%2%%%25%2541%0a%0A%%%",
    "utf8-raw": bytes([0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0xEF, 0xBF,
                       0xBD, 0xF0, 0x9F, 0x98, 0x80, 0xC2, 0x41, 0x80, 0xF5, 0xE2, 0x82]),
    "utf8-escaped": b"%C0%80%ED%A0%80%F4%90%80%80%EF%BF%BD%F0%9F%98%80%C2A%80%E2%82",
    "text": "日本語のテキスト & émoji 😀 <tag> \"q\" `b` {c} |d| ~e~".encode(),
    "binary": bytes(range(256)),
    "normalize": b"%7e%41%2f%6%41%6A%3a%3A/%7E%5f%2D%2e%30%7a%%61%25",
    "long": LONG,
}

# target -> [(name, payload key, flags, set, keep, chunk seed, align, extra bytes)]
SEEDS = {
    "fuzz_decode": [
        ("url", "url", 0, 0, K_NULL, 1, 0),
        ("url-keep-slash", "url", STRICT, 0, K_SLASH, 7, 3),
        ("form-plus", "form", PLUS, 0, K_NULL, 2, 0),
        ("form-decodeuri", "form", PLUS | UTF8, 0, K_DECODE_URI, 9, 5),
        ("percent-u", "percent-u", PERCENT_U, 0, K_NULL, 3, 0),
        ("percent-u-strict-utf8", "percent-u", PERCENT_U | STRICT | UTF8, 0, K_RFC3986, 4, 1),
        ("percent-u-replace", "percent-u", PERCENT_U | UTF8_REPLACE, 0, K_SLASH, 5, 2),
        ("malformed", "malformed", 0, 0, K_NULL, 6, 0),
        ("malformed-strict", "malformed", STRICT, 0, K_FULL, 8, 7),
        ("utf8-strict", "utf8-escaped", UTF8, 0, K_NULL, 10, 0),
        ("utf8-replace", "utf8-escaped", UTF8_REPLACE, 0, K_EMPTY, 11, 9),
        ("utf8-raw-replace", "utf8-raw", UTF8_REPLACE, 0, K_NULL, 12, 0),
        ("binary", "binary", 0, 0, K_NULL, 13, 0),
        ("normalize", "normalize", 0, 0, K_RFC3986, 14, 0),
        ("normalize-strict", "normalize", STRICT, 0, K_NULL, 15, 4),
        ("long", "long", PERCENT_U, 0, K_NULL, 16, 0),
        ("long-utf8-plus", "long", UTF8 | PLUS | PERCENT_U, 0, K_DECODE_URI, 17, 13),
        ("long-replace", "long", UTF8_REPLACE | 0x40 | UTF8, 0, K_NULL, 18, 31),
    ],
    "fuzz_encode": [
        ("url-component", "url", 0, COMPONENT, 0, 1, 0),
        ("url-path-keep", "url", KEEP_ESCAPES, PATH, 0, 2, 3),
        ("form-plus", "form", PLUS, FORM, 0, 3, 0),
        ("form-plus-keep", "form", PLUS | KEEP_ESCAPES, FORM, 0, 4, 1),
        ("text-utf8", "text", UTF8, RFC3986, 0, 5, 0),
        ("text-uri", "text", 0, URI, 0, 6, 2),
        ("text-query", "text", PLUS, QUERY, 0, 7, 0),
        ("utf8-raw-utf8", "utf8-raw", UTF8, URI_COMPONENT, 0, 8, 0),
        ("utf8-raw-fragment", "utf8-raw", 0, FRAGMENT, 0, 9, 5),
        ("malformed-keep", "malformed", KEEP_ESCAPES, USERINFO, 0, 10, 0),
        ("binary-c0", "binary", 0, C0, 0, 11, 0),
        ("binary-full-plus", "binary", PLUS, FULL, 0, 12, 7),
        ("binary-empty", "binary", 0, EMPTY, 0, 13, 0),
        ("escape-bytes", "malformed", KEEP_ESCAPES | PLUS, ESCAPE_BYTES, 0, 14, 0),
        ("special-query", "url", 0, SPECIAL_QUERY, 0, 15, 0),
        ("long-rfc3986", "long", KEEP_ESCAPES, RFC3986, 0, 16, 0),
        ("long-utf8-form", "long", UTF8 | PLUS, FORM, 0, 17, 11),
    ],
    "fuzz_validate": [
        ("url-component", "url", 0, COMPONENT, 0, 0, 0),
        ("url-uri-strict", "url", STRICT, URI, 0, 0, 1),
        ("form-plus", "form", PLUS, FORM, 0, 0, 0),
        ("form-plus-utf8", "form", PLUS | UTF8, COMPONENT, 0, 0, 2),
        ("percent-u", "percent-u", PERCENT_U, C0, 0, 0, 0),
        ("percent-u-strict", "percent-u", PERCENT_U | STRICT | UTF8, EMPTY, 0, 0, 3),
        ("malformed", "malformed", 0, PATH, 0, 0, 0),
        ("malformed-strict-empty", "malformed", STRICT, EMPTY, 0, 0, 0),
        ("utf8-escaped", "utf8-escaped", UTF8, RFC3986, 0, 0, 5),
        ("utf8-raw", "utf8-raw", UTF8, EMPTY, 0, 0, 0),
        ("text-query", "text", 0, QUERY, 0, 0, 0),
        ("binary-full", "binary", 0, FULL, 0, 0, 0),
        ("normalize", "normalize", STRICT, RFC3986, 0, 0, 0),
        ("long-fragment", "long", PERCENT_U | PLUS, FRAGMENT, 0, 0, 0),
        ("long-utf8", "long", PERCENT_U | UTF8, EMPTY, 0, 0, 9),
    ],
}

# A few seeds with user-built sets (selector 13: 32 bytes follow the header).
USER_SET = bytes((0x5A * (i + 1) + 0x33) & 0xFF for i in range(32))


# ------------------------------------------------------------------ log targets
# Byte 0 of logs_fuzz.h: "auto", the registry's names in id order, their
# aliases in id order, "field" (taken modulo the count: logs_fuzz.c's order;
# `pct logs --list-formats` lists both).
LOG_FORMATS = ["auto", "combined", "common", "w3c", "cloudfront", "vhost_combined",
               "xff_combined", "envoy", "haproxy", "haproxy_clf", "haproxy_tcp", "haproxy_https",
               "alb", "elb", "squid", "squid_combined", "traefik", "json",
               "nginx", "clf", "iis", "vhost", "xff", "caddy", "field"]
LINE, JSON, TSV, CSV = range(4)
RAW, HEADER = 4, 8
Q_FORM, Q_PLAIN, Q_KEEP = 0x00, 0x10, 0x20
DECODE_SLASH, BYTES = 0x40, 0x80
PERCENT_U, REFERER, RAW_SPACES, STRICT_FORMAT, LOG_FORMAT = 1, 2, 4, 8, 0x80
CSV_SAFE = 0x40  # byte 7

COMBINED = (b'192.0.2.10 - - [14/Mar/2026:06:00:00 +0000] "GET /caf%C3%A9?q=a%2Bb&x=%26 HTTP/1.1" '
            b'200 512 "https://example.org/a%20b" "Mozilla/5.0" "203.0.113.9" rt=0.005\n'
            b'192.0.2.11 - bob [14/Mar/2026:06:00:01 +0000] "POST /a%2Fb/%1B[31m%0A?k=%u00e9&%C2%9B=1 '
            b'HTTP/1.1" 404 - "-" "curl \\"x\\" \x1b[0m"\r\n'
            b'192.0.2.12 - - [14/Mar/2026:06:00:02 +0000] "GET /x%23y%00z HTTP/1.0" 200 5 "-" "-" '
            b'path=/admin remote=10.0.0.1\n'
            b'not a log line at all\tbut text\n'
            b'192.0.2.13 - - [99/Feb/2026:99:99:99 +9999] "GET /last HTTP/1.1 extra" 200 1 "-" "-"')
COMMON = (b'192.0.2.12 - - [14/Mar/2026:06:00:12 +0000] "GET /a%2Fb/%7Ex HTTP/1.0" 404 -\n'
          b'192.0.2.13 - - [14/Mar/2026:06:00:13 +0000] "GET /%FF%FE%C0%80 HTTP/1.0" 200 12\r\n'
          b'192.0.2.14 - - [14/Mar/2026:06:00:14 +0000] "GET %23start HTTP/1.0" 200 1')
W3C = (b"#Software: Microsoft Internet Information Services 10.0\n"
       b"#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status cs(Referer)\n"
       b"2026-03-14 06:00:00 192.0.2.1 GET /a%20b/%u00e9 q=%u20AC&r=%26 200 http://x/%41\n"
       b"2026-03-14 06:00:01 192.0.2.2 GET /%1b%5b2J - 404 -\r\n"
       b"#Fields: date time cs-uri-stem cs-uri-stem sc-status\n"
       b"2026-03-14 06:00:02 /dup /dup 200")
CLOUDFRONT = (b"2026-03-14\t06:00:11\tIAD89-C1\t3260\t192.0.2.111\tGET\td1.cloudfront.net\t"
              b"/a%2520b/caf%25C3%25A9/p%252525\t200\t-\tMozilla/5.0%20(X11;%20Linux)\tq=%2520x%2526y"
              b"\t-\tHit\tSOX4xw==\td1.cloudfront.net\thttps\t23\t0.001\t-\tTLSv1.3\t"
              b"TLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\t-\t-\t11040\t0.001\tHit\ttext/html\t78\t-\t-\n"
              b"2026-03-14\t06:00:12\tIAD89-C1\t1\t192.0.2.112\tGET\td1.cloudfront.net\t/%251b\t200")
VHOST = (b'www.example.com:443 192.0.2.11 - bob [14/Mar/2026:06:00:01 -0700] '
         b'"GET /a%20b/%E2%82%AC?k=%C3%A9 HTTP/1.1" 404 0 "-" "curl/8.5.0"\n'
         b'BZhost.example:80 192.0.2.12 - - [14/Mar/2026:06:00:02 -0700] "GET /%7f HTTP/1.1" 200 1 "-" "-"')
XFF = (b'203.0.113.7, 198.51.100.2 - - [14/Mar/2026:06:00:02 +0000] "GET /s%C3%BCd HTTP/1.1" 200 5 '
       b'"-" "UA"\n'
       b'203.0.113.8 - - [14/Mar/2026:06:00:03 +0000] "GET /%09tab HTTP/1.1" 200 5 "-" "UA"')
ENVOY = (b'[2026-03-14T06:00:03.123Z] "POST /api/v1/%E2%82%AC?x=1%202 HTTP/2" 204 - 154 0 226 100 '
         b'"192.0.2.33" "nsq2http" "cc21d9b0-cf5c-432b" "api.example.com" "198.51.100.4:80"\n'
         b'[2026-03-14T06:00:04.000Z] "GET /q?k=%1B%5D0;t%07 HTTP/1.1" 200 - 0 0 1 1 '
         b'"-" "\x1b[31m" "-" "-" "-"')
HAPROXY = (b'Mar 14 06:00:04 lb1 haproxy[14389]: 192.0.2.44:33317 [14/Mar/2026:06:00:04.655] http-in '
           b'static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {www.example.com|Mozilla/5.0} {} '
           b'"GET /a%20b?c=%C3%A9 HTTP/1.1"\n'
           b'192.0.2.45:33318 [14/Mar/2026:06:00:05.001] http-in~ app/srv2 0/0/1/2/3 302 120 - - --NI '
           b'2/2/0/0/0 0/0 "GET /x%2Fy%7E HTTP/1.1"')
HAPROXY_CLF = (b'Nov 27 19:15:32 localhost haproxy[17172]: 127.0.0.1 - - [27/Nov/2026:19:15:32 +0000] '
               b'"GET /a%20b?q=#22x HTTP/1.1" 200 74 "" "" 39610 487 "fe" "be" "s1" 0 0 0 0 0 ---- '
               b'1 1 0 0 0 0 0 "" "" "http://r.example/a%20b" "-" \n'
               b'127.0.0.1 - - [27/Nov/2026:19:15:32 +0000] "<BADREQ>" 400 0 "" "" 39576 486 "fe" "fe" '
               b'"<NOSRV>" -1 -1 -1 -1 0 CR-- 2 2 0 0 0 0 0 "" "" ')
HAPROXY_TCP = (b'<134>1 2026-11-27T12:28:20.123Z lb1 haproxy 123 - - [2001:db8::1]:4567 '
               b'[27/Nov/2026:12:28:20.123] fe be/srv 1/2/+3 100 -- 1/1/1/1/0 0/0\n'
               b'2001:db8::1:4567 [27/Nov/2026:12:28:20.123] fe be/<NOSRV> -1/-1/0 0 CR 1/1/0/0/0 0/0')
HAPROXY_HTTPS = (b'<134>Nov 27 12:28:20 haproxy[1]: 192.0.2.1:4567 [27/Nov/2026:12:28:20.123] fe~ be/s '
                 b'0/0/1/2/3 200 5 - - ---- 1/1/1/1/0 0/0 {a#7Cb|#22q#22} {x} "GET /%E2%82%AC HTTP/2.0" '
                 b'0/0/0/0/0 www.example.com/TLSv1.3/TLS_AES_256_GCM_SHA384\n'
                 b'192.0.2.2:1 [27/Nov/2026:12:28:20.124] fe be/s 0/0/1/2/3 200 5 - - ---- 1/1/1/1/0 0/0 '
                 b'{' + b'x' * 300 + b'|y')
ALB = (b'https 2026-03-14T06:00:05.186641Z app/my-lb/50dc6c495c0c9188 192.0.2.55:2817 10.0.0.1:80 '
       b'0.000 0.001 0.000 200 200 34 366 "GET https://www.example.com:443/p%20q?r=%C3%A9 HTTP/1.1" '
       b'"curl/8.5.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:tg "Root=1-5833" "www.example.com" '
       b'"arn:aws:acm:cert" 1 2026-03-14T06:00:05.164000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"'
       b' TID_1234')
ELB = (b'2026-03-14T06:00:06.945958Z my-loadbalancer 192.0.2.66:2817 10.0.0.1:80 0.000073 0.001048 '
       b'0.000057 200 200 0 29 "GET http://www.example.com:80/a%2Bb%20c HTTP/1.1" "curl/8.5.0" - -\n'
       b'2026-03-14T06:00:07Z lb 192.0.2.67:1 - -1 -1 -1 504 0 0 0 "- - - " "-" - -')
SQUID = (b'1773468007.123    123 192.0.2.77 TCP_MISS/200 1234 GET http://www.example.com/a%20b?q=%C3%A9 '
         b'- HIER_DIRECT/203.0.113.5 text/html\n'
         b'1773468008.000      1 192.0.2.78 TCP_DENIED/403 0 CONNECT evil.example:443 - HIER_NONE/- -')
TRAEFIK = (b'192.0.2.99 - - [14/Mar/2026:06:00:09 +0000] "GET /r%C3%A9sum%C3%A9 HTTP/1.1" 200 10 '
           b'"-" "Go-http-client" 42 "router@docker" "http://10.0.0.2:80" 3ms\n'
           b'192.0.2.98 - - [14/Mar/2026:06:00:10 +0000] "GET /%E2%80%AE HTTP/1.1" 200 1 "-" "-" 1 "r" "s" 1ms')
JSONL = (b'{"level":"info","ts":1773468008.5,"request":{"remote_ip":"192.0.2.88","method":"GET",'
         b'"uri":"/caf%C3%A9?q=a%20b\\u0026x=%26","headers":{"User-Agent":["curl/8.5.0"]}},'
         b'"status":200,"size":12}\n'
         b'{"time_local":"14/Mar/2026:06:00:10 +0000","remote_addr":"192.0.2.90",'
         b'"request":"GET /d%C3%A9j%C3%A0?a=%22x%22 HTTP/1.1","status":"200","uri":"/other",'
         b'"http_user_agent":"curl\\/8.5.0 \\"q\\" \\u001b[1m"}\n'
         b'{"ClientHost":"192.0.2.91","RequestMethod":"GET","RequestPath":"/t%20p?x=%E2%9C%93",'
         b'"pa\\u0074h":"/x","DownstreamStatus":2e2,"ok":true,"n":null}\r\n'
         b'{"broken": "json"')
FIELD = (b'1 GET /a%20b%2Fc?x=%26y 200\n2 POST %23frag%0D%0A 500\n3 - /%C2%85 -')
SQUID_COMBINED = (b'192.0.2.78 - - [14/Mar/2026:06:00:08 +0000] "GET http://www.example.com/a"b\\x22c%22 '
                  b'HTTP/1.1" 200 5 "q"uote\\" "{"json":1}" TCP_MISS:HIER_DIRECT')
MIXED = COMBINED + b"\n" + W3C + b"\n" + JSONL + b"\n" + SQUID

LOG_SAMPLES = {
    "combined": COMBINED, "common": COMMON, "w3c": W3C, "cloudfront": CLOUDFRONT,
    "vhost_combined": VHOST, "xff_combined": XFF, "envoy": ENVOY, "haproxy": HAPROXY,
    "haproxy_clf": HAPROXY_CLF, "haproxy_tcp": HAPROXY_TCP, "haproxy_https": HAPROXY_HTTPS, "alb": ALB,
    "elb": ELB, "squid": SQUID, "squid_combined": SQUID_COMBINED, "traefik": TRAEFIK, "json": JSONL, "field": FIELD, "auto": MIXED,
}
WRITERS = [("line", LINE), ("json", JSON), ("tsv", TSV | HEADER), ("csv", CSV | HEADER),
           ("raw", LINE | RAW), ("keep-bytes", LINE | Q_KEEP | BYTES)]


def log_header(fmt, writer, b2=0, b3=0x25, b4=0x4a, seed=7, b6=0x02, lf_len=0):
    return bytes([LOG_FORMATS.index(fmt), writer, b2, b3, b4, seed, b6, lf_len])


def log_seeds():
    """(name, bytes) for both log targets: every format through every
    writer, then options and --log-format strings."""
    seeds = []
    for i, (fmt, text) in enumerate(LOG_SAMPLES.items()):
        for j, (wname, writer) in enumerate(WRITERS):
            if fmt == "field" and writer & 3 >= TSV:
                continue
            b3 = (i + j) % 16 | ((i * 3 + j) % 16) << 4
            seeds.append(("%s-%s" % (fmt, wname),
                          log_header(fmt, writer, b2=(i + j) % 8, b3=b3, b4=(j * 5) % 16,
                                     seed=(i * 16 + j) % 256, b6=(i + 2 * j) % 8 << 4 | j) + text))
    seeds += [
        ("auto-decode-slash-percent-u", log_header("auto", LINE | DECODE_SLASH | Q_PLAIN,
                                                   PERCENT_U | REFERER | RAW_SPACES) + MIXED),
        ("auto-tsv-fields-line", log_header("auto", TSV | HEADER, 0x10) + MIXED),
        ("auto-csv-fields-iso", log_header("auto", CSV, 0x30 | STRICT_FORMAT) + MIXED),
        ("auto-tsv-fields-dup", log_header("auto", TSV, 0x60) + W3C),
        ("combined-long-line-4k", log_header("combined", LINE, b4=0x10 | 0x80) + COMBINED),
        ("combined-long-line-json", log_header("combined", JSON, b4=0x20 | 0x40) + COMBINED),
        ("combined-long-line-csv", log_header("combined", CSV | HEADER, b4=0x30 | 0xC0) + COMBINED),
        ("iis-alias", log_header("iis", JSON) + W3C),
        ("chunk-1-threads-4", log_header("auto", TSV, b3=0x0F, b4=0x00) + MIXED),
        ("auto-csv-safe", log_header("auto", CSV | HEADER, 0x20, lf_len=CSV_SAFE) + MIXED +
         b'\n1.2.3.4 - -@x [14/Mar/2026:06:00:00 +0000] "GET /%3Dcmd|x?%2B1=-2 HTTP/1.1" 200 - '
         b'"=HYPERLINK(1)" "+x"\n'),
        # Holes (64+ NULs: taken out of the text) and a few NULs (text).
        ("auto-nul-holes", log_header("auto", LINE, b6=0x12) + b"\0" * 100 + COMMON[:60] +
         b"\0" * 70 + COMMON[60:] + b"\nx\0\0\0y\n" + b"\0" * 64),
        ("auto-nul-holes-json", log_header("auto", JSON, b6=0x92) + COMMON + b"\n" +
         b"\0" * 200 + b"\n" + b"\0" * 63 + b"\n"),
        # Refused as a plain file (binary data; a PNG), read from gzip/zstd
        # (an open defect: fuzz_logs_files lets only that through).
        ("refused-binary", log_header("auto", LINE, b6=0x52) +
         b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET /a\x01\x02\x03 HTTP/1.1" 200 1\n' * 10),
        ("refused-png-split", log_header("auto", JSON, b6=0x52) + b"\x89PNG\r\n\x1a\nIHDR more\n"),
        # Regressions: the record run's values must be UTF-8 (an absolute
        # URL's origin was given as written).
        ("records-origin-not-utf8", log_header("elb", JSON, b6=0x10) +
         b'2026-03-14T06:00:06.945958Z lb 192.0.2.66:2817 10.0.0.1:80 0.1 0.1 0.1 200 200 0 29 '
         b'"GET http://www.ex\xacample.com:8\xac\xac0/a%20b HTTP/1.1" "curl/8.5.0" - -\n'),
    ]
    for name, lf, text in [
            ("nginx", b'$remote_addr [$time_local] "$request" $status "$http_referer" $request_time',
             b'192.0.2.1 [14/Mar/2026:06:00:00 +0000] "GET /a%20b?x=%1b HTTP/1.1" 200 "-" 0.1\n'
             b'nope\n'),
            ("apache", b'%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" %D',
             b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET /%E2%82%AC HTTP/1.1" 200 5 "-" 12\n'),
            ("nginx-uri", b'$uri|$args|$request_uri|$path|$path', b'/a%20b|x=1|/a%20b?x=1|/p|/q\n'),
            ("haproxy", b'%ci:%cp [%tr] %ft %b/%s %ST %B %hr %hs %{+Q}r %[ssl_fc_sni] %zz %HM %{+Q}HP %HQ',
             b'Nov 27 12:28:20 lb haproxy[1]: ::1:80 [27/Nov/2026:12:28:20.123] fe be/s 200 +5 {a|b} '
             b'"GET /#22x%20y HTTP/1.1" www.example.com z GET "/p" ?q=1\n'
             b'<134>1 2026-11-27T12:28:20Z lb haproxy 1 - - 10.0.0.1:1 [27/Nov/2026:12:28:20.123] fe '
             b'be/s 400 0 "<BADREQ>"\n'),
            ("bad", b'$', b'x\n')]:
        for wname, writer in WRITERS[:4]:
            seeds.append(("log-format-%s-%s" % (name, wname),
                          log_header("auto", writer, LOG_FORMAT, lf_len=len(lf)) + lf + text))
    return seeds


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    for target, seeds in SEEDS.items():
        d = os.path.join(root, target)
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            os.remove(os.path.join(d, old))
        for name, key, flags, set_sel, keep, chunk, align in seeds:
            header = bytes([flags, set_sel, keep, chunk, align])
            with open(os.path.join(d, name), "wb") as fh:
                fh.write(header + PAYLOADS[key])
        if target == "fuzz_decode":
            with open(os.path.join(d, "user-keep"), "wb") as fh:
                fh.write(bytes([PLUS, 0, K_USER32, 19, 0]) + USER_SET + PAYLOADS["url"])
        else:
            with open(os.path.join(d, "user-set"), "wb") as fh:
                fh.write(bytes([PLUS, USER32, 0, 19, 0]) + USER_SET + PAYLOADS["long"])
            with open(os.path.join(d, "user-ascii-set"), "wb") as fh:
                fh.write(bytes([0, USER_ASCII, 0, 20, 6]) + USER_SET[:16] + PAYLOADS["form"])
    for target in ("fuzz_logs", "fuzz_logs_files"):
        d = os.path.join(root, target)
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            os.remove(os.path.join(d, old))
        for name, data in log_seeds():
            with open(os.path.join(d, name), "wb") as fh:
                fh.write(data)


if __name__ == "__main__":
    main()
