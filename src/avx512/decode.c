/* avx512/decode.c - the AVX-512 percent-decoder: avx512/decode_body.h over
 * avx512/block.h. */
#include "avx512/block.h"
#include "avx512/decode_body.h"
#include "avx512/kernels.h"

/* Inputs from this long on may hold runs of escapes worth decoding 64 at a
 * time (a block of escapes only, then 192 bytes), or runs of ASCII blocks
 * whose UTF-8 check is skipped: shorter ones take a copy without those
 * tests (and the call of the runs of escapes), which cost a short call
 * ~3 ns, and a log line's UTF-8 check 4%. */
#define LONG_INPUT_MIN 320

/* The common one-shot cases get their own copies of the body, with the
 * flags known and no partial mode, so their blocks carry no test of a flag
 * they do not have and a short call skips what only streaming needs (about
 * 3 ns of a ~12 ns call on 24 bytes, measured). Each copy is its own
 * function, so the entry point is a few compares and a jump. */
#define DECODE_ONE_SHOT(name, flags_known, long_input)                                             \
    __attribute__((noinline)) static pct_result name(const uint8_t *src, size_t len, uint8_t *dst) \
    {                                                                                              \
        return decode_body(src, len, dst, NULL, flags_known, NULL, long_input, NULL);              \
    }
DECODE_ONE_SHOT(decode_plain_short, 0, 0)
DECODE_ONE_SHOT(decode_plain, 0, 1)
DECODE_ONE_SHOT(decode_form_short, PCT_PLUS, 0)
DECODE_ONE_SHOT(decode_form, PCT_PLUS, 1)
DECODE_ONE_SHOT(decode_strict_utf8_short, PCT_STRICT | PCT_UTF8, 0)
DECODE_ONE_SHOT(decode_strict_utf8, PCT_STRICT | PCT_UTF8, 1)

/* The same with a set of escapes kept, for the short pieces a log processor
 * decodes: a request path with '/' kept, a form query with '&' and '='
 * kept, their output checked as UTF-8. */
#define DECODE_KEEP_SHORT(name, flags_known)                                                       \
    __attribute__((noinline)) static pct_result name(const uint8_t *src, size_t len, uint8_t *dst, \
                                                     const pct_set *keep)                          \
    {                                                                                              \
        return decode_body(src, len, dst, keep, flags_known, NULL, 0, NULL);                       \
    }
DECODE_KEEP_SHORT(decode_keep_utf8_short, PCT_UTF8)
DECODE_KEEP_SHORT(decode_keep_form_utf8_short, PCT_PLUS | PCT_UTF8)

__attribute__((noinline)) static pct_result decode_any(const uint8_t *src, size_t len, uint8_t *dst,
                                                       const pct_set *keep, unsigned flags,
                                                       size_t *consumed)
{
    return decode_body(src, len, dst, keep, flags, consumed, 1, NULL);
}

pct_result pct_avx512_decode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                             unsigned flags, size_t *consumed)
{
    if (keep == NULL && consumed == NULL) {
        const int long_input = len >= LONG_INPUT_MIN;
        if (flags == 0)
            return long_input ? decode_plain(src, len, dst) : decode_plain_short(src, len, dst);
        if (flags == PCT_PLUS)
            return long_input ? decode_form(src, len, dst) : decode_form_short(src, len, dst);
        if (flags == (PCT_STRICT | PCT_UTF8))
            return long_input ? decode_strict_utf8(src, len, dst)
                              : decode_strict_utf8_short(src, len, dst);
    } else if (consumed == NULL && len < LONG_INPUT_MIN) {
        if (flags == PCT_UTF8)
            return decode_keep_utf8_short(src, len, dst, keep);
        if (flags == (PCT_PLUS | PCT_UTF8))
            return decode_keep_form_utf8_short(src, len, dst, keep);
    }
    return decode_any(src, len, dst, keep, flags, consumed);
}
