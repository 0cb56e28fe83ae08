#!/usr/bin/env python3
"""bench/report.py - turn one google-benchmark JSON run of bench_pct into the
markdown table (docs/bench/table.md) and the data for the throughput plot.

    python3 bench/report.py RESULT.json --build-dir build/bench \
        --markdown docs/bench/table.md --plot-data build/bench/plot.dat [--mode quick]

Every figure is the median over the run's repetitions (aggregate "median"),
in GB/s (1e9 bytes) of *input*. Ratios are taken between rows of the same
process run: libpct/memcpy divides by the memcpy of the same records, so the
baseline shared the machine's state with the row it judges. Standard library
only.
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
    ("encode-component", "pct_encode, component set (encodeURIComponent bytes)"),
    ("encode-path", "pct_encode, path set"),
    ("encode-form", "pct_encode, form set + PCT_PLUS (application/x-www-form-urlencoded)"),
    ("encode-rfc3986", "pct_encode, rfc3986 set (all but A-Z a-z 0-9 - . _ ~); "
                       "peers: curl_easy_escape, uriEscapeExA, g_uri_escape_bytes"),
    ("encode-length", "pct_encode_length, component set"),
    ("find", "pct_find over the whole record (component set), restarting after each hit"),
    ("decode", "pct_decode, lenient; peers: curl_easy_unescape, "
               "uriUnescapeInPlaceExA, g_uri_unescape_bytes"),
    ("decode-plus", "pct_decode PCT_PLUS; peer: uriUnescapeInPlaceExA(plusToSpace)"),
    ("decode-strict-utf8", "pct_decode PCT_STRICT|PCT_UTF8"),
    ("decode-except", "pct_decode_except, keep = #$&+,/:;=?@ (JavaScript decodeURI)"),
    ("normalize", "pct_normalize"),
    ("validate", "pct_validate: *.enc against the component set, "
                 "access-log against C0 controls + non-ASCII (minus LF)"),
])
DATASETS = ["clean", "query", "japanese", "binary",
            "clean.enc", "query.enc", "japanese.enc", "binary.enc", "access-log"]
PEERS = ["curl", "uriparser", "glib"]
BASELINES = ["memcpy", "read-only"]
# The plot: (title, op, data set), one panel each.
PANELS = [
    ("encode rfc3986, query text", "encode-rfc3986", "query"),
    ("encode rfc3986, Japanese", "encode-rfc3986", "japanese"),
    ("decode, query text (encoded)", "decode", "query.enc"),
    ("decode, access log", "decode", "access-log"),
]
NOISY_CV = 0.10


def fmt_size(n):
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return "%d %s" % (n // div, unit)
    return "%d B" % n


def fmt_gbs(v):
    if v is None:
        return ""
    g = v / 1e9
    if g >= 100:
        return "%.0f" % g
    if g >= 10:
        return "%.1f" % g
    if g >= 1:
        return "%.2f" % g
    return "%.3f" % g


def fmt_ratio(r):
    if r is None:
        return ""
    return "%.2f" % r if r < 10 else "%.1f" % r


def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    except OSError:
        return ""


def machine():
    """CPU model, family/model, hypervisor, cores, SIMD flags (lscpu, /proc/cpuinfo)."""
    info = {}
    for line in run(["lscpu"]).splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            info[k.strip()] = v.strip()
    model = info.get("Model name", "")
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    flags = info.get("Flags", "").split()
    simd = [f for f in flags if re.fullmatch(
        r"sse4_2|avx|avx2|bmi2|avx512(f|bw|vl|vbmi|_vbmi2|_bitalg)|gfni|asimd|sve2?", f)]
    desc = model or platform.processor() or platform.machine()
    extra = []
    if info.get("CPU family"):
        extra.append("family %s model %s" % (info["CPU family"], info.get("Model", "?")))
    if info.get("Hypervisor vendor"):
        extra.append("%s guest" % info["Hypervisor vendor"])
    if info.get("CPU(s)"):
        extra.append("%s CPUs" % info["CPU(s)"])
    caches = ["%s %s" % (k.split()[0], info[k]) for k in
              ("L1d cache", "L2 cache", "L3 cache") if k in info]
    if caches:
        extra.append(", ".join(caches))
    if extra:
        desc += " (" + "; ".join(extra) + ")"
    return desc, " ".join(simd)


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


def load(path):
    with open(path) as f:
        data = json.load(f)
    rows = {}     # (op, data set, size, impl) -> {"median": bytes/s, "cv": ...}
    errors = {}   # (op, data set, size, impl) -> message
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"])
        parts = name.split("/")
        if len(parts) != 4:
            continue
        op, ds, size, impl = parts
        key = (op, ds, int(size), impl)
        if b.get("error_occurred"):
            errors[key] = b.get("error_message", "error")
            continue
        agg = b.get("aggregate_name")
        if agg is None and b.get("run_type") == "iteration":
            agg = "median"  # a run without repetitions: its only value
        if agg in ("median", "cv"):
            rows.setdefault(key, {})[agg] = b.get("bytes_per_second")
        if agg == "median" and b.get("cpu_time"):
            # > 1: the process waited for the CPU (a busy machine)
            rows[key]["wall/cpu"] = b.get("real_time", 0) / b["cpu_time"]
    return data["context"], rows, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json")
    ap.add_argument("--build-dir", default="build/bench")
    ap.add_argument("--markdown", required=True)
    ap.add_argument("--plot-data")
    ap.add_argument("--mode", default="full")
    ap.add_argument("--repetitions", default="?")
    ap.add_argument("--pinned", default="not pinned")
    args = ap.parse_args()

    ctx, rows, errors = load(args.json)
    impls = [i for i in ctx.get("libpct_implementations", "").split(",") if i]
    default = ctx.get("libpct_default_implementation", impls[0] if impls else "scalar")
    peers = [p for p in PEERS if any(k[3] == p for k in list(rows) + list(errors))]
    sizes = sorted({k[2] for k in list(rows) + list(errors)})

    def median(op, ds, size, impl):
        r = rows.get((op, ds, size, impl))
        return r.get("median") if r else None

    cpu, simd = machine()
    comp = compilers(args.build_dir)
    load_avg = ctx.get("load_avg") or []
    md = []
    md.append("# libpct benchmark results\n")
    md.append("Generated by `scripts/bench.sh%s` on %s. Do not edit: re-run the script.\n"
              % (" --quick" if args.mode == "quick" else "", ctx.get("date", "?")))
    md.append("- **CPU:** %s" % cpu)
    md.append("- **SIMD flags:** %s" % (simd or "none reported"))
    md.append("- **Compilers:** C: %s; C++: %s (bench); buildtype=%s"
              % (comp.get("C", "?"), comp.get("C++", ctx.get("bench_compiler", "?")),
                 buildtype(args.build_dir)))
    md.append("- **libpct %s:** implementations here: %s; dispatch picks **%s**"
              % (ctx.get("libpct_version", "?"), ", ".join(impls) or "?", default))
    md.append("- **Peers:** %s" % ctx.get("peers", "none"))
    md.append("- **Run:** %s mode, %s repetitions per row, median shown; %s; "
              "load average at start %s; google-benchmark library built as %s"
              % (args.mode, args.repetitions, args.pinned,
                 " ".join("%.2f" % x for x in load_avg[:3]) or "?",
                 ctx.get("library_build_type", "?")))
    md.append("")
    md.append("Figures are GB/s (10^9 bytes/s) of **input** per second of process CPU time "
              "(google-benchmark's default; equal to wall time on a quiet machine). A row processes a batch of "
              "records of at most the given size, cut at character/escape boundaries, "
              "about %s KiB per iteration (one record for larger sizes); outputs are "
              "appended to one buffer. `memcpy` copies the same records, `read-only` "
              "reads them once (XOR of 8-byte words): together the physical limit. "
              "`libpct/memcpy` and `libpct/best peer` use the %s column (what dispatch "
              "picks). Peers are timed as a caller must use them: curl and GLib allocate "
              "and the row includes the free; uriparser decodes in place, so its decode "
              "rows include copying each record to a NUL-terminated buffer. Every row "
              "first checks that its output matches libpct's scalar implementation; "
              "empty cells are rows that were skipped (reasons below) or do not apply."
              % (int(ctx.get("bench_batch_bytes", "65536")) // 1024, default))
    md.append("")

    # Column headers.
    impl_cols = [default] + [i for i in impls if i != default]
    head = ["data", "size"]
    head += ["**libpct %s**" % default if i == default else i for i in impl_cols]
    noisy = []
    for op, what in OPS.items():
        present = [k for k in list(rows) + list(errors) if k[0] == op]
        if not present:
            continue
        op_peers = [p for p in peers if any(k[3] == p for k in present)]
        cols = head + op_peers + BASELINES + ["libpct/memcpy"]
        if op_peers:
            cols.append("libpct/best peer")
        md.append("### %s\n" % op)
        md.append("%s.\n" % what)
        md.append("| " + " | ".join(cols) + " |")
        md.append("|" + "|".join(["---"] * 2 + ["---:"] * (len(cols) - 2)) + "|")
        for ds in DATASETS:
            for size in sizes:
                if not any(k[1] == ds and k[2] == size for k in present):
                    continue
                cells = [ds, fmt_size(size)]
                for impl in impl_cols + op_peers:
                    v = median(op, ds, size, impl)
                    cells.append(fmt_gbs(v) if v else ("skip" if (op, ds, size, impl) in errors
                                                       else ""))
                    r = rows.get((op, ds, size, impl))
                    if r and r.get("cv") and r["cv"] > NOISY_CV:
                        noisy.append(("%s/%s/%d/%s" % (op, ds, size, impl), r["cv"]))
                for base in BASELINES:
                    cells.append(fmt_gbs(median("baseline", ds, size, base)))
                mine = median(op, ds, size, default)
                memcpy = median("baseline", ds, size, "memcpy")
                cells.append(fmt_ratio(mine / memcpy) if mine and memcpy else "")
                if op_peers:
                    best = max(((median(op, ds, size, p) or 0, p) for p in op_peers))
                    cells.append("%s (%s)" % (fmt_ratio(mine / best[0]), best[1])
                                 if mine and best[0] else "")
                md.append("| " + " | ".join(cells) + " |")
        md.append("")

    # Why rows were skipped: one line per distinct reason.
    reasons = OrderedDict()
    for key, msg in sorted(errors.items()):
        reasons.setdefault(msg, []).append(key)
    if reasons:
        md.append("### Skipped rows\n")
        for msg, keys in reasons.items():
            ops = sorted({k[0] for k in keys})
            dss = sorted({k[1] for k in keys})
            md.append("- %d rows (%s; data %s): %s" % (len(keys), ", ".join(ops),
                                                        ", ".join(dss), msg))
        md.append("")
    md.append("### Noise\n")
    measured = len(rows)
    if noisy:
        noisy.sort(key=lambda x: -x[1])
        md.append("%d of %d rows had a coefficient of variation over %d%% across repetitions; "
                  "worst: %s." % (len(noisy), measured, NOISY_CV * 100,
                                   ", ".join("%s %.0f%%" % (n, cv * 100) for n, cv in noisy[:5])))
    else:
        md.append("All %d rows had a coefficient of variation of at most %d%% across "
                  "repetitions." % (measured, NOISY_CV * 100))
    waited = sorted(((r["wall/cpu"], "/".join(map(str, k))) for k, r in rows.items()
                     if r.get("wall/cpu", 1) > 1.1), reverse=True)
    if waited:
        md.append("")
        md.append("%d of %d rows took over 1.1x as long in wall time as in CPU time (the "
                  "process was kept off its core: a busy machine); worst: %s."
                  % (len(waited), measured, ", ".join("%s %.1fx" % (n, w) for w, n in waited[:3])))
    md.append("")

    os.makedirs(os.path.dirname(os.path.abspath(args.markdown)), exist_ok=True)
    with open(args.markdown, "w") as f:
        f.write("\n".join(md))

    # Plot data: one block per panel (gnuplot "index"), "?" where missing.
    if args.plot_data:
        # Fixed columns (plot.gp relies on them): a column with no data is all "?".
        series = [default, "scalar" if default != "scalar" else "-"] + PEERS + ["memcpy"]
        with open(args.plot_data, "w") as f:
            for title, op, ds in PANELS:
                f.write("# %s\n" % title)
                f.write("size " + " ".join(
                    "libpct-" + s if s in impls else s for s in series) + "\n")
                for size in sizes:
                    vals = []
                    for s in series:
                        v = median("baseline", ds, size, s) if s == "memcpy" else \
                            median(op, ds, size, s)
                        vals.append("%.4f" % (v / 1e9) if v else "?")
                    f.write("%d %s\n" % (size, " ".join(vals)))
                f.write("\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
