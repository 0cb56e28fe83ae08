"""Shared by the nginx tests: Debian's nginx on 127.0.0.1 with the module,
started from a private prefix and configuration, stopped by its pid; an
HTTP/1.1 client that keeps its connection; pass/fail bookkeeping."""
import os
import signal
import socket
import subprocess
import tempfile
import time

NGINX = os.environ.get("NGINX", "/usr/sbin/nginx")

HEAD = """load_module %(module)s;
daemon off;
master_process off;
worker_processes 1;
error_log %(dir)s/error.log info;
pid %(dir)s/nginx.pid;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path %(dir)s/tmp;
    proxy_temp_path %(dir)s/tmp;
    fastcgi_temp_path %(dir)s/tmp;
    uwsgi_temp_path %(dir)s/tmp;
    scgi_temp_path %(dir)s/tmp;
"""


class Checks:
    """Counts checks; prints each failure (at most `shown` of them)."""

    def __init__(self, shown=60):
        self.passed = self.failed = 0
        self.shown = shown

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            return True
        self.failed += 1
        if self.failed <= self.shown:
            print("FAIL %s%s" % (name, (": " + detail) if detail else ""), flush=True)
        elif self.failed == self.shown + 1:
            print("(more failures not shown)", flush=True)
        return False

    def summary(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


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


class Nginx:
    """One nginx: write(body) the http{} contents, test() runs nginx -t,
    start() waits for the ports, stop() ends it by its pid."""

    def __init__(self, module, directory=None):
        self.module = module
        self._tmp = None if directory else tempfile.TemporaryDirectory()
        self.dir = directory or self._tmp.name
        os.makedirs(os.path.join(self.dir, "tmp"), exist_ok=True)
        self.conf = os.path.join(self.dir, "nginx.conf")
        self.proc = None

    def write(self, body, head=None):
        text = (head if head is not None else HEAD % {"module": self.module, "dir": self.dir})
        with open(self.conf, "w") as f:
            f.write(text + body + "}\n")
        return self.conf

    def test(self):
        """nginx -t: (ok, stderr)."""
        t = subprocess.run([NGINX, "-t", "-p", self.dir, "-c", self.conf, "-e",
                            os.path.join(self.dir, "error.log")], capture_output=True, timeout=60)
        return t.returncode == 0, t.stderr.decode(errors="replace")

    def start(self, ports):
        self.proc = subprocess.Popen([NGINX, "-p", self.dir, "-c", self.conf, "-e",
                                      os.path.join(self.dir, "error.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("nginx exited: %s" % self.proc.stderr.read().decode())
            try:
                for p in ports:
                    socket.create_connection(("127.0.0.1", p), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("nginx did not start")

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=20)
        self.proc = None

    def error_log(self):
        with open(os.path.join(self.dir, "error.log"), errors="replace") as f:
            return f.read()

    def close(self):
        self.stop()
        if self._tmp:
            self._tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Client:
    """GET over one HTTP/1.1 connection per port, reopened when the server
    closes it. Returns (status, headers dict, body as latin-1 text)."""

    def __init__(self, timeout=10):
        self.timeout = timeout
        self.conns = {}

    def _conn(self, port):
        s = self.conns.get(port)
        if s is None:
            s = socket.create_connection(("127.0.0.1", port), timeout=self.timeout)
            self.conns[port] = [s, b""]
            return self.conns[port]
        return s

    def _drop(self, port):
        c = self.conns.pop(port, None)
        if c:
            c[0].close()

    def get(self, port, target, headers=None):
        raw = target if isinstance(target, bytes) else target.encode("latin-1")
        extra = "".join("%s: %s\r\n" % kv for kv in (headers or {}).items()).encode()
        request = b"GET " + raw + b" HTTP/1.1\r\nHost: test\r\n" + extra + b"\r\n"
        for attempt in (0, 1):
            c = self._conn(port)
            try:
                c[0].sendall(request)
                return self._read(port, c)
            except (ConnectionError, EOFError):
                self._drop(port)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _recv(self, c):
        data = c[0].recv(65536)
        if not data:
            raise EOFError("connection closed")
        c[1] += data

    def _read(self, port, c):
        while b"\r\n\r\n" not in c[1]:
            self._recv(c)
        head, _, rest = c[1].partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        if "content-length" in headers:
            n = int(headers["content-length"])
            c[1] = rest
            while len(c[1]) < n:
                self._recv(c)
            body, c[1] = c[1][:n], c[1][n:]
        else:  # read to the end (nginx closes)
            c[1] = rest
            try:
                while True:
                    self._recv(c)
            except EOFError:
                pass
            body, c[1] = c[1], b""
            self._drop(port)
        if headers.get("connection", "").lower() == "close" and port in self.conns:
            self._drop(port)
        return status, headers, body.decode("latin-1")

    def close(self):
        for port in list(self.conns):
            self._drop(port)
