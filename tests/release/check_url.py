#!/usr/bin/env python3
"""check_url.py SOURCE_ROOT

The repository URL is set once, as repository_url in meson.build (a
placeholder until the project is published); the files that cannot read it
spell the same URL: README.md, SECURITY.md, debian/control (Homepage,
Vcs-Browser, Vcs-Git) and debian/copyright (Source). Files that are absent
(a tarball without debian/) are skipped."""
import os
import re
import sys


def main():
    root = sys.argv[1]
    with open(os.path.join(root, "meson.build"), encoding="utf-8") as fh:
        m = re.search(r"^repository_url = '([^']+)'$", fh.read(), re.M)
    if not m:
        print("FAIL: no repository_url = '...' in meson.build")
        return 1
    url = m.group(1)
    # file: patterns that must hold the URL
    expect = {
        "README.md": [re.escape(url)],
        "SECURITY.md": [re.escape(url)],
        "debian/control": [r"^Homepage: %s$" % re.escape(url),
                           r"^Vcs-Browser: %s$" % re.escape(url),
                           r"^Vcs-Git: %s\.git$" % re.escape(url)],
        "debian/copyright": [r"^Source: %s$" % re.escape(url)],
    }
    problems, checked = [], 0
    for name, patterns in expect.items():
        path = os.path.join(root, name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for pattern in patterns:
            checked += 1
            if not re.search(pattern, text, re.M):
                problems.append("%s: no line matching %s" % (name, pattern))
    for p in problems:
        print("FAIL " + p)
    print("repository_url %s: %d places checked, %d wrong" % (url, checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
