#!/usr/bin/python3
"""`pct logs` against the logs real servers write.

    /usr/bin/python3 tests/realservers/run.py PCT [WORKDIR]
        [--count N] [--only SERVER,...] [--logs DIR] [--save DIR]

Starts Debian's nginx, apache2, haproxy (+ rsyslogd), squid, lighttpd and
varnish (+ varnishncsa) on 127.0.0.1, each from a private configuration in
a temporary directory under WORKDIR (default build/realservers), fires the
same generated corpus of hard requests at each (one connection per request;
the seed is printed, PCT_TEST_SEED replays it; PCT_REALSERVERS_COUNT or
--count sets the number: 1000 by default, 400..2000), stops each by its
pid, and checks every log it wrote (one line per check: PASS, FAIL, XFAIL
or XPASS):

  unparsed        no line unparsed, in auto mode and with the server's own
                  format (--log-format STRING / --format NAME)
  paths           every path and query equal to the target in the line,
                  decoded independently (logparse.py)
  json-strict     --json: one object per line, valid, keys unique
  tsv-columns     --tsv: one row per line, one column count
  csv-columns     --csv: one RFC 4180 record per line, one column count
  writers-agree   the path of --tsv is the path of --json
  headers         Referer and User-Agent: the server's escaping undone
  truncated       the records the server cut (and only they) are flagged
                  "truncated": true
  compressed      gzip and zstd copies give the same output, byte for byte
  threads         one output line per input line; the same bytes with 2
                  threads on 64 KiB chunks as with 1
  line-json       JSON lines in, the line output is JSON (nginx escape=json)
  targets         (the harness itself) the target each server logged is the
                  one sent, or a prefix of it when the server cut it
  sanitizers      no ASan/UBSan report in any run of pct (when PCT is such
                  a build)

--logs DIR checks the logs already in DIR (as --save wrote them) without
starting servers; --save DIR copies the logs and the requests sent to DIR.
--write-known rewrites known_defects.py from this run: each check that ran
gets the defects its differences were put down to (none: no entry); a
check with a difference no defect explains still fails.
The last line is "N passed, M failed, K skipped" (XFAIL counts as skipped,
XPASS as failed; PCT_REALSERVERS_STRICT=1 fails the XFAILs of defects issue
24 does not list). Exit status 1 when something failed."""
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import argparse  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import checks  # noqa: E402
import corpus  # noqa: E402
import fire  # noqa: E402
import known_defects  # noqa: E402
import logparse  # noqa: E402
import logspecs  # noqa: E402
import servers  # noqa: E402


# PCT_REALSERVERS_STRICT=1: a check failing because of a defect issue 24
# does not list (known_defects.py's letters) fails instead of XFAIL
STRICT = os.environ.get("PCT_REALSERVERS_STRICT") == "1"


class Report:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.found = {}  # check -> the defects its differences were put down to

    def result(self, name, outcome, note=""):
        self.found[name] = outcome.items()
        known = set(known_defects.KNOWN.get(name, ()))
        n = len(outcome.diffs)
        label = " ".join(name)
        if n == 0:
            if known:
                self.failed += 1
                print("XPASS %s (listed as %s: remove it from known_defects.py)"
                      % (label, _defects(known)), flush=True)
            else:
                self.passed += 1
                print("PASS  %s (%d checked)%s" % (label, outcome.checked, note), flush=True)
            return
        found = outcome.items()
        unexplained = outcome.unexplained()
        unlisted = {i for i in found if isinstance(i, str)} if STRICT else set()
        if known and not unexplained and found == known and not unlisted:
            self.skipped += 1
            print("XFAIL (%s) %s: %d differences (%d checked), e.g. %s"
                  % (_defects(found), label, n, outcome.checked, outcome.diffs[0][1]), flush=True)
            return
        self.failed += 1
        why = []
        if unexplained:
            why.append("%d not explained by a known defect" % len(unexplained))
        if found - known:
            why.append("%s not listed for this check in known_defects.py" % _defects(found - known))
        if known - found:
            why.append("listed %s no longer seen: remove it from known_defects.py" % _defects(known - found))
        if unlisted:
            why.append("PCT_REALSERVERS_STRICT=1: defects the issue does not list fail")
        print("FAIL  %s: %d differences (%d checked; %s)" % (label, n, outcome.checked, "; ".join(why)),
              flush=True)
        shown = unexplained[:5] if unexplained else [t for _, t in outcome.diffs[:3]]
        for t in shown:
            print("      %s" % t, flush=True)
        for items, t in outcome.diffs:
            if items - known:
                print("      (%s) %s" % (_defects(items), t), flush=True)
                break

    def error(self, name, text):
        self.failed += 1
        print("FAIL  %s: %s" % (name, text.replace("\n", "\n      ")), flush=True)


def _defects(items):
    """'issue items 2,3; not in the issue: B'"""
    nums = sorted(i for i in items if isinstance(i, int))
    new = sorted(i for i in items if isinstance(i, str))
    out = []
    if nums:
        out.append("issue item%s %s" % ("s" if len(nums) > 1 else "", ",".join(map(str, nums))))
    if new:
        out.append("not in the issue: %s" % ",".join(new))
    return "; ".join(out)


def _skipped_here(name, sent):
    """A check that this kind of run does not do (--logs: no truncated,
    targets)."""
    return sent is None and name[-1] in ("truncated", "targets")


def write_known(found):
    """known_defects.py with KNOWN updated for the checks that ran (and
    entries of checks that no longer exist dropped)."""
    ran_logs = {name[0] for name in found}
    known = {name: items for name, items in known_defects.KNOWN.items()
             if name[0] not in ran_logs or name in found}
    for name, items in found.items():
        if items:
            known[name] = items
        else:
            known.pop(name, None)
    order = {spec.key: i for i, spec in enumerate(logspecs.SPECS)}
    kinds = ["unparsed", "paths", "headers", "json-strict", "tsv-columns", "csv-columns",
             "writers-agree", "truncated", "line-json"]

    def sort_key(name):
        spec = logspecs.SPECS[order[name[0]]]
        if len(name) == 2:
            return order[name[0]], len(spec.modes), name[1], 0
        return order[name[0]], list(spec.modes).index(name[1]), "", kinds.index(name[2])

    def items(s):
        return "{%s}" % ", ".join([str(i) for i in sorted(i for i in s if isinstance(i, int))] +
                                  [repr(i) for i in sorted(i for i in s if isinstance(i, str))])
    lines, prev = [], None
    for name in sorted(known, key=sort_key):
        if prev is not None and name[0] != prev:
            lines.append("")
        prev = name[0]
        lines.append("    %r: %s," % (name, items(known[name])))
    path = os.path.join(HERE, "known_defects.py")
    with open(path) as f:
        text = f.read()
    text = text[:text.index("KNOWN = {")] + "KNOWN = {\n" + "\n".join(lines) + "\n}\n"
    with open(path, "w") as f:
        f.write(text)
    print("# wrote %s (%d entries)" % (path, len(known)))


def collect(args, work, reqs, report):
    """Runs the servers; returns {log file name: path}."""
    out = os.path.join(work, "logs")
    os.makedirs(out, exist_ok=True)
    got = {}
    backend = servers.Backend()
    try:
        for label, make in fire.all_servers(work):
            if args.only and label.split("-")[0] not in args.only and label not in args.only:
                continue
            missing = [x for x in make().need if not os.access(x, os.X_OK)]
            if missing:
                report.error(label, "not installed: %s" % ", ".join(missing))
                continue
            try:
                for name, path in fire.run_server(make(), reqs, backend.port, out).items():
                    got[os.path.basename(path)] = path
            except Exception as e:  # report it and go on with the next server
                report.error(label, "the server run failed: %s: %s" % (type(e).__name__, e))
    finally:
        backend.stop()
    return got


def _stop_on_signal(signum, frame):
    # SIGTERM (timeout(1), a CI runner) unwinds like SIGINT: the finally
    # blocks stop every server by its pid and remove the work directory
    raise SystemExit("stopped by signal %d" % signum)


def main():
    signal.signal(signal.SIGTERM, _stop_on_signal)
    signal.signal(signal.SIGHUP, _stop_on_signal)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pct")
    ap.add_argument("workdir", nargs="?", default="build/realservers")
    ap.add_argument("--count", type=int, default=int(os.environ.get("PCT_REALSERVERS_COUNT", "1000")))
    ap.add_argument("--only", type=lambda s: s.split(","), default=None)
    ap.add_argument("--logs", help="check the logs in this directory; start no server")
    ap.add_argument("--save", help="copy the logs and requests.txt here")
    ap.add_argument("--write-known", action="store_true",
                    help="rewrite known_defects.py from what this run found")
    args = ap.parse_args()
    pct = os.path.abspath(args.pct)
    wrapper = os.environ.get("PCT_EXE_WRAPPER", "").split()
    seed = int(os.environ.get("PCT_TEST_SEED") or random.SystemRandom().randrange(1 << 32))
    count = max(400, min(args.count, 2000))
    print("# seed %d (PCT_TEST_SEED=%d replays it), %d requests per server, %s"
          % (seed, seed, count, pct), flush=True)
    reqs = corpus.generate(seed, count)
    sent = {r.n: r for r in reqs} if not args.logs else None
    report = Report()
    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="run-", dir=workdir)
    t0 = time.monotonic()
    try:
        if args.logs:
            files = {f: os.path.join(args.logs, f) for f in os.listdir(args.logs) if f.endswith(".log")}
        else:
            files = collect(args, work, reqs, report)
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            for f, p in files.items():
                shutil.copy(p, os.path.join(args.save, f))
            with open(os.path.join(args.save, "requests.txt"), "w") as fh:
                fh.write("# seed %d, %d requests: id, kind, the bytes sent (a Python bytes literal), "
                         "one connection each, in this order\n" % (seed, len(reqs)))
                for r in reqs:
                    fh.write(corpus.describe(r) + "\n")
        for spec in logspecs.SPECS:
            if spec.file not in files:
                continue
            check_log(pct, spec, files[spec.file], work, sent, report, wrapper)
        # an entry for a check that no longer exists (a mode renamed) is stale
        ran_logs = {name[0] for name in report.found}
        stale = checks.Outcome()
        stale.checked = len(known_defects.KNOWN)
        for name in known_defects.KNOWN:
            if name[0] in ran_logs and name not in report.found and not _skipped_here(name, sent):
                stale.add(set(), "%r: no such check ran" % (name,))
        report.result(("known_defects.py", "entries"), stale)
        sanitizers = checks.Outcome()
        sanitizers.checked = 1
        for text in checks.SANITIZER_REPORTS:
            sanitizers.add(set(), text)
        report.result(("pct", "sanitizers"), sanitizers)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.write_known:
        write_known(report.found)
    print("# %.1fs" % (time.monotonic() - t0))
    print("%d passed, %d failed, %d skipped" % (report.passed, report.failed, report.skipped))
    return 1 if report.failed else 0


def check_log(pct, spec, path, work, sent, report, wrapper):
    with open(path, "rb") as f:
        data = f.read()
    lines, split = checks.log_records(data, spec)
    for mode, args in spec.modes.items():
        recs_lines = [logparse.Record(ln, spec) for ln in lines]
        recs = recs_lines
        if split is not None:
            # pct may give one record per NUL-ended squid entry (issue item
            # 12) or one per line: follow what it wrote
            rc, out, _ = checks.run_pct(pct, args + ["--tsv", "--fields", "format"], path, wrapper)
            if out.count(b"\n") == len(split):
                recs = [logparse.Record(r, spec, nul_cut=cut) for r, cut in split]
        try:
            results = checks.check_outputs(pct, spec, path, mode, args, recs, wrapper, sent)
        except (OSError, checks.subprocess.SubprocessError) as e:
            report.error((spec.key, mode), "pct did not run: %s" % e)
            continue
        for name, outcome in results.items():
            report.result((spec.key, mode, name), outcome)
    first = next(iter(spec.modes.values()))
    report.result((spec.key, "compressed"), checks.check_compressed(pct, path, first, work, wrapper))
    report.result((spec.key, "threads"), checks.check_threads(pct, path, first, {len(lines), len(split or lines)}, wrapper))
    if spec.shape == "json":
        for mode, args in spec.modes.items():
            report.result((spec.key, mode, "line-json"), checks.check_line_output_json(pct, path, args, mode, wrapper))
    if sent is not None and spec.has_request:
        recs = [logparse.Record(r, spec, nul_cut=cut) for r, cut in (split or [(ln, None) for ln in lines])]
        report.result((spec.key, "targets"), checks.check_targets(recs, sent, spec))


if __name__ == "__main__":
    sys.exit(main())
