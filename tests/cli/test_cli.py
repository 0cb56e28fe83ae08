#!/usr/bin/env python3
"""Tests of the `pct` command-line tool, through the real binary.

Usage: test_cli.py PATH_TO_PCT [GROUP...]   (no GROUP: all of them)

Prints one line per failed check, then "N passed, M failed"; exits 1 if any
check failed, 2 on bad usage. Python 3 standard library only.
"""
import fcntl
import os
import random
import re
import subprocess
import sys
import tempfile
import urllib.parse

from clitest import WRAPPER, check, run_groups, short

PCT = None


# --------------------------------------------------------------------------
# Harness (counted checks: clitest.py)
# --------------------------------------------------------------------------


def run(args, stdin=b"", env=None):
    return subprocess.run(WRAPPER + [PCT] + list(args), input=stdin, capture_output=True,
                          timeout=300, env=env)


def expect(name, args, stdin=b"", out=None, code=0, err=None, err_re=None):
    """Runs pct; checks stdout (exact), exit code and stderr.

    stderr: exact when err is given, matches err_re when given, else must be
    empty for exit 0 and non-empty otherwise."""
    if isinstance(out, str):
        out = out.encode()
    result = run(args, stdin)
    ok = check(name + " (exit)", result.returncode == code,
               "exit %d, want %d; stderr %s" % (result.returncode, code, short(result.stderr)))
    if out is not None:
        ok &= check(name + " (stdout)", result.stdout == out,
                    "got %s, want %s" % (short(result.stdout), short(out)))
    stderr = result.stderr.decode("utf-8", "replace")
    if err is not None:
        ok &= check(name + " (stderr)", stderr == err, "got %r, want %r" % (stderr, err))
    elif err_re is not None:
        ok &= check(name + " (stderr)", re.fullmatch(err_re, stderr, re.S) is not None,
                    "got %r, want /%s/" % (stderr, err_re))
    elif code == 0:
        ok &= check(name + " (stderr empty)", stderr == "", "got %r" % stderr)
    else:
        ok &= check(name + " (stderr message)", stderr.strip() != "", "no message")
    return result


# --------------------------------------------------------------------------
# Reference model (from the set table in pct.h)
# --------------------------------------------------------------------------

ALL = frozenset(range(256))
CONTROLS = frozenset(range(0x20)) | frozenset(range(0x7F, 0x100))
UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
SETS = {"c0-control": CONTROLS}
SETS["fragment"] = CONTROLS | set(b' "<>`')
SETS["query"] = CONTROLS | set(b' "#<>')
SETS["special-query"] = SETS["query"] | set(b"'")
SETS["path"] = SETS["query"] | set(b"?^`{}")
SETS["userinfo"] = SETS["path"] | set(b"/:;=@[\\]|")
SETS["component"] = SETS["userinfo"] | set(b"$%&+,")
SETS["form"] = SETS["component"] | set(b"!'()~")
SETS["rfc3986"] = ALL - UNRESERVED
SETS["uri"] = ALL - UNRESERVED - set(b"!'()*;/?:@&=+$,#")
SETS["uri-component"] = ALL - UNRESERVED - set(b"!'()*")


_ENCODE_TABLES = {}


def ref_encode(data, byte_set, plus=False):
    key = (id(byte_set), plus)
    table = _ENCODE_TABLES.get(key)
    if table is None:
        table = [b"%%%02X" % b if b in byte_set else bytes([b]) for b in range(256)]
        if plus and 0x20 in byte_set:
            table[0x20] = b"+"
        _ENCODE_TABLES[key] = table
    return b"".join(map(table.__getitem__, data))


def ref_decode(data, plus=False):
    # unquote_to_bytes is WHATWG's lenient percent-decode; '+' goes first.
    return urllib.parse.unquote_to_bytes(data.replace(b"+", b" ") if plus else data)


def split_lines(data):
    """(content, terminator) pairs as pct's line mode sees them."""
    parts = data.split(b"\n")
    for part in parts[:-1]:
        if part.endswith(b"\r"):
            yield part[:-1], b"\r\n"
        else:
            yield part, b"\n"
    if parts[-1]:
        yield parts[-1], b""


def per_line(function, data):
    return b"".join(function(content) + terminator for content, terminator in split_lines(data))


def random_bytes(rng, length, alphabet=None):
    if alphabet is None:
        return bytes(rng.randrange(256) for _ in range(length))
    return bytes(rng.choice(alphabet) for _ in range(length))


def escape_soup(rng, length):
    """Text dense in escapes, malformed escapes and '+'."""
    pieces = [b"%", b"+", b"a", b"Z", b"%41", b"%2b", b"%2B", b"%zz", b"%4", b"%e9",
              b"%C3%A9", b"%F0%9F%98%80", b"%FF", b"%80", b"%25", b" ", b"\xc3\xa9", b"\xff"]
    return b"".join(rng.choice(pieces) for _ in range(length))


def available_implementations():
    result = run(["--version"])
    match = re.search(r"available: ([^)]*)\)", result.stdout.decode("utf-8", "replace"))
    return [name.strip() for name in match.group(1).split(",")] if match else []


# --------------------------------------------------------------------------
# Groups
# --------------------------------------------------------------------------

def test_strings():
    expect("encode strings", ["encode", "a b/c", "x&y=z"], out="a%20b%2Fc\nx%26y%3Dz\n")
    expect("encode empty string", ["encode", ""], out="\n")
    expect("encode --set path", ["encode", "--set", "path", "a b/c?d"], out="a%20b/c%3Fd\n")
    expect("encode --set=path", ["encode", "--set=path", "a b/c?d"], out="a%20b/c%3Fd\n")
    expect("encode --set uri_component", ["encode", "--set", "uri_component", "(a)/"],
           out="(a)%2F\n")
    expect("options after strings", ["encode", "a/b", "--set", "path"], out="a/b\n")
    expect("-- ends options", ["encode", "--", "-a b", "--set"], out="-a%20b\n--set\n")
    expect("lone - is a string", ["encode", "-"], out="-\n")
    expect("decode strings", ["decode", "a%20b%2Fc", "%E2%82%AC"], out="a b/c\n\u20ac\n")
    expect("normalize strings", ["normalize", "%7e%2f%41", "a%3a"], out="~%2FA\na%3A\n")
    expect("validate ok strings", ["validate", "a%20b", "abc"], out="")
    expect("validate bad string", ["validate", "ok", "a b"], out="", code=1,
           err_re=r"pct: argument 2, byte 1: .+\n")
    expect("utf-8 argument", ["encode", "\u00e9\u20ac"], out="%C3%A9%E2%82%AC\n")


def test_lines():
    expect("lines \\n", ["encode"], b"a b\nc/d\n", out="a%20b\nc%2Fd\n")
    expect("lines \\r\\n", ["encode"], b"a b\r\nc/d\r\n", out="a%20b\r\nc%2Fd\r\n")
    expect("lines mixed", ["encode"], b"a b\r\nc d\ne f\r\ng", out="a%20b\r\nc%20d\ne%20f\r\ng")
    expect("no trailing newline", ["encode"], b"a b\nc d", out="a%20b\nc%20d")
    expect("single line no newline", ["encode"], b"a b", out="a%20b")
    expect("empty input", ["encode"], b"", out="")
    expect("empty lines", ["encode"], b"\n\r\n\n", out="\n\r\n\n")
    expect("empty lines between", ["decode"], b"%41\n\n%42\n", out="A\n\nB\n")
    expect("lone \\r inside line is data", ["encode"], b"a\rb\n", out="a%0Db\n")
    expect("\\r at end without \\n is data", ["encode"], b"a\r", out="a%0D")
    expect("\\r\\r\\n keeps one \\r as data", ["encode"], b"a\r\r\n", out="a%0D\r\n")
    expect("decode lines", ["decode"], b"a%20b\r\n%2F\n", out="a b\r\n/\n")
    expect("decode to newline stays inside line", ["decode"], b"a%0Ab\n", out="a\nb\n")
    expect("normalize lines", ["normalize"], b"%7e\n%2f\r\n", out="~\n%2F\r\n")
    expect("validate lines writes nothing", ["validate"], b"a%20b\nc\n", out="")
    rng = random.Random(1)
    alphabet = b"ab /%\r\n\t\xc3\xa9~+"
    for i in range(20):
        data = random_bytes(rng, rng.randrange(0, 200), alphabet)
        expect("random lines encode #%d" % i, ["encode"], data,
               out=per_line(lambda c: ref_encode(c, SETS["component"]), data))


def test_pipe_size():
    """Pipes on stdin and stdout are widened to 1 MiB (where the system lets
    an unprivileged process), a line still decoded as soon as it comes."""
    with open("/proc/sys/fs/pipe-max-size") as f:
        limit = int(f.read())
    r, w = os.pipe()
    before = fcntl.fcntl(w, fcntl.F_GETPIPE_SZ)
    proc = subprocess.Popen(WRAPPER + [PCT, "decode"], stdin=r, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    os.close(r)
    os.write(w, b"a%20b\n")
    first = proc.stdout.readline()
    sizes = (fcntl.fcntl(w, fcntl.F_GETPIPE_SZ), fcntl.fcntl(proc.stdout.fileno(), fcntl.F_GETPIPE_SZ))
    os.write(w, b"%41\n")
    os.close(w)
    rest, err = proc.communicate(timeout=60)
    check("pipe: a line as it came, then the rest", first == b"a b\n" and rest == b"A\n"
          and proc.returncode == 0, short(first + rest + err))
    want = 1 << 20 if limit >= 1 << 20 else before
    check("pipe: stdin and stdout widened (%d before, pipe-max-size %d)" % (before, limit),
          sizes == (want, want), "%r" % (sizes,))


def test_whole():
    expect("encode --whole", ["encode", "--whole"], b"a b\nc\n", out="a%20b%0Ac%0A")
    expect("encode --whole empty", ["encode", "--whole"], b"", out="")
    expect("encode --whole \\r\\n", ["encode", "--whole"], b"x\r\n", out="x%0D%0A")
    expect("decode --whole", ["decode", "--whole"], b"a%0Ab%0D%0A", out="a\nb\r\n")
    expect("decode --whole keeps raw newlines", ["decode", "--whole"], b"a\n%41\n", out="a\nA\n")
    expect("normalize --whole", ["normalize", "--whole"], b"%7e\n", out="~\n")
    expect("validate --whole", ["validate", "--whole"], b"a%20b", out="")
    expect("validate --whole bad", ["validate", "--whole"], b"ab\n", code=1, out="",
           err_re=r"pct: input, byte 2: .+\n")


def test_zero():
    expect("encode -z", ["encode", "-z"], b"a b\0c/d\0e", out=b"a%20b\0c%2Fd\0e")
    expect("encode --zero-terminated", ["encode", "--zero-terminated"], b"a b\0", out=b"a%20b\0")
    expect("-z newline is data", ["encode", "-z"], b"a\nb\r\n\0", out=b"a%0Ab%0D%0A\0")
    expect("-z empty records", ["encode", "-z"], b"\0\0", out=b"\0\0")
    expect("-z empty input", ["encode", "-z"], b"", out=b"")
    expect("decode -z", ["decode", "-z"], b"%41\n\0%00\0", out=b"A\n\0\0\0")
    expect("-z combined with -q", ["decode", "-zq", "--strict"], b"%zz\0ok\0", code=1,
           out=b"%zz\0ok\0", err="")


def test_binary():
    every_byte = bytes(range(256))
    for name, byte_set in SETS.items():
        expect("encode --whole all bytes --set " + name, ["encode", "--whole", "--set", name],
               every_byte, out=ref_encode(every_byte, byte_set))
    encoded = run(["encode", "--whole"], every_byte).stdout
    expect("decode --whole round trip of all bytes", ["decode", "--whole"], encoded,
           out=every_byte)
    expect("decode --whole raw bytes unchanged", ["decode", "--whole"], every_byte,
           out=every_byte)
    expect("NUL and high bytes in lines", ["encode"], b"a\0b\xff\n\x80\n",
           out="a%00b%FF\n%80\n")
    expect("decode to NUL in lines", ["decode"], b"x\0y%41%00\n%FF\n", out=b"x\0yA\0\n\xff\n")
    expect("normalize with NUL", ["normalize"], b"\0%7e\xff\n", out=b"\0~\xff\n")
    expect("-z high bytes", ["encode", "-z"], b"\xfe\n\0\x01", out=b"%FE%0A\0%01")
    rng = random.Random(2)
    data = random_bytes(rng, 100000)
    expect("random binary lines encode", ["encode"], data,
           out=per_line(lambda c: ref_encode(c, SETS["component"]), data))
    expect("random binary lines decode", ["decode"], data, out=per_line(ref_decode, data))
    lines_encoded = run(["encode"], data).stdout
    expect("random binary lines round trip", ["decode"], lines_encoded, out=data)
    records = data.replace(b"\n", b"")
    zero_encoded = run(["encode", "-z", "--set", "rfc3986"], records).stdout
    check("-z encoded output has NULs only as terminators",
          zero_encoded.count(b"\0") == records.count(b"\0"))
    expect("-z binary round trip", ["decode", "-z"], zero_encoded, out=records)


def test_failures():
    expect("strict failure line 2", ["decode", "--strict"], b"ok\nbad%zz\nok2\n", code=1,
           out="ok\nbad%zz\nok2\n", err_re=r"pct: line 2, byte 3: [^\n]+\n")
    result = run(["decode", "--strict"], b"ok\nbad%zz\n")
    check("reason is pct_status_string(PCT_INVALID_ESCAPE)",
          b"escape" in result.stderr.lower(), short(result.stderr))
    expect("strict failure with \\r\\n", ["decode", "--strict"], b"%41\r\nbad%zz\r\n%42\r\n",
           code=1, out="A\r\nbad%zz\r\nB\r\n", err_re=r"pct: line 2, byte 3: [^\n]+\n")
    expect("failure in last line without newline", ["decode", "--strict"], b"ok\n%2",
           code=1, out="ok\n%2", err_re=r"pct: line 2, byte 0: [^\n]+\n")
    expect("two failures", ["decode", "--strict"], b"%\n%41\n%g\n", code=1, out="%\nA\n%g\n",
           err_re=r"pct: line 1, byte 0: [^\n]+\npct: line 3, byte 0: [^\n]+\n")
    expect("failure in argument", ["decode", "--strict", "%41", "a%z"], code=1,
           out="A\na%z\n", err_re=r"pct: argument 2, byte 1: [^\n]+\n")
    expect("failure in -z record", ["decode", "-z", "--strict"], b"ok\0a\nb%g\0", code=1,
           out=b"ok\0a\nb%g\0", err_re=r"pct: record 2, byte 3: [^\n]+\n")
    expect("failure in --whole", ["decode", "--whole", "--strict"], b"abc\n%", code=1,
           out="abc\n%", err_re=r"pct: input, byte 4: [^\n]+\n")
    expect("encode --utf8 failure", ["encode", "--utf8"], b"ok\nab\xff\n\xc3\xa9\n", code=1,
           out=b"ok\nab\xff\n%C3%A9\n", err_re=r"pct: line 2, byte 2: [^\n]+\n")
    result = run(["encode", "--utf8"], b"\xff")
    check("utf8 reason is pct_status_string(PCT_INVALID_UTF8)",
          b"utf" in result.stderr.lower(), short(result.stderr))
    expect("--fail-fast stops", ["decode", "--strict", "--fail-fast"], b"ok\nbad%zz\nok2\n",
           code=1, out="ok\n", err_re=r"pct: line 2, byte 3: [^\n]+\n")
    expect("--fail-fast strings", ["decode", "--strict", "--fail-fast", "%", "%41"], code=1,
           out="", err_re=r"pct: argument 1, byte 0: [^\n]+\n")
    expect("--fail-fast without failure", ["decode", "--strict", "--fail-fast"], b"a\nb",
           out="a\nb")
    expect("--quiet", ["decode", "--strict", "--quiet"], b"ok\nbad%zz\nok2\n", code=1,
           out="ok\nbad%zz\nok2\n", err="")
    expect("-q", ["validate", "-q"], b"a b\n", code=1, out="", err="")
    expect("validate failure writes nothing", ["validate"], b"ok\na b\n", code=1, out="",
           err_re=r"pct: line 2, byte 1: [^\n]+\n")
    expect("large byte offset", ["decode", "--strict"], b"x" * 5000000 + b"%zz\n", code=1,
           err_re=r"pct: line 1, byte 5000000: [^\n]+\n")


def test_usage():
    for name, args in [
        ("no arguments", []),
        ("unknown command", ["encrypt", "x"]),
        ("unknown option", ["encode", "--bogus", "x"]),
        ("unknown short option", ["encode", "-x"]),
        ("unknown set", ["encode", "--set", "nope", "x"]),
        ("missing --set value", ["encode", "--set"]),
        ("value given to flag", ["encode", "--plus=1", "x"]),
        ("encode --strict", ["encode", "--strict", "x"]),
        ("encode --keep", ["encode", "--keep", "/", "x"]),
        ("encode --percent-u", ["encode", "--percent-u", "x"]),
        ("encode --utf8-replace", ["encode", "--utf8-replace", "x"]),
        ("decode --set", ["decode", "--set", "path", "x"]),
        ("decode --safe", ["decode", "--safe", "/", "x"]),
        ("decode --keep-escapes", ["decode", "--keep-escapes", "x"]),
        ("normalize --plus", ["normalize", "--plus", "x"]),
        ("normalize --utf8", ["normalize", "--utf8", "x"]),
        ("validate --keep", ["validate", "--keep", "/", "x"]),
        ("validate --utf8-replace", ["validate", "--utf8-replace", "x"]),
        ("decode --utf8 --utf8-replace", ["decode", "--utf8", "--utf8-replace", "x"]),
        ("--whole with -z", ["encode", "--whole", "-z"]),
        ("--whole with strings", ["encode", "--whole", "x"]),
    ]:
        expect("usage: " + name, args, b"input\n", out="", code=2)
    result = run(["encode", "--set", "nope", "x"])
    check("unknown set message names it", b"nope" in result.stderr, short(result.stderr))
    result = run(["encode", "--strict", "x"])
    check("inapplicable flag message names it", b"--strict" in result.stderr,
          short(result.stderr))
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            result = subprocess.run(WRAPPER + [PCT, "encode", "x"], stdout=full, stderr=subprocess.PIPE,
                                    timeout=60)
        check("write error exits 2", result.returncode == 2, "exit %d" % result.returncode)
        check("write error message", result.stderr ==
              b"pct: write error: No space left on device, after 0 arguments; stopped\n",
              short(result.stderr))
        with open("/dev/full", "wb") as full:
            result = subprocess.run(WRAPPER + [PCT, "decode"], input=b"a%20b\n" * 100000, stdout=full,
                                    stderr=subprocess.PIPE, timeout=60)
        check("write error (lines) exits 2", result.returncode == 2, "exit %d" % result.returncode)
        check("write error (lines) message", result.stderr ==
              b"pct: write error: No space left on device, after 0 lines; stopped\n",
              short(result.stderr))
    # `pct decode < big | head -1`: the reader goes away. SIGPIPE at its
    # default (as shells leave it) or not, one message saying how many lines
    # went out, and exit 2: never a silent end.
    with tempfile.TemporaryFile() as big:
        big.write(b"caf%C3%A9+au+lait%21\n" * 200000)
        for command in ["decode", "encode"]:
            big.seek(0)
            proc = subprocess.Popen(WRAPPER + [PCT, command], stdin=big, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
            first = proc.stdout.readline()
            proc.stdout.close()
            err = proc.stderr.read()
            code = proc.wait(timeout=60)
            label = "closed pipe (%s)" % command
            check(label + " first line", first == (b"caf\xc3\xa9+au+lait!\n" if command == "decode"
                                                   else b"caf%25C3%25A9%2Bau%2Blait%2521\n"), short(first))
            check(label + " exits 2", code == 2, "exit %d" % code)
            m = re.fullmatch(rb"pct: output closed \(broken pipe\) after (\d+) lines?; stopped\n", err)
            check(label + " message", m is not None and 1 <= int(m.group(1)) < 200000, short(err))


def test_encode():
    rng = random.Random(3)
    alphabet = bytes(b for b in range(256) if b not in b"\r\n")
    lines = [random_bytes(rng, rng.randrange(0, 40), alphabet) for _ in range(300)]
    lines += ["h\u00e9llo w\u00f6rld/\u20ac?".encode(), b"a/b c~d"]
    data = b"\n".join(lines) + b"\n"
    want = b"".join(urllib.parse.quote(line, safe="/").encode() + b"\n" for line in lines)
    expect("quote(s, safe='/') == --set rfc3986 --safe /",
           ["encode", "--set", "rfc3986", "--safe", "/"], data, out=want)
    form_lines = [line.replace(b"~", b"") for line in lines]
    data = b"\n".join(form_lines) + b"\n"
    # WHATWG form set = Python's quote_plus with '*' safe, except for '~'.
    want = b"".join(urllib.parse.quote_plus(line, safe="*").encode() + b"\n"
                    for line in form_lines)
    expect("quote_plus(s, safe='*') == --set form --plus", ["encode", "--set", "form", "--plus"],
           data, out=want)
    expect("form set encodes ~", ["encode", "--set", "form", "~"], out="%7E\n")
    expect("--plus only where space is in the set", ["encode", "--plus", "--set", "c0-control",
                                                     "a b"], out="a b\n")
    expect("--plus encodes '+'", ["encode", "--plus", "a b+c"], out="a+b%2Bc\n")
    expect("without --plus", ["encode", "a b"], out="a%20b\n")
    expect("--safe", ["encode", "--safe", "/:", "a/b:c d"], out="a/b:c%20d\n")
    expect("--unsafe", ["encode", "--set", "path", "--unsafe", "ab", "abc/"], out="%61%62c/\n")
    expect("--safe then --unsafe in order", ["encode", "--safe", "/", "--unsafe", "/", "a/"],
           out="a%2F\n")
    expect("--unsafe then --safe in order", ["encode", "--unsafe", "a", "--safe", "a", "a/"],
           out="a%2F\n")
    expect("repeated --safe accumulates", ["encode", "--safe", "/", "--safe", ":", "/:@"],
           out="/:%40\n")
    expect("--keep-escapes", ["encode", "--keep-escapes", "100% %41 %zz %4"],
           out="100%25%20%41%20%25zz%20%254\n")
    expect("without --keep-escapes", ["encode", "%41"], out="%2541\n")
    expect("--utf8 valid", ["encode", "--utf8"], "\u00e9\U0001F600\n".encode(),
           out="%C3%A9%F0%9F%98%80\n")
    expect("--utf8 overlong", ["encode", "--utf8"], b"\xc0\xaf\n", code=1, out=b"\xc0\xaf\n",
           err_re=r"pct: line 1, byte 0: [^\n]+\n")
    for name, byte_set in SETS.items():
        printable = bytes(range(0x20, 0x7F))
        expect("printable ASCII --set " + name, ["encode", "--set", name, printable.decode()],
               out=ref_encode(printable, byte_set) + b"\n")


def test_decode():
    expect("lenient decode", ["decode", "%zz%4%%41%"], out="%zz%4%A%\n")
    expect("decode once", ["decode", "%2541"], out="%41\n")
    expect("either hex case", ["decode", "%c3%A9%Aa"], out=b"\xc3\xa9\xaa\n")
    expect("plain decode leaves +", ["decode", "a+b%2B"], out="a+b+\n")
    expect("--plus", ["decode", "--plus", "a+b%2B+%2B"], out="a b+ +\n")
    expect("--keep /", ["decode", "--keep", "/", "%2F%41"], out="%2FA\n")
    expect("--keep keeps hex case", ["decode", "--keep", "/", "%2f%2F%3a"], out="%2f%2F:\n")
    expect("--keep decodeURI set", ["decode", "--keep", "#$&+,/:;=?@", "%23%24%20%3F%41"],
           out="%23%24 %3FA\n")
    expect("--percent-u", ["decode", "--percent-u", "%u0041%u00e9%uD83D%uDE00"],
           out="A\u00e9\U0001F600\n".encode())
    expect("--percent-u lone surrogate copied", ["decode", "--percent-u", "%uD800x"],
           out="%uD800x\n")
    expect("--percent-u --strict lone surrogate", ["decode", "--percent-u", "--strict"],
           b"ok\n%uD800x\n", code=1, out="ok\n%uD800x\n", err_re=r"pct: line 2, byte 0: .+\n")
    expect("without --percent-u", ["decode", "%u0041"], out="%u0041\n")
    expect("--utf8 valid", ["decode", "--utf8", "%C3%A9"], out="\u00e9\n".encode())
    expect("--utf8 truncated", ["decode", "--utf8"], b"ab%C3\n", code=1, out="ab%C3\n",
           err_re=r"pct: line 1, byte 2: .+\n")
    expect("--utf8 surrogate", ["decode", "--utf8"], b"%ED%A0%80\n", code=1,
           out="%ED%A0%80\n", err_re=r"pct: line 1, byte 0: .+\n")
    expect("--utf8-replace", ["decode", "--utf8-replace", "%FFa%E2%82"],
           out=b"\xef\xbf\xbda\xef\xbf\xbd\n")
    expect("--utf8-replace keeps BOM", ["decode", "--utf8-replace", "%EF%BB%BFx"],
           out=b"\xef\xbb\xbfx\n")
    rng = random.Random(4)
    lines = [escape_soup(rng, rng.randrange(0, 30)) for _ in range(300)]
    data = b"\n".join(lines) + b"\n"
    expect("random lenient decode == unquote_to_bytes", ["decode"], data,
           out=per_line(ref_decode, data))
    expect("random --plus decode == unquote_to_bytes(s.replace('+', ' '))",
           ["decode", "--plus"], data, out=per_line(lambda c: ref_decode(c, plus=True), data))
    # Python's 'replace' error handler substitutes maximal subparts too.
    expect("random --utf8-replace == bytes.decode('utf-8', 'replace')",
           ["decode", "--utf8-replace"], data,
           out=per_line(lambda c: ref_decode(c).decode("utf-8", "replace").encode(), data))
    result = run(["decode", "--utf8", "-q"], data)
    want = b"".join((ref_decode(line) if is_utf8(ref_decode(line)) else line) + b"\n"
                    for line in lines)
    check("random --utf8 decode passes bad lines through", result.stdout == want,
          short(result.stdout))
    bad = sum(1 for line in lines if not is_utf8(ref_decode(line)))
    check("random --utf8 exit status", result.returncode == (1 if bad else 0),
          "exit %d" % result.returncode)


def is_utf8(data):
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def test_normalize():
    expect("normalize", ["normalize", "%7e%2f%41%3a%c3%a9"], out="~%2FA%3A%C3%A9\n")
    expect("normalize unreserved", ["normalize", "%2D%2E%5F%7E%30%7A"], out="-._~0z\n")
    expect("normalize leaves others", ["normalize", "a b+%20"], out="a b+%20\n")
    expect("normalize lenient", ["normalize", "%zz%4"], out="%zz%4\n")
    expect("normalize stray % rule", ["normalize", "%6%41"], out="%6%41\n")
    expect("normalize --strict", ["normalize", "--strict"], b"%41\n%zz\n", code=1,
           out="A\n%zz\n", err_re=r"pct: line 2, byte 0: .+\n")
    rng = random.Random(5)
    data = b"\n".join(escape_soup(rng, rng.randrange(0, 30)) for _ in range(200)) + b"\n"
    once = run(["normalize"], data).stdout
    expect("normalize is idempotent", ["normalize"], once, out=once)
    check("normalize preserves decoded bytes", per_line(ref_decode, once) ==
          per_line(ref_decode, data))


def test_validate():
    expect("validate ok", ["validate"], b"a%20b\n\nc\n", out="")
    expect("validate unescaped byte", ["validate"], b"a%20b\nx y\n", code=1, out="",
           err_re=r"pct: line 2, byte 1: .+\n")
    expect("validate % in set", ["validate"], b"%zz\n", code=1, out="",
           err_re=r"pct: line 1, byte 0: .+\n")
    expect("validate % not in path set", ["validate", "--set", "path"], b"%zz\n", out="")
    expect("validate --strict", ["validate", "--set", "path", "--strict"], b"%zz\n", code=1,
           out="", err_re=r"pct: line 1, byte 0: .+\n")
    expect("validate + without --plus", ["validate", "--set", "form"], b"a+b\n", code=1,
           out="", err_re=r"pct: line 1, byte 1: .+\n")
    expect("validate --plus", ["validate", "--set", "form", "--plus"], b"a+b\n", out="")
    expect("validate --utf8", ["validate", "--utf8"], b"%C3%A9\n%FF\n", code=1, out="",
           err_re=r"pct: line 2, byte 0: .+\n")
    expect("validate --percent-u", ["validate", "--percent-u"], b"%u0041\n", out="")
    expect("validate --safe", ["validate", "--safe", "/"], b"a/b\n", out="")
    expect("validate --unsafe", ["validate", "--set", "path", "--unsafe", "a"], b"a\n",
           code=1, out="", err_re=r"pct: line 1, byte 0: .+\n")
    rng = random.Random(6)
    lines = [random_bytes(rng, 30, bytes(range(1, 256)).replace(b"\n", b"").replace(b"\r", b""))
             for _ in range(50)]
    for name in SETS:
        encoded = run(["encode", "--set", name], b"\n".join(lines)).stdout
        expect("encode output validates --set " + name, ["validate", "--set", name], encoded)


def test_info():
    for args in (["--help"], ["-h"]):
        result = expect(" ".join(args), args, out=None)
        text = result.stdout.decode("utf-8", "replace")
        for word in ("encode", "decode", "normalize", "validate", "--set", "rfc3986",
                     "uri-component", "Exit"):
            check("%s mentions %s" % (" ".join(args), word), word in text)
    # COMMAND --help: that command's usage and options, not the others'.
    for args, present, absent in ((["encode", "--help"], ("--set", "rfc3986", "--safe", "Exit"),
                                   ("--keep CHARS", "--policy", "Commands:")),
                                  (["decode", "-h"], ("--keep", "--percent-u", "--whole"),
                                   ("--set", "--policy")),
                                  (["path", "--help"], ("--policy", "--encoded-slash"),
                                   ("--set", "--plus"))):
        result = expect(" ".join(args), args, out=None)
        text = result.stdout.decode("utf-8", "replace")
        check("%s: usage line" % " ".join(args),
              text.startswith("Usage: pct %s [OPTION...]" % args[0]), short(result.stdout))
        for word in present:
            check("%s mentions %s" % (" ".join(args), word), word in text)
        for word in absent:
            check("%s does not mention %s" % (" ".join(args), word), word not in text)
    result = expect("--version", ["--version"])
    text = result.stdout.decode("utf-8", "replace")
    check("--version format", re.match(r"pct \d+\.\d+\.\d+\n", text) is not None, repr(text))
    check("--version names an implementation", "implementation" in text, repr(text))
    check("--version says what compressed input it reads",
          re.search(r"^compressed input \(pct logs\): (none|(gzip \((ISA-L|zlib)\))?(, )?(zstd \(libzstd\))?)$",
                    text, re.M) is not None, repr(text))
    names = available_implementations()
    check("scalar is available", "scalar" in names, repr(names))
    expect("--impl scalar", ["--impl", "scalar", "encode", "a b"], out="a%20b\n")
    expect("--impl=scalar", ["encode", "--impl=scalar", "a b"], out="a%20b\n")
    result = expect("--impl scalar --version", ["--impl", "scalar", "--version"])
    check("--impl applies to --version", b"implementation: scalar" in result.stdout,
          short(result.stdout))
    result = expect("--impl bogus", ["--impl", "bogus", "encode", "x"], out="", code=2)
    check("--impl bogus lists available ones", b"scalar" in result.stderr, short(result.stderr))


def test_impls():
    """Every implementation this CPU runs gives the same answers."""
    rng = random.Random(7)
    data = b"".join(random_bytes(rng, rng.randrange(0, 300)) + b"\n" for _ in range(300))
    soup = b"\n".join(escape_soup(rng, rng.randrange(0, 60)) for _ in range(300))
    for name in available_implementations():
        impl = ["--impl", name]
        for set_name in ("component", "path", "rfc3986", "form"):
            expect("%s encode --set %s" % (name, set_name), impl + ["encode", "--set", set_name],
                   data, out=per_line(lambda c: ref_encode(c, SETS[set_name]), data))
        expect(name + " encode --plus --whole", impl + ["encode", "--whole", "--plus"], data,
               out=ref_encode(data, SETS["component"], plus=True))
        expect(name + " decode", impl + ["decode"], soup, out=per_line(ref_decode, soup))
        expect(name + " decode --plus --whole", impl + ["decode", "--plus", "--whole"], soup,
               out=ref_decode(soup, plus=True))
        reference = run(["--impl", "scalar", "normalize", "--whole"], soup).stdout
        expect(name + " normalize == scalar", impl + ["normalize", "--whole"], soup,
               out=reference)


def test_long():
    rng = random.Random(8)
    size = 8 << 20
    line = os.urandom(size).replace(b"\n", b"n").replace(b"\r", b"r")
    encoded = run(["encode"], line + b"\n")
    check("8 MiB line encodes", encoded.returncode == 0 and
          encoded.stdout == ref_encode(line, SETS["component"]) + b"\n",
          "exit %d, %d bytes" % (encoded.returncode, len(encoded.stdout)))
    expect("8 MiB line round trip", ["decode"], encoded.stdout, out=line + b"\n")
    expect("8 MiB line without newline", ["decode"], encoded.stdout[:-1], out=line)
    whole = run(["encode", "--whole", "--set", "rfc3986"], line)
    expect("8 MiB --whole round trip", ["decode", "--whole"], whole.stdout, out=line)
    expect("8 MiB --utf8-replace", ["decode", "--utf8-replace", "--whole"], line,
           out=ref_decode(line).decode("utf-8", "replace").encode())
    # Many lines of mixed lengths and terminators, across read-buffer seams.
    pieces = []
    total = 0
    while total < 6 << 20:
        length = rng.choice([0, 1, 2, 50, 1000, 70000, 1 << 20])
        content = b"a %/\xff" * (length // 5) + b"b" * (length % 5)
        pieces.append(content + rng.choice([b"\n", b"\r\n"]))
        total += len(pieces[-1])
    data = b"".join(pieces) + b"tail"
    expect("many mixed lines", ["encode"], data,
           out=per_line(lambda c: ref_encode(c, SETS["component"]), data))
    records = data.replace(b"\n", b"\0")
    expect("many -z records", ["encode", "-z"], records,
           out=b"".join(ref_encode(r, SETS["component"]) + b"\0" for r in records.split(b"\0")[:-1])
           + ref_encode(b"tail", SETS["component"]))


def test_proxy():
    """pct path, pct iri-to-uri, pct uri-to-iri."""
    expect("path default", ["path", "/a/b/c/./../../g", "/a/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                            "/..%2f..%2f", "/%2e%2e%5c", "//a\\b/%7e?q=/../x#f"],
           out="/a/g\n/etc/passwd\n/..%2F..%2F\n/..%5C\n/a/b/~?q=/../x#f\n")
    expect("path lines", ["path"], b"/a/./b\r\nmid/content=5/../6\n/x/..", out=b"/a/b\r\nmid/6\n/")
    expect("path rejects %00", ["path"], b"/ok\n/a%00b\n/%2e\n", code=1,
           out="/ok\n/a%00b\n/\n", err_re=r"pct: line 2, byte 2: [^\n]*reject[^\n]*\n")
    expect("path --policy nginx", ["path", "--policy", "nginx", "/a/..%2f..%2fetc", "/a%25b//c"],
           out="/etc\n/a%b/c\n")
    expect("path --policy envoy", ["path", "--policy=envoy", "/a\\..\\b%00//c"], out="/b%00/c\n")
    expect("path --policy apache", ["path", "--policy", "apache", "/a/..%2f..%2f", "/a%5c..//b"],
           out="/a/..%2F..%2F\n/a\\../b\n")
    expect("path --encoded-slash decode", ["path", "--encoded-slash", "decode", "/a/..%2F..%2Fx"],
           out="/x\n")
    expect("path --encoded-slash reject", ["path", "--encoded-slash", "reject", "/a%2Fb"], code=1,
           out="/a%2Fb\n", err_re=r"pct: argument 1, byte 2: [^\n]+\n")
    expect("path --encoded-backslash decode --backslash",
           ["path", "--encoded-backslash", "decode", "--backslash", "/a/b/..%5c..%5cx"],
           out="/x\n")
    expect("path --encoded-percent decode", ["path", "--encoded-percent", "decode", "/a%25zz"],
           out="/a%zz\n")
    expect("path --no-merge-slashes", ["path", "--no-merge-slashes", "//a//b"], out="//a//b\n")
    expect("path --no-backslash", ["path", "--no-backslash", "/a\\..\\b"], out="/a\\..\\b\n")
    expect("path --merge-slashes", ["path", "--policy", "envoy", "--no-merge-slashes",
                                    "--merge-slashes", "/a//b"], out="/a/b\n")
    expect("path --utf8", ["path", "--utf8", "/%C3%A9", "/ab%C3"], code=1,
           out="/%C3%A9\n/ab%C3\n", err_re=r"pct: argument 2, byte 3: [^\n]+\n")
    expect("path --strict", ["path", "--strict", "/a%zz"], code=1, out="/a%zz\n",
           err_re=r"pct: argument 1, byte 2: [^\n]+\n")
    expect("path --policy traefik", ["path", "--policy", "traefik", "/a/%2e%2e/b", "/admin%2F",
                                      "/a%3Bb"], code=1, out="/b\n/admin%2F\n/a%3Bb\n",
           err_re=r"pct: argument 2, byte 6: [^\n]+\npct: argument 3, byte 2: [^\n]+\n")
    expect("path --policy strict", ["path", "--policy", "strict", "/a/..;x/b", "/../a", "/a/b"],
           code=1, out="/a/..;x/b\n/../a\n/a/b\n",
           err_re=r"pct: argument 1, byte 3: path rejected[^\n]*\npct: argument 2, byte 1: [^\n]+\n")
    expect("path --report", ["path", "--report", "/a/%7e/../b", "/x", "//y;p"],
           out="/a/b\tdecode-unreserved,remove-dots\n/x\t-\n/y;p\tmerge-slashes,params\n")
    expect("path --dot-params", ["path", "--dot-params", "/a/b/..;jsessionid=1/c"], out="/a/c\n")
    expect("path --reject-dot-params", ["path", "--reject-dot-params", "/a/.;x/c"], code=1,
           out="/a/.;x/c\n", err_re=r"pct: argument 1, byte 3: path rejected[^\n]*\n")
    expect("path --reject-above-root", ["path", "--reject-above-root", "/a/../b", "/a/../../b"],
           code=1, out="/b\n/a/../../b\n", err_re=r"pct: argument 2, byte 6: [^\n]+\n")
    expect("path --reject-changed", ["path", "--reject-changed", "/a/b", "/a/%7e"], code=1,
           out="/a/b\n/a/%7e\n", err_re=r"pct: argument 2, byte 3: [^\n]+\n")
    expect("path --encoded-question reject", ["path", "--encoded-question", "reject", "/a%3F"],
           code=1, out="/a%3F\n", err_re=r"pct: argument 1, byte 2: [^\n]+\n")
    expect("path --encoded-nul keep", ["path", "--encoded-control", "reject", "--encoded-nul",
                                       "keep", "/a%00", "/a%01"], code=1, out="/a%00\n/a%01\n",
           err_re=r"pct: argument 2, byte 2: [^\n]+\n")
    expect("path --encoded-semicolon decode", ["path", "--encoded-semicolon", "decode", "/a%3Bb"],
           out="/a;b\n")
    for name, args in [("unknown policy", ["path", "--policy", "iis", "/"]),
                       ("decoded question mark", ["path", "--encoded-question", "decode", "/"]),
                       ("decoded hash", ["path", "--encoded-hash", "decode", "/"]),
                       ("decoded control", ["path", "--encoded-control", "decode", "/a%0D%0A"]),
                       ("decoded nul", ["path", "--encoded-nul", "decode", "/a%00"]),
                       ("unknown action", ["path", "--encoded-slash", "drop", "/"]),
                       ("path --set", ["path", "--set", "path", "/"]),
                       ("decode --policy", ["decode", "--policy", "nginx", "x"]),
                       ("iri-to-uri --strict", ["iri-to-uri", "--strict", "x"])]:
        expect("usage: " + name, args, out="", code=2)
    rng = random.Random(11)
    pieces = [b"/", b"//", b"\\", b".", b"..", b"%2e", b"%2E", b"%2f", b"%5c", b"%25", b"%41",
              b"a", b"%zz", b"?", b"#", b"%c3%a9"]
    data = b"\n".join(b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12)))
                      for _ in range(300)) + b"\n"
    once = run(["path", "--policy", "envoy"], data).stdout
    expect("path is idempotent", ["path", "--policy", "envoy"], once, out=once)
    for line in once.split(b"\n"):
        path = re.split(b"[?#]", line)[0]
        check("no dot segment in %r" % line, b"." not in path.split(b"/") and
              b".." not in path.split(b"/"))

    expect("iri-to-uri", ["iri-to-uri", "http://r\u00e9sum\u00e9.example.org", "a%2F b?#"],
           out="http://r%C3%A9sum%C3%A9.example.org\na%2F b?#\n")
    expect("iri-to-uri bad UTF-8", ["iri-to-uri"], b"ok\nab\xc3\n\xe2\x82\xac\n", code=1,
           out=b"ok\nab\xc3\n%E2%82%AC\n", err_re=r"pct: line 2, byte 2: [^\n]+\n")
    expect("uri-to-iri", ["uri-to-iri", "http://www.example.org/D%C3%BCrst",
                          "http://www.example.org/D%FCrst",
                          "http://xn--99zt52a.example.org/%e2%80%ae", "%41%2F"],
           out="http://www.example.org/D\u00fcrst\nhttp://www.example.org/D%FCrst\n"
               "http://xn--99zt52a.example.org/%e2%80%ae\n%41%2F\n")
    text = "".join(rng.choice(["a", "/", "?", "%", "\u00e9", "\u20ac", "\U0001F600", " "])
                   for _ in range(2000))
    uri = run(["iri-to-uri", "--whole"], text.encode()).stdout
    check("iri-to-uri is quote(s, safe=ASCII)",
          uri == urllib.parse.quote(text, safe=bytes(range(128))).encode(), short(uri))
    expect("uri-to-iri inverts it", ["uri-to-iri", "--whole"], uri, out=text.encode())


GROUPS = {
    "strings": test_strings,
    "lines": test_lines,
    "pipe": test_pipe_size,
    "whole": test_whole,
    "zero": test_zero,
    "binary": test_binary,
    "failures": test_failures,
    "usage": test_usage,
    "encode": test_encode,
    "decode": test_decode,
    "normalize": test_normalize,
    "validate": test_validate,
    "info": test_info,
    "impls": test_impls,
    "long": test_long,
    "proxy": test_proxy,
}


def set_pct(path):
    global PCT
    PCT = path


if __name__ == "__main__":
    sys.exit(run_groups(sys.argv, GROUPS, set_pct))
