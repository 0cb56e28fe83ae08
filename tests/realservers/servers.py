"""Debian's servers on 127.0.0.1, each from a private configuration in its
own directory, on free ports, in the foreground: started, fed, stopped by
pid. Never the system service (no systemctl, no /etc config, no port 80).

Every server class has .logs: {log name: path}, .port (where requests go),
start() and stop(); stop() is safe to call at any time and more than once."""
import os
import pwd
import signal
import socket
import subprocess
import threading
import time

WAIT = 20.0  # seconds any start or stop may take before it is an error


class ServerError(Exception):
    pass


def free_port():
    # The port is only reserved while the socket is open: a server started
    # right after binds it; a race with another process is possible but rare,
    # and shows as a start failure naming the port, never a wrong result.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, what, timeout=WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise ServerError("%s exited with status %s before listening: %s" % (what, proc.poll(), proc.stderr_tail()))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise ServerError("%s did not listen on 127.0.0.1:%d within %gs" % (what, port, timeout))


def wait_for(cond, what, timeout=WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise ServerError("timed out (%gs) waiting for %s" % (timeout, what))


class Proc:
    """A child process in its own process group, stopped by its pid."""

    def __init__(self, name, argv, directory, env=None, stdout=None):
        self.name = name
        self.stderr_path = os.path.join(directory, name + ".stderr")
        out = open(stdout, "wb") if stdout else subprocess.DEVNULL
        err = open(self.stderr_path, "wb")
        try:
            self.p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                      cwd=directory, env=env, start_new_session=True)
        finally:
            if stdout:
                out.close()
            err.close()

    def poll(self):
        return self.p.poll()

    @property
    def pid(self):
        return self.p.pid

    def stop(self, sig=signal.SIGTERM, timeout=WAIT):
        """Signal the process, wait for it; SIGKILL (it and its group) if it
        does not end in time. Returns its exit status."""
        if self.p.poll() is None:
            try:
                self.p.send_signal(sig)
            except ProcessLookupError:
                pass
            try:
                self.p.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.p.returncode

    def kill(self):
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                self.p.wait(5)
            except subprocess.TimeoutExpired:
                pass

    def stderr_tail(self, n=15):
        try:
            with open(self.stderr_path, "rb") as f:
                return b"\n".join(f.read().splitlines()[-n:]).decode("utf-8", "replace")
        except OSError:
            return ""


def as_root():
    return os.geteuid() == 0


def give_to(path, user):
    """When root, hand the directory tree to the unprivileged user the server
    switches to, so that it can write its logs there."""
    if not as_root():
        return
    pw = pwd.getpwnam(user)
    for root, dirs, files in os.walk(path):
        for n in [root] + [os.path.join(root, x) for x in dirs + files]:
            os.chown(n, pw.pw_uid, pw.pw_gid)
    # and let it reach the directory
    d = os.path.dirname(os.path.abspath(path))
    while d != "/":
        st = os.stat(d)
        if not st.st_mode & 0o001:
            os.chmod(d, st.st_mode | 0o001)
        d = os.path.dirname(d)


class Backend:
    """A minimal origin server (a thread) for the proxies: answers every
    request with 200 and closes the connection."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopping:
            try:
                conn, _ = self.sock.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    @staticmethod
    def _answer(conn):
        with conn:
            conn.settimeout(5)
            data = b""
            try:
                while b"\r\n\r\n" not in data and len(data) < 1 << 20:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                             b"Content-Length: 3\r\nConnection: close\r\n\r\nok\n")
            except OSError:
                pass

    def stop(self):
        self.stopping = True
        self.thread.join(5)
        self.sock.close()


class Server:
    name = "?"
    need = []  # executables

    def __init__(self, directory):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)
        self.procs = []
        self.logs = {}
        self.port = None

    def path(self, *names):
        return os.path.join(self.dir, *names)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def spawn(self, name, argv, env=None, **kw):
        # TMPDIR: varnishd runs gcc on its VCL, whose temporary files would
        # otherwise go to /tmp
        env = dict(env or os.environ, TMPDIR=self.dir)
        p = Proc(name, argv, self.dir, env=env, **kw)
        self.procs.append(p)
        return p

    def start(self, backend_port):
        raise NotImplementedError

    def settle(self, last_request):
        """Called after the last request: wait until the logs hold it."""

    def stop(self):
        # in reverse order of start
        for p in reversed(self.procs):
            p.stop()

    def kill(self):
        for p in reversed(self.procs):
            p.kill()

    def diagnostics(self):
        return "\n".join("%s: %s" % (p.name, p.stderr_tail()) for p in self.procs)


# ---------------------------------------------------------------------------

NGINX_JSON = ('{"time":"$time_iso8601","remote_addr":"$remote_addr","remote_user":"$remote_user",'
              '"request":"$request","request_uri":"$request_uri","status":$status,'
              '"body_bytes_sent":$body_bytes_sent,"request_time":$request_time,'
              '"http_referer":"$http_referer","http_user_agent":"$http_user_agent",'
              '"http_x_forwarded_for":"$http_x_forwarded_for"}')
NGINX_DEFAULT = ('$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
                 '"$http_referer" "$http_user_agent" "$http_x_forwarded_for" rt=$request_time')
NGINX_COMBINED = ('$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
                  '"$http_referer" "$http_user_agent"')


class Nginx(Server):
    name = "nginx"
    need = ["/usr/sbin/nginx"]
    formats = {"combined": NGINX_COMBINED, "json": NGINX_JSON, "escdefault": NGINX_DEFAULT}

    def start(self, backend_port):
        self.port = free_port()
        os.makedirs(self.path("tmp"), exist_ok=True)
        os.makedirs(self.path("www"), exist_ok=True)
        self.logs = {k: self.path("nginx-%s.log" % k) for k in self.formats}
        q = lambda s: "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"  # noqa: E731
        conf = self.write("nginx.conf", """daemon off;
master_process off;
worker_processes 1;
error_log %(d)s/error.log info;
pid %(d)s/nginx.pid;
events { worker_connections 64; }
http {
    client_body_temp_path %(d)s/tmp;
    proxy_temp_path %(d)s/tmp;
    fastcgi_temp_path %(d)s/tmp;
    uwsgi_temp_path %(d)s/tmp;
    scgi_temp_path %(d)s/tmp;
    client_header_timeout 5s;
    log_format pctjson escape=json %(json)s;
    log_format pctdefault escape=default %(default)s;
    access_log %(d)s/nginx-combined.log combined;
    access_log %(d)s/nginx-json.log pctjson;
    access_log %(d)s/nginx-escdefault.log pctdefault;
    server {
        listen 127.0.0.1:%(port)d;
        root %(d)s/www;
        location / { return 200 "ok\\n"; }
    }
}
""" % {"d": self.dir, "port": self.port, "json": q(NGINX_JSON), "default": q(NGINX_DEFAULT)})
        p = self.spawn("nginx", ["/usr/sbin/nginx", "-c", conf, "-p", self.dir + "/"])
        wait_port(self.port, p, "nginx")


APACHE_COMBINED = '%h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"'
APACHE_CUSTOM = '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D "%{X-Forwarded-For}i"'


class Apache(Server):
    name = "apache2"
    need = ["/usr/sbin/apache2"]
    formats = {"combined": APACHE_COMBINED, "custom": APACHE_CUSTOM}

    def start(self, backend_port):
        self.port = free_port()
        os.makedirs(self.path("www"), exist_ok=True)
        os.makedirs(self.path("run"), exist_ok=True)
        self.logs = {k: self.path("apache2-%s.log" % k) for k in self.formats}
        q = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'  # noqa: E731
        user = "User www-data\nGroup www-data\n" if as_root() else ""
        conf = self.write("apache2.conf", """ServerRoot %(d)s
DefaultRuntimeDir %(d)s/run
PidFile %(d)s/apache2.pid
Mutex file:%(d)s/run default
LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
StartServers 1
ServerLimit 1
ThreadsPerChild 8
MaxRequestWorkers 8
%(user)sServerName 127.0.0.1
Listen 127.0.0.1:%(port)d
ErrorLog %(d)s/error.log
LogLevel warn
DocumentRoot %(d)s/www
Timeout 5
LogFormat %(combined)s combined
LogFormat %(custom)s custom
CustomLog %(d)s/apache2-combined.log combined
CustomLog %(d)s/apache2-custom.log custom
""" % {"d": self.dir, "port": self.port, "user": user,
            "combined": q(APACHE_COMBINED), "custom": q(APACHE_CUSTOM)})
        p = self.spawn("apache2", ["/usr/sbin/apache2", "-f", conf, "-DFOREGROUND"],
                       env=dict(os.environ, APACHE_RUN_DIR=self.path("run")))
        wait_port(self.port, p, "apache2")


# rsyslog conflicts with syslog-ng as a Debian package: scripts/test.sh runs an
# unpacked copy (pct_unpacked_rsyslogd in scripts/lib.sh) and says where
RSYSLOGD = os.path.abspath(os.environ.get("PCT_RSYSLOGD") or "/usr/sbin/rsyslogd")
RSYSLOG_MODULES = os.environ.get("PCT_RSYSLOG_MODULES") or ""
RSYSLOG_MODULES = os.path.abspath(RSYSLOG_MODULES) if RSYSLOG_MODULES else ""


class Rsyslog:
    """rsyslogd with a private configuration: imudp on 127.0.0.1, and per
    facility (local0..) files in the given templates (Debian's traditional
    file format; rsyslog's own default, RFC 3339 times; RFC 5424)."""

    def __init__(self, server, files):
        self.server = server
        self.port = free_port()
        self.files = files  # facility -> [(path, template)]
        rules = "".join('%s.* action(type="omfile" file="%s" template="%s")\n' % (fac, path, template)
                        for fac, outs in files.items() for path, template in outs)
        os.makedirs(server.path("rsyslog"), exist_ok=True)
        conf = server.write("rsyslog.conf", """global(workDirectory="%(d)s/rsyslog")
module(load="imudp")
input(type="imudp" address="127.0.0.1" port="%(port)d")
%(rules)s""" % {"d": server.dir, "port": self.port, "rules": rules})
        modules = ["-M", RSYSLOG_MODULES] if RSYSLOG_MODULES else []
        self.proc = server.spawn("rsyslogd", [RSYSLOGD, "-n", "-f", conf, "-i",
                                              server.path("rsyslogd.pid")] + modules)
        # imudp gives no way to wait for it but a message that arrives.
        self.mark_all("start")

    def mark_all(self, word):
        for fac in self.files:
            self.mark(fac, word)

    def mark(self, fac, word):
        """Send a marker to facility fac until it is in its file: every
        datagram sent before it has then been written."""
        token = "pct-realservers-mark-%s-%s" % (word, os.getpid())
        codes = {"local%d" % i: 16 + i for i in range(8)}
        msg = ("<%d>Nov 27 00:00:00 localhost marker: %s" % (codes[fac] * 8 + 6, token)).encode()
        paths = [p for p, _ in self.files[fac]]

        def arrived():
            if self.proc.poll() is not None:
                raise ServerError("rsyslogd exited: %s" % self.proc.stderr_tail())
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.sendto(msg, ("127.0.0.1", self.port))
            return all(_contains(p, token.encode()) for p in paths)

        wait_for(arrived, "rsyslogd to write a marker to %s" % ", ".join(paths))


HAPROXY_FORMATS = {"httplog": "option httplog", "clf": "option httplog clf", "tcplog": "option tcplog"}


class Haproxy(Server):
    """One haproxy per format (a frontend's format is its own), each logging
    both through rsyslog (local0 / local1) and to stdout (raw)."""
    name = "haproxy"
    need = ["/usr/sbin/haproxy", RSYSLOGD]

    def __init__(self, directory, fmt):
        super().__init__(directory)
        self.fmt = fmt
        self.fac = {"httplog": "local0", "clf": "local1", "tcplog": "local2"}[fmt]

    def start(self, backend_port):
        self.port = free_port()
        outs = [("rsyslog", "RSYSLOG_TraditionalFileFormat")]
        if self.fmt == "httplog":
            outs += [("rsyslog3339", "RSYSLOG_FileFormat"), ("rsyslog5424", "RSYSLOG_SyslogProtocol23Format")]
        self.logs = {"%s-%s" % (self.fmt, k): self.path("haproxy-%s-%s.log" % (self.fmt, k)) for k, _ in outs}
        self.logs[self.fmt + "-stdout"] = self.path("haproxy-%s-stdout.log" % self.fmt)
        self.rsyslog = Rsyslog(self, {self.fac: [(self.logs["%s-%s" % (self.fmt, k)], t) for k, t in outs]})
        conf = self.write("haproxy.cfg", """global
    pidfile %(d)s/haproxy.pid
    maxconn 64
defaults
    mode http
    timeout connect 5s
    timeout client 5s
    timeout server 5s
frontend fe
    bind 127.0.0.1:%(port)d
    log 127.0.0.1:%(sport)d %(fac)s
    log stdout format raw %(fac)s
    %(option)s
%(http)s    default_backend be
backend be
%(mode)s    server s1 127.0.0.1:%(bport)d
""" % {"d": self.dir, "port": self.port, "sport": self.rsyslog.port, "fac": self.fac,
            "option": HAPROXY_FORMATS[self.fmt], "bport": backend_port,
            "mode": "    mode tcp\n" if self.fmt == "tcplog" else "",
            "http": "    mode tcp\n" if self.fmt == "tcplog" else
            "    capture request header Referer len 64\n    capture request header User-Agent len 64\n"})
        p = self.spawn("haproxy", ["/usr/sbin/haproxy", "-db", "-f", conf],
                       stdout=self.logs[self.fmt + "-stdout"])
        wait_port(self.port, p, "haproxy")

    def stop(self):
        # haproxy first (it flushes its log lines as it ends), then wait for
        # rsyslogd to have written them all, then rsyslogd.
        try:
            for p in self.procs:
                if p.name == "haproxy":
                    p.stop(signal.SIGUSR1)  # soft stop: finish, log, exit
            rsyslog = getattr(self, "rsyslog", None)
            if rsyslog is not None and rsyslog.proc.poll() is None:
                rsyslog.mark(self.fac, "end")
        finally:
            super().stop()


SQUID_FORMATS = {"native": "squid", "combined": "combined"}


class Squid(Server):
    """squid as a reverse proxy (accel) in front of the backend."""
    name = "squid"
    need = ["/usr/sbin/squid"]

    def start(self, backend_port):
        self.port = free_port()
        self.logs = {k: self.path("squid-%s.log" % k) for k in SQUID_FORMATS}
        user = "cache_effective_user proxy\n" if as_root() else ""
        logs = "".join("access_log stdio:%s %s\n" % (self.logs[k], v) for k, v in SQUID_FORMATS.items())
        conf = self.write("squid.conf", """http_port 127.0.0.1:%(port)d accel defaultsite=127.0.0.1 no-vhost
cache_peer 127.0.0.1 parent %(bport)d 0 no-query originserver name=backend
http_access allow all
never_direct allow all
cache deny all
cache_mem 8 MB
%(user)spid_filename %(d)s/squid.pid
cache_log %(d)s/cache.log
coredump_dir %(d)s
%(logs)slogfile_rotate 0
strip_query_terms off
shutdown_lifetime 0 seconds
pinger_enable off
icp_port 0
htcp_port 0
netdb_filename none
dns_nameservers 127.0.0.1
request_header_max_size 64 KB
""" % {"d": self.dir, "port": self.port, "bport": backend_port, "user": user, "logs": logs})
        give_to(self.dir, "proxy")
        # squid names its shared memory (/dev/shm/NAME-cf__*.shm, opened
        # O_EXCL) after its service name: one of its own per run
        self.service = "pctrs%dp%d" % (os.getpid(), self.port)  # alphanumeric only
        p = self.spawn("squid", ["/usr/sbin/squid", "-N", "-n", self.service, "-f", conf])
        wait_port(self.port, p, "squid")

    def kill(self):
        super().kill()
        # what a killed squid leaves
        service = getattr(self, "service", None)
        if service and os.path.isdir("/dev/shm"):
            for f in os.listdir("/dev/shm"):
                if f.startswith(service + "-"):
                    try:
                        os.unlink(os.path.join("/dev/shm", f))
                    except OSError:
                        pass


class Lighttpd(Server):
    name = "lighttpd"
    need = ["/usr/sbin/lighttpd"]

    def start(self, backend_port):
        self.port = free_port()
        os.makedirs(self.path("www"), exist_ok=True)
        self.logs = {"default": self.path("lighttpd-default.log")}
        user = 'server.username = "www-data"\nserver.groupname = "www-data"\n' if as_root() else ""
        conf = self.write("lighttpd.conf", """server.modules = ("mod_accesslog")
server.document-root = "%(d)s/www"
server.bind = "127.0.0.1"
server.port = %(port)d
server.pid-file = "%(d)s/lighttpd.pid"
server.errorlog = "%(d)s/error.log"
%(user)saccesslog.filename = "%(log)s"
""" % {"d": self.dir, "port": self.port, "user": user, "log": self.logs["default"]})
        give_to(self.dir, "www-data")
        p = self.spawn("lighttpd", ["/usr/sbin/lighttpd", "-D", "-f", conf])
        wait_port(self.port, p, "lighttpd")


VARNISH_CUSTOM = '%h %t "%m %U%q %H" %s %b %D "%{Referer}i" "%{User-agent}i" "%{X-Forwarded-For}i"'


class Varnish(Server):
    name = "varnish"
    need = ["/usr/sbin/varnishd", "/usr/bin/varnishncsa"]

    def start(self, backend_port):
        self.port = free_port()
        work = self.path("varnish")
        os.makedirs(work, exist_ok=True)
        self.logs = {"default": self.path("varnish-default.log"),
                     "custom": self.path("varnish-custom.log")}
        p = self.spawn("varnishd", ["/usr/sbin/varnishd", "-F", "-j", "none", "-n", work,
                                    "-a", "127.0.0.1:%d" % self.port, "-b", "127.0.0.1:%d" % backend_port,
                                    "-s", "malloc,32m", "-T", "none", "-p", "timeout_idle=5"])
        wait_port(self.port, p, "varnishd", timeout=60)
        for k, extra in (("default", []), ("custom", ["-F", VARNISH_CUSTOM])):
            self.spawn("varnishncsa-" + k, ["/usr/bin/varnishncsa", "-n", work, "-w", self.logs[k]] + extra)
        # varnishncsa shows requests that end after it attached: warm up until
        # a request shows in both logs.
        def seen():
            send(self.port, b"GET /_warmup_ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return all(_contains(f, b"/_warmup_") for f in self.logs.values())
        wait_for(seen, "varnishncsa to log")

    def settle(self, last_request):
        token = b"/_%05d_/" % last_request.n
        wait_for(lambda: all(_contains(f, token) for f in self.logs.values()),
                 "varnishncsa to log the last request")

    def stop(self):
        # the log readers first (they have logged everything: settle), then varnishd
        try:
            for p in self.procs:
                if p.name.startswith("varnishncsa"):
                    p.stop()
        finally:
            super().stop()


def _contains(path, token):
    try:
        with open(path, "rb") as f:
            return token in f.read()
    except OSError:
        return False


def send(port, raw, timeout=10.0):
    """One connection: send the request, read until the server closes.
    Returns the response bytes (maybe empty)."""
    resp = b""
    deadline = time.monotonic() + 2 * timeout
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(raw)
            while time.monotonic() < deadline:
                chunk = s.recv(65536)
                if not chunk:
                    break
                resp += chunk
        except OSError:
            pass
    return resp
