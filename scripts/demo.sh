#!/usr/bin/env bash
# scripts/demo.sh - build libpct (release, build/release) and show the pct CLI at work.
#
#   bash scripts/demo.sh [--no-install]
#
# As root, missing Debian packages are installed first (see scripts/lib.sh).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install=1
for arg in "$@"; do
    case $arg in
    --no-install) install=0 ;;
    *)
        echo "demo.sh: unknown option: $arg" >&2
        exit 2
        ;;
    esac
done

if ! pct_ensure_packages "$install"; then
    ((install == 0)) || exit 1
fi

# --- build ------------------------------------------------------------------
echo "== build ($PCT_RELEASE_DIR)"
# Quiet unless something fails.
quietly() {
    local out
    if ! out=$("$@" 2>&1); then
        printf '%s\n' "$out"
        echo "demo.sh: failed: $*" >&2
        exit 1
    fi
}
if [[ ! -f $PCT_RELEASE_DIR/build.ninja ]]; then
    # Same configuration as the gcc step of scripts/test.sh, so both reuse it.
    CC=gcc CXX=g++ quietly pct_meson_setup "$PCT_RELEASE_DIR" "${PCT_RELEASE_ARGS[@]}"
fi
quietly ninja -C "$PCT_RELEASE_DIR"
PCT_BIN=$PCT_RELEASE_DIR/tools/pct
[[ -x $PCT_BIN ]] || {
    echo "demo.sh: $PCT_BIN was not built" >&2
    exit 1
}
echo "built $PCT_BIN"

# --- helpers ----------------------------------------------------------------
unexpected=0

# Shows an argument the way a user would type it.
shell_word() {
    if [[ $1 =~ ^[A-Za-z0-9_./=:@,-]+$ ]]; then
        printf '%s' "$1"
    else
        printf "'%s'" "${1//\'/\'\\\'\'}"
    fi
}

show_cmd() {
    local a line='$ pct'
    for a in "$@"; do
        line+=" $(shell_word "$a")"
    done
    echo "$line"
}

# pct_ordered ARGS...: runs pct, printing its stdout, then its stderr (so the
# error reports come after the output, whatever the buffering).
pct_ordered() {
    local err rc=0
    { err=$("$PCT_BIN" "$@" 2>&1 >&3 3>&-); } 3>&1 || rc=$?
    [[ -z $err ]] || printf '%s\n' "$err"
    return "$rc"
}

# run ARGS...: an example that should succeed.
run() {
    show_cmd "$@"
    local rc=0
    pct_ordered "$@" </dev/null || rc=$?
    if ((rc != 0)); then
        echo "(exit status $rc: unexpected)"
        unexpected=$((unexpected + 1))
    elif [[ $1 == validate ]]; then
        echo "(exit status 0)" # validate prints nothing
    fi
}

# run_fail ARGS...: an example whose point is the error report (exit status 1).
run_fail() {
    show_cmd "$@"
    local rc=0
    pct_ordered "$@" </dev/null || rc=$?
    echo "(exit status $rc)"
    if ((rc != 1)); then
        echo "(expected exit status 1)"
        unexpected=$((unexpected + 1))
    fi
}

heading() {
    echo
    echo "== $1"
}

# --- examples ---------------------------------------------------------------
heading "Version"
run --version

heading "Encoding"
run encode 'café menu & drinks'
run encode --set path '/über uns/a b'
run encode --plus --set form 'q=1+1 ≡ 2'

heading "Decoding"
run decode 'caf%C3%A9+menu'
run decode --plus 'caf%C3%A9+menu'
run decode --percent-u '%u00E9t%u00E9 %uD83D%uDE00'
echo "# strict mode: a malformed escape is reported on stderr, the line passes through unchanged"
run_fail decode --strict 'bad%zz'
echo "# without STRINGs, stdin is processed line by line"
printf '%s\n' "\$ printf 'ok%%20line\\nbad%%zz\\n' | pct decode --strict"
rc=0
printf 'ok%%20line\nbad%%zz\n' | pct_ordered decode --strict || rc=$?
echo "(exit status $rc)"
((rc == 1)) || unexpected=$((unexpected + 1))

heading "Normalizing (RFC 3986: upper-case hex, unreserved bytes decoded)"
run normalize '/%7euser/%2fetc/%41'

heading "Validating"
run validate --set component 'caf%C3%A9%20menu%20%26%20drinks'
run_fail validate --set component 'café menu & drinks'

# --- the sample access log --------------------------------------------------
LOG=data/sample-access.log
heading "Decoding $LOG with pct logs (first lines)"
echo "# only the request target is decoded: path per segment (%2F stays), query as a form;"
echo "# decoded control characters are escaped (\\n, \\x1b), so one line in is one line out"
echo "\$ head -n 10 $LOG | pct logs"
stats=build/demo/logs-stats.txt
mkdir -p build/demo
# The first lines are fed to pct (a reader that closes the pipe early would
# make pct report the closed pipe, as it must).
head -n 10 "$LOG" | "$PCT_BIN" logs
echo "\$ pct logs --stats $LOG > /dev/null"
rc=0
"$PCT_BIN" logs --stats "$LOG" >/dev/null 2>"$stats" || rc=$?
cat "$stats"
if ((rc != 0)) || [[ $("$PCT_BIN" logs "$LOG" | wc -l) -ne $(wc -l <"$LOG") ]]; then
    echo "(unexpected: exit status $rc, or not one output line per input line)"
    unexpected=$((unexpected + 1))
fi
echo "\$ head -n 2 $LOG | pct logs --json"
head -n 2 "$LOG" | "$PCT_BIN" logs --json

FORMATS=data/sample-formats.log
heading "Other formats in one file ($FORMATS), found line by line"
echo "# vhost_combined, X-Forwarded-For, Envoy, HAProxy, AWS ALB/ELB/CloudFront, Squid, JSON lines..."
echo "\$ pct logs --tsv --header --fields format,remote,method,path,query,status $FORMATS"
rc=0
"$PCT_BIN" logs --tsv --header --fields format,remote,method,path,query,status "$FORMATS" || rc=$?
echo "\$ pct logs --strict-format --stats $FORMATS > /dev/null   # lines per format"
"$PCT_BIN" logs --strict-format --stats "$FORMATS" >/dev/null 2>"$stats" || rc=$?
grep -E '^(format|unparsed)' "$stats"
if ((rc != 0)); then
    echo "(unexpected: exit status $rc)"
    unexpected=$((unexpected + 1))
fi

heading "Throughput"
big=build/demo/sample-access-100MB.log
log_size=$(wc -c <"$LOG")
copies=$(((100000000 + log_size - 1) / log_size))
want=$((copies * log_size))
if [[ ! -f $big || $LOG -nt $big || $(wc -c <"$big") -ne $want ]]; then
    for ((i = 0; i < copies; i++)); do cat "$LOG"; done >"$big"
fi
# Best of 3 runs (the first one also warms the page cache), with --stats
# reporting the tool's own timing; all cores.
best=
for _ in 1 2 3; do
    rc=0
    "$PCT_BIN" logs --stats "$big" >/dev/null 2>"$stats" || rc=$?
    if ((rc != 0)); then
        echo "(exit status $rc: unexpected)"
        unexpected=$((unexpected + 1))
        break
    fi
    gbps=$(sed -n 's/^throughput: *\([0-9.]*\) GB\/s/\1/p' "$stats")
    if [[ -z $best ]] || awk -v a="$gbps" -v b="$best" 'BEGIN { exit !(a > b) }'; then best=$gbps; fi
done
printf 'pct logs --stats: %d lines, %d.%d MB (%s x %d): %s GB/s (best of 3, %s cores)\n' \
    $((copies * $(wc -l <"$LOG"))) $((want / 1000000)) $((want / 100000 % 10)) "$LOG" "$copies" \
    "${best:-?}" "$(nproc 2>/dev/null || echo '?')"
echo "(scripts/bench-logs.sh compares with cat, two processes and zcat | pct logs)"

if ((unexpected > 0)); then
    echo
    echo "demo.sh: $unexpected example(s) did not behave as expected" >&2
    exit 1
fi
