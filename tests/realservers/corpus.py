"""The requests fired at every server: raw HTTP/1.1 requests, one per
connection, generated from a seed. Each well-formed request carries an id in
its target (/_NNNNN_/...) so that its log line can be matched to it whatever
the order the server logs in."""
import random

HEX = "0123456789ABCDEF"

# Text that is hard for a log reader: the server's own escape characters,
# quotes, backslashes, a literal "\x22", JSON escapes, non-ASCII (valid and
# not), and HAProxy's '#'.
HARD_HEADER_VALUES = [
    b'q"uote',
    b"back\\slash",
    b"lit\\x22eral",
    b'end\\"',
    b'\\\\"\\',
    b"tab\there",
    b"caf\xc3\xa9 \xe2\x82\xac",
    b"bad\xff\xfeutf8\xc3",
    b"c1\xc2\x80\xc2\x9fdel",
    b"hash#22#09",
    b'{"json":"x\\u0041"}',
    b"pct%22%zz%2F+",
    b"-",
    b"",
    b"  spaced  out  ",
]


def _id_path(n):
    return b"/_%05d_/" % n


def _esc(byte, lower=False):
    h = "%02X" % byte
    return ("%" + (h.lower() if lower else h)).encode()


def _random_piece(rng, in_query):
    """One piece of a target: escapes, raw characters, broken escapes..."""
    k = rng.randrange(18)
    if k == 0:
        return _esc(rng.randrange(256), rng.random() < 0.3)
    if k == 1:
        return bytes(rng.choice(b"abcXYZ019-._~") for _ in range(rng.randint(1, 6)))
    if k == 2:
        return bytes([rng.choice(b"!$&'()*,;:@=")])
    if k == 3:
        return rng.choice([b'"', b"\\", b"\\x22", b"\\\\", b'\\"', b"\\t", b"\\n", b"\\u0022"])
    if k == 4:
        return rng.choice(["é", "€", "😀", "日本", "ü"]).encode()
    if k == 5:  # raw bytes that are not UTF-8
        return bytes([rng.randrange(0x80, 0x100)])
    if k == 6:
        return rng.choice([b"%zz", b"%", b"%4", b"%G1", b"%%", b"%2", b"%u00e9"])
    if k == 7:
        return rng.choice([b"%2F", b"%2f", b"+", b"%2B", b"%20", b"%25", b"%252F"])
    if k == 8:  # broken UTF-8 as escapes
        return rng.choice([b"%C3", b"%C3%28", b"%E2%82", b"%F0%9F%98", b"%C0%AF", b"%ED%A0%80",
                           b"%FF", b"%C2%80", b"%7F", b"%00", b"%0A", b"%0D", b"%09", b"%1B"])
    if k == 9:
        return rng.choice([b"#", b"#22", b"<", b">", b"{", b"}", b"|", b"^", b"`", b"[", b"]"])
    if k == 10 and not in_query:
        return b"/"
    if k == 11:
        return rng.choice([b"%22", b"%5C", b"%5c", b"%23", b"%3F", b"%26", b"%3D"])
    if k == 12 and in_query:
        return rng.choice([b"?", b"/", b"=", b"&"])
    return bytes(rng.choice(b"abcdefghijklmnop") for _ in range(rng.randint(1, 4)))


def _random_target(rng, n):
    path = _id_path(n) + b"".join(_random_piece(rng, False) for _ in range(rng.randint(1, 12)))
    if rng.random() < 0.7:
        params = []
        for _ in range(rng.randint(0, 5)):
            key = b"".join(_random_piece(rng, True) for _ in range(rng.randint(0, 2)))
            val = b"".join(_random_piece(rng, True) for _ in range(rng.randint(0, 4)))
            params.append(key + (b"=" + val if rng.random() < 0.85 else b""))
        path += b"?" + b"&".join(params)
    return path


class Request:
    """raw: the bytes sent; target: the request target when the request line
    is well formed (None otherwise); kind: what it tests."""

    def __init__(self, n, kind, raw, target=None, referer=None, agent=None):
        self.n, self.kind, self.raw, self.target = n, kind, raw, target
        self.referer, self.agent = referer, agent


def _request(n, kind, target, rng, line=None, referer=None, agent=None, method=b"GET"):
    referer = referer if referer is not None else rng.choice(HARD_HEADER_VALUES + [b"http://r.example/a%20b"])
    agent = agent if agent is not None else rng.choice(HARD_HEADER_VALUES + [b"curl/8.5.0"])
    if line is None:
        line = method + b" " + target + b" HTTP/1.1"
    head = [line, b"Host: 127.0.0.1", b"User-Agent: " + agent, b"Referer: " + referer,
            b"X-Forwarded-For: 203.0.113.%d, 198.51.100.2" % (n % 250), b"Connection: close"]
    return Request(n, kind, b"\r\n".join(head) + b"\r\n\r\n", target, referer, agent)


def generate(seed, count):
    """count requests (at least the fixed ones), reproducible from seed."""
    rng = random.Random(seed)
    reqs = []

    def add(kind, target, **kw):
        reqs.append(_request(len(reqs), kind, target, rng, **kw))

    n = lambda: len(reqs)  # noqa: E731 - the id the next request gets
    # Every byte value escaped, upper and lower-case hex, in the path and in the query.
    for lower in (False, True):
        add("every-byte-path", _id_path(n()) + b"".join(_esc(b, lower) for b in range(256)))
        add("every-byte-query", _id_path(n()) + b"q?v=" + b"".join(_esc(b, lower) for b in range(256)))
    for b in range(256):
        add("one-byte-escaped", _id_path(n()) + b"x" + _esc(b) + b"y?k=" + _esc(b))
    # Printable ASCII raw, one per request (the ones a server refuses are logged as refused).
    for b in b"!\"#$&'()*+,;=:@[]{}|\\^`<>":
        add("raw-ascii", _id_path(n()) + b"r" + bytes([b]) + b"x?k=" + bytes([b]) + b"v")
    add("raw-utf8", _id_path(n()) + "café/€/😀?q=ü".encode())
    add("raw-bad-utf8", _id_path(n()) + b"b\xff\xfe\xc3(\xe2\x82?q=\xc0\xaf")
    for t in [b"%zz", b"%", b"%4", b"%G1", b"a%%b", b"%2F%2f", b"a+b?q=a+b&r=%2B", b"%252F",
              b"x?a=1&&b=&=c&d", b"x?", b"x??q", b"x?q=%zz%", b"x?q=%C3", b"%C3%28%E2%82",
              b"%F0%9F%98%ED%A0%80%C0%AF", b"%00%0A%0D%1B%7F", b"%u00e9", b"x#frag?q",
              b'r"x?q="', b"b\\x22y", b"b\\\\y", b"b\\\"y", b"b\\ty\\n", b"j\\u0041",
              b"h#22x#09", b"%22%5C"]:
        add("hard-target", _id_path(n()) + t)
    # Long targets: around 4 KB, 8 KB (over some servers' limits) and escaped.
    for size in (1000, 1100, 4000, 8000, 8300):
        add("long-path", _id_path(n()) + b"L" * size)
    add("long-escaped", _id_path(n()) + b"%C3%A9" * 1500)
    add("long-query", _id_path(n()) + b"q?" + b"&".join(b"k%d=v%%20%d" % (i, i) for i in range(900)))
    # Request lines as servers accept them, or refuse them.
    def add_line(kind, before, rest, after):
        # a request line of its own shape around the target id + rest
        target = _id_path(n()) + rest
        add(kind, target, line=before + target + after)

    add_line("extra-spaces", b"GET  ", b"sp2%20x", b"  HTTP/1.1")
    add_line("extra-spaces", b"GET   ", b"sp3?q=1", b"   HTTP/1.1")
    add_line("tab-separated", b"GET\t", b"tab", b"\tHTTP/1.1")
    add_line("lower-protocol", b"GET ", b"lower%20p", b" http/1.1")
    add_line("lower-method", b"get ", b"lowm", b" HTTP/1.1")
    add_line("http10", b"GET ", b"ten", b" HTTP/1.0")
    add("head", _id_path(n()) + b"head%20x", method=b"HEAD")
    add_line("absolute-form", b"GET http://127.0.0.1", b"abs%20x?q=1", b" HTTP/1.1")
    add("asterisk", None, line=b"OPTIONS * HTTP/1.1")
    add_line("no-protocol", b"GET ", b"noproto", b"")
    add("non-request", None, line=b"hello world, this is not a request")
    add("non-request", None, line=b'"quoted" \\x22 line')
    add("tls-bytes", None, line=b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(0x40, 0x60)))
    add("empty-line", None, line=b"")
    # Hard Referer / User-Agent on a plain target.
    for v in HARD_HEADER_VALUES:
        add("hard-headers", _id_path(n()) + b"hdr", referer=v, agent=v)
    # The rest: random targets.
    while len(reqs) < count:
        add("random", _random_target(rng, n()))
    return reqs


def describe(req):
    """One printable line for a request (Python bytes literal of what was sent)."""
    return "%05d %-18s %r" % (req.n, req.kind, req.raw)
