#!/usr/bin/env python3
"""check_man.py PCT_H LIBPCT_3

Every name pct.h declares with PCT_API (functions and the predefined sets
and policies) is documented in libpct(3): a function has its prototype in
the SYNOPSIS, and every name starts a .B or .BR line of the DESCRIPTION,
as the page writes an entry (a mention in a comment or an example does not
count)."""
import re
import sys


def api_names(header):
    with open(header, encoding="utf-8") as fh:
        text = fh.read()
    functions, objects = [], []
    for m in re.finditer(r"^PCT_API\s+([^;{]*?)\b(pct_\w+)\s*(\(|;)", text, re.M):
        (functions if m.group(3) == "(" else objects).append(m.group(2))
    return functions, objects


def sections(page):
    current, out = None, {}
    with open(page, encoding="utf-8") as fh:
        for line in fh:
            m = re.match(r'^\.SH\s+"?([^"\n]+)"?', line)
            if m:
                current = m.group(1).strip()
                continue
            out.setdefault(current, []).append(line.rstrip("\n"))
    return out


def main():
    header, page = sys.argv[1:3]
    functions, objects = api_names(header)
    sec = sections(page)
    synopsis = "\n".join(sec.get("SYNOPSIS", []))
    entries = set()
    for line in sec.get("DESCRIPTION", []):
        m = re.match(r'^\.BR?\s+"?(pct_\w+)', line)
        if m:
            entries.add(m.group(1))
    problems = []
    for name in functions:
        # .BI "type name(..." in the SYNOPSIS
        if not re.search(r"\b%s\(" % re.escape(name), synopsis):
            problems.append("%s: no prototype in the SYNOPSIS" % name)
    for name in functions + objects:
        if name not in entries:
            problems.append("%s: no .B/.BR entry in the DESCRIPTION" % name)
    for p in problems:
        print("FAIL " + p)
    print("%d functions, %d objects: %d undocumented" % (len(functions), len(objects), len(problems)))
    if len(functions) < 40:
        print("FAIL: found only %d PCT_API functions in %s" % (len(functions), header))
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
