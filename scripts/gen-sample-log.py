#!/usr/bin/env python3
"""Generate data/sample-access.log: a synthetic access log in the combined
format of Apache httpd and nginx, for demos, tests and benchmarks.

    IP - - [dd/Mon/yyyy:HH:MM:SS +0000] "METHOD target HTTP/1.1" status bytes "referer" "agent"

Deterministic (fixed seed, standard library only): running it twice gives the
same bytes. Everything in it is made up: addresses come from the documentation
ranges (RFC 5737, RFC 3849), referers are example.com / example.org, agents are
generic. The request targets exercise percent-decoding: UTF-8 escapes
(Japanese, accented Latin, emoji), form encoding, %2F inside segments,
lower-case hex, malformed escapes, encoded control characters, IIS-style
%uXXXX, traversal attempts and very long query strings.

usage: scripts/gen-sample-log.py [OUTPUT]   (default: data/sample-access.log)
"""

import datetime
import os
import random
import sys

SEED = 20261122
LINES = 2000
START = datetime.datetime(2026, 3, 14, 6, 0, 0)
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Bytes left as is in a path segment (RFC 3986 pchar minus '%'), and in a query.
PATH_SAFE = UNRESERVED | frozenset(b"!$&'()*+,;=:@")
QUERY_SAFE = UNRESERVED | frozenset(b"!$'()*,;:@/?")

R = random.Random(SEED)


def enc(text, safe=UNRESERVED, lower=False, plus=False):
    """Percent-encode the UTF-8 bytes of text; bytes in safe are kept."""
    out = []
    for b in text.encode("utf-8"):
        if plus and b == 0x20:
            out.append("+")
        elif b in safe:
            out.append(chr(b))
        else:
            out.append(("%%%02x" if lower else "%%%02X") % b)
    return "".join(out)


def seg(text, lower=False):
    return enc(text, PATH_SAFE, lower)


def form(text, lower=False):
    """application/x-www-form-urlencoded value: space as '+', '&=+' escaped."""
    return enc(text, UNRESERVED | frozenset(b"*"), lower, plus=True)


def pick(seq):
    return R.choice(seq)


# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------

WORDS_JA = ["東京", "大阪", "日本語", "ラーメン", "寿司", "検索", "お知らせ", "会社概要",
            "よくある質問", "カテゴリー", "新着情報", "京都の紅葉", "ログイン", "カート",
            "テスト", "東京タワー", "抹茶ラテ"]
WORDS_LATIN = ["café", "crème brûlée", "über uns", "Zürich", "São Paulo", "naïve",
               "résumé", "jalapeño", "Ærøskøbing", "Kraków", "Málaga", "piñata",
               "façade", "smörgåsbord", "Düsseldorf", "Ελληνικά", "Москва", "Straße"]
WORDS_EMOJI = ["🎉", "😀", "🍣", "❤️", "👍🏽", "🚀 launch", "☕ & 🍰", "🇯🇵", "🌸 spring"]
WORDS_ASCII = ["docs", "blog", "news", "products", "about", "contact", "pricing",
               "support", "downloads", "careers", "events", "guides", "api"]
SEARCHES = ["c++ & rust", "1+1=2", "rock & roll", "a=b&c=d", "50% off", "hello world",
            "how to url encode", "what is %20", "café menu & drinks", "q=1+1 ≡ 2",
            "東京 ラーメン", "crème brûlée recipe", "price < 100 & > 10", "\"exact phrase\"",
            "naïve bayes", "emoji 🎉 party", "tom & jerry", "x+y=z", "#hashtag", "C# vs F#"]
EXTS = ["html", "pdf", "png", "jpg", "txt", "csv", "zip"]

METHODS = ["GET"] * 86 + ["POST"] * 8 + ["HEAD"] * 3 + ["PUT", "DELETE", "OPTIONS"]

AGENTS = [
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36",
    "curl/8.5.0",
    "Wget/1.21.4",
    "python-requests/2.31.0",
    "Go-http-client/1.1",
    "ExampleBot/2.1 (+https://www.example.com/bot.html)",
    "Example-Monitor/1.0 (+https://status.example.org/)",
    "-",
]


def ip():
    r = R.random()
    if r < 0.15:
        return "2001:db8:%x::%x" % (R.randrange(0x10000), R.randrange(1, 0x10000))
    net = pick(["192.0.2", "198.51.100", "203.0.113"])
    return "%s.%d" % (net, R.randrange(1, 255))


# --------------------------------------------------------------------------
# Request targets, by kind
# --------------------------------------------------------------------------

def t_static():
    return pick(["/", "/index.html", "/favicon.ico", "/robots.txt", "/sitemap.xml",
                 "/static/css/site.css?v=%d" % R.randrange(1, 40),
                 "/static/js/app.%08x.js" % R.randrange(1 << 32),
                 "/images/logo.png", "/%s/" % pick(WORDS_ASCII),
                 "/%s/%s.html" % (pick(WORDS_ASCII), pick(WORDS_ASCII)),
                 "/feed.xml", "/api/v1/status"])


def t_utf8_path(lower=False):
    word = pick(WORDS_JA + WORDS_LATIN + WORDS_EMOJI)
    base = pick(["/wiki/", "/tags/", "/search/", "/blog/2026/03/", "/ja/", "/shop/category/",
                 "/files/"])
    tail = ""
    if base == "/files/":
        tail = "." + pick(EXTS)
    elif R.random() < 0.3:
        tail = "/" + seg(pick(WORDS_JA + WORDS_LATIN), lower)
    return base + seg(word, lower) + tail


def t_form_query(lower=False):
    params = [("q", pick(SEARCHES))]
    if R.random() < 0.6:
        params.append(("lang", pick(["en", "ja", "de", "fr", "pt-BR"])))
    if R.random() < 0.5:
        params.append(("page", str(R.randrange(1, 30))))
    if R.random() < 0.3:
        params.append(("sort", pick(["price asc", "date desc", "relevance"])))
    if R.random() < 0.2:
        params.append(("filter", pick(["brand=acme&color=red", "size=M+L", "tag=c++"])))
    query = "&".join("%s=%s" % (k, form(v, lower)) for k, v in params)
    return pick(["/search", "/shop/search", "/api/v2/search", "/"]) + "?" + query


def t_slash_in_segment():
    return pick([
        "/api/v1/files/docs%2F2026%2Freport.pdf",
        "/repos/example%2Fproject/issues?state=open",
        "/api/v1/objects/%s%%2F%s" % (pick(WORDS_ASCII), seg(pick(WORDS_LATIN))),
        "/download/a%2Fb%2Fc.txt",
        "/packages/@scope%2Fname/-/name-1.2.3.tgz",
        "/wiki/AC%2FDC",
        "/api/v1/keys/user%%2f%d" % R.randrange(1000),
    ])


def t_malformed():
    return pick([
        "/search?q=100%",
        "/promo%4",
        "/%zzadmin",
        "/discount?pct=50%&code=SPRING",
        "/a%2",
        "/files/report%.pdf",
        "/search?q=%E3%81",          # truncated UTF-8
        "/search?q=%C3%28",          # invalid UTF-8
        "/wiki/%ED%A0%80",           # encoded surrogate
        "/name/%F0%9F%98",           # truncated emoji
        "/x?y=%%41",
        "/shop?item=%G1",
    ])


def t_control():
    return pick([
        "/logs?line=ok%0Aforged%20entry",
        "/login?user=admin%0D%0ASet-Cookie:%20x=1",
        "/x?q=%1B[31mred%1B[0m",
        "/download?file=report.pdf%00.jpg",
        "/search?q=tab%09separated",
        "/api?cb=%07%08",
    ])


def t_percent_u():
    return pick([
        "/search?q=%u00E9t%u00E9",
        "/%u30C6%u30B9%u30C8/index.html",
        "/x?q=%uD83D%uDE00",
        "/scripts/..%u2216..%u2216winnt/system32/cmd.exe",
        "/default.asp?id=%u0027%u0020OR%u00201=1",
        "/search?q=%u00fcber",
        "/x?q=%uD800",                # lone surrogate
    ])


def t_traversal():
    return pick([
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/cgi-bin/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/..%2f..%2f..%2fwindows/win.ini",
        "/images/%252e%252e%252fetc%252fpasswd",
        "/download?file=..%2F..%2F..%2Fetc%2Fshadow",
        "/%2E%2E/%2E%2E/%2E%2E/boot.ini",
        "/assets/..%c0%af..%c0%afetc/passwd",
        "/files/%2e%2e%5c%2e%2e%5cwindows%5csystem.ini",
    ])


def token(n):
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
    return "".join(pick(alphabet) for _ in range(n))


def t_long_query():
    params = [
        ("utm_source", pick(["newsletter", "partner site", "example.org"])),
        ("utm_medium", "email"),
        ("utm_campaign", pick(["spring sale 2026", "café week", "東京 launch"])),
        ("token", token(R.randrange(80, 240))),
    ]
    items = ", ".join('{"id": %d, "name": "%s", "qty": %d}'
                      % (R.randrange(10000), pick(WORDS_LATIN + WORDS_JA), R.randrange(1, 9))
                      for _ in range(R.randrange(3, 10)))
    params.append(("cart", '{"items": [%s], "note": "leave at door & ring"}' % items))
    params.append(("redirect", "https://www.example.com/checkout/done?order=%d&ref=%s"
                   % (R.randrange(10 ** 6), pick(WORDS_ASCII))))
    R.shuffle(params)
    lower = R.random() < 0.2
    return "/checkout?" + "&".join("%s=%s" % (k, form(v, lower)) for k, v in params)


def t_api():
    return pick([
        "/api/v1/users/%d/avatar" % R.randrange(100000),
        "/api/v1/items?ids=%s" % enc(",".join(str(R.randrange(1000)) for _ in range(5))),
        "/oauth/authorize?response_type=code&client_id=example&redirect_uri=%s&scope=%s"
        % (enc("https://app.example.com/callback?x=1&y=2"), form("read write")),
        "/graphql?query=%s" % enc("{ user(name: \"%s\") { id } }" % pick(WORDS_LATIN)),
        "/api/v2/geo?lat=35.6895&lon=139.6917&label=%s" % enc(pick(WORDS_JA)),
    ])


KINDS = [
    (t_static, 26),
    (t_utf8_path, 16),
    (lambda: t_utf8_path(lower=True), 5),
    (t_form_query, 20),
    (lambda: t_form_query(lower=True), 4),
    (t_api, 10),
    (t_slash_in_segment, 4),
    (t_malformed, 3),
    (t_control, 2),
    (t_percent_u, 2),
    (t_traversal, 3),
    (t_long_query, 3),
]


def target():
    total = sum(w for _, w in KINDS)
    x = R.randrange(total)
    for fn, w in KINDS:
        if x < w:
            return fn()
        x -= w
    raise AssertionError


def referer():
    r = R.random()
    if r < 0.35:
        return "-"
    if r < 0.55:
        return "https://www.example.com/search?q=%s" % form(pick(SEARCHES))
    if r < 0.65:
        return "https://example.org/links?from=%s&to=%s" % (
            enc("https://www.example.com/" + pick(WORDS_ASCII)), seg(pick(WORDS_JA)))
    if r < 0.75:
        return "https://www.example.com/wiki/%s" % seg(pick(WORDS_JA + WORDS_LATIN), R.random() < 0.3)
    return "https://www.example.com" + t_static()


def status_and_bytes(method, tgt):
    if "passwd" in tgt or "win.ini" in tgt or "boot.ini" in tgt or "cmd.exe" in tgt:
        status = pick([400, 403, 404])
    elif "%zz" in tgt or tgt.endswith("%") or "%G1" in tgt:
        status = 400
    else:
        status = pick([200] * 30 + [301, 302, 304, 304, 304, 404, 404, 403, 500, 503])
    if method == "HEAD" or status in (301, 302, 304):
        size = "0" if status in (301, 302) else "-"
    elif status >= 400:
        size = str(R.randrange(150, 600))
    else:
        size = str(R.randrange(200, 250000))
    return status, size


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "sample-access.log")
    t = START
    lines = []
    for _ in range(LINES):
        t += datetime.timedelta(seconds=R.choice([0, 0, 1, 1, 2, 3, 5, 8, 13, 30]))
        method = pick(METHODS)
        tgt = target()
        status, size = status_and_bytes(method, tgt)
        stamp = "%02d/%s/%04d:%02d:%02d:%02d +0000" % (
            t.day, MONTHS[t.month - 1], t.year, t.hour, t.minute, t.second)
        lines.append('%s - - [%s] "%s %s HTTP/1.1" %d %s "%s" "%s"\n' % (
            ip(), stamp, method, tgt, status, size, referer(), pick(AGENTS)))
    data = "".join(lines).encode("ascii")  # every target above is percent-encoded
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
