from typing import AnyStr, ClassVar, List, Literal, Optional, Sequence, Tuple, Union, final, overload

from . import logs as logs

_Bytes = Union[bytes, bytearray, memoryview]
_Set = Union[str, bytes]

__version__: str
libpct_version: str
SETS: Tuple[str, ...]

PLUS: int
STRICT: int
UTF8: int
KEEP_ESCAPES: int
PERCENT_U: int
UTF8_REPLACE: int
OK: int
INVALID_ESCAPE: int
INVALID_UTF8: int
UNESCAPED_BYTE: int
INVALID_ARGUMENT: int
REJECTED_BYTE: int
REJECTED_PATH: int
NO_SPACE: int
PATH_DID_DECODE_UNRESERVED: int
PATH_DID_DECODE: int
PATH_DID_UPPERCASE_HEX: int
PATH_DID_REMOVE_DOTS: int
PATH_DID_SEE_ENCODED_DOTS: int
PATH_DID_CLAMP_AT_ROOT: int
PATH_DID_MERGE_SLASHES: int
PATH_DID_BACKSLASH: int
PATH_DID_SEE_PARAMS: int

@final
class PathReport(Tuple[Tuple[str, ...], int, int]):
    """normalize_path(..., report=True)'s second value (a struct sequence)."""
    __match_args__: ClassVar[Tuple[str, str, str]]
    n_fields: ClassVar[int]
    n_sequence_fields: ClassVar[int]
    n_unnamed_fields: ClassVar[int]
    @property
    def changes(self) -> Tuple[str, ...]: ...
    @property
    def first_change(self) -> int: ...
    @property
    def bits(self) -> int: ...

class Error(ValueError):
    status: int
    offset: int
    index: Optional[int]
    report: Optional[PathReport]

_Action = Literal["keep", "decode", "reject"]

# urllib.parse drop-ins (same signatures)
def quote(
    string: Union[str, bytes],
    safe: Union[str, bytes] = ...,
    encoding: Optional[str] = ...,
    errors: Optional[str] = ...,
) -> str: ...
def quote_plus(
    string: Union[str, bytes],
    safe: Union[str, bytes] = ...,
    encoding: Optional[str] = ...,
    errors: Optional[str] = ...,
) -> str: ...
def quote_from_bytes(bs: Union[bytes, bytearray], safe: Union[str, bytes] = ...) -> str: ...
def unquote(string: Union[str, bytes], encoding: str = ..., errors: str = ...) -> str: ...
def unquote_plus(string: str, encoding: str = ..., errors: str = ...) -> str: ...
def unquote_to_bytes(string: Union[str, bytes]) -> bytes: ...

# libpct operations: str -> str, bytes-like -> bytes
@overload
def encode(data: str, set: _Set = ..., flags: int = ...) -> str: ...
@overload
def encode(data: _Bytes, set: _Set = ..., flags: int = ...) -> bytes: ...
@overload
def decode(data: str, flags: int = ..., keep: Optional[_Set] = ...) -> str: ...
@overload
def decode(data: _Bytes, flags: int = ..., keep: Optional[_Set] = ...) -> bytes: ...
@overload
def normalize(data: str, flags: int = ...) -> str: ...
@overload
def normalize(data: _Bytes, flags: int = ...) -> bytes: ...
def validate(data: Union[str, _Bytes], set: _Set = ..., flags: int = ...) -> int: ...
@overload
def normalize_path(
    data: str,
    policy: str = ...,
    *,
    encoded_slash: Optional[_Action] = ...,
    encoded_backslash: Optional[_Action] = ...,
    encoded_nul: Optional[_Action] = ...,
    encoded_semicolon: Optional[_Action] = ...,
    encoded_percent: Optional[_Action] = ...,
    encoded_question: Optional[_Action] = ...,
    encoded_hash: Optional[_Action] = ...,
    encoded_control: Optional[_Action] = ...,
    merge_slashes: Optional[bool] = ...,
    backslash: Optional[bool] = ...,
    strict: Optional[bool] = ...,
    utf8: Optional[bool] = ...,
    reject_above_root: Optional[bool] = ...,
    dot_params: Optional[bool] = ...,
    reject_dot_params: Optional[bool] = ...,
    reject_changed: Optional[bool] = ...,
    report: Literal[False] = ...,
) -> str: ...
@overload
def normalize_path(
    data: str,
    policy: str = ...,
    *,
    encoded_slash: Optional[_Action] = ...,
    encoded_backslash: Optional[_Action] = ...,
    encoded_nul: Optional[_Action] = ...,
    encoded_semicolon: Optional[_Action] = ...,
    encoded_percent: Optional[_Action] = ...,
    encoded_question: Optional[_Action] = ...,
    encoded_hash: Optional[_Action] = ...,
    encoded_control: Optional[_Action] = ...,
    merge_slashes: Optional[bool] = ...,
    backslash: Optional[bool] = ...,
    strict: Optional[bool] = ...,
    utf8: Optional[bool] = ...,
    reject_above_root: Optional[bool] = ...,
    dot_params: Optional[bool] = ...,
    reject_dot_params: Optional[bool] = ...,
    reject_changed: Optional[bool] = ...,
    report: Literal[True],
) -> Tuple[str, PathReport]: ...
@overload
def normalize_path(
    data: _Bytes,
    policy: str = ...,
    *,
    encoded_slash: Optional[_Action] = ...,
    encoded_backslash: Optional[_Action] = ...,
    encoded_nul: Optional[_Action] = ...,
    encoded_semicolon: Optional[_Action] = ...,
    encoded_percent: Optional[_Action] = ...,
    encoded_question: Optional[_Action] = ...,
    encoded_hash: Optional[_Action] = ...,
    encoded_control: Optional[_Action] = ...,
    merge_slashes: Optional[bool] = ...,
    backslash: Optional[bool] = ...,
    strict: Optional[bool] = ...,
    utf8: Optional[bool] = ...,
    reject_above_root: Optional[bool] = ...,
    dot_params: Optional[bool] = ...,
    reject_dot_params: Optional[bool] = ...,
    reject_changed: Optional[bool] = ...,
    report: Literal[False] = ...,
) -> bytes: ...
@overload
def normalize_path(
    data: _Bytes,
    policy: str = ...,
    *,
    encoded_slash: Optional[_Action] = ...,
    encoded_backslash: Optional[_Action] = ...,
    encoded_nul: Optional[_Action] = ...,
    encoded_semicolon: Optional[_Action] = ...,
    encoded_percent: Optional[_Action] = ...,
    encoded_question: Optional[_Action] = ...,
    encoded_hash: Optional[_Action] = ...,
    encoded_control: Optional[_Action] = ...,
    merge_slashes: Optional[bool] = ...,
    backslash: Optional[bool] = ...,
    strict: Optional[bool] = ...,
    utf8: Optional[bool] = ...,
    reject_above_root: Optional[bool] = ...,
    dot_params: Optional[bool] = ...,
    reject_dot_params: Optional[bool] = ...,
    reject_changed: Optional[bool] = ...,
    report: Literal[True],
) -> Tuple[bytes, PathReport]: ...
@overload
def iri_to_uri(data: str) -> str: ...
@overload
def iri_to_uri(data: _Bytes) -> bytes: ...
@overload
def uri_to_iri(data: str) -> str: ...
@overload
def uri_to_iri(data: _Bytes) -> bytes: ...

# batches: on_error="raise" (the default) gives a list of results, "none"
# one where an item that failed is None
@overload
def decode_many(
    items: Sequence[AnyStr],
    flags: int = ...,
    keep: Optional[_Set] = ...,
    on_error: Literal["raise"] = ...,
) -> List[AnyStr]: ...
@overload
def decode_many(
    items: Sequence[AnyStr], flags: int, keep: Optional[_Set], on_error: Literal["none"]
) -> List[Optional[AnyStr]]: ...
@overload
def decode_many(
    items: Sequence[AnyStr],
    flags: int = ...,
    keep: Optional[_Set] = ...,
    *,
    on_error: Literal["none"],
) -> List[Optional[AnyStr]]: ...
@overload
def encode_many(
    items: Sequence[AnyStr],
    set: _Set = ...,
    flags: int = ...,
    on_error: Literal["raise"] = ...,
) -> List[AnyStr]: ...
@overload
def encode_many(
    items: Sequence[AnyStr], set: _Set, flags: int, on_error: Literal["none"]
) -> List[Optional[AnyStr]]: ...
@overload
def encode_many(
    items: Sequence[AnyStr],
    set: _Set = ...,
    flags: int = ...,
    *,
    on_error: Literal["none"],
) -> List[Optional[AnyStr]]: ...
def make_set(
    base: Optional[str] = ..., add: Union[str, bytes] = ..., remove: Union[str, bytes] = ...
) -> bytes: ...
def implementation() -> str: ...
def implementations() -> List[str]: ...
def use_implementation(name: str, /) -> None: ...
