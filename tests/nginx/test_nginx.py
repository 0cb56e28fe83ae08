#!/usr/bin/env python3
"""tests/nginx/test_nginx.py MODULE PCT - the nginx module in Debian's nginx.

Starts nginx (loopback only, its own prefix in a temporary directory) with
ngx_http_pct_module.so loaded: one server per preset, each answering
"$pct_path|$pct_path_report" (rejections with 403, so they are told apart
from nginx's own 400s); sends the advisory paths over a socket and checks
each answer against the library's answer for the same path and preset,
given by `pct path --policy P --report` (the CLI). Also: the per-class
directives, `pct_path off`, the variables in proxy_pass to a back end and a
rejection logged with its reason (tests/nginx/test_routing.py tests the
routing and the configuration errors). Prints "N passed, M failed"; exit status 1 on any failure.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Client, Nginx, free_ports  # noqa: E402

MODULE, PCT = sys.argv[1], sys.argv[2]
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

checks = Checks()
check = checks.check


def library(preset, path):
    """What pct path says: ("ok", path, report) or ("rejected",)."""
    r = subprocess.run([PCT, "path", "--policy", preset, "--report", path], capture_output=True,
                       timeout=60)
    if r.returncode != 0:
        return ("rejected",)
    out, _, report = r.stdout.decode("latin-1").rstrip("\n").partition("\t")
    return ("ok", out.split("?")[0].split("#")[0], report)


ECHO = 'return 200 "$pct_path|$pct_path_report";'
# A '%' that starts no escape: nginx refuses such a path (400), so the module
# refuses to forward a normalized path that holds one (%25 decoded).
STRAY_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def main():
    client = Client()
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
        pct_path_encoded_semicolon reject;
        location / { %(echo)s }
        location /open/ { pct_path_encoded_slash reject; %(echo)s }
        location /climb/ { pct_path_reject_above_root on; pct_path_dot_params on; %(echo)s }
        location /same/ { pct_path_reject_changed on; %(echo)s }
        location /x/ { pct_path_dot_params on; %(echo)s }
    }
    server {
        listen 127.0.0.1:%(off)d;
        pct_path off;
        location / { return 200 "[$pct_path|$pct_path_report]"; }
    }
    server {
        listen 127.0.0.1:%(back)d;
        pct_path off;
        location / { return 200 "backend saw $request_uri"; }
    }
    server {
        listen 127.0.0.1:%(front)d;
        pct_path on;
        location / { proxy_pass http://127.0.0.1:%(back)d$pct_path$is_args$args; }
    }
""" % {"over": p_over, "off": p_off, "back": p_back, "front": p_front, "echo": ECHO}
    with Nginx(MODULE) as ng:
        ng.write(servers)
        ok, err = ng.test()
        check("nginx -t accepts the configuration", ok, err)
        ng.start(ports)
        try:
            for preset, port in zip(PRESETS, ports):
                for path in PATHS:
                    status, _, body = client.get(port, path)
                    want = library(preset, path)
                    name = "%s %s" % (preset, path)
                    if want[0] == "rejected" or STRAY_PERCENT.search(want[1]):
                        check(name, status == 403, "status %d, want 403 (%s)" % (status, body[:60]))
                    else:
                        check(name, status == 200 and body == want[1] + "|" + want[2],
                              "got %d %r, want %r" % (status, body[:80], want[1] + "|" + want[2]))
                for path in NGINX_REFUSES:
                    status, _, _ = client.get(port, path)
                    check("%s %s (nginx refuses)" % (preset, path), status == 400,
                          "status %d" % status)
            # per-class directives and options, per location; a location
            # refuses more than the server, never less
            for path, status_want, body_want in [
                    ("/a%3bb", 403, None), ("/a%7eb", 200, "/a~b|decode-unreserved"),
                    ("/a%2fb", 200, "/a%2Fb|uppercase-hex"), ("/open/a%2fb", 403, None),
                    ("/open/a%3Bb", 403, None),
                    ("/climb/x/..;j=1/y", 200, "/climb/y|remove-dots,params"),
                    ("/climb/../../y", 400, None),  # nginx's own check comes first
                    ("/climb/%2e%2e/%2e%2e/%2e%2e/y", 400, None),
                    ("/same/a/b", 200, "/same/a/b|-"), ("/same/a/%7e", 403, None),
                    ("/same/a//b", 403, None), ("/x/a/..;p/b", 200, "/x/b|remove-dots,params"),
                    # sent on to /same/ by the policy of /x/: changed
                    ("/x/..;/same/a", 403, None)]:
                status, _, body = client.get(p_over, path)
                check("overrides %s" % path,
                      status == status_want and (body_want is None or body == body_want),
                      "got %d %r" % (status, body[:80]))
            status, _, _ = client.get(p_off, "/a%2F%00x/../b")
            check("pct_path off: nothing rejected", status == 400)  # nginx's own (%00)
            status, _, body = client.get(p_off, "/a%2Fb/%2e%2e/c%20d")
            check("pct_path off: $pct_path is $uri as proxy_pass forwards it",
                  status == 200 and body == "[/a/c%20d|off]", body)
            status, _, body = client.get(p_front, "/a/%2e%2e/%7euser/x%2fy?q=%2e%2e")
            check("proxy_pass $pct_path$is_args$args", status == 200 and
                  body == "backend saw /~user/x%2Fy?q=%2e%2e", "%d %r" % (status, body))
            check("rejections logged with their reason",
                  "pct_path: request path rejected: escaped byte rejected by the path policy at "
                  "byte" in ng.error_log())
        finally:
            ng.stop()
    client.close()
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
