"""meson dist script (meson.build: add_dist_script): puts libpct's sources
into the dist (the sdist) at subprojects/libpct, where the source tree has
a link to the repository's root, which meson dist copies as the link: the
files git tracks under the paths that libpct's build reads for the
extension (the library, the log engine and CLI helpers of tools/, the
meson files), and its LICENSE and README."""

import os
import pathlib
import shutil
import subprocess
import sys

PATHS = ["meson.build", "meson_options.txt", "LICENSE", "README.md", "include", "src", "tools"]


def main():
    dist = pathlib.Path(os.environ["MESON_DIST_ROOT"], "subprojects", "libpct")
    source = pathlib.Path(os.environ["MESON_SOURCE_ROOT"], "subprojects", "libpct").resolve()
    if not dist.is_symlink():
        return 0  # a real directory already (meson dist --include-subprojects)
    listed = subprocess.run(["git", "ls-files", "-z", "--", *PATHS], cwd=source,
                            stdout=subprocess.PIPE, check=True).stdout
    names = [n for n in listed.decode().split("\0") if n]
    if "meson.build" not in names:
        sys.exit(f"dist_libpct: git lists no libpct sources in {source}")
    dist.unlink()
    for name in names:
        target = dist / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / name, target)
    print(f"dist_libpct: {len(names)} files of libpct in subprojects/libpct")
    return 0


if __name__ == "__main__":
    sys.exit(main())
