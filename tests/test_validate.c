/* test_validate.c - pct_validate: error kinds and offsets as the header
 * defines them, PCT_PLUS, and on PCT_OK a count equal to what pct_decode
 * writes with the same flags; random inputs against the model. */
#include "check_impls.h"
#include "ops.h"
#include "pct.h"
#include "ref.h"

static const unsigned all_flags[] = {
    0,
    PCT_PLUS,
    PCT_STRICT,
    PCT_UTF8,
    PCT_PERCENT_U,
    PCT_PLUS | PCT_STRICT,
    PCT_PLUS | PCT_UTF8,
    PCT_PLUS | PCT_PERCENT_U,
    PCT_STRICT | PCT_UTF8,
    PCT_STRICT | PCT_PERCENT_U,
    PCT_UTF8 | PCT_PERCENT_U,
    PCT_PLUS | PCT_STRICT | PCT_UTF8,
    PCT_PLUS | PCT_STRICT | PCT_PERCENT_U,
    PCT_PLUS | PCT_UTF8 | PCT_PERCENT_U,
    PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U,
    PCT_PLUS | PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U,
};
#define NFLAGS (sizeof all_flags / sizeof all_flags[0])

static const pct_set *const sets[] = {
    &pct_set_c0_control, &pct_set_fragment, &pct_set_query,        &pct_set_special_query,
    &pct_set_path,       &pct_set_userinfo, &pct_set_component,    &pct_set_form,
    &pct_set_rfc3986,    &pct_set_uri,      &pct_set_uri_component};
#define NSETS (sizeof sets / sizeof sets[0])

static void vectors(void)
{
    const pct_set *C = &pct_set_component;
    EXPECT_VALIDATE("", C, 0, PCT_OK, 0);
    EXPECT_VALIDATE("abc", C, PCT_STRICT | PCT_UTF8, PCT_OK, 3);
    EXPECT_VALIDATE("a%20b%2F", C, 0, PCT_OK, 4);
    EXPECT_VALIDATE("a%2fb%E2%82%AC", C, PCT_UTF8, PCT_OK, 6);
    /* an unescaped byte of the set */
    EXPECT_VALIDATE("a b", C, 0, PCT_UNESCAPED_BYTE, 1);
    EXPECT_VALIDATE("%41/", C, 0, PCT_UNESCAPED_BYTE, 3);
    EXPECT_VALIDATE("%41/", &pct_set_path, 0, PCT_OK, 2);
    EXPECT_VALIDATE("\xC3\xA9", &pct_set_rfc3986, 0, PCT_UNESCAPED_BYTE, 0);
    EXPECT_VALIDATE("\x00", &pct_set_c0_control, 0, PCT_UNESCAPED_BYTE, 0);
    EXPECT_VALIDATE("%00", &pct_set_c0_control, 0, PCT_OK, 1);
    /* a '%' not starting an escape: an error when '%' is in the set ... */
    EXPECT_VALIDATE("%zz", C, 0, PCT_INVALID_ESCAPE, 0);
    EXPECT_VALIDATE("ab%4", C, 0, PCT_INVALID_ESCAPE, 2);
    EXPECT_VALIDATE("%%41", C, 0, PCT_INVALID_ESCAPE, 0);
    /* ... or under STRICT; else it is just a character */
    EXPECT_VALIDATE("%zz", &pct_set_path, 0, PCT_OK, 3);
    EXPECT_VALIDATE("%%41", &pct_set_path, 0, PCT_OK, 2);
    EXPECT_VALIDATE("%zz", &pct_set_path, PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_VALIDATE("a%4", &pct_set_c0_control, PCT_STRICT, PCT_INVALID_ESCAPE, 1);
    /* the first offence wins */
    EXPECT_VALIDATE("a b%zz", C, 0, PCT_UNESCAPED_BYTE, 1);
    EXPECT_VALIDATE("a%zz b", C, 0, PCT_INVALID_ESCAPE, 1);
    /* PCT_PLUS: '+' is an encoded space even when '+' is in the set */
    EXPECT_VALIDATE("a+b", &pct_set_form, PCT_PLUS, PCT_OK, 3);
    EXPECT_VALIDATE("a+b", &pct_set_form, 0, PCT_UNESCAPED_BYTE, 1);
    EXPECT_VALIDATE("a+b%2B", &pct_set_form, PCT_PLUS | PCT_STRICT, PCT_OK, 4);
    EXPECT_VALIDATE("a+b c", &pct_set_form, PCT_PLUS, PCT_UNESCAPED_BYTE, 3);
    /* PCT_UTF8: the decoded bytes */
    EXPECT_VALIDATE("%E2%82", C, PCT_UTF8, PCT_INVALID_UTF8, 0);
    EXPECT_VALIDATE("ab%C0%80", C, PCT_UTF8, PCT_INVALID_UTF8, 2);
    EXPECT_VALIDATE("ab%ED%A0%80", C, PCT_UTF8 | PCT_STRICT, PCT_INVALID_UTF8, 2);
    EXPECT_VALIDATE("%C3%A9%A9", C, PCT_UTF8, PCT_INVALID_UTF8, 6);
    EXPECT_VALIDATE("%C3%A9", C, PCT_UTF8, PCT_OK, 2);
    EXPECT_VALIDATE("\xC3%A9", &pct_set_c0_control, PCT_UTF8, PCT_UNESCAPED_BYTE, 0);
    {
        pct_set e;
        pct_set_clear(&e);
        EXPECT_VALIDATE("\xC3%A9", &e, PCT_UTF8, PCT_OK, 2);
        EXPECT_VALIDATE("\xC3%41", &e, PCT_UTF8, PCT_INVALID_UTF8, 0);
        EXPECT_VALIDATE("\xC3", &e, PCT_UTF8, PCT_INVALID_UTF8, 0);
    }
    /* an ill-formed sequence complete before a later offence comes first */
    EXPECT_VALIDATE("%C0 ", C, PCT_UTF8, PCT_INVALID_UTF8, 0);
    EXPECT_VALIDATE("%C3%A9 ", C, PCT_UTF8, PCT_UNESCAPED_BYTE, 6);
    /* a sequence cut short by an offence: either is the first */
    EXPECT_VALIDATE2("%E2%82 ", C, PCT_UTF8, PCT_UNESCAPED_BYTE, 6, PCT_INVALID_UTF8, 0);
    EXPECT_VALIDATE2("%E2%zz", C, PCT_UTF8, PCT_INVALID_ESCAPE, 3, PCT_INVALID_UTF8, 0);
    /* PCT_PERCENT_U */
    EXPECT_VALIDATE("%u20AC%uD83D%uDE00", C, PCT_PERCENT_U, PCT_OK, 7);
    EXPECT_VALIDATE("%u20AC", C, 0, PCT_INVALID_ESCAPE, 0);
    EXPECT_VALIDATE("%u20AC", &pct_set_path, 0, PCT_OK, 6);
    EXPECT_VALIDATE("%uD83D", C, PCT_PERCENT_U | PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_VALIDATE("x%uDE00", &pct_set_path, PCT_PERCENT_U | PCT_STRICT, PCT_INVALID_ESCAPE, 1);
    EXPECT_VALIDATE("%uD83D", &pct_set_path, PCT_PERCENT_U, PCT_OK, 6);
    EXPECT_VALIDATE("%E2%u0041", C, PCT_PERCENT_U | PCT_UTF8, PCT_INVALID_UTF8, 0);
    /* flags */
    {
        static const unsigned bad[] = {
            PCT_KEEP_ESCAPES, PCT_UTF8_REPLACE, PCT_UTF8 | PCT_UTF8_REPLACE, 64, 1u << 16, ~0u};
        size_t i;
        pct_result r;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            check_input(S("%41"), "validate, bad flags %s", flag_str(bad[i]));
            r = pct_validate("%41", 3, C, bad[i]);
            CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
        }
        check_input(NULL, 0, "validate NULL");
        r = pct_validate(NULL, 0, C, PCT_STRICT | PCT_UTF8);
        CHECK_RESULT(r, PCT_OK, 0);
        r = pct_validate(NULL, 2, C, 0);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    }
}

/* Library vs model; on PCT_OK also count == pct_decode's output length. */
static void validate_check(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    char *in = xdup(src, len);
    pct_result r = pct_validate(in, len, set, flags);
    ref_result m = ref_validate(src, len, set, flags);
    int ok = 1;
    if (!ref_matches(m, r)) {
        check_input(src, len, "validate flags=%s", flag_str(flags));
        if (m.alt_ok)
            CHECK_RESULT2(r, m.r, m.alt);
        else
            CHECK_RESULT(r, m.r.status, m.r.count);
        ok = 0;
    }
    if (r.status == PCT_OK) {
        char *dst = (char *)xmalloc(len);
        pct_result d = pct_decode(in, len, dst, flags);
        if (d.status != PCT_OK || d.count != r.count) {
            check_input(src, len, "validate count vs decode, flags=%s", flag_str(flags));
            CHECK_RESULT(d, PCT_OK, r.count);
            ok = 0;
        }
        free(dst);
    }
    if (ok)
        check_passed++;
    free(in);
}

static void every_position(void)
{
    static const char *const items[] = {" ", "%",      "%4",     "%zz",       "%41",
                                        "+", "%E2",    "%C3%A9", "\xC3\xA9",  "\x80",
                                        "/", "%uD83D", "%u20AC", "%E2%82%AC", "%80"};
    enum {
        MAXLEN = 90
    };
    uint8_t buf[MAXLEN];
    size_t it, len, pos, f, step = test_quick() ? 5 : 1;
    for (it = 0; it < sizeof items / sizeof items[0]; it++) {
        size_t il = strlen(items[it]);
        for (len = il; len <= MAXLEN; len += (len < 40 ? step : 9 * step)) {
            for (pos = 0; pos + il <= len; pos += step) {
                memset(buf, 'z', len);
                mem_cpy(buf + pos, items[it], il);
                for (f = (len + pos) % 3; f < NFLAGS; f += 3)
                    validate_check(buf, len, sets[(len * 7 + pos + f) % NSETS], all_flags[f]);
            }
        }
    }
}

static void random_inputs(void)
{
    enum {
        MAX = 1000
    };
    static uint8_t buf[MAX + 32];
    unsigned long it, iters = test_iters(30000);
    pct_set rs;
    for (it = 0; it < iters; it++) {
        unsigned flags = all_flags[rng_below(NFLAGS)];
        const pct_set *set = sets[rng_below(NSETS)];
        size_t len;
        if (rng_chance(20)) {
            gen_set(&rs, (unsigned)rng_below(30));
            set = &rs;
        }
        if (rng_chance(50)) {
            /* mostly valid: encode random data for the set */
            uint8_t raw[256 + 8]; /* gen_encode_input may write 4 past max */
            size_t n = gen_encode_input(raw, it % 50 == 0 ? 256 : 40);
            len = ref_encode(raw, n, set, 0, buf).count;
            if (len && rng_chance(30)) /* then damage one byte */
                buf[rng_below(len)] = (uint8_t) "%+ \x80\xC3zA"[rng_below(7)];
        } else {
            len = gen_decode_input(buf, it % 50 == 0 ? MAX : 40, (flags & PCT_PERCENT_U) != 0);
        }
        /* a lone surrogate under PERCENT_U without STRICT, with '%' in the
         * set, is read as a '%' that starts no escape (INVALID_ESCAPE); the
         * model encodes that reading. */
        validate_check(buf, len, set, flags);
    }
}

/* Runs of escapes (percent-encoded UTF-8 text, which the kernels validate
 * many escapes at a time), ending anywhere in a character and followed by
 * something to report or by the end: the hand-over must restart at the
 * sequence the run leaves unfinished. */
static void escape_runs(void)
{
    static const char *const chars[] = {"%C3%A9", "%E3%81%82", "%F0%9F%98%80"};
    static const char *const tails[] = {"", " ", "%", "%zz", "\x80", "z", "%C3"};
    static const unsigned flags[] = {PCT_UTF8, PCT_STRICT | PCT_UTF8, 0};
    uint8_t buf[700];
    for (size_t c = 0; c < 3; c++) {
        for (size_t n = 1; n <= 200; n += test_quick() ? 7 : 1) { /* escapes */
            for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
                const size_t lead = n % 3;
                size_t len = 0;
                memset(buf, 'z', lead);
                len = lead;
                for (size_t e = 0; e < n; e++) {
                    const char *ch = chars[c];
                    mem_cpy(buf + len, ch + 3 * (e % (strlen(ch) / 3)), 3);
                    len += 3;
                }
                mem_cpy(buf + len, tails[t], strlen(tails[t]));
                len += strlen(tails[t]);
                validate_check(buf, len, &pct_set_path, flags[(n + t) % 3]);
            }
        }
    }
}

int main(void)
{
    test_seed("test_validate");
    for (FOR_EACH_IMPL(k)) {
        vectors();
        every_position();
        escape_runs();
        random_inputs();
    }
    return check_done();
}
