"""libpct's own operations and the batch calls, from Python."""

import threading
import urllib.parse as up

import pytest

import pct


def test_error_is_value_error_with_status_and_offset():
    with pytest.raises(pct.Error) as e:
        pct.decode(b"abc%zz", pct.STRICT)
    assert isinstance(e.value, ValueError)
    assert e.value.status == pct.INVALID_ESCAPE
    assert e.value.offset == 3
    assert e.value.index is None
    assert "invalid escape at offset 3" in str(e.value)


def test_decode():
    assert pct.decode(b"a%20b+c") == b"a b+c"
    assert pct.decode(b"a%20b+c", pct.PLUS) == b"a b c"
    assert pct.decode("caf%C3%A9") == "café"
    assert pct.decode(bytearray(b"%41")) == b"A"
    assert pct.decode(memoryview(b"%41%2f"), keep=pct.make_set(None, add="/")) == b"A%2f"
    assert pct.decode(b"%41%20", keep="path") == b"A%20"
    assert pct.decode(b"%uD83D%uDE00", pct.PERCENT_U) == "😀".encode()
    assert pct.decode(b"%FF", pct.UTF8_REPLACE) == "\ufffd".encode()
    with pytest.raises(pct.Error) as e:
        pct.decode("ok%FF")  # a str result must be UTF-8
    assert e.value.status == pct.INVALID_UTF8 and e.value.offset == 2
    assert pct.decode("ok%FF", pct.UTF8_REPLACE) == "ok\ufffd"
    with pytest.raises(TypeError):
        pct.decode(12)
    with pytest.raises(pct.Error) as e:
        pct.decode(b"x", 1 << 12)
    assert e.value.status == pct.INVALID_ARGUMENT


def test_encode_and_sets():
    assert pct.encode("a b/é") == "a%20b%2F%C3%A9"
    assert pct.encode(b"a b", "form", pct.PLUS) == b"a+b"
    assert pct.encode("100%25 a", "component", pct.KEEP_ESCAPES) == "100%25%20a"
    s = pct.make_set("rfc3986", remove="/")
    assert len(s) == 32
    assert pct.encode("a b/c~", s) == up.quote("a b/c~")
    assert pct.encode("ab", pct.make_set(None, add="a")) == "%61b"
    with pytest.raises(ValueError):
        pct.encode("x", "no-such-set")
    with pytest.raises(pct.Error) as e:
        pct.encode(b"ok\xff", "component", pct.UTF8)
    assert e.value.status == pct.INVALID_UTF8 and e.value.offset == 2
    for name in pct.SETS:
        assert len(pct.make_set(name)) == 32


def test_normalize_validate_paths_iri():
    assert pct.normalize("%7e%2f%41") == "~%2FA"
    with pytest.raises(pct.Error):
        pct.normalize("%4", pct.STRICT)
    assert pct.validate("a%20b", "component") == 3
    with pytest.raises(pct.Error) as e:
        pct.validate("a b", "component")
    assert e.value.status == pct.UNESCAPED_BYTE and e.value.offset == 1
    assert pct.normalize_path("/a/./b/../c//d") == "/a/c/d"
    assert pct.normalize_path(b"/a/..%2F..%2Fetc", "nginx") == b"/etc"
    with pytest.raises(pct.Error) as e:
        pct.normalize_path("/a%00b")
    assert e.value.status == pct.REJECTED_BYTE and e.value.offset == 2
    with pytest.raises(ValueError):
        pct.normalize_path("/", "no-such-policy")
    assert pct.iri_to_uri("/é?q=€") == "/%C3%A9?q=%E2%82%AC"
    assert pct.uri_to_iri("/%C3%A9%2F") == "/é%2F"
    with pytest.raises(pct.Error):
        pct.iri_to_uri(b"\xff")


def test_implementations_switch():
    names = pct.implementations()
    assert "scalar" in names and pct.implementation() in names
    before = pct.implementation()
    try:
        for name in names:
            pct.use_implementation(name)
            assert pct.implementation() == name
            assert pct.decode(b"%41" * 100) == b"A" * 100
    finally:
        pct.use_implementation(before)
    with pytest.raises(ValueError):
        pct.use_implementation("no-such-implementation")


def rand_item(rng, kind):
    pieces = ["%", "%4", "%41", "%zz", "%C3%A9", "%FF", "+", " ", "a", "b", "/", "é", "%2B", "%u00E9"]
    s = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 30)))
    if kind is bytes:
        b = s.encode()
        if rng.random() < 0.3:
            b += bytes([rng.randrange(256)])
        return b
    return s


def one(fn, item, *args):
    try:
        return fn(item, *args)
    except pct.Error as e:
        return ("error", e.status, e.offset)
    except UnicodeDecodeError:
        return ("unicode",)


@pytest.mark.parametrize("kind", [bytes, str])
def test_decode_many_equals_decode(rng, kind):
    flag_sets = [0, pct.PLUS, pct.STRICT, pct.UTF8, pct.UTF8_REPLACE, pct.PERCENT_U,
                 pct.PLUS | pct.STRICT | pct.UTF8]
    for _ in range(300):
        items = [rand_item(rng, kind) for _ in range(rng.randrange(0, 60))]
        flags = rng.choice(flag_sets)
        keep = rng.choice([None, "path", pct.make_set(None, add="/%")])
        got = pct.decode_many(items, flags, keep, on_error="none")
        want = [one(pct.decode, x, flags, keep) for x in items]
        assert len(got) == len(want)
        for g, w, x in zip(got, want, items):
            if isinstance(w, tuple):
                assert g is None, (x, flags, keep)
            else:
                assert g == w and type(g) is kind, (x, flags, keep)
        bad = [i for i, w in enumerate(want) if isinstance(w, tuple)]
        if bad:
            with pytest.raises(pct.Error) as e:
                pct.decode_many(items, flags, keep)
            assert e.value.index == bad[0]
            assert (e.value.status, e.value.offset) == want[bad[0]][1:]
        else:
            assert pct.decode_many(items, flags, keep) == want


@pytest.mark.parametrize("kind", [bytes, str])
def test_encode_many_equals_encode(rng, kind):
    for _ in range(300):
        items = [rand_item(rng, kind) for _ in range(rng.randrange(0, 60))]
        flags = rng.choice([0, pct.PLUS, pct.KEEP_ESCAPES, pct.UTF8])
        cset = rng.choice(["component", "path", "form", pct.make_set("rfc3986", remove="/")])
        got = pct.encode_many(items, cset, flags, on_error="none")
        want = [one(pct.encode, x, cset, flags) for x in items]
        for g, w in zip(got, want):
            assert (g is None) if isinstance(w, tuple) else (g == w and type(g) is kind), (g, w, cset, flags)


def test_many_large_and_unquote_to_bytes():
    items = [b"/p%C3%A9/%2541?q=%20" * (i % 7) + b"%" * (i % 3) for i in range(30000)]
    assert pct.decode_many(items) == [up.unquote_to_bytes(x) for x in items]
    assert pct.decode_many(items, pct.PLUS) == [up.unquote_to_bytes(x.replace(b"+", b" ")) for x in items]
    assert pct.decode_many([]) == []
    with pytest.raises(TypeError):
        pct.decode_many([b"a", "b"])
    with pytest.raises(TypeError):
        pct.decode_many([1])


def test_threads_with_gil_released():
    # long inputs are decoded with the GIL released: other threads run, and
    # every thread gets its own right answer
    data = [("%41%42" * 20000 + str(i)).encode() for i in range(8)]
    want = [up.unquote_to_bytes(d) for d in data]
    results = [None] * 8

    def work(i):
        for _ in range(20):
            results[i] = (pct.unquote_to_bytes(data[i]), pct.decode_many([data[i]] * 3))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        assert results[i][0] == want[i] and results[i][1] == [want[i]] * 3


def test_encode_str_result_must_be_utf8():
    """A set that escapes some bytes of a character but not the others
    (0xA9 of U+00E9, C3 A9) would give "\\xc3%A9": not UTF-8, so not a str.
    pct.Error (INVALID_UTF8) at the UTF-8 offset of that character; bytes
    in give those bytes out (as `pct encode` writes them)."""
    split = pct.make_set(None, add=b"\xa9")
    for text, offset in (("é", 0), ("aé", 1), ("a€é", 4), ("é€", 0)):
        with pytest.raises(pct.Error) as e:
            pct.encode(text, split)
        assert e.value.status == pct.INVALID_UTF8 and e.value.offset == offset, text
    assert pct.encode("é".encode(), split) == b"\xc3%A9"
    assert pct.encode("a€", split) == "a€"  # E2 82 AC: no byte in the set
    every_high = pct.make_set(None, add=bytes(range(0x80, 0x100)))
    assert pct.encode("aé", every_high) == "a%C3%A9"
    assert pct.encode_many(["é", "x", "aé"], split, on_error="none") == [None, "x", None]
    with pytest.raises(pct.Error) as e:
        pct.encode_many(["x", "aé"], split)
    assert (e.value.index, e.value.status, e.value.offset) == (1, pct.INVALID_UTF8, 1)
    assert pct.encode_many([b"\xc3\xa9"], split) == [b"\xc3%A9"]


def test_many_takes_a_sequence_not_one_string():
    for fn in (pct.decode_many, pct.encode_many):
        for one_string in ("a%20b", b"a%20b", bytearray(b"a%20b")):
            with pytest.raises(TypeError, match="one"):
                fn(one_string)
    assert pct.decode_many(("a%20b",)) == ["a b"]


def test_many_long_and_short_items_mixed(rng):
    """Items below and above the length that is decoded alone, and batches
    of more than one chunk (1 MiB, 16384 items), against per-item calls."""
    unit = ["%41", "%", "a", "%C3%A9", "+", "%FF", "é"]
    lengths = [0, 1, 100, 16383, 16384, 16385, 70000, (1 << 20) + 5]
    for kind in (bytes, str):
        items = []
        for _ in range(40):
            n = rng.choice(lengths)
            s = "".join(rng.choice(unit) for _ in range(n // 2 + 1))[:n]
            items.append(s.encode() if kind is bytes else s)
        items += [kind() if kind is str else b"x%41"] * 20000
        for flags in (0, pct.PLUS, pct.UTF8_REPLACE):
            want = [one(pct.decode, x, flags) for x in items]
            want = [None if isinstance(w, tuple) else w for w in want]
            assert pct.decode_many(items, flags, on_error="none") == want
        got = pct.encode_many(items, "component", on_error="none")
        assert got == [pct.encode(x, "component") for x in items]


def test_many_in_threads_at_once(rng):
    """Threads running batches at the same time (more threads than kept
    buffer sets; chunks and long items decoded with the GIL released) each
    get their own right answer."""
    lists = []
    for t in range(6):
        items = [("%41%20" * rng.randrange(0, 40) + str(t)).encode() for _ in range(5000)]
        items += [b"%42" * (20000 + t), b"%zz" * 7000]
        lists.append(items)
    want = [[up.unquote_to_bytes(x) for x in items] for items in lists]
    got = [None] * len(lists)

    def work(t):
        for _ in range(10):
            got[t] = pct.decode_many(lists[t])

    threads = [threading.Thread(target=work, args=(t,)) for t in range(len(lists))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert got == want


def test_long_bytes_results():
    """Long bytes results are written in place into the result object, then
    cut to length: values, types and errors as for short ones."""
    for n in (700, 5000, 70000):
        data = b"/%41%2f%C3%A9 x+" * n
        for kind in (bytes, bytearray, memoryview):
            assert pct.decode(kind(data)) == up.unquote_to_bytes(data)
            assert pct.decode(kind(data), pct.PLUS) == up.unquote_to_bytes(data.replace(b"+", b" "))
            assert pct.encode(kind(data), "component") == up.quote_from_bytes(data, safe="").encode()
            assert pct.normalize(kind(data)) == data.replace(b"%41", b"A").replace(b"%2f", b"%2F")
            assert pct.iri_to_uri(kind(data)) == data
        assert type(pct.decode(bytearray(data))) is bytes
        with pytest.raises(pct.Error) as e:
            pct.decode(data + b"%zz", pct.STRICT)
        assert e.value.offset == len(data)
        assert pct.decode(b"%FF" * n, pct.UTF8_REPLACE) == "\ufffd".encode() * n
