import os
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

from distributed import Client

from pct.dask_frame import read_logs as read_logs

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
_Mode = Literal["json", "tsv", "csv", "lines"]

DEFAULT_BLOCKSIZE: int
DEFAULT_SHIP_BLOCKSIZE: int
COMPRESSED_MAGIC: Tuple[bytes, ...]
SHIP_ATTEMPTS: int
SCATTER_RETRY_SECONDS: int
MODES: Tuple[str, ...]
SUFFIXES: Dict[str, str]

def parse_size(text: Union[int, str]) -> int: ...
def output_name(path: _Path, to: _Mode = ...) -> str: ...
def part_name(index: int, count: int) -> str: ...
def plan_file(path: _Path, blocksize: int) -> Tuple[List[Optional[Tuple[int, int]]], int]: ...
def write_part(
    path: _Path,
    byte_range: Optional[Tuple[int, int]],
    size: int,
    part: str,
    to: _Mode,
    fields: Optional[str],
    options: Mapping[str, Any],
) -> Dict[str, Any]: ...
def decode_block(
    chunks: Sequence[bytes], to: _Mode, fields: Optional[str], options: Mapping[str, Any]
) -> Tuple[bytes, Dict[str, Any]]: ...

class Result:
    written: Dict[Any, str]
    failed: Dict[Any, str]
    parts: List[Dict[str, Any]]
    def workers(self) -> Dict[Optional[str], int]: ...

def run(
    client: Client,
    files: Sequence[_Path],
    output: _Path,
    *,
    to: _Mode = ...,
    fields: Optional[str] = ...,
    options: Optional[Mapping[str, Any]] = ...,
    blocksize: Union[None, int, str] = ...,
    ship: bool = ...,
    keep_parts: bool = ...,
    header: bool = ...,
) -> Result: ...
def main(argv: Optional[Sequence[str]] = ...) -> int: ...
