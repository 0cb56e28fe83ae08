#!/usr/bin/env python3
"""Tests of the format registry of `pct logs` (tools/logs/log_format_registry.c):
every list of formats agrees with `pct logs --list-formats` (--help, the bash
completion, the man page, the Python package), --stats counts a line of each
format under its name; and the defects of times, wide W3C headers and JSON
lines' types (issue 23: 15, 16, 17); one rule for quoted fields in the
combined fast path and the templates.

Usage: test_logs_registry.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Expected values are written here from the formats' definitions (dates from
the calendar, JSON from RFC 8259), never copied from the program's output.
"""
import csv
import datetime
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import test_logs
import test_logs_formats
from clitest import check, run_groups, short
from test_logs import run, run_ok  # `pct logs ARGS`, as test_logs.py runs it

ROOT = test_logs.ROOT


def registry():
    """--list-formats as [(name, [aliases], description)]; [] when it fails."""
    result = run(["--list-formats"])
    if not check("--list-formats (exit 0)", result.returncode == 0, short(result.stderr)):
        return []
    rows = []
    for line in result.stdout.decode("utf-8").splitlines():
        cols = line.split("\t")
        if not check("--list-formats: 3 columns", len(cols) == 3, repr(line)):
            continue
        rows.append((cols[0], [a for a in cols[1].split(",") if a], cols[2]))
    return rows


def test_lists():
    """Every list of format names is the registry's."""
    rows = registry()
    names = [r[0] for r in rows]
    aliases = [a for r in rows for a in r[1]]
    if not check("registry: formats listed", len(names) >= 13, repr(names)):
        return
    check("registry: names and aliases unique", len(set(names + aliases)) == len(names + aliases),
          repr(names + aliases))
    check("registry: names are words",
          all(re.fullmatch(r"[a-z][a-z0-9_]*", n) for n in names + aliases), repr(names + aliases))
    check("registry: descriptions", all(r[2].strip() and "\t" not in r[2] for r in rows))
    check("registry: auto and custom are not formats", "auto" not in names and "custom" not in names)

    # --help: the list under its heading, "name (aliases)  description"
    help_text = run_ok("--help", ["--help"]).stdout.decode("utf-8")
    m = re.search(r"^The formats[^\n]*\n((?:  \S.*\n|\s{10,}\S.*\n)+)", help_text, re.M)
    listed = []
    if check("--help: the formats' list", m is not None, short(help_text)):
        for line in m.group(1).splitlines():
            h = re.match(r"  (\S+)(?: \(([^)]*)\))?\s", line)
            if h:
                listed.append((h.group(1), h.group(2).split(",") if h.group(2) else []))
    check("--help lists the registry", listed == [(r[0], r[1]) for r in rows],
          "help %r, registry %r" % (listed, [(r[0], r[1]) for r in rows]))

    # bash completion: `pct logs --format <TAB>`, with bash-completion's two
    # helpers stubbed (the script is sourced as bash would)
    bash = shutil.which("bash")
    if bash is not None:
        script = os.path.join(ROOT, "completions", "pct.bash")
        prog = r"""
_init_completion() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]};
    words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
_filedir() { :; }
source "$1"
COMP_WORDS=("$2" logs --format ""); COMP_CWORD=3
_pct
printf '%s\n' "${COMPREPLY[@]}"
"""
        pct = test_logs.PCT
        wrapper = None
        if test_logs.WRAPPER:  # cross builds: the completion runs "$pct" itself
            wrapper = tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False)
            wrapper.write('#!/bin/sh\nexec %s "$@"\n' % " ".join(test_logs.WRAPPER + [pct]))
            wrapper.close()
            os.chmod(wrapper.name, 0o755)
            pct = wrapper.name
        try:
            out = subprocess.run([bash, "-c", prog, "bash", script, pct], capture_output=True,
                                 timeout=120)
        finally:
            if wrapper is not None:
                os.unlink(wrapper.name)
        offered = sorted(out.stdout.decode().split())
        check("completion of --format: auto and every format", offered == sorted(["auto"] + names),
              "offered %r; stderr %s" % (offered, short(out.stderr)))

    # the man page: the --format paragraph names auto and every format, with
    # its aliases, and nothing else in bold but its own words
    with open(os.path.join(ROOT, "man", "pct.1"), encoding="utf-8") as f:
        man = f.read()
    start = man.find('.BI \\-\\-format " name"')
    para = man[start:man.find("\n.TP", start)] if start >= 0 else ""
    bold = []
    for line in para.splitlines()[1:]:
        b = re.match(r"\.(?:B|BR) (\S+)", line) or re.match(r"\.RB \( (\S+?)[;)]?(?: |$)", line)
        if b:
            bold.append(b.group(1))
    own_words = {"#", "#Fields:", "escape=json"}
    check("man page --format: every name and alias",
          set(names + aliases + ["auto"]) <= set(bold), "missing %r" % sorted(
              set(names + aliases + ["auto"]) - set(bold)))
    check("man page --format: no other format", set(bold) - own_words <= set(names + aliases + ["auto"]),
          "unknown %r" % sorted(set(bold) - own_words - set(names + aliases + ["auto"])))
    check("man page: --list-formats", "\\-\\-list\\-formats" in man)

    # Python: pct.logs.formats() comes from the log engine in the package's
    # extension (bindings/python/tests/test_logs.py test_formats compares it
    # with --list-formats); here: no module of the package spells a format's
    # name
    src = os.path.join(ROOT, "bindings", "python", "src", "pct")
    for py in sorted(os.listdir(src)):
        if py.endswith((".py", ".pyi")):
            with open(os.path.join(src, py), encoding="utf-8") as f:
                text = f.read()
            spelled = [n for n in names if n not in ("json", "common") and
                       re.search(r"[\"']%s[\"']" % re.escape(n), text)]
            check("python %s: no list of format names of its own" % py, not spelled, repr(spelled))


def test_names():
    """--format takes every name and alias of the list, and nothing else."""
    line = b'192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "x"\n'
    for name, aliases, _ in registry():
        for n in [name] + aliases:
            r = run(["--format", n], line)
            check("--format %s accepted" % n, r.returncode == 0, short(r.stderr))
    for bad in ["custom", "unparsed", "Combined", "no-such-format", ""]:
        r = run(["--format", bad], line)
        check("--format %r refused (exit 2)" % bad, r.returncode == 2 and b"--list-formats" in r.stderr,
              "exit %d %s" % (r.returncode, short(r.stderr)))


# Lines of the formats that test_logs_formats.SAMPLES lacks.
EXTRA_SAMPLES = {
    "w3c": "#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status\n"
           "2026-03-14 06:00:00 192.0.2.5 GET /a%20b q=1 200",
    "traefik": '192.0.2.7 - - [14/Mar/2026:06:00:00 +0000] "GET /t%20x HTTP/1.1" 200 12 "-" "curl" '
               '7 "web@docker" "http://10.0.0.2:80" 3ms',
    "haproxy_clf": 'Mar 14 06:00:00 lb haproxy[12]: 192.0.2.9 - - [14/Mar/2026:06:00:00 +0000] '
                   '"GET /c%20l HTTP/1.1" 200 5 "" "" 4567 123 "fe" "be" "srv" 0 0 1 2 3 ---- '
                   '1 1 1 1 0 0 0 "" ""',
    "haproxy_tcp": '192.0.2.10:4567 [14/Mar/2026:06:00:00.123] fe be/srv 0/1/2 5 -- 1/1/1/1/0 0/0',
    "squid_combined": '192.0.2.12 - - [14/Mar/2026:06:00:00 +0000] "GET http://example.com/s%20q HTTP/1.1" '
                      '200 5 "-" "curl" TCP_MISS:HIER_DIRECT',
    "haproxy_https": '192.0.2.11:4567 [14/Mar/2026:06:00:00.123] fe~ be/srv 0/0/1/2/3 200 5 - - '
                     '---- 1/1/1/1/0 0/0 "GET /s%20x HTTP/1.1" 0/0/0/0/0 www.example.com/TLSv1.3/'
                     'TLS_AES_256_GCM_SHA384',
}


def test_stats():
    """A line of each format, named with --format: --stats counts it under
    the format's name (the counts are sized from the registry)."""
    samples = {fmt: line for _, fmt, line, *_ in test_logs_formats.SAMPLES}
    samples.update(EXTRA_SAMPLES)
    for name, _, _ in registry():
        if not check("a sample line of %s" % name, name in samples):
            continue
        r = run_ok("stats " + name, ["--stats", "--format", name], samples[name].encode() + b"\n")
        m = re.search(r"^format %s +(\d+) lines$" % re.escape(name), r.stderr.decode(), re.M)
        check("stats count %s" % name, m is not None and m.group(1) == "1", short(r.stderr))
        m = re.search(r"^unparsed lines: +(\d+)$", r.stderr.decode(), re.M)
        check("stats %s parsed" % name, m is not None and m.group(1) == "0", short(r.stderr))
    r = run_ok("stats custom", ["--stats", "--log-format", "$remote_addr [$time_local] \"$request\""],
               b'192.0.2.8 [14/Mar/2026:06:00:00 +0000] "GET /c HTTP/1.1"\n')
    check("stats count custom", re.search(r"^format custom +1 lines$", r.stderr.decode(), re.M)
          is not None, short(r.stderr))
    # all of them in one run, each line twice, with threads: every count
    data = "".join(samples[n] + "\n" for n, _, _ in registry() if n not in ("w3c",)) * 2
    r = run_ok("stats all", ["--stats", "--threads", "2", "--chunk-size", "1k"], data.encode())
    for name, _, _ in registry():
        if name in ("w3c", "traefik", "common", "xff_combined"):
            continue  # w3c needs its header first; the others are found as combined (see --help)
        m = re.search(r"^format %s +(\d+) lines$" % re.escape(name), r.stderr.decode(), re.M)
        check("stats auto %s" % name, m is not None and int(m.group(1)) >= 2, short(r.stderr))


def iso_of(day, mon, year, hms, zone):
    """time_iso by the calendar: None unless a real date and time."""
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    try:
        h, mi, s = (int(x) for x in hms.split(":"))
        datetime.date(year, months.index(mon) + 1, day)
        datetime.time(h, mi, min(s, 59))
        if s > 60 or int(zone[1:3]) > 23 or int(zone[3:]) > 59:
            return None
    except ValueError:
        return None
    return "%04d-%02d-%02dT%s%s:%s" % (year, months.index(mon) + 1, day, hms, zone[:3], zone[3:])


def test_times():
    """Defect 15: an impossible time gives time_iso null, never a made-up
    ISO date; JSON lines get time_iso from their time field."""
    cases = [(99, "Feb", 2026, "99:99:99", "+9999"), (29, "Feb", 2024, "23:59:59", "+0000"),
             (29, "Feb", 2025, "12:00:00", "+0000"), (29, "Feb", 1900, "12:00:00", "+0000"),
             (29, "Feb", 2000, "12:00:00", "-0500"), (31, "Apr", 2026, "12:00:00", "+0000"),
             (30, "Apr", 2026, "12:00:00", "+0000"), (31, "Dec", 2026, "23:59:60", "+1400"),
             (1, "Jan", 2026, "24:00:00", "+0000"), (1, "Jan", 2026, "12:60:00", "+0000"),
             (1, "Jan", 2026, "12:00:61", "+0000"), (1, "Jan", 2026, "12:00:00", "+2400"),
             (1, "Jan", 2026, "12:00:00", "-2359"), (1, "Jan", 2026, "12:00:00", "+0060"),
             (0, "Jan", 2026, "12:00:00", "+0000")]
    lines, want = [], []
    for day, mon, year, hms, zone in cases:
        t = "%02d/%s/%04d:%s %s" % (day, mon, year, hms, zone)
        lines.append('192.0.2.1 - - [%s] "GET /a HTTP/1.1" 200 5 "-" "x"' % t)
        want.append(iso_of(day, mon, year, hms, zone))
    check("cases: both kinds", None in want and any(want))
    data = ("\n".join(lines) + "\n").encode()
    # the fast path, the record path (trailing field), a named template, TSV
    for how, args, suffix in [("fast", ["--json"], ""), ("record", ["--json"], " extra=1"),
                              ("xff", ["--json", "--format", "xff_combined"], "")]:
        d = ("\n".join(l + suffix for l in lines) + "\n").encode()
        out = run_ok("times " + how, args, d).stdout.decode().splitlines()
        got = [json.loads(o).get("time_iso", "missing") for o in out]
        check("times %s: time_iso" % how, got == want,
              "; ".join("%r: %r, want %r" % (c, g, w) for c, g, w in zip(cases, got, want) if g != w))
    out = run_ok("times tsv", ["--tsv", "--fields", "time_iso"], data).stdout.decode().splitlines()
    check("times tsv", out == [w if w else "\\N" for w in want], repr(out))

    # the general parser (HAProxy's milliseconds), W3C dates, ISO 8601 (Envoy)
    hap = ('192.0.2.9:5 [%s] fe be/s1 0/0/0/1/1 200 10 - - ---- 1/1/0/0/0 0/0 "GET /h HTTP/1.1"')
    for t, ok in [("06/Feb/2009:12:14:14.655", "2009-02-06T12:14:14.655"),
                  ("31/Jun/2009:12:14:14.655", None), ("06/Feb/2009:25:14:14.655", None)]:
        o = json.loads(run_ok("haproxy " + t, ["--json", "--format", "haproxy"],
                              (hap % t + "\n").encode()).stdout)
        check("haproxy time_iso %s" % t, o.get("time_iso", "missing") == ok, repr(o.get("time_iso")))
    for date, time, ok in [("2026-03-14", "06:00:00", "2026-03-14T06:00:00Z"),
                           ("2026-02-30", "06:00:00", None), ("2026-03-14", "06:61:00", None),
                           ("2024-02-29", "23:59:59.5", "2024-02-29T23:59:59.5Z")]:
        data = "#Fields: date time cs-method cs-uri-stem\n%s %s GET /w\n" % (date, time)
        out = run_ok("w3c " + date, ["--json"], data.encode()).stdout.decode().splitlines()
        o = json.loads(out[-1])
        check("w3c time_iso %s %s" % (date, time), o.get("time_iso", "missing") == ok, repr(o))
    env = ('[%s] "GET /e HTTP/1.1" 200 - 0 0 1 1 "-" "curl" "id" "h" "10.0.0.1:80"')
    for t, ok in [("2026-03-14T06:00:03.123Z", "2026-03-14T06:00:03.123Z"),
                  ("2026-13-14T06:00:03.123Z", None), ("2026-03-14T06:00:03+25:00", None),
                  ("2026-03-14T06:00:03+05:30", "2026-03-14T06:00:03+05:30")]:
        o = json.loads(run_ok("envoy " + t, ["--json", "--format", "envoy"],
                              (env % t + "\n").encode()).stdout)
        check("envoy time_iso %s" % t, o.get("time_iso", "missing") == ok, repr(o.get("time_iso")))

    # JSON lines: time_iso from the time field, whatever its key
    unix = 1710396000
    by_calendar = datetime.datetime.fromtimestamp(unix, datetime.timezone.utc)
    ts_iso = by_calendar.strftime("%Y-%m-%dT%H:%M:%S") + ".5Z"
    for line, ok in [('{"ts":%d.5,"request":{"uri":"/j"}}' % unix, ts_iso),
                     ('{"time_local":"14/Mar/2026:06:00:00 +0100","request_uri":"/j"}',
                      "2026-03-14T06:00:00+01:00"),
                     ('{"time":"30/Feb/2026:06:00:00 +0100","uri":"/j"}', None),
                     ('{"StartUTC":"2026-03-14T06:00:00Z","RequestPath":"/j"}', "2026-03-14T06:00:00Z")]:
        out = run_ok("json lines time", ["--json"], (line + "\n").encode()).stdout
        o = json.loads(out)
        check("json lines time_iso %s" % line, o.get("format") == "json" and
              o.get("time_iso", "missing") == ok, short(out))
        t = run_ok("json lines tsv", ["--tsv", "--fields", "time_iso"], (line + "\n").encode()).stdout
        check("json lines tsv time_iso %s" % line, t.decode() == (ok or "\\N") + "\n", short(t))


def w3c_log(columns, extra_name_len=0):
    names = ["date", "time", "cs-method", "cs-uri-stem", "cs-uri-query", "sc-status"]
    values = ["2026-03-14", "06:00:00", "GET", "/a%20b", "q=%41", "200"]
    for i in range(columns - len(names)):
        names.append("x-col%d%s" % (i, "-n" * extra_name_len))
        values.append("v%d" % i)
    return names, values


def test_w3c_wide():
    """Defect 16: W3C headers of many columns: every column kept (names
    whole), or, past the documented bound, a message with the byte offset
    and exit status 2 - never lines silently unparsed."""
    for columns in (65, 100, 250):
        names, values = w3c_log(columns, extra_name_len=10)  # names of 30 bytes and more
        data = ("#Fields: %s\n%s\n" % (" ".join(names), " ".join(values))).encode()
        for threads in ("1", "2"):
            r = run_ok("w3c %d columns" % columns, ["--json", "--threads", threads], data)
            rows = [json.loads(t) for t in r.stdout.decode().splitlines()]
            o = rows[-1] if rows else {}
            check("w3c %d columns: parsed" % columns, o.get("format") == "w3c", short(r.stdout))
            check("w3c %d columns: path, query" % columns,
                  o.get("path") == "/a b" and o.get("query") == [["q", "A"]], short(o))
            check("w3c %d columns: every column by its whole name" % columns,
                  all(o.get(n) == v for n, v in zip(names[6:], values[6:])),
                  "missing %r" % [n for n in names[6:] if n not in o][:3])
        r = run_ok("w3c %d line" % columns, ["--stats"], data)
        check("w3c %d columns: decoded in line output" % columns,
              r.stdout.decode().splitlines()[-1].split(" ")[3] == "/a\\x20b", short(r.stdout))
        check("w3c %d columns: counted" % columns,
              re.search(r"^format w3c +1 lines$", r.stderr.decode(), re.M) is not None, short(r.stderr))

    # the layout carried from chunk to chunk, decoded on two threads
    names, values = w3c_log(120, extra_name_len=5)
    rows_in = 300
    data = "#Fields: %s\n" % " ".join(names)
    for i in range(rows_in):
        data += " ".join(values[:3] + ["/p%d%%20x" % i] + values[4:]) + "\n"
    out = run_ok("w3c 120 columns, chunks", ["--json", "--threads", "2", "--chunk-size", "4k"],
                 data.encode()).stdout.decode().splitlines()
    rows = [json.loads(t) for t in out[1:]]
    check("w3c 120 columns in 4k chunks: every line parsed, all columns",
          len(rows) == rows_in and all(o.get("path") == "/p%d x" % i and o.get(names[-1]) == values[-1]
                                       for i, o in enumerate(rows)), short(out[:2]))

    # past the bound: reported, with where; a narrower header after it works
    names, values = w3c_log(400)
    small, small_values = w3c_log(8)
    head = "#Version: 1.0\n"
    data = head + "#Fields: %s\n%s\n#Fields: %s\n%s\n" % (" ".join(names), " ".join(values),
                                                            " ".join(small), " ".join(small_values))
    for threads in ("1", "2"):
        with tempfile.NamedTemporaryFile(suffix=".log") as f:
            f.write(data.encode())
            f.flush()
            r = run(["--json", "--threads", threads, "--stats", f.name])
        err = r.stderr.decode()
        check("w3c 400 columns: exit 2 (threads %s)" % threads, r.returncode == 2, short(err))
        check("w3c 400 columns: the message names the file, byte and count",
              re.search(r"%s: byte %d: .*400 columns" % (re.escape(f.name), len(head)), err) is not None,
              short(err))
        rows = [json.loads(t) for t in r.stdout.decode().splitlines()]
        check("w3c 400 columns: every line out", len(rows) == 5, short(r.stdout))
        if len(rows) == 5:
            check("w3c 400 columns: its line unparsed", "unparsed" in rows[2], short(rows[2]))
            check("w3c: the next header's line parsed", rows[4].get("path") == "/a b", short(rows[4]))


def test_json_types():
    """Defect 17: JSON lines keep their types in --json (a number stays a
    number, true/false/null literals), and keys are matched unescaped."""
    line = ('{"uri":"/x","status":200,"size":1.5e3,"neg":-2,"frac":0.25,"big":12345678901234567890,'
            '"exp":-1E-2,"ok":true,"no":false,"none":null,"text":"200","list":[1,"a"]}')
    out = run_ok("json types", ["--json"], (line + "\n").encode()).stdout
    o = json.loads(out)
    want = json.loads(line)  # the types and values as written (Python's own parser)
    for key in ("status", "size", "neg", "frac", "big", "exp", "ok", "no", "none", "text"):
        check("json type of %s" % key, key in o and o[key] == want[key] and type(o[key]) is type(want[key]),
              "got %r" % (o.get(key, "missing"),))
    check("json numbers as written", b'"size":1.5e3' in out and b'"exp":-1E-2' in out, short(out))
    # TSV/CSV: as text
    t = run_ok("json types tsv", ["--tsv", "--fields", "status,size,ok,none,text"],
               (line + "\n").encode()).stdout
    check("json types tsv", t == b"200\t1.5e3\ttrue\t\\N\t200\n", short(t))
    # not JSON: the line is not taken (unparsed, as written)
    for bad in ['{"uri":"/x","n":01}', '{"uri":"/x","n":tru}', '{"uri":"/x","n":1.}',
                '{"uri":"/x","n":.5}', '{"uri":"/x","n":1e}', '{"uri":"/x","n":+1}',
                '{"uri":"/x","n":"a\\q"}', '{"uri":"/x","n":"\\u12G4"}', '{"uri":"/x","n":nulls}']:
        o = json.loads(run_ok("json bad " + bad, ["--json"], (bad + "\n").encode()).stdout)
        check("json not taken: %s" % bad, o == {"unparsed": bad}, short(o))
    # keys: escapes undone before matching
    for line, path in [('{"pa\\u0074h":"/a%20b"}', "/a b"), ('{"request":{"\\u0075ri":"/n%41"}}', "/nA"),
                       ('{"ur\\u006C":"/u","x\\"y":1}', "/u")]:
        out = run_ok("json key " + line, ["--json"], (line + "\n").encode()).stdout
        o = json.loads(out)
        check("json escaped key %s" % line, o.get("format") == "json" and o.get("path") == path, short(out))
    o = json.loads(run_ok("json key quote", ["--json"], b'{"url":"/u","x\\"y":1,"\\u00e9":2}\n').stdout)
    check("json keys unescaped in output", o.get('x"y') == 1 and o.get("\u00e9") == 2, short(o))
    r = run_ok("json --json-key escaped", ["--json", "--json-key", "a.b"],
               b'{"a":{"\\u0062":"/k%20k"}}\n').stdout
    check("json --json-key matches an escaped key", json.loads(r).get("path") == "/k k", short(r))
    # random objects as Python writes them (keys and strings \u-escaped, numbers
    # in every JSON form): each member comes back with its type and value
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("json-types random objects: seed %d (PCT_TEST_SEED repeats it)" % seed)
    rng = random.Random(seed)
    alphabet = "abcXYZ09_-.\"\\/\u00e9\u20ac\U0001f600\x01\x1f\t\n"

    def text():
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))

    def value():
        return rng.choice([lambda: rng.randint(-10**20, 10**20), lambda: rng.uniform(-1e6, 1e6),
                           lambda: rng.choice([1e-7, 2.5e300, -0.0, 0.5]), lambda: True,
                           lambda: False, lambda: None, lambda: "s" + text()])()
    objects = []
    for _ in range(200):
        obj = {"uri": "/r"}
        for _ in range(rng.randint(1, 12)):
            obj["k_" + text()] = value()
        objects.append(obj)
    data = "".join(json.dumps(o, ensure_ascii=rng.random() < 0.7) + "\n" for o in objects)
    out = run_ok("json random objects", ["--json"], data.encode()).stdout.decode().splitlines()
    bad = []
    for obj, line in zip(objects, out):
        got = json.loads(line)
        for k, v in obj.items():
            if k != "uri" and (k not in got or got[k] != v or type(got[k]) is not type(v)):
                bad.append("%r: %r, want %r" % (k, got.get(k, "missing"), v))
    check("json random objects: types and values", len(out) == len(objects) and not bad,
          "; ".join(bad[:3]))

    # a line of more fields than a record holds: unparsed, never cut
    wide = '192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET /w HTTP/1.1" 200 5 "-" "x" ' + " ".join(
        "k%d=%d" % (i, i) for i in range(300))
    for args in (["--json"], ["--json", "--format", "combined"], ["--tsv"]):
        out = run_ok("combined 300 trailing fields", args, (wide + "\n").encode()).stdout.decode()
        got = json.loads(out) if "--json" in args else out
        check("combined 300 trailing fields %s: unparsed, whole" % args,
              got == {"unparsed": wide} if "--json" in args else got.startswith("unparsed\t"),
              short(out))
    narrow = wide[:wide.index(" k40=")]
    o = json.loads(run_ok("combined 40 trailing fields", ["--json"], (narrow + "\n").encode()).stdout)
    check("combined 40 trailing fields: every one", all(o.get("k%d" % i) == str(i) for i in range(40)),
          short(o))
    many = "{" + ",".join('"k%d":%d' % (i, i) for i in range(300)) + ',"uri":"/m"}'
    o = json.loads(run_ok("json many members", ["--json"], (many + "\n").encode()).stdout)
    check("json 300 members: unparsed, whole", o == {"unparsed": many}, short(o))

COMBINED_TEMPLATE = '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"'


def test_quotes():
    """One rule for a quoted field, in the fast path and the templates: it ends
    at the first '"' not escaped by a backslash that the format's next text
    follows (a space after the request, ' "' after the referer, the end of the
    line, a space or a tab after the agent); any other '"' is data. A status
    or size is "-", or digits after an optional '-'. Damaged lines: quotes and backslashes added,
    removed or written over from the request on (the first fields' grammar,
    spaces and tabs, is test_logs.py's "shapes")."""
    head = '10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] '
    cases = [  # (rest of the line, {key: expected} or None for unparsed)
        ('"GET /a HTTP/1.1" 200 5 "-" "curl "x""', {"agent": 'curl "x"', "path": "/a"}),
        ('"GET /a"b HTTP/1.1" 200 5 "-" "c"', {"path": '/a"b', "agent": "c"}),
        ('"GET /a HTTP/1.1" 200 5 "r"x" "c"', {"referer": 'r"x', "agent": "c"}),
        ('"GET /a HTTP/1.1" 200 5 "-" "c"" extra', {"agent": 'c"', "extra": ["extra"]}),
        ('"GET /a HTTP/1.1" 200 5 "-" "a\\"b"[', None),
        ('"GET /a HTTP/1.1" 200 2-5 "-" "c"', None),
        ('"GET /a HTTP/1.1" -- 5 "-" "c"', None),
        ('"GET /a HTTP/1.1" 200 -5 "-" "c"', {"bytes": "-5"}),  # a string: no server's size
        ('"GET /a HTTP/1.1" 200 5- "-" "c"', None),
        ('"GET /a HTTP/1.1" 200 - "-" "c"', {"bytes": None, "status": 200}),
    ]
    lines = [head + c for c, _ in cases]
    data = ("\n".join(lines) + "\n").encode()
    for how, args in [("combined", ["--format", "combined"]),
                      ("template", ["--log-format", COMBINED_TEMPLATE])]:
        out = run_ok("quotes " + how, ["--json"] + args, data).stdout.decode().splitlines()
        if not check("quotes %s: a line each" % how, len(out) == len(lines), repr(out)):
            continue
        for (case, want), o in zip(cases, out):
            try:
                got = json.loads(o)
            except ValueError:
                check("quotes %s %r: JSON" % (how, case), False, o)
                continue
            if want is None:
                check("quotes %s %r: unparsed" % (how, case), "unparsed" in got, o)
            else:
                check("quotes %s %r" % (how, case),
                      {k: got.get(k, "missing") for k in want} == want, o)

    # Damaged quoted fields: the fast path and the template give each line the
    # same fields.
    seed = int(os.environ.get("PCT_TEST_SEED") or random.randrange(1 << 30))
    print("quotes: damaged combined lines, seed %d (PCT_TEST_SEED repeats it)" % seed)
    rng = random.Random(seed)
    lines = []
    for i in range(2000):
        line = '10.0.0.%d - %s [10/Oct/2000:13:55:%02d -0700] "GET /p%d/%s HTTP/1.1" %s %s "%s" "%s"' % (
            i % 250, rng.choice(["-", "frank"]), i % 60, i,
            rng.choice(["a%20b", "caf%C3%A9", "x?q=1&r=%2F", "plain"]), rng.choice(["200", "404"]),
            rng.choice(["2326", "-"]), rng.choice(["-", "http://ex/?a=%22"]),
            rng.choice(["Mozilla/5.0", 'curl "x"', 'a\\"b', "tab\tin"]))
        chars = list(line)
        start = line.index('"')  # the quoted fields and what is between them
        for _ in range(rng.randint(0, 3)):
            k = rng.randrange(start, len(chars))
            op = rng.random()
            if op < 0.5:
                chars.insert(k, rng.choice(['"', '"', "\\"]))
            elif op < 0.75 and chars[k] in '"\\':
                del chars[k]
            else:
                chars[k] = '"'
        lines.append("".join(chars))
    data = ("\n".join(lines) + "\n").encode()
    for mode in (["--json"], ["--tsv"]):
        a = run_ok("damaged combined " + mode[0], mode + ["--format", "combined"], data).stdout
        b = run_ok("damaged template " + mode[0], mode + ["--log-format", COMBINED_TEMPLATE],
                   data).stdout
        a, b = a.decode().splitlines(), b.decode().splitlines()
        if not check("damaged %s: a line each" % mode[0], len(a) == len(b) == len(lines),
                     "%d %d %d" % (len(a), len(b), len(lines))):
            continue
        differ = []
        for line, x, y in zip(lines, a, b):
            if mode[0] == "--json":
                x, y = json.loads(x), json.loads(y)
                x.pop("format", None)
                y.pop("format", None)
            else:
                x, y = x.split("\t")[1:], y.split("\t")[1:]  # the first column: the format
            if x != y:
                differ.append("%r: %r / %r" % (line, x, y))
        check("damaged %s: same fields (seed %d)" % (mode[0], seed), not differ,
              "%d lines, first: %s" % (len(differ), differ[:2]))


GROUPS = {"lists": test_lists, "names": test_names, "stats": test_stats, "times": test_times,
          "w3c-wide": test_w3c_wide, "json-types": test_json_types,
          "quotes": test_quotes}


def set_pct(path):
    test_logs.set_pct(path)


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
