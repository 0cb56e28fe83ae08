#!/usr/bin/env bash
# scripts/fuzz.sh - build the libFuzzer targets and fuzz libpct.
#
#   bash scripts/fuzz.sh [-t SECONDS] [-j JOBS] [--build-only] [TARGET...] [-- LIBFUZZER_ARGS...]
#
# Builds the fuzz configuration in build/fuzz (clang, ASan+UBSan,
# debugoptimized, static, -Dfuzz=true: the library is compiled with
# -fsanitize=fuzzer-no-link), then runs each target (decode, encode, validate, path,
# logs, logs_files; default: all, one after the other) for SECONDS (default
# 60). Every implementation this CPU runs is compared with the scalar
# reference (tests/fuzz/fuzz.h); the log engine's output is checked line by
# line (tests/fuzz/logs_fuzz.h).
#
#   -t, --time SECONDS   how long to fuzz each target (default 60)
#   -j, --jobs N         libFuzzer -fork=N: N parallel workers per target
#   --build-only         configure and build, do not fuzz
#   TARGET               decode | encode | validate | path | logs | logs_files
#                        (or fuzz_decode, ...)
#   -- ARGS              more libFuzzer flags, e.g. -- -max_len=4096 -seed=1
#                        (defaults: -max_len=1024 -timeout=10 -rss_limit_mb=2048)
#
# The seed corpus tests/fuzz/corpus/<target>/ is only read; what a run
# learns accumulates in build/fuzz/corpus/<target>/. A crash, a deviation
# between implementations (abort) or a sanitizer report stops the target and
# is kept in build/fuzz/crashes/<target>-crash-<sha1>; reproduce it with
#   build/fuzz/tests/fuzz/fuzz_<target> build/fuzz/crashes/<file>
# and limit the comparison with PCT_FUZZ_IMPL=avx2 (or sse42, ...). The log
# targets use the dictionary tests/fuzz/logs.dict, the others pct.dict.
# Exit status: 0 if every target ran clean, 1 otherwise (2: usage).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

FUZZ_DIR=$PCT_FUZZ_DIR
FUZZ_ARGS=("${PCT_FUZZ_ARGS[@]}")
ALL_TARGETS=(decode encode validate path logs logs_files)

seconds=60
jobs=0
build_only=0
targets=()
extra=()
usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}"; }
while (($#)); do
    case $1 in
    -t | --time)
        [[ ${2:-} =~ ^[0-9]+$ ]] || {
            echo "fuzz.sh: $1 needs a number of seconds" >&2
            exit 2
        }
        seconds=$2
        shift
        ;;
    -j | --jobs)
        [[ ${2:-} =~ ^[0-9]+$ ]] || {
            echo "fuzz.sh: $1 needs a number" >&2
            exit 2
        }
        jobs=$2
        shift
        ;;
    --build-only) build_only=1 ;;
    --)
        shift
        extra=("$@")
        break
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    -*)
        echo "fuzz.sh: unknown option: $1 (try --help)" >&2
        exit 2
        ;;
    *)
        t=${1#fuzz_}
        if [[ " ${ALL_TARGETS[*]} " != *" $t "* ]]; then
            echo "fuzz.sh: unknown target: $1 (one of: ${ALL_TARGETS[*]})" >&2
            exit 2
        fi
        targets+=("$t")
        ;;
    esac
    shift
done
((${#targets[@]})) || targets=("${ALL_TARGETS[@]}")

export CC=clang CXX=clang++
if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz.sh: clang not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
    exit 1
fi
pct_meson_setup "$FUZZ_DIR" "${FUZZ_ARGS[@]}"
ninja -C "$FUZZ_DIR" "${targets[@]/#/tests/fuzz/fuzz_}"
((build_only)) && exit 0

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$FUZZ_DIR/crashes"
touch "$FUZZ_DIR/.pct-fuzz-start"
failed=()
for t in "${targets[@]}"; do
    corpus=$FUZZ_DIR/corpus/$t
    mkdir -p "$corpus"
    dict=tests/fuzz/pct.dict
    [[ $t == logs* ]] && dict=tests/fuzz/logs.dict
    args=(-max_total_time="$seconds" -rss_limit_mb=2048 -max_len=1024 -timeout=10
        -print_final_stats=1 -artifact_prefix="$FUZZ_DIR/crashes/$t-" -dict="$dict")
    ((jobs > 0)) && args+=(-fork="$jobs" -ignore_crashes=0)
    args+=("${extra[@]}")
    echo "==> fuzz_$t: ${seconds}s (corpus $corpus, seeds tests/fuzz/corpus/fuzz_$t)"
    # The first directory receives new inputs; the seed directory is only read.
    if "$FUZZ_DIR/tests/fuzz/fuzz_$t" "${args[@]}" "$corpus" "tests/fuzz/corpus/fuzz_$t"; then
        echo "<== fuzz_$t: clean"
    else
        echo "<== fuzz_$t: FAILED (see $FUZZ_DIR/crashes/)"
        failed+=("$t")
    fi
done
if ((${#failed[@]})); then
    echo "fuzz.sh: failed: ${failed[*]}; new in $FUZZ_DIR/crashes/:"
    find "$FUZZ_DIR/crashes" -type f -newer "$FUZZ_DIR/.pct-fuzz-start" -printf '  %p\n'
    exit 1
fi
echo "fuzz.sh: all clean (${targets[*]}, ${seconds}s each)"
