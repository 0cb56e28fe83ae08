#!/usr/bin/env bash
# contrib/nginx/build.sh OUTDIR - builds ngx_http_pct_module.so for the nginx
# whose development files are installed (Debian: nginx-dev, which puts the
# configure script and headers in /usr/share/nginx/src), with libpct linked
# statically. Writes OUTDIR/ngx_http_pct_module.so; OUTDIR also holds the
# libpct build and the nginx build tree.
#
#   NGINX_SRC   the nginx source or nginx-dev tree (default /usr/share/nginx/src)
set -euo pipefail

out=${1:?usage: contrib/nginx/build.sh OUTDIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
nginx_src=${NGINX_SRC:-/usr/share/nginx/src}
[[ -x $nginx_src/configure ]] || {
    echo "build.sh: no nginx configure script in $nginx_src (Debian: apt-get install nginx-dev)" >&2
    exit 2
}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# libpct, static and position-independent (the module is a shared object).
if [[ ! -f $out/libpct/build.ninja ]]; then
    meson setup "$out/libpct" "$root" --buildtype=release -Ddefault_library=static \
        -Db_staticpic=true -Dtools=disabled -Dtests=disabled -Dbench=disabled \
        -Dinstall=disabled >"$out/libpct-setup.log"
fi
ninja -C "$out/libpct" libpct.a >"$out/libpct-build.log"

# nginx's configure in a copy of its tree, with the flags it was built with
# reduced to --with-compat (binary compatible with the packaged nginx).
rm -rf "$out/nginx"
cp -r "$nginx_src" "$out/nginx"
cd "$out/nginx"
PCT_INCLUDE_DIR="$root/include" PCT_STATIC_LIB="$out/libpct/libpct.a" \
    ./configure --with-compat --add-dynamic-module="$root/contrib/nginx" >"$out/configure.log" 2>&1 || {
    tail -20 "$out/configure.log" >&2
    exit 1
}
make -j2 -f objs/Makefile modules >"$out/make.log" 2>&1 || {
    tail -30 "$out/make.log" >&2
    exit 1
}
cp objs/ngx_http_pct_module.so "$out/"
echo "$out/ngx_http_pct_module.so"
