/* test_batch.c - pct_decode_batch32/64 and pct_encode_batch32/64 against the
 * one-shot calls, for every implementation: each string's output, status and
 * error offset must be those of pct_decode_except / pct_encode on that string
 * alone. Random batches of short strings (empty ones, malformed escapes,
 * ill-formed UTF-8, bad strings mid-batch), both offset widths, offsets that
 * do not start at 0; the data and the output sit flush against PROT_NONE
 * guard pages, and the output is sized exactly (or too small: PCT_NO_SPACE,
 * and nothing written past its end). Then long batches for the lenient
 * decoder's chunks of many strings (16 KiB each): escapes that run from one
 * string into the next (at chunk ends too), '%' that starts no escape,
 * strings longer than a chunk, runs of empty and 1-byte strings, lengths
 * that change along the batch (chunks of many strings, then few). Then the
 * argument checks. POSIX (mmap). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS in glibc */

#include "check.h"
#include "check_impls.h"
#include "pct.h"
#include "support/guard.h"

enum {
    MAXN = 48,    /* strings per batch */
    MAXLEN = 130, /* bytes per string */
    MAXDATA = MAXN * MAXLEN + 64
};

static guarded gdata, gout;
static char one[3 * MAXLEN + 16];

static const unsigned dec_flags[] = {0,
                                     PCT_PLUS,
                                     PCT_STRICT,
                                     PCT_UTF8,
                                     PCT_UTF8_REPLACE,
                                     PCT_PERCENT_U,
                                     PCT_STRICT | PCT_UTF8,
                                     PCT_PLUS | PCT_UTF8_REPLACE | PCT_PERCENT_U,
                                     PCT_PLUS | PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U};
#define NDEC (sizeof dec_flags / sizeof dec_flags[0])
static const unsigned enc_flags[] = {0, PCT_PLUS, PCT_KEEP_ESCAPES, PCT_UTF8,
                                     PCT_PLUS | PCT_KEEP_ESCAPES | PCT_UTF8};
#define NENC (sizeof enc_flags / sizeof enc_flags[0])

/* A batch: its strings' bytes, concatenated after `base` bytes of padding
 * (so offsets[0] == base, as in a sliced Arrow array). */
static unsigned char text[MAXDATA];
static int64_t off64[MAXN + 1], out64[MAXN + 1];
static int32_t off32[MAXN + 1], out32[MAXN + 1];
static pct_result res[MAXN];

static unsigned char random_byte(void)
{
    static const char pool[] = "%%%%%+++25AFaf09gG/?#&= ~.-_uU";
    switch (rng_below(8)) {
    case 0:
        return (unsigned char)rng_below(256);
    case 1:
        return (unsigned char)(0x80 + rng_below(0x40)); /* continuation */
    case 2:
        return (unsigned char)(0xC2 + rng_below(0x33)); /* lead */
    case 3:
    case 4:
        return (unsigned char)pool[rng_below(sizeof pool - 1)];
    default:
        return (unsigned char)('a' + rng_below(26));
    }
}

/* Fills text[base..] with n strings; returns the total size. */
static size_t make_batch(size_t n, size_t base)
{
    static const char *const pieces[] = {"%E2%82%AC", "%C3%A9", "%F0%9F%98%80", "%uD83D%uDE00",
                                         "%u00E9",    "%ZZ",    "%4",           "%",
                                         "%ED%A0%80", "%C0%AF", "\xE2\x82\xAC", "\xC3"};
    size_t pos = base;
    off64[0] = (int64_t)base;
    for (size_t i = 0; i < n; i++) {
        size_t len = rng_chance(10) ? 0 : rng_below(rng_chance(70) ? 101 : MAXLEN - 12);
        size_t end = pos + len;
        while (pos < end) {
            if (rng_chance(12)) {
                const char *p = pieces[rng_below(sizeof pieces / sizeof pieces[0])];
                size_t k = strlen(p);
                if (pos + k > end)
                    break;
                memcpy(text + pos, p, k);
                pos += k;
            } else {
                text[pos++] = random_byte();
            }
        }
        pos = end;
        off64[i + 1] = (int64_t)pos;
    }
    for (size_t i = 0; i <= n; i++)
        off32[i] = (int32_t)off64[i];
    return pos - base;
}

/* Runs one batch call on data flush against a guard page, output of
 * out_size bytes flush against the other end. */
static pct_result run_batch(int encode, int wide, size_t n, size_t base, size_t total,
                            size_t out_size, const pct_set *set, unsigned flags, int at_end,
                            char **out_p)
{
    unsigned char *d = guarded_place(&gdata, base + total, at_end);
    char *out = (char *)guarded_place(&gout, out_size, !at_end);
    mem_cpy(d, text, base + total);
    memset(out, 0xA5, out_size);
    if (out_size == 0)
        out = NULL;
    *out_p = out;
    const char *data = (const char *)d;
    if (encode)
        return wide ? pct_encode_batch64(data, off64, n, out, out_size, out64, res, set, flags)
                    : pct_encode_batch32(data, off32, n, out, out_size, out32, res, set, flags);
    return wide ? pct_decode_batch64(data, off64, n, out, out_size, out64, res, set, flags)
                : pct_decode_batch32(data, off32, n, out, out_size, out32, res, set, flags);
}

/* Compares strings [0, done) of the last call with the one-shot results. */
static void compare(int encode, int wide, size_t done, const char *out, const pct_set *set,
                    unsigned flags)
{
    size_t pos = 0;
    CHECK_EQ(wide ? out64[0] : out32[0], 0);
    for (size_t i = 0; i < done; i++) {
        const char *s = (const char *)text + off64[i];
        size_t len = (size_t)(off64[i + 1] - off64[i]);
        pct_result r = encode ? pct_encode(s, len, one, set, flags)
                              : pct_decode_except(s, len, one, set, flags);
        check_input(s, len, "%s%s string %zu flags=%u", encode ? "encode" : "decode",
                    wide ? "64" : "32", i, flags);
        CHECK_RESULT(res[i], r.status, r.count);
        size_t end = (size_t)(wide ? out64[i + 1] : out32[i + 1]);
        if (r.status == PCT_OK) {
            CHECK_MEM(one, r.count, out + pos, end - pos);
            pos += r.count;
        } else {
            CHECK_EQ(end, pos); /* a failed string's output is empty */
        }
        pos = end;
    }
}

static size_t bound(int encode, unsigned flags, size_t total)
{
    return encode || (flags & PCT_UTF8_REPLACE) ? 3 * total : total;
}

static void random_batches(void)
{
    pct_set keep_slash, enc_set = pct_set_rfc3986;
    pct_set_clear(&keep_slash);
    pct_set_add_chars(&keep_slash, "/?%");
    pct_set_remove_chars(&enc_set, "/");
    const pct_set *keeps[] = {NULL, &keep_slash, &pct_set_rfc3986};
    const pct_set *encs[] = {&pct_set_component, &enc_set, &pct_set_form, &pct_set_c0_control};
    unsigned long iters = test_iters(300);
    for (unsigned long it = 0; it < iters; it++) {
        size_t n = rng_below(MAXN + 1), base = rng_below(5);
        size_t total = make_batch(n, base);
        for (int encode = 0; encode < 2; encode++) {
            for (int wide = 0; wide < 2; wide++) {
                unsigned flags = encode ? enc_flags[rng_below(NENC)] : dec_flags[rng_below(NDEC)];
                const pct_set *set = encode ? encs[rng_below(4)] : keeps[rng_below(3)];
                int at_end = (int)(it & 1);
                char *out;
                /* 1. exactly the documented bound: every string done */
                size_t size = bound(encode, flags, total);
                pct_result r =
                    run_batch(encode, wide, n, base, total, size, set, flags, at_end, &out);
                size_t written = (size_t)(wide ? out64[n] : out32[n]);
                CHECK_RESULT(r, PCT_OK, written);
                compare(encode, wide, n, out, set, flags);
                /* 2. encode: the exact sum of pct_encode_length is enough too */
                if (encode) {
                    size_t exact = 0;
                    for (size_t i = 0; i < n; i++)
                        exact += pct_encode_length((const char *)text + off64[i],
                                                   (size_t)(off64[i + 1] - off64[i]), set, flags);
                    r = run_batch(encode, wide, n, base, total, exact, set, flags, !at_end, &out);
                    CHECK_RESULT(r, PCT_OK, (size_t)(wide ? out64[n] : out32[n]));
                    compare(encode, wide, n, out, set, flags);
                }
                /* 3. too small: stops before a string whose room is missing;
                 * what it did is right, nothing past the end is written (the
                 * guard page would fault) */
                if (size > 0) {
                    size_t small = rng_below(size);
                    r = run_batch(encode, wide, n, base, total, small, set, flags, at_end, &out);
                    if (r.status == PCT_NO_SPACE) {
                        CHECK(r.count < n);
                        compare(encode, wide, r.count, out, set, flags);
                        /* the string it stopped at needed more than was left */
                        size_t used = (size_t)(wide ? out64[r.count] : out32[r.count]);
                        size_t len = (size_t)(off64[r.count + 1] - off64[r.count]);
                        size_t need = encode
                                          ? pct_encode_length((const char *)text + off64[r.count],
                                                              len, set, flags)
                                          : bound(0, flags, len);
                        CHECK_MSG(need > small - used, "stopped at string %zu needing %zu of %zu",
                                  (size_t)r.count, need, small - used);
                    } else {
                        CHECK_RESULT(r, PCT_OK, (size_t)(wide ? out64[n] : out32[n]));
                        compare(encode, wide, n, out, set, flags);
                    }
                }
            }
        }
    }
}

enum {
    LONG_N = 4000,       /* strings per long batch */
    LONG_DATA = 1 << 18, /* bytes per long batch, at most */
    LONG_BIG = 40000     /* the longest string */
};

static int64_t long_off64[LONG_N + 1], long_out64[LONG_N + 1];
static int32_t long_off32[LONG_N + 1], long_out32[LONG_N + 1];
static pct_result long_res[LONG_N];

/* One string of a long batch at t (room for len bytes), of the given kind,
 * the i-th; its last bytes may be a '%' or "%4" that the next string's
 * first bytes would complete. */
static size_t long_string(unsigned char *t, int kind, size_t i)
{
    static const char *const pieces[] = {"%20", "%2F", "%C3%A9", "%e2%82%ac", "%zz", "%%41"};
    static const size_t phase_max[] = {3, 300, 40, 2000, 100};
    size_t len = rng_below(101);
    if (kind == 4) /* lengths that change every 300 strings: chunks of many, then few */
        len = rng_below(phase_max[i / 300 % 5] + 1);
    if (kind == 2 && rng_chance(2))
        len = 16384 - 70 + rng_below(LONG_BIG - 16384); /* about a chunk, or longer */
    if (kind == 3)
        len = rng_below(3);
    size_t pos = 0;
    while (pos < len) {
        const char *p = pieces[rng_below(kind == 1 || kind == 4 ? 4 : 6)];
        size_t k = strlen(p);
        if (rng_chance(8) && pos + k <= len) {
            memcpy(t + pos, p, k);
            pos += k;
        } else {
            t[pos++] =
                (unsigned char)(kind == 3 ? "%4a+"[rng_below(4)] : "ab1F+/=.%"[rng_below(9)]);
        }
    }
    if (kind != 1 && kind != 4 && len >= 2 && rng_chance(10)) /* an escape begun at the end */
        memcpy(t + len - 2, rng_chance(50) ? "%4" : "x%", 2);
    return len;
}

static void long_batches(void)
{
    guarded gd = guarded_alloc(LONG_DATA + 8), go = guarded_alloc(LONG_DATA + 8);
    unsigned char *t = xmalloc(LONG_DATA + 8);
    char *want = xmalloc(LONG_BIG + 8);
    unsigned long iters = test_iters(10);
    for (unsigned long it = 0; it < iters; it++) {
        /* kinds: 0 mixed, 1 no '%' at a string's end, 2 with long strings,
         * 3 strings of 0-2 bytes of "%4a+", 4 lengths that change */
        const int kind = (int)(it % 5);
        size_t base = rng_below(5), pos = base, n = 0;
        long_off64[0] = (int64_t)base;
        while (n < LONG_N && pos + LONG_BIG + 8 < LONG_DATA) {
            pos += long_string(t + pos, kind, n);
            long_off64[++n] = (int64_t)pos;
        }
        for (size_t i = 0; i <= n; i++)
            long_off32[i] = (int32_t)long_off64[i];
        const size_t total = pos - base;
        for (int wide = 0; wide < 2; wide++) {
            for (int plus = 0; plus < 2; plus++) {
                const unsigned flags = plus ? PCT_PLUS : 0;
                const int at_end = (int)((it + (unsigned)wide) & 1);
                unsigned char *d = guarded_place(&gd, pos, at_end);
                char *out = (char *)guarded_place(&go, total, !at_end);
                mem_cpy(d, t, pos);
                memset(out, 0xA5, total);
                const char *data = (const char *)d;
                pct_result r = wide ? pct_decode_batch64(data, long_off64, n, out, total,
                                                         long_out64, long_res, NULL, flags)
                                    : pct_decode_batch32(data, long_off32, n, out, total,
                                                         long_out32, long_res, NULL, flags);
                const size_t written = (size_t)(wide ? long_out64[n] : long_out32[n]);
                CHECK_RESULT(r, PCT_OK, written);
                size_t at = 0;
                for (size_t i = 0; i < n; i++) {
                    const char *s = (const char *)t + long_off64[i];
                    const size_t len = (size_t)(long_off64[i + 1] - long_off64[i]);
                    const pct_result one_r = pct_decode_except(s, len, want, NULL, flags);
                    check_input(s, len, "long batch kind %d, decode%s string %zu flags=%u", kind,
                                wide ? "64" : "32", i, flags);
                    CHECK_RESULT(long_res[i], one_r.status, one_r.count);
                    const size_t end = (size_t)(wide ? long_out64[i + 1] : long_out32[i + 1]);
                    if (!CHECK_MEM(want, one_r.count, out + at, end - at))
                        break;
                    at = end;
                }
            }
        }
    }
    free(want);
    free(t);
    guarded_free(&gd);
    guarded_free(&go);
}

/* Decodes the n strings of long_off64/32 in t (lenient, both widths) and
 * compares each with the one-shot call. */
static void long_compare(const unsigned char *t, size_t n, unsigned flags, const char *what)
{
    static char out[LONG_DATA], want[LONG_BIG + 8];
    const size_t base = (size_t)long_off64[0], total = (size_t)long_off64[n] - base;
    for (size_t i = 0; i <= n; i++)
        long_off32[i] = (int32_t)long_off64[i];
    for (int wide = 0; wide < 2; wide++) {
        pct_result r = wide ? pct_decode_batch64((const char *)t, long_off64, n, out, total,
                                                 long_out64, long_res, NULL, flags)
                            : pct_decode_batch32((const char *)t, long_off32, n, out, total,
                                                 long_out32, long_res, NULL, flags);
        CHECK_RESULT(r, PCT_OK, (size_t)(wide ? long_out64[n] : long_out32[n]));
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            const char *s = (const char *)t + long_off64[i];
            const size_t len = (size_t)(long_off64[i + 1] - long_off64[i]);
            const pct_result one_r = pct_decode_except(s, len, want, NULL, flags);
            check_input(s, len, "%s, string %zu, wide %d", what, i, wide);
            CHECK_RESULT(long_res[i], one_r.status, one_r.count);
            const size_t end = (size_t)(wide ? long_out64[i + 1] : long_out32[i + 1]);
            CHECK_MEM(want, one_r.count, out + at, end - at);
            at = end;
        }
    }
}

/* An escape that runs from one string into the next, its '%' at every
 * offset from a 64-byte block's start and from a chunk's end: "%4" + "1",
 * "%" + "41", and the same with a digit that makes no escape. */
static void crossing_at_every_offset(void)
{
    static unsigned char t[3 * 16384];
    static const char *const ends[][2] = {{"%4", "1b"}, {"%", "41"}, {"%4", "zb"}, {"x%", "4"}};
    for (size_t e = 0; e < sizeof ends / sizeof ends[0]; e++) {
        for (size_t pad = 0; pad < 200; pad++) {
            for (int near_chunk = 0; near_chunk < 2; near_chunk++) {
                const size_t lead = near_chunk ? 16384 - 100 + pad : pad;
                size_t pos = 0, n = 0;
                long_off64[0] = 0;
                /* the lead as strings of up to 90 bytes, with escapes */
                while (pos < lead) {
                    size_t len = lead - pos < 90 ? lead - pos : 90;
                    for (size_t k = 0; k < len; k++)
                        t[pos + k] = (unsigned char)("ab%41c"[(pos + k) % 6]);
                    pos += len;
                    long_off64[++n] = (int64_t)pos;
                }
                const char *a = ends[e][0], *b = ends[e][1];
                memcpy(t + pos, a, strlen(a));
                pos += strlen(a);
                long_off64[++n] = (int64_t)pos;
                memcpy(t + pos, b, strlen(b));
                pos += strlen(b);
                long_off64[++n] = (int64_t)pos;
                memcpy(t + pos, "%41%", 4);
                pos += 4;
                long_off64[++n] = (int64_t)pos;
                long_off64[++n] = (int64_t)pos; /* an empty string last */
                long_compare(t, n, e & 1 ? PCT_PLUS : 0, "crossing escape");
            }
        }
    }
}

/* One bad string in the middle: the others are unaffected. */
static void bad_string_mid_batch(void)
{
    static const char *const strs[] = {"/a%20b", "%zz", "", "%E2%82%AC", "%C0%AF", "x+y"};
    char data[64], out[64];
    int32_t offs[7], outs[7];
    pct_result r[6];
    size_t pos = 0;
    offs[0] = 0;
    for (int i = 0; i < 6; i++) {
        memcpy(data + pos, strs[i], strlen(strs[i]));
        pos += strlen(strs[i]);
        offs[i + 1] = (int32_t)pos;
    }
    pct_result t = pct_decode_batch32(data, offs, 6, out, sizeof out, outs, r, NULL,
                                      PCT_STRICT | PCT_UTF8 | PCT_PLUS);
    CHECK_RESULT(t, PCT_OK, 10);
    CHECK_RESULT(r[0], PCT_OK, 4);
    CHECK_RESULT(r[1], PCT_INVALID_ESCAPE, 0);
    CHECK_RESULT(r[2], PCT_OK, 0);
    CHECK_RESULT(r[3], PCT_OK, 3);
    CHECK_RESULT(r[4], PCT_INVALID_UTF8, 0);
    CHECK_RESULT(r[5], PCT_OK, 3);
    static const int32_t want[7] = {0, 4, 4, 4, 7, 7, 10};
    for (int i = 0; i < 6; i++)
        CHECK_EQ(outs[i], want[i]);
    CHECK_EQ(outs[6], 10);
    CHECK_MEM("/a b\xE2\x82\xACx y", 10, out, 10);
}

static void argument_checks(void)
{
    char data[16] = "abc%41def", out[64];
    int32_t offs[4] = {0, 3, 6, 9}, outs[4] = {-7, -7, -7, -7};
    int64_t offs64[4] = {0, 3, 6, 9}, outs64[4];
    pct_result r[3];
    /* bad flags, NULL set, UTF8 with UTF8_REPLACE */
    CHECK_RESULT(pct_decode_batch32(data, offs, 3, out, 64, outs, r, NULL, 1u << 12),
                 PCT_INVALID_ARGUMENT, 0);
    CHECK_RESULT(
        pct_decode_batch32(data, offs, 3, out, 64, outs, r, NULL, PCT_UTF8 | PCT_UTF8_REPLACE),
        PCT_INVALID_ARGUMENT, 0);
    CHECK_RESULT(pct_encode_batch32(data, offs, 3, out, 64, outs, r, NULL, 0), PCT_INVALID_ARGUMENT,
                 0);
    CHECK_RESULT(pct_encode_batch32(data, offs, 3, out, 64, outs, r, &pct_set_path, PCT_STRICT),
                 PCT_INVALID_ARGUMENT, 0);
    /* NULL arrays */
    CHECK_RESULT(pct_decode_batch32(data, NULL, 3, out, 64, outs, r, NULL, 0), PCT_INVALID_ARGUMENT,
                 0);
    CHECK_RESULT(pct_decode_batch32(data, offs, 3, out, 64, NULL, r, NULL, 0), PCT_INVALID_ARGUMENT,
                 0);
    CHECK_RESULT(pct_decode_batch32(data, offs, 3, out, 64, outs, NULL, NULL, 0),
                 PCT_INVALID_ARGUMENT, 0);
    CHECK_RESULT(pct_decode_batch32(NULL, offs, 3, out, 64, outs, r, NULL, 0), PCT_INVALID_ARGUMENT,
                 0);
    CHECK_RESULT(pct_decode_batch32(data, offs, 3, NULL, 64, outs, r, NULL, 0),
                 PCT_INVALID_ARGUMENT, 0);
    /* decreasing and negative offsets */
    int32_t down[4] = {0, 5, 3, 9}, neg[4] = {-1, 3, 6, 9};
    CHECK_RESULT(pct_decode_batch32(data, down, 3, out, 64, outs, r, NULL, 0), PCT_INVALID_ARGUMENT,
                 0);
    CHECK_RESULT(pct_decode_batch32(data, neg, 3, out, 64, outs, r, NULL, 0), PCT_INVALID_ARGUMENT,
                 0);
    int64_t down64[4] = {0, 5, 3, 9};
    CHECK_RESULT(pct_decode_batch64(data, down64, 3, out, 64, outs64, r, NULL, 0),
                 PCT_INVALID_ARGUMENT, 0);
    /* output overlapping the input or the arrays */
    CHECK_RESULT(pct_decode_batch32(data, offs, 3, data + 2, 9, outs, r, NULL, 0),
                 PCT_INVALID_ARGUMENT, 0);
    CHECK_RESULT(pct_decode_batch32(data, offs, 3, (char *)outs, sizeof outs, outs, r, NULL, 0),
                 PCT_INVALID_ARGUMENT, 0);
    /* nothing written on any of those */
    CHECK(outs[0] == -7);
    /* empty batches; all-empty strings with NULL data and output */
    CHECK_RESULT(pct_decode_batch32(NULL, offs, 0, NULL, 0, outs, NULL, NULL, 0), PCT_OK, 0);
    CHECK_EQ(outs[0], 0);
    int32_t zeros[3] = {4, 4, 4};
    CHECK_RESULT(pct_encode_batch32(NULL, zeros, 2, NULL, 0, outs, r, &pct_set_path, 0), PCT_OK, 0);
    CHECK_RESULT(r[1], PCT_OK, 0);
    /* no room at all */
    CHECK_RESULT(pct_decode_batch64(data, offs64, 3, NULL, 0, outs64, r, NULL, 0), PCT_NO_SPACE, 0);
    CHECK_RESULT(pct_decode_batch64(data, offs64, 3, out, 4, outs64, r, NULL, 0), PCT_NO_SPACE, 1);
    CHECK_EQ(outs64[1], 3);
    CHECK_MEM("abc", 3, out, 3);
    /* encode: "abc" needs 3 bytes exactly, not 9 */
    CHECK_RESULT(pct_encode_batch64(data, offs64, 1, out, 3, outs64, r, &pct_set_path, 0), PCT_OK,
                 3);
    CHECK_STR("output buffer too small", pct_status_string(PCT_NO_SPACE));
}

int main(void)
{
    test_seed("test_batch");
    gdata = guarded_alloc(MAXDATA);
    gout = guarded_alloc(3 * MAXDATA);
    for (FOR_EACH_IMPL(k)) {
        random_batches();
        long_batches();
        crossing_at_every_offset();
        bad_string_mid_batch();
        argument_checks();
    }
    guarded_free(&gdata);
    guarded_free(&gout);
    return check_done();
}
