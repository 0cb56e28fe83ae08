/* test_properties.c - algebraic properties on random inputs, with the
 * library as its own oracle (no model):
 *   decode(encode(x, S)) == x           ('%' in S; else == decode(x))
 *   decode(encode(x, S, PLUS), PLUS) == x   ('%', '+' in S)
 *   decode(encode(x, S, KEEP_ESCAPES)) == decode(x)   ('%' in S)
 *   decode(encode(x, S, UTF8), STRICT|UTF8) == x      (x UTF-8, '%' in S)
 *   validate(encode(x, S, f), S, f) is OK, count == decoded length
 *   encode_length(x, S, f) == length of encode(x, S, f)
 *   normalize is idempotent, never longer, keeps the decoded value, and
 *     leaves encode(x, rfc3986) alone
 *   decode(x, UTF8_REPLACE) is UTF-8, equals decode(x, UTF8) when that works
 */
#include "check_impls.h"
#include "ops.h"
#include "pct.h"
#include "ref.h"

static const ref_named_set sets[] = REF_PREDEFINED_SETS;
#define NSETS (sizeof sets / sizeof sets[0])

/* encode with an exactly-sized buffer (from pct_encode_length); *out is
 * malloc'd; returns the result. Checks the length promise on the way. */
static pct_result enc(const uint8_t *x, size_t n, const pct_set *s, unsigned flags, char **out)
{
    size_t l = pct_encode_length((const char *)x, n, s, flags);
    pct_result r;
    *out = (char *)xmalloc(l);
    r = pct_encode((const char *)x, n, *out, s, flags);
    if (r.status == PCT_OK && r.count != l) {
        CHECK_MSG(0, "pct_encode_length %zu != pct_encode's %zu (flags %s)", l, r.count,
                  flag_str(flags));
    } else {
        check_passed++;
    }
    return r;
}

static pct_result dec(const char *x, size_t n, unsigned flags, char **out)
{
    *out = (char *)xmalloc((flags & PCT_UTF8_REPLACE) ? 3 * n : n);
    return pct_decode(x, n, *out, flags);
}

static void one_input(const uint8_t *x, size_t n, size_t si, int utf8_ok)
{
    const pct_set *S = sets[si].set;
    int has_pct = pct_set_contains(S, '%'), has_plus = pct_set_contains(S, '+');
    char *e = NULL, *d = NULL, *dx = NULL;
    pct_result re, rd, rdx, rv;
    static const unsigned eflags[] = {PCT_PLUS, PCT_KEEP_ESCAPES, PCT_UTF8,
                                      PCT_PLUS | PCT_KEEP_ESCAPES | PCT_UTF8};
    size_t f;

    check_input(x, n, "properties, set %s", sets[si].name);
    rdx = dec((const char *)x, n, 0, &dx); /* decode(x) */
    CHECK_RESULT(rdx, PCT_OK, rdx.count);

    /* plain round trip */
    re = enc(x, n, S, 0, &e);
    if (CHECK_RESULT(re, PCT_OK, re.count)) {
        rd = dec(e, re.count, 0, &d);
        if (has_pct)
            CHECK_OUT(rd, d, x, n);
        else
            CHECK_OUT(rd, d, dx, rdx.count);
        rv = pct_validate(e, re.count, S, 0);
        CHECK_RESULT(rv, PCT_OK, rd.count);
        if (has_pct) { /* then no stray '%' is left: STRICT works too */
            rv = pct_validate(e, re.count, S, PCT_STRICT);
            CHECK_RESULT(rv, PCT_OK, n);
        }
        free(d);
    }
    free(e);

    /* form round trip */
    if (has_pct && has_plus) {
        re = enc(x, n, S, PCT_PLUS, &e);
        if (CHECK_RESULT(re, PCT_OK, re.count)) {
            rd = dec(e, re.count, PCT_PLUS, &d);
            CHECK_OUT(rd, d, x, n);
            rv = pct_validate(e, re.count, S, PCT_PLUS | PCT_STRICT);
            CHECK_RESULT(rv, PCT_OK, n);
            free(d);
        }
        free(e);
    }

    /* no double encoding */
    if (has_pct) {
        re = enc(x, n, S, PCT_KEEP_ESCAPES, &e);
        if (CHECK_RESULT(re, PCT_OK, re.count)) {
            rd = dec(e, re.count, 0, &d);
            CHECK_OUT(rd, d, dx, rdx.count);
            free(d);
        }
        free(e);
    }

    /* the JavaScript round trip */
    re = enc(x, n, S, PCT_UTF8, &e);
    if (utf8_ok) {
        if (CHECK_RESULT(re, PCT_OK, re.count) && has_pct) {
            rd = dec(e, re.count, PCT_STRICT | PCT_UTF8, &d);
            CHECK_OUT(rd, d, x, n);
            free(d);
        }
    } else {
        CHECK_RESULT(re, PCT_INVALID_UTF8, ref_utf8_check(x, n, NULL));
    }
    free(e);

    /* every other flag combination: exact length and valid output */
    for (f = 0; f < sizeof eflags / sizeof eflags[0]; f++) {
        re = enc(x, n, S, eflags[f], &e);
        if (re.status == PCT_OK) {
            unsigned vflags = eflags[f] & PCT_PLUS;
            rv = pct_validate(e, re.count, S, vflags);
            rd = dec(e, re.count, vflags, &d);
            CHECK_RESULT(rv, PCT_OK, rd.count);
            free(d);
        }
        free(e);
    }
    free(dx);
}

static void normalize_props(const uint8_t *x, size_t n)
{
    char *a = (char *)xmalloc(n), *b, *d1, *d2, *e;
    pct_result ra = pct_normalize((const char *)x, n, a, 0), rb, r1, r2, re;
    check_input(x, n, "normalize properties");
    if (CHECK_RESULT(ra, PCT_OK, ra.count) && CHECK(ra.count <= n)) {
        b = (char *)xmalloc(ra.count);
        rb = pct_normalize(a, ra.count, b, 0);
        CHECK_OUT(rb, b, a, ra.count);
        r1 = dec((const char *)x, n, 0, &d1);
        r2 = dec(a, ra.count, 0, &d2);
        CHECK_OUT(r2, d2, d1, r1.count);
        free(b);
        free(d1);
        free(d2);
    }
    free(a);
    /* encode(x, rfc3986) is already normal */
    re = enc(x, n, &pct_set_rfc3986, 0, &e);
    a = (char *)xmalloc(re.count);
    ra = pct_normalize(e, re.count, a, PCT_STRICT);
    CHECK_OUT(ra, a, e, re.count);
    free(a);
    free(e);
}

static int contains_fffd(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i + 3 <= n; i++)
        if (mem_cmp(s + i, "\xEF\xBF\xBD", 3) == 0)
            return 1;
    return 0;
}

static void replace_props(const uint8_t *x, size_t n)
{
    char *r = NULL, *u = NULL;
    pct_result rr = dec((const char *)x, n, PCT_UTF8_REPLACE, &r);
    pct_result ru = dec((const char *)x, n, PCT_UTF8, &u);
    check_input(x, n, "UTF8_REPLACE properties");
    if (CHECK_RESULT(rr, PCT_OK, rr.count)) {
        CHECK(ref_utf8_check((const uint8_t *)r, rr.count, NULL) == rr.count);
        if (ru.status == PCT_OK)
            CHECK_OUT(rr, r, u, ru.count);
        else
            CHECK(contains_fffd(r, rr.count)); /* something was replaced */
    }
    free(r);
    free(u);
}

int main(void)
{
    enum {
        MAX = 600
    };
    static uint8_t x[MAX + 32];
    unsigned long it, iters = test_iters(6000);
    test_seed("test_properties");
    for (FOR_EACH_IMPL(k)) {
        for (it = 0; it < iters; it++) {
            size_t n, si = it % NSETS;
            size_t maxlen = it % 37 == 0 ? MAX : 40;
            switch (it % 4) {
            case 0: /* valid UTF-8 text */
                n = 0;
                while (n + 4 < maxlen && rng_chance(90))
                    n += ref_utf8_put(gen_code_point(), x + n);
                break;
            case 1:
                n = gen_encode_input(x, maxlen);
                break;
            case 2:
                n = gen_decode_input(x, maxlen, 1);
                break;
            default:
                n = rng_below(maxlen);
                for (size_t i = 0; i < n; i++)
                    x[i] = (uint8_t)rng_below(256);
                break;
            }
            one_input(x, n, si, ref_utf8_check(x, n, NULL) == n);
            if (si == 0) {
                normalize_props(x, n);
                replace_props(x, n);
            }
        }
    }
    return check_done();
}
