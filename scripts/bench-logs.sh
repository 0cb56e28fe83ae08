#!/usr/bin/env bash
# The rows' commands are in single quotes on purpose: eval expands them.
# shellcheck disable=SC2016
# scripts/bench-logs.sh - end-to-end throughput of `pct logs` on a big
# combined-format log with realistic request targets (UTF-8 paths, form
# queries, an escape every 20-40 bytes), against `cat FILE > /dev/null` (the
# floor: reading the file), two single-thread processes side by side (what
# the cores give together here), JSON output, and gzip input decompressed
# inside pct logs or by zcat in front of it. Prints a Markdown table.
#
#   bash scripts/bench-logs.sh [--size SIZE] [--runs N] [--build-dir DIR]
#
#   --size SIZE        size of the generated log (default 256M). Suffixes K,
#                      M, G (powers of 1024).
#   --runs N           rounds: every row runs once per round, in turn; a
#                      row's time is its best (default 3). A first pass,
#                      untimed, measures peak memory and warms the page cache
#   --build-dir DIR    the build to use (default build/release, configured and
#                      built like scripts/demo.sh does)
#
# The log is build/bench-logs/access-SIZE.log: a 4 MiB block of lines made by
# a seeded generator (below), repeated; its .gz (gzip -1); and a copy, the
# second process's log in the two-process row. Output goes to
# /dev/null; peak memory (max RSS) comes from /usr/bin/time when it is
# installed. GB = 1e9 bytes of the uncompressed log. This is a benchmark, not
# a test: numbers depend on the machine and its load (the load average is
# printed with the table).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

size_arg=256M
runs=3
build_dir=$PCT_RELEASE_DIR
while (($# > 0)); do
    case $1 in
    --size) size_arg=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    -h | --help) sed -n '4,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    *) echo "bench-logs.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done

to_bytes() {
    local v=$1 n unit
    n=${v%[KkMmGg]}
    unit=${v#"$n"}
    [[ $n =~ ^[0-9]+$ ]] || { echo "bench-logs.sh: bad size '$v'" >&2; exit 2; }
    case $unit in
    K | k) echo $((n << 10)) ;;
    M | m) echo $((n << 20)) ;;
    G | g) echo $((n << 30)) ;;
    *) echo "$n" ;;
    esac
}
size=$(to_bytes "$size_arg")

if [[ ! -f $build_dir/build.ninja ]]; then
    CC=gcc CXX=g++ pct_meson_setup "$build_dir" "${PCT_RELEASE_ARGS[@]}" >/dev/null
fi
ninja -C "$build_dir" tools/pct >/dev/null
PCT_BIN=$build_dir/tools/pct

# --- the log ----------------------------------------------------------------
dir=build/bench-logs
mkdir -p "$dir"
log=$dir/access-$size_arg.log
if [[ ! -f $log || $0 -nt $log || $(wc -c <"$log") -gt $size ]]; then
    echo "generating $log ($size bytes)..." >&2
    block=$dir/block.tmp
    # 4 MiB of combined-format lines. Request targets: paths of ASCII words
    # and percent-encoded UTF-8 (accented Latin, CJK, emoji), often a form
    # query (+ for spaces, escaped & = and UTF-8); an escape every 20-40
    # bytes of target on average, as in real logs of non-English sites.
    python3 - "$block" <<'PY'
import random, sys
from urllib.parse import quote, quote_plus
rng = random.Random(20261123)
words = ["news", "wiki", "search", "static", "img", "api", "v2", "users", "products", "blog",
         "2026", "index.html", "app.js", "report.pdf", "tag", "category", "summer-sale-2026",
         "checkout", "account", "settings", "assets", "thumbnails", "article-48213", "en-US"]
utf8 = ["café", "crème brûlée", "日本語", "東京", "🚀", "naïve", "São Paulo", "Ελληνικά",
        "Москва", "größe", "a/b", "50% off", "C++", "ü"]
agents = ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0 Safari/537.36",
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
          "curl/8.5.0", "python-requests/2.31.0"]
out, size = [], 0
while size < 4 << 20:
    segs = []
    for _ in range(rng.randint(1, 4)):
        w = rng.choice(words) if rng.random() < 0.93 else rng.choice(utf8)
        segs.append(quote(w, safe=""))
    target = "/" + "/".join(segs)
    if rng.random() < 0.6:
        params = []
        for _ in range(rng.randint(1, 4)):
            v = rng.choice(utf8 if rng.random() < 0.12 else words)
            v += " " + rng.choice(words) if rng.random() < 0.5 else ""
            params.append(rng.choice(["q", "page", "lang", "ref", "sort"]) + "=" + quote_plus(v))
        target += "?" + "&".join(params)
    line = '192.0.2.%d - - [14/Mar/2026:06:%02d:%02d +0000] "%s %s HTTP/1.1" %d %d "%s" "%s"\n' % (
        rng.randrange(1, 255), rng.randrange(60), rng.randrange(60), rng.choice(["GET"] * 9 + ["POST"]),
        target, rng.choice([200] * 8 + [304, 404]), rng.randrange(200, 90000),
        rng.choice(["-", "https://www.example.com/", "https://www.example.org/search?q=" + quote_plus(rng.choice(utf8))]),
        rng.choice(agents))
    out.append(line)
    size += len(line.encode())
open(sys.argv[1], "w", encoding="utf-8").write("".join(out))
PY
    block_bytes=$(wc -c <"$block")
    : >"$log"
    for ((have = 0; have + block_bytes <= size; have += block_bytes)); do
        cat "$block" >>"$log"
    done
    rm -f "$block"
    rm -f "$log.gz"
fi
if [[ ! -f $log.gz ]]; then
    echo "compressing $log.gz (gzip -1)..." >&2
    gzip -1 -c "$log" >"$log.gz"
fi
copy=$dir/access-$size_arg.copy.log
if [[ ! -f $copy || $log -nt $copy ]]; then
    cp "$log" "$copy"
fi
# Rotated logs: the log cut in four, each quarter gzipped (access.log.2.gz
# ... as logrotate leaves them), read in one run.
quarters=()
for q in 1 2 3 4; do
    quarters+=("$dir/access-$size_arg.part$q.gz")
done
if [[ ! -f ${quarters[3]} || $log -nt ${quarters[3]} ]]; then
    echo "cutting $log into four gzip files..." >&2
    qlines=$((($(wc -l <"$log") + 3) / 4))
    split -l "$qlines" -d -a 1 "$log" "$dir/access-$size_arg.part"
    for q in 0 1 2 3; do
        gzip -1 -c "$dir/access-$size_arg.part$q" >"${quarters[q]}"
        rm -f "$dir/access-$size_arg.part$q"
    done
fi
# As one word for the commands (no spaces in these names): bash -c below
# cannot see an array.
quarter_files="${quarters[*]}"
# One line as long as the log: its newlines turned into spaces (a line
# longer than --max-line is streamed through, never held whole).
oneline=$dir/access-$size_arg.oneline.log
if [[ ! -f $oneline || $log -nt $oneline ]]; then
    { tr '\n' ' ' <"$log"; echo; } >"$oneline"
fi
bytes=$(wc -c <"$log")
lines=$(wc -l <"$log")
[[ -s $log ]] || { echo "bench-logs.sh: --size is below one 4 MiB block" >&2; exit 2; }
# Escapes per byte of request target, to show the log is what it claims.
density=$(head -c 4194304 "$log" | awk -F'"' '{ t = $2; sub(/^[A-Z]+ /, "", t); sub(/ HTTP\/1\.1$/, "", t);
    n += length(t); e += gsub(/%[0-9A-Fa-f][0-9A-Fa-f]/, "", t) } END { printf "%.0f", n / (e ? e : 1) }')

# --- measuring ----------------------------------------------------------------
# Each row: a label, the bytes it processes, and a command line run with eval
# in this shell, so that pipes and '&' run as typed and no extra shell, date
# or time process is in the time (starting one costs ~5 ms on some VMs). The
# clock is bash's $EPOCHREALTIME. The time includes starting the commands.
labels=() sizes=() cmds=()
add_row() { labels+=("$1"); sizes+=("$2"); cmds+=("$3"); }

add_row "cat FILE > /dev/null (floor)" "$bytes" 'cat "$log"'
add_row "pct logs --threads 1" "$bytes" '"$PCT_BIN" logs --threads 1 "$log"'
# The same with the format fixed: auto-detection (the default) must cost
# next to nothing on a combined log.
add_row "pct logs --threads 1 --format combined" "$bytes" \
    '"$PCT_BIN" logs --threads 1 --format combined "$log"'
add_row "pct logs --threads 2" "$bytes" '"$PCT_BIN" logs --threads 2 "$log"'
# What 2 cores give at best here: two independent single-thread runs side by
# side (twice the bytes), each on a log of its own (two copies), as two
# separate logs would be. On a VM whose vCPUs share host cores this is well
# under 2x, and it bounds what --threads 2 can reach.
add_row "2 x pct logs --threads 1 at once (2-core ceiling)" "$((2 * bytes))" \
    '"$PCT_BIN" logs --threads 1 "$log" & "$PCT_BIN" logs --threads 1 "$copy"; wait'
add_row "pct logs --threads 1 --json" "$bytes" '"$PCT_BIN" logs --threads 1 --json "$log"'
add_row "pct logs --threads 1 --tsv" "$bytes" '"$PCT_BIN" logs --threads 1 --tsv "$log"'
add_row "cat FILE | pct logs --threads 1 (pipe)" "$bytes" 'cat "$log" | "$PCT_BIN" logs --threads 1'
add_row "pct logs --threads 1 --csv" "$bytes" '"$PCT_BIN" logs --threads 1 --csv "$log"'
add_row "cat ONE-LINE | pct logs --threads 1 (one line, pipe)" "$bytes" \
    'cat "$oneline" | "$PCT_BIN" logs --threads 1'
add_row "pct logs --threads 1 Q1.gz Q2.gz Q3.gz Q4.gz" "$bytes" \
    '"$PCT_BIN" logs --threads 1 $quarter_files'
add_row "pct logs --threads 2 Q1.gz Q2.gz Q3.gz Q4.gz" "$bytes" \
    '"$PCT_BIN" logs --threads 2 $quarter_files'
add_row "zcat FILE.gz | pct logs" "$bytes" 'zcat "$log.gz" | "$PCT_BIN" logs'
add_row "pct logs FILE.gz" "$bytes" '"$PCT_BIN" logs "$log.gz"'
add_row "zcat FILE.gz > /dev/null (gzip's own speed)" "$bytes" 'zcat "$log.gz"'
nrows=${#cmds[@]}

# Peak memory: one run of each row under /usr/bin/time when it is installed
# (the largest of a row's processes). This pass also warms the page cache.
export PCT_BIN log copy oneline quarter_files
peak=()
for ((i = 0; i < nrows; i++)); do
    if [[ -x /usr/bin/time ]]; then
        kb=$(/usr/bin/time -f %M bash -c "${cmds[i]}" 2>&1 >/dev/null | tail -n 1)
        peak+=("$((kb / 1024)) MiB")
    else
        eval "${cmds[i]}" >/dev/null 2>&1
        peak+=(-)
    fi
done

# The rows take turns, round after round, so that a change in the machine's
# speed during the run (frequent on VMs) is spread over all of them; a row's
# time is its best. rounds[r] keeps round r's times, for the paired ratios.
cores=$(nproc 2>/dev/null || echo 1)
echo "measuring (best of $runs rounds)..." >&2
best=() rounds=()
for ((r = 0; r < runs; r++)); do
    times=()
    for ((i = 0; i < nrows; i++)); do
        t0=${EPOCHREALTIME//[.,]/}
        eval "${cmds[i]}" >/dev/null 2>&1
        t1=${EPOCHREALTIME//[.,]/}
        us=$((t1 - t0))
        ((us > 0)) || us=1
        times+=("$us")
        if ((r == 0 || us < best[i])); then
            best[i]=$us
        fi
    done
    rounds+=("${times[*]}")
    echo "  round $((r + 1)): ${times[*]} (us)" >&2
done

row_index() {
    local i
    for ((i = 0; i < nrows; i++)); do
        [[ ${labels[i]} == "$1" ]] && { echo "$i"; return; }
    done
    echo "bench-logs.sh: no row '$1'" >&2
    exit 1
}
one=$(row_index "pct logs --threads 1")

# paired_ratio A B: the median over rounds of (GB/s of row A) / (GB/s of row B),
# both from the same round.
paired_ratio() {
    local a b r t
    a=$(row_index "$1")
    b=$(row_index "$2")
    for r in "${rounds[@]}"; do
        read -ra t <<<"$r"
        awk -v ta="${t[a]}" -v tb="${t[b]}" -v ma="${sizes[a]}" -v mb="${sizes[b]}" \
            'BEGIN { printf "%.4f\n", (ma / ta) / (mb / tb) }'
    done | sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (rounds: %.2f to %.2f)", m, v[1], v[NR] }'
}

rows=()
for ((i = 0; i < nrows; i++)); do
    gbps=$(awk -v m="${sizes[i]}" -v t="${best[i]}" 'BEGIN { printf "%.3f", m / t / 1000 }')
    speedup=-
    # Throughput relative to one thread (rows may process more bytes).
    if [[ ${labels[i]} == *pct\ logs* ]]; then
        speedup=$(awk -v a="${best[one]}" -v b="${best[i]}" -v m="${sizes[i]}" -v n="${sizes[one]}" \
            'BEGIN { printf "%.2fx", (m / b) / (n / a) }')
    fi
    rows+=("$(printf '| %-52s | %9d | %11s | %6s | %8s |' "${labels[i]}" $((best[i] / 1000)) \
        "$gbps" "$speedup" "${peak[i]}")")
done
echo
printf 'pct logs on %s: %d lines, %d.%03d GB, an escape every %s bytes of target; %d cores; load average %s\n' \
    "$log" "$lines" $((bytes / 1000000000)) $((bytes / 1000000 % 1000)) "$density" "$cores" \
    "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo
printf '| %-52s | %9s | %11s | %6s | %8s |\n' command "time ms" "GB/s" speedup "max RSS"
echo "|------------------------------------------------------|----------:|------------:|-------:|---------:|"
printf '%s\n' "${rows[@]}"
echo
echo "Paired, median of the rounds (GB/s over GB/s, both rows from the same round):"
echo "- pct logs --threads 2 / 2 x pct logs --threads 1: $(paired_ratio "pct logs --threads 2" "2 x pct logs --threads 1 at once (2-core ceiling)")"
echo "- pct logs --threads 1 --json / pct logs --threads 1: $(paired_ratio "pct logs --threads 1 --json" "pct logs --threads 1")"
echo "- pct logs --threads 1 --tsv / pct logs --threads 1: $(paired_ratio "pct logs --threads 1 --tsv" "pct logs --threads 1")"
echo "- one line through a pipe / cat FILE | pct logs (the time ratio is the inverse): $(paired_ratio "cat ONE-LINE | pct logs --threads 1 (one line, pipe)" "cat FILE | pct logs --threads 1 (pipe)")"
echo "- four .gz files, --threads 2 / --threads 1: $(paired_ratio "pct logs --threads 2 Q1.gz Q2.gz Q3.gz Q4.gz" "pct logs --threads 1 Q1.gz Q2.gz Q3.gz Q4.gz")"
echo "- pct logs FILE.gz / zcat FILE.gz | pct logs: $(paired_ratio "pct logs FILE.gz" "zcat FILE.gz | pct logs")"
