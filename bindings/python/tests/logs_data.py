"""Access logs for the tests: the repository's sample, plus lines that
exercise the formats, escapes, bad UTF-8, controls and unparsed lines."""

import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SAMPLE = os.path.join(ROOT, "data", "sample-access.log")


def cli():
    path = os.environ.get("PCT_CLI")
    assert path and os.access(path, os.X_OK), "PCT_CLI must name the pct tool built from this tree"
    return path


def combined_lines(rng, n):
    targets = ["/", "/a%20b", "/caf%C3%A9?q=a+b&x=%26", "/%FF%FE", "/p%2Fq", "/%zz%4",
               "/s?%E2%82%AC=%E2%82%AC", "/ctl%0A%0D%09", "/q?a=%22%5C", "/%uD83D%uDE00",
               "/long?" + "k=v&" * 50]
    out = []
    for i in range(n):
        t = rng.choice(targets) + str(i)
        r = rng.random()
        if r < 0.05:
            out.append(b"garbage line \x01\x02 " + str(i).encode())
        elif r < 0.1:
            out.append(f'10.0.0.{i % 250} - - [14/Mar/2026:06:00:{i % 60:02d} +0000] "GET {t} HTTP/1.1" 200 {i}'.encode())
        else:
            out.append(
                f'192.0.2.{i % 250} - u{i} [14/Mar/2026:06:00:{i % 60:02d} +0000] "GET {t} HTTP/1.1" 200 {i} '
                f'"https://example.com/r%C3%A9f?{i}" "agent/{i}"'.encode()
            )
    return b"\n".join(out) + b"\n"


def damaged_log(rng, n, empty, crlf, long_line, long_escapes):
    """n combined lines (combined_lines) with garbage, each line in turn
    empty with probability `empty`, ending in CR LF with `crlf`, or made a
    line of long_escapes (a range) "%41"s with `long_line`; a final newline
    70% of the time."""
    lines = combined_lines(rng, n).split(b"\n")[:-1]
    for i in range(len(lines)):
        r = rng.random()
        if r < empty:
            lines[i] = b""
        elif r < empty + crlf:
            lines[i] += b"\r"
        elif r < empty + crlf + long_line:
            lines[i] = b"GET /" + b"%41" * rng.randrange(*long_escapes)
    data = b"\n".join(lines)
    return data + b"\n" if lines and rng.random() < 0.7 else data


W3C = (
    b"#Software: Microsoft Internet Information Services 10.0\n"
    b"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port c-ip sc-status\n"
    b"2026-03-14 06:00:00 10.0.0.1 GET /a%20b q=%u00E9+x 80 192.0.2.1 200\n"
    b"2026-03-14 06:00:01 10.0.0.1 GET /caf%C3%A9 - 80 192.0.2.2 404\n"
    b"#Fields: date time cs-method cs-uri-stem sc-status\n"
    b"2026-03-14 06:00:02 GET /x%2Fy 200\n"
)


def write_sized_log(path, size, seed):
    """A combined log of size bytes or a line more: blocks of generated
    lines, each copy with other statuses, so that no two blocks are alike."""
    block = combined_lines(random.Random(seed), 40000)
    with open(path, "wb") as f:
        copy = 0
        while f.tell() < size:
            f.write(block.replace(b" 200 ", b" %d " % (200 + copy % 300)))
            copy += 1


def make_logs(directory, seed=1):
    """Writes the test logs (plain, gzip, zstd) to directory; returns their paths."""
    import gzip
    import shutil
    import subprocess

    rng = random.Random(seed)
    paths = []
    big = combined_lines(rng, 3000)
    for name, data in [("mixed.log", big), ("w3c.log", W3C), ("empty.log", b""),
                       ("no-newline.log", b'1.2.3.4 - - [x] "GET /%41 HTTP/1.0" 200 1')]:
        p = os.path.join(directory, name)
        with open(p, "wb") as f:
            f.write(data)
        paths.append(p)
    p = os.path.join(directory, "sample.log")
    shutil.copy(SAMPLE, p)
    paths.append(p)
    gz = os.path.join(directory, "mixed.log.gz")
    with gzip.open(gz, "wb") as f:
        f.write(big)
    paths.append(gz)
    if shutil.which("zstd"):
        zst = os.path.join(directory, "sample.log.zst")
        subprocess.run(["zstd", "-q", "-f", SAMPLE, "-o", zst], check=True)
        paths.append(zst)
    return paths


# One line of each format of the registry ("{T}": where the request target
# goes; W3C lines follow their #Fields: header). A format without a line here
# fails test_logs.test_every_format: add one.
FORMAT_LINES = {
    "combined": '192.0.2.10 - - [14/Mar/2026:06:00:00 +0000] "GET {T} HTTP/1.1" 200 512 '
                '"https://example.org/r%C3%A9f" "Mozilla/5.0" "203.0.113.9" rt=0.005 urt="0.004"',
    "common": '192.0.2.12 - - [14/Mar/2026:06:00:12 +0000] "GET {T} HTTP/1.0" 404 -',
    "vhost_combined": 'www.example.com:443 192.0.2.11 - bob [14/Mar/2026:06:00:01 -0700] '
                      '"GET {T} HTTP/1.1" 404 0 "-" "curl/8.5.0"',
    "xff_combined": '203.0.113.7, 198.51.100.2 - - [14/Mar/2026:06:00:02 +0000] "GET {T} HTTP/1.1" 200 5 '
                    '"-" "UA"',
    "envoy": '[2026-03-14T06:00:03.123Z] "POST {T} HTTP/2" 204 - 154 0 226 100 "192.0.2.33" '
             '"nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "api.example.com" "198.51.100.4:80"',
    "haproxy": 'Mar 14 06:00:04 lb1 haproxy[14389]: 192.0.2.44:33317 [14/Mar/2026:06:00:04.655] http-in '
               'static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {www.example.com|Mozilla/5.0} '
               '{} "GET {T} HTTP/1.1"',
    "haproxy_clf": '192.0.2.9 - - [14/Mar/2026:06:00:00 +0000] "GET {T} HTTP/1.1" 200 5 "" "" 4567 123 '
                   '"fe" "be" "srv" 0 0 1 2 3 ---- 1 1 1 1 0 0 0 "" "" "www.example.com"',
    "haproxy_tcp": '<134>1 2026-03-14T06:00:00.123Z lb haproxy 12 - - 192.0.2.10:4567 '
                   '[14/Mar/2026:06:00:00.123] fe be/srv 0/1/2 5 -- 1/1/1/1/0 0/0',
    "haproxy_https": 'Mar 14 06:00:04 lb1 haproxy[14389]: 192.0.2.11:4567 [14/Mar/2026:06:00:00.123] '
                     'fe~ be/srv 0/0/1/2/3 200 5 - - ---- 1/1/1/1/0 0/0 {h} "GET {T} HTTP/1.1" '
                     '0/0/0/0/0 www.example.com/TLSv1.3/TLS_AES_256_GCM_SHA384',
    "alb": 'https 2026-03-14T06:00:05.186641Z app/my-lb/50dc6c495c0c9188 192.0.2.55:2817 10.0.0.1:80 '
           '0.000 0.001 0.000 200 200 34 366 "GET https://www.example.com:443{T} HTTP/1.1" "curl/8.5.0" '
           'ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:1:targetgroup/t/1 '
           '"Root=1-58337262-36d228ad5d99923122bbe354" "www.example.com" "arn:aws:acm:1" 0 '
           '2026-03-14T06:00:05.186641Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"',
    "elb": '2026-03-14T06:00:06.945958Z my-loadbalancer 192.0.2.66:2817 10.0.0.1:80 0.000073 0.001048 '
           '0.000057 200 200 0 29 "GET http://www.example.com:80{T} HTTP/1.1" "curl/8.5.0" - -',
    "squid": '1773468007.123    123 192.0.2.77 TCP_MISS/200 1234 GET http://www.example.com{T} - '
             'HIER_DIRECT/203.0.113.5 text/html',
    "squid_combined": '192.0.2.78 - - [14/Mar/2026:06:00:07 +0000] "GET http://www.example.com{T} HTTP/1.1" '
                      '200 1234 "-" "curl/8.5.0" TCP_MISS:HIER_DIRECT',
    "cloudfront": "2026-03-14\t06:00:11\tIAD89-C1\t3260\t192.0.2.111\tGET\td111111abcdef8.cloudfront.net\t"
                  "{T}\t200\t-\tMozilla/5.0%20(X11;%20Linux)\tq=%2520x%2526y\t-\tHit\t"
                  "SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC\td111111abcdef8.cloudfront.net\thttps\t23\t0.001\t-\t"
                  "TLSv1.3\tTLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\t-\t-\t11040\t0.001\tHit\ttext/html\t"
                  "78\t-\t-",
    "traefik": '192.0.2.99 - - [14/Mar/2026:06:00:09 +0000] "GET {T} HTTP/1.1" 200 10 "-" '
               '"Go-http-client" 42 "router@docker" "http://10.0.0.2:80" 3ms',
    "json": '{"time_local":"14/Mar/2026:06:00:10 +0000","remote_addr":"192.0.2.90",'
            '"request":"GET {T} HTTP/1.1","status":200,"bytes":1.5e3,"ok":true,'
            '"http_user_agent":"curl\\/8.5.0 \\"q\\""}',
    "w3c": "2026-03-14 06:00:00 192.0.2.5 GET {T} q=1%26x 200",
}
W3C_HEADER = "#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status"

# Request targets, hostile ones too: controls, bad UTF-8, C1 controls,
# broken escapes, quotes, backslashes, %u, encoded '#', '&', '='.
TARGETS = ["/", "/a%20b", "/caf%C3%A9?q=a+b&x=%26", "/%FF%FE", "/p%2Fq", "/%zz%4", "/x%",
           "/s?%E2%82%AC=%E2%82%AC&&=&k", "/ctl%0A%0D%09%00", "/esc%1B[31m", "/c1%C2%9B2J",
           "/q?a=%22%5C", "/%uD83D%uDE00%u00e9", "/%C0%AF%ED%A0%80", "/%23Fields:%20x",
           "/long?" + "k=v&" * 40, "/a%3Db%26c?d%3De=f%26g", "/t\\x22q", "/p?x=%2B+%20"]

# Bytes inserted at random places of a line.
HOSTILE = [b"\x1b[31m", b"\xff", b"\xc3", b"\xc2\x9b", b'"', b"\\", b"%zz", b"%", b"\x00", b"\t",
           b"\r", b" ", b"\\x22", b"\\\"", b"%C0%AF", b"%u00e9", b"#", b"&=", b"+", b"\x7f",
           b"\xe2\x82", b"{", b"}", b"\xf0\x9f\x98\x80", b"-"]


def format_lines(rng, name, n, mutated=None):
    """n lines of format name (bytes, each ending in a newline): the sample
    line with random targets, a fifth of them with hostile bytes inserted
    (mutated, a list, gets a bool for each line: inserted or not)."""
    out = [W3C_HEADER.encode() + b"\n"] if name == "w3c" else []
    if mutated is not None and name == "w3c":
        mutated.append(False)
    for i in range(n):
        target = rng.choice(TARGETS) + str(i)
        if name == "w3c":
            target = target.replace(" ", "+")
        if name == "json":
            target = target.replace("\\", "\\\\").replace('"', '\\"')
        line = FORMAT_LINES[name].replace("{T}", target).encode()
        hostile = rng.random() < 0.2
        if mutated is not None:
            mutated.append(hostile)
        if hostile:
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(line) + 1)
                line = line[:at] + rng.choice(HOSTILE) + line[at:]
        out.append(line + b"\n")
    return b"".join(out)
