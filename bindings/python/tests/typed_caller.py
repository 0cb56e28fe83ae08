"""Calls of the pct package as a typed program makes them, for mypy
(test_stubs.py): the stubs must give each the type asserted, with no cast.
Not a test module itself (pytest collects test_*.py only)."""

from typing import List, Optional, Tuple, assert_type

import pct
import pct.logs

raised: List[bytes] = pct.decode_many([b"a%20b"])
assert_type(pct.decode_many([b"a%20b"], on_error="raise"), List[bytes])
assert_type(pct.decode_many(["a%20b"], pct.PLUS), List[str])
assert_type(pct.decode_many([b"a%20b"], on_error="none"), List[Optional[bytes]])
assert_type(pct.decode_many([b"a%20b"], 0, None, "none"), List[Optional[bytes]])
assert_type(pct.encode_many(["a b"]), List[str])
assert_type(pct.encode_many([b"a b"], "form", pct.PLUS, on_error="none"), List[Optional[bytes]])

assert_type(pct.normalize_path("/a/../b"), str)
assert_type(pct.normalize_path(b"/a/../b", "traefik", encoded_semicolon="keep"), bytes)
path, report = pct.normalize_path("/a/%41", "strict", reject_changed=False, report=True)
assert_type(path, str)
assert_type(report, pct.PathReport)
assert_type(report.changes, Tuple[str, ...])
assert_type(report.first_change, int)
assert_type(pct.encode("é", pct.make_set(None, add=b"\xa9")), str)

try:
    pct.normalize_path("/..", "strict")
except pct.Error as e:
    assert_type(e.offset, int)
    assert_type(e.report, Optional[pct.PathReport])

import pct.dask

assert_type(pct.dask.output_name("access.log.gz"), str)
