"""The urllib.parse drop-ins against urllib.parse itself on random inputs:
every byte value, malformed escapes, ill-formed UTF-8, lone surrogates,
non-ASCII text, every codec error handler, odd argument types. Results must
be equal and of the same type; exceptions of the same type and message."""

import urllib.parse as up

import pytest

import pct

N = 12000  # random inputs per test

PIECES = ["%", "%%", "%2", "%2F", "%2f", "%41", "%zz", "%G1", "%E2%82%AC", "%C3%A9", "%C3",
          "%ED%A0%80", "%C0%AF", "%F0%9F%98%80", "%FF", "%80", "%25", "%2B", "+", " ", "/",
          "?", "&", "=", "#", "~", "-", ".", "_"]
CHARS = ["a", "Z", "0", "9", "f", "F", "\x00", "\x7f", "\t", "é", "€", "\u0120", "中",
         "\U0001f600", "\ud800", "\udcff", "\x80", "\xff"]


def rand_text(rng, surrogates=True):
    out = []
    for _ in range(rng.randrange(0, 40)):
        r = rng.random()
        if r < 0.35:
            out.append(rng.choice(PIECES))
        elif r < 0.55:
            c = rng.choice(CHARS)
            if not surrogates and "\ud800" <= c <= "\udfff":
                c = "x"
            out.append(c)
        elif r < 0.6:
            out.append(chr(rng.randrange(0x80, 0x3000)))
        else:
            out.append(chr(rng.randrange(0x20, 0x7F)))
    return "".join(out)


def rand_bytes(rng):
    r = rng.random()
    if r < 0.4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40)))
    return rand_text(rng, surrogates=False).encode("utf-8")


def outcome(fn, *args, **kwargs):
    try:
        r = fn(*args, **kwargs)
        return ("ok", type(r), r)
    except Exception as e:  # the exact exception is part of the contract
        return ("raise", type(e), str(e))


def same(fn_name, *args, **kwargs):
    a = outcome(getattr(up, fn_name), *args, **kwargs)
    b = outcome(getattr(pct, fn_name), *args, **kwargs)
    assert a == b, f"{fn_name}{args!r} {kwargs!r}: urllib {a!r}, pct {b!r}"


ENCODINGS = [None, "utf-8", "UTF-8", "latin-1", "ascii", "utf-16", "cp1252", "bogus-codec", 5]
ERRORS = [None, "strict", "replace", "ignore", "surrogateescape", "backslashreplace", "bogus", 5]
SAFES = ["/", "", "/:@", "%", " ", "+", "é/", b"/", b"", b"\xff/", b"%+ ", "abc~", None, 3, [47]]
ODD = [None, 1, 2.5, bytearray(b"a%20b"), memoryview(b"a%20b"), ["a"], object()]


def test_unquote(rng):
    for i in range(N):
        s = rand_text(rng) if i % 3 else rand_bytes(rng)
        r = rng.random()
        if r < 0.5:
            same("unquote", s)
        elif r < 0.8:
            same("unquote", s, rng.choice(ENCODINGS), rng.choice(ERRORS))
        else:
            same("unquote", s, encoding=rng.choice(ENCODINGS), errors=rng.choice(ERRORS))
    for o in ODD:
        same("unquote", o)
    same("unquote")
    same("unquote", "a", "utf-8", "replace", "extra")
    same("unquote", "a", bogus=1)
    same("unquote", string="a%41")
    same("unquote", "a", string="b")


def test_unquote_plus(rng):
    for i in range(N):
        s = rand_text(rng) if i % 4 else rand_bytes(rng)
        if rng.random() < 0.6:
            same("unquote_plus", s)
        else:
            same("unquote_plus", s, rng.choice(ENCODINGS), rng.choice(ERRORS))
    for o in ODD:
        same("unquote_plus", o)


def test_unquote_to_bytes(rng):
    for i in range(N):
        same("unquote_to_bytes", rand_text(rng) if i % 2 else rand_bytes(rng))
    for o in ODD + ["", b""]:
        same("unquote_to_bytes", o)
    same("unquote_to_bytes", string=b"%41")


def test_unquote_identity():
    s = "plain/ascii/text"
    assert pct.unquote(s) is up.unquote(s) is s
    b = b"no-escapes"
    assert pct.unquote_to_bytes(b) is b


def test_quote(rng):
    for i in range(N):
        s = rand_text(rng) if i % 3 else rand_bytes(rng)
        r = rng.random()
        if r < 0.3:
            same("quote", s)
        elif r < 0.6:
            same("quote", s, rng.choice(SAFES))
        elif r < 0.8:
            same("quote", s, rng.choice(SAFES), rng.choice(ENCODINGS), rng.choice(ERRORS))
        else:
            same("quote", s, safe=rng.choice(SAFES), encoding=rng.choice(ENCODINGS[:4]))
    for o in ODD + ["", b""]:
        same("quote", o)
    same("quote", b"abc", encoding="utf-8")
    same("quote", b"abc", errors="strict")


def test_quote_plus(rng):
    for i in range(N):
        s = rand_text(rng) if i % 3 else rand_bytes(rng)
        r = rng.random()
        if r < 0.4:
            same("quote_plus", s)
        elif r < 0.7:
            same("quote_plus", s, rng.choice(SAFES))
        else:
            same("quote_plus", s, rng.choice(SAFES), rng.choice(ENCODINGS), rng.choice(ERRORS))
    for o in ODD + ["", b"", " ", b" "]:
        same("quote_plus", o)


def test_quote_from_bytes(rng):
    for _ in range(N):
        b = rand_bytes(rng)
        if rng.random() < 0.5:
            same("quote_from_bytes", b)
        else:
            same("quote_from_bytes", b, rng.choice(SAFES))
    for o in ODD + ["", b"", "abc"]:
        same("quote_from_bytes", o)
    same("quote_from_bytes", bs=b"a b", safe=" ")


def test_every_byte_value():
    everything = bytes(range(256))
    for fn in ("quote_from_bytes", "unquote_to_bytes", "quote", "quote_plus"):
        same(fn, everything)
    escaped = "".join(f"%{b:02X}" for b in range(256))
    for fn in ("unquote", "unquote_plus", "unquote_to_bytes"):
        same(fn, escaped)
        same(fn, escaped.lower())
    for errors in ("strict", "replace", "surrogateescape", "ignore"):
        same("unquote", escaped, "utf-8", errors)
        same("unquote", escaped, "latin-1", errors)


@pytest.mark.parametrize("impl", pct.implementations())
def test_unquote_utf8_text(rng, impl):
    """Long decoded text as UTF-8 (its own str builder in pct, over each
    implementation's UTF-8 validation): ASCII runs of every length around
    16 and 64 between 2-, 3- and 4-byte characters, sometimes an ill-formed
    sequence, each UTF-8 spelling and error handler."""
    before = pct.implementation()
    pct.use_implementation(impl)
    try:
        unquote_utf8_text(rng)
    finally:
        pct.use_implementation(before)


def unquote_utf8_text(rng):
    chars = ["%C3%A9", "%C2%80", "%C3%BF", "%C4%80", "%DF%BF", "%E2%82%AC", "%EF%BF%BF", "%E0%A0%80",
             "%F0%9F%98%80", "%F4%8F%BF%BF", "é", "€", "\U0001f600"]
    bad = ["%C3", "%ED%A0%80", "%C0%AF", "%FF", "%E2%82", "%F0%9F%98"]
    for _ in range(3000):
        out = []
        for _ in range(rng.randrange(1, 12)):
            out.append("".join(rng.choice("abc/=-.") for _ in range(rng.randrange(0, 80))))
            out.append(rng.choice(chars))
            if rng.random() < 0.05:
                out.append(rng.choice(bad))
        text = "".join(out)
        if rng.random() < 0.5:  # escapes only: the whole string is one ASCII run
            text = text.encode("utf-8").decode("ascii", "ignore") + "%41"
        enc = rng.choice([None, "utf-8", "UTF8", "utf_8", "Utf-8"])
        err = rng.choice([None, "replace", "strict", "ignore", "surrogateescape",
                          "backslashreplace"])
        kwargs = {k: v for k, v in (("encoding", enc), ("errors", err)) if v is not None}
        same("unquote", text, **kwargs)
        same("unquote_plus", text, **kwargs)


def test_long_strings(rng):
    # the GIL is released above 16 KiB: same results there
    for n in (16383, 16384, 70000):
        s = "".join(rng.choice(PIECES + ["a", "b", "é"]) for _ in range(n // 3))
        same("unquote", s)
        same("unquote_to_bytes", s)
        same("quote", s)
        same("unquote_plus", s)


@pytest.mark.parametrize("name", ["quote", "quote_plus", "quote_from_bytes", "unquote",
                                  "unquote_plus", "unquote_to_bytes"])
def test_signatures(name):
    import inspect

    assert inspect.signature(getattr(pct, name)) == inspect.signature(getattr(up, name))


def test_fast_paths_do_not_call_urllib(monkeypatch):
    """The common calls are answered in C: with urllib's functions replaced
    by ones that fail, they still work (so the random comparisons above test
    the C code, not urllib against itself)."""
    expected = {
        "unquote": up.unquote("a%20b%C3%A9/%zz"),
        "unquote_plus": up.unquote_plus("a+b%2B"),
        "unquote_to_bytes": up.unquote_to_bytes(b"a%20b"),
        "quote": up.quote("a b/é"),
        "quote_plus": up.quote_plus("a b+c", safe="/"),
        "quote_from_bytes": up.quote_from_bytes(b"\xff /"),
    }

    def boom(*a, **k):
        raise AssertionError("urllib.parse was called")

    for name in expected:
        monkeypatch.setattr(up, name, boom)
    assert pct.unquote("a%20b%C3%A9/%zz") == expected["unquote"]
    assert pct.unquote("é%41") == "éA"
    assert pct.unquote(b"a%41", "latin-1", "strict") == "aA"
    assert pct.unquote_plus("a+b%2B") == expected["unquote_plus"]
    assert pct.unquote_to_bytes(b"a%20b") == expected["unquote_to_bytes"]
    assert pct.quote("a b/é") == expected["quote"]
    assert pct.quote("é", encoding="latin-1") == "%E9"
    assert pct.quote_plus("a b+c", safe="/") == expected["quote_plus"]
    assert pct.quote_from_bytes(b"\xff /") == expected["quote_from_bytes"]
