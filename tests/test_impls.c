/* test_impls.c - every implementation this CPU runs against the scalar
 * reference, through the internal table (impl.h): find, find_all, encode_length,
 * encode, decode (including the normalize mode and the partial, streaming
 * form with consumed != NULL), validate and batch_offsets (every chunk
 * length to 300 and near PCT_BATCH_CHUNK, both offset widths; the reference
 * also against a plain count) must agree byte for byte, status for status,
 * offset for offset. Inputs and outputs sit flush against
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

/* ------------------------------------------------------------------------ */
/* batch_offsets                                                             */
/* ------------------------------------------------------------------------ */

enum {
    BATCH_MAXN = PCT_BATCH_CHUNK + 1 /* strings in a chunk, at most (all empty but one) */
};
static guarded gbin, gboff, gbout, gbres, gbdst;
static int64_t bends[BATCH_MAXN + 1];
static int64_t bref_out[BATCH_MAXN + 1];
static pct_result bref_res[BATCH_MAXN];

/* What pct_batch_offsets answers for text cut at bends[0..n] (bends[0] ==
 * 0): 1 if a '%' is in the last two bytes of a string, else 0 and each
 * string's size (its length less 2 per '%') in bref_res, the running sums
 * from out0 in bref_out[1..n], modulo 2^64 whatever size_t is (impl.h: a
 * '%' that starts no escape can make them "negative"). */
static int batch_oracle(const uint8_t *text, size_t n, size_t out0)
{
    int crossing = 0;
    uint64_t out = out0;
    for (size_t i = 0; i < n; i++) {
        const size_t start = (size_t)bends[i], end = (size_t)bends[i + 1];
        size_t percents = 0;
        for (size_t k = start; k < end; k++) {
            percents += text[k] == '%';
            if (text[k] == '%' && k + 2 >= end)
                crossing = 1;
        }
        const uint64_t next = out + end - start - 2 * (uint64_t)percents;
        bref_res[i].status = PCT_OK;
        bref_res[i].count = (size_t)(next - out);
        bref_out[i + 1] = (int64_t)next;
        out = next;
    }
    return crossing;
}

/* Each size and output offset of a batch_offsets or batch_decode call,
 * against the reference's; 1 if all are the same. */
static int same_batch_outputs(int wide, size_t n, const uint8_t *outs, const pct_result *res,
                              const int64_t *ref_outs, const int32_t *ref_outs32,
                              const pct_result *ref_res)
{
    for (size_t i = 0; i < n; i++) {
        const int64_t o = wide ? ((const int64_t *)(const void *)outs)[i + 1]
                               : (int64_t)((const int32_t *)(const void *)outs)[i + 1];
        const int64_t r = wide ? ref_outs[i + 1] : ref_outs32[i + 1];
        if (!CHECK_RESULT(res[i], ref_res[i].status, ref_res[i].count) || !CHECK_EQ(o, r)) {
            printf("    string %zu of %zu (input end %lld)\n", i, n, (long long)bends[i + 1]);
            return 0;
        }
    }
    return 1;
}

/* im->batch_offsets on text cut at bends[0..n], both offset widths, the
 * offsets starting at base, against the scalar reference's (itself checked
 * against batch_oracle): the same answer and, when 0, every size and output
 * offset. The text, the offsets and the outputs sit flush against guard
 * pages, at their end or at their start (out_offsets[0], which must not be
 * touched, then in the guard page). An implementation's batch_decode too,
 * with flags 0 or PCT_PLUS: the same, and the decoder's result and output
 * those of the scalar decoder on the whole text. */
static void compare_batch_offsets(const pct_impl *im, const uint8_t *text, size_t n, int64_t base,
                                  const char *what)
{
    static int64_t ref_offs[BATCH_MAXN + 1], ref_outs[BATCH_MAXN + 1];
    static int32_t ref_offs32[BATCH_MAXN + 1], ref_outs32[BATCH_MAXN + 1];
    static pct_result ref_res[BATCH_MAXN];
    const size_t len = (size_t)bends[n], out0 = (size_t)rng_below(1000);
    const int want = batch_oracle(text, n, out0);
    for (int wide = 0; wide < 2; wide++) {
        const size_t width = wide ? sizeof(int64_t) : sizeof(int32_t);
        const int at_end = (int)rng_below(2);
        const int64_t b = wide ? base : (int64_t)(base & 0x3FFFFFFF);
        check_input(text, len, "batch_offsets %s, %zu strings, wide %d", what, n, wide);
        /* the reference, on plain arrays */
        for (size_t i = 0; i <= n; i++) {
            ref_offs[i] = b + bends[i];
            ref_offs32[i] = (int32_t)(b + bends[i]);
        }
        const int ref =
            pct_scalar_batch_offsets(text, wide ? (void *)ref_offs : (void *)ref_offs32, wide, n,
                                     out0, wide ? (void *)ref_outs : (void *)ref_outs32, ref_res);
        if (!CHECK_EQ(ref, want))
            continue;
        for (size_t i = 0; !ref && i < n; i++) {
            /* 32-bit offsets: the low 32 bits of the 64-bit sum */
            const int64_t o = wide ? ref_outs[i + 1] : ref_outs32[i + 1];
            const int64_t w = wide ? bref_out[i + 1] : (int32_t)(uint32_t)bref_out[i + 1];
            if (!CHECK_RESULT(ref_res[i], PCT_OK, bref_res[i].count) || !CHECK_EQ(o, w))
                break;
        }
        /* the implementation, against the guard pages */
        uint8_t *in = guarded_place(&gbin, len, at_end);
        uint8_t *offs = guarded_place(&gboff, (n + 1) * width, !at_end);
        uint8_t *outs = at_end ? guarded_place(&gbout, (n + 1) * width, 1) : gbout.data - width;
        pct_result *res =
            (pct_result *)(void *)guarded_place(&gbres, n * sizeof(pct_result), at_end);
        mem_cpy(in, text, len);
        mem_cpy(offs, wide ? (void *)ref_offs : (void *)ref_offs32, (n + 1) * width);
        if (at_end)
            memset(outs, 0xA5, width);
        const int got = im->batch_offsets(in, offs, wide, n, out0, outs, res);
        if (CHECK_EQ(got, ref) && !got)
            same_batch_outputs(wide, n, outs, res, ref_outs, ref_outs32, ref_res);
        if (at_end)
            CHECK(outs[0] == 0xA5 && outs[width - 1] == 0xA5);
        if (im->batch_decode == NULL)
            continue;
        static uint8_t want[PCT_BATCH_CHUNK];
        const unsigned flags = rng_chance(50) ? PCT_PLUS : 0;
        const pct_result w = pct_scalar_decode(text, len, want, NULL, flags, NULL);
        uint8_t *dst = guarded_place(&gbdst, len, at_end);
        pct_result decoded = {PCT_INVALID_ARGUMENT, SIZE_MAX};
        const int both = im->batch_decode(in, offs, wide, n, dst, flags, &decoded, out0, outs, res);
        if (CHECK_RESULT(decoded, w.status, w.count))
            CHECK_MEM(want, w.count, dst, decoded.count);
        if (CHECK_EQ(both, ref) && !both)
            same_batch_outputs(wide, n, outs, res, ref_outs, ref_outs32, ref_res);
        if (at_end)
            CHECK(outs[0] == 0xA5 && outs[width - 1] == 0xA5);
    }
}

/* A random byte for a batch: '%' with the given percent chance. */
static uint8_t batch_byte(unsigned percent)
{
    return rng_chance(percent) ? '%' : (uint8_t) "ab1F+/=.\x80\xff"[rng_below(10)];
}

/* Cuts text[0..len) into strings of up to max_len bytes (0 too) in bends;
 * returns their count. With clean, no '%' is left in the last two
 * bytes of a string. */
static size_t batch_cut(uint8_t *text, size_t len, size_t max_len, int clean)
{
    size_t n = 0;
    bends[0] = 0;
    while ((size_t)bends[n] < len) {
        size_t l = rng_below(max_len + 1);
        if ((size_t)bends[n] + l > len || n + 1 == BATCH_MAXN)
            l = len - (size_t)bends[n];
        bends[n + 1] = bends[n] + (int64_t)l;
        n++;
    }
    if (n == 0) { /* one empty string */
        bends[1] = 0;
        n = 1;
    }
    for (size_t i = 0; clean && i < n; i++)
        for (int64_t k = bends[i + 1] - 2; k < bends[i + 1]; k++)
            if (k >= bends[i] && text[k] == '%')
                text[k] = 'x';
    return n;
}

static void run_batch_offsets(const pct_impl *im)
{
    static uint8_t text[PCT_BATCH_CHUNK];
    static const size_t max_lens[] = {1, 3, 40, 130, 250, 1100, 5000};
    static const unsigned densities[] = {0, 3, 30, 100};
    /* every length up to 300 and those near a chunk's: strings of every
     * kind, most without a '%' at their end (then the sizes are compared),
     * some with */
    for (size_t len = 0; len <= PCT_BATCH_CHUNK; len += len < 300                     ? 1
                                                        : len < PCT_BATCH_CHUNK - 200 ? 997
                                                                                      : 1) {
        if (test_quick() && len % 5 != 0 && len != PCT_BATCH_CHUNK)
            continue;
        const unsigned density = densities[rng_below(sizeof densities / sizeof densities[0])];
        for (size_t k = 0; k < len; k++)
            text[k] = batch_byte(density);
        const size_t max_len = max_lens[rng_below(sizeof max_lens / sizeof max_lens[0])];
        const int clean = !rng_chance(20);
        const size_t n = batch_cut(text, len, max_len, clean);
        compare_batch_offsets(im, text, n,
                              (int64_t)rng_below(3) << 32 | (int64_t)rng_below(1 << 20),
                              clean ? "random" : "random, '%' at ends");
    }
    /* a string ending at every offset of a few 64-byte blocks (among the
     * first strings and later ones), and at a chunk's end and just before
     * it for every length of its last block, with a '%' 1, 2 (in its last
     * two bytes) or 3 bytes before its end, no other '%' in the last two
     * bytes of a string */
    for (size_t e = 3; e < 64 * 5; e++) {
        for (size_t at = 1; at <= 3; at++) {
            for (int near_end = 0; near_end < 2; near_end++) {
                const size_t len = near_end ? PCT_BATCH_CHUNK - e % 64 : 64 * 5;
                const size_t end = near_end ? len - e / 64 : e;
                for (size_t k = 0; k < len; k++)
                    text[k] = batch_byte(5);
                size_t n = batch_cut(text, len, 70, 1), i = 0;
                while ((size_t)bends[i + 1] < end)
                    i++;
                if ((size_t)bends[i + 1] != end) { /* a cut at end */
                    memmove(bends + i + 2, bends + i + 1, (n - i) * sizeof bends[0]);
                    bends[i + 1] = (int64_t)end;
                    n++;
                }
                for (size_t k = end - 3; k < end; k++)
                    text[k] = 'x';
                text[end - at] = '%';
                compare_batch_offsets(im, text, n, 0, "a '%' near a string's end");
            }
        }
    }
}

/* The wrapped sums, spelled out (impl.h): "%%%%%%%%%%xx" (10 '%', 12
 * bytes) and "ab" after out0 = 5 have sizes -8 and 2, so the sums are
 * 5 - 8 = -3 and -1 modulo 2^64: int64_t -3 and -1, int32_t -3 and -1, the
 * sizes SIZE_MAX - 7 and 2. The same on every host: a 32-bit size_t must
 * not make the 64-bit offsets 2^32 - 3 and 2^32 - 1. */
static void run_batch_wrap(pct_batch_offsets_fn *batch_offsets, const char *name)
{
    static const uint8_t text[] = "%%%%%%%%%%xxab";
    for (int wide = 0; wide < 2; wide++) {
        const int64_t offs64[3] = {7, 19, 21};
        const int32_t offs32[3] = {7, 19, 21};
        int64_t outs64[3] = {0, 0, 0};
        int32_t outs32[3] = {0, 0, 0};
        pct_result res[2];
        const int crossing = batch_offsets(text, wide ? (const void *)offs64 : (const void *)offs32,
                                           wide, 2, 5, wide ? (void *)outs64 : (void *)outs32, res);
        const int64_t o1 = wide ? outs64[1] : outs32[1], o2 = wide ? outs64[2] : outs32[2];
        CHECK_MSG(crossing == 0 && o1 == -3 && o2 == -1 && res[0].count == SIZE_MAX - 7 &&
                      res[1].count == 2,
                  "%s batch_offsets, wide %d: crossing %d, offsets %lld %lld, sizes %zu %zu "
                  "(want 0, -3 -1, %zu 2)",
                  name, wide, crossing, (long long)o1, (long long)o2, res[0].count, res[1].count,
                  (size_t)(SIZE_MAX - 7));
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
    gbin = guarded_alloc(PCT_BATCH_CHUNK);
    gboff = guarded_alloc((BATCH_MAXN + 1) * sizeof(int64_t));
    gbout = guarded_alloc((BATCH_MAXN + 1) * sizeof(int64_t));
    gbres = guarded_alloc(BATCH_MAXN * sizeof(pct_result));
    gbdst = guarded_alloc(PCT_BATCH_CHUNK);
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
            run_batch_offsets(impls[i]);
            run_batch_wrap(impls[i]->batch_offsets, impls[i]->name);
            runnable++;
        }
    }
    run_batch_wrap(pct_scalar_batch_offsets, "scalar");
    CHECK(runnable >= 1);
    guarded_free(&gin);
    guarded_free(&gout);
    guarded_free(&gref);
    guarded_free(&gbin);
    guarded_free(&gboff);
    guarded_free(&gbout);
    guarded_free(&gbres);
    guarded_free(&gbdst);
    return check_done();
}
