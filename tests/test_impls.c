/* test_impls.c - every implementation this CPU runs against the scalar
 * reference, through the internal table (impl.h): find, find_all, encode_length,
 * encode, decode (including the normalize mode and the partial, streaming
 * form with consumed != NULL) and validate must agree byte for byte, status
 * for status, offset for offset. Inputs and outputs sit flush against
 * PROT_NONE guard pages (after, then before), so a SIMD over- or under-read
 * faults even in an optimized build without sanitizers. POSIX (mmap). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS in glibc */

#include "check.h"
#include "impl.h"
#include "ops.h"
#include "pct.h"
#include "ref.h"
#include "support/guard.h"
#include "support/impls.h"

/* ------------------------------------------------------------------------ */
/* Comparisons                                                               */
/* ------------------------------------------------------------------------ */

enum {
    MAXLEN = 2000
};
static guarded gin, gout, gref;

static const unsigned dec_flags[] = {0,
                                     PCT_PLUS,
                                     PCT_STRICT,
                                     PCT_UTF8,
                                     PCT_UTF8_REPLACE,
                                     PCT_PERCENT_U,
                                     PCT_STRICT | PCT_UTF8,
                                     PCT_PLUS | PCT_UTF8_REPLACE,
                                     PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U,
                                     PCT_PLUS | PCT_STRICT | PCT_UTF8_REPLACE | PCT_PERCENT_U,
                                     PCT_INTERNAL_NORMALIZE,
                                     PCT_INTERNAL_NORMALIZE | PCT_STRICT};
#define NDEC (sizeof dec_flags / sizeof dec_flags[0])
static const unsigned enc_flags[] = {0, PCT_PLUS, PCT_KEEP_ESCAPES, PCT_UTF8,
                                     PCT_PLUS | PCT_KEEP_ESCAPES | PCT_UTF8};
#define NENC (sizeof enc_flags / sizeof enc_flags[0])
static const pct_set *const sets[] = {&pct_set_c0_control, &pct_set_query, &pct_set_path,
                                      &pct_set_component,  &pct_set_form,  &pct_set_rfc3986,
                                      &pct_set_uri};
#define NSETS (sizeof sets / sizeof sets[0])
static pct_set keep_ascii;

static int same(pct_result a, pct_result b)
{
    return a.status == b.status && a.count == b.count;
}

static void compare_one(const pct_impl *im, const uint8_t *data, size_t len, int at_end)
{
    const pct_impl *ref = test_scalar_impl();
    unsigned char *in = guarded_place(&gin, len, at_end);
    size_t f, s, consumed;
    pct_result a, b;
    mem_cpy(in, data, len);

    /* find, on a few sets */
    for (s = 0; s < NSETS; s += 3) {
        size_t x = im->find(in, len, sets[s]), y = pct_scalar_find(in, len, sets[s]);
        if (x != y) {
            check_input(data, len, "find (%s)", at_end ? "at end" : "at start");
            CHECK_EQ(x, y);
        } else {
            check_passed++;
        }
    }
    /* find_all, on the same sets and one that differs by length: the words
     * written flush against the guard, so a word too many faults */
    for (s = 0; s < NSETS + 1; s += 3) {
        const pct_set *set = s < NSETS ? sets[s] : sets[len % NSETS];
        size_t words = (len + 63) / 64;
        uint64_t *x = (void *)guarded_place(&gout, words * sizeof(uint64_t), 1);
        uint64_t *y = (void *)gref.data;
        pct_find_all_fn *find_all = im->find_all != NULL ? im->find_all : pct_scalar_find_all;
        find_all(in, len, set, x);
        pct_scalar_find_all(in, len, set, y);
        if (mem_cmp(x, y, words * sizeof(uint64_t)) != 0) {
            check_input(data, len, "find_all (%s)", at_end ? "at end" : "at start");
            CHECK_MEM(y, words * sizeof(uint64_t), x, words * sizeof(uint64_t));
        } else {
            check_passed++;
        }
    }
    /* encode_length and encode */
    for (f = 0; f < NENC; f++) {
        const pct_set *set = sets[(len + f) % NSETS];
        unsigned flags = enc_flags[f];
        size_t l1 = im->encode_length(in, len, set, flags);
        size_t l2 = pct_scalar_encode_length(in, len, set, flags);
        unsigned char *o1, *o2;
        check_input(data, len, "encode flags=%s (%s)", flag_str(flags),
                    at_end ? "at end" : "at start");
        if (!CHECK_EQ(l1, l2))
            continue;
        o1 = guarded_place(&gout, l1, 1); /* output flush against the guard too */
        o2 = gref.data;
        a = im->encode(in, len, o1, set, flags, NULL);
        b = ref->encode(in, len, o2, set, flags, NULL);
        if (!same(a, b) || (a.status == PCT_OK && mem_cmp(o1, o2, a.count) != 0)) {
            if (CHECK_RESULT(a, b.status, b.count))
                CHECK_MEM(o2, b.count, o1, a.count);
        } else {
            check_passed++;
        }
        /* partial: a prefix's worth, then compare with the reference on it */
        a = im->encode(in, len, guarded_place(&gout, 3 * len, 1), set, flags, &consumed);
        if (a.status == PCT_OK) {
            CHECK(consumed <= len && len - consumed <= PCT_MAX_UNCONSUMED);
            b = ref->encode(in, consumed, o2, set, flags, NULL);
            if (CHECK_RESULT(b, PCT_OK, a.count))
                CHECK_MEM(o2, b.count, guarded_place(&gout, 3 * len, 1), a.count);
        } else {
            b = ref->encode(in, len, o2, set, flags, NULL);
            CHECK_RESULT(a, b.status, b.count);
        }
    }
    /* decode, including normalize mode */
    for (f = 0; f < NDEC; f++) {
        unsigned flags = dec_flags[f];
        const pct_set *keep = (flags & PCT_INTERNAL_NORMALIZE) ? &pct_set_rfc3986
                              : (len + f) % 3 == 0             ? &keep_ascii
                                                               : NULL;
        size_t cap = (flags & PCT_UTF8_REPLACE) ? 3 * len : len;
        unsigned char *o1 = guarded_place(&gout, cap, 1), *o2 = gref.data;
        check_input(data, len, "decode flags=%s%s%s (%s)", flag_str(flags & 63),
                    (flags & PCT_INTERNAL_NORMALIZE) ? "|NORMALIZE" : "", keep ? " keep" : "",
                    at_end ? "at end" : "at start");
        a = im->decode(in, len, o1, keep, flags, NULL);
        b = ref->decode(in, len, o2, keep, flags, NULL);
        if (!same(a, b) || (a.status == PCT_OK && mem_cmp(o1, o2, a.count) != 0)) {
            if (a.status == PCT_OK && b.status == PCT_OK)
                CHECK_MEM(o2, b.count, o1, a.count);
            else
                CHECK_RESULT(a, b.status, b.count);
        } else {
            check_passed++;
        }
        if (flags & PCT_INTERNAL_NORMALIZE)
            continue;
        a = im->decode(in, len, o1, keep, flags, &consumed);
        if (a.status == PCT_OK) {
            CHECK(consumed <= len && len - consumed <= PCT_MAX_UNCONSUMED);
            b = ref->decode(in, consumed, o2, keep, flags, NULL);
            if (CHECK_RESULT(b, PCT_OK, a.count))
                CHECK_MEM(o2, b.count, o1, a.count);
        } else {
            b = ref->decode(in, len, o2, keep, flags, NULL);
            CHECK_RESULT(a, b.status, b.count);
        }
    }
    /* validate */
    for (f = 0; f < 4; f++) {
        static const unsigned vflags[] = {0, PCT_PLUS | PCT_STRICT, PCT_UTF8,
                                          PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U};
        const pct_set *set = sets[(len * 3 + f) % NSETS];
        a = im->validate(in, len, set, vflags[f]);
        b = ref->validate(in, len, set, vflags[f]);
        if (!same(a, b)) {
            check_input(data, len, "validate flags=%s", flag_str(vflags[f]));
            CHECK_RESULT(a, b.status, b.count);
        } else {
            check_passed++;
        }
    }
}

static void run_impl(const pct_impl *im)
{
    static uint8_t buf[MAXLEN + 64];
    unsigned long it, iters = test_iters(3000);
    size_t len;
    /* every length 0..300 of a few textures */
    for (len = 0; len <= 300; len += test_quick() ? 7 : 1) {
        size_t k;
        for (k = 0; k < len; k++)
            buf[k] = (uint8_t)(k % 7 == 3 ? '%' : k % 11 == 5 ? 0xC3 : 'a' + k % 26);
        compare_one(im, buf, len, (int)(len & 1));
        /* escapes everywhere */
        for (k = 0; k + 3 <= len; k += 3)
            gen_put_escape(buf + k, (uint8_t)(k % 5 == 0 ? 0xE2 : k % 5 == 1 ? 0x82 : 0xAC));
        compare_one(im, buf, len, (int)!(len & 1));
    }
    for (it = 0; it < iters; it++) {
        size_t max = it % 30 == 0 ? MAXLEN : 200;
        if (it % 2)
            len = gen_decode_input(buf, max, 1);
        else
            len = gen_encode_input(buf, max);
        compare_one(im, buf, len, (int)(it % 4 < 2));
    }
}

int main(void)
{
    size_t i, runnable = 0;
    test_seed("test_impls");
    gin = guarded_alloc(MAXLEN);
    gout = guarded_alloc(3 * MAXLEN);
    gref = guarded_alloc(3 * MAXLEN);
    pct_set_clear(&keep_ascii);
    pct_set_add_chars(&keep_ascii, ";/?:@&=+$,#%");

    check_input(NULL, 0, "table");
    CHECK(pct_impl_by_name("scalar") != NULL);
    CHECK(pct_impl_by_name("bogus") == NULL);
    /* the library agrees with the harness on what runs here: the public list
     * is the runnable part of the table, in table order */
    {
        size_t pub = 0;
        for (i = 0; pct_impl_table[i]; i++) {
            const char *name = pct_impl_table[i]->name;
            const int runs = test_impl_lacks(pct_impl_table[i]) == 0;
            CHECK_MSG(runs == (pct_impl_by_name(name) != NULL),
                      "pct_impl_by_name(\"%s\") disagrees with the table's requirements", name);
            if (runs) {
                if (CHECK(pct_implementation_name(pub) != NULL))
                    CHECK_STR(name, pct_implementation_name(pub));
                pub++;
            }
        }
        CHECK(pct_implementation_name(pub) == NULL);
    }
    {
        const pct_impl *impls[TEST_MAX_IMPLS];
        const size_t n = test_impls("  ", "PCT_TEST_IMPL", impls);
        for (i = 0; i < n; i++) {
            check_impl = impls[i]->name;
            check_failed_here = 0;
            printf("  implementation %s vs scalar\n", impls[i]->name);
            fflush(stdout);
            run_impl(impls[i]);
            runnable++;
        }
    }
    CHECK(runnable >= 1);
    guarded_free(&gin);
    guarded_free(&gout);
    guarded_free(&gref);
    return check_done();
}
