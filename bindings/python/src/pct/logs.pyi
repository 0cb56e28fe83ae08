import os
from typing import IO, Any, Dict, Iterator, List, Optional, Sequence, Union

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

class LogError(RuntimeError):
    returncode: int
    def __init__(self, message: str, returncode: int) -> None: ...

def formats() -> Sequence[str]: ...
def command(
    files: Sequence[_Path],
    format: str = ...,
    *,
    json_output: bool = ...,
    referer: bool = ...,
    decode_slash: bool = ...,
    query: Optional[str] = ...,
    percent_u: bool = ...,
    field: Optional[int] = ...,
    threads: Optional[int] = ...,
) -> List[str]: ...
def read(path_or_file: Union[_Path, IO[bytes]], format: str = ..., **options: Any) -> Iterator[Dict[str, Any]]: ...
def read_bytes(path: _Path, format: str = ..., **options: Any) -> bytes: ...
def read_bytes_from(data: bytes, format: str = ..., **options: Any) -> bytes: ...
