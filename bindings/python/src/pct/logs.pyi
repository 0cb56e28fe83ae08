import os
from typing import IO, TYPE_CHECKING, Any, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union

if TYPE_CHECKING:
    import pandas

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
    log_format: Optional[str] = ...,
    byte_range: Optional[Tuple[int, int]] = ...,
) -> List[str]: ...
def read(
    path_or_file: Union[_Path, IO[bytes]],
    format: str = ...,
    *,
    byte_range: Optional[Tuple[int, int]] = ...,
    **options: Any,
) -> Iterator[Dict[str, Any]]: ...
def read_bytes(
    path: _Path, format: str = ..., *, byte_range: Optional[Tuple[int, int]] = ..., **options: Any
) -> bytes: ...
def read_bytes_from(data: bytes, format: str = ..., **options: Any) -> bytes: ...

DEFAULT_FIELDS: Tuple[str, ...]

def read_frame(
    path_or_file: Union[_Path, IO[bytes]],
    fields: Union[None, str, Sequence[str]] = ...,
    *,
    format: str = ...,
    unparsed: Literal["count", "column"] = ...,
    byte_range: Optional[Tuple[int, int]] = ...,
    **options: Any,
) -> "pandas.DataFrame": ...
def write(
    path: Union[_Path, IO[bytes]],
    out: Union[_Path, IO[bytes]],
    *,
    to: Literal["json", "tsv", "csv", "lines"] = ...,
    fields: Union[None, str, Sequence[str]] = ...,
    byte_range: Optional[Tuple[int, int]] = ...,
    format: str = ...,
    **options: Any,
) -> Dict[str, Any]: ...
