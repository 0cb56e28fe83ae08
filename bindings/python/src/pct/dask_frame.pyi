import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import pandas
# where dask defines it (dask.dataframe re-exports it without saying so)
from dask.dataframe.core import DataFrame as DaskDataFrame

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

def expand_paths(paths: Union[_Path, Sequence[_Path]]) -> List[Union[str, bytes]]: ...
def parse_blocksize(blocksize: Union[None, int, str]) -> Optional[int]: ...
def partitions(
    files: Sequence[Union[str, bytes]], blocksize: Optional[int]
) -> List[Tuple[Union[str, bytes], Optional[Tuple[int, int]]]]: ...
def frame_meta(fields: Union[None, str, Sequence[str]] = ..., unparsed: str = ...) -> "pandas.DataFrame": ...
def read_partition(
    part: Tuple[Union[str, bytes], Optional[Tuple[int, int]]],
    fields: Union[None, str, Sequence[str]],
    options: Dict[str, Any],
) -> "pandas.DataFrame": ...
def read_logs(
    paths: Union[_Path, Sequence[_Path]],
    blocksize: Union[None, int, str] = ...,
    fields: Union[None, str, Sequence[str]] = ...,
    **options: Any,
) -> DaskDataFrame: ...
