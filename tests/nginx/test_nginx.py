#!/usr/bin/env python3
"""tests/nginx/test_nginx.py MODULE PCT - the nginx module in Debian's nginx.

Starts nginx (loopback only, its own prefix in a temporary directory) with
ngx_http_pct_module.so loaded: one server per preset, each answering
"$pct_path|$pct_path_report" (rejections with 403, so they are told apart
from nginx's own 400s); sends the advisory paths over a socket and checks
each answer against the library's answer for the same path and preset,
given by `pct path --policy P --report` (the CLI). Also: the per-class
directives, `pct_path off`, the variables in proxy_pass to a back end, a
rejection logged with its reason, and configuration errors refused by
`nginx -t`. Prints "N passed, M failed"; exit status 1 on any failure.
"""
import os
import socket
import subprocess
import sys
import tempfile
import time

MODULE, PCT = sys.argv[1], sys.argv[2]
NGINX = os.environ.get("NGINX", "/usr/sbin/nginx")
PRESETS = ["default", "nginx", "envoy", "apache", "traefik", "strict"]
# The paths of recent proxy advisories (see tests/test_path_v2.c), with
# encoded and case variants.
PATHS = [
    "/admin%2F", "/admin%2f", "/prefix/%2e%2e/admin", "/prefix/%2E%2e/admin",
    "/prefix/.%2E/admin", "/api%2e/admin/secret", "/public/..%2fadmin/secret",
    "/public/..%2Fadmin/secret", "/public/..%5cadmin/secret", "/public/..\\admin/secret",
    "/app/..;/admin", "/app/..;jsessionid=x/admin", "/app/%2E%2e;/admin", "/app/..%3B/admin",
    "/a%23b", "/index.php%3Fx=.php", "/a%3fb", "/a%01b", "/a%252e%252e/b", "/a/%2e%2e/b/",
    "/x/%7e/./y?q=%2e%2e", "/a//b///c", "/%41%42c", "/a%25zz",
]
# Paths that nginx itself refuses with 400 while parsing the request line,
# before any module runs: an escaped NUL, and ".." above the root.
NGINX_REFUSES = ["/a%00b", "/../../etc/passwd", "/a/%2e%2e/%2E%2E/etc"]

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (name, (": " + detail) if detail else ""))


def free_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def get(port, target):
    """Sends GET target over HTTP/1.0; returns (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET " + target.encode() + b" HTTP/1.0\r\nHost: test\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body.decode("latin-1")


def library(preset, path):
    """What pct path says: ("ok", path, report) or ("rejected",)."""
    r = subprocess.run([PCT, "path", "--policy", preset, "--report", path], capture_output=True,
                       timeout=60)
    if r.returncode != 0:
        return ("rejected",)
    out, _, report = r.stdout.decode("latin-1").rstrip("\n").partition("\t")
    return ("ok", out.split("?")[0].split("#")[0], report)


HEAD = """load_module %(module)s;
daemon off;
master_process off;
worker_processes 1;
error_log %(dir)s/error.log info;
pid %(dir)s/nginx.pid;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path %(dir)s/tmp;
    proxy_temp_path %(dir)s/tmp;
    fastcgi_temp_path %(dir)s/tmp;
    uwsgi_temp_path %(dir)s/tmp;
    scgi_temp_path %(dir)s/tmp;
"""
ECHO = 'return 200 "$pct_path|$pct_path_report";'


def write_conf(d, body):
    path = os.path.join(d, "nginx.conf")
    with open(path, "w") as f:
        f.write(HEAD % {"module": MODULE, "dir": d} + body + "}\n")
    return path


def start(d, conf, ports):
    proc = subprocess.Popen([NGINX, "-p", d, "-c", conf, "-e", os.path.join(d, "error.log")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 20
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("nginx exited: %s" % proc.stderr.read().decode())
        try:
            for p in ports:
                socket.create_connection(("127.0.0.1", p), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("nginx did not start")


def main():
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "tmp"))
        ports = free_ports(len(PRESETS) + 4)
        servers = ""
        for preset, port in zip(PRESETS, ports):
            servers += """    server {
        listen 127.0.0.1:%d;
        pct_path on;
        pct_path_policy %s;
        pct_path_reject_status 403;
        location / { %s }
    }
""" % (port, preset, ECHO)
        p_over, p_off, p_back, p_front = ports[len(PRESETS):]
        servers += """    server {
        listen 127.0.0.1:%(over)d;
        pct_path on;
        pct_path_reject_status 403;
        pct_path_encoded_slash reject;
        pct_path_encoded_semicolon reject;
        location / { %(echo)s }
        location /open/ { pct_path_encoded_slash keep; %(echo)s }
        location /climb/ { pct_path_reject_above_root on; pct_path_dot_params on; %(echo)s }
        location /same/ { pct_path_reject_changed on; %(echo)s }
    }
    server {
        listen 127.0.0.1:%(off)d;
        pct_path off;
        location / { return 200 "[$pct_path]"; }
    }
    server {
        listen 127.0.0.1:%(back)d;
        location / { return 200 "backend saw $request_uri"; }
    }
    server {
        listen 127.0.0.1:%(front)d;
        pct_path on;
        location / { proxy_pass http://127.0.0.1:%(back)d$pct_path$is_args$args; }
    }
""" % {"over": p_over, "off": p_off, "back": p_back, "front": p_front, "echo": ECHO}
        conf = write_conf(d, servers)
        t = subprocess.run([NGINX, "-t", "-p", d, "-c", conf, "-e", os.path.join(d, "error.log")],
                           capture_output=True)
        check("nginx -t accepts the configuration", t.returncode == 0, t.stderr.decode())
        proc = start(d, conf, ports)
        try:
            for preset, port in zip(PRESETS, ports):
                for path in PATHS:
                    status, body = get(port, path)
                    want = library(preset, path)
                    name = "%s %s" % (preset, path)
                    if want[0] == "rejected":
                        check(name, status == 403, "status %d, want 403 (%s)" % (status, body[:60]))
                    else:
                        check(name, status == 200 and body == want[1] + "|" + want[2],
                              "got %d %r, want %r" % (status, body[:80], want[1] + "|" + want[2]))
                for path in NGINX_REFUSES:
                    status, _ = get(port, path)
                    check("%s %s (nginx refuses)" % (preset, path), status == 400,
                          "status %d" % status)
            # per-class directives and options, overridden per location
            for path, status_want, body_want in [
                    ("/a%2Fb", 403, None), ("/a%3bb", 403, None), ("/a%7eb", 200, "/a~b|decode-unreserved"),
                    ("/open/a%2fb", 200, "/open/a%2Fb|uppercase-hex"),
                    ("/climb/x/..;j=1/y", 200, "/climb/y|remove-dots,params"),
                    ("/climb/../../y", 400, None),  # nginx's own check comes first
                    ("/climb/%2e%2e/%2e%2e/%2e%2e/y", 400, None),
                    ("/same/a/b", 200, "/same/a/b|-"), ("/same/a/%7e", 403, None),
                    ("/same/a//b", 403, None)]:
                status, body = get(p_over, path)
                check("overrides %s" % path,
                      status == status_want and (body_want is None or body == body_want),
                      "got %d %r" % (status, body[:80]))
            status, body = get(p_off, "/a%2F%00x/../b")
            check("pct_path off: nothing rejected", status == 400)  # nginx's own (%00)
            status, body = get(p_off, "/a%2Fb/%2e%2e/c")
            check("pct_path off: variables still there", status == 200 and body == "[/c]", body)
            status, body = get(p_front, "/a/%2e%2e/%7euser/x%2fy?q=%2e%2e")
            check("proxy_pass $pct_path$is_args$args", status == 200 and
                  body == "backend saw /~user/x%2Fy?q=%2e%2e", "%d %r" % (status, body))
            with open(os.path.join(d, "error.log"), errors="replace") as f:
                log = f.read()
            check("rejections logged with their reason",
                  "pct_path: request path rejected: escaped byte rejected by the path policy at byte"
                  in log)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
        # configuration errors
        for directive, message in [
                ("pct_path_policy iis;", 'unknown pct_path_policy "iis"'),
                ("pct_path_encoded_question decode;", "a decoded byte would end the path"),
                ("pct_path_encoded_slash drop;", "invalid value"),
                ("pct_path_reject_status 200;", "must be 400..599")]:
            conf = write_conf(d, "    server { listen 127.0.0.1:%d; %s }\n" % (ports[0], directive))
            t = subprocess.run([NGINX, "-t", "-p", d, "-c", conf, "-e",
                                os.path.join(d, "error.log")], capture_output=True)
            err = t.stderr.decode()
            check("nginx -t refuses %s" % directive, t.returncode != 0 and message in err, err)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
