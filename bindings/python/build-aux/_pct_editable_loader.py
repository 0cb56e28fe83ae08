"""The import hook of an editable install of pct (pip install -e
bindings/python, made by pct_build_backend.py): pct's modules come from the
source tree, pct._pct from the meson build directory of the install, which
ninja brings up to date at the first import of pct in each process, so an
edited C file is compiled in. PCT_EDITABLE_VERBOSE=1 shows ninja's output;
a failed build raises ImportError with it."""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys

try:
    import fcntl
except ImportError:  # not POSIX: builds are not serialized
    fcntl = None


class EditableFinder:
    def __init__(self, package_dir, build_dir, ninja):
        self.package_dir = package_dir
        self.build_dir = build_dir
        self.ninja = ninja
        self.built = False

    def rebuild(self):
        """ninja in the build directory, once a process; one process at a
        time (a lock file), as Dask workers may import pct together."""
        if self.built:
            return
        self.built = True
        verbose = os.environ.get("PCT_EDITABLE_VERBOSE", "") not in ("", "0")
        if not os.path.isfile(os.path.join(self.build_dir, "build.ninja")):
            raise ImportError(f"pct (editable install): its build directory {self.build_dir} is gone "
                              "or was never configured: pip install -e bindings/python again")
        lock = open(os.path.join(self.build_dir, ".pct-editable.lock"), "w")
        try:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)
            run = subprocess.run([self.ninja, "-C", self.build_dir], stdin=subprocess.DEVNULL,
                                 stdout=None if verbose else subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
        except OSError as e:
            raise ImportError(f"pct (editable install): cannot run {self.ninja}: {e}") from e
        finally:
            lock.close()
        if run.returncode != 0:
            raise ImportError(f"pct (editable install): rebuilding {self.build_dir} failed "
                              f"(ninja exit status {run.returncode}):\n{run.stdout or ''}")

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "pct":
            self.rebuild()
            return importlib.util.spec_from_file_location(
                "pct", os.path.join(self.package_dir, "__init__.py"),
                submodule_search_locations=[self.package_dir])
        if fullname == "pct._pct":
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                module = os.path.join(self.build_dir, "_pct" + suffix)
                if os.path.isfile(module):
                    return importlib.util.spec_from_file_location(fullname, module)
            raise ImportError(f"pct (editable install): no _pct extension in {self.build_dir}")
        return None


def install(package_dir, build_dir, ninja):
    """Called by the install's .pth file at each interpreter start."""
    if not any(isinstance(f, EditableFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, EditableFinder(package_dir, build_dir, ninja))
