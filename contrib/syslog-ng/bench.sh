#!/usr/bin/env bash
# contrib/syslog-ng/bench.sh [LINES] [ROUNDS] - builds the module
# (build/syslog-ng) and measures messages/s through Debian's syslog-ng with
# pct-access-log-parser(), apache-accesslog-parser() + $(url-decode), no
# parser, and the same pairs set by a rewrite (contrib/syslog-ng/bench.py).
# Not a test: the numbers depend on the machine and its load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bash contrib/syslog-ng/build.sh build/syslog-ng >/dev/null
exec python3 contrib/syslog-ng/bench.py build/syslog-ng "${1:-300000}" "${2:-5}"
