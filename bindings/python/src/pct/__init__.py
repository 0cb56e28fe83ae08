"""pct: libpct for Python - fast percent-encoding and decoding (URL quoting).

Drop-in replacements for urllib.parse, with the same signatures, results and
exceptions for every input (calls the C code does not take, such as other
argument types, are handed to urllib.parse itself):

    quote, quote_plus, quote_from_bytes, unquote, unquote_plus, unquote_to_bytes

libpct's own operations (str in, str out; bytes-like in, bytes out; failures
raise pct.Error, a ValueError with .status and .offset, which counts bytes of
the UTF-8 of a str):

    encode, decode, normalize, validate, normalize_path, iri_to_uri, uri_to_iri

A str result is always a str: encode() of a str with a set that escapes only
some bytes of a character raises pct.Error (INVALID_UTF8) instead of making
text that is not UTF-8; pass bytes to get such bytes. normalize_path takes
the presets and options of `pct path` and report=True (a PathReport).

Batches through the C batch API (one call for a whole list):

    decode_many, encode_many

Access logs, with the C code of `pct logs`: pct.logs.read(path_or_file).
Scaling out on a Dask cluster: python -m pct.dask --help.
"""

from ._pct import (  # noqa: F401
    INVALID_ARGUMENT,
    INVALID_ESCAPE,
    INVALID_UTF8,
    KEEP_ESCAPES,
    NO_SPACE,
    OK,
    PATH_DID_BACKSLASH,
    PATH_DID_CLAMP_AT_ROOT,
    PATH_DID_DECODE,
    PATH_DID_DECODE_UNRESERVED,
    PATH_DID_MERGE_SLASHES,
    PATH_DID_REMOVE_DOTS,
    PATH_DID_SEE_ENCODED_DOTS,
    PATH_DID_SEE_PARAMS,
    PATH_DID_UPPERCASE_HEX,
    PERCENT_U,
    PLUS,
    REJECTED_BYTE,
    REJECTED_PATH,
    STRICT,
    UNESCAPED_BYTE,
    UTF8,
    UTF8_REPLACE,
    Error,
    PathReport,
    decode,
    decode_many,
    encode,
    encode_many,
    implementation,
    implementations,
    iri_to_uri,
    libpct_version,
    normalize,
    normalize_path,
    quote,
    quote_from_bytes,
    quote_plus,
    unquote,
    unquote_plus,
    unquote_to_bytes,
    uri_to_iri,
    use_implementation,
    validate,
)
from ._pct import set_bits as _set_bits
from . import logs  # noqa: E402  (pct.logs.read)

__version__ = "0.2.0"

SETS = (
    "c0_control",
    "fragment",
    "query",
    "special_query",
    "path",
    "userinfo",
    "component",
    "form",
    "rfc3986",
    "uri",
    "uri_component",
)


def _chars(value):
    if isinstance(value, str):
        return value.encode("latin-1")
    return bytes(value)


def make_set(base="rfc3986", add=b"", remove=b""):
    """A set for encode(), validate() and keep=: the predefined set `base` (or
    None: the empty set), plus the bytes of `add`, minus those of `remove`
    (str arguments: characters U+0000-U+00FF). Returns 32 bytes, bit (b & 7)
    of byte (b >> 3) set when byte b is in the set.

    make_set("rfc3986", remove="/") is what quote(s, safe="/") escapes."""
    bits = bytearray(_set_bits(base))
    for b in _chars(add):
        bits[b >> 3] |= 1 << (b & 7)
    for b in _chars(remove):
        bits[b >> 3] &= ~(1 << (b & 7)) & 0xFF
    return bytes(bits)


__all__ = [
    "Error",
    "logs",
    "quote",
    "quote_plus",
    "quote_from_bytes",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "encode",
    "decode",
    "normalize",
    "validate",
    "normalize_path",
    "iri_to_uri",
    "uri_to_iri",
    "decode_many",
    "encode_many",
    "make_set",
    "implementation",
    "implementations",
    "use_implementation",
    "PLUS",
    "STRICT",
    "UTF8",
    "KEEP_ESCAPES",
    "PERCENT_U",
    "UTF8_REPLACE",
    "OK",
    "INVALID_ESCAPE",
    "INVALID_UTF8",
    "UNESCAPED_BYTE",
    "INVALID_ARGUMENT",
    "REJECTED_BYTE",
    "REJECTED_PATH",
    "NO_SPACE",
    "PathReport",
    "PATH_DID_DECODE_UNRESERVED",
    "PATH_DID_DECODE",
    "PATH_DID_UPPERCASE_HEX",
    "PATH_DID_REMOVE_DOTS",
    "PATH_DID_SEE_ENCODED_DOTS",
    "PATH_DID_CLAMP_AT_ROOT",
    "PATH_DID_MERGE_SLASHES",
    "PATH_DID_BACKSLASH",
    "PATH_DID_SEE_PARAMS",
]
