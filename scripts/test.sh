#!/usr/bin/env bash
# scripts/test.sh - build and test libpct in every configuration CI checks.
#
#   bash scripts/test.sh [--quick] [--no-install]
#
# Steps (each in its own build directory, so re-runs are incremental):
#   format  clang-format --dry-run --Werror over src/ include/ tools/ tests/ bench/ examples/
#           bindings/
#   gcc     gcc release build, -Dwerror=true                       build/release
#   clang   clang build, -Dwerror=true                             build/clang
#   asan    gcc ASan+UBSan, debugoptimized, -Dwerror=true          build/asan
#           (PCT_TEST_QUICK=1: the loops shortened, as under qemu)
#   fuzz    clang libFuzzer targets, ASan+UBSan, each run          build/fuzz
#           $PCT_FUZZ_SECONDS (default 20) s on a copy of its seed corpus
#   python  the pct Python package installed offline in a venv      build/python
#           (bindings/python), its pytest suite
#   arm64   aarch64 cross build, tests under qemu-user             build/arm64
#   i386    i686 cross build (32-bit x86: no AVX-512), the tests   build/i386
#           run natively where the kernel runs i386 programs, else
#           under qemu-i386
#   s390x   big-endian s390x cross build, the scalar                build/s390x
#           implementation's unit tests under qemu-user (shortened)
#   tsan    clang ThreadSanitizer build; the `pct logs` tests that  build/tsan
#           run many threads on small chunks
#   nginx   contrib/nginx/build.sh, then Debian's nginx with the    build/nginx
#           module on 127.0.0.1: against `pct path`
#           (tests/nginx/test_nginx.py), and routing on the path it
#           forwards (tests/nginx/test_routing.py)
#   syslog-ng  contrib/syslog-ng/build.sh, then Debian's syslog-ng   build/syslog-ng
#           with the module on 127.0.0.1: lines of every format over
#           UDP and TCP against `pct logs --json`, the template
#           functions against pct decode/encode/path, Debian's haproxy
#           and nginx logging to it over syslog
#           (tests/syslog-ng/test_syslog_ng.py)
#   realservers  `pct logs` on the logs Debian's nginx, apache2,      build/realservers
#           haproxy (+ rsyslog), squid, lighttpd and varnish write on
#           127.0.0.1 for a seeded corpus of hard requests
#           (tests/realservers/run.py; PCT_TEST_SEED replays a run); a
#           check that fails because of a known defect is XFAIL
#           (counted as skipped; tests/realservers/known_defects.py)
#

#   release what users and packagers get (scripts/test-release.sh): the
#           install of build/release run from a scratch prefix, man pages,
#           bash completion, pkg-config, CMake find_package, libpct as a
#           meson subproject (static and shared), the .debs
#
#   --quick       skip the clang, fuzz, arm64, i386, s390x and tsan steps
#                 and the .deb build (fast local loop)
#   --no-install  never install packages (as root, missing Debian packages are
#                 otherwise installed with apt-get)
#
# Every step runs even if an earlier one failed. The last line of output is
# "tests: N passed, M failed[, K skipped]"; the exit status is non-zero iff
# M > 0 or N == 0 (nothing passed). A step that cannot configure or build counts as
# one failed test; skipped tests are never counted as passed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
# shellcheck source=scripts/test-release.sh
source scripts/test-release.sh

quick=0
install=1
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    --no-install) install=0 ;;
    -h | --help)
        sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}"
        exit 0
        ;;
    *)
        echo "test.sh: unknown option: $arg (try --help)" >&2
        exit 2
        ;;
    esac
done

QEMU_AARCH64=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
QEMU_I386=(qemu-i386 -L /usr/i686-linux-gnu)
QEMU_S390X=(qemu-s390x -L /usr/s390x-linux-gnu)

# ---------------------------------------------------------------------------
# Bookkeeping
# ---------------------------------------------------------------------------
total_pass=0
total_fail=0
total_skip=0
summary=()      # one line per step
failed_tests=() # step/name (RESULT)
skipped_tests=()
done_=0

print_total() {
    local line="tests: $total_pass passed, $total_fail failed"
    ((total_skip > 0)) && line+=", $total_skip skipped"
    echo "$line"
}

on_exit() {
    local rc=$?
    if ((done_ == 0)); then
        # Something outside the steps went wrong: still end with the totals line.
        echo "test.sh: aborted (exit status $rc)"
        total_fail=$((total_fail + 1))
        print_total
        exit 1
    fi
}
trap on_exit EXIT

# record STEP PASSED FAILED SKIPPED MILLISECONDS [NOTE]
record() {
    local step=$1 p=$2 f=$3 s=$4 ms=$5 note=${6:-}
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    total_skip=$((total_skip + s))
    local line
    line=$(printf '  %-7s %3d passed, %2d failed' "$step" "$p" "$f")
    ((s > 0)) && line+=$(printf ', %d skipped' "$s")
    line+="  ($(pct_fmt_ms "$ms"))"
    [[ -n $note ]] && line+="  $note"
    summary+=("$line")
    echo
    echo "<== $step: $p passed, $f failed$( ((s > 0)) && printf ', %d skipped' "$s")" \
        "($(pct_fmt_ms "$ms"))${note:+ - $note}"
}

banner() {
    echo
    echo "==> $1"
}

# count_testlog STEP FILE: prints "P F S", then "FAIL name (RESULT)" / "SKIP name" lines.
count_testlog() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
step, path = sys.argv[1], sys.argv[2]
p = f = s = 0
details = []
with open(path, encoding="utf-8", errors="replace") as fh:
    for line in fh:
        line = line.strip()
        if not line:
            continue
        try:
            t = json.loads(line)
        except ValueError:
            f += 1
            details.append("FAIL %s/(unreadable testlog line)" % step)
            continue
        res, name = t.get("result", "?"), t.get("name", "?")
        if res in ("OK", "EXPECTEDFAIL"):
            p += 1
        elif res == "SKIP":
            s += 1
            details.append("SKIP %s/%s" % (step, name))
        else:  # FAIL, TIMEOUT, ERROR, UNEXPECTEDPASS, INTERRUPT, ...
            f += 1
            details.append("FAIL %s/%s (%s)" % (step, name, res))
print(p, f, s)
print("\n".join(details))
EOF
}

# take_counts COUNTS: COUNTS as count_testlog prints it ("P F S", then FAIL
# and SKIP lines); sets the caller's p, f and s, and files the lines.
take_counts() {
    local line
    read -r p f s <<<"${1%%$'\n'*}"
    while IFS= read -r line; do
        case $line in
        FAIL\ *) failed_tests+=("${line#FAIL }") ;;
        SKIP\ *) skipped_tests+=("${line#SKIP }") ;;
        esac
    done < <(tail -n +2 <<<"$1")
}

# ---------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------

# meson_step STEP DIR [meson setup args...]
# Uses the caller's environment (CC, CXX, sanitizer options...) and the array
# test_args (extra `meson test` arguments).
meson_step() {
    local step=$1 dir=$2
    shift 2
    local t0 p=0 f=0 s=0 note='' rc=0 counts
    t0=$(pct_now_ms)
    if ! pct_meson_setup "$dir" "$@"; then
        f=1 note="configure failed"
    elif ! ninja -C "$dir"; then
        f=1 note="build failed"
    else
        rm -f "$dir/meson-logs/testlog.json"
        meson test -C "$dir" --no-rebuild --print-errorlogs "${test_args[@]}" || rc=$?
        if [[ -s $dir/meson-logs/testlog.json ]]; then
            if counts=$(count_testlog "$step" "$dir/meson-logs/testlog.json"); then
                take_counts "$counts"
            else
                f=1 note="could not read $dir/meson-logs/testlog.json"
            fi
        elif ((rc == 0)); then
            note="no tests defined"
        fi
        if ((rc != 0 && f == 0)); then
            # meson test failed without a failing test (e.g. it could not start).
            f=1 note="meson test exited with status $rc"
        fi
    fi
    [[ $f -gt 0 && -n $note ]] && failed_tests+=("$step ($note)")
    record "$step" "$p" "$f" "$s" $(($(pct_now_ms) - t0)) "$note"
}

step_format() {
    banner "format: clang-format --dry-run --Werror"
    local t0 dirs=() files=() bad=() d f out
    t0=$(pct_now_ms)
    for d in src include tools tests bench examples contrib bindings; do
        [[ -d $d ]] && dirs+=("$d")
    done
    if ((${#dirs[@]})); then
        mapfile -t files < <(find "${dirs[@]}" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' \) |
            LC_ALL=C sort)
    fi
    if ((${#files[@]} == 0)); then
        echo "no C sources yet"
        skipped_tests+=("format/clang-format (no files)")
        record format 0 0 1 $(($(pct_now_ms) - t0))
        return
    fi
    if ! command -v clang-format >/dev/null 2>&1; then
        failed_tests+=("format/clang-format (clang-format not installed)")
        record format 0 1 0 $(($(pct_now_ms) - t0)) "clang-format not installed"
        return
    fi
    for f in "${files[@]}"; do
        if ! out=$(clang-format --dry-run --Werror "$f" 2>&1); then
            bad+=("$f")
            printf '%s\n' "$out" | head -n 12
        fi
    done
    echo "$(clang-format --version): ${#files[@]} files checked, ${#bad[@]} not formatted"
    if ((${#bad[@]})); then
        echo "fix with: clang-format -i ${bad[*]}"
        failed_tests+=("format/clang-format (${#bad[@]} files not formatted)")
        record format 0 1 0 $(($(pct_now_ms) - t0)) "not formatted: ${bad[*]}"
    else
        record format 1 0 0 $(($(pct_now_ms) - t0))
    fi
}

step_gcc() {
    banner "gcc: release build, -Dwerror=true ($PCT_RELEASE_DIR)"
    local -x CC=gcc CXX=g++
    local test_args=()
    meson_step gcc "$PCT_RELEASE_DIR" "${PCT_RELEASE_ARGS[@]}"
}

step_clang() {
    banner "clang: clang build, -Dwerror=true (build/clang)"
    local -x CC=clang CXX=clang++
    local test_args=()
    meson_step clang build/clang -Dbuildtype=release -Dwerror=true
}

step_asan() {
    banner "asan: gcc ASan+UBSan, debugoptimized, -Dwerror=true (build/asan)"
    local -x CC=gcc CXX=g++
    # meson 1.0 does not fail a test on a UBSan report unless it halts.
    local -x UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    local -x ASAN_OPTIONS=detect_leaks=1
    # The gcc and clang steps run the loops in full; under the sanitizers
    # (several times slower) a sixteenth of them keeps the run short.
    local -x PCT_TEST_QUICK=1
    local test_args=(--timeout-multiplier 3)
    meson_step asan build/asan -Db_sanitize=address,undefined -Dbuildtype=debugoptimized \
        -Dwerror=true
}

step_fuzz() {
    banner "fuzz: clang libFuzzer targets, ASan+UBSan, ${PCT_FUZZ_SECONDS:-20}s each ($PCT_FUZZ_DIR)"
    local -x CC=clang CXX=clang++
    local -x UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    local -x PCT_FUZZ_SECONDS=${PCT_FUZZ_SECONDS:-20}
    # Only the fuzz suite: the unit tests already ran under ASan (asan step).
    local test_args=(--suite fuzz)
    meson_step fuzz "$PCT_FUZZ_DIR" "${PCT_FUZZ_ARGS[@]}"
}

step_arm64() {
    banner "arm64: aarch64 cross build, tests under qemu-user (build/arm64)"
    # The cross file names the aarch64 compilers; CC/CXX are for the build machine.
    local -x CC=gcc CXX=g++
    # Unit tests shrink their iteration counts; scripts that run the (aarch64)
    # pct binary themselves prefix it with PCT_EXE_WRAPPER.
    local -x PCT_TEST_QUICK=1
    local -x PCT_EXE_WRAPPER="${QEMU_AARCH64[*]}"
    local test_args=(--timeout-multiplier 5)
    # No pkg-config in the cross file: google-benchmark is never found; the
    # benchmarks (C++) are disabled so no aarch64 g++ is needed.
    meson_step arm64 build/arm64 --cross-file cross/aarch64-linux-gnu.ini \
        -Dbuildtype=release -Dwerror=true -Dbench=disabled
}

# i386 (Debian's i386, 32-bit x86): where this x86_64 kernel runs an i386
# program (IA-32 emulation), the tests run natively (cross/run-natively.ini),
# else under qemu-i386 (the cross file's exe_wrapper).
step_i386() {
    banner "i386: i686 cross build, tests natively or under qemu-i386 (build/i386)"
    local -x CC=gcc CXX=g++
    local -x PCT_TEST_QUICK=1
    local extra=() probe=build/i386-probe
    mkdir -p build
    if printf 'int main(void) { return sizeof(void *) == 4 ? 0 : 1; }\n' |
        i686-linux-gnu-gcc -x c - -o "$probe" 2>/dev/null && "./$probe" 2>/dev/null; then
        echo "i386 programs run natively here"
        extra=(--cross-file cross/run-natively.ini)
        local -x PCT_EXE_WRAPPER=
    else
        echo "i386 programs run under qemu-i386"
        local -x PCT_EXE_WRAPPER="${QEMU_I386[*]}"
    fi
    rm -f "$probe"
    local test_args=(--timeout-multiplier 5)
    meson_step i386 build/i386 --cross-file cross/i686-linux-gnu.ini "${extra[@]}" \
        -Dbuildtype=release -Dwerror=true -Dbench=disabled
}

# s390x: a big-endian target, built in full, the scalar implementation's
# unit tests run under qemu-s390x with the loops shortened (the other
# implementations are x86 or ARM only; SIMDe's NEON emulation is not built
# for big-endian hosts: src/meson.build).
step_s390x() {
    banner "s390x: big-endian cross build, the scalar unit tests under qemu-user (build/s390x)"
    local -x CC=gcc CXX=g++
    local -x PCT_TEST_QUICK=1 PCT_TEST_IMPL=scalar
    local -x PCT_EXE_WRAPPER="${QEMU_S390X[*]}"
    local test_args=(--timeout-multiplier 5 --suite unit)
    meson_step s390x build/s390x --cross-file cross/s390x-linux-gnu.ini \
        -Dbuildtype=release -Dwerror=true -Dbench=disabled
}

step_tsan() {
    banner "tsan: clang ThreadSanitizer, the pct logs thread tests (build/tsan)"
    local -x CC=clang CXX=clang++
    # A report fails the run (exit status 66), hence the test that ran it.
    local -x TSAN_OPTIONS="halt_on_error=1 exitcode=66"
    local test_args=(--timeout-multiplier 5 cli-logs-threads cli-logs-blocks cli-logs-sample
        cli-logs-faults-changes cli-logs-faults-compressed cli-logs-faults-outputs)
    meson_step tsan build/tsan -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debugoptimized \
        -Dwerror=true -Dbench=disabled
}

# The Python package (bindings/python): installed offline, as its README
# says, into a venv of Debian's /usr/bin/python3 (whose site packages hold
# meson-python, pytest and Dask), then its pytest suite: the urllib.parse
# drop-ins against urllib, the batch calls, pct.logs.read and python -m
# pct.dask (LocalCluster; dask scheduler and worker processes on 127.0.0.1:
# faults, and without --quick a 1 GiB log) against the pct tool of the gcc
# step, and (test_install) an editable install and an sdist installed in new
# venvs. The meson build directory (build/python/meson) is kept between runs.
step_python() {
    banner "python: the pct package installed offline in a venv, its pytest suite (build/python)"
    local t0 dir=build/python note='' p=0 f=0 s=0 counts
    t0=$(pct_now_ms)
    local PCT_PACKAGES=(python3-venv python3-pip python3-dev python3-mesonpy python3-pytest python3-build
        python3-distributed python3-dask python3-pandas python3-mypy)
    mkdir -p "$dir"
    if ! pct_ensure_packages "$install"; then
        f=1 note="missing Debian packages"
    elif [[ ! -x $PCT_RELEASE_DIR/tools/pct ]]; then
        f=1 note="no $PCT_RELEASE_DIR/tools/pct (gcc step)"
    elif ! { [[ -x $dir/venv/bin/python ]] ||
        /usr/bin/python3 -m venv --system-site-packages "$dir/venv"; }; then
        f=1 note="venv failed"
    elif ! {
        # meson-python 0.12 reconfigures a given build directory whenever its
        # native file (in the source tree) is unchanged: without a configured
        # one, drop that file so that it configures afresh
        [[ -f $dir/meson/meson-private/coredata.dat ]] ||
            rm -f bindings/python/.mesonpy-native-file.ini
        "$dir/venv/bin/pip" install --no-build-isolation --no-index --no-deps --force-reinstall \
            --config-settings=setup-args=-Dwerror=true --config-settings="builddir=$PWD/$dir/meson" \
            bindings/python >"$dir/pip.log" 2>&1
    }; then
        tail -n 40 "$dir/pip.log"
        f=1 note="pip install failed (see $dir/pip.log)"
    else
        rm -f "$dir/junit.xml"
        # the 1 GiB python -m pct.dask run (test_dask_scale.py): not with --quick
        (cd "$dir" && PCT_CLI="$OLDPWD/$PCT_RELEASE_DIR/tools/pct" PCT_TEST_DASK_SCALE=$((quick ? 0 : 1)) \
            venv/bin/python -m pytest \
            -p no:cacheprovider -q -rs --junitxml=junit.xml "$OLDPWD/bindings/python/tests") || true
        if counts=$(python3 - "$dir/junit.xml" <<'EOF'
import sys
import xml.etree.ElementTree as ET
p = f = s = 0
details = []
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    name = case.get("classname", "") + "." + case.get("name", "")
    if case.find("failure") is not None or case.find("error") is not None:
        f += 1
        details.append("FAIL python/" + name)
    elif case.find("skipped") is not None:
        s += 1
        details.append("SKIP python/" + name)
    else:
        p += 1
print(p, f, s)
print("\n".join(details))
EOF
        ); then
            take_counts "$counts"
        else
            f=1 note="pytest wrote no readable $dir/junit.xml"
        fi
    fi
    [[ $f -gt 0 && -n $note ]] && failed_tests+=("python ($note)")
    record python "$p" "$f" "$s" $(($(pct_now_ms) - t0)) "$note"
}

step_nginx() {
    banner "nginx: the module in Debian's nginx, on 127.0.0.1 (build/nginx)"
    local t0 p=0 f=0 note='' out counts script
    t0=$(pct_now_ms)
    if ! out=$(bash contrib/nginx/build.sh build/nginx 2>&1); then
        printf '%s\n' "$out"
        f=1 note="module build failed"
    elif [[ ! -x $PCT_RELEASE_DIR/tools/pct ]]; then
        f=1 note="no $PCT_RELEASE_DIR/tools/pct (gcc step)"
    else
        # test_nginx.py: the module against `pct path`; test_routing.py:
        # nginx routes on the path it forwards.
        local module=$PWD/build/nginx/ngx_http_pct_module.so
        for script in test_nginx test_routing; do
            echo "-- tests/nginx/$script.py"
            if [[ $script == test_nginx ]]; then
                out=$(timeout 600 python3 tests/nginx/test_nginx.py "$module" \
                    "$PCT_RELEASE_DIR/tools/pct" 2>&1) || true
            else
                out=$(timeout 600 python3 tests/nginx/test_routing.py "$module" 2>&1) || true
            fi
            printf '%s\n' "$out"
            counts=$(tail -n 1 <<<"$out")
            if [[ $counts =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
                p=$((p + BASH_REMATCH[1])) f=$((f + BASH_REMATCH[2]))
                ((BASH_REMATCH[2] > 0)) && failed_tests+=("nginx/$script.py")
            else
                f=$((f + 1)) note+="$script.py did not finish; "
                failed_tests+=("nginx/$script.py (did not finish)")
            fi
        done
    fi
    [[ $note == "module build failed" || $note == "no $PCT_RELEASE_DIR/tools/pct (gcc step)" ]] &&
        failed_tests+=("nginx ($note)")
    record nginx "$p" "$f" 0 $(($(pct_now_ms) - t0)) "${note%; }"
}

# The syslog-ng module (contrib/syslog-ng): built by its build.sh against
# Debian's syslog-ng-dev, then Debian's syslog-ng (in the foreground, a private
# configuration, 127.0.0.1) parses lines of every format sent over UDP and TCP
# (tests/syslog-ng/test_syslog_ng.py, against `pct logs --json`): under a minute
# with the first build of the engine in build/syslog-ng, 5 s after.
step_syslog_ng() {
    banner "syslog-ng: the module in Debian's syslog-ng, on 127.0.0.1 (build/syslog-ng)"
    local t0 p=0 f=0 note='' out counts
    t0=$(pct_now_ms)
    local PCT_PACKAGES=(syslog-ng-core syslog-ng-dev syslog-ng-scl)
    if ! pct_ensure_packages "$install"; then
        f=1 note="missing Debian packages"
    elif ! out=$(bash contrib/syslog-ng/build.sh build/syslog-ng 2>&1); then
        printf '%s\n' "$out"
        f=1 note="module build failed"
    elif [[ ! -x $PCT_RELEASE_DIR/tools/pct ]]; then
        f=1 note="no $PCT_RELEASE_DIR/tools/pct (gcc step)"
    else
        out=$(timeout 300 python3 tests/syslog-ng/test_syslog_ng.py build/syslog-ng \
            "$PCT_RELEASE_DIR/tools/pct" 2>&1) || true
        printf '%s\n' "$out"
        counts=$(tail -n 1 <<<"$out")
        if [[ $counts =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
            p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
            ((f > 0)) && failed_tests+=("syslog-ng/test_syslog_ng.py")
        else
            f=1 note="tests/syslog-ng/test_syslog_ng.py did not finish"
        fi
    fi
    [[ -n $note ]] && failed_tests+=("syslog-ng ($note)")
    record syslog-ng "$p" "$f" 0 $(($(pct_now_ms) - t0)) "$note"
}

# tests/realservers/run.py prints one line per check (PASS, FAIL, XFAIL,
# XPASS) and last "N passed, M failed, K skipped"; XFAIL is skipped, XPASS
# failed.
step_realservers() {
    banner "realservers: pct logs on the logs of real servers on 127.0.0.1 (build/realservers)"
    local t0 p=0 f=0 s=0 note='' out counts line
    t0=$(pct_now_ms)
    if [[ ! -x $PCT_RELEASE_DIR/tools/pct ]]; then
        f=1 note="no $PCT_RELEASE_DIR/tools/pct (gcc step)"
        failed_tests+=("realservers ($note)")
    else
        local rsyslogd modules
        if rsyslogd=$(pct_unpacked_rsyslogd build/realservers-rsyslog); then
            modules=$(dirname "$(ls -d build/realservers-rsyslog/root/usr/lib/*/rsyslog/imudp.so)")
        else
            rsyslogd=/usr/sbin/rsyslogd modules= # the run says what is missing
        fi
        out=$(PCT_RSYSLOGD=$rsyslogd PCT_RSYSLOG_MODULES=$modules timeout 300 /usr/bin/python3 \
            tests/realservers/run.py "$PCT_RELEASE_DIR/tools/pct" build/realservers 2>&1) || true
        printf '%s\n' "$out"
        counts=$(tail -n 1 <<<"$out")
        if [[ $counts =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
            p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
            while IFS= read -r line; do
                if [[ $line =~ ^XFAIL\ \(([^\)]*)\)\ ([^:]*): ]]; then
                    skipped_tests+=("realservers/${BASH_REMATCH[2]} (XFAIL: ${BASH_REMATCH[1]})")
                elif [[ $line =~ ^XPASS\ ([^\(]*)\ \( ]]; then
                    failed_tests+=("realservers/${BASH_REMATCH[1]} (XPASS)")
                elif [[ $line =~ ^FAIL\ +([^:]*) ]]; then
                    failed_tests+=("realservers/${BASH_REMATCH[1]}")
                fi
            done < <(grep -E '^(FAIL|XPASS|XFAIL) ' <<<"$out")
        else
            f=1 note="tests/realservers/run.py did not finish"
            failed_tests+=("realservers ($note)")
        fi
    fi
    record realservers "$p" "$f" "$s" $(($(pct_now_ms) - t0)) "$note"
}

skipped_step() {
    summary+=("$(printf '  %-7s skipped (%s)' "$1" "$2")")
    echo
    echo "==> $1: skipped ($2)"
}

# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------
unset PCT_EXE_WRAPPER PCT_TEST_QUICK
start_ms=$(pct_now_ms)

banner "packages"
if ! pct_ensure_packages "$install"; then
    if ((install == 1)); then
        # Not root (or apt-get failed): say what is needed and stop.
        failed_tests+=("packages (missing Debian packages, see above)")
        record packages 0 1 0 $(($(pct_now_ms) - start_ms)) "missing Debian packages"
        echo
        echo "test.sh: install the packages above, or run with --no-install to try anyway"
        done_=1
        print_total
        exit 1
    fi
    echo "--no-install: continuing; steps that need the missing packages will fail"
else
    echo "all needed packages are installed"
fi
echo "$(meson --version 2>/dev/null | sed 's/^/meson /') | $(gcc --version 2>/dev/null | head -n 1)" \
    "| $(clang --version 2>/dev/null | head -n 1) | $(nproc 2>/dev/null || echo ?) cores" || true

step_format
step_gcc
step_release
step_python
if ((quick)); then skipped_step clang --quick; else step_clang; fi
step_asan
if ((quick)); then skipped_step fuzz --quick; else step_fuzz; fi
if ((quick)); then skipped_step arm64 --quick; else step_arm64; fi
if ((quick)); then skipped_step i386 --quick; else step_i386; fi
if ((quick)); then skipped_step s390x --quick; else step_s390x; fi
if ((quick)); then skipped_step tsan --quick; else step_tsan; fi
step_nginx
step_syslog_ng
step_realservers

echo
echo "== summary ($(pct_fmt_ms $(($(pct_now_ms) - start_ms))) in all)"
printf '%s\n' "${summary[@]}"
if ((${#failed_tests[@]})); then
    echo "failed:"
    printf '  %s\n' "${failed_tests[@]}"
fi
if ((${#skipped_tests[@]})); then
    echo "skipped:"
    printf '  %s\n' "${skipped_tests[@]}"
fi
if ((total_pass == 0 && total_fail == 0)); then
    echo "test.sh: no test passed (none ran): failing"
fi
done_=1
print_total
((total_fail == 0 && total_pass > 0))
