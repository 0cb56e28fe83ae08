"""The package installed as its README says, each time into a new venv in a
temporary directory (offline: pip --no-build-isolation --no-index
--no-deps, Debian's meson-python):

- `pip install -e bindings/python`: pct is then imported from the source
  tree and pct._pct from the install's build directory, which the first
  import in a process brings up to date (the test deletes the built
  extension: the next import links it again);
- `python -m build --no-isolation --sdist bindings/python`: the sdist
  carries libpct's sources (subprojects/libpct is a link in the tree), and
  is built and installed from a directory outside the tree.

In each venv, a script run from another directory checks the drop-ins
against urllib.parse, and pct.logs.read and read_frame on the repository's
sample log against `pct logs --json` (PCT_CLI). Only from the repository:
meson dist (the sdist) reads git."""

import json
import os
import subprocess
import sys
import tarfile

import pytest

from logs_data import SAMPLE, cli

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.skipif(
    not os.path.islink(os.path.join(PACKAGE, "subprojects", "libpct")),
    reason="needs the libpct repository (bindings/python), not a copy of the package")

CHECK = r"""
import json, sys, urllib.parse
import pct, pct.logs
for s in ["a%20b", "caf%C3%A9+x", "%E2%82%AC%zz", "/p%2Fq?x=%26"]:
    assert pct.unquote(s) == urllib.parse.unquote(s), s
    assert pct.unquote_plus(s) == urllib.parse.unquote_plus(s), s
for s in ["a b/c", "caf\u00e9 & \u20ac", "~x?y=1"]:
    assert pct.quote(s) == urllib.parse.quote(s), s
    assert pct.quote_plus(s) == urllib.parse.quote_plus(s), s
import pandas as pd
records = list(pct.logs.read(sys.argv[1]))
frame = pct.logs.read_frame(sys.argv[1], ["path", "status"])
json.dump({"pct": pct.__file__, "ext": pct._pct.__file__, "records": records,
           "paths": list(frame["path"]),
           "statuses": [None if v is pd.NA else int(v) for v in frame["status"]]}, sys.stdout)
"""


def run(argv, **kw):
    """argv run; its output shown with the failure when it fails."""
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    assert done.returncode == 0, f"{' '.join(map(str, argv))} failed ({done.returncode}):\n{done.stdout[-6000:]}"
    return done.stdout


def new_venv(path):
    # from Debian's python (the base of this one): its site packages hold
    # meson-python, pandas
    run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--system-site-packages", str(path)])
    return path / "bin" / "python"


def pip_install(python, *args):
    return run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                "--no-build-isolation", "--no-index", "--no-deps", *args])


def cli_records():
    out = run([cli(), "logs", "--no-progress", "--json", SAMPLE])
    return [json.loads(line) for line in out.splitlines()]


def check(python, cwd):
    """The CHECK script's findings, run by python in cwd (not the tree)."""
    found = json.loads(run([python, "-c", CHECK, SAMPLE], cwd=cwd))
    expected = cli_records()
    assert found["records"] == expected
    records = [r for r in expected if "unparsed" not in r and "directive" not in r]
    assert found["paths"] == [r.get("path") for r in records]
    assert found["statuses"] == [r.get("status") for r in records]
    return found


def test_editable_install(tmp_path):
    python = new_venv(tmp_path / "venv")
    build = tmp_path / "build"
    pip_install(python, f"--config-settings=builddir={build}", "-e", PACKAGE)
    found = check(python, tmp_path)
    assert found["pct"] == os.path.join(PACKAGE, "src", "pct", "__init__.py")
    assert os.path.dirname(found["ext"]) == str(build)
    # the next import rebuilds what is out of date: here the extension
    os.remove(found["ext"])
    again = check(python, tmp_path)
    assert again["ext"] == found["ext"] and os.path.isfile(found["ext"])


def test_sdist_builds_elsewhere(tmp_path):
    pytest.importorskip("build", reason="python3-build (python -m build) is not installed")
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--outdir", str(dist), PACKAGE])
    (sdist,) = dist.iterdir()
    with tarfile.open(sdist) as tar:
        members = {m.name: m for m in tar.getmembers()}
        tar.extractall(tmp_path / "unpacked")
    top = sdist.name[: -len(".tar.gz")]
    for name in ["meson.build", "src/api.c", "include/pct.h", "tools/cli.c", "tools/logs/log_session.c",
                 "LICENSE"]:
        member = members.get(f"{top}/subprojects/libpct/{name}")
        assert member is not None and member.isfile(), f"{name} is not in the sdist"
    assert not any(m.issym() or m.islnk() for m in members.values())
    python = new_venv(tmp_path / "venv")
    pip_install(python, str(tmp_path / "unpacked" / top))
    found = check(python, tmp_path)
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_path('platlib'))"]).strip()
    assert found["pct"] == os.path.join(site, "pct", "__init__.py")
