"""Runs one server: start it, fire the corpus at it (one connection per
request, one at a time), stop it by its pid, and collect its logs."""
import os
import time

import servers


def run_server(server, reqs, backend_port, outdir):
    """Returns {log name: collected path}; raises ServerError."""
    t0 = time.monotonic()
    try:
        server.start(backend_port)
        for r in reqs:
            servers.send(server.port, r.raw)
        server.settle(reqs[-1])
    except BaseException as e:
        if isinstance(e, servers.ServerError):
            e.args = (e.args[0] + "\n" + server.diagnostics(),)
        server.kill()
        raise
    finally:
        try:
            server.stop()
        finally:
            server.kill()  # whatever did not stop (nothing, normally)
    got = {}
    for name, path in server.logs.items():
        dest = os.path.join(outdir, "%s-%s.log" % (server.name, name))
        with open(path, "rb") as f:
            data = f.read()
        # rsyslog markers are the harness's own datagrams, not server lines
        lines = data.split(b"\n")
        kept = [ln for ln in lines if b"pct-realservers-mark-" not in ln]
        with open(dest, "wb") as f:
            f.write(b"\n".join(kept))
        got[name] = dest
    print("# %s: %d requests, %s (%.1fs)" % (
        server.name, len(reqs), ", ".join("%s %d lines" % (n, _count_lines(p)) for n, p in got.items()),
        time.monotonic() - t0), flush=True)
    return got


def _count_lines(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def all_servers(workdir):
    """(label, constructor) for every server the step runs."""
    return [
        ("nginx", lambda: servers.Nginx(os.path.join(workdir, "nginx"))),
        ("apache2", lambda: servers.Apache(os.path.join(workdir, "apache2"))),
        ("haproxy-httplog", lambda: servers.Haproxy(os.path.join(workdir, "haproxy-httplog"), "httplog")),
        ("haproxy-clf", lambda: servers.Haproxy(os.path.join(workdir, "haproxy-clf"), "clf")),
        ("haproxy-tcplog", lambda: servers.Haproxy(os.path.join(workdir, "haproxy-tcplog"), "tcplog")),
        ("squid", lambda: servers.Squid(os.path.join(workdir, "squid"))),
        ("lighttpd", lambda: servers.Lighttpd(os.path.join(workdir, "lighttpd"))),
        ("varnish", lambda: servers.Varnish(os.path.join(workdir, "varnish"))),
    ]

