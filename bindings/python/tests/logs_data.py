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


W3C = (
    b"#Software: Microsoft Internet Information Services 10.0\n"
    b"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port c-ip sc-status\n"
    b"2026-03-14 06:00:00 10.0.0.1 GET /a%20b q=%u00E9+x 80 192.0.2.1 200\n"
    b"2026-03-14 06:00:01 10.0.0.1 GET /caf%C3%A9 - 80 192.0.2.2 404\n"
    b"#Fields: date time cs-method cs-uri-stem sc-status\n"
    b"2026-03-14 06:00:02 GET /x%2Fy 200\n"
)


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
