# shellcheck shell=bash
# scripts/test-release.sh - the `release` step of scripts/test.sh (source it):
# what users and packagers get, checked from the outside.
#
#   install      meson install of build/release into a scratch DESTDIR; the
#                expected files are there
#   run          the installed pct runs from there (prefix moved, empty env)
#   help         `pct COMMAND --help` for every command
#   man          man pages clean under groff -man -ww -z, and pct.1 names
#                every option of every command's --help
#   completion   the installed bash completion loads and completes
#   pkg-config   an example built with the installed libpct.pc runs
#   cmake        find_package(libpct) against the install; version checked
#   subproject-static, subproject-shared
#                a parent meson project using libpct as a subproject: what
#                it links, its meson test runs only its own test, its
#                install holds nothing of libpct when static and the shared
#                library alone (which the installed app runs with) when
#                shared, no pct_* re-exported
#   debug-paths  a debug build's libpct.so embeds no source or build path
#   deb          dpkg-buildpackage -b in a scratch copy (which runs the unit
#                tests), and again elsewhere with nocheck: byte-identical
#                .debs; the files of each package, libpct-doc's too; lintian
#                with no error or warning; pct run from the unpacked .deb
#                (not with --quick)

release_pass=0
release_fail=0
release_skip=0

# release_check NAME COMMAND...: runs COMMAND with its output in a log; a
# failure prints the log's end.
release_check() {
    local name=$1 log="$release_scratch/$1.log"
    shift
    if "$@" >"$log" 2>&1; then
        echo "  ok    $name"
        release_pass=$((release_pass + 1))
    else
        echo "  FAIL  $name (log: $log)"
        tail -n 25 "$log" | sed 's/^/        /'
        release_fail=$((release_fail + 1))
        failed_tests+=("release/$name")
    fi
}

# fails unless "$1" == "$2"; says what differed
expect_equal() {
    [[ $1 == "$2" ]] && return 0
    printf 'expected: %q\n     got: %q\n' "$2" "$1"
    return 1
}

# copy_tree DEST: the source tree without build trees or git metadata
copy_tree() {
    mkdir -p "$1" && tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$1"
}

release_version() { # the project's version, from meson.build
    sed -n "s/^  version: '\\(.*\\)',\$/\\1/p" meson.build
}

release_libdir() { # the libdir of the install, relative to the prefix
    local pc
    pc=$(find "$release_prefix" -name libpct.pc -print -quit)
    [[ -n $pc ]] && dirname "$(dirname "${pc#"$release_prefix"/}")"
}

check_install() {
    rm -rf "$release_destdir"
    meson install -C "$PCT_RELEASE_DIR" --no-rebuild --destdir "$release_destdir" || return 1
    local libdir f missing=0
    libdir=$(release_libdir) || {
        echo "no libpct.pc installed"
        return 1
    }
    for f in bin/pct include/pct.h "$libdir/libpct.so" "$libdir/libpct.so.0" \
        "$libdir/pkgconfig/libpct.pc" "$libdir/cmake/libpct/libpctConfig.cmake" \
        "$libdir/cmake/libpct/libpctConfigVersion.cmake" share/man/man1/pct.1 \
        share/man/man3/libpct.3 share/bash-completion/completions/pct; do
        [[ -e $release_prefix/$f ]] || {
            echo "missing: $f"
            missing=1
        }
    done
    # The ABI version is the SONAME, not the release version.
    readelf -d "$release_prefix/$libdir/libpct.so" | grep -q 'SONAME.*\[libpct\.so\.0\]' ||
        { echo "SONAME is not libpct.so.0" && missing=1; }
    ((missing == 0))
}

check_run() {
    local pct=$release_prefix/bin/pct out
    # Not where it was configured to live, and no LD_LIBRARY_PATH: pct is
    # linked statically against libpct.
    out=$(env -i PATH=/usr/bin:/bin "$pct" encode 'a b/c') || return 1
    expect_equal "$out" 'a%20b%2Fc' || return 1
    out=$(printf 'caf%%C3%%A9+menu\n' | env -i "$pct" decode --plus) || return 1
    expect_equal "$out" 'café menu' || return 1
    env -i "$pct" --version | grep '^pct [0-9]' || return 1
    if ldd "$pct" | grep libpct; then
        echo "pct is linked against a shared libpct"
        return 1
    fi
}

release_commands() {
    "$release_prefix/bin/pct" --help | awk '/^Commands:/ { in_list = 1; next }
        in_list && /^$/ { exit }
        in_list { print $1 }'
}

check_help() {
    local pct=$release_prefix/bin/pct command first n=0
    for command in $(release_commands); do
        first=$("$pct" "$command" --help | sed -n 1p) || return 1
        [[ $first == "Usage: pct $command "* ]] || {
            echo "pct $command --help starts with: $first"
            return 1
        }
        n=$((n + 1))
    done
    echo "$n commands"
    ((n >= 8))
}

check_man() {
    local page warnings text command option bad=0
    for page in man1/pct.1 man3/libpct.3; do
        warnings=$(groff -man -ww -z "$release_prefix/share/man/$page" 2>&1) || return 1
        [[ -z $warnings ]] || {
            echo "$page: $warnings"
            bad=1
        }
    done
    # Plain ASCII rendering, so "\-\-strict" reads "--strict" (the examples'
    # non-ASCII letters have no ASCII glyph: that warning is not the check's).
    text=$(groff -man -Tascii -P-cbou "$release_prefix/share/man/man1/pct.1" 2>/dev/null) ||
        return 1
    for command in $(release_commands); do
        grep -qE -- "^       $command( |\$)" <<<"$text" || {
            echo "pct.1 does not describe the command $command"
            bad=1
        }
        for option in $("$release_prefix/bin/pct" "$command" --help | grep -oE -- '--[a-z0-9-]+' |
            sort -u); do
            grep -q -- "$option" <<<"$text" || {
                echo "pct.1 does not mention $option (pct $command --help)"
                bad=1
            }
        done
    done
    ((bad == 0))
}

check_completion() {
    PATH="$release_prefix/bin:$PATH" bash -c '
        source /usr/share/bash-completion/bash_completion || exit 1
        source "$1" || exit 1
        complete -p pct >/dev/null || exit 1
        complete_line() {
            COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _pct
            echo "${COMPREPLY[*]}"
        }
        got=$(complete_line pct en); echo "pct en -> $got"; [[ $got == encode ]] || exit 1
        got=$(complete_line pct decode --str); echo "pct decode --str -> $got"
        [[ $got == --strict ]] || exit 1
        got=$(complete_line pct encode --set rfc); echo "pct encode --set rfc -> $got"
        [[ $got == rfc3986 ]] || exit 1
    ' bash "$release_prefix/share/bash-completion/completions/pct"
}

check_pkg_config() {
    local libdir flags out
    libdir=$(release_libdir) || return 1
    # The .pc names the configured prefix; the files are under the DESTDIR.
    flags=$(PKG_CONFIG_PATH="$release_prefix/$libdir/pkgconfig" \
        PKG_CONFIG_SYSROOT_DIR="$release_destdir" pkg-config --cflags --libs libpct) || return 1
    echo "pkg-config: $flags"
    # shellcheck disable=SC2086
    cc -Wall -Wextra -Werror examples/path_check.c $flags -o "$release_scratch/path_check" ||
        return 1
    out=$(LD_LIBRARY_PATH="$release_prefix/$libdir" "$release_scratch/path_check" \
        '/static/%2e%2e/static/app.js') || return 1
    expect_equal "$out" 'ALLOW /static/%2e%2e/static/app.js -> /static/app.js'
}

check_cmake() {
    local dir=$release_scratch/cmake out
    rm -rf "$dir"
    cmake -S tests/release/cmake-consumer -B "$dir" -G Ninja \
        -DCMAKE_PREFIX_PATH="$release_prefix" || return 1
    ninja -C "$dir" || return 1
    out=$("$dir/encode_decode" 'a b') || return 1
    expect_equal "$(head -n 1 <<<"$out")" 'a b -> a+b' || return 1
    # The version file: 0.x releases are compatible within their minor version.
    local version
    for version in 0.1 0.3 1.0; do
        if cmake -S tests/release/cmake-consumer -B "$dir-$version" -G Ninja \
            -DCMAKE_PREFIX_PATH="$release_prefix" -DPCT_WANT_VERSION=$version >/dev/null 2>&1; then
            echo "find_package(libpct $version) accepted libpct 0.2"
            return 1
        fi
    done
}

# check_subproject KIND: the parent project with -Ddefault_library=KIND
check_subproject() {
    local kind=$1 parent=$release_scratch/parent build=$release_scratch/parent-$1
    if [[ ! -d $parent/subprojects/libpct ]]; then
        cp -r tests/release/meson-parent "$parent" && copy_tree "$parent/subprojects/libpct" ||
            return 1
    fi
    rm -rf "$build"
    meson setup "$build" "$parent" -Ddefault_library="$kind" --force-fallback-for=libpct ||
        return 1
    ninja -C "$build" || return 1
    local bad=0
    local dir
    for dir in tools tests bench examples; do
        [[ ! -e $build/subprojects/libpct/$dir ]] || {
            echo "libpct's $dir were configured"
            bad=1
        }
    done
    # What app links: libpct.so.0 with shared, nothing of libpct with static.
    local needed
    needed=$(readelf -d "$build/app" | grep NEEDED)
    echo "$needed"
    if [[ $kind == shared ]]; then
        grep -q 'libpct\.so\.0' <<<"$needed" || {
            echo "app does not link libpct.so.0"
            bad=1
        }
    else
        ! grep -q libpct <<<"$needed" || {
            echo "app links a shared libpct"
            bad=1
        }
        # The plugin embeds libpct.a and must export only its own symbol.
        local exported
        exported=$(nm -D --defined-only "$build/libplugin.so" | awk '$2 == "T" { print $3 }')
        expect_equal "$exported" plugin_decode || bad=1
    fi
    # meson test: only the parent's one test.
    meson test -C "$build" --no-rebuild || bad=1
    local tests
    tests=$(python3 -c 'import json, sys
print(" ".join(json.loads(l)["name"] for l in open(sys.argv[1]) if l.strip()))' \
        "$build/meson-logs/testlog.json") || return 1
    expect_equal "$tests" app || bad=1
    # meson install: the parent's files; with shared, the library they link
    # (no header, .pc, CMake files or man page), found by the installed app.
    meson install -C "$build" --no-rebuild --destdir "$build/destdir" >/dev/null || return 1
    local installed
    installed=$(cd "$build/destdir" && find . \( -type f -o -type l \) | sed 's|.*/||' | sort |
        tr '\n' ' ')
    if [[ $kind == shared ]]; then
        expect_equal "$installed" "app libpct.so libpct.so.0 libpct.so.$(release_version) libplugin.so " ||
            bad=1
        local app lib out
        app=$(find "$build/destdir" -name app -type f) lib=$(find "$build/destdir" -name libpct.so.0)
        out=$(LD_LIBRARY_PATH=$(dirname "$lib") "$app" 'a b') || bad=1
        expect_equal "$out" 'a%20b' || bad=1
    else
        expect_equal "$installed" "app libplugin.so " || bad=1
    fi
    ((bad == 0))
}

# A debug build of the library embeds neither the source nor the build path
# (-ffile-prefix-map): builds in different directories are the same.
check_debug_paths() {
    local build=$release_scratch/debug lib
    meson setup "$build" -Dbuildtype=debug -Dtools=disabled -Dtests=disabled -Dbench=disabled \
        -Dwerror=true || return 1
    ninja -C "$build" || return 1
    lib=$(find "$build" -maxdepth 1 -name 'libpct.so.*.*.*' -print -quit)
    [[ -n $lib ]] || return 1
    if grep -aqF -e "$PWD" -e "$build" "$lib"; then
        echo "$lib embeds the source or the build path:"
        strings -a "$lib" | grep -F -e "$PWD" -e "$build" | head -n 5
        return 1
    fi
    echo "$lib: no $PWD, no $build"
}

check_deb() {
    local dir=$release_scratch/deb pkg
    rm -rf "$dir"
    copy_tree "$dir/src" || return 1
    (cd "$dir/src" && DEB_BUILD_OPTIONS="parallel=$(nproc)" dpkg-buildpackage -us -uc -b) ||
        return 1
    # Reproducible: built again elsewhere (another path; nocheck, which must
    # not change the packages either), every .deb byte-identical.
    copy_tree "$dir/again/elsewhere/src" || return 1
    (cd "$dir/again/elsewhere/src" &&
        DEB_BUILD_OPTIONS="parallel=$(nproc) nocheck" dpkg-buildpackage -us -uc -b) || return 1
    local deb bad=0
    for deb in "$dir"/*.deb; do
        cmp "$deb" "$dir/again/elsewhere/${deb##*/}" || bad=1
    done
    ((bad == 0)) || { echo "the packages differ between two builds" && return 1; }
    echo "two builds: every .deb byte-identical"
    local version arch
    version=$(dpkg-parsechangelog -l debian/changelog -S Version) || return 1
    arch=$(dpkg-architecture -qDEB_HOST_ARCH) || return 1
    # package: files it must hold | a pattern none of its files may match
    local -A must=(
        [libpct0]='/libpct.so.0 /libpct.so.0.2.0'
        [libpct-dev]='/usr/include/pct.h /libpct.a /libpct.so /pkgconfig/libpct.pc
                      /cmake/libpct/libpctConfig.cmake /man3/libpct.3.gz'
        [pct]='/usr/bin/pct /man1/pct.1.gz /bash-completion/completions/pct'
    )
    local -A must_not=([libpct0]='include|\.a$|bin/' [libpct-dev]='bin/|\.so\.0' [pct]='libpct|include')
    local files f
    # libpct-doc (Architecture: all): the documents and the examples
    files=$(dpkg-deb -c "$dir/libpct-doc_${version}_all.deb" | awk '{ print $6 }' | sed 's|^\.||') || {
        echo "no libpct-doc package"
        bad=1
    }
    echo "libpct-doc:" "${files//$'\n'/ }"
    # (names without .gz: dh_compress compresses what is over 4 KiB; debhelper
    # puts the documents of a -doc package under the doc directory of the
    # package it documents, here libpct-dev's)
    for f in /doc/libpct-dev/README.md /doc/libpct-dev/SECURITY.md /doc/libpct-doc/changelog \
        /examples/path_check.c /examples/log_decode.c /examples/encode_decode.c; do
        grep -q -- "$f\$" <<<"${files//.gz/}" || {
            echo "libpct-doc lacks $f"
            bad=1
        }
    done
    # lintian: no error and no warning on any package.
    local tags
    tags=$(lintian --tag-display-limit 0 "$dir"/libpct_"${version}"_"$arch".changes 2>&1) || true
    echo "lintian:"
    printf '%s\n' "$tags" | sed 's/^/  /'
    if grep -qE '^(E|W): ' <<<"$tags"; then
        echo "lintian: $(grep -c '^E: ' <<<"$tags") errors, $(grep -c '^W: ' <<<"$tags") warnings"
        bad=1
    fi
    for pkg in libpct0 libpct-dev pct; do
        files=$(dpkg-deb -c "$dir/${pkg}_${version}_$arch.deb" | awk '{ print $6 }' |
            sed 's|^\.||' | grep -v '/$' | grep -v '^/usr/share/doc/') || {
            echo "no $pkg package"
            bad=1
            continue
        }
        echo "$pkg:" "${files//$'\n'/ }"
        for f in ${must[$pkg]}; do
            grep -q -- "$f\$" <<<"$files" || {
                echo "$pkg lacks $f"
                bad=1
            }
        done
        if grep -E -- "${must_not[$pkg]}" <<<"$files"; then
            echo "$pkg holds files of another package (above)"
            bad=1
        fi
    done
    # pct from the unpacked package alone.
    dpkg -x "$dir/pct_${version}_$arch.deb" "$dir/root" || return 1
    local out
    out=$(env -i "$dir/root/usr/bin/pct" decode '%2Fa%20b') || return 1
    expect_equal "$out" '/a b' || bad=1
    ((bad == 0))
}

# Uses test.sh's globals: quick, failed_tests, skipped_tests, PCT_RELEASE_DIR.
# shellcheck disable=SC2154
step_release() {
    banner "release: install, pct, man pages, completion, pkg-config, CMake, subproject, .debs"
    local t0 note=''
    t0=$(pct_now_ms)
    release_pass=0 release_fail=0 release_skip=0
    release_scratch=$(mktemp -d "${TMPDIR:-/tmp}/pct-release.XXXXXX")
    release_destdir=$release_scratch/destdir
    local prefix
    prefix=$(meson introspect "$PCT_RELEASE_DIR" --buildoptions 2>/dev/null |
        python3 -c 'import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))') ||
        prefix=/usr/local # not configured: the install check fails and says why
    release_prefix=$release_destdir$prefix

    release_check install check_install
    release_check run check_run
    release_check help check_help
    release_check man check_man
    release_check completion check_completion
    release_check pkg-config check_pkg_config
    release_check cmake check_cmake
    release_check subproject-static check_subproject static
    release_check subproject-shared check_subproject shared
    release_check debug-paths check_debug_paths
    if ((quick)); then
        echo "  skip  deb (--quick)"
        release_skip=1
        skipped_tests+=("release/deb (--quick)")
    else
        release_check deb check_deb
    fi

    if ((release_fail == 0)); then
        rm -rf "$release_scratch"
    else
        note="logs in $release_scratch"
    fi
    record release "$release_pass" "$release_fail" "$release_skip" $(($(pct_now_ms) - t0)) "$note"
}
