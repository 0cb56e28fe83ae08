/* test_stream.c - pct_decoder_* / pct_encoder_*: for every way of cutting an
 * input into chunks (all 2^(n-1) cut sets for short inputs, random chunkings
 * with empty updates for longer ones), the concatenated output equals the
 * one-shot call's, and an error carries the one-shot status and absolute
 * offset; after an error every further call returns it. Every flag
 * combination each side accepts, with and without a keep set. Every dst is
 * malloc'd with exactly the size the header documents. Bad arguments (flags,
 * a NULL set, a NULL src or dst with something to read or write) are
 * PCT_INVALID_ARGUMENT on every implementation, and stick.
 *
 * The exhaustive part runs on the first implementation only (short inputs
 * never reach SIMD blocks); the random part, with inputs up to 600 bytes,
 * on every implementation. PCT_TEST_QUICK=1 shrinks both. */
#include "check_impls.h"
#include "ops.h"
#include "pct.h"
#include "ref.h"

static const unsigned dec_flags[] = REF_DECODE_FLAG_COMBOS;
#define NDEC (sizeof dec_flags / sizeof dec_flags[0])

static const unsigned enc_flags[] = {0,
                                     PCT_PLUS,
                                     PCT_KEEP_ESCAPES,
                                     PCT_UTF8,
                                     PCT_PLUS | PCT_KEEP_ESCAPES,
                                     PCT_PLUS | PCT_UTF8,
                                     PCT_KEEP_ESCAPES | PCT_UTF8,
                                     PCT_PLUS | PCT_KEEP_ESCAPES | PCT_UTF8};
#define NENC (sizeof enc_flags / sizeof enc_flags[0])

static pct_set keep_ascii; /* decodeURI's reserved set plus '%' and 'A' */
static pct_set keep_mixed; /* '/', 0x80-0xBF, 0xE2 */
static const pct_set *const keeps[] = {NULL, &keep_ascii, &keep_mixed};
static const pct_set *const enc_sets[] = {&pct_set_form, &pct_set_path, &pct_set_rfc3986,
                                          &pct_set_c0_control};

/* ------------------------------------------------------------------------ */
/* Adversarial inputs                                                        */
/* ------------------------------------------------------------------------ */

static size_t gen_stream_input(uint8_t *buf, size_t len, int decode)
{
    static const char *const dpieces[] = {"%",
                                          "%",
                                          "2",
                                          "5",
                                          "4",
                                          "1",
                                          "A",
                                          "a",
                                          "F",
                                          "f",
                                          "D",
                                          "8",
                                          "3",
                                          "E",
                                          "0",
                                          "B",
                                          "C",
                                          "9",
                                          "u",
                                          "u",
                                          "+",
                                          "\xE2",
                                          "\x82",
                                          "\xAC",
                                          "\xF0",
                                          "\x9F",
                                          "\x98",
                                          "\x80",
                                          "\xC3",
                                          "%E2",
                                          "%82",
                                          "%ac",
                                          "%F0",
                                          "%9f",
                                          "%98",
                                          "%80",
                                          "%C3",
                                          "%uD83D",
                                          "%uDE00",
                                          "%u20AC",
                                          "%u00e9",
                                          "%2B",
                                          "%2F",
                                          "%25",
                                          "%A9",
                                          "%e2%82",
                                          "%uD83D%uDE00",
                                          "%ud83d",
                                          "%ED%A0",
                                          "%C0",
                                          "%FF",
                                          "%41",
                                          "z"};
    static const char *const epieces[] = {
        "%",    "%",    "2",    "5",    "4",    "1",    "A",    "a",    "f",    " ",
        " ",    "+",    "\xE2", "\x82", "\xAC", "\xF0", "\x9F", "\x98", "\x80", "\xC3",
        "\xA9", "\xFF", "\xED", "\xA0", "%41",  "%e9",  "~",    "z",    "\x00"};
    const char *const *pieces = decode ? dpieces : epieces;
    size_t np = decode ? sizeof dpieces / sizeof dpieces[0] : sizeof epieces / sizeof epieces[0];
    size_t n = 0;
    uint8_t tmp[32];
    while (n < len) {
        size_t pl, k = rng_below(np);
        const char *p = pieces[k];
        pl = strlen(p) ? strlen(p) : 1; /* "\x00" */
        mem_cpy(tmp, p, pl);
        for (k = 0; k < pl && n < len; k++)
            buf[n++] = tmp[k];
    }
    return n;
}

/* ------------------------------------------------------------------------ */
/* One-shot and streamed runs                                                */
/* ------------------------------------------------------------------------ */

typedef struct run {
    pct_result r;
    uint8_t *out; /* malloc'd */
    size_t len;
} run;

static run oneshot_decode(const uint8_t *src, size_t n, const pct_set *keep, unsigned flags)
{
    run o;
    char *in = xdup(src, n);
    o.out = (uint8_t *)xmalloc(flags & PCT_UTF8_REPLACE ? 3 * n : n);
    o.r = pct_decode_except(in, n, (char *)o.out, keep, flags);
    o.len = o.r.status == PCT_OK ? o.r.count : 0;
    free(in);
    return o;
}

static run oneshot_encode(const uint8_t *src, size_t n, const pct_set *set, unsigned flags)
{
    run o;
    char *in = xdup(src, n);
    o.out = (uint8_t *)xmalloc(3 * n);
    o.r = pct_encode(in, n, (char *)o.out, set, flags);
    o.len = o.r.status == PCT_OK ? o.r.count : 0;
    free(in);
    return o;
}

/* Feeds src in the chunks given by ends[0..nchunks) (each the end offset of
 * a chunk; a repeated offset is an empty update, made with src == NULL) to a
 * decoder (set == NULL) or an encoder, then finishes; compares with want. */
static int stream_check(const uint8_t *src, size_t n, const size_t *ends, size_t nchunks,
                        int decode, const pct_set *set, unsigned flags, const run *want,
                        const char *what)
{
    pct_decoder dec;
    pct_encoder enc;
    size_t mult = decode ? ((flags & PCT_UTF8_REPLACE) ? 3 : 1) : 3;
    size_t cap_total = mult * (n + PCT_STREAM_CARRY) + 3 * PCT_STREAM_CARRY;
    uint8_t *acc = (uint8_t *)xmalloc(cap_total);
    size_t acc_len = 0, c, start = 0;
    pct_result r = {PCT_OK, 0};
    pct_status st;
    int ok = 1, errored = 0;

    st = decode ? pct_decoder_init(&dec, set, flags) : pct_encoder_init(&enc, set, flags);
    if (st != PCT_OK) {
        check_input(src, n, "%s init flags=%s", what, flag_str(flags));
        CHECK_EQ(st, PCT_OK);
        free(acc);
        return 0;
    }
    for (c = 0; c <= nchunks && !errored; c++) {
        size_t len, cap;
        char *chunk, *dst;
        if (c < nchunks) {
            len = ends[c] - start;
            cap = decode ? mult * (len + PCT_STREAM_CARRY) : 3 * (len + PCT_STREAM_CARRY);
            chunk = len ? xdup(src + start, len) : NULL;
            dst = (char *)xmalloc(cap);
            r = decode ? pct_decoder_update(&dec, chunk, len, dst)
                       : pct_encoder_update(&enc, chunk, len, dst);
            free(chunk);
            start = ends[c];
        } else {
            cap = mult * PCT_STREAM_CARRY;
            dst = (char *)xmalloc(cap);
            r = decode ? pct_decoder_finish(&dec, dst) : pct_encoder_finish(&enc, dst);
        }
        if (r.status == PCT_OK) {
            if (r.count > cap || acc_len + r.count > cap_total) {
                check_input(src, n, "%s flags=%s: output count %zu beyond dst size %zu", what,
                            flag_str(flags), r.count, cap);
                CHECK(r.count <= cap);
                ok = 0;
                errored = 1;
            } else {
                mem_cpy(acc + acc_len, dst, r.count);
                acc_len += r.count;
            }
        } else {
            errored = 1;
        }
        free(dst);
    }
    if (ok) {
        if (want->r.status == PCT_OK) {
            if (r.status != PCT_OK || acc_len != want->len || mem_cmp(acc, want->out, acc_len)) {
                check_input(src, n, "%s flags=%s, %zu chunks", what, flag_str(flags), nchunks);
                if (CHECK_RESULT(r, PCT_OK, r.count))
                    CHECK_MEM(want->out, want->len, acc, acc_len);
                ok = 0;
            }
        } else if (r.status != want->r.status || r.count != want->r.count) {
            check_input(src, n, "%s flags=%s, %zu chunks", what, flag_str(flags), nchunks);
            CHECK_RESULT(r, want->r.status, want->r.count);
            ok = 0;
        }
    }
    if (ok && errored) { /* sticky errors */
        char dst[3 * (4 + PCT_STREAM_CARRY)];
        pct_result r1 = decode ? pct_decoder_update(&dec, "%41a", 4, dst)
                               : pct_encoder_update(&enc, "%41a", 4, dst);
        pct_result r2 = decode ? pct_decoder_finish(&dec, dst) : pct_encoder_finish(&enc, dst);
        if (r1.status != r.status || r1.count != r.count || r2.status != r.status ||
            r2.count != r.count) {
            check_input(src, n, "%s flags=%s: error not sticky", what, flag_str(flags));
            CHECK_RESULT(r1, r.status, r.count);
            CHECK_RESULT(r2, r.status, r.count);
            ok = 0;
        }
    }
    free(acc);
    if (ok)
        check_passed++;
    return ok;
}

/* Every cut set of an n-byte input (n <= 20). */
static void all_chunkings(const uint8_t *src, size_t n, int decode, const pct_set *set,
                          unsigned flags, const char *what)
{
    run want = decode ? oneshot_decode(src, n, set, flags) : oneshot_encode(src, n, set, flags);
    size_t ends[24], nchunks, k;
    unsigned long mask, masks = n ? 1ul << (n - 1) : 1;
    for (mask = 0; mask < masks; mask++) {
        nchunks = 0;
        for (k = 1; k < n; k++)
            if (mask & (1ul << (k - 1)))
                ends[nchunks++] = k;
        ends[nchunks++] = n;
        if (!stream_check(src, n, ends, nchunks, decode, set, flags, &want, what))
            break; /* one report per input is enough */
    }
    /* and no data at all before finish */
    if (n == 0)
        stream_check(src, 0, ends, 0, decode, set, flags, &want, what);
    free(want.out);
}

/* A random chunking, with empty updates if empties; ends needs 2n+2 entries. */
static size_t random_chunking(size_t n, size_t *ends, int empties)
{
    size_t pos = 0, c = 0, step;
    while (pos < n) {
        switch (rng_below(6)) {
        case 0:
            step = empties ? 0 : 1;
            break;
        case 1:
            step = 1;
            break;
        case 2:
            step = 1 + rng_below(3);
            break;
        case 3:
            step = 1 + rng_below(20);
            break;
        case 4:
            step = 1 + rng_below(70);
            break;
        default:
            step = 1 + rng_below(n);
            break;
        }
        if (pos + step > n)
            step = n - pos;
        pos += step;
        ends[c++] = pos;
    }
    if (empties && rng_chance(30))
        ends[c++] = n; /* a trailing empty update */
    return c;
}

static void exhaustive(void)
{
    /* input lengths per flag combination (2^(n-1) chunkings each) */
    static const size_t lens[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14};
    static const size_t lens_quick[] = {0, 1, 2, 3, 5, 7, 9, 9};
    const size_t *ln = test_quick() ? lens_quick : lens;
    size_t nl =
        test_quick() ? sizeof lens_quick / sizeof lens_quick[0] : sizeof lens / sizeof lens[0];
    uint8_t buf[32];
    size_t f, i;
    /* the decoder: every flag combination, keep sets alternating */
    for (f = 0; f < NDEC; f++) {
        for (i = 0; i < nl; i++) {
            size_t len = gen_stream_input(buf, ln[i], 1);
            all_chunkings(buf, len, 1, keeps[(f + i) % 3], dec_flags[f], "decoder");
        }
    }
    /* the encoder */
    for (f = 0; f < NENC; f++) {
        for (i = 0; i < nl; i++) {
            size_t len = gen_stream_input(buf, ln[i], 0);
            all_chunkings(buf, len, 0, enc_sets[(f + i) % 4], enc_flags[f], "encoder");
        }
    }
}

/* empties: chunkings include zero-length updates (src == NULL), which must
 * change nothing (kept apart so that a failure there names itself). */
static void random_chunkings(int empties)
{
    enum {
        MAX = 600
    };
    static uint8_t buf[MAX + 64];
    static size_t ends[2 * MAX + 4];
    unsigned long it, iters = test_iters(empties ? 1500 : 6000);
    for (it = 0; it < iters; it++) {
        int decode = it % 3 != 0;
        size_t n = it % 20 == 0 ? rng_below(MAX) : rng_below(65);
        size_t len, nchunks, rep;
        run want;
        unsigned flags;
        const pct_set *set;
        if (decode) {
            flags = dec_flags[rng_below(NDEC)];
            set = keeps[rng_below(3)];
            len = it % 2 ? gen_stream_input(buf, n, 1)
                         : gen_decode_input(buf, n, (flags & PCT_PERCENT_U) != 0);
            want = oneshot_decode(buf, len, set, flags);
        } else {
            flags = enc_flags[rng_below(NENC)];
            set = enc_sets[rng_below(4)];
            len = it % 2 ? gen_stream_input(buf, n, 0) : gen_encode_input(buf, n);
            want = oneshot_encode(buf, len, set, flags);
        }
        for (rep = 0; rep < 4; rep++) {
            nchunks = random_chunking(len, ends, empties);
            if (!stream_check(buf, len, ends, nchunks, decode, set, flags, &want,
                              decode ? (empties ? "decoder, with empty updates" : "decoder")
                                     : (empties ? "encoder, with empty updates" : "encoder")))
                break;
        }
        free(want.out);
    }
}

/* An encoder without a set is refused at init, as pct_encode refuses a NULL
 * set, and stays refused. */
static void null_set_encoder(void)
{
    static const unsigned flags[] = {0, PCT_PLUS, PCT_STRICT};
    char dst[3 * (8 + PCT_STREAM_CARRY)];
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        pct_encoder e;
        check_input(NULL, 0, "pct_encoder_init(NULL set) flags=%s", flag_str(flags[i]));
        CHECK_EQ(pct_encoder_init(&e, NULL, flags[i]), PCT_INVALID_ARGUMENT);
        CHECK_RESULT(pct_encoder_update(&e, "a b", 3, dst), PCT_INVALID_ARGUMENT, 0);
        CHECK_RESULT(pct_encoder_update(&e, NULL, 0, dst), PCT_INVALID_ARGUMENT, 0);
        CHECK_RESULT(pct_encoder_finish(&e, dst), PCT_INVALID_ARGUMENT, 0);
    }
}

/* dst == NULL is refused whenever something could be written (input bytes,
 * or a carried tail at finish), before any kernel runs, and the error
 * sticks; with nothing to write it is allowed. The long input reaches the
 * SIMD blocks of every implementation. */
static void null_dst(void)
{
    enum {
        LONG = 300
    };
    static char text[LONG];
    char dst[3 * (LONG + PCT_STREAM_CARRY)];
    pct_decoder d;
    pct_encoder e;
    pct_result r;
    for (size_t i = 0; i < LONG; i++)
        text[i] = "ab%41 c\xC3\xA9/"[i % 10];
    for (size_t n = 1; n <= LONG; n += LONG - 1) {
        check_input(text, n, "decoder update, dst NULL");
        CHECK_EQ(pct_decoder_init(&d, NULL, 0), PCT_OK);
        CHECK_RESULT(pct_decoder_update(&d, text, n, NULL), PCT_INVALID_ARGUMENT, 0);
        CHECK_RESULT(pct_decoder_update(&d, text, n, dst), PCT_INVALID_ARGUMENT, 0);
        CHECK_RESULT(pct_decoder_finish(&d, dst), PCT_INVALID_ARGUMENT, 0);
        check_input(text, n, "encoder update, dst NULL");
        CHECK_EQ(pct_encoder_init(&e, &pct_set_component, PCT_PLUS), PCT_OK);
        CHECK_RESULT(pct_encoder_update(&e, text, n, NULL), PCT_INVALID_ARGUMENT, 0);
        CHECK_RESULT(pct_encoder_update(&e, text, n, dst), PCT_INVALID_ARGUMENT, 0);
        CHECK_RESULT(pct_encoder_finish(&e, dst), PCT_INVALID_ARGUMENT, 0);
    }
    /* finish with a carried tail ("%4" is carried: the next byte decides) */
    check_input("ab%4", 4, "decoder finish, dst NULL");
    CHECK_EQ(pct_decoder_init(&d, NULL, 0), PCT_OK);
    r = pct_decoder_update(&d, "ab%4", 4, dst);
    CHECK(r.status == PCT_OK && r.count <= 2);
    CHECK_RESULT(pct_decoder_finish(&d, NULL), PCT_INVALID_ARGUMENT, 0);
    CHECK_RESULT(pct_decoder_finish(&d, dst), PCT_INVALID_ARGUMENT, 0);
    check_input("ab%4", 4, "encoder finish, dst NULL");
    CHECK_EQ(pct_encoder_init(&e, &pct_set_component, PCT_KEEP_ESCAPES), PCT_OK);
    r = pct_encoder_update(&e, "ab%4", 4, dst);
    CHECK(r.status == PCT_OK && r.count <= 2);
    CHECK_RESULT(pct_encoder_finish(&e, NULL), PCT_INVALID_ARGUMENT, 0);
    CHECK_RESULT(pct_encoder_finish(&e, dst), PCT_INVALID_ARGUMENT, 0);
    /* nothing to write: NULL is fine, and the stream goes on */
    check_input("ab", 2, "dst NULL with nothing to write");
    CHECK_EQ(pct_decoder_init(&d, NULL, 0), PCT_OK);
    CHECK_RESULT(pct_decoder_update(&d, NULL, 0, NULL), PCT_OK, 0);
    CHECK_RESULT(pct_decoder_finish(&d, NULL), PCT_OK, 0);
    CHECK_EQ(pct_decoder_init(&d, NULL, 0), PCT_OK);
    r = pct_decoder_update(&d, "ab", 2, dst);
    CHECK_OUT(r, dst, "ab", 2);
    CHECK_RESULT(pct_decoder_update(&d, "", 0, NULL), PCT_OK, 0);
    CHECK_RESULT(pct_decoder_finish(&d, NULL), PCT_OK, 0);
    CHECK_EQ(pct_encoder_init(&e, &pct_set_component, 0), PCT_OK);
    CHECK_RESULT(pct_encoder_update(&e, NULL, 0, NULL), PCT_OK, 0);
    CHECK_RESULT(pct_encoder_finish(&e, NULL), PCT_OK, 0);
}

static void bad_arguments(void)
{
    static const unsigned dbad[] = {PCT_UTF8 | PCT_UTF8_REPLACE, PCT_KEEP_ESCAPES, 64, 1u << 16};
    static const unsigned ebad[] = {PCT_STRICT, PCT_PERCENT_U, PCT_UTF8_REPLACE, 64, 1u << 16};
    char dst[3 * (8 + PCT_STREAM_CARRY)];
    size_t i;
    pct_result r;
    for (i = 0; i < sizeof dbad / sizeof dbad[0]; i++) {
        pct_decoder d;
        check_input(NULL, 0, "pct_decoder_init flags=%s", flag_str(dbad[i]));
        CHECK_EQ(pct_decoder_init(&d, NULL, dbad[i]), PCT_INVALID_ARGUMENT);
        r = pct_decoder_update(&d, "%41", 3, dst);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
        r = pct_decoder_finish(&d, dst);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    }
    for (i = 0; i < sizeof ebad / sizeof ebad[0]; i++) {
        pct_encoder e;
        check_input(NULL, 0, "pct_encoder_init flags=%s", flag_str(ebad[i]));
        CHECK_EQ(pct_encoder_init(&e, &pct_set_form, ebad[i]), PCT_INVALID_ARGUMENT);
        r = pct_encoder_update(&e, "a b", 3, dst);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
        r = pct_encoder_finish(&e, dst);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    }
    {
        pct_decoder d;
        pct_encoder e;
        check_input(NULL, 0, "stream: NULL with a length");
        CHECK_EQ(pct_decoder_init(&d, NULL, 0), PCT_OK);
        r = pct_decoder_update(&d, NULL, 3, dst);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
        CHECK_EQ(pct_encoder_init(&e, &pct_set_form, 0), PCT_OK);
        r = pct_encoder_update(&e, NULL, 3, dst);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    }
    null_set_encoder();
    null_dst();
    /* a small documented example: the carry across calls */
    {
        pct_decoder d;
        char out[3 * (8 + PCT_STREAM_CARRY)];
        size_t n = 0;
        check_input(NULL, 0, "decoder example: \"%%E2%%8\" + \"2%%AC\"");
        CHECK_EQ(pct_decoder_init(&d, NULL, PCT_STRICT | PCT_UTF8), PCT_OK);
        r = pct_decoder_update(&d, "%E2%8", 5, dst);
        if (CHECK_RESULT(r, PCT_OK, r.count)) {
            mem_cpy(out, dst, r.count);
            n = r.count;
        }
        r = pct_decoder_update(&d, "2%AC", 4, dst);
        if (CHECK_RESULT(r, PCT_OK, r.count)) {
            mem_cpy(out + n, dst, r.count);
            n += r.count;
        }
        r = pct_decoder_finish(&d, dst);
        if (CHECK_RESULT(r, PCT_OK, r.count)) {
            mem_cpy(out + n, dst, r.count);
            n += r.count;
        }
        CHECK_MEM("\xE2\x82\xAC", 3, out, n);
        /* an empty update keeps the carry: "ab%2" + "" + finish is "ab%2" */
        check_input(NULL, 0, "decoder example: \"ab%%2\" + \"\" + finish");
        CHECK_EQ(pct_decoder_init(&d, NULL, 0), PCT_OK);
        n = 0;
        r = pct_decoder_update(&d, "ab%2", 4, dst);
        if (CHECK_RESULT(r, PCT_OK, r.count)) {
            mem_cpy(out, dst, r.count);
            n = r.count;
        }
        r = pct_decoder_update(&d, NULL, 0, dst);
        if (CHECK_RESULT(r, PCT_OK, r.count)) {
            mem_cpy(out + n, dst, r.count);
            n += r.count;
        }
        r = pct_decoder_finish(&d, dst);
        if (CHECK_RESULT(r, PCT_OK, r.count)) {
            mem_cpy(out + n, dst, r.count);
            n += r.count;
        }
        CHECK_MEM("ab%2", 4, out, n);
        /* an error in the second chunk has an absolute offset */
        CHECK_EQ(pct_decoder_init(&d, NULL, PCT_STRICT), PCT_OK);
        r = pct_decoder_update(&d, "abcd", 4, dst);
        CHECK_RESULT(r, PCT_OK, 4);
        r = pct_decoder_update(&d, "%4", 2, dst);
        if (r.status == PCT_OK)
            r = pct_decoder_update(&d, "g", 1, dst);
        CHECK_RESULT(r, PCT_INVALID_ESCAPE, 4);
    }
}

int main(void)
{
    int first = 1;
    test_seed("test_stream");
    pct_set_clear(&keep_ascii);
    pct_set_add_chars(&keep_ascii, ";/?:@&=+$,#%A");
    pct_set_clear(&keep_mixed);
    pct_set_add_byte(&keep_mixed, '/');
    pct_set_add_range(&keep_mixed, 0x80, 0xBF);
    pct_set_add_byte(&keep_mixed, 0xE2);
    for (FOR_EACH_IMPL(k)) {
        bad_arguments();
        if (first)
            exhaustive();
        first = 0;
        random_chunkings(0);
        random_chunkings(1);
    }
    return check_done();
}
