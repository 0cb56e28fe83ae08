"""An independent reading of each server's log lines: where the request (or
URL) field is, how the server escaped it, and what `pct logs` should make of
it by its README (path decoded segment by segment with %2F kept, the query
by form rules, bytes that are not UTF-8 as U+FFFD). Written from the
servers' documentation and their observed output, never from pct's."""
import json
import re

# ---------------------------------------------------------------------------
# Undoing each server's own log escaping (bytes -> bytes)

_NGINX = re.compile(rb"\\x([0-9A-Fa-f]{2})")
_APACHE = re.compile(rb'\\(x[0-9A-Fa-f]{2}|["\\bnrtvf])')
_HAPROXY = re.compile(rb"#([0-9A-Fa-f]{2})")
_APACHE_CTL = {b'"': b'"', b"\\": b"\\", b"b": b"\b", b"n": b"\n", b"r": b"\r", b"t": b"\t",
               b"v": b"\v", b"f": b"\f"}


def unescape_nginx(b):
    # nginx escape=default writes '"', '\\', controls and bytes >= 0x7f as \xHH
    return _NGINX.sub(lambda m: bytes([int(m.group(1), 16)]), b)


def unescape_apache(b, controls=True):
    # Apache's ap_escape_logitem (also lighttpd, varnishncsa): \" \\ \xhh and
    # the C escapes \b \n \r \t \v \f
    def one(m):
        e = m.group(1)
        if e[:1] == b"x":
            return bytes([int(e[1:], 16)])
        if not controls and e not in (b'"', b"\\"):
            return m.group(0)
        return _APACHE_CTL[e]
    return _APACHE.sub(one, b)


def unescape_haproxy(b):
    # haproxy writes '"', '#', controls and bytes >= 0x7f as #XX; '\' as is
    return _HAPROXY.sub(lambda m: bytes([int(m.group(1), 16)]), b)


def unescape_none(b):
    return b


UNESCAPE = {"nginx": unescape_nginx, "apache": unescape_apache, "haproxy": unescape_haproxy,
            "json": unescape_none, "squid": unescape_none}

# ---------------------------------------------------------------------------
# Finding the request field in a line. Each returns (field bytes, closed):
# closed is False when the line ends inside the field (the server cut it).

# RFC 3164 (Debian's rsyslog files), RFC 3339 times (rsyslog's default file
# format), RFC 5424
_SYSLOG = re.compile(rb"^(?:[A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \S+ haproxy\[\d+\]: "
                     rb"|\d{4}-\d\d-\d\dT\S+ \S+ haproxy\[\d+\]: "
                     rb"|<\d+>1 \S+ \S+ haproxy \S+ \S+ (?:-|\[.*?\]) )")
_CLF_HEAD = re.compile(rb'^\S+ \S+ \S+ \[[^\]]*\] "')
_VARNISH_CUSTOM_HEAD = re.compile(rb'^\S+ \[[^\]]*\] "')


def _quoted(line, start, escaped_quotes):
    """The text from start to the closing quote; escaped_quotes: a backslash
    escapes the next byte (Apache style)."""
    i = start
    n = len(line)
    while i < n:
        c = line[i]
        if c == 0x5C and escaped_quotes:
            i += 2
            continue
        if c == 0x22:
            return line[start:i], True
        i += 1
    return line[start:], False


def field_clf(line, esc):
    m = _CLF_HEAD.match(line)
    if not m:
        return None, False
    return _quoted(line, m.end(), esc == "apache")


def field_varnish_custom(line, esc):
    m = _VARNISH_CUSTOM_HEAD.match(line)
    if not m:
        return None, False
    return _quoted(line, m.end(), True)


def field_haproxy_httplog(line, esc):
    line = _SYSLOG.sub(b"", line, count=1)
    i = line.find(b'"')  # '"' is #22 everywhere else in the line
    if i < 0:
        return None, False
    if line.endswith(b'"') and len(line) > i + 1:
        return line[i + 1:-1], True
    return line[i + 1:], False


def field_haproxy_clf(line, esc):
    return field_clf(_SYSLOG.sub(b"", line, count=1), esc)


_SQUID_COMBINED = re.compile(rb'^\S+ \S+ \S+ \[[^\]]*\] "(.*?)" \d{3} \d+ "', re.S)


def field_squid_combined(line, esc):
    # squid writes '"' inside quoted fields as is: the request field is the
    # text up to the first '" STATUS BYTES "'
    m = _SQUID_COMBINED.match(line)
    if not m:
        return field_clf(line, esc)
    return m.group(1), True


def field_squid_native(line, esc):
    f = line.split()
    if len(f) < 7:
        return None, False
    return f[5] + b" " + f[6], True  # method URL: read as a request line


def field_json(line, esc):
    try:
        obj = json.loads(line.decode("utf-8", "surrogateescape"))
    except ValueError:
        return None, False
    uri = obj.get("request_uri", "")
    req = obj.get("request", "").encode("utf-8", "surrogateescape")
    if uri:
        m = split_request(req)
        method = m[0] if m else b"GET"
        return method + b" " + uri.encode("utf-8", "surrogateescape") + (b" " + m[2] if m and m[2] else b""), True
    return req, True


def field_none(line, esc):
    return None, True  # haproxy's tcplog: no request in the line


FIELD = {"clf": field_clf, "haproxy_tcplog": field_none, "varnish_custom": field_varnish_custom,
         "haproxy_httplog": field_haproxy_httplog, "haproxy_clf": field_haproxy_clf,
         "squid_native": field_squid_native,
         "squid_combined": field_squid_combined, "json": field_json}

# ---------------------------------------------------------------------------
# The request line as servers accept it: method, runs of spaces or tabs,
# target, optionally runs of spaces or tabs and HTTP/x.y in any case.

# A blank is a space or a tab, whether the server wrote the tab as is or
# escaped it (nginx's "GET\x09/q\x09HTTP/1.1"): the same request, the same
# path, whichever server logged it. The method is a token that starts with a
# letter; the target is in one of HTTP's forms (origin, absolute, authority,
# asterisk).
_REQLINE = re.compile(rb"([A-Za-z][-!#$%&'*+.^_`|~0-9A-Za-z]*)[ \t]+"
                      rb"(/\S*|\*|[A-Za-z][A-Za-z0-9+.-]*://\S*|[A-Za-z0-9.-]+:\d+)"
                      rb"(?:[ \t]+([Hh][Tt][Tt][Pp]/\d+(?:\.\d+)?))?[ \t]*")


def split_request(field):
    """(method, target, protocol or None), or None for a field that is not a
    request line (haproxy's <BADREQ>, TLS bytes, squid's error:...)."""
    m = _REQLINE.fullmatch(field)
    if not m:
        return None
    return m.group(1), m.group(2), m.group(3)


_ABS = re.compile(rb"^([A-Za-z][A-Za-z0-9+.-]*://[^/?]*)(.*)$", re.S)

# ---------------------------------------------------------------------------
# pct's documented decoding of a target


def _hexval(c):
    if 48 <= c <= 57:
        return c - 48
    c |= 0x20
    if 97 <= c <= 102:
        return c - 87
    return -1


def percent_decode(b, keep_slash):
    out = bytearray()
    i, n = 0, len(b)
    while i < n:
        c = b[i]
        if c == 0x25 and i + 2 < n:
            hi, lo = _hexval(b[i + 1]), _hexval(b[i + 2])
            if hi >= 0 and lo >= 0:
                v = hi * 16 + lo
                if keep_slash and v == 0x2F:
                    out += b[i:i + 3]
                else:
                    out.append(v)
                i += 3
                continue
        out.append(c)
        i += 1
    return bytes(out)


def text(b):
    return b.decode("utf-8", "replace")


def decode_target(target):
    """{'origin', 'path', 'query'} as pct --json documents them."""
    origin = None
    m = _ABS.match(target)
    if m:
        origin, target = m.group(1), m.group(2)
    path, sep, query = target.partition(b"?")
    pairs = []
    if sep:
        for piece in query.split(b"&"):
            if not piece:
                continue
            k, _, v = piece.partition(b"=")
            pairs.append([text(percent_decode(k.replace(b"+", b" "), False)),
                          text(percent_decode(v.replace(b"+", b" "), False))])
    return {"origin": text(origin) if origin is not None else None,
            "path": text(percent_decode(path, True)), "query": pairs}


_Q = {"nginx": rb'"([^"]*)"', "apache": rb'"((?:[^"\\]|\\.)*)"'}


_HAPROXY_CAPTURES = re.compile(rb" \{([^}]*)\} \"")


def headers(line, spec):
    """(referer, user agent) as the server wrote them (escaped), or None
    where the format has none the harness reads."""
    if spec.shape == "squid_combined":
        # squid writes '"' as is: '"REF" "UA" %Ss:%Sh' after the status and
        # size, read only where one '" "' parts the two
        raw, closed = field_squid_combined(line, spec.esc)
        m = re.match(rb'^.*?" \d{3} \d+ "(.*)" (\S+)$', line, re.S) if closed else None
        if not m or m.group(1).count(b'" "') != 1:
            return None
        return tuple(m.group(1).split(b'" "'))
    if spec.shape == "haproxy_httplog":
        # `capture request header Referer`, then User-Agent: {ref|ua}
        m = _HAPROXY_CAPTURES.search(line)
        if not m or m.group(1).count(b"|") != 1:
            return None
        return tuple(m.group(1).split(b"|"))
    if spec.shape == "json":
        try:
            obj = json.loads(line.decode("utf-8", "surrogateescape"))
        except ValueError:
            return None
        return obj.get("http_referer"), obj.get("http_user_agent")
    if spec.shape not in ("clf", "varnish_custom") or spec.esc not in _Q:
        return None
    head = (_CLF_HEAD if spec.shape == "clf" else _VARNISH_CUSTOM_HEAD).match(line)
    if not head:
        return None
    field, closed = _quoted(line, head.end(), spec.esc == "apache")
    if not closed:
        return None
    tail = line[head.end() + len(field) + 1:]
    q = _Q[spec.esc]
    rx = rb"^ \d{3} \S+ " + (rb"\S+ " if spec.shape == "varnish_custom" else b"") + q + b" " + q
    m = re.match(rx, tail)
    return (m.group(1), m.group(2)) if m else None


class Record:
    """One log line as the harness reads it.
    field: the request field after the server's escaping is undone (None
    when there is none); closed: False when the server cut the line inside
    it; req: split_request(field); id: the request id in it, if any."""

    _ID = re.compile(rb"/_(\d{5})_/")

    def __init__(self, line, spec, nul_cut=None):
        self.line = line
        # a message of the server's own (haproxy: "Proxy fe stopped ..."):
        # not a request, so pct is right to leave it unparsed
        self.notice = bool(spec.notice and spec.notice.search(line))
        # squid ends a record it cut with a NUL (and no newline): the text
        # after it is the next record
        self.nul = spec.nul_records and b"\0" in line if nul_cut is None else nul_cut
        raw, self.closed = FIELD[spec.shape](line.split(b"\0")[0] if self.nul else line, spec.esc)
        self.request_text = None
        if spec.shape == "json" and raw is not None:
            try:
                obj = json.loads(line.decode("utf-8", "surrogateescape"))
                self.request_text = obj.get("request", "").encode("utf-8", "surrogateescape")
            except ValueError:
                pass
        self.raw_field = raw
        self.field = UNESCAPE[spec.esc](raw) if raw is not None else None
        self.req = split_request(self.field) if self.field is not None else None
        m = self._ID.search(self.field) if self.field is not None else None
        self.id = int(m.group(1)) if m else None
        self.truncated = raw is not None and not self.closed

    def expected(self):
        """What pct --json should give: {'path', 'query', 'origin'}; path
        None for a field that is not a request line."""
        if self.req is None or self.notice:
            return {"path": None, "query": None, "origin": None}
        return decode_target(self.req[1])
