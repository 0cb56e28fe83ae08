import os
from typing import Any, Dict, Mapping, Optional, Sequence, Union

from distributed import Client

from pct.dask_frame import read_logs as read_logs

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

def decode_path(path: _Path, options: Mapping[str, Any]) -> bytes: ...
def decode_data(data: bytes, options: Mapping[str, Any]) -> bytes: ...
def output_name(path: _Path) -> str: ...
def run(
    client: Client,
    files: Sequence[_Path],
    output: str,
    options: Optional[Mapping[str, Any]] = ...,
    ship: bool = ...,
) -> Dict[_Path, str]: ...
def main(argv: Optional[Sequence[str]] = ...) -> int: ...
