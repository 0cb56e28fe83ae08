#!/usr/bin/env python3
"""test_python_oracle.py - libpct against Python's urllib.parse, an
independent implementation, on thousands of random and adversarial inputs,
for every implementation libpct lists.

  quote_from_bytes(b, safe=S)   == pct_encode(b, rfc3986 minus S)
  quote_from_bytes(b, "!'()*")  == pct_encode(b, uri_component)
  quote_from_bytes(b, "!'()*;/?:@&=+$,#") == pct_encode(b, uri)
  quote_plus(b, safe=S)         == pct_encode(b, rfc3986 minus S, PCT_PLUS)
  unquote_to_bytes(s)           == pct_decode(s)                (lenient)
  unquote_to_bytes(s with '+' -> ' ') == pct_decode(s, PCT_PLUS)
  unquote_to_bytes(s).decode('utf-8') succeeds  <=>  pct_decode(s, PCT_UTF8)
      succeeds; on failure UnicodeDecodeError.start, mapped back to the input
      offset of that byte, is the error offset
  unquote_to_bytes(s).decode('utf-8', 'replace') == pct_decode(s,
      PCT_UTF8_REPLACE)   (CPython replaces maximal subparts, as WHATWG does)

usage: test_python_oracle.py PATH/TO/pct_oracle_driver
Environment: PCT_TEST_SEED, PCT_TEST_QUICK, MESON_EXE_WRAPPER (cross builds).
Exit status 77 (skip) if the driver cannot be run on this machine.
"""
import os
import random
import shlex
import subprocess
import sys
from urllib.parse import quote_from_bytes, quote_plus, unquote_to_bytes

PLUS, STRICT, UTF8, KEEP_ESCAPES, PERCENT_U, UTF8_REPLACE = 1, 2, 4, 8, 16, 32
UNRESERVED = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
HEXDIGITS = set(b"0123456789ABCDEFabcdef")


def set_arg(members):
    """The driver's "x" + 64 hex digits form of a set of byte values."""
    bits = bytearray(32)
    for b in members:
        bits[b >> 3] |= 1 << (b & 7)
    return "x" + bits.hex()


def rfc3986_minus(safe):
    return set_arg(b for b in range(256) if b not in UNRESERVED and b not in safe)


def driver_argv(driver, *args):
    wrapper = os.environ.get("MESON_EXE_WRAPPER")
    return (shlex.split(wrapper) if wrapper else []) + [driver, *args]


def run_driver(driver, commands, impl=None):
    args = ["--impl", impl] if impl else []
    text = "".join(f"{op} {flags} {s} {data.hex() or '-'}\n" for op, flags, s, data in commands)
    p = subprocess.run(driver_argv(driver, *args), input=text.encode(),
                       stdout=subprocess.PIPE, check=True)
    results = []
    for line in p.stdout.decode().splitlines():
        st, count, out = line.split(" ")
        results.append((int(st), int(count), b"" if out == "-" else bytes.fromhex(out)))
    if len(results) != len(commands):
        raise SystemExit(f"driver answered {len(results)} of {len(commands)} commands")
    return results


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

def random_code_point(rng):
    r = rng.random()
    if r < 0.5:
        return rng.randrange(0x20, 0x7F)
    if r < 0.7:
        return rng.randrange(0x80, 0x800)
    if r < 0.85:
        while True:
            c = rng.randrange(0x800, 0x10000)
            if not 0xD800 <= c <= 0xDFFF:
                return c
    if r < 0.95:
        return rng.randrange(0x10000, 0x110000)
    return rng.choice([0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0xFEFF, 0xFFFD, 0x10000, 0x10FFFF])


def escape(b, rng):
    h = f"{b:02X}" if rng.random() < 0.5 else f"{b:02x}"
    return b"%" + h.encode()


def encode_input(rng, maxlen):
    kind = rng.randrange(4)
    n = rng.randrange(maxlen + 1)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(n))
    if kind == 1:
        return bytes(rng.randrange(0x20, 0x7F) for _ in range(n))
    if kind == 2:
        return "".join(chr(random_code_point(rng)) for _ in range(n // 2)).encode()
    pieces = [b"%", b"%41", b"%zz", b" ", b"+", b"/", b"~", b"\xc3\xa9", b"\xff", b"a", b"%2"]
    return b"".join(rng.choice(pieces) for _ in range(n // 2))


def decode_input(rng, maxlen):
    out = b""
    target = rng.randrange(maxlen + 1)
    bad = [b"%", b"%4", b"%G1", b"%zz", b"%%", b"%%4", b"%u00e9", b"+", b"%2B", b"%2b", b"%25",
           b"%20", b"%\xff1", b"%-1"]
    while len(out) < target:
        r = rng.randrange(8)
        if r in (0, 1):
            out += escape(rng.randrange(0x80, 0x100), rng)
        elif r == 2:
            out += escape(rng.randrange(256), rng)
        elif r in (3, 4):
            seq = chr(random_code_point(rng)).encode()
            if len(seq) > 1 and rng.random() < 0.15:
                seq = seq[: rng.randrange(1, len(seq))]
            out += b"".join(escape(b, rng) if rng.random() < 0.9 else bytes([b]) for b in seq)
        elif r == 5:
            out += chr(random_code_point(rng)).encode()
        elif r == 6:
            out += bytes([rng.randrange(0x20, 0x7F)])
        else:
            out += rng.choice(bad)
    return out


def origins(s):
    """Input offset of each byte lenient percent-decoding produces ('+' and
    ' ' are one byte either way)."""
    org, i = [], 0
    while i < len(s):
        if s[i] == 0x25 and i + 2 < len(s) and s[i + 1] in HEXDIGITS and s[i + 2] in HEXDIGITS:
            org.append(i)
            i += 3
        else:
            org.append(i)
            i += 1
    return org


# ---------------------------------------------------------------------------
# Cases: (description, command, expected result or a checking function)
# ---------------------------------------------------------------------------

def build_cases(rng, count):
    cases = []
    punct = b" !\"#$&'()*+,/:;<=>?@[\\]^`{|}%"
    for i in range(count):
        maxlen = 300 if i % 50 == 0 else 24
        b = encode_input(rng, maxlen)
        safe = bytes(sorted(set(rng.sample(punct, rng.randrange(len(punct) + 1)))))
        safe_plus = safe.replace(b" ", b"")
        cases.append(("quote_from_bytes safe=''", ("enc", 0, "rfc3986", b),
                      (0, None, quote_from_bytes(b, safe="").encode())))
        cases.append((f"quote_from_bytes safe={safe!r}", ("enc", 0, rfc3986_minus(safe), b),
                      (0, None, quote_from_bytes(b, safe=safe).encode())))
        cases.append(("quote_from_bytes safe=!'()* (uri_component)",
                      ("enc", 0, "uri-component", b),
                      (0, None, quote_from_bytes(b, safe="!'()*").encode())))
        cases.append(("quote_from_bytes safe=!'()*;/?:@&=+$,# (uri)", ("enc", 0, "uri", b),
                      (0, None, quote_from_bytes(b, safe="!'()*;/?:@&=+$,#").encode())))
        cases.append((f"quote_plus safe={safe_plus!r}",
                      ("enc", PLUS, rfc3986_minus(safe_plus), b),
                      (0, None, quote_plus(b, safe=safe_plus).encode())))
        q = quote_from_bytes(b, safe=safe).encode()
        cases.append(("pct_encode_length vs len(quote)", ("len", 0, rfc3986_minus(safe), b),
                      (0, len(q), b"")))

        s = decode_input(rng, maxlen)
        raw = unquote_to_bytes(s)
        cases.append(("unquote_to_bytes", ("dec", 0, "-", s), (0, None, raw)))
        cases.append(("unquote_to_bytes('+' -> ' ')", ("dec", PLUS, "-", s),
                      (0, None, unquote_to_bytes(s.replace(b"+", b" ")))))
        for plus in (0, PLUS):
            d = unquote_to_bytes(s.replace(b"+", b" ")) if plus else raw
            try:
                d.decode("utf-8")
                want = (0, None, d)
            except UnicodeDecodeError as e:
                want = (2, origins(s)[e.start], None)
            cases.append((f"bytes.decode('utf-8') (strict){' +' if plus else ''}",
                          ("dec", UTF8 | plus, "-", s), want))
            cases.append((f"bytes.decode('utf-8', 'replace'){' +' if plus else ''}",
                          ("dec", UTF8_REPLACE | plus, "-", s),
                          (0, None, d.decode("utf-8", "replace").encode("utf-8"))))
    return cases


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    driver = sys.argv[1]
    seed = int(os.environ.get("PCT_TEST_SEED") or str(random.randrange(1 << 62)), 0)
    quick = os.environ.get("PCT_TEST_QUICK", "0") not in ("", "0")
    print(f"test_python_oracle: seed {seed} (PCT_TEST_SEED={seed} reproduces)"
          f"{', quick mode' if quick else ''}")
    rng = random.Random(seed)
    cases = build_cases(rng, 150 if quick else 2500)
    try:
        impls = subprocess.run(driver_argv(driver, "--list"), stdout=subprocess.PIPE,
                               check=True).stdout.decode().split()
    except OSError as e:  # e.g. a cross-built driver and no exe wrapper
        print(f"cannot run {driver}: {e}; skipping")
        return 77
    passed = failed = 0
    for impl in impls:
        results = run_driver(driver, [c[1] for c in cases], impl)
        shown = 0
        for (what, cmd, want), got in zip(cases, results):
            st, count, out = want
            ok = got[0] == st and (count is None or got[1] == count) and \
                (out is None or got[2] == out)
            if ok:
                passed += 1
                continue
            failed += 1
            if shown < 15:
                shown += 1
                op, flags, s, data = cmd
                print(f"FAIL [impl {impl}] {what}: {op} flags={flags} set={s}\n"
                      f"    input    {data!r}\n    expected status={st} count={count} {out!r}\n"
                      f"    got      status={got[0]} count={got[1]} {got[2]!r}")
        print(f"  implementation {impl}: {len(cases)} cases")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
