"""contrib/syslog-ng/bench.py MODULE_DIR [LINES] [ROUNDS] - messages per second
through Debian's syslog-ng, from a file source to a file destination, for
combined access-log lines, with three pipelines run in the same process of
measurement, alternately (the order rotates each round), medians reported:

  none    no parser
  apache  syslog-ng's apache-accesslog-parser() and $(url-decode) of the
          request (a rewrite sets .apache.request_decoded)
  pct     pct-access-log-parser() (this module): every field, the path and
          query decoded, time_iso
  values  no parser, but a rewrite that sets as many name-value pairs as pct
          does for these lines (14), to constant text: what syslog-ng itself
          spends on the pairs, a floor for any parser that sets them

Each writes $MSG per message, so that the pipelines differ in their parsing
only. The rate is taken between 10% and 100% of the output (syslog-ng's
start, and the SCL's loading, are outside it); the CPU time of syslog-ng's
threads per message is given too (less sensitive to other load). A shared
machine gives noisy numbers: run it when the machine is quiet, and read the
spread.
"""
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

SYSLOG_NG = os.environ.get("SYSLOG_NG", "/usr/sbin/syslog-ng")
DEFAULT_MODULES = "/usr/lib/syslog-ng/3.38"

HEAD = """@version: 3.38
@include "scl.conf"
options { stats-freq(0); log-msg-size(65536); flush-lines(1000); };
source s { file("%(input)s" flags(no-parse) follow-freq(1) log-fetch-limit(1000)
                log-iw-size(100000)); };
destination d { file("%(output)s" template("$MSG\\n")); };
"""

PIPELINES = {
    "none": "log { source(s); destination(d); };\n",
    "apache": """log { source(s);
      parser { apache-accesslog-parser(prefix(".apache.")); };
      rewrite { set("$(url-decode ${.apache.request})" value(".apache.request_decoded")); };
      destination(d); };
""",
    "pct": """log { source(s);
      parser { pct-access-log-parser(format(combined) prefix(".pct.")); };
      destination(d); };
""",
    "values": "log { source(s);\n      rewrite { %s };\n      destination(d); };\n" % " ".join(
        'set("value %d" value(".v.%s"));' % (i, name) for i, name in enumerate(
            ["format", "remote", "time", "time_iso", "method", "path", "query.q", "query.page",
             "query.x", "protocol", "status", "bytes", "referer", "agent"])),
}


def combined_lines(n, rng):
    words = ["caf%C3%A9", "a%20b", "%E2%82%AC", "index.html", "img", "api", "v1", "s%2Fx",
             "%7Euser", "search"]
    agents = ["Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", "curl/8.5.0",
              "Mozilla/5.0 (Windows NT 10.0) Chrome/119.0"]
    lines = []
    for i in range(n):
        path = "/" + "/".join(rng.choice(words) for _ in range(rng.randrange(1, 5)))
        if rng.random() < 0.6:
            path += "?q=%s&page=%d&x=a+b%%26c" % (rng.choice(words), rng.randrange(100))
        lines.append('192.0.2.%d - - [14/Mar/2026:06:%02d:%02d +0000] "GET %s HTTP/1.1" %d %d '
                     '"https://example.org/%s" "%s"'
                     % (i % 250, i // 60 % 60, i % 60, path, rng.choice([200, 200, 304, 404]),
                        rng.randrange(100000), rng.choice(words), rng.choice(agents)))
    return lines


def run(module_dir, dir_, name, input_path, size):
    output = os.path.join(dir_, name + ".out")
    for p in (output, os.path.join(dir_, "persist")):
        if os.path.exists(p):
            os.remove(p)
    conf = os.path.join(dir_, name + ".conf")
    with open(conf, "w") as f:
        f.write(HEAD % {"input": input_path, "output": output} + PIPELINES[name])
    proc = subprocess.Popen(
        [SYSLOG_NG, "-F", "-f", conf, "-R", os.path.join(dir_, "persist"),
         "-p", os.path.join(dir_, "pid"), "-c", os.path.join(dir_, "ctl"),
         "--module-path=%s:%s" % (module_dir, DEFAULT_MODULES), "--no-caps"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        start = None
        deadline = time.time() + 300
        while time.time() < deadline:
            if proc.poll() is not None:
                raise SystemExit("bench: syslog-ng (%s) exited with %d" % (name, proc.returncode))
            got = os.path.getsize(output) if os.path.exists(output) else 0
            now = time.perf_counter()
            if start is None and got >= size // 10:
                start, start_bytes = now, got
            if got >= size:
                break
            time.sleep(0.01)
        else:
            raise SystemExit("bench: %s did not finish in 300 s" % name)
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
    return (got - start_bytes) / size, now - start, usage.ru_utime + usage.ru_stime


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    module_dir = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    dir_ = tempfile.mkdtemp(prefix="pct-syslog-ng-bench-")
    try:
        input_path = os.path.join(dir_, "access.log")
        with open(input_path, "w") as f:
            f.write("\n".join(combined_lines(n, random.Random(1))) + "\n")
        size = os.path.getsize(input_path)
        names = list(PIPELINES)
        rates = {k: [] for k in names}
        cpu = {k: [] for k in names}
        for r in range(rounds):
            order = names[r % len(names):] + names[:r % len(names)]
            for name in order:
                fraction, seconds, cpu_seconds = run(module_dir, dir_, name, input_path, size)
                rates[name].append(fraction * n / seconds)
                cpu[name].append(cpu_seconds * 1e6 / n)
            print("round %d: %s" % (r + 1, "  ".join("%s %.0f/s" % (k, rates[k][-1])
                                                       for k in names)), flush=True)
        med = {k: statistics.median(v) for k, v in rates.items()}
        print("%d combined lines, %d rounds, medians (min-max):" % (n, rounds))
        for k in names:
            print("  %-6s %9.0f msg/s  (%.0f-%.0f)  CPU %.2f us/msg (syslog-ng's threads, "
                  "its start included)" % (k, med[k], min(rates[k]), max(rates[k]),
                                           statistics.median(cpu[k])))
        print("pct / apache+url-decode: %.2fx; pct / no parser: %.2fx; "
              "pct / the same pairs set by a rewrite: %.2fx"
              % (med["pct"] / med["apache"], med["pct"] / med["none"], med["pct"] / med["values"]))
    finally:
        shutil.rmtree(dir_, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
