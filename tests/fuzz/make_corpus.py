#!/usr/bin/env python3
"""make_corpus.py - writes the seed corpus corpus/<target>/ (deterministic).

    python3 tests/fuzz/make_corpus.py

Each seed is the 5-byte header of fuzz.h (flags, set, keep, chunk seed,
misalignment) followed by a payload: typical URLs, form bodies, %uXXXX,
malformed escapes, UTF-8 edge cases, binary. Re-running rewrites the same
files; the fuzzers never write here (run_fuzz.py and fuzz.sh work on copies).
"""
import os

PLUS, STRICT, UTF8, KEEP_ESCAPES, PERCENT_U, UTF8_REPLACE = 1, 2, 4, 8, 16, 32
# Set selectors (byte 1), keep selectors (byte 2): see fuzz.h.
C0, FRAGMENT, QUERY, SPECIAL_QUERY, PATH, USERINFO, COMPONENT, FORM, RFC3986, URI, URI_COMPONENT = \
    range(11)
EMPTY, FULL, USER32, ESCAPE_BYTES, USER_ASCII = 11, 12, 13, 14, 15
K_NULL, K_SLASH, K_DECODE_URI, K_RFC3986, K_USER32, K_FULL, K_EMPTY = range(7)

LONG = (b"https://user:p%40ss@example.com:8080/a%20path/%E6%97%A5%E6%9C%AC/x.html"
        b"?q=caf%C3%A9+au+lait&tag=%F0%9F%98%80&empty=&bad=%zz%4&u=%u00e9%uD83D%uDE00"
        b"#frag%20ment/%2F%2f%7e%7E") * 3

PAYLOADS = {
    "url": b"https://example.com/a%20b/c%2Fd?q=1&r=%E2%82%AC#frag",
    "form": b"name=John+Doe&city=S%C3%A3o+Paulo&x=%2B1&y=a+%2B+b&z=100%25",
    "percent-u": b"%u0041%u00e9%u20AC%uD83D%uDE00 lone %uD800 x %uDC00%u00%uZZZZ%U0041",
    "malformed": b"%%41%4%G1%zz%2%%%25%2541%0a%0A%%%",
    "utf8-raw": bytes([0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0xEF, 0xBF,
                       0xBD, 0xF0, 0x9F, 0x98, 0x80, 0xC2, 0x41, 0x80, 0xF5, 0xE2, 0x82]),
    "utf8-escaped": b"%C0%80%ED%A0%80%F4%90%80%80%EF%BF%BD%F0%9F%98%80%C2A%80%E2%82",
    "text": "日本語のテキスト & émoji 😀 <tag> \"q\" `b` {c} |d| ~e~".encode(),
    "binary": bytes(range(256)),
    "normalize": b"%7e%41%2f%6%41%6A%3a%3A/%7E%5f%2D%2e%30%7a%%61%25",
    "long": LONG,
}

# target -> [(name, payload key, flags, set, keep, chunk seed, align, extra bytes)]
SEEDS = {
    "fuzz_decode": [
        ("url", "url", 0, 0, K_NULL, 1, 0),
        ("url-keep-slash", "url", STRICT, 0, K_SLASH, 7, 3),
        ("form-plus", "form", PLUS, 0, K_NULL, 2, 0),
        ("form-decodeuri", "form", PLUS | UTF8, 0, K_DECODE_URI, 9, 5),
        ("percent-u", "percent-u", PERCENT_U, 0, K_NULL, 3, 0),
        ("percent-u-strict-utf8", "percent-u", PERCENT_U | STRICT | UTF8, 0, K_RFC3986, 4, 1),
        ("percent-u-replace", "percent-u", PERCENT_U | UTF8_REPLACE, 0, K_SLASH, 5, 2),
        ("malformed", "malformed", 0, 0, K_NULL, 6, 0),
        ("malformed-strict", "malformed", STRICT, 0, K_FULL, 8, 7),
        ("utf8-strict", "utf8-escaped", UTF8, 0, K_NULL, 10, 0),
        ("utf8-replace", "utf8-escaped", UTF8_REPLACE, 0, K_EMPTY, 11, 9),
        ("utf8-raw-replace", "utf8-raw", UTF8_REPLACE, 0, K_NULL, 12, 0),
        ("binary", "binary", 0, 0, K_NULL, 13, 0),
        ("normalize", "normalize", 0, 0, K_RFC3986, 14, 0),
        ("normalize-strict", "normalize", STRICT, 0, K_NULL, 15, 4),
        ("long", "long", PERCENT_U, 0, K_NULL, 16, 0),
        ("long-utf8-plus", "long", UTF8 | PLUS | PERCENT_U, 0, K_DECODE_URI, 17, 13),
        ("long-replace", "long", UTF8_REPLACE | 0x40 | UTF8, 0, K_NULL, 18, 31),
    ],
    "fuzz_encode": [
        ("url-component", "url", 0, COMPONENT, 0, 1, 0),
        ("url-path-keep", "url", KEEP_ESCAPES, PATH, 0, 2, 3),
        ("form-plus", "form", PLUS, FORM, 0, 3, 0),
        ("form-plus-keep", "form", PLUS | KEEP_ESCAPES, FORM, 0, 4, 1),
        ("text-utf8", "text", UTF8, RFC3986, 0, 5, 0),
        ("text-uri", "text", 0, URI, 0, 6, 2),
        ("text-query", "text", PLUS, QUERY, 0, 7, 0),
        ("utf8-raw-utf8", "utf8-raw", UTF8, URI_COMPONENT, 0, 8, 0),
        ("utf8-raw-fragment", "utf8-raw", 0, FRAGMENT, 0, 9, 5),
        ("malformed-keep", "malformed", KEEP_ESCAPES, USERINFO, 0, 10, 0),
        ("binary-c0", "binary", 0, C0, 0, 11, 0),
        ("binary-full-plus", "binary", PLUS, FULL, 0, 12, 7),
        ("binary-empty", "binary", 0, EMPTY, 0, 13, 0),
        ("escape-bytes", "malformed", KEEP_ESCAPES | PLUS, ESCAPE_BYTES, 0, 14, 0),
        ("special-query", "url", 0, SPECIAL_QUERY, 0, 15, 0),
        ("long-rfc3986", "long", KEEP_ESCAPES, RFC3986, 0, 16, 0),
        ("long-utf8-form", "long", UTF8 | PLUS, FORM, 0, 17, 11),
    ],
    "fuzz_validate": [
        ("url-component", "url", 0, COMPONENT, 0, 0, 0),
        ("url-uri-strict", "url", STRICT, URI, 0, 0, 1),
        ("form-plus", "form", PLUS, FORM, 0, 0, 0),
        ("form-plus-utf8", "form", PLUS | UTF8, COMPONENT, 0, 0, 2),
        ("percent-u", "percent-u", PERCENT_U, C0, 0, 0, 0),
        ("percent-u-strict", "percent-u", PERCENT_U | STRICT | UTF8, EMPTY, 0, 0, 3),
        ("malformed", "malformed", 0, PATH, 0, 0, 0),
        ("malformed-strict-empty", "malformed", STRICT, EMPTY, 0, 0, 0),
        ("utf8-escaped", "utf8-escaped", UTF8, RFC3986, 0, 0, 5),
        ("utf8-raw", "utf8-raw", UTF8, EMPTY, 0, 0, 0),
        ("text-query", "text", 0, QUERY, 0, 0, 0),
        ("binary-full", "binary", 0, FULL, 0, 0, 0),
        ("normalize", "normalize", STRICT, RFC3986, 0, 0, 0),
        ("long-fragment", "long", PERCENT_U | PLUS, FRAGMENT, 0, 0, 0),
        ("long-utf8", "long", PERCENT_U | UTF8, EMPTY, 0, 0, 9),
    ],
}

# A few seeds with user-built sets (selector 13: 32 bytes follow the header).
USER_SET = bytes((0x5A * (i + 1) + 0x33) & 0xFF for i in range(32))


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    for target, seeds in SEEDS.items():
        d = os.path.join(root, target)
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            os.remove(os.path.join(d, old))
        for name, key, flags, set_sel, keep, chunk, align in seeds:
            header = bytes([flags, set_sel, keep, chunk, align])
            with open(os.path.join(d, name), "wb") as fh:
                fh.write(header + PAYLOADS[key])
        if target == "fuzz_decode":
            with open(os.path.join(d, "user-keep"), "wb") as fh:
                fh.write(bytes([PLUS, 0, K_USER32, 19, 0]) + USER_SET + PAYLOADS["url"])
        else:
            with open(os.path.join(d, "user-set"), "wb") as fh:
                fh.write(bytes([PLUS, USER32, 0, 19, 0]) + USER_SET + PAYLOADS["long"])
            with open(os.path.join(d, "user-ascii-set"), "wb") as fh:
                fh.write(bytes([0, USER_ASCII, 0, 20, 6]) + USER_SET[:16] + PAYLOADS["form"])


if __name__ == "__main__":
    main()
