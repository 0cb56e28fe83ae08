#!/usr/bin/env python3
"""check_symbols.py LIBPCT_SO SYMBOLS_FILE VERSION

The dynamic symbols libpct.so exports against debian/libpct0.symbols (the
Debian symbols file): every exported symbol (but the compiler's own, named
__*) is listed with the release that added it, and every listed symbol is exported. VERSION is the project's:
no symbol can be newer. Reads the library with readelf (binutils), which
reads any ELF, so it works in cross builds too. Exit 77 (skip) without the
symbols file (a tarball without debian/)."""
import os
import re
import subprocess
import sys


def version_key(v):
    return tuple(int(x) for x in re.findall(r"\d+", v))


def exported(lib):
    out = subprocess.run(["readelf", "--dyn-syms", "--wide", lib], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    names = set()
    for line in out.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) < 8 or not f[0].endswith(":") or not f[0][:-1].isdigit():
            continue
        typ, bind, vis, ndx, name = f[3], f[4], f[5], f[6], f[7]
        if ndx == "UND" or bind not in ("GLOBAL", "WEAK") or vis != "DEFAULT":
            continue
        if typ not in ("FUNC", "OBJECT", "IFUNC"):
            continue
        name = name.split("@")[0]
        # Reserved names are the compiler's, not libpct's: ASan's
        # __odr_asan.<name> in a sanitizer build, for one.
        if name.startswith("__"):
            continue
        names.add(name)
    return names


def listed(path):
    symbols, problems = {}, []
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    if not lines or not re.match(r"^libpct\.so\.\d+ libpct\d+ #MINVER#$", lines[0]):
        problems.append("first line is not 'libpct.so.N libpctN #MINVER#': %r" % lines[:1])
    for n, line in enumerate(lines[1:], 2):
        if not line.strip() or line.startswith(("#", "*", "|")):
            continue
        m = re.match(r"^ (\S+)@Base (\d+\.\d+\.\d+)$", line)
        if not m:
            problems.append("line %d: not ' NAME@Base VERSION': %r" % (n, line))
            continue
        if m.group(1) in symbols:
            problems.append("line %d: %s listed twice" % (n, m.group(1)))
        symbols[m.group(1)] = m.group(2)
    return symbols, problems


def main():
    lib, symbols_file, version = sys.argv[1:4]
    if not os.path.exists(symbols_file):
        print("SKIP: no %s" % symbols_file)
        return 77
    have = exported(lib)
    want, problems = listed(symbols_file)
    for name in sorted(have - set(want)):
        problems.append("exported but not in the symbols file: %s" % name)
    for name in sorted(set(want) - have):
        problems.append("in the symbols file but not exported: %s" % name)
    for name, v in sorted(want.items()):
        if version_key(v) > version_key(version):
            problems.append("%s: version %s is newer than the project's %s" % (name, v, version))
    for p in problems:
        print("FAIL " + p)
    print("%d exported symbols, %d listed: %d passed, %d failed"
          % (len(have), len(want), 0 if problems else 1, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
