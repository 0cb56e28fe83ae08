/* test_utf8_validate.c - pct_validate_utf8 on every implementation: the
 * Unicode Table 3-7 vectors with the offset of the first ill-formed sequence,
 * and random byte strings (across 64-byte block edges) against the scalar
 * PCT_UTF8 check of decoded output (on input with no '%', decoding changes
 * nothing, so both must agree byte for byte). */
#include "check_impls.h"
#include "impl.h"
#include "pct.h"

#define EXPECT_UTF8(text, st, at)                                                                  \
    CHECK_RESULT(pct_validate_utf8((text), sizeof(text) - 1), (st), (at))

static void vectors(void)
{
    EXPECT_UTF8("", PCT_OK, 0);
    EXPECT_UTF8("plain ascii, longer than one word", PCT_OK, 33);
    EXPECT_UTF8("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", PCT_OK, 14);
    EXPECT_UTF8("\xef\xbf\xbf\xf4\x8f\xbf\xbf", PCT_OK, 7); /* U+FFFF, U+10FFFF */
    EXPECT_UTF8("abcdefgh\x80", PCT_INVALID_UTF8, 8);       /* stray continuation */
    EXPECT_UTF8("ab\xc0\xaf", PCT_INVALID_UTF8, 2);         /* overlong '/' */
    EXPECT_UTF8("ab\xc1\xbf", PCT_INVALID_UTF8, 2);
    EXPECT_UTF8("a\xe0\x80\x80", PCT_INVALID_UTF8, 1);     /* overlong, 3 bytes */
    EXPECT_UTF8("a\xed\xa0\x80", PCT_INVALID_UTF8, 1);     /* surrogate D800 */
    EXPECT_UTF8("a\xf0\x8f\xbf\xbf", PCT_INVALID_UTF8, 1); /* overlong, 4 bytes */
    EXPECT_UTF8("a\xf4\x90\x80\x80", PCT_INVALID_UTF8, 1); /* above U+10FFFF */
    EXPECT_UTF8("a\xf5\x80\x80\x80", PCT_INVALID_UTF8, 1);
    EXPECT_UTF8("a\xff", PCT_INVALID_UTF8, 1);
    EXPECT_UTF8("\xc3\xa9\xe2\x82", PCT_INVALID_UTF8, 2); /* truncated at the end */
    EXPECT_UTF8("\xe2\x82x", PCT_INVALID_UTF8, 0);        /* cut by ASCII */
    EXPECT_UTF8("%C3%A9%FF", PCT_OK, 9);                  /* nothing is decoded */
    CHECK_RESULT(pct_validate_utf8(NULL, 0), PCT_OK, 0);
    CHECK_RESULT(pct_validate_utf8(NULL, 1), PCT_INVALID_ARGUMENT, 0);
}

/* Mostly valid UTF-8 with rare damage, no '%'. */
static size_t random_text(char *out, size_t max)
{
    static const char *const pieces[] = {
        "a",    "xyz01234", "\xc3\xa9",     "\xe2\x82\xac", "\xf0\x9f\x98\x80",
        "\x80", "\xc3",     "\xed\xa0\x80", "\xf4\x90",     "\xff"};
    size_t n = 0, count = rng_below(40);
    for (size_t k = 0; k < count; k++) {
        const char *p = pieces[rng_chance(85) ? rng_below(5) : 5 + rng_below(5)];
        size_t len = strlen(p);
        if (n + len > max)
            break;
        memcpy(out + n, p, len);
        n += len;
    }
    return n;
}

static void expect_as_scalar_decode(const char *text, size_t len)
{
    pct_set none;
    pct_set_clear(&none);
    const pct_result want = pct_scalar_validate((const uint8_t *)text, len, &none, PCT_UTF8);
    CHECK_RESULT(pct_validate_utf8(text, len), want.status, want.count);
}

static void against_decode(void)
{
    char text[256];
    for (unsigned long i = 0, n = test_iters(20000); i < n; i++) {
        size_t len = random_text(text, sizeof text);
        check_input(text, len, "random text %lu", i);
        expect_as_scalar_decode(text, len);
    }
}

/* Every length up to 200 of a UTF-8 text, so that a sequence is cut at every
 * position and block edge, and one damaged byte at every position. */
static void block_edges(void)
{
    char text[200];
    static const char euro[] = "\xe2\x82\xac";
    for (size_t k = 0; k < sizeof text; k++)
        text[k] = k % 4 == 3 ? 'x' : euro[k % 4];
    for (size_t len = 0; len <= sizeof text; len++) {
        check_input(text, len, "prefix of %zu bytes", len);
        expect_as_scalar_decode(text, len);
    }
    for (size_t at = 0; at < sizeof text; at++) {
        const char saved = text[at];
        text[at] = (char)0xC0;
        check_input(text, sizeof text, "0xC0 at %zu", at);
        expect_as_scalar_decode(text, sizeof text);
        text[at] = saved;
    }
}

int main(void)
{
    test_seed("utf8_validate");
    for (FOR_EACH_IMPL(k)) {
        vectors();
        against_decode();
        block_edges();
    }
    return check_done();
}
