# shellcheck shell=bash disable=SC2034
# scripts/lib.sh - shared by scripts/test.sh and scripts/demo.sh (source it, don't run it).

# Debian 12 packages the build, the tests and the demo need.
# libc6-dev-*-cross is only a Recommends of gcc-*-linux-gnu, so it is named here.
PCT_PACKAGES=(
    meson ninja-build pkg-config gcc g++ clang libclang-rt-14-dev clang-format python3 nodejs
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libsimde-dev libbenchmark-dev
    # i386 (run natively or under qemu-i386) and s390x (big-endian, under qemu-s390x)
    gcc-i686-linux-gnu libc6-dev-i386-cross gcc-s390x-linux-gnu libc6-dev-s390x-cross
    cmake groff-base bash-completion dpkg-dev debhelper fakeroot lintian
    # pct logs: compressed input (the CLI only), and the tools its tests make files with
    libisal-dev zlib1g-dev libzstd-dev gzip zstd xz-utils bzip2
    # the nginx module (contrib/nginx): Debian's nginx, and its configure script and headers
    nginx-light nginx-dev
    # the realservers step: pct logs on the logs these servers write (tests/realservers),
    # each run from a private config on free ports of 127.0.0.1, never as a service. Their
    # postinst starts the services unless /usr/sbin/policy-rc.d exits 101 (Debian's container
    # images have one: nothing starts); the step needs none of them, nor port 80
    # rsyslog is unpacked, not installed (pct_unpacked_rsyslogd): it conflicts with the
    # syslog-ng the syslog-ng step needs; these are its libraries
    apache2 haproxy squid lighttpd varnish libestr0 libfastjson4 liblognorm5
)

# The release build: one configuration shared by test.sh (gcc step) and demo.sh.
PCT_RELEASE_DIR=build/release
PCT_RELEASE_ARGS=(-Dbuildtype=release -Dwerror=true)
# The libFuzzer configuration (clang), shared by the fuzz step of test.sh and
# by fuzz.sh so both reuse build/fuzz.
PCT_FUZZ_DIR=build/fuzz
PCT_FUZZ_ARGS=(-Dfuzz=true "-Db_sanitize=address,undefined" -Db_lundef=false
    -Ddefault_library=static -Dbench=disabled -Dbuildtype=debugoptimized -Dwerror=true)

pct_log() { printf '%s\n' "$*" >&2; }

# pct_unpacked_rsyslogd DIR
# Prints the path of an rsyslogd that tests can run: Debian's rsyslog package
# unpacked under DIR (downloaded once: apt-get download, dpkg-deb -x), not
# installed, because rsyslog and syslog-ng (the syslog-ng step) conflict as
# system log daemons although both run here only as private processes.
# Its modules are in DIR/root/usr/lib/<triplet>/rsyslog (rsyslogd -M).
pct_unpacked_rsyslogd() {
    local dir=$1 deb
    if [[ ! -x $dir/root/usr/sbin/rsyslogd ]]; then
        mkdir -p "$dir" || return 1
        (cd "$dir" && rm -f rsyslog_*.deb && apt-get download rsyslog >/dev/null 2>&1) ||
            { pct_log "apt-get download rsyslog failed"; return 1; }
        deb=$(ls "$dir"/rsyslog_*.deb 2>/dev/null | head -n 1)
        [[ -n $deb ]] && dpkg-deb -x "$deb" "$dir/root" || return 1
    fi
    printf '%s\n' "$dir/root/usr/sbin/rsyslogd"
}

# Prints the packages of PCT_PACKAGES that are not installed.
pct_missing_packages() {
    local p status
    for p in "${PCT_PACKAGES[@]}"; do
        status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) || status=
        [[ $status == installed ]] || printf '%s\n' "$p"
    done
}

# pct_ensure_packages [install=1|0]
# Installs the missing packages when root (apt-get update + install, only if something
# is missing). Not root, or install=0: lists what is missing. Returns non-zero when
# something is still missing.
pct_ensure_packages() {
    local install=${1:-1}
    if ! command -v dpkg-query >/dev/null 2>&1; then
        pct_log "note: not a Debian system (no dpkg-query): cannot check packages; needed:"
        pct_log "      ${PCT_PACKAGES[*]}"
        return 0
    fi
    local missing
    mapfile -t missing < <(pct_missing_packages)
    ((${#missing[@]} == 0)) && return 0

    if [[ $install != 1 ]]; then
        pct_log "missing Debian packages: ${missing[*]}"
        pct_log "install them with: sudo apt-get install --no-install-recommends ${missing[*]}"
        return 1
    fi
    if [[ $(id -u) != 0 ]]; then
        pct_log "error: missing Debian packages: ${missing[*]}"
        pct_log "install them with:"
        pct_log "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
        pct_log "(or run this script as root, which installs them)"
        return 1
    fi
    pct_log "installing missing packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q || return 1
    apt-get install -y -q --no-install-recommends "${missing[@]}" || return 1
    mapfile -t missing < <(pct_missing_packages)
    if ((${#missing[@]} > 0)); then
        pct_log "error: still missing after apt-get install: ${missing[*]}"
        return 1
    fi
}

# pct_meson_setup DIR [meson setup args...]
# Configures DIR unless it is already configured with the same arguments and the
# same CC/CXX (remembered in DIR/.pct-setup); otherwise wipes it and configures
# afresh. ninja re-runs meson by itself when a meson.build changes.
pct_meson_setup() {
    local dir=$1
    shift
    local key="CC=${CC:-} CXX=${CXX:-} $*"
    if [[ -f $dir/build.ninja && -f $dir/.pct-setup && $(<"$dir/.pct-setup") == "$key" ]]; then
        return 0
    fi
    rm -rf -- "$dir"
    meson setup "$dir" "$@" || return 1
    printf '%s' "$key" >"$dir/.pct-setup"
}

# Milliseconds since the epoch.
pct_now_ms() {
    local ns
    ns=$(date +%s%N)
    echo $((ns / 1000000))
}

# 12345 ms -> "12.3s"
pct_fmt_ms() {
    printf '%d.%01ds' $(($1 / 1000)) $((($1 % 1000) / 100))
}
