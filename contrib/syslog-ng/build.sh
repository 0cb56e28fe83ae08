#!/usr/bin/env bash
# contrib/syslog-ng/build.sh OUTDIR - builds the syslog-ng module "pct"
# (OUTDIR/libpct.so: pct-access-log-parser(), $(pct-decode), $(pct-encode),
# $(pct-normalize-path)) out of tree for the syslog-ng whose development
# files are installed (Debian: syslog-ng-dev, with syslog-ng.pc), with libpct
# and its log engine (tools/logs) linked statically. OUTDIR also holds their
# build. Load it with syslog-ng --module-path=OUTDIR:/usr/lib/syslog-ng/3.38
# (the default path after it) and `@module pct`, or copy libpct.so into the
# module directory (pkg-config --variable=moduledir syslog-ng).
#
#   CC   the C compiler (default cc)
set -euo pipefail

out=${1:?usage: contrib/syslog-ng/build.sh OUTDIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$root/contrib/syslog-ng
pkg-config --exists syslog-ng || {
    echo "build.sh: no syslog-ng.pc (Debian: apt-get install syslog-ng-dev)" >&2
    exit 2
}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# libpct and the log engine, static and position-independent (the module is
# a shared object). No compressed input: messages are text.
if [[ ! -f $out/engine/build.ninja ]]; then
    meson setup "$out/engine" "$root" --buildtype=release -Ddefault_library=static \
        -Db_staticpic=true -Dtools=enabled -Dtests=disabled -Dbench=disabled \
        -Dinstall=disabled -Dgzip=disabled -Dzstd=disabled >"$out/engine-setup.log" || {
        tail -20 "$out/engine-setup.log" >&2
        exit 1
    }
fi
ninja -C "$out/engine" libpct.a tools/libpct_cli.a tools/logs/libpct_logs.a \
    >"$out/engine-build.log" || {
    tail -30 "$out/engine-build.log" >&2
    exit 1
}

cc=${CC:-cc}
# syslog-ng's and glib's headers as system headers: their own warnings
# (sign-compare, deprecated GTimeVal) are not the module's.
# shellcheck disable=SC2207
sng_cflags=($(pkg-config --cflags syslog-ng | sed 's/-I/-isystem /g'))
# shellcheck disable=SC2207
sng_libs=($(pkg-config --libs syslog-ng))
cflags=(-std=gnu11 -O2 -g -fPIC -fvisibility=hidden -Wall -Wextra -Wno-unused-parameter
    -Werror -DPCT_STATIC -I"$root/include" -I"$root/tools/logs" -I"$root/tools"
    "${sng_cflags[@]}")
objs=()
mkdir -p "$out/obj"
for src in pct-module.c pct-parser-grammar.c pct-access-log-parser.c pct-record-values.c \
    pct-template-functions.c; do
    obj=$out/obj/${src%.c}.o
    "$cc" "${cflags[@]}" -c "$here/$src" -o "$obj"
    objs+=("$obj")
done
# The static libraries' symbols stay inside the module (--exclude-libs):
# only module_info and pct_module_init are exported.
"$cc" -shared -o "$out/libpct.so.tmp" "${objs[@]}" \
    "$out/engine/tools/logs/libpct_logs.a" "$out/engine/tools/libpct_cli.a" \
    "$out/engine/libpct.a" -Wl,--exclude-libs,ALL -Wl,-z,defs "${sng_libs[@]}" -lpthread
mv "$out/libpct.so.tmp" "$out/libpct.so"
echo "$out/libpct.so"
