#!/usr/bin/env python3
"""tests/nginx/test_routing.py MODULE - nginx routes on the path it forwards.

Debian's nginx on 127.0.0.1 with ngx_http_pct_module.so; a back end (a
server of the same nginx) answers "X-Loc|$request_uri": which front location
forwarded the request, and the target it received.

1. Regressions, one per way around a location found in the module before
   the path was routed on (each fails with that module): backslashes under
   every preset that reads them as separators, doubled slashes with
   merge_slashes off, a location's dot parameters, a decoded %5C, a
   variable read at server level fixing the policy, decoded control bytes,
   $pct_path without `pct_path on`, error_page for rejections, and
   configuration errors at http level. Also: auth_request sees the
   forwarded path, a plain proxy_pass forwards what was routed, internal
   locations stay closed, a location's policy routes the request on.
2. The property, over generated targets (backslashes, `;` parameters,
   `..;`, doubled slashes, %5C, %2F, dots in every spelling, case): for
   every target forwarded, the location that forwarded it is the location
   that a direct request for the target the back end received selects - in
   a mirror server with the same locations and no policy. Front servers
   with several presets, merge_slashes on and off, prefix, exact and regex
   locations, `return 403`, `deny all`, `internal`, and locations with
   their own policy. PCT_ROUTE_TARGETS sets how many (default 21000);
   PCT_SEED replays a run (the seed is printed).

Prints "N passed, M failed"; exit status 1 on any failure.
"""
import os
import random
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Client, Nginx, free_ports  # noqa: E402

MODULE = sys.argv[1]
checks = Checks()
check = checks.check

# ---------------------------------------------------------------------------
# The back end and the location set shared by the front and mirror servers
# ---------------------------------------------------------------------------

UPSTREAM = """    upstream backend { server 127.0.0.1:%(back)d; keepalive 16; }
    server {
        listen 127.0.0.1:%(back)d;
        pct_path off;
        location / { return 200 "$http_x_loc|$request_uri"; }
        location = /auth {
            if ($http_x_path ~ "^/api/secret") { return 403; }
            return 204;
        }
    }
"""


def forward(name):
    return ("proxy_http_version 1.1; proxy_set_header Connection \"\"; "
            "proxy_set_header X-Loc %s; "
            "proxy_pass http://backend$pct_path$is_args$args;" % name)


# name, location line, the front's own directives (a location that does not
# `return` forwards to the back end)
LOCATIONS = [
    ("root", "location /", ""),
    ("admin", "location /admin/", "return 403;"),
    ("private", "location /private/", "deny all;"),
    ("int", "location /int/", "internal;"),
    ("api", "location /api/", ""),
    ("api-v2", "location /api/v2/", ""),
    ("files", "location ^~ /files/", ""),
    ("exact", "location = /exact", ""),
    ("php", "location ~ \\.php$", ""),
    ("static", "location ~* ^/static/.+\\.(js|css)$", ""),
    ("legacy", "location /legacy/", "pct_path_policy nginx; pct_path_dot_params on;"),
    ("strict", "location /strict/", "pct_path_policy strict;"),
]


def front_locations():
    out = ""
    for name, line, extra in LOCATIONS:
        body = extra
        if not extra.startswith("return"):
            body += " " + forward(name)
        out += "        %s { %s }\n" % (line, body.strip())
    return out


def mirror_locations():
    return "".join('        %s { return 200 "%s"; }\n' % (line, name)
                   for name, line, _ in LOCATIONS)


# ---------------------------------------------------------------------------
# 1. Regressions
# ---------------------------------------------------------------------------


def backend_of(body):
    """(location, target) the back end reported, or None."""
    loc, sep, target = body.partition("|")
    return (loc, target) if sep else None


def regressions(client, ports, root):
    p = dict(zip(["preset_default", "preset_envoy", "preset_strict", "merge_off", "legacy",
                  "backslash", "early", "control", "auto", "off", "errpage", "auth", "plain",
                  "chain", "back"], ports))
    with open(os.path.join(root, "bad.html"), "w") as f:
        f.write("custom error page\n")
    admin = 'location /admin/ { return 403; }'
    servers = UPSTREAM % {"back": p["back"]}
    for preset in ["default", "envoy", "strict"]:
        servers += """    server { listen 127.0.0.1:%d; pct_path on; pct_path_policy %s;
        %s
        location / { %s }
    }
""" % (p["preset_" + preset], preset, admin, forward("root"))
    servers += """    server { listen 127.0.0.1:%(merge_off)d; merge_slashes off; pct_path on;
        pct_path_policy strict;
        %(admin)s
        location / { %(fwd_root)s }
    }
    server { listen 127.0.0.1:%(legacy)d; pct_path on;
        %(admin)s
        location / { %(fwd_root)s }
        location /legacy/ { pct_path_policy nginx; pct_path_dot_params on; %(fwd_legacy)s }
    }
    server { listen 127.0.0.1:%(backslash)d; pct_path on; pct_path_encoded_backslash decode;
        %(admin)s
        location / { %(fwd_root)s }
    }
    server { listen 127.0.0.1:%(early)d;
        set $early $pct_path;
        location / { add_header X-Early $early; %(fwd_root)s }
        location /strict/ { pct_path on; pct_path_policy strict; %(fwd_strict)s }
    }
    server { listen 127.0.0.1:%(control)d; pct_path on;
        location / { %(fwd_root)s }
    }
    server { listen 127.0.0.1:%(auto)d; pct_path_policy strict;
        location / { %(fwd_root)s }
    }
    server { listen 127.0.0.1:%(off)d; pct_path off; pct_path_policy strict;
        location / { add_header X-Report $pct_path_report; %(fwd_root)s }
    }
    server { listen 127.0.0.1:%(errpage)d; pct_path on;
        error_page 400 /bad.html;
        location = /bad.html { root %(root)s; internal; }
        location / { %(fwd_root)s }
    }
    server { listen 127.0.0.1:%(auth)d; pct_path on;
        location /api/ { auth_request /auth; %(fwd_api)s }
        location = /auth { internal; proxy_pass http://backend/auth;
            proxy_http_version 1.1; proxy_set_header Connection "";
            proxy_pass_request_body off; proxy_set_header Content-Length "";
            proxy_set_header X-Path $pct_path; }
    }
    server { listen 127.0.0.1:%(plain)d; pct_path on;
        location / { proxy_set_header X-Loc plain; proxy_pass http://backend; }
        location /int/ { internal; return 200 "internal location reached"; }
        location /rw/ { rewrite ^/rw/(.*)$ /x/../$1 last; }
    }
    server { listen 127.0.0.1:%(chain)d; pct_path on; pct_path_policy nginx;
        location /a { pct_path_policy default; %(fwd_a)s }
        location /b { %(fwd_b)s }
    }
""" % dict(p, admin=admin, root=root, fwd_root=forward("root"), fwd_legacy=forward("legacy"),
           fwd_strict=forward("strict"), fwd_api=forward("api"), fwd_a=forward("a"),
           fwd_b=forward("b"))
    ng = Nginx(MODULE)
    ng.write(servers)
    ok, err = ng.test()
    check("nginx -t accepts the regression configuration", ok, err)
    if not ok:
        return
    ng.start(ports)
    try:
        def never_forwarded(port, target, name, want_status=None):
            status, _, body = client.get(port, target)
            ok = status != 200 and (want_status is None or status == want_status)
            check(name, ok, "%s -> %d %r" % (target, status, body[:80]))

        def forwarded(port, target, want, name):
            status, _, body = client.get(port, target)
            check(name, status == 200 and backend_of(body) == want,
                  "%s -> %d %r, want %r" % (target, status, body[:80], want))

        # 1: '\' is a separator for these presets: nginx must route on it.
        for preset in ["default", "envoy", "strict"]:
            port = p["preset_" + preset]
            for t in ["/admin\\secret", "/public\\..\\admin/secret", "/x/..\\admin\\secret"]:
                never_forwarded(port, t, "1 %s: %s is location /admin/" % (preset, t), 403)
            forwarded(port, "/public/x", ("root", "/public/x"), "1 %s: /public/x" % preset)
        # 2: merge_slashes off, and a policy that merges.
        never_forwarded(p["merge_off"], "//admin/secret", "2 merge_slashes off: //admin/secret",
                        403)
        forwarded(p["merge_off"], "//public//x", ("root", "/public/x"),
                  "2 merge_slashes off: //public//x")
        # 3: the README's /legacy/ location reads "..;" as "..".
        never_forwarded(p["legacy"], "/legacy/..;/admin/secret",
                        "3 /legacy/..;/admin/secret is location /admin/", 403)
        forwarded(p["legacy"], "/legacy/a/..;x/b", ("legacy", "/legacy/b"),
                  "3 /legacy/a/..;x/b stays in /legacy/")
        forwarded(p["legacy"], "/x/..;/legacy/y", ("root", "/x/..;/legacy/y"),
                  "3 \"..;\" outside /legacy/ is a segment")
        # 4: a decoded %5C is a separator.
        never_forwarded(p["backslash"], "/public/..%5Cadmin/secret",
                        "4 /public/..%5Cadmin/secret is location /admin/", 403)
        never_forwarded(p["backslash"], "/public/..%5cadmin%5csecret",
                        "4 /public/..%5cadmin%5csecret is location /admin/", 403)
        # 5: a variable read at server level does not fix the policy.
        never_forwarded(p["early"], "/strict/a%2fb", "5 /strict/ keeps its policy", 400)
        status, headers, body = client.get(p["early"], "/x/%7e/../y")
        check("5 $early holds the server's path", status == 200 and
              headers.get("x-early") == "/x/y" and backend_of(body) == ("root", "/x/y"),
              "%d %r %r" % (status, headers.get("x-early"), body[:80]))
        # 6: no control byte decoded into a path (nor a header line).
        never_forwarded(p["control"], "/a%0d%0aX-Injected:yes%0d%0a/x",
                        "6 %0d%0a is rejected", 400)
        # 7: $pct_path without `pct_path on`: the policy applies.
        never_forwarded(p["auto"], "/a/..;/admin", "7 $pct_path read: the policy applies", 400)
        forwarded(p["auto"], "/a/b", ("root", "/a/b"), "7 a clean path is forwarded")
        #    and with `pct_path off`: $uri as nginx forwards it, never the raw target
        status, headers, body = client.get(p["off"], "/a/./b/%2e%2e/c%2fd?x=1")
        check("7 pct_path off: $pct_path is $uri escaped", status == 200 and
              backend_of(body) == ("root", "/a/c/d?x=1") and headers.get("x-report") == "off",
              "%d %r %r" % (status, body[:80], headers.get("x-report")))
        # 8: error_page serves rejections.
        status, _, body = client.get(p["errpage"], "/a%01b")
        check("8 error_page 400 serves a rejection", status == 400 and "custom error page" in body,
              "%d %r" % (status, body[:80]))
        # auth_request: the subrequest sees the path the request forwards.
        never_forwarded(p["auth"], "/api/public\\..\\secret",
                        "auth_request sees /api/secret", 403)
        forwarded(p["auth"], "/api/public/x", ("api", "/api/public/x"),
                  "auth_request lets /api/public/x through")
        # A plain proxy_pass forwards what nginx routed on, not the raw target.
        forwarded(p["plain"], "/x\\..\\y/z?q=1", ("plain", "/y/z?q=1"),
                  "plain proxy_pass forwards the routed path")
        # A $uri set by configuration is not routed again by the policy.
        never_forwarded(p["plain"], "/rw/admin/x", "a rewritten $uri that normalizes elsewhere",
                        400)
        # Routing never opens an internal location.
        never_forwarded(p["plain"], "/x\\..\\int/a", "internal locations stay closed", 404)
        # A location's policy hands the path it forwards to the location found.
        forwarded(p["chain"], "/a\\..\\b", ("b", "/b"), "a location's policy routes on")
        time.sleep(0.2)
        log = ng.error_log()
        check("rejections logged with their reason",
              "pct_path: request path rejected: escaped byte rejected by the path policy at byte"
              in log)
    finally:
        ng.stop()

    # 6 and 9: configuration errors, at the directive's own line, naming it
    # and the valid values, also at http level with no server.
    for directive, message in [
            ("pct_path_policy iis;", 'invalid value "iis" in "pct_path_policy" directive, it '
             "must be default, nginx, envoy, apache, traefik or strict"),
            ("pct_path_reject_status 200;", 'invalid value "200" in "pct_path_reject_status" '
             "directive, it must be a status from 400 to 599"),
            ("pct_path_encoded_slash drop;", 'invalid value "drop" in "pct_path_encoded_slash" '
             "directive, it must be keep, decode or reject"),
            ("pct_path_dot_params drop;", 'invalid value "drop" in "pct_path_dot_params" '
             "directive, it must be off, on or reject"),
            ("pct_path_encoded_question decode;", '"pct_path_encoded_question" directive, a '
             "decoded byte would end the path"),
            ("pct_path_encoded_control decode;", '"pct_path_encoded_control" directive, a '
             "decoded control byte could split the request"),
            ("pct_path_encoded_nul decode;", '"pct_path_encoded_nul" directive, a '
             "decoded control byte could split the request")]:
        for level, body in [("http", "    %s\n" % directive),
                            ("server", "    server { listen 127.0.0.1:%d;\n        %s\n    }\n"
                             % (p["back"], directive)),
                            ("location", "    server { listen 127.0.0.1:%d;\n        location /"
                             " {\n            %s\n        }\n    }\n" % (p["back"], directive))]:
            conf = ng.write(body)
            with open(conf) as f:
                lines = f.read().split("\n")
            line = 1 + next(i for i, x in enumerate(lines) if directive in x)
            ok, err = ng.test()
            check("nginx -t refuses %s at %s level" % (directive, level),
                  not ok and message in err and "nginx.conf:%d" % line in err,
                  "line %d: %s" % (line, err.strip()))
    ng.close()


# ---------------------------------------------------------------------------
# 2. The property
# ---------------------------------------------------------------------------

SEGMENTS = [
    "admin", "private", "int", "api", "v2", "files", "exact", "static", "legacy", "strict",
    "public", "x.php", "a.js", "b.CSS", "ADMIN", "Admin", "%61dmin", "adm%69n", "%41PI", "api%2F",
    "..", ".", "%2e%2e", "%2E%2e", ".%2e", "%2e.", "%2e", "..;", "..;x=1", ".;", ";p=1", "admin;x",
    "a%20b", "%7euser", "%25", "%2541", "\xe9", "%C3%A9", "x", "y", "",
]
SEPARATORS = ["/"] * 6 + ["//", "\\", "%2F", "%2f", "%5C", "%5c", "/./", "/../", "\\..\\"]
QUERIES = ["", "", "", "?q=1", "?p=/admin/../x", "?a=%2F..%2F"]


def target(rng):
    parts = ["/"]
    for k in range(rng.randint(1, 6)):
        if k:
            parts.append(rng.choice(SEPARATORS))
        parts.append(rng.choice(SEGMENTS))
    if rng.random() < 0.15:
        parts.append(rng.choice(["/", "\\", "%2F"]))
    return "".join(parts) + rng.choice(QUERIES)


FRONTS = [("default", "on"), ("default", "off"), ("strict", "on"), ("nginx", "on"),
          ("envoy", "off"), ("apache", "on"), ("traefik", "on")]


def property_test(client, ports):
    count = int(os.environ.get("PCT_ROUTE_TARGETS", "21000"))
    seed = int(os.environ.get("PCT_SEED", str(int(time.time() * 1000) % 2**31)))
    print("route-equals-forward: %d targets, seed %d (PCT_SEED=%d replays)" % (count, seed, seed),
          flush=True)
    rng = random.Random(seed)
    back, mirror_on, mirror_off = ports[:3]
    fronts = ports[3:3 + len(FRONTS)]
    servers = UPSTREAM % {"back": back}
    for port, merge in [(mirror_on, "on"), (mirror_off, "off")]:
        servers += "    server { listen 127.0.0.1:%d; pct_path off; merge_slashes %s;\n%s    }\n" % (
            port, merge, mirror_locations())
    for port, (preset, merge) in zip(fronts, FRONTS):
        servers += ("    server { listen 127.0.0.1:%d; pct_path on; pct_path_policy %s; "
                    "merge_slashes %s;\n%s    }\n") % (port, preset, merge, front_locations())
    with Nginx(MODULE) as ng:
        ng.write(servers)
        ok, err = ng.test()
        if not check("nginx -t accepts the property configuration", ok, err):
            return
        ng.start(ports[:3 + len(FRONTS)])
        outcomes = {}
        violations = [[] for _ in FRONTS]  # per front server
        try:
            for i in range(count):
                k = i % len(FRONTS)
                t = target(rng)
                status, _, body = client.get(fronts[k], t)
                got = backend_of(body) if status == 200 else None
                outcomes[status] = outcomes.get(status, 0) + 1
                if got is None:
                    continue
                loc, received = got
                mirror = mirror_on if FRONTS[k][1] == "on" else mirror_off
                m_status, _, m_body = client.get(mirror, received)
                query = t.partition("?")[2] if "?" in t.partition("#")[0] else ""
                if m_status != 200 or m_body != loc or received.partition("?")[2] != query:
                    violations[k].append("%r forwarded by %s as %r, which selects %d %r" % (
                        t, loc, received, m_status, m_body))
        finally:
            ng.stop()
        print("outcomes: %s" % ", ".join("%d: %d" % kv for kv in sorted(outcomes.items())),
              flush=True)
        # One check per front server: every target it forwarded.
        for (preset, merge), found in zip(FRONTS, violations):
            check("route equals forward, %s, merge_slashes %s" % (preset, merge), not found,
                  "%d targets, first: %s" % (len(found), "; ".join(found[:5])))
        # Not vacuous: most targets forwarded, and each refusal kind seen.
        check("property: most targets forwarded", outcomes.get(200, 0) > count // 3,
              repr(outcomes))
        check("property: refusals seen (400, 403, 404)",
              all(outcomes.get(s, 0) > 0 for s in (400, 403, 404)), repr(outcomes))


def main():
    client = Client()
    ports = free_ports(16)
    with tempfile.TemporaryDirectory() as root:
        regressions(client, ports[:15], root)
    property_test(client, free_ports(3 + len(FRONTS)))
    client.close()
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
