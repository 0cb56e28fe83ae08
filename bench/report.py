#!/usr/bin/env python3
"""bench/report.py - turn one google-benchmark JSON run of bench_pct into the
full table (docs/bench/table.md), the README summary with the targets
(docs/bench/summary.md) and the data for the throughput plot.

    python3 bench/report.py RESULT.json --build-dir build/bench \
        --markdown docs/bench/table.md --summary docs/bench/summary.md \
        --plot-data build/bench/plot.dat [--mode quick]

Every figure is the median over the run's repetitions (aggregate "median"):
GB/s (1e9 bytes) of *input*, or ns per call for the short-string rows. Ratios
are taken between rows of the same process run: libpct/memcpy divides by the
memcpy of the same records, so the baseline shared the machine's state with
the row it judges. Standard library only.
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
from collections import OrderedDict

# Operations in the order of the report, with what each row does.
OPS = OrderedDict([
    ("decode", "pct_decode, lenient; peers: curl_easy_unescape, "
               "uriUnescapeInPlaceExA, g_uri_unescape_bytes"),
    ("decode-plus", "pct_decode PCT_PLUS (form decoding); peer: uriUnescapeInPlaceExA(plusToSpace)"),
    ("decode-strict-utf8", "pct_decode PCT_STRICT|PCT_UTF8 (decodeURIComponent); "
                           "`/plain` is its ratio to lenient decode of the same records"),
    ("decode-except", "pct_decode_except, keep = #$&+,/:;=?@ (JavaScript decodeURI)"),
    ("normalize", "pct_normalize"),
    ("validate", "pct_validate with '%' in the set: paths against the path set, query "
                 "against the query set, log-lines against C0 controls + non-ASCII (minus LF), "
                 "utf8-escaped against the component set"),
    ("encode-component", "pct_encode, component set (encodeURIComponent bytes); "
                         "peer: g_uri_escape_bytes keeping !'()*"),
    ("encode-path", "pct_encode, path set"),
    ("encode-rfc3986", "pct_encode, rfc3986 set (all but A-Z a-z 0-9 - . _ ~); "
                       "peers: curl_easy_escape, uriEscapeExA, g_uri_escape_bytes"),
    ("encode-form", "pct_encode, form set + PCT_PLUS (application/x-www-form-urlencoded)"),
    ("encode-length", "pct_encode_length, component set"),
    ("find", "pct_find over the whole record (component set), restarting after each hit"),
])
# Best first, as src/dispatch.c lists them; names it does not know go last.
IMPL_ORDER = ["avx512", "avx2", "sse42", "neon", "scalar", "neon-simde"]
PEERS = ["curl", "uriparser", "glib"]
BASELINES = ["memcpy", "read-only"]
LINE = 0          # the record "size" of one call per log line (datasets.h kLine)
SHORT = 1024      # records below this are reported in ns per call
NOISY_CV = 0.10
K64 = 64 * 1024

# The summary: one row per workload, with the targets of issue 9.
# (label, op, data set, record size, memcpy target, peer target, strict target)
# memcpy target: minimum ratio to memcpy (GB/s rows) or maximum ns per call
# (short rows); peer target: minimum ratio to the best peer; strict target:
# minimum ratio to lenient decode of the same records.
SUMMARY_COLUMNS = ["avx512", "avx2", "scalar"]
SUMMARY = [
    ("decode, paths (an escape every 20-40 bytes)", "decode", "paths", K64, 0.6, 10, None),
    ("decode, query strings", "decode", "query", K64, 0.8, 10, None),
    ("form decode (`PCT_PLUS`), query strings", "decode-plus", "query", K64, None, 10, None),
    ("decode, all-escaped UTF-8", "decode", "utf8-escaped", K64, 1.0, 10, None),
    ("decode, one call per log line", "decode", "log-lines", LINE, 0.8, None, None),
    ("decode, log lines", "decode", "log-lines", K64, None, 10, None),
    ("decode, paths", "decode", "paths", 1 << 20, None, None, None),
    ("`PCT_STRICT\\|PCT_UTF8` decode, paths", "decode-strict-utf8", "paths", K64,
     None, None, 0.8),
    ("`PCT_STRICT\\|PCT_UTF8` decode, query strings", "decode-strict-utf8", "query", K64,
     None, None, 0.8),
    ("`PCT_STRICT\\|PCT_UTF8` decode, all-escaped UTF-8", "decode-strict-utf8", "utf8-escaped",
     K64, None, None, 0.8),
    ("`PCT_STRICT\\|PCT_UTF8` decode, one call per log line", "decode-strict-utf8", "log-lines",
     LINE, None, None, 0.8),
    ("decode, one call per 24-byte string", "decode", "paths", 24, 20, None, None),
    ("decode, one call per 48-byte string", "decode", "paths", 48, 20, None, None),
    ("decode, one call per 96-byte string", "decode", "paths", 96, 20, None, None),
    ("encode, query text, component set", "encode-component", "query-text", K64, 0.5, 10, None),
    ("encode, clean paths, component set", "encode-component", "clean-paths", K64, 0.6, 10,
     None),
    ("encode, clean paths, path set (nothing to escape)", "encode-path", "clean-paths", K64,
     1.0, None, None),
    ("encode, all-escaped UTF-8 (rfc3986 set)", "encode-rfc3986", "utf8-text", K64, 0.5, 10,
     None),
    ("encode, query text, rfc3986 set", "encode-rfc3986", "query-text", K64, None, 10, None),
    ("encode, one call per 24-byte string", "encode-component", "query-text", 24, 30, None,
     None),
    ("encode, one call per 48-byte string", "encode-component", "query-text", 48, 30, None,
     None),
    ("encode, one call per 96-byte string", "encode-component", "query-text", 96, 30, None,
     None),
    ("exact encoded length, query text", "encode-length", "query-text", K64, None, None, None),
    ("validate, query strings", "validate", "query", K64, None, None, None),
    ("find, clean paths (component set)", "find", "clean-paths", K64, None, None, None),
]
# The summary rows beside a workload of the prototypes' bench (bench.sh
# --prototypes): its name there, and the least libpct / best prototype (x
# memcpy, one run) asked of the row, or None.
PROTOTYPE_ROWS = {
    ("decode", "paths", K64): ("dec-clean", None),
    ("decode", "query", K64): ("dec-query", None),
    ("decode", "utf8-escaped", K64): ("dec-japanese", None),
    ("decode", "log-lines", K64): ("dec-lines", None),
    ("encode-component", "query-text", K64): ("enc-query", 1.0),
    ("encode-component", "clean-paths", K64): ("enc-clean-comp", 1.0),
    ("encode-path", "clean-paths", K64): ("enc-clean", 1.0),
    ("encode-rfc3986", "utf8-text", K64): ("enc-japanese", 1.0),
}
# The rows of the prototypes' bench that are not prototypes.
NOT_PROTOTYPES = ("memcpy", "libpct", "libpct-strict-utf8")


def read_prototypes(path):
    """{workload: {implementation: x memcpy}} from the prototypes' bench output
    ("WORKLOAD IMPL G GB/s [..] x memcpy R [..] out N" per row)."""
    rows = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"(\S+)\s+(\S+)\s+[\d.]+ GB/s.*x memcpy\s+([\d.]+)", line)
            if m:
                rows.setdefault(m.group(1), {})[m.group(2)] = float(m.group(3))
    return rows


def prototype_ratio(protos, workload):
    """(libpct / best prototype, the best prototype's name), or (None, None)."""
    impls = protos.get(workload, {})
    best = max(((r, n) for n, r in impls.items()
                if n not in NOT_PROTOTYPES and not n.startswith("scan")), default=None)
    if best is None or "libpct" not in impls:
        return None, None
    return impls["libpct"] / best[0], best[1]


# Rows where avx2 must gain on an earlier run of the benchmark (--before: the
# results.json of a run on the code before the change), and by how much.
AVX2_GAIN = {("decode", "paths", K64): 1.3, ("decode", "query", K64): 1.3}
# The plot: (title, op, data set), one panel each; series in PLOT_SERIES.
PANELS = [
    ("decode, paths (an escape every 20-40 bytes)", "decode", "paths"),
    ("decode, query strings", "decode", "query"),
    ("decode, all-escaped UTF-8", "decode", "utf8-escaped"),
    ("encode component set, query text", "encode-component", "query-text"),
]
PLOT_SERIES = ["avx512", "avx2", "scalar"] + PEERS + ["memcpy"]


def fmt_size(n):
    if n == LINE:
        return "1 line"
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return "%d %s" % (n // div, unit)
    return "%d B" % n


def fmt_gbs(v):
    g = v / 1e9
    if g >= 100:
        return "%.0f" % g
    if g >= 10:
        return "%.1f" % g
    if g >= 1:
        return "%.2f" % g
    return "%.3f" % g


def fmt_ns(ns):
    return "%.0f" % ns if ns >= 100 else "%.1f" % ns


def fmt_ratio(r):
    return ("%.2f" % r if r < 10 else "%.1f" % r) + "x"


def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    except OSError:
        return ""


def cpuinfo():
    """The first processor's fields in /proc/cpuinfo."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break
                if ":" in line:
                    k, v = line.split(":", 1)
                    info[k.strip()] = v.strip()
    except OSError:
        pass
    return info


def machine():
    """('CPU model (family F model M; KVM guest; N CPUs; caches)', 'SIMD flags')."""
    ci = cpuinfo()
    ls = {}
    for line in run(["lscpu"]).splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            ls[k.strip()] = v.strip()
    desc = ci.get("model name") or ls.get("Model name") or platform.processor() \
        or platform.machine()
    extra = []
    if ci.get("cpu family"):
        extra.append("family %s model %s" % (ci["cpu family"], ci.get("model", "?")))
    flags = (ci.get("flags") or ci.get("Features") or "").split()
    if ls.get("Hypervisor vendor"):
        extra.append("%s guest" % ls["Hypervisor vendor"])
    elif "hypervisor" in flags:
        extra.append("virtual machine")
    extra.append("%d CPUs" % (os.cpu_count() or 1))
    caches = ["%s %s" % (k.split()[0], ls[k]) for k in
              ("L1d cache", "L2 cache", "L3 cache") if k in ls]
    if caches:
        extra.append(", ".join(caches))
    simd = [f for f in flags if re.fullmatch(
        r"sse4_2|avx|avx2|bmi2|avx512(f|bw|vl|vbmi|_vbmi2|_bitalg)|gfni|asimd|sve2?", f)]
    return "%s (%s)" % (desc, "; ".join(extra)), " ".join(simd)


def compilers(build_dir):
    """C and C++ compilers as meson found them (meson-log.txt)."""
    out = {}
    try:
        with open(os.path.join(build_dir, "meson-logs", "meson-log.txt")) as f:
            for line in f:
                m = re.match(r"(C|C\+\+) compiler for the host machine: \S+ \((.*?) \"", line)
                if m:
                    out[m.group(1)] = m.group(2)
    except OSError:
        pass
    return out


def buildtype(build_dir):
    try:
        with open(os.path.join(build_dir, "meson-info", "intro-buildoptions.json")) as f:
            for opt in json.load(f):
                if opt["name"] == "buildtype":
                    return opt["value"]
    except (OSError, ValueError, KeyError):
        pass
    return "?"


class Results:
    """The rows of one run: (op, data set, size, impl) -> median/cv/ns per call."""

    def __init__(self, path):
        with open(path) as f:
            data = json.load(f)
        self.ctx = data["context"]
        self.rows = {}
        self.errors = {}
        for b in data["benchmarks"]:
            parts = b.get("run_name", b["name"]).split("/")
            if len(parts) != 4:
                continue
            op, ds, size, impl = parts
            key = (op, ds, LINE if size == "line" else int(size), impl)
            if b.get("error_occurred"):
                self.errors[key] = b.get("error_message", "error")
                continue
            agg = b.get("aggregate_name")
            if agg is None and b.get("run_type") == "iteration":
                agg = "median"  # a run without repetitions: its only value
            row = self.rows.setdefault(key, {})
            if agg == "cv":
                row["cv"] = b.get("bytes_per_second")
            elif agg == "median":
                bps = b.get("bytes_per_second")
                row["median"] = bps
                if bps and b.get("rec_bytes"):
                    row["ns"] = b["rec_bytes"] / bps * 1e9
                if b.get("cpu_time"):
                    # > 1: the process waited for the CPU (a busy machine)
                    row["wall/cpu"] = b.get("real_time", 0) / b["cpu_time"]
        self.rows = {k: v for k, v in self.rows.items() if v.get("median")}
        keys = list(self.rows) + list(self.errors)
        named = {k[3] for k in keys if k[0] != "baseline"} - set(PEERS)
        self.impls = sorted(named, key=lambda i: (IMPL_ORDER.index(i) if i in IMPL_ORDER
                                                  else len(IMPL_ORDER), i))
        self.default = self.ctx.get("libpct_default_implementation", "scalar")
        self.built = [i for i in self.ctx.get("libpct_implementations", "").split(",") if i]

    def get(self, op, ds, size, impl, what="median"):
        r = self.rows.get((op, ds, size, impl))
        return r.get(what) if r else None

    def memcpy(self, ds, size, what="median"):
        return self.get("baseline", ds, size, "memcpy", what)

    def best(self, op, ds, size, names):
        """(bytes/s, name) of the fastest of names on this row, or (None, None)."""
        found = [(self.get(op, ds, size, n), n) for n in names]
        found = [f for f in found if f[0]]
        return max(found) if found else (None, None)

    def cell(self, op, ds, size, impl):
        """A table cell: GB/s, or ns per call for short records; '–' when absent."""
        key = (op, ds, size, impl)
        if key in self.rows:
            r = self.rows[key]
            return fmt_ns(r["ns"]) if 0 < size < SHORT and "ns" in r else fmt_gbs(r["median"])
        msg = self.errors.get(key, "not available")
        if "WRONG OUTPUT" in msg:
            return "**WRONG**"
        return "–" if "not available" in msg else "skip"


def header(res, args, comp):
    cpu, simd = machine()
    ctx = res.ctx
    load_avg = ctx.get("load_avg") or []
    return [
        "- **Machine:** %s" % cpu,
        "- **SIMD flags:** %s" % (simd or "none reported"),
        "- **Compilers:** C: %s; C++: %s (bench); buildtype=%s"
        % (comp.get("C", "?"), comp.get("C++", ctx.get("bench_compiler", "?")),
           buildtype(args.build_dir)),
        "- **libpct %s:** implementations this CPU runs: %s; dispatch picks **%s**"
        % (ctx.get("libpct_version", "?"), ", ".join(res.built) or "?", res.default),
        "- **Peers:** %s" % ctx.get("peers", "none"),
        "- **Run:** %s, %s mode, %s repetitions per row, median shown; %s; "
        "load average at start %s; google-benchmark library built as %s"
        % (ctx.get("date", "?"), args.mode, args.repetitions, args.pinned,
           " ".join("%.2f" % x for x in load_avg[:3]) or "?",
           ctx.get("library_build_type", "?")),
    ]


def full_table(res, args, comp):
    peers = [p for p in PEERS if any(k[3] == p for k in list(res.rows) + list(res.errors))]
    md = ["# libpct benchmark results\n",
          "Generated by `scripts/bench.sh%s`. Do not edit: re-run the script.\n"
          % (" --quick" if args.mode == "quick" else "")]
    md += header(res, args, comp)
    md.append("")
    md.append(
        "Figures are GB/s (10^9 bytes/s) of **input** per second of process CPU time, "
        "except rows of records under 1 KiB, which show **ns per call**. A row processes "
        "a batch of records of at most the given size, cut at character/escape/line "
        "boundaries: %s MiB of records per iteration for records of 1 KiB and more and for "
        "log lines (a corpus larger than L2, streamed as a log processor does), %s KiB for "
        "the short strings of the ns-per-call rows (cache-resident, as in a proxy); \"1 line\" "
        "is one call per log line. Outputs are appended to one buffer. `memcpy` copies the "
        "same records, `read-only` reads them once (XOR of 8-byte words). `libpct/memcpy` "
        "and `libpct/best peer` use the %s column (what dispatch picks). Peers are timed as "
        "a caller must use them: curl and GLib allocate and the row includes the free; "
        "uriparser decodes in place, so its decode rows include copying each record to a "
        "NUL-terminated buffer. Every row first checks that its output matches libpct's "
        "scalar implementation. `noise` is the largest coefficient of variation across "
        "repetitions among the row's cells; `–` is a row not measured (implementation not "
        "built or not run by this CPU: see below), `skip` a row skipped with an error, "
        "**WRONG** an implementation whose output differs from scalar's (the run fails)."
        % (int(res.ctx.get("bench_corpus_bytes", "8388608")) // (1024 * 1024),
           int(res.ctx.get("bench_hot_bytes", "65536")) // 1024, res.default))
    md.append("")
    data = sorted((k[5:], v) for k, v in res.ctx.items() if k.startswith("data:"))
    if data:
        md.append("Data sets (generated by the benchmark, deterministic):\n")
        md += ["- `%s`: %s" % (name, what) for name, what in data]
        md.append("")

    noisy = []
    for op, what in OPS.items():
        present = sorted({(k[1], k[2]) for k in list(res.rows) + list(res.errors)
                          if k[0] == op})
        if not present:
            continue
        op_peers = [p for p in peers if any(k[0] == op and k[3] == p
                                            for k in list(res.rows) + list(res.errors))]
        cols = ["data", "record"] + [("**%s**" % i if i == res.default else i)
                                     for i in res.impls] + op_peers + BASELINES
        cols.append("libpct/memcpy")
        if op == "decode-strict-utf8":
            cols.append("/plain")
        if op_peers:
            cols.append("libpct/best peer")
        cols.append("noise")
        md.append("### %s\n" % op)
        md.append("%s.\n" % what)
        md.append("| " + " | ".join(cols) + " |")
        md.append("|" + "|".join(["---"] * 2 + ["---:"] * (len(cols) - 2)) + "|")
        order = {name: i for i, (name, _) in enumerate(data)}
        present.sort(key=lambda p: (order.get(p[0], len(order)), p[0], p[1]))
        for ds, size in present:
            cells = [ds, fmt_size(size)]
            cvs = []
            for impl in res.impls + op_peers:
                cells.append(res.cell(op, ds, size, impl))
                cvs.append((res.get(op, ds, size, impl, "cv"), impl))
            for base in BASELINES:
                cells.append(res.cell("baseline", ds, size, base))
                cvs.append((res.get("baseline", ds, size, base, "cv"), base))
            mine = res.get(op, ds, size, res.default)
            memcpy = res.memcpy(ds, size)
            cells.append(fmt_ratio(mine / memcpy) if mine and memcpy else "–")
            if op == "decode-strict-utf8":
                plain = res.get("decode", ds, size, res.default)
                cells.append(fmt_ratio(mine / plain) if mine and plain else "–")
            if op_peers:
                best, who = res.best(op, ds, size, op_peers)
                cells.append("%s (%s)" % (fmt_ratio(mine / best), who)
                             if mine and best else "–")
            cvs = [c for c in cvs if c[0] is not None]
            worst = max(cvs) if cvs else None
            cells.append("%.0f%%" % (worst[0] * 100) if worst else "–")
            if worst and worst[0] > NOISY_CV:
                noisy.append(("%s/%s/%s/%s" % (op, ds, fmt_size(size), worst[1]), worst[0]))
            md.append("| " + " | ".join(cells) + " |")
        md.append("")

    # Why rows were skipped: one line per distinct reason.
    reasons = OrderedDict()
    for key, msg in sorted(res.errors.items()):
        reasons.setdefault(msg, []).append(key)
    if reasons:
        md.append("### Skipped rows\n")
        for msg, keys in reasons.items():
            ops = sorted({k[0] for k in keys})
            md.append("- %d rows (%s): %s" % (len(keys), ", ".join(ops), msg))
        md.append("")
    md.append("### Noise\n")
    measured = len(res.rows)
    if noisy:
        noisy.sort(key=lambda x: -x[1])
        md.append("%d rows had a cell with a coefficient of variation over %d%% across "
                  "repetitions; worst: %s." % (len(noisy), NOISY_CV * 100, ", ".join(
                      "%s %.0f%%" % (n, cv * 100) for n, cv in noisy[:5])))
    else:
        md.append("All %d measured cells had a coefficient of variation of at most %d%% "
                  "across repetitions." % (measured, NOISY_CV * 100))
    waited = sorted(((r["wall/cpu"], "%s/%s/%s/%s" % (k[0], k[1], fmt_size(k[2]), k[3]))
                     for k, r in res.rows.items()
                     if r.get("wall/cpu", 1) > 1.1), reverse=True)
    if waited:
        md.append("")
        md.append("%d of %d cells took over 1.1x as long in wall time as in CPU time (the "
                  "process was kept off its core: a busy machine); worst: %s."
                  % (len(waited), measured, ", ".join("%s %.1fx" % (n, w)
                                                       for w, n in waited[:3])))
    md.append("")
    return md


def verdict(ok, measured):
    return ("met" if ok else "**not met**") + " (%s)" % measured


def summary(res, args, comp, before=None, protos=None):
    impls = SUMMARY_COLUMNS
    cpu, _ = machine()
    md = ["<!-- Generated by scripts/bench.sh (bench/report.py): paste into README.md. -->",
          "",
          "Measured with `bash scripts/bench.sh%s` on **%s**, %s, %s; %s repetitions per "
          "row, medians; %s. GB/s of input (ns per call for the one-call rows); "
          "`memcpy` and the peers (%s) measured on the same records in the same run; every "
          "row first checks its output against the scalar implementation. `best libpct` is "
          "the fastest of the columns on its left; `–`: not built, not run by this CPU, or "
          "no peer does this."
          % (" --quick" if args.mode == "quick" else "", cpu, comp.get("C", "?"),
             res.ctx.get("date", "?")[:10], args.repetitions, args.pinned,
             res.ctx.get("peers", "none")),
          ""]
    cols = ["workload", "data", "record"] + impls + [
        "memcpy", "best libpct/memcpy", "best peer", "libpct/best peer", "× best prototype",
        "target", "status"]
    md.append("| " + " | ".join(cols) + " |")
    md.append("|" + "|".join(["---"] * 3 + ["---:"] * (len(cols) - 5) + ["---"] * 2) + "|")
    for label, op, ds, size, t_mem, t_peer, t_strict in SUMMARY:
        short = 0 < size < SHORT
        cells = [label, "`%s`" % ds, fmt_size(size)]
        cells += [res.cell(op, ds, size, i) for i in impls]
        cells.append(res.cell("baseline", ds, size, "memcpy"))
        mine, who = res.best(op, ds, size, impls)
        memcpy = res.memcpy(ds, size)
        cells.append("%s (%s)" % (fmt_ratio(mine / memcpy), who) if mine and memcpy else "–")
        peer, peer_who = res.best(op, ds, size, PEERS)
        cells.append("%s (%s)" % (res.cell(op, ds, size, peer_who), peer_who) if peer else "–")
        cells.append(fmt_ratio(mine / peer) if mine and peer else "–")
        workload, t_proto = PROTOTYPE_ROWS.get((op, ds, size), (None, None))
        proto, proto_who = prototype_ratio(protos or {}, workload) if workload else (None, None)
        cells.append("%s (%s, `%s`)" % (fmt_ratio(proto), proto_who, workload) if proto else "–")
        targets, status = [], []
        if t_mem is not None:
            if short:
                ns = res.get(op, ds, size, who, "ns") if mine else None
                targets.append("≤ %d ns" % t_mem)
                status.append(verdict(ns <= t_mem, "%s ns" % fmt_ns(ns)) if ns else "–")
            else:
                targets.append("≥ %.1fx memcpy" % t_mem)
                status.append(verdict(mine / memcpy >= t_mem, fmt_ratio(mine / memcpy))
                              if mine and memcpy else "–")
        if t_peer is not None:
            targets.append("≥ %gx best peer" % t_peer)
            status.append(verdict(mine / peer >= t_peer, fmt_ratio(mine / peer))
                          if mine and peer else "–")
        if t_strict is not None:
            # The same implementation's lenient decode of the same records.
            plain = res.get("decode", ds, size, who) if mine else None
            targets.append("≥ %.1fx plain decode" % t_strict)
            status.append(verdict(mine / plain >= t_strict, "%s of plain, %s"
                                  % (fmt_ratio(mine / plain), who)) if plain else "–")
        if t_proto is not None:
            targets.append("≥ %.1fx best prototype" % t_proto)
            status.append(verdict(proto >= t_proto, fmt_ratio(proto)) if proto
                          else "– (no `--prototypes` run)")
        gain = AVX2_GAIN.get((op, ds, size))
        if gain:
            now = res.get(op, ds, size, "avx2")
            then = before.get(op, ds, size, "avx2") if before else None
            targets.append("avx2 ≥ %.1fx the earlier run" % gain)
            status.append(verdict(now / then >= gain, "%s of %s GB/s" % (
                fmt_ratio(now / then), fmt_gbs(then))) if now and then
                else "– (no `--before` run)")
        cells.append("; ".join(targets) or "–")
        cells.append("; ".join(status) or "–")
        md.append("| " + " | ".join(cells) + " |")
    md.append("")
    return md


def plot_data(res, path):
    """One block per panel (gnuplot "index"), "?" where missing; columns fixed
    (scripts/plot.gp relies on them): size, then PLOT_SERIES."""
    with open(path, "w") as f:
        for title, op, ds in PANELS:
            sizes = sorted({k[2] for k in res.rows if k[0] == op and k[1] == ds})
            f.write("# %s\n" % title)
            f.write("size " + " ".join(("libpct-" + s if s in IMPL_ORDER else s)
                                       for s in PLOT_SERIES) + "\n")
            for size in sizes:
                vals = []
                for s in PLOT_SERIES:
                    v = res.memcpy(ds, size) if s == "memcpy" else res.get(op, ds, size, s)
                    vals.append("%.4f" % (v / 1e9) if v else "?")
                f.write("%d %s\n" % (size, " ".join(vals)))
            f.write("\n\n")


def write(path, lines):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json")
    ap.add_argument("--build-dir", default="build/bench")
    ap.add_argument("--markdown", required=True)
    ap.add_argument("--summary")
    ap.add_argument("--plot-data")
    ap.add_argument("--mode", default="full")
    ap.add_argument("--repetitions", default="?")
    ap.add_argument("--pinned", default="not pinned")
    ap.add_argument("--prototypes", help="the output of the prototypes' bench (bench.sh "
                    "--prototypes), for the column x best prototype")
    ap.add_argument("--before", help="results.json of an earlier run (the code before a "
                    "change), for the avx2 gain targets")
    args = ap.parse_args()

    res = Results(args.json)
    comp = compilers(args.build_dir)
    write(args.markdown, full_table(res, args, comp))
    if args.summary:
        before = Results(args.before) if args.before else None
        protos = read_prototypes(args.prototypes) if args.prototypes else None
        write(args.summary, summary(res, args, comp, before, protos))
    if args.plot_data:
        plot_data(res, args.plot_data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
