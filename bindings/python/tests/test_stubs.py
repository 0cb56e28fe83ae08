"""The type stubs (__init__.pyi, logs.pyi, dask.pyi) checked by mypy on a
typed caller (typed_caller.py) and on themselves; skipped where mypy is not
installed (Debian: python3-mypy)."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def test_stubs_with_mypy(tmp_path):
    pytest.importorskip("mypy")
    import pct

    package = os.path.dirname(pct.__file__)
    stubs = [os.path.join(package, f) for f in sorted(os.listdir(package)) if f.endswith(".pyi")]
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports", "--no-error-summary", "--cache-dir",
         str(tmp_path / "cache"), os.path.join(HERE, "typed_caller.py"), *stubs],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout
