/* json_strict.h - a strict JSON checker for the log fuzz targets: one line of
 * `pct logs --json` output must be one JSON object (RFC 8259) that every
 * parser reads the same way. Stricter than the RFC where parsers disagree:
 * no two members of one object with the same name (compared after
 * unescaping, so "pa\u0074h" repeats "path"), strings are valid UTF-8 (no
 * overlong forms, no surrogates, nothing above U+10FFFF) and \u escapes
 * make no unpaired surrogate; no control character in a string; nesting at
 * most JSON_STRICT_DEPTH deep. */
#ifndef PCT_TESTS_FUZZ_JSON_STRICT_H
#define PCT_TESTS_FUZZ_JSON_STRICT_H

#include <stddef.h>

#define JSON_STRICT_DEPTH 64

/* NULL when s[0..n) is exactly one JSON object (whitespace around it
 * allowed), else what is wrong (a static string) and *at its byte offset. */
const char *json_strict_object(const char *s, size_t n, size_t *at);

/* The offset of the first byte of s[0..n) that is not part of valid UTF-8
 * (the rules above), or n. */
size_t json_strict_utf8_end(const char *s, size_t n);

/* Runs the checker on texts whose verdict is known; NULL, or the first
 * text it judged wrongly (the fuzz targets call it once, at start). */
const char *json_strict_self_test(void);

#endif
