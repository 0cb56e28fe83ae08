/* test_normalize.c - pct_normalize (RFC 3986 6.2.2.1-2): upper-case hex,
 * unreserved escapes decoded, the stray-'%' rule that keeps it idempotent,
 * STRICT errors, never longer, in place; exhaustively over short strings of
 * an adversarial alphabet and on random inputs, against the model. */
#include "check_impls.h"
#include "ops.h"
#include "pct.h"
#include "ref.h"

/* Which reading of "within two bytes after a stray '%'" the library follows
 * (see ref_normalize_as): 0 input bytes, 1 output bytes. Either is accepted,
 * but one implementation must stick to one. */
static int normalize_reading;

/* Normalizes src (out of place and in place) and checks against the model,
 * idempotence, length, and that decoding is unchanged by normalizing. */
static void normalize_check(const uint8_t *src, size_t len, unsigned flags)
{
    char *in = xdup(src, len), *dst = (char *)xmalloc(len), *model = (char *)xmalloc(len);
    char *model2 = (char *)xmalloc(len);
    pct_result r = pct_normalize(in, len, dst, flags);
    pct_result m = ref_normalize_as(src, len, flags, model, 0);
    pct_result m2 = ref_normalize_as(src, len, flags, model2, 1);
    int ok = 1;
    if (normalize_reading == 0 && (r.status != m.status || r.count != m.count ||
                                   (r.status == PCT_OK && mem_cmp(dst, model, r.count) != 0))) {
        /* not the input reading: the output one, consistently, then */
        normalize_reading = 1;
        printf("  pct_normalize counts the stray-'%%' distance in output bytes\n");
    }
    if (normalize_reading == 1) {
        mem_cpy(model, model2, m2.status == PCT_OK ? m2.count : 0);
        m = m2;
    }
    if (r.status != m.status || r.count != m.count ||
        (r.status == PCT_OK && mem_cmp(dst, model, r.count) != 0)) {
        check_input(src, len, "normalize flags=%s", flag_str(flags));
        if (r.status == PCT_OK && m.status == PCT_OK)
            CHECK_MEM(model, m.count, dst, r.count);
        else
            CHECK_RESULT(r, m.status, m.count);
        ok = 0;
    }
    if (ok && r.status == PCT_OK) {
        char *again = xdup(dst, r.count), *out2 = (char *)xmalloc(r.count);
        pct_result r2 = pct_normalize(again, r.count, out2, flags);
        char *d1 = (char *)xmalloc(len), *d2 = (char *)xmalloc(r.count);
        pct_result a, b;
        if (!(r.count <= len) || r2.status != PCT_OK || r2.count != r.count ||
            mem_cmp(out2, dst, r.count) != 0) {
            check_input(src, len, "normalize not idempotent / longer, flags=%s", flag_str(flags));
            CHECK(r.count <= len);
            if (CHECK_RESULT(r2, PCT_OK, r.count))
                CHECK_MEM(dst, r.count, out2, r2.count);
            ok = 0;
        }
        /* normalizing does not change what the string decodes to */
        a = pct_decode((const char *)src, len, d1, 0);
        b = pct_decode(dst, r.count, d2, 0);
        if (a.status != PCT_OK || b.status != PCT_OK || a.count != b.count ||
            mem_cmp(d1, d2, a.count) != 0) {
            check_input(src, len, "decode(normalize(x)) != decode(x)");
            if (CHECK_RESULT(b, PCT_OK, a.count))
                CHECK_MEM(d1, a.count, d2, b.count);
            ok = 0;
        }
        free(again);
        free(out2);
        free(d1);
        free(d2);
    }
    /* in place */
    mem_cpy(in, src, len);
    {
        pct_result r3 = pct_normalize(in, len, in, flags);
        if (r3.status != r.status || r3.count != r.count ||
            (r.status == PCT_OK && mem_cmp(in, dst, r.count) != 0)) {
            check_input(src, len, "in-place normalize flags=%s", flag_str(flags));
            if (CHECK_RESULT(r3, r.status, r.count) && r.status == PCT_OK)
                CHECK_MEM(dst, r.count, in, r3.count);
            ok = 0;
        }
    }
    if (ok)
        check_passed++;
    free(in);
    free(dst);
    free(model);
    free(model2);
}

static void vectors(void)
{
    EXPECT_NORMALIZE("", 0, "");
    EXPECT_NORMALIZE("abc", PCT_STRICT, "abc");
    EXPECT_NORMALIZE("%2f%2F%e9%c3%A9%20%25%3d", 0, "%2F%2F%E9%C3%A9%20%25%3D");
    EXPECT_NORMALIZE("%41%5A%61%7A%30%39%2D%2E%5F%7E", 0, "AZaz09-._~");
    EXPECT_NORMALIZE("%41%5a%61%7a%2d%2e%5f%7e", PCT_STRICT, "AZaz-._~");
    EXPECT_NORMALIZE("%40%5B%60%7B%2F%3A%21%2A", 0, "%40%5B%60%7B%2F%3A%21%2A");
    EXPECT_NORMALIZE("%00%7F%80%FF", 0, "%00%7F%80%FF");
    /* decoded once: "%2541" stays (reserved '%' escaped, then "41") */
    EXPECT_NORMALIZE("%2541", 0, "%2541");
    EXPECT_NORMALIZE("%252e", 0, "%252e");
    /* nothing but escapes changes */
    EXPECT_NORMALIZE("A b+%zz%", 0, "A b+%zz%");
    EXPECT_NORMALIZE("%u0041", 0, "%u0041");
    /* malformed escapes: copied, or an error under STRICT */
    EXPECT_NORMALIZE("%", 0, "%");
    EXPECT_NORMALIZE("%4", 0, "%4");
    EXPECT_NORMALIZE("%zz%41", 0, "%zzA");
    EXPECT_NORMALIZE_ERR("%", PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_NORMALIZE_ERR("a%4", PCT_STRICT, PCT_INVALID_ESCAPE, 1);
    EXPECT_NORMALIZE_ERR("%41%zz", PCT_STRICT, PCT_INVALID_ESCAPE, 3);
    EXPECT_NORMALIZE_ERR("%%41", PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    /* the stray-'%' rule: an escape of a hex digit one or two bytes after a
     * stray '%' stays encoded, so no new escape appears */
    EXPECT_NORMALIZE("%6%41", 0, "%6%41");
    EXPECT_NORMALIZE("%%414", 0, "%%414");
    EXPECT_NORMALIZE("%x%41", 0, "%x%41");
    EXPECT_NORMALIZE("%6%61", 0, "%6%61");
    EXPECT_NORMALIZE("%6%4a", 0, "%6J");     /* 'J' is no hex digit */
    EXPECT_NORMALIZE("%4%7E", 0, "%4~");     /* nor is '~' */
    EXPECT_NORMALIZE("%4%7e%41", 0, "%4~A"); /* three bytes after: decoded */
    EXPECT_NORMALIZE("%%34%31", 0, "%%341"); /* the first is after the '%', */
    EXPECT_NORMALIZE("%%%41", 0, "%%%41");   /* the second is not */
    EXPECT_NORMALIZE("%%6%61", 0, "%%6%61");
    EXPECT_NORMALIZE("%g%30%31", 0, "%g%301"); /* p+2 kept, p+5 decoded */
    EXPECT_NORMALIZE("%41%6%62", 0, "A%6%62");
    EXPECT_NORMALIZE("%6%2f", 0, "%6%2F");
    /* flags */
    {
        static const unsigned bad[] = {PCT_PLUS,         PCT_UTF8, PCT_KEEP_ESCAPES, PCT_PERCENT_U,
                                       PCT_UTF8_REPLACE, 64,       1u << 16,         ~0u};
        char dst[8];
        size_t i;
        pct_result r;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            check_input(S("%41"), "normalize, bad flags %s", flag_str(bad[i]));
            memset(dst, '#', sizeof dst);
            r = pct_normalize("%41", 3, dst, bad[i]);
            CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
            CHECK(mem_cmp(dst, "########", 8) == 0);
        }
        check_input(NULL, 0, "normalize NULL");
        r = pct_normalize(NULL, 0, NULL, PCT_STRICT);
        CHECK_RESULT(r, PCT_OK, 0);
        r = pct_normalize(NULL, 3, dst, 0);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
        r = pct_normalize("%41", 3, NULL, 0);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    }
}

/* Every string up to maxlen over an alphabet built to make stray '%'s next
 * to escapes of hex digits. */
static void exhaustive(int first)
{
    static const char alpha[] = "%46aEg~";
    const size_t na = sizeof alpha - 1, maxlen = test_quick() ? 5 : first ? 6 : 5;
    uint8_t buf[8];
    size_t len, idx[8], k;
    for (len = 0; len <= maxlen; len++) {
        memset(idx, 0, sizeof idx);
        for (;;) {
            for (k = 0; k < len; k++)
                buf[k] = (uint8_t)alpha[idx[k]];
            normalize_check(buf, len, 0);
            if (len <= 4)
                normalize_check(buf, len, PCT_STRICT);
            for (k = 0; k < len && ++idx[k] == na; k++)
                idx[k] = 0;
            if (k == len)
                break;
        }
    }
}

static void random_inputs(void)
{
    static const char *const pieces[] = {"%",   "%%",  "%4",  "%6",  "%41", "%61", "%6a", "%7e",
                                         "%7E", "%2f", "%25", "4",   "1",   "a",   "F",   "g",
                                         "%30", "%39", "%46", "%66", "%67", "%2d", "%5f", "x"};
    enum {
        MAX = 1000
    };
    static uint8_t buf[MAX + 64];
    unsigned long it, iters = test_iters(20000);
    for (it = 0; it < iters; it++) {
        size_t len;
        if (it % 2) {
            size_t target = rng_below(it % 50 == 1 ? MAX : 40), n = 0;
            while (n < target) {
                const char *p = pieces[rng_below(sizeof pieces / sizeof pieces[0])];
                mem_cpy(buf + n, p, strlen(p));
                n += strlen(p);
            }
            len = n > MAX ? MAX : n;
        } else {
            len = gen_decode_input(buf, it % 50 == 0 ? MAX : 40, 1);
        }
        normalize_check(buf, len, rng_chance(20) ? PCT_STRICT : 0);
    }
}

/* A kept escape split by a 64-byte block edge, then stray '%' everywhere:
 * a kernel hands the rest over to the scalar routine in windows, and no
 * window may end away from a stray '%' (regression: this recursed forever). */
static void kept_escape_then_strays(void)
{
    enum {
        STRAYS = 5000
    };
    static uint8_t buf[80 + STRAYS];
    for (size_t pad = 58; pad <= 66; pad++) {
        memset(buf, 'a', pad);
        mem_cpy(buf + pad, "%2f", 3);
        memset(buf + pad + 3, '%', STRAYS);
        normalize_check(buf, pad + 3 + STRAYS, 0);
    }
}

int main(void)
{
    test_seed("test_normalize");
    for (FOR_EACH_IMPL(k)) {
        vectors();
        exhaustive(k == 0);
        kept_escape_then_strays();
        random_inputs();
    }
    return check_done();
}
