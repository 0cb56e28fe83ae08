"""The type stubs (__init__.pyi, logs.pyi, dask.pyi, ...) checked by mypy:
a typed caller (typed_caller.py) needs no cast, and mypy's stubtest finds
the stubs consistent with the modules as they run (every public name, its
arguments). Skipped where mypy is not installed (Debian: python3-mypy)."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def package_dir():
    import pct

    return os.path.dirname(pct.__file__)


def mypy_config(tmp_path):
    """Third-party packages (pandas, dask) are Any; a module
    of the package with no stub of its own is not type-checked (its code is
    untyped), only its stubs are."""
    unstubbed = [f[:-3] for f in os.listdir(package_dir())
                 if f.endswith(".py") and not os.path.exists(os.path.join(package_dir(), f + "i"))]
    lines = ["[mypy]", "ignore_missing_imports = True"]
    # typed third-party packages are not analysed either (dask's sources
    # took most of a minute): Any, as for those without stubs
    for other in ("dask", "distributed", "pandas", "numpy", "tornado"):
        lines += [f"[mypy-{other}.*]", "follow_imports = skip"]
    for name in unstubbed:
        module = "pct" if name == "__init__" else "pct." + name
        lines += [f"[mypy-{module}]", "ignore_errors = True"]
    path = tmp_path / "mypy.ini"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def run_mypy(tmp_path, *args):
    pytest.importorskip("mypy")
    return subprocess.run([sys.executable, "-m", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, cwd=str(tmp_path))


def test_typed_caller(tmp_path):
    stubs = [os.path.join(package_dir(), f) for f in sorted(os.listdir(package_dir()))
             if f.endswith(".pyi")]
    r = run_mypy(tmp_path, "mypy", "--strict", "--config-file", mypy_config(tmp_path),
                 "--no-error-summary", "--cache-dir", str(tmp_path / "cache"),
                 os.path.join(HERE, "typed_caller.py"), *stubs)
    assert r.returncode == 0, r.stdout


def test_stubs_match_the_modules(tmp_path):
    r = run_mypy(tmp_path, "mypy.stubtest", "pct", "--mypy-config-file", mypy_config(tmp_path))
    assert r.returncode == 0, r.stdout
