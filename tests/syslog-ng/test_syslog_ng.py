"""tests/syslog-ng/test_syslog_ng.py MODULE_DIR PCT - the syslog-ng module in
Debian's syslog-ng.

Starts syslog-ng (3.38, in the foreground, a private configuration, sockets
on free ports of 127.0.0.1, its module path MODULE_DIR before the default one)
and sends it access-log lines of every format `pct logs --list-formats` names:
a sample line of each (tests/cli) and variants with random request targets
(escapes of every kind, control bytes, bad UTF-8, repeated and empty query
names), lines with raw control bytes, a malformed line, and a 64 KB line. Each
line goes over UDP in a syslog header (RFC 3164, as haproxy sends it) and over
TCP as a bare line. The parser's name-value pairs, written with
$(format-json .pct.*), must be what `pct logs --json` says for the same line
(the documented mapping: control bytes and '\\' escaped, nulls unset, dotted
names nested, a query by name); a line that does not parse must take the else
branch with no .pct.* value. Parsers with other options (query(plain|keep),
decode-slash(yes), prefix(), format(NAME), log-format(), template()) get
lines of their own, against `pct logs --json` with the same options. The template functions
are checked against `pct decode`, `pct encode` and `pct path`. Where Debian's
haproxy and nginx are installed (the realservers step's packages), they log
real requests over syslog to the parser (haproxy: the README's
configuration). The servers are stopped by their pids, also when a check
fails.

Prints one line per failed check, then "N passed, M failed". PCT_TEST_SEED
replays a run (the seed is printed).
"""
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
sys.path.insert(0, os.path.join(ROOT, "tests", "nginx"))

from harness import Checks, free_ports  # noqa: E402

SYSLOG_NG = os.environ.get("SYSLOG_NG", "/usr/sbin/syslog-ng")
DEFAULT_MODULES = "/usr/lib/syslog-ng/3.38"
LONG_PATH = 64 * 1024  # the 64 KB line: a path this long
VARIANTS = 6  # random variants of each format's sample line

CONFIG = """@version: 3.38
options { stats-freq(0); log-msg-size(200000); };

source s_udp { network(ip("127.0.0.1") port(%(udp)d) transport("udp") so-rcvbuf(8388608)); };
source s_tcp { network(ip("127.0.0.1") port(%(tcp)d) transport("tcp") flags(no-parse)
                       log-msg-size(200000)); };
source s_tf { network(ip("127.0.0.1") port(%(tf)d) transport("tcp") flags(no-parse)); };

template t_ok { template("$(format-json --no-cast --scope none --pair msg=$MSG
                          --key .pct.*)\\n"); };
destination d_udp_ok { file("%(dir)s/udp-ok.json" template(t_ok)); };
destination d_udp_bad { file("%(dir)s/udp-bad.json" template(t_ok)); };
destination d_tcp_ok { file("%(dir)s/tcp-ok.json" template(t_ok)); };
destination d_tcp_bad { file("%(dir)s/tcp-bad.json" template(t_ok)); };
destination d_tf { file("%(dir)s/tf.json" template('$(format-json --no-cast --scope none
    --pair msg=$MSG
    --pair dec="$(pct-decode $MSG)"
    --pair dec_plus="$(pct-decode --plus --keep /? $MSG)"
    --pair enc="$(pct-encode component $MSG)"
    --pair enc_path="$(pct-encode path --keep-escapes $MSG)"
    --pair enc_form="$(pct-encode form --plus $MSG)"
    --pair norm="$(pct-normalize-path nginx $MSG)"
    --pair norm_default="$(pct-normalize-path default $MSG)")\n')); };

parser p_pct { pct-access-log-parser(format(auto) prefix(".pct.") query(form)); };

log { source(s_udp);
      if { parser(p_pct); destination(d_udp_ok); } else { destination(d_udp_bad); }; };
log { source(s_tcp);
      if { parser(p_pct); destination(d_tcp_ok); } else { destination(d_tcp_bad); }; };
log { source(s_tf); destination(d_tf); };
%(variants)s"""

VARIANT_CONFIG = """
source s_%(name)s { network(ip("127.0.0.1") port(%(port)d) transport("tcp") flags(no-parse)); };
destination d_%(name)s_ok { file("%(dir)s/%(name)s-ok.json" template("$(format-json --no-cast
    --scope none --pair msg=$MSG --key %(prefix)s.*)\\n")); };
destination d_%(name)s_bad { file("%(dir)s/%(name)s-bad.json" template("$(format-json --no-cast
    --scope none --pair msg=$MSG --key %(prefix)s.*)\\n")); };
log { source(s_%(name)s);
      if { parser { pct-access-log-parser(%(options)s); }; destination(d_%(name)s_ok); }
      else { destination(d_%(name)s_bad); }; };
"""


# Parsers with other options, each on a TCP source of its own: the options,
# the `pct logs` arguments that mean the same, which lines it gets.
OPTION_VARIANTS = [
    ("plain", 'format(combined) query(plain) decode-slash(yes) prefix("web.")',
     ["--format", "combined", "--query", "plain", "--decode-slash"], "web"),
    ("keep", "format(auto) query(keep) template(\"${MSG}\")", ["--query", "keep"], "pct"),
    ("custom", "log-format('$remote_addr [$time_local] \"$request\" $status')",
     ["--log-format", '$remote_addr [$time_local] "$request" $status'], "pct"),
]
CUSTOM_LINES = ['192.0.2.8 [14/Mar/2026:06:00:00 +0000] "GET /c%%20d?a=%s&a=2 HTTP/1.1" 200' % x
                for x in ("1", "%2F", "x+y", "%0A")] + ["192.0.2.8 no"]


# ----------------------------------------------------------------- lines


def samples():
    """A sample line of each format, from the `pct logs` tests."""
    import test_logs_formats
    import test_logs_registry

    lines = {fmt: line for _, fmt, line, *_ in test_logs_formats.SAMPLES}
    lines.update(test_logs_registry.EXTRA_SAMPLES)
    return lines


def formats(pct):
    out = subprocess.run([pct, "logs", "--list-formats"], capture_output=True, check=True,
                         timeout=60).stdout.decode()
    return [line.split("\t")[0] for line in out.splitlines() if line]


def random_escape(rng):
    kind = rng.randrange(8)
    if kind == 0:
        return "%%%02X" % rng.randrange(0x20)  # a control byte
    if kind == 1:
        return rng.choice(["%2F", "%2f", "%5C", "%25", "%7F", "%C2%85", "%2B", "%26", "%3D"])
    if kind == 2:
        return rng.choice(["%C3%A9", "%E2%82%AC", "%F0%9F%98%80"])  # UTF-8
    if kind == 3:
        return rng.choice(["%C3%28", "%FF", "%E2%82", "%C0%AF"])  # not UTF-8
    if kind == 4:
        return rng.choice(["%", "%4", "%G1", "%%"])  # malformed
    if kind == 5:
        return "%%%02x" % rng.randrange(0x20, 0x7F)
    return rng.choice(["a", "Z", "~", "-", ".", "_", "!", "$", "'", "(", "*", ",", ";", ":", "@"])


def random_word(rng, n):
    return "".join(random_escape(rng) for _ in range(rng.randrange(n + 1)))


def random_target(rng):
    path = "".join("/" + random_word(rng, 4) for _ in range(rng.randrange(1, 5)))
    if rng.random() < 0.2:
        path += "/..%2F" + random_word(rng, 2)
    if rng.random() < 0.3:
        return path
    pairs = []
    names = ["q", "x", "a%20b", "", "n%0Am", "k", "ç"]
    for _ in range(rng.randrange(1, 6)):
        name = rng.choice(names)
        pairs.append(name + ("=" + random_word(rng, 3) if rng.random() < 0.8 else ""))
    return path + "?" + "&".join(pairs) + ("+x+%2B" if rng.random() < 0.3 else "")


REQUEST = re.compile(r'(?:GET|POST|PUT|HEAD) ([^ "]+)')


def variant(line, target):
    """The line with its request target replaced (an absolute URL keeps its
    scheme and host), or None when it has none."""
    m = REQUEST.search(line)
    if m is None:
        return None
    old = m.group(1)
    u = re.match(r"(https?://[^/]+)", old)
    new = (u.group(1) if u else "") + target
    return line[:m.start(1)] + new + line[m.end(1):]


def test_lines(pct, rng, checks):
    """Every line to send: (label, line)."""
    sample = samples()
    lines = []
    for fmt in formats(pct):
        if fmt == "w3c":
            continue  # needs its #Fields: header: refused by the parser (test_w3c_refused)
        if not checks.check("a sample line of " + fmt, fmt in sample):
            continue
        lines.append((fmt + " sample", sample[fmt]))
        for i in range(VARIANTS):
            v = variant(sample[fmt], random_target(rng))
            if v is not None:
                lines.append(("%s variant %d" % (fmt, i), v))
    combined = sample["combined"]
    lines.append(("raw control bytes", variant(combined, "/c\x01d\x1b[31m\x7f") +
                  ' "\x08agent\tx"'))
    lines.append(("raw C1 control and backslash", variant(combined, "/\u0085\\x") + " \\"))
    lines.append(("malformed", "this is no access log line"))
    lines.append(("cut request", '192.0.2.1 - - [14/Mar/2026:06:00:00 +0000] "GET /a'))
    lines.append(("two lines? no: a lone CR", variant(combined, "/a\rb")))
    # a CRLF line's CR (what is left of its ending in a message): the ending
    lines.append(("CR at the end", variant(combined, "/crlf%20x") + "\r"))
    lines.append(("LF at the end", variant(combined, "/lf%20x") + "\n"))  # (syslog-ng's)
    # a name given again after long values and another name (the parser's
    # index of names must not point into text that moved)
    lines.append(("repeated names, long values", variant(
        combined, "/r?a=%s&a=%s&b=%s&a=z&b=2" % ("x" * 200, "y" * 200, "w" * 200))))
    # names past syslog-ng's 255 bytes are left out (with no message each time)
    lines.append(("JSON line, long key", '{"RequestPath":"/t%%20p","%s":"v","k\\u0001":"w"}'
                  % ("k" * 300)))
    seen = set()  # the outputs are told apart by their line: each line once
    return [(label, m) for label, m in lines if not (m in seen or seen.add(m))]


# ----------------------------------------------------------------- expected


def escape_value(s):
    """What the parser sets for a decoded string: control bytes (C0, DEL, C1)
    as \\xHH (a C1 control as its two UTF-8 bytes), '\\' as \\\\."""
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7F:
            out.append("\\x%02x" % o)
        elif 0x80 <= o <= 0x9F:
            out.append("\\xc2\\x%02x" % o)
        else:
            out.append(ch)
    return "".join(out)


def nest(obj, dotted, value):
    """format-json's nesting of a dotted name."""
    parts = dotted.split(".")
    for p in parts[:-1]:
        obj = obj.setdefault(p, {})
        if not isinstance(obj, dict):
            return
    obj[parts[-1]] = value


def expected_pairs(record, by_name=True):
    """The .pct.* pairs, nested as format-json writes them, for a record of
    `pct logs --json`; by_name: query(form), the query by name (else its
    JSON text)."""
    out = {}
    for key, value in record.items():
        name = escape_value(key)
        if value is None or len((".pct." + name).encode()) > 255:
            continue  # a name syslog-ng refuses is left out
        if key == "query" and by_name:
            query = {}
            for qname, qvalue in value:
                query.setdefault(escape_value(qname) or "_", []).append(
                    escape_value(qvalue if qvalue is not None else ""))
            for qname, values in query.items():
                nest(out, "query." + qname, values[0] if len(values) == 1 else values)
        elif isinstance(value, str):
            nest(out, name, escape_value(value))
        else:
            nest(out, name, escape_strings(value))  # numbers, booleans, lists (JSON text)
    return out


def escape_strings(value):
    """A list's strings are escaped as values are (then written as JSON)."""
    if isinstance(value, list):
        return [escape_strings(v) for v in value]
    return escape_value(value) if isinstance(value, str) else value


def cli_records(pct, messages, args=()):
    """`pct logs --json ARGS` of each message alone (a line's format is found
    from the line only, as the parser finds it)."""
    records = []
    for m in messages:
        if m.endswith("\n"):  # the message's end, as syslog-ng reads it
            m = m[:-1]
        r = subprocess.run([pct, "logs", "--json"] + list(args),
                           input=m.encode("utf-8", "surrogateescape") + b"\n",
                           capture_output=True, timeout=60)
        text = r.stdout.decode()
        records.append(json.loads(text) if r.returncode == 0 and text.count("\n") == 1 else
                       {"error": "pct logs: exit %d, %r" % (r.returncode, r.stderr[:200])})
    return records


# ----------------------------------------------------------------- syslog-ng


class SyslogNg:
    """syslog-ng in the foreground with a private configuration; stopped by
    its pid."""

    def __init__(self, module_dir, config, dir_):
        self.dir = dir_
        conf = os.path.join(dir_, "syslog-ng.conf")
        with open(conf, "w") as f:
            f.write(config)
        self.log = open(os.path.join(dir_, "syslog-ng.out"), "wb")
        self.proc = subprocess.Popen(
            [SYSLOG_NG, "-F", "-f", conf, "-R", os.path.join(dir_, "persist"),
             "-p", os.path.join(dir_, "syslog-ng.pid"), "-c", os.path.join(dir_, "ctl"),
             "--module-path=%s:%s" % (module_dir, DEFAULT_MODULES), "--no-caps"],
            stdout=self.log, stderr=subprocess.STDOUT)

    def output(self):
        with open(os.path.join(self.dir, "syslog-ng.out"), "rb") as f:
            return f.read().decode("utf-8", "replace")

    def wait_listening(self, port, seconds=20):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def read_json_lines(path):
    if not os.path.exists(path):
        return []
    out = []
    with open(path, "rb") as f:
        for raw in f:
            try:
                out.append(json.loads(raw.decode("utf-8", "surrogateescape")))
            except ValueError:
                out.append({"unreadable": raw[:300].decode("utf-8", "replace")})
    return out


def wait_for(paths, count, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        total = 0
        for p in paths:
            if os.path.exists(p):
                with open(p, "rb") as f:
                    total += f.read().count(b"\n")
        if total >= count:
            return True
        time.sleep(0.1)
    return False


def send_udp(port, messages):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for i, m in enumerate(messages):
        s.sendto(b"<134>Nov 27 22:00:00 lb haproxy[12]: " + m.encode("utf-8", "surrogateescape"),
                 ("127.0.0.1", port))
        if i % 20 == 19:
            time.sleep(0.005)  # the loopback socket's buffer is large, but not endless
    s.close()


def send_tcp(port, messages):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"".join(m.encode("utf-8", "surrogateescape") + b"\n" for m in messages))
    s.close()


# ----------------------------------------------------------------- checks


def raw_controls(value):
    """The strings in value (nested) that hold a control byte."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in raw_controls(k) + raw_controls(v)]
    if isinstance(value, list):
        return [s for v in value for s in raw_controls(v)]
    if isinstance(value, str) and re.search("[\x00-\x1f\x7f-\x9f]", value):
        return [value]
    return []


def check_transport(checks, name, ok_path, bad_path, messages, records, key="_pct",
                    by_name=True):
    by_msg = {}
    for path, branch in ((ok_path, "ok"), (bad_path, "bad")):
        for obj in read_json_lines(path):
            by_msg.setdefault(obj.get("msg"), []).append((branch, obj))
    for (label, m), rec in zip(messages, records):
        # (syslog-ng takes a last LF, and over TCP a last CR, as the end)
        got = by_msg.get(m, []) or (by_msg.get(m[:-1], []) if m.endswith(("\r", "\n")) else [])
        if not checks.check("%s %s: one output" % (name, label), len(got) == 1,
                            "%d outputs for %r" % (len(got), m[:200])):
            continue
        branch, obj = got[0]
        if "unparsed" in rec or "error" in rec:
            checks.check("%s %s: else branch, nothing set" % (name, label),
                         branch == "bad" and key not in obj and "error" not in rec,
                         "%s %r / cli %r" % (branch, obj, rec))
            continue
        want = expected_pairs(rec, by_name)
        have = obj.get(key)
        checks.check("%s %s: parsed" % (name, label), branch == "ok", "%r" % obj)
        checks.check("%s %s: values as pct logs --json" % (name, label), have == want,
                     "line %r\n  module %r\n  expect %r" % (m[:300], have, want))
        bad = raw_controls(have)
        checks.check("%s %s: no raw control byte" % (name, label), not bad, repr(bad[:5]))


def test_template_functions(checks, pct, rng, tf_port, dir_):
    values = ["/a%20b/%2e%2E/c%2Fd%5C?x=1+2", "a+b%2Bc", "%C3%A9t%C3%A9", "/x/../y//z",
              "caf\u00e9 & co", "100%", "/%41%42%7e/./%2e%2e/q"]
    for _ in range(20):
        values.append(random_target(rng).replace("%0", "%3").replace("%1", "%4")
                      .replace("%7F", "%7E").replace("%C2%85", "%C3%A9"))
    values = [v for v in values if " " not in v]
    send_tcp(tf_port, values)
    path = os.path.join(dir_, "tf.json")
    checks.check("template functions: every value written", wait_for([path], len(values)))
    got = {o.get("msg"): o for o in read_json_lines(path)}

    def cli(*args):
        """pct's output as format-json writes the same bytes: a byte that is
        not UTF-8 as the text \\xHH."""
        r = subprocess.run([pct] + list(args), capture_output=True, timeout=60)
        if r.returncode != 0:
            return ""
        text = r.stdout.decode("utf-8", "surrogateescape").rstrip("\n")
        return re.sub("[\udc80-\udcff]", lambda m: "\\x%02x" % (ord(m.group()) - 0xdc00), text)

    for v in values:
        o = got.get(v)
        if not checks.check("template functions %r: written" % v, o is not None):
            continue
        want = {
            "dec": cli("decode", "--", v),
            "dec_plus": cli("decode", "--plus", "--keep", "/?", "--", v),
            "enc": cli("encode", "--set", "component", "--", v),
            "enc_path": cli("encode", "--set", "path", "--keep-escapes", "--", v),
            "enc_form": cli("encode", "--set", "form", "--plus", "--", v),
            "norm": cli("path", "--policy", "nginx", "--", v),
            "norm_default": cli("path", "--policy", "default", "--", v),
        }
        for k, w in want.items():
            checks.check("template functions %r: %s" % (v, k), o.get(k, "") == w,
                         "module %r, pct %r" % (o.get(k), w))


HAPROXY = os.environ.get("HAPROXY", "/usr/sbin/haproxy")
HAPROXY_CONFIG = """global
    log 127.0.0.1:%(udp)d local0
defaults
    mode http
    log global
    option httplog
    timeout connect 1s
    timeout client 5s
    timeout server 5s
frontend fe
    bind 127.0.0.1:%(http)d
    http-request return status 200 content-type text/plain string ok
"""
# A real server's syslog source: its messages parsed with format(FORMAT).
SERVER_SYSLOG_NG = """
source s_%(name)s { network(ip("127.0.0.1") port(%(port)d) transport("udp")); };
destination d_%(name)s_json { file("%(dir)s/%(name)s.json" template("$(format-json --no-cast
    --scope none --key .pct.* --shift 5)\\n")); };
destination d_%(name)s_msg { file("%(dir)s/%(name)s.msg" template("$MSG\\n")); };
destination d_%(name)s_bad { file("%(dir)s/%(name)s-unparsed.log"); };
log { source(s_%(name)s);
      if { parser { pct-access-log-parser(format(%(format)s)); };
           destination(d_%(name)s_json); destination(d_%(name)s_msg); }
      else { destination(d_%(name)s_bad); }; };
"""
HAPROXY_TARGETS = ["/a%20b/caf%C3%A9?q=%26x&q=2&e=", "/x%0Ay%2Fz", "/%ZZ/%", "/p?a+b=c%2Bd",
                   '/q"uote', "/%E2%82%AC/..%2F/%FF"]


def wait_port(proc, port, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def send_requests(port, targets):
    for target in targets:
        c = socket.create_connection(("127.0.0.1", port), timeout=5)
        c.sendall(("GET %s HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
                   % target).encode())
        while c.recv(4096):
            pass
        c.close()


def check_server_log(checks, pct, dir_, name, fmt, targets, probes=0):
    """name's messages (its .json and .msg files): each the pairs `pct logs
    --json --format FMT` gives for the same line; the paths of the requests
    sent among them. probes: connections without a request that the server
    logs too."""
    json_path, msg_path = (os.path.join(dir_, name + ext) for ext in (".json", ".msg"))
    checks.check(name + ": every request parsed",
                 wait_for([json_path, msg_path], 2 * (len(targets) + probes)))
    got = read_json_lines(json_path)
    msgs = []
    if os.path.exists(msg_path):
        with open(msg_path, "rb") as f:
            msgs = [m.decode("utf-8", "surrogateescape") for m in f.read().splitlines()]
    records = cli_records(pct, msgs, ["--format", fmt])
    checks.check(name + ": one record a message", len(got) == len(msgs) == len(records))
    paths = []
    for m, have, rec in zip(msgs, got, records):
        checks.check("%s %r: values as pct logs --json" % (name, m[:80]),
                     have == expected_pairs(rec),
                     "module %r\n  expect %r" % (have, expected_pairs(rec)))
        paths.append(rec.get("path"))
    checks.check(name + ": the requests' paths", sorted(p for p in paths if p) ==
                 sorted(cli_path(pct, t) for t in targets), repr(paths))


def test_real_haproxy(checks, pct, dir_, udp_port):
    """Debian's haproxy logs over syslog (UDP): each request one parsed
    message (the configuration of the README)."""
    http = free_ports(1)[0]
    cfg = os.path.join(dir_, "haproxy.cfg")
    with open(cfg, "w") as f:
        f.write(HAPROXY_CONFIG % {"udp": udp_port, "http": http})
    proc = subprocess.Popen([HAPROXY, "-db", "-f", cfg], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        if not checks.check("haproxy starts", wait_port(proc, http)):
            return
        send_requests(http, HAPROXY_TARGETS)
        # (the probe connection of wait_port is logged too: a <BADREQ> record)
        check_server_log(checks, pct, dir_, "haproxy", "haproxy", HAPROXY_TARGETS, probes=1)
    finally:
        proc.terminate()
        proc.wait()


NGINX = os.environ.get("NGINX", "/usr/sbin/nginx")
NGINX_CONFIG = """daemon off;
master_process off;
worker_processes 1;
error_log %(dir)s/nginx-error.log info;
pid %(dir)s/nginx.pid;
events { worker_connections 64; }
http {
    client_body_temp_path %(dir)s/tmp;
    proxy_temp_path %(dir)s/tmp;
    fastcgi_temp_path %(dir)s/tmp;
    uwsgi_temp_path %(dir)s/tmp;
    scgi_temp_path %(dir)s/tmp;
    server {
        listen 127.0.0.1:%(http)d;
        access_log syslog:server=127.0.0.1:%(udp)d,tag=nginx combined;
        location / { return 200 "ok"; }
    }
}
"""


def test_real_nginx(checks, pct, dir_, udp_port):
    """Debian's nginx logs combined lines over syslog (UDP) to the parser."""
    http = free_ports(1)[0]
    os.makedirs(os.path.join(dir_, "tmp"), exist_ok=True)
    conf = os.path.join(dir_, "nginx.conf")
    with open(conf, "w") as f:
        f.write(NGINX_CONFIG % {"udp": udp_port, "http": http, "dir": dir_})
    proc = subprocess.Popen([NGINX, "-p", dir_, "-c", conf, "-e",
                             os.path.join(dir_, "nginx-error.log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not checks.check("nginx starts", wait_port(proc, http)):
            return
        targets = [t for t in HAPROXY_TARGETS if '"' not in t]
        send_requests(http, targets)
        check_server_log(checks, pct, dir_, "nginx", "combined", targets)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)
        proc.wait()


def cli_path(pct, target):
    """The path of a request target as `pct logs` decodes it (a combined
    line around it): haproxy's log holds the target as sent ('"' as #22)."""
    line = '1.2.3.4 - - [14/Mar/2026:06:00:00 +0000] "GET %s HTTP/1.1" 200 1 "-" "-"' % (
        target.replace('"', '\\"'))
    return cli_records(pct, [line])[0].get("path")


def test_w3c_refused(checks, module_dir, dir_):
    """format(w3c) needs a header no message carries: syslog-ng refuses the
    configuration, with a message naming the parser."""
    sub = os.path.join(dir_, "w3c")
    os.mkdir(sub)
    conf = os.path.join(sub, "syslog-ng.conf")
    with open(conf, "w") as f:
        f.write('@version: 3.38\nsource s { network(ip("127.0.0.1") port(%d)); };\n'
                'log { source(s); parser { pct-access-log-parser(format(w3c)); }; };\n'
                % free_ports(1)[0])
    r = subprocess.run([SYSLOG_NG, "-s", "-f", conf,
                        "--module-path=%s:%s" % (module_dir, DEFAULT_MODULES)],
                       capture_output=True, timeout=60)
    out = (r.stdout + r.stderr).decode("utf-8", "replace")
    checks.check("format(w3c): configuration syntax accepted", r.returncode == 0, out[-500:])
    r = subprocess.run([SYSLOG_NG, "-F", "-f", conf, "-R", os.path.join(sub, "persist"),
                        "-p", os.path.join(sub, "pid"), "-c", os.path.join(sub, "ctl"),
                        "--module-path=%s:%s" % (module_dir, DEFAULT_MODULES)],
                       capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    out = (r.stdout + r.stderr).decode("utf-8", "replace")
    checks.check("format(w3c): refused at start", r.returncode != 0 and "format(w3c)" in out,
                 "exit %d: %s" % (r.returncode, out[-500:]))


def test_bad_options(checks, module_dir, dir_):
    """Options the parser does not take: a syntax error naming them."""
    for opt, word in (("query(nope)", "query()"), ("format(nginx-x)", "format()"),
                      ("colour(red)", "unknown option")):
        conf = os.path.join(dir_, "bad.conf")
        with open(conf, "w") as f:
            f.write('@version: 3.38\nsource s { stdin(); };\n'
                    'log { source(s); parser { pct-access-log-parser(%s); }; };\n' % opt)
        r = subprocess.run([SYSLOG_NG, "-s", "-f", conf,
                            "--module-path=%s:%s" % (module_dir, DEFAULT_MODULES)],
                           capture_output=True, timeout=60)
        out = (r.stdout + r.stderr).decode("utf-8", "replace")
        checks.check("bad option %s: refused" % opt, r.returncode != 0 and word in out,
                     "exit %d: %s" % (r.returncode, out[-400:]))


def test_bad_template_functions(checks, module_dir, dir_):
    """A template function's bad first argument or option: the configuration
    is refused with a message that says what it takes."""
    for call, word in (("$(pct-encode nosuchset $MSG)", "the first argument is a set"),
                       ("$(pct-normalize-path iis $MSG)", "the first argument is a policy"),
                       ("$(pct-decode --frobnicate $MSG)", "unknown option"),
                       ("$(pct-decode --keep)", "CHARS"), ("$(pct-decode --plus)", "no value")):
        conf = os.path.join(dir_, "badtf.conf")
        with open(conf, "w") as f:
            f.write('@version: 3.38\nsource s { network(ip("127.0.0.1") port(%d)); };\n'
                    'destination d { file("%s/x" template("%s\\n")); };\n'
                    'log { source(s); destination(d); };\n' % (free_ports(1)[0], dir_, call))
        r = subprocess.run([SYSLOG_NG, "-s", "-f", conf,
                            "--module-path=%s:%s" % (module_dir, DEFAULT_MODULES)],
                           capture_output=True, timeout=60)
        out = (r.stdout + r.stderr).decode("utf-8", "replace")
        checks.check("bad template function %s: refused" % call, r.returncode != 0 and word in out,
                     "exit %d: %s" % (r.returncode, out[-400:]))


def test_example_config(checks, module_dir):
    """contrib/syslog-ng/haproxy-json.conf (the README's) is a valid
    configuration with the module."""
    conf = os.path.join(ROOT, "contrib", "syslog-ng", "haproxy-json.conf")
    r = subprocess.run([SYSLOG_NG, "-s", "-f", conf,
                        "--module-path=%s:%s" % (module_dir, DEFAULT_MODULES)],
                       capture_output=True, timeout=60)
    checks.check("haproxy-json.conf: syntax accepted", r.returncode == 0,
                 (r.stdout + r.stderr).decode("utf-8", "replace")[-500:])


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    module_dir, pct = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    seed = int(os.environ.get("PCT_TEST_SEED", random.randrange(1 << 30)))
    print("seed %d (PCT_TEST_SEED=%d replays it)" % (seed, seed), flush=True)
    rng = random.Random(seed)
    checks = Checks()
    dir_ = tempfile.mkdtemp(prefix="pct-syslog-ng-")
    server = None
    try:
        lines = test_lines(pct, rng, checks)
        long_line = (("64 KB line",
                      variant(samples()["combined"], "/" + "a%20" * (LONG_PATH // 4))),)
        udp_ok, udp_bad, tcp_ok, tcp_bad = (os.path.join(dir_, n) for n in
                                            ("udp-ok.json", "udp-bad.json", "tcp-ok.json",
                                             "tcp-bad.json"))
        udp, tcp, tf, hap, ngx, *vports = free_ports(5 + len(OPTION_VARIANTS))
        variants = "".join(VARIANT_CONFIG % {"name": name, "port": port, "dir": dir_,
                                             "options": options,
                                             "prefix": ".pct" if prefix == "pct" else prefix}
                           for (name, options, _, prefix), port in zip(OPTION_VARIANTS, vports))
        for name, port, fmt in (("haproxy", hap, "haproxy"), ("nginx", ngx, "combined")):
            variants += SERVER_SYSLOG_NG % {"name": name, "port": port, "dir": dir_,
                                            "format": fmt}
        server = SyslogNg(module_dir, CONFIG % {"udp": udp, "tcp": tcp, "tf": tf, "dir": dir_,
                                                "variants": variants}, dir_)
        if not checks.check("syslog-ng starts with the module", server.wait_listening(tcp)
                            and server.wait_listening(tf), server.output()[-2000:]):
            return checks.summary()
        time.sleep(0.2)  # the UDP socket is set up with the TCP ones; a moment for safety
        tcp_lines = lines + list(long_line)
        send_udp(udp, [m for _, m in lines])
        send_tcp(tcp, [m for _, m in tcp_lines])
        records = cli_records(pct, [m for _, m in tcp_lines])
        checks.check("UDP: every message written", wait_for([udp_ok, udp_bad], len(lines)),
                     server.output()[-1000:])
        checks.check("TCP: every message written", wait_for([tcp_ok, tcp_bad], len(tcp_lines)),
                     server.output()[-1000:])
        check_transport(checks, "udp", udp_ok, udp_bad, lines, records[:len(lines)])
        check_transport(checks, "tcp", tcp_ok, tcp_bad, tcp_lines, records)
        test_template_functions(checks, pct, rng, tf, dir_)
        for (name, _, args, prefix), port in zip(OPTION_VARIANTS, vports):
            these = ([(str(i), m) for i, m in enumerate(CUSTOM_LINES)] if name == "custom" else
                     [(l, m) for l, m in lines if l.startswith(("combined", "malformed", "raw"))])
            send_tcp(port, [m for _, m in these])
            ok, bad = (os.path.join(dir_, "%s-%s.json" % (name, b)) for b in ("ok", "bad"))
            checks.check(name + ": every message written", wait_for([ok, bad], len(these)))
            check_transport(checks, name, ok, bad, these,
                            cli_records(pct, [m for _, m in these], args),
                            key="_pct" if prefix == "pct" else prefix,
                            by_name=name not in ("plain", "keep"))
        for path, test, port in ((HAPROXY, test_real_haproxy, hap), (NGINX, test_real_nginx, ngx)):
            if os.path.exists(path):
                test(checks, pct, dir_, port)
            else:
                print("(no %s: its real log lines are not sent through)" % path)
        server.stop()
        out = server.output()
        checks.check("syslog-ng said no error", "rror" not in out, out[-1000:])
        server = None
        test_w3c_refused(checks, module_dir, dir_)
        test_bad_options(checks, module_dir, dir_)
        test_bad_template_functions(checks, module_dir, dir_)
        test_example_config(checks, module_dir)
    finally:
        if server is not None:
            server.stop()
        if checks.failed == 0:
            shutil.rmtree(dir_, ignore_errors=True)
        else:
            print("kept for a look: " + dir_)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
