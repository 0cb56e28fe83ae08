/* test_decode.c - pct_decode / pct_decode_except: lenient and strict escapes,
 * hex case, NUL, decode-once, in place, PCT_UTF8 error offsets, PCT_UTF8_REPLACE
 * (maximal subparts), flag checking; then every 3-byte "%XY", every escaped
 * byte pair under PCT_UTF8, escapes at every position of long buffers, and
 * random inputs, all against the reference model of ref.h. */
#include "check_impls.h"
#include "ops.h"
#include "pct.h"
#include "ref.h"

static const unsigned all_flags[] = REF_DECODE_FLAG_COMBOS;
#define NFLAGS (sizeof all_flags / sizeof all_flags[0])

/* Runs the library (out of place, exactly-sized buffers; and in place when
 * allowed) and the model; checks they agree. Returns 1 if they do. */
static int decode_vs_model(const uint8_t *src, size_t len, const pct_set *keep, unsigned flags)
{
    int replace = (flags & PCT_UTF8_REPLACE) != 0;
    size_t cap = replace ? 3 * len : len;
    char *in = xdup(src, len), *dst = (char *)xmalloc(cap), *model = (char *)xmalloc(3 * len);
    pct_result r;
    ref_result m;
    int ok = 1;

    m = ref_decode(src, len, keep, flags, model);
    r = keep ? pct_decode_except(in, len, dst, keep, flags) : pct_decode(in, len, dst, flags);
    if (!ref_matches(m, r)) {
        check_input(src, len, "decode%s flags=%s", keep ? "_except" : "", flag_str(flags));
        if (r.status == PCT_OK && m.r.status == PCT_OK)
            CHECK_MEM(model, m.r.count, dst, r.count);
        else if (m.alt_ok)
            CHECK_RESULT2(r, m.r, m.alt);
        else
            CHECK_RESULT(r, m.r.status, m.r.count);
        ok = 0;
    } else if (r.status == PCT_OK && mem_cmp(dst, model, r.count) != 0) {
        check_input(src, len, "decode%s flags=%s", keep ? "_except" : "", flag_str(flags));
        CHECK_MEM(model, m.r.count, dst, r.count);
        ok = 0;
    } else {
        check_passed++;
    }
    if (!replace && ok) { /* in place gives the same */
        pct_result r2;
        mem_cpy(in, src, len);
        r2 = keep ? pct_decode_except(in, len, in, keep, flags) : pct_decode(in, len, in, flags);
        if (r2.status != r.status || r2.count != r.count ||
            (r.status == PCT_OK && mem_cmp(in, dst, r.count) != 0)) {
            check_input(src, len, "in-place decode%s flags=%s", keep ? "_except" : "",
                        flag_str(flags));
            if (CHECK_RESULT(r2, r.status, r.count) && r.status == PCT_OK)
                CHECK_MEM(dst, r.count, in, r2.count);
            ok = 0;
        } else {
            check_passed++;
        }
    }
    free(in);
    free(dst);
    free(model);
    return ok;
}

static void lenient_and_strict(void)
{
    /* every malformed form is copied as is ... */
    EXPECT_DECODE("%", NULL, 0, "%");
    EXPECT_DECODE("%4", NULL, 0, "%4");
    EXPECT_DECODE("a%4", NULL, 0, "a%4");
    EXPECT_DECODE("%G1", NULL, 0, "%G1");
    EXPECT_DECODE("%1G", NULL, 0, "%1G");
    EXPECT_DECODE("%zz", NULL, 0, "%zz");
    EXPECT_DECODE("%%41", NULL, 0, "%A");
    EXPECT_DECODE("%%%", NULL, 0, "%%%");
    EXPECT_DECODE("%-1%+1% 1%\xFF"
                  "1",
                  NULL, 0,
                  "%-1%+1% 1%\xFF"
                  "1");
    EXPECT_DECODE("%4%41", NULL, 0, "%4A");
    EXPECT_DECODE("100%", NULL, 0, "100%");
    EXPECT_DECODE("100%2", NULL, 0, "100%2");
    /* ... and is an error under STRICT, at its '%' */
    EXPECT_DECODE_ERR("%", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_DECODE_ERR("%4", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_DECODE_ERR("a%4", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 1);
    EXPECT_DECODE_ERR("%G1", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_DECODE_ERR("%1G", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_DECODE_ERR("%41%zz", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 3);
    EXPECT_DECODE_ERR("%%41", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_DECODE_ERR("%41%42%", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 6);
    EXPECT_DECODE_ERR("abc%41%4", NULL, PCT_STRICT | PCT_PLUS, PCT_INVALID_ESCAPE, 6);
    EXPECT_DECODE("%41%42%43", NULL, PCT_STRICT, "ABC");
    /* hex case, both digits */
    EXPECT_DECODE("%4a%4A%e9%E9%eE%Ee", NULL, 0, "JJ\xE9\xE9\xEE\xEE");
    /* NUL is data, escaped or literal */
    EXPECT_DECODE("\x00%00\x00", NULL, 0, "\x00\x00\x00");
    EXPECT_DECODE("%00", NULL, PCT_STRICT | PCT_UTF8, "\x00");
    /* decoding happens once */
    EXPECT_DECODE("%2541", NULL, 0, "%41");
    EXPECT_DECODE("%252541", NULL, PCT_STRICT, "%2541");
    EXPECT_DECODE("%25%34%31", NULL, 0, "%41");
    EXPECT_DECODE("%2B+", NULL, PCT_PLUS, "+ ");
    /* empty input, NULL pointers with length 0 */
    EXPECT_DECODE("", NULL, 0, "");
    EXPECT_DECODE("", NULL, PCT_STRICT | PCT_UTF8, "");
    {
        pct_result r;
        check_input(NULL, 0, "NULL, 0");
        r = pct_decode(NULL, 0, NULL, PCT_STRICT | PCT_UTF8);
        CHECK_RESULT(r, PCT_OK, 0);
        r = pct_decode_except(NULL, 0, NULL, &pct_set_uri, PCT_UTF8_REPLACE);
        CHECK_RESULT(r, PCT_OK, 0);
    }
}

static pct_set slash; /* {'/'} */

static void utf8_errors(void)
{
    const unsigned U = PCT_UTF8, SU = PCT_STRICT | PCT_UTF8;
    unsigned b;
    /* overlongs */
    EXPECT_DECODE_ERR("\xC0\x80", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("%C0%80", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("ab%C1%BF", NULL, U, PCT_INVALID_UTF8, 2);
    EXPECT_DECODE_ERR("%E0%80%80", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("x%E0%9F%BF", NULL, SU, PCT_INVALID_UTF8, 1);
    EXPECT_DECODE_ERR("%F0%80%80%80", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("%F0%8F%BF%BF", NULL, U, PCT_INVALID_UTF8, 0);
    /* surrogates */
    EXPECT_DECODE_ERR("%ED%A0%80", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("\xED\xBF\xBF", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE("%ED%9F%BF", NULL, U, "\xED\x9F\xBF");
    /* above U+10FFFF */
    EXPECT_DECODE_ERR("%F4%90%80%80", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE("%F4%8F%BF%BF", NULL, U, "\xF4\x8F\xBF\xBF");
    for (b = 0xF5; b <= 0xFF; b++) {
        char in[16];
        int n = snprintf(in, sizeof in, "ab%%%02X%%80%%80", b);
        expect_decode_at(__FILE__, __LINE__, in, (size_t)n, NULL, U, ref_res(PCT_INVALID_UTF8, 2),
                         ref_res(PCT_OK, 0), NULL, 0);
        in[2] = (char)b; /* literal */
        expect_decode_at(__FILE__, __LINE__, in, 3, NULL, U, ref_res(PCT_INVALID_UTF8, 2),
                         ref_res(PCT_OK, 0), NULL, 0);
    }
    /* truncated sequences: at the end, before ASCII, before another lead */
    EXPECT_DECODE_ERR("%E2%82", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("%E2%82a", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("xy%F0%9F%98", NULL, U, PCT_INVALID_UTF8, 2);
    EXPECT_DECODE_ERR("xy%F0%9F%98%C3%A9", NULL, U, PCT_INVALID_UTF8, 2);
    EXPECT_DECODE_ERR("%C3", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("\xC3", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("%C3+", NULL, U | PCT_PLUS, PCT_INVALID_UTF8, 0);
    /* stray continuation bytes */
    EXPECT_DECODE_ERR("%80", NULL, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("a\x80", NULL, U, PCT_INVALID_UTF8, 1);
    EXPECT_DECODE_ERR("%C3%A9%A9", NULL, U, PCT_INVALID_UTF8, 6);
    EXPECT_DECODE_ERR("\xE2\x82\xAC\xAC", NULL, U, PCT_INVALID_UTF8, 3);
    /* literal and escaped bytes mix freely in one sequence */
    EXPECT_DECODE("%C3\xA9", NULL, SU, "\xC3\xA9");
    EXPECT_DECODE("\xC3%a9", NULL, SU, "\xC3\xA9");
    EXPECT_DECODE("%E2\x82%AC\xF0%9F\x98%80", NULL, SU, "\xE2\x82\xAC\xF0\x9F\x98\x80");
    EXPECT_DECODE_ERR("\xE2%82", NULL, SU, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("ok\xE2%82\xFF", NULL, SU, PCT_INVALID_UTF8, 2);
    EXPECT_DECODE_ERR("%E2%82%41", NULL, U, PCT_INVALID_UTF8, 0);
    /* an escape error after a sequence that is ill-formed on its own: the
     * UTF-8 error comes first */
    EXPECT_DECODE_ERR("%C0%zz", NULL, SU, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("%80%", NULL, SU, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("%C3%A9%", NULL, SU, PCT_INVALID_ESCAPE, 6);
    /* lenient: the copied '%' is ASCII, so the sequence before it is cut */
    EXPECT_DECODE_ERR("%E2%zz", NULL, U, PCT_INVALID_UTF8, 0);
    /* kept escapes are ASCII text */
    EXPECT_DECODE_ERR("%E2%2F%82%AC", &slash, U, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE("a%2F%E2%82%AC", &slash, U, "a%2F\xE2\x82\xAC");
    /* a BOM is a character like any other */
    EXPECT_DECODE("%EF%BB%BF", NULL, U, "\xEF\xBB\xBF");
    EXPECT_DECODE("%EF%BB%BF%EF%BB%BF", NULL, PCT_UTF8_REPLACE, "\xEF\xBB\xBF\xEF\xBB\xBF");
    EXPECT_DECODE("\xEF\xBB\xBF"
                  "a",
                  NULL, PCT_UTF8_REPLACE,
                  "\xEF\xBB\xBF"
                  "a");
    /* replacement: one U+FFFD per maximal subpart */
    EXPECT_DECODE("%E2%82", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD");
    EXPECT_DECODE("%E2%82%E2%82%AC", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD\xE2\x82\xAC");
    EXPECT_DECODE("%F0%9F%98", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD");
    EXPECT_DECODE("%FF%FE", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_DECODE("%80%80%80", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_DECODE("%F4%8F%BF", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD");
    EXPECT_DECODE("%F4%90", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_DECODE("%ED%A0", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_DECODE("%E0%A0", NULL, PCT_UTF8_REPLACE, "\xEF\xBF\xBD");
    EXPECT_DECODE("%zz%E2", NULL, PCT_UTF8_REPLACE, "%zz\xEF\xBF\xBD");
    EXPECT_DECODE_ERR("%E2%zz", NULL, PCT_UTF8_REPLACE | PCT_STRICT, PCT_INVALID_ESCAPE, 3);
}

static void bad_arguments(void)
{
    static const unsigned bad[] = {
        PCT_UTF8 | PCT_UTF8_REPLACE,
        PCT_UTF8 | PCT_UTF8_REPLACE | PCT_STRICT,
        PCT_KEEP_ESCAPES,
        PCT_KEEP_ESCAPES | PCT_STRICT,
        64,
        128,
        1u << 16, /* not a public flag (the library's internal normalize bit) */
        1u << 31,
        ~0u,
    };
    size_t i;
    char dst[16];
    pct_result r;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        check_input(S("%41%42"), "decode, bad flags %s", flag_str(bad[i]));
        memset(dst, '#', sizeof dst);
        r = pct_decode("%41%42", 6, dst, bad[i]);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
        r = pct_decode_except("%41%42", 6, dst, &pct_set_uri, bad[i]);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
        CHECK(mem_cmp(dst, "################", sizeof dst) == 0); /* nothing written */
    }
    check_input(NULL, 0, "decode NULL src, len 3");
    memset(dst, '#', sizeof dst);
    r = pct_decode(NULL, 3, dst, 0);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_decode_except(NULL, 3, dst, NULL, 0);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    CHECK(mem_cmp(dst, "################", sizeof dst) == 0);
    check_input(NULL, 0, "decode NULL dst, len 3");
    r = pct_decode("abc", 3, NULL, 0);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_decode_except("abc", 3, NULL, &pct_set_uri, PCT_STRICT);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
}

/* Every "%XY" (X, Y any byte) and "%XY" followed by "%" or a letter, for each
 * flag combination: covers hex case, non-hex digits and every decoded byte. */
static void exhaustive_triples(int first)
{
    static const unsigned flag_set[] = {0, PCT_STRICT, PCT_PLUS | PCT_STRICT | PCT_UTF8,
                                        PCT_STRICT | PCT_PERCENT_U, PCT_UTF8_REPLACE};
    unsigned x, y, f;
    uint8_t in[5];
    for (f = 0; f < sizeof flag_set / sizeof flag_set[0]; f++) {
        unsigned flags = flag_set[f];
        if ((test_quick() || !first) && f != 2)
            continue; /* PLUS|STRICT|UTF8 only */
        for (x = 0; x < 256; x++) {
            for (y = 0; y < 256; y++) {
                in[0] = '%';
                in[1] = (uint8_t)x;
                in[2] = (uint8_t)y;
                in[3] = (x + y) & 1 ? '%' : 'q';
                in[4] = '4';
                /* only triples that contain a hex digit are interesting twice */
                decode_vs_model(in, 3, NULL, flags);
                if (ref_hex((int)x) >= 0 || ref_hex((int)y) >= 0)
                    decode_vs_model(in, 5, NULL, flags);
            }
        }
    }
}

/* Every pair of escaped bytes "%XX%YY" under PCT_UTF8 (offset 0 or 3, or
 * OK), with PCT_UTF8_REPLACE, and with a literal second byte. */
static void exhaustive_pairs(void)
{
    unsigned x, y;
    char in[16];
    for (x = 0x80; x < 256; x += test_quick() ? 5 : 1) {
        for (y = 0; y < 256; y++) {
            int n = snprintf(in, sizeof in, "%%%02X%%%02x", x, y);
            decode_vs_model((const uint8_t *)in, (size_t)n, NULL, PCT_UTF8);
            if (!test_quick()) {
                decode_vs_model((const uint8_t *)in, (size_t)n, NULL, PCT_UTF8_REPLACE);
                in[3] = (char)y;
                decode_vs_model((const uint8_t *)in, 4, NULL, PCT_UTF8 | PCT_STRICT);
            }
        }
    }
    /* three- and four-byte sequences: every lead E0-F4 with continuation
     * bytes around the Table 3-7 boundaries */
    {
        static const unsigned cont[] = {0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90,
                                        0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xFF};
        size_t a, b, c;
        unsigned lead;
        for (lead = 0xE0; lead <= 0xF4; lead += test_quick() ? 4 : 1)
            for (a = 0; a < sizeof cont / sizeof cont[0]; a++)
                for (b = 0; b < sizeof cont / sizeof cont[0]; b++)
                    for (c = 0; c < sizeof cont / sizeof cont[0]; c++) {
                        int n = snprintf(in, sizeof in, "%%%02X%%%02X%%%02X%%%02X", lead, cont[a],
                                         cont[b], cont[c]);
                        decode_vs_model((const uint8_t *)in, (size_t)n, NULL, PCT_UTF8);
                        decode_vs_model((const uint8_t *)in, (size_t)n, NULL, PCT_UTF8_REPLACE);
                        decode_vs_model((const uint8_t *)in, 9, NULL, PCT_UTF8);
                    }
    }
}

/* The flags of the block-edge tests below: each path a kernel may take or
 * hand over for (strays, UTF-8 errors, replacement, '+', %u). */
static const unsigned edge_flags[] = {0,
                                      PCT_STRICT,
                                      PCT_UTF8,
                                      PCT_UTF8_REPLACE,
                                      PCT_PLUS | PCT_PERCENT_U,
                                      PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U};
#define NEDGE_FLAGS (sizeof edge_flags / sizeof edge_flags[0])

/* One interesting item at every position of ASCII backgrounds of many
 * lengths: catches block-boundary mistakes in SIMD kernels. */
static void every_position(void)
{
    static const char *const items[] = {
        "%",      "%4",  "%41", "%e9", "%E2%82%AC", "%FF",      "\xFF",         "+",
        "%u20AC", "%C3", "%ZZ", "%2B", "%25",       "\xC3\xA9", "%F0%9F%98%80", "%uD83D%uDE00",
        "%80",    "%2F", "%00"};
    enum {
        MAXLEN = 100
    };
    uint8_t buf[MAXLEN + 16];
    size_t it, len, pos, f, step = test_quick() ? 7 : 1;
    for (it = 0; it < sizeof items / sizeof items[0]; it++) {
        size_t il = strlen(items[it]);
        for (len = il; len <= MAXLEN; len += (len < 40 ? step : 13 * step)) {
            for (pos = 0; pos + il <= len; pos += step) {
                memset(buf, 'a', len);
                mem_cpy(buf + pos, items[it], il);
                for (f = 0; f < NEDGE_FLAGS; f++) {
                    decode_vs_model(buf, len, NULL, edge_flags[f]);
                    if (f == 0)
                        decode_vs_model(buf, len, &pct_set_uri, 0);
                }
            }
        }
    }
    /* escapes everywhere: an all-escape buffer with one item inside */
    for (it = 0; it < sizeof items / sizeof items[0]; it++) {
        size_t il = strlen(items[it]);
        for (pos = 0; pos < 64; pos += step) {
            size_t n = 0;
            while (n < pos)
                n += gen_put_escape(buf + n, (uint8_t)(n & 1 ? 0xA9 : 0xC3));
            mem_cpy(buf + n, items[it], il);
            n += il;
            while (n < 80)
                n += gen_put_escape(buf + n, (uint8_t)(n & 1 ? 0x41 : 0x7E));
            for (f = 0; f < NEDGE_FLAGS; f++)
                decode_vs_model(buf, n, NULL, edge_flags[f]);
        }
    }
}

/* Long all-escaped runs (kernels may decode them 64 escapes at a time after
 * a block of escapes only): a literal prefix of every length up to a block
 * (so runs start at every phase), then escapes of UTF-8 text or of ASCII,
 * with one item that breaks the run (a literal, a malformed escape, %u, a
 * byte that breaks the UTF-8, a hex digit where a '%' belongs) at every
 * position, or none. */
static void dense_runs(void)
{
    static const char *const items[] = {"",     "a",   "%4",   "%ZZ",      "%u20AC",
                                        "+",    "%C3", "\xFF", "%FF",      "%E6%97",
                                        "%%41", "A41", "0e9",  "%ED%A0%80"};
    static const char *const runs[] = {"%E6%97%A5", "%41", "%c3%a9"};
    enum {
        RUN = 640
    };
    static uint8_t buf[64 + RUN + 16];
    const size_t step = test_quick() ? 29 : 5;
    for (size_t rn = 0; rn < sizeof runs / sizeof runs[0]; rn++) {
        const size_t rl = strlen(runs[rn]);
        for (size_t prefix = 0; prefix < 64; prefix += test_quick() ? 13 : 3) {
            for (size_t it = 0; it < sizeof items / sizeof items[0]; it++) {
                const char *item = items[it];
                const size_t il = strlen(item);
                for (size_t pos = 0; pos <= RUN; pos += il ? step : RUN + 1) {
                    size_t n = prefix;
                    memset(buf, 'a', prefix);
                    for (; n < prefix + pos; n += rl)
                        mem_cpy(buf + n, runs[rn], rl);
                    mem_cpy(buf + n, item, il);
                    n += il;
                    for (; n < prefix + RUN; n += rl)
                        mem_cpy(buf + n, runs[rn], rl);
                    for (size_t f = 0; f < NEDGE_FLAGS; f++)
                        decode_vs_model(buf, n, NULL, edge_flags[f]);
                    decode_vs_model(buf, n, &slash, 0);
                }
            }
        }
    }
}

/* A UTF-8 sequence cut off by the end of the input, ending at every offset
 * of the last two 64-byte blocks: the last block may then hold only the
 * sequence's last digits and write no byte of it (a kernel once looped
 * forever looking for the sequence's start there). */
static void sequence_cut_at_the_end(void)
{
    static const char *const items[] = {"\xF0%9F", "%F0%9F%98", "\xE2%82", "%F0\x9F\x98", "%C3"};
    static const unsigned flag_set[] = {PCT_UTF8, PCT_UTF8_REPLACE, PCT_STRICT | PCT_UTF8};
    uint8_t buf[160];
    for (size_t it = 0; it < sizeof items / sizeof items[0]; it++) {
        const size_t il = strlen(items[it]);
        for (size_t len = 56; len <= 136; len++) {
            memset(buf, 'a', len - il);
            mem_cpy(buf + len - il, items[it], il);
            for (size_t f = 0; f < sizeof flag_set / sizeof flag_set[0]; f++)
                decode_vs_model(buf, len, NULL, flag_set[f]);
        }
    }
}

static void random_inputs(void)
{
    enum {
        MAX = 1200
    };
    static uint8_t buf[MAX + 32];
    unsigned long it, iters = test_iters(30000);
    pct_set keep;
    for (it = 0; it < iters; it++) {
        unsigned flags = all_flags[rng_below(NFLAGS)];
        size_t len;
        const pct_set *k = NULL;
        if (rng_chance(25)) {
            size_t b;
            gen_set(&keep, 0);
            for (b = 0; b < 0x80; b++) /* ASCII keep sets: the JavaScript case */
                if (rng_chance(15))
                    ref_set_add(&keep, (unsigned char)b);
            k = &keep;
        }
        len = gen_decode_input(buf, it % 50 == 0 ? MAX : 48, (flags & PCT_PERCENT_U) != 0);
        decode_vs_model(buf, len, k, flags);
    }
}

int main(void)
{
    test_seed("test_decode");
    pct_set_clear(&slash);
    pct_set_add_byte(&slash, '/');
    for (FOR_EACH_IMPL(k)) {
        lenient_and_strict();
        utf8_errors();
        bad_arguments();
        /* short inputs: SIMD kernels see them in their scalar tails, so in
         * quick mode the exhaustive loops run on the first one only */
        if (k == 0 || !test_quick()) {
            exhaustive_triples(k == 0);
            exhaustive_pairs();
        }
        every_position();
        sequence_cut_at_the_end();
        dense_runs();
        random_inputs();
    }
    return check_done();
}
