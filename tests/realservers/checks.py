"""The checks run on every collected log, and the attribution of each
difference to a known defect of issue 24 (known_defects.py) where one
explains it."""
import csv
import gzip
import io
import json
import os
import re
import subprocess
from urllib.parse import unquote_to_bytes

import logparse

PCT_TIMEOUT = 120


class Outcome:
    """The differences one check found: each with the issue items that
    explain it (empty set: nothing known explains it)."""

    def __init__(self):
        self.diffs = []  # (items frozenset, text)
        self.checked = 0

    def add(self, items, text):
        self.diffs.append((frozenset(items), text))

    def items(self):
        out = set()
        for items, _ in self.diffs:
            out |= items
        return out

    def unexplained(self):
        return [t for items, t in self.diffs if not items]


# what a sanitizer said in any run of pct (an ASan/UBSan build as PCT)
SANITIZER_REPORTS = []


def run_pct(pct, args, path, wrapper=()):
    p = subprocess.run(list(wrapper) + [pct, "logs"] + args + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=PCT_TIMEOUT)
    if b"Sanitizer" in p.stderr or b"runtime error:" in p.stderr:
        SANITIZER_REPORTS.append("pct logs %s %s: %s" % (" ".join(args), os.path.basename(path),
                                                         _short(p.stderr[:400], 300)))
    return p.returncode, p.stdout, p.stderr


def log_records(data, spec):
    """The records of a log as the harness reads them: its lines, and for
    squid also the line split at each NUL (squid ends a cut record with a
    NUL and no newline). Returns (lines, [(record, ended by a NUL)] or None)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    lines = [ln[:-1] if ln.endswith(b"\r") else ln for ln in lines]
    split = None
    if spec.nul_records and any(b"\0" in ln for ln in lines):
        split = []  # (record, ended by a NUL)
        for ln in lines:
            parts = ln.split(b"\0")
            split += [(p, k < len(parts) - 1) for k, p in enumerate(parts)]
    return lines, split


def _no_dup_keys(pairs):
    keys = [k for k, _ in pairs]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        raise ValueError("duplicate keys: %s" % ", ".join(sorted(dup)))
    return dict(pairs)


def parse_json_lines(out):
    """[(obj or None, error)] per output line."""
    res = []
    for ln in out.split(b"\n")[:-1] if out.endswith(b"\n") else out.split(b"\n"):
        try:
            res.append((json.loads(ln.decode("utf-8"), object_pairs_hook=_no_dup_keys), None))
        except (ValueError, UnicodeDecodeError) as e:
            res.append((None, str(e)))
    return res


def _short(b, n=110):
    r = repr(b)
    return r if len(r) <= n else r[:n] + "..."


# ---------------------------------------------------------------------------
# Defect models: what pct gives today for a record when a known defect is
# at work. A difference is put down to an issue item only when pct's value
# is exactly what the defect makes of this record.

def _squid_same(got, want):
    """squid percent-encodes what it finds unsafe in a URL (non-ASCII, '"',
    '~', '`'...), strips whitespace, and takes a target followed by an
    unknown protocol ('http/1.1') for an HTTP/0.9 URL with it"""
    want = re.sub(rb"\s", b"", want)
    g, w = unquote_to_bytes(got), unquote_to_bytes(want)
    return g == w or g.startswith(w + b"http/")


# a request line as pct splits one whose escapes it read as blanks: the
# method, the protocol at the end, the target all that is between
_LENIENT_REQLINE = re.compile(rb"([^ \t]+)[ \t]+(.*?)(?:[ \t]+([Hh][Tt][Tt][Pp]/\d+(?:\.\d+)?))?[ \t]*", re.S)


def models(rec, spec):
    """[(items, expected {'path','query'})]"""
    out = []
    raw = rec.raw_field
    if raw is None:
        return out

    # the defect's reading of the escapes applied to the target of the line
    # as the server wrote it, or to the whole field before it is split (an
    # escape read as a tab is a blank)
    split = logparse.split_request(raw)

    def from_target(items, transform):
        if split is not None:
            out.append((items, logparse.decode_target(transform(split[1]))))
        whole = _LENIENT_REQLINE.fullmatch(transform(raw))
        if whole is not None:
            out.append((items, logparse.decode_target(whole.group(2))))

    def apache(controls):
        return lambda b: logparse.unescape_apache(b, controls=controls)

    if spec.esc == "haproxy":
        # pct read a haproxy line as Apache's: '\"', '\\', '\xhh' undone
        # (item 3), then \t \n ... too (item 4 fixed); '#XX' left (item 2)
        from_target({2}, lambda b: b)
        for controls in (False, True):
            from_target({2, 3}, apache(controls))
            from_target({3}, lambda b, c=controls: logparse.unescape_haproxy(apache(c)(b)))
    if spec.esc == "apache":
        from_target({4}, apache(False))
    if spec.shape == "squid_combined":
        # squid's literal '\' read as an escape
        from_target({"B"}, apache(False))
        from_target({"B"}, apache(True))
    field = rec.request_text if rec.request_text is not None else rec.field
    # item 5: the target taken as everything between the first and the last space
    m = re.fullmatch(rb"([^ ]+) (.*) ([^ ]+)", field, re.S)
    if m and b"  " in field:
        out.append(({5}, logparse.decode_target(m.group(2))))
    # items 5 and 11: a request line with tabs not read as one, its text
    # given as the path
    if b"\t" in field and rec.req is not None:
        out.append(({5, 11}, {"path": logparse.text(field), "query": []}))
    # item 6: a lower-case protocol kept in the target
    m = re.fullmatch(rb"(\S+) (.*)", field, re.S)
    if m and re.search(rb" http/\d", field):
        out.append(({6}, logparse.decode_target(m.group(2))))
    # new defect A: --log-format "%m %U%q %H": the log escapes of %U%q not undone
    if spec.esc == "apache" and spec.shape == "varnish_custom":
        r = logparse.split_request(rec.raw_field)
        if r is not None:
            out.append(({"A"}, logparse.decode_target(r[1])))
    return out


_RAW_JSON_VALUE = {}


def json_raw_value(line, key):
    rx = _RAW_JSON_VALUE.get(key)
    if rx is None:
        rx = _RAW_JSON_VALUE[key] = re.compile(rb'"' + key.encode() + rb'":"((?:[^"\\]|\\.)*)"')
    m = rx.search(line)
    return m.group(1) if m else None


def explain_unparsed(rec, spec, mode):
    if b"\0" in rec.line:
        return {12}
    if spec.shape == "haproxy_tcplog":
        return {"G"}  # option tcplog lines
    if spec.key == "haproxy/httplog-rsyslog5424":
        return {"F"}  # an RFC 5424 syslog prefix
    if spec.shape == "haproxy_clf" and mode != "auto":
        return {1}  # the haproxy format does not know `option httplog clf`
    if spec.shape == "squid_combined" and rec.raw_field is not None:
        tail = re.search(rb'" \d{3} \d+ (.*)$', rec.line, re.S)
        if b'"' in rec.raw_field or (tail and tail.group(1).count(b'"') != 4):
            return {"B"}  # a raw '"' inside a quoted field
    if spec.key == "haproxy/clf-rsyslog":
        return {1}
    if rec.truncated:
        return {13}
    return set()


def explain_path(rec, spec, mode, got, exp):
    """The issue items that explain pct's got != exp for this record."""
    if got.get("unparsed") is not None:
        return explain_unparsed(rec, spec, mode)
    if rec.nul:
        return {12}  # the NUL's next record read as part of this one
    gp = {"path": got.get("path"), "query": got.get("query")}
    if spec.custom and mode == "auto" and got.get("format") == "haproxy":
        return {"D"}
    if spec.shape == "json" and mode == "log-format" and rec.request_text and b"\t" in rec.request_text:
        raw = json_raw_value(rec.line, "request")
        if raw is not None and gp["path"] == logparse.text(raw):
            return {5, 7, 11}  # tabs, JSON escapes not undone, not a request line
    if spec.shape == "json" and json_raw_value(rec.line, "request_uri") == b"" and gp["path"] == "":
        return {9}  # an empty request_uri taken over request
    if exp["path"] is None and gp["path"] is not None:
        return {11}
    if exp["path"] is None:
        raw = json_raw_value(rec.line, "request") if spec.shape == "json" else None
        if mode == "log-format" and raw is not None and got.get("request") == logparse.text(raw):
            return {7}  # the request's JSON escapes left as written
        return {11}  # no "request" text said
    for items, e in models(rec, spec):
        if gp["path"] == e["path"] and gp["query"] == e["query"]:
            return set(items)
    if spec.shape == "json":
        # item 7: --log-format: JSON escapes of the value not undone
        if mode == "log-format":
            raw = json_raw_value(rec.line, "request_uri") or b""
            r = logparse.decode_target(raw)
            if gp["path"] == r["path"] and gp["query"] == r["query"]:
                return {7}
    if rec.truncated:
        return {13}
    return set()


# ---------------------------------------------------------------------------


def cut_by_server(rec, sent, spec):
    """True when the server cut this record: the line ends inside the
    request field (haproxy at 1,024 bytes), a NUL ends it (squid at 8 KB), or
    the target logged is a strict prefix of the one sent (nginx and Apache
    414 lines, varnish's 255-byte URLs)."""
    if rec.truncated or rec.nul:
        return True
    if rec.req is None or rec.id is None or rec.id not in sent or sent[rec.id].target is None:
        return False
    got, want = rec.req[1], sent[rec.id].target
    m = logparse._ABS.match(got)
    if m and not want.startswith(b"http"):
        got = m.group(2)
    if spec.esc == "squid":
        got, want = unquote_to_bytes(got), unquote_to_bytes(want)
    return len(got) < len(want) and want.startswith(got)


def check_truncated(spec, objs, recs, sent):
    """README (issue 24, What to build 5): a record the server cut is
    decoded as far as it goes and flagged "truncated": true; no other is."""
    o = Outcome()
    for i, ((obj, _), rec) in enumerate(zip(objs, recs)):
        if obj is None or rec.notice:
            continue
        o.checked += 1
        cut = cut_by_server(rec, sent, spec)
        flagged = obj.get("truncated") is True
        if cut and not flagged:
            o.add({12} if rec.nul else {13}, "line %d, cut by the server, not flagged: %s%s"
                  % (i + 1, "unparsed " if "unparsed" in obj else "", _short(rec.line[-60:])))
        elif flagged and not cut:
            o.add(set(), "line %d flagged truncated: %s" % (i + 1, _short(rec.line)))
    return o


def check_outputs(pct, spec, path, mode, args, recs, wrapper=(), sent=None):
    """Runs pct with --json and --tsv in this mode; returns {check: Outcome}."""
    res = {}
    rc, out, err = run_pct(pct, args + ["--json"], path, wrapper)
    if rc != 0 and not out:
        # pct refused the options: every check of this mode fails with it
        items = set()
        if b"unknown Apache directive" in err and "%ci" in " ".join(args):
            items = {"E"}  # HAProxy log-format strings not taken
        for name in ("json-strict", "unparsed", "paths", "tsv-columns", "csv-columns", "writers-agree"):
            res[name] = Outcome()
            res[name].add(items, "pct exited with status %d: %s" % (rc, err.decode("utf-8", "replace").strip()[:160]))
        return res
    objs = parse_json_lines(out)
    # json: strict, unique keys, one object per line
    o = Outcome()
    o.checked = len(recs)
    if rc not in (0,):
        o.add(set(), "exit status %d: %s" % (rc, err.decode("utf-8", "replace").strip()[:200]))
    if len(objs) != len(recs):
        o.add(set(), "%d output lines for %d records" % (len(objs), len(recs)))
    for i, (obj, e) in enumerate(objs):
        if e:
            items = {7} if (spec.shape == "json" and mode == "log-format" and "duplicate" in e) else set()
            o.add(items, "line %d: %s" % (i + 1, e))
    res["json-strict"] = o
    # unparsed
    u = Outcome()
    u.checked = len(recs)
    unparsed_ok = spec.custom and mode == "auto"
    for i, ((obj, _), rec) in enumerate(zip(objs, recs)):
        if obj is None:
            continue
        if "unparsed" in obj and not rec.notice and not unparsed_ok:
            u.add(explain_unparsed(rec, spec, mode), "line %d unparsed: %s" % (i + 1, _short(rec.line)))
        elif rec.notice and "unparsed" not in obj:
            u.add(set(), "line %d, a message of the server's own, read as a request: %s"
                  % (i + 1, _short(rec.line)))
    res["unparsed"] = u
    # paths and queries
    p = Outcome()
    for i, ((obj, _), rec) in enumerate(zip(objs, recs)):
        if obj is None or rec.notice or (unparsed_ok and "unparsed" in obj):
            continue
        if rec.field is None:
            if b"\0" not in rec.line:
                p.add(set(), "line %d: the harness finds no request field: %s" % (i + 1, _short(rec.line)))
            continue
        p.checked += 1
        exp = rec.expected()
        got = {"path": obj.get("path"), "query": obj.get("query")}
        # a field that is not a request line is said as "request" (issue 24,
        # What to build 3), where the format has one request field (varnishncsa
        # -F "%m %U%q %H" and squid's native log have method and URL apart)
        no_request_text = (exp["path"] is None and spec.shape not in ("varnish_custom", "squid_native") and
                           obj.get("request") != logparse.text(rec.field))
        if "unparsed" in obj or got["path"] != exp["path"] or no_request_text or (
                exp["path"] is not None and got["query"] != exp["query"]):
            items = explain_path(rec, spec, mode, obj, exp)
            p.add(items, "line %d field %s: expected path %r query %r%s, got %s" % (
                i + 1, _short(rec.field, 80), _clip(exp["path"]), _clip(exp["query"]),
                " request %s" % _clip(logparse.text(rec.field)) if exp["path"] is None else "",
                "unparsed" if "unparsed" in obj else "path %r query %r%s" % (
                    _clip(got["path"]), _clip(got["query"]),
                    " request %s" % _clip(obj.get("request", "(absent)")) if exp["path"] is None else "")))
    if spec.has_request:
        res["paths"] = p
    if spec.headers:
        res["headers"] = check_headers(spec, mode, objs, recs)
    if sent is not None and spec.has_request and not (spec.custom and mode == "auto"):
        res["truncated"] = check_truncated(spec, objs, recs, sent)
    # tsv: constant column count, one row per line; the path column agrees with --json
    rc, tout, err = run_pct(pct, args + ["--tsv"], path, wrapper)
    t = Outcome()
    rows = tout.split(b"\n")
    if rows and rows[-1] == b"":
        rows.pop()
    t.checked = len(rows)
    if rc != 0:
        t.add(set(), "exit status %d: %s" % (rc, err.decode("utf-8", "replace").strip()[:200]))
    if len(rows) != len(recs):
        t.add(set(), "%d rows for %d records" % (len(rows), len(recs)))
    counts = {}
    for i, r in enumerate(rows):
        counts.setdefault(r.count(b"\t") + 1, []).append(i + 1)
    if len(counts) > 1:
        t.add(set(), "column counts %s" % ", ".join("%d (%d rows, first line %d)" % (k, len(v), v[0])
                                                  for k, v in sorted(counts.items())))
    res["tsv-columns"] = t
    # csv: RFC 4180 records (quoted cells may hold newlines), one per line
    rc, cout, err = run_pct(pct, args + ["--csv"], path, wrapper)
    c = Outcome()
    try:
        rows = list(csv.reader(io.StringIO(cout.decode("utf-8"), newline="")))
    except (UnicodeDecodeError, csv.Error) as e:
        rows = []
        c.add(set(), "not CSV: %s" % e)
    c.checked = len(rows)
    if rc != 0:
        c.add(set(), "exit status %d: %s" % (rc, err.decode("utf-8", "replace").strip()[:200]))
    if len(rows) != len(recs):
        c.add(set(), "%d rows for %d records" % (len(rows), len(recs)))
    widths = {}
    for i, r in enumerate(rows):
        widths.setdefault(len(r), []).append(i + 1)
    if len(widths) > 1:
        c.add(set(), "column counts %s" % ", ".join("%d (%d rows, first row %d)" % (k, len(v), v[0])
                                                  for k, v in sorted(widths.items())))
    res["csv-columns"] = c
    rc, tout, err = run_pct(pct, args + ["--tsv", "--fields", "path"], path, wrapper)
    a = Outcome()
    prow = tout.split(b"\n")
    for i, ((obj, _), r) in enumerate(zip(objs, prow)):
        if obj is None:
            continue
        a.checked += 1
        jp = obj.get("path")
        tp = tsv_value(r)
        if "unparsed" in obj:
            continue
        if jp != tp:
            rec = recs[i]
            items = set()
            if rec.req is None:
                items = {11}  # not a request line: the writers differ
            elif rec.field is not None and b"\t" in (rec.request_text or rec.field):
                items = {5, 11}  # a request line with tabs not read as one
            elif spec.custom and mode == "auto" and obj.get("format") == "haproxy":
                items = {"D"}
            a.add(items, "line %d: --json path %r, --tsv path %r" % (i + 1, _clip(jp), _clip(tp)))
    res["writers-agree"] = a
    return res


def check_headers(spec, mode, objs, recs):
    """Referer and User-Agent: the server's escaping undone, nothing more
    (README: log escapes undone; the referer is not percent-decoded without
    --referer). In combined lines '-' is absent (null); in JSON lines a
    string is data, "-" included."""
    o = Outcome()
    keys = ("referer", "agent")
    if spec.shape == "json" and mode != "log-format":
        keys = ("http_referer", "http_user_agent")  # JSON lines keep their keys
    if spec.shape == "haproxy_httplog":
        keys = ("request_header_1", "request_header_2")  # haproxy's captures, in order
    for i, ((obj, _), rec) in enumerate(zip(objs, recs)):
        if obj is None or "unparsed" in obj or rec.notice:
            continue
        if spec.custom and mode == "auto" and obj.get("format") == "haproxy":
            o.add({"D"}, "line %d: read as haproxy" % (i + 1))
            continue
        h = logparse.headers(rec.line, spec)
        if h is None:
            continue
        o.checked += 1
        for key, raw in zip(keys, h):
            got = obj.get(key)
            if spec.shape == "json":
                # nginx writes bytes >= 0x80 as they are: not UTF-8 is U+FFFD
                want = None if raw is None else logparse.text(raw.encode("utf-8", "surrogateescape"))
                ok = got == want
                items = {10} if (want == "-" and got is None) else set()
                if not ok and not items and mode == "log-format":
                    jkey = "http_referer" if key == "referer" else "http_user_agent"
                    rawj = json_raw_value(rec.line, jkey)
                    if rawj is not None and got == logparse.text(logparse.unescape_apache(rawj, controls=False)):
                        items = {7}  # JSON escapes other than \" \\ left as written
            elif spec.esc == "haproxy":
                # an absent header is an empty capture; a '-' is null as in
                # every text log (README), though here the client sent it
                want = logparse.text(logparse.unescape_haproxy(raw))
                ok = got == want or (raw in (b"", b"-") and got in (want, None))
                items = {2} if got == logparse.text(raw) else set()
            else:
                want = None if raw == b"-" else logparse.text(logparse.UNESCAPE[spec.esc](raw))
                ok = got == want or (raw == b"" and got in ("", None))
                items = set()
                if spec.esc == "apache" and got == logparse.text(logparse.unescape_apache(raw, controls=False)):
                    items = {4}  # \t \n ... left as written
            if not ok:
                o.add(items, "line %d %s: expected %s, got %s" % (i + 1, key, _clip(want), _clip(got)))
    return o


def tsv_value(cell):
    if cell == b"\\N":
        return None
    out = bytearray()
    i = 0
    while i < len(cell):
        c = cell[i]
        if c == 0x5C and i + 1 < len(cell):
            n = cell[i + 1]
            if n == ord("x") and i + 3 < len(cell):
                out.append(int(cell[i + 2:i + 4], 16))
                i += 4
                continue
            out += {ord("t"): b"\t", ord("n"): b"\n", ord("r"): b"\r", ord("\\"): b"\\"}.get(n, bytes([n]))
            i += 2
            continue
        out.append(c)
        i += 1
    return out.decode("utf-8", "replace")


def _clip(v, n=90):
    r = repr(v)
    return r if len(r) <= n else r[:n] + "..."


def check_compressed(pct, path, args, workdir, wrapper=()):
    """gzip and zstd copies give byte-identical output (line and --json)."""
    o = Outcome()
    gz = os.path.join(workdir, os.path.basename(path) + ".gz")
    zst = os.path.join(workdir, os.path.basename(path) + ".zst")
    with open(path, "rb") as f, gzip.open(gz, "wb") as g:
        g.write(f.read())
    subprocess.run(["zstd", "-q", "-f", "-o", zst, path], check=True, timeout=PCT_TIMEOUT)
    for extra in ([], ["--json"]):
        _, plain, _ = run_pct(pct, args + extra, path, wrapper)
        for c in (gz, zst):
            _, got, err = run_pct(pct, args + extra, c, wrapper)
            o.checked += 1
            if got != plain:
                o.add(set(), "%s%s: output differs from the plain file's (%d vs %d bytes) %s" % (
                    os.path.basename(c), " --json" if extra else "", len(got), len(plain),
                    err.decode("utf-8", "replace").strip()[:120]))
    for c in (gz, zst):
        os.unlink(c)
    return o


def check_threads(pct, path, args, nlines, wrapper=()):
    """One output line per input line (nlines: the counts allowed; squid's
    NUL-ended records may be lines of their own), and the same bytes with 2
    threads on 64 KiB chunks as with one thread (README: the same bytes
    whatever the number of threads)."""
    o = Outcome()
    for extra in ([], ["--json"], ["--tsv"]):
        _, one, _ = run_pct(pct, args + extra + ["--threads", "1"], path, wrapper)
        _, two, _ = run_pct(pct, args + extra + ["--threads", "2", "--chunk-size", "64K"], path, wrapper)
        o.checked += 2
        name = " ".join(extra) or "line output"
        if one.count(b"\n") not in nlines:
            o.add(set(), "%s: %d output lines for %s input records" % (
                name, one.count(b"\n"), " or ".join(map(str, sorted(nlines)))))
        if two != one:
            o.add(set(), "%s: --threads 2 --chunk-size 64K differs from --threads 1" % name)
    return o


def _x_escapes(line):
    """The \\xHH escapes in a JSON text (a backslash that is not itself
    escaped, then xHH: never JSON), and those of them that spell a C1
    control (\\xc2\\x80..\\x9f) or DEL (\\x7f)."""
    found = []
    for m in re.finditer(rb"(\\+)x([0-9a-fA-F]{2})", line):
        if len(m.group(1)) % 2:
            found.append((m.start(2) - 1, int(m.group(2), 16)))
    c1_or_del = []
    for k, (pos, v) in enumerate(found):
        if v == 0x7F:
            c1_or_del.append(pos)
        elif v == 0xC2 and k + 1 < len(found) and found[k + 1][0] == pos + 4 \
                and 0x80 <= found[k + 1][1] <= 0x9F:
            c1_or_del += [pos, found[k + 1][0]]
    return found, c1_or_del


def check_line_output_json(pct, path, args, mode, wrapper=()):
    """JSON lines in: the line output is JSON again (README: 'in JSON lines
    the decoded text is JSON-escaped')."""
    o = Outcome()
    _, out, _ = run_pct(pct, args, path, wrapper)
    for i, (obj, e) in enumerate(parse_json_lines(out)):
        o.checked += 1
        if e:
            items = set()
            line = out.split(b"\n")[i]
            escapes, c1_or_del = _x_escapes(line)
            if "codec can't decode" in e:
                items = {"C"}  # bytes that are not UTF-8 copied from the input
            elif escapes and len(c1_or_del) == len(escapes):
                items = {8}  # C1 controls and DEL written as \xHH
            elif escapes and mode == "log-format":
                # the escape=json template is not read as JSON: decoded
                # controls written as the line output's \xHH
                items = {7, 8} if c1_or_del else {7}
            o.add(items, "line %d: %s" % (i + 1, e))
    return o


def check_targets(recs, sent, spec):
    """The harness's own check: the target each server logged, its escaping
    undone, is the target sent (or a prefix of it when the server cut it)."""
    o = Outcome()
    for i, rec in enumerate(recs):
        if rec.id is None or rec.req is None:
            continue
        req = sent.get(rec.id)
        if req is None or req.target is None:
            continue
        o.checked += 1
        got = rec.req[1]
        want = req.target
        m = logparse._ABS.match(got)
        if m and not want.startswith(b"http"):
            got = m.group(2)
        if got == want or (not rec.closed or len(got) < len(want)) and want.startswith(got):
            continue
        if spec.esc == "squid" and _squid_same(got, want):
            continue
        o.add(set(), "line %d (request %d): logged %s, sent %s" % (i + 1, rec.id, _short(got), _short(want)))
    return o
