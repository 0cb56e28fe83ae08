#!/usr/bin/env bash
# scripts/bench.sh - build a release with the benchmark suite, run it pinned to
# one core, and write docs/bench/table.md (every row), docs/bench/summary.md
# (one row per workload with its target, for the README; also printed) and
# docs/bench/throughput.png.
#
#   bash scripts/bench.sh [--quick] [--no-install] [--repetitions N]
#                         [--min-time SECONDS] [--filter REGEX] [--cpu N]
#
#   --quick        3 repetitions of 0.02 s per row (about 2 minutes, build
#                  included): checks the pipeline; rough numbers
#   (default)      9 repetitions of 0.05 s per row (about 8 minutes on a quiet
#                  machine; longer in wall time when other work shares it)
#   --repetitions, --min-time   override the mode's values
#   --filter RE    only the rows matching RE (google-benchmark --benchmark_filter);
#                  the table then covers only those rows
#   --cpu N        the core to pin the benchmark to (default 1, else 0)
#   --before FILE  the results.json of an earlier run (e.g. of the code before
#                  a kernel change, copied out of build/bench): the summary
#                  then checks the avx2 gain targets against it
#   --prototypes DIR  standalone prototypes of the kernels' jobs with a bench
#                  of their own (DIR/Makefile builds DIR/bench against a
#                  libpct.a: make PCT=SRC LIB=LIB; DIR/gen_corpus.py OUT SIZE
#                  writes its corpus; DIR/bench CORPUS REPS prints one row per
#                  workload and implementation with its "x memcpy"): a copy
#                  is built against this build and run after bench_pct, and
#                  the summary gets a column "x best prototype" (libpct's x
#                  memcpy over the best prototype's, from that one run)
#   --no-install   never install packages (as root, missing Debian packages are
#                  otherwise installed with apt-get)
#
# Build: build/bench (buildtype=release, -Dbench=enabled). Raw results:
# build/bench/results.json (medians and CVs over the repetitions, google-
# benchmark JSON), console log build/bench/console.txt. Every figure in the
# table comes from that one JSON, so memcpy and libpct were measured in the same
# process run. Run it on a quiet machine: it warns when the load average says
# otherwise.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

quick=0
install=1
reps=
min_time=
filter=
cpu=
before=
prototypes=
report_args=()
while (($#)); do
    case $1 in
    --quick) quick=1 ;;
    --no-install) install=0 ;;
    --repetitions) reps=${2:?--repetitions needs a number}; shift ;;
    --min-time) min_time=${2:?--min-time needs seconds}; shift ;;
    --filter) filter=${2:?--filter needs a regex}; shift ;;
    --cpu) cpu=${2:?--cpu needs a core number}; shift ;;
    --before) before=${2:?--before needs a results.json}; shift ;;
    --prototypes) prototypes=${2:?--prototypes needs a directory}; shift ;;
    -h | --help)
        sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}"
        exit 0
        ;;
    *)
        echo "bench.sh: unknown option: $1 (try --help)" >&2
        exit 2
        ;;
    esac
    shift
done
if ((quick)); then
    mode=quick
    : "${reps:=3}" "${min_time:=0.02}"
else
    mode=full
    : "${reps:=9}" "${min_time:=0.05}"
fi

BUILD=build/bench
OUT=docs/bench
start_ms=$(pct_now_ms)

# ---------------------------------------------------------------------------
# Packages: the build and google-benchmark are required; the peers and
# gnuplot are optional (without them: no peer columns, no PNG).
# ---------------------------------------------------------------------------
required=(meson ninja-build pkg-config gcc g++ libbenchmark-dev python3)
optional=(libcurl4-openssl-dev liburiparser-dev libglib2.0-dev gnuplot-nox)
PCT_PACKAGES=("${required[@]}")
if ! pct_ensure_packages "$install"; then
    echo "bench.sh: the packages above are required" >&2
    exit 1
fi
if command -v dpkg-query >/dev/null 2>&1; then
    mapfile -t missing < <(pct_missing_packages "${optional[@]}")
    if ((${#missing[@]})); then
        if ((install)) && [[ $(id -u) == 0 ]]; then
            PCT_PACKAGES=("${optional[@]}")
            pct_ensure_packages 1 || pct_log "warning: optional packages not installed: ${missing[*]}"
        else
            pct_log "note: optional packages missing: ${missing[*]}"
            pct_log "      (peer libraries and the plot are left out; install them with:"
            pct_log "       sudo apt-get install --no-install-recommends ${missing[*]})"
        fi
    fi
fi

# ---------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------
pct_meson_setup "$BUILD" -Dbuildtype=release -Dbench=enabled -Dtests=disabled
# Re-detect the optional peers (they may have been installed since).
meson setup --reconfigure "$BUILD" >"$BUILD/reconfigure.log" 2>&1 ||
    { cat "$BUILD/reconfigure.log" >&2; exit 1; }
ninja -C "$BUILD" bench/bench_pct
build_ms=$(pct_now_ms)

# ---------------------------------------------------------------------------
# Run
# ---------------------------------------------------------------------------
ncpu=$(nproc 2>/dev/null || echo 1)
if [[ -z $cpu ]]; then
    cpu=1
    ((ncpu > 1)) || cpu=0
fi
pin=()
pinned="not pinned"
if command -v taskset >/dev/null 2>&1 && taskset -c "$cpu" true 2>/dev/null; then
    pin=(taskset -c "$cpu")
    pinned="pinned to core $cpu (taskset)"
else
    pct_log "warning: cannot pin to core $cpu (taskset missing or core not allowed): not pinned"
fi

# Warns when the 1-minute load average exceeds $1 (our own process adds ~1).
check_load() {
    local limit=$1 when=$2 load
    read -r load _ </proc/loadavg || return 0
    if awk -v l="$load" -v m="$limit" 'BEGIN { exit !(l > m) }'; then
        pct_log "WARNING: load average $load $when (> $limit on $ncpu cores): other work is" \
            "running, the figures will be noisy. Re-run on a quiet machine for numbers to publish."
    fi
}
check_load 0.5 "before the run"
if [[ -n ${PCT_IMPL:-} ]]; then
    pct_log "note: ignoring PCT_IMPL=$PCT_IMPL (the benchmark selects implementations itself)"
fi

args=(
    --benchmark_repetitions="$reps"
    --benchmark_report_aggregates_only=true
    --benchmark_enable_random_interleaving=true
    --benchmark_min_time="$min_time" # 1.7.1: a plain number of seconds
    --benchmark_out="$BUILD/results.json"
    --benchmark_out_format=json
)
[[ -z $filter ]] || args+=(--benchmark_filter="$filter")
echo "bench.sh: $mode mode: $reps repetitions x ${min_time}s per row, $pinned"
echo "bench.sh: rows run interleaved at random (fairer against drift), so results print" \
    "only once every row has all its repetitions; full log: $BUILD/console.txt"
# Rows are interleaved at random (fairer against drift); show medians and
# errors, but not the rows of implementations not here (once per repetition;
# the table lists them).
set +e
env -u PCT_IMPL "${pin[@]}" "$BUILD/bench/bench_pct" "${args[@]}" 2>&1 |
    tee "$BUILD/console.txt" | grep --line-buffered -E '_median |ERROR OCCURRED|WRONG' |
    grep --line-buffered -v ': not available: ' | sed -u 's/ \{2,\}/  /g'
rc=${PIPESTATUS[0]}
set -e
# Exit status 1 with WRONG OUTPUT rows: write the report (they are marked in
# it), then fail. Anything else is a crash or a usage error: fail now.
wrong=$(grep -c 'WRONG OUTPUT' "$BUILD/console.txt" || true)
if ((rc != 0)) && ! ((rc == 1 && wrong > 0)); then
    echo "bench.sh: bench_pct failed (exit status $rc); see $BUILD/console.txt" >&2
    exit 1
fi
# The prototypes' own bench, on the same machine right after: libpct beside
# them in one process (its rows), so their ratio is a same-run figure.
if [[ -n $prototypes ]]; then
    [[ -f $prototypes/Makefile && -f $prototypes/gen_corpus.py ]] ||
        { echo "bench.sh: --prototypes $prototypes: no Makefile and gen_corpus.py there" >&2; exit 2; }
    rm -rf "$BUILD/prototypes"
    cp -r "$prototypes" "$BUILD/prototypes" # the directory may be read-only
    ninja -C "$BUILD" libpct.a >/dev/null
    make -B -C "$BUILD/prototypes" PCT="$PWD" LIB="$PWD/$BUILD/libpct.a" bench \
        >"$BUILD/prototypes-build.log" 2>&1 ||
        { cat "$BUILD/prototypes-build.log" >&2; echo "bench.sh: the prototypes do not build" >&2; exit 1; }
    [[ -d $BUILD/prototypes-corpus ]] ||
        python3 "$BUILD/prototypes/gen_corpus.py" "$BUILD/prototypes-corpus" 8388608 >/dev/null
    echo "bench.sh: the prototypes' bench ($reps rounds)"
    env -u PCT_IMPL "${pin[@]}" "$BUILD/prototypes/bench" "$BUILD/prototypes-corpus" "$reps" |
        tee "$BUILD/prototypes.txt"
    report_args+=(--prototypes "$BUILD/prototypes.txt")
fi
run_ms=$(pct_now_ms)
check_load 1.5 "at the end of the run"

# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
mkdir -p "$OUT"
[[ -z $before ]] || report_args+=(--before "$before")
python3 bench/report.py "$BUILD/results.json" --build-dir "$BUILD" \
    --markdown "$OUT/table.md" --summary "$OUT/summary.md" --plot-data "$BUILD/plot.dat" \
    --mode "$mode" --repetitions "$reps" --pinned "$pinned" "${report_args[@]}"
echo
cat "$OUT/summary.md"
echo

if command -v gnuplot >/dev/null 2>&1; then
    cpu_name=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
    # "gcc 12.2.0", as meson found the C compiler
    cc_name=$(sed -n 's/^C compiler for the host machine: [^(]*(\([^"]*\) ".*/\1/p' \
        "$BUILD/meson-logs/meson-log.txt" | tail -n1)
    subtitle="${cpu_name:-$(uname -m)}, ${cc_name}, $(date -u +%Y-%m-%d), $mode mode"
    # A series with no data (an implementation not built) only warns: keep
    # gnuplot's messages in a log, shown when it fails.
    if gnuplot -e "datafile='$BUILD/plot.dat'; outfile='$OUT/throughput.png'; subtitle='${subtitle//\'/}'" \
        scripts/plot.gp 2>"$BUILD/gnuplot.log"; then
        echo "bench.sh: wrote $OUT/summary.md, $OUT/table.md and $OUT/throughput.png"
    else
        cat "$BUILD/gnuplot.log" >&2
        echo "bench.sh: wrote $OUT/summary.md and $OUT/table.md; gnuplot failed" \
            "(rows filtered out?): no new plot"
    fi
else
    echo "bench.sh: wrote $OUT/summary.md and $OUT/table.md (no gnuplot: no plot;" \
        "apt-get install gnuplot-nox)"
fi
end_ms=$(pct_now_ms)
echo "bench.sh: build $(pct_fmt_ms $((build_ms - start_ms))), run $(pct_fmt_ms $((run_ms - build_ms))), report $(pct_fmt_ms $((end_ms - run_ms))), total $(pct_fmt_ms $((end_ms - start_ms)))"
if ((rc != 0)); then
    echo "bench.sh: FAILED: some implementation's output differs from the scalar" \
        "implementation (rows marked WRONG in $OUT/table.md; details in $BUILD/console.txt)" >&2
    exit 1
fi
