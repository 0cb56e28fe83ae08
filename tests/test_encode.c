/* test_encode.c - pct_encode / pct_encode_length: every set on all 256 bytes,
 * PCT_PLUS, PCT_KEEP_ESCAPES, PCT_UTF8 input validation offsets, exact
 * lengths, flag checking, items at every position, random inputs against the
 * reference model. */
#include "check_impls.h"
#include "ops.h"
#include "pct.h"
#include "ref.h"

static const ref_named_set sets[] = REF_PREDEFINED_SETS;
#define NSETS (sizeof sets / sizeof sets[0])

static const unsigned all_flags[] = {0,
                                     PCT_PLUS,
                                     PCT_KEEP_ESCAPES,
                                     PCT_UTF8,
                                     PCT_PLUS | PCT_KEEP_ESCAPES,
                                     PCT_PLUS | PCT_UTF8,
                                     PCT_KEEP_ESCAPES | PCT_UTF8,
                                     PCT_PLUS | PCT_KEEP_ESCAPES | PCT_UTF8};
#define NFLAGS (sizeof all_flags / sizeof all_flags[0])

static int has_hex_digit(const pct_set *s)
{
    const char *p;
    for (p = "0123456789ABCDEFabcdef"; *p; p++)
        if (ref_in(s, (unsigned char)*p))
            return 1;
    return 0;
}

/* Library vs model with exactly-sized output; also pct_encode_length. */
static int encode_vs_model(const uint8_t *src, size_t len, const pct_set *set, unsigned flags,
                           const char *set_name)
{
    char *in = xdup(src, len), *model = (char *)xmalloc(3 * len), *dst;
    pct_result m = ref_encode(src, len, set, flags, model), r;
    size_t want_len, got_len;
    int ok = 1;

    /* the length as if encoding succeeds: the model without PCT_UTF8 */
    want_len = ref_encode(src, len, set, flags & ~(unsigned)PCT_UTF8, model).count;
    got_len = pct_encode_length(in, len, set, flags);
    if (got_len != want_len) {
        check_input(src, len, "pct_encode_length set=%s flags=%s", set_name, flag_str(flags));
        CHECK_EQ(got_len, want_len);
        ok = 0;
    }
    m = ref_encode(src, len, set, flags, model);
    dst = (char *)xmalloc(want_len);
    r = pct_encode(in, len, dst, set, flags);
    if (r.status != m.status || r.count != m.count) {
        check_input(src, len, "encode set=%s flags=%s", set_name, flag_str(flags));
        if (r.status == PCT_OK && m.status == PCT_OK)
            CHECK_MEM(model, m.count, dst, r.count);
        else
            CHECK_RESULT(r, m.status, m.count);
        ok = 0;
    } else if (r.status == PCT_OK && mem_cmp(dst, model, r.count) != 0) {
        check_input(src, len, "encode set=%s flags=%s", set_name, flag_str(flags));
        CHECK_MEM(model, m.count, dst, r.count);
        ok = 0;
    } else {
        check_passed++;
    }
    free(in);
    free(model);
    free(dst);
    return ok;
}

static void all_bytes(void)
{
    static const char hexd[] = "0123456789ABCDEF";
    uint8_t in[256];
    char want[768];
    size_t s, b, n;
    for (b = 0; b < 256; b++)
        in[b] = (uint8_t)b;
    for (s = 0; s < NSETS; s++) {
        unsigned f;
        for (f = 0; f < 2; f++) {
            unsigned flags = f ? PCT_PLUS : 0;
            /* expected: %HH upper case exactly for the bytes in the set */
            for (b = 0, n = 0; b < 256; b++) {
                if (pct_set_contains(sets[s].set, (unsigned char)b)) {
                    if (flags && b == ' ') {
                        want[n++] = '+';
                    } else {
                        want[n++] = '%';
                        want[n++] = hexd[b >> 4];
                        want[n++] = hexd[b & 15];
                    }
                } else {
                    want[n++] = (char)b;
                }
            }
            expect_encode_at(__FILE__, __LINE__, (const char *)in, 256, sets[s].set, flags, PCT_OK,
                             n, want, n);
            /* and each byte alone */
            for (b = 0; b < 256; b++)
                encode_vs_model(in + b, 1, sets[s].set, flags, sets[s].name);
        }
    }
    /* the empty and the full set */
    {
        pct_set e, full;
        pct_set_clear(&e);
        pct_set_fill(&full);
        for (b = 0, n = 0; b < 256; b++) {
            want[n++] = '%';
            want[n++] = hexd[b >> 4];
            want[n++] = hexd[b & 15];
        }
        expect_encode_at(__FILE__, __LINE__, (const char *)in, 256, &e, PCT_PLUS, PCT_OK, 256,
                         (const char *)in, 256);
        expect_encode_at(__FILE__, __LINE__, (const char *)in, 256, &full, 0, PCT_OK, 768, want,
                         768);
    }
}

static void flags_behaviour(void)
{
    /* PCT_PLUS: space becomes '+' only when space is in the set */
    EXPECT_ENCODE("a b c", &pct_set_component, PCT_PLUS, "a+b+c");
    EXPECT_ENCODE("a b+c", &pct_set_fragment, PCT_PLUS, "a+b+c");
    EXPECT_ENCODE("a b", &pct_set_c0_control, PCT_PLUS, "a b");
    EXPECT_ENCODE("  ", &pct_set_rfc3986, PCT_PLUS, "++");
    {
        pct_set s = pct_set_form;
        pct_set_remove_byte(&s, ' ');
        EXPECT_ENCODE("a b+", &s, PCT_PLUS, "a b%2B");
    }
    /* PCT_KEEP_ESCAPES */
    EXPECT_ENCODE("%41%zz%", &pct_set_component, PCT_KEEP_ESCAPES, "%41%25zz%25");
    EXPECT_ENCODE("%41%zz%", &pct_set_component, 0, "%2541%25zz%25");
    EXPECT_ENCODE("%41%zz%", &pct_set_path, PCT_KEEP_ESCAPES, "%41%zz%");
    EXPECT_ENCODE("%41%zz%", &pct_set_path, 0, "%41%zz%");
    EXPECT_ENCODE("%e9%E9%4", &pct_set_rfc3986, PCT_KEEP_ESCAPES, "%e9%E9%254");
    EXPECT_ENCODE("%%41", &pct_set_rfc3986, PCT_KEEP_ESCAPES, "%25%41");
    EXPECT_ENCODE("%2", &pct_set_rfc3986, PCT_KEEP_ESCAPES, "%252");
    EXPECT_ENCODE("100% sure %20", &pct_set_form, PCT_KEEP_ESCAPES | PCT_PLUS, "100%25+sure+%20");
    EXPECT_ENCODE("%u00E9", &pct_set_rfc3986, PCT_KEEP_ESCAPES, "%25u00E9");
    /* PCT_UTF8: the input must be UTF-8; offset of the bad sequence */
    EXPECT_ENCODE("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", &pct_set_rfc3986, PCT_UTF8,
                  "%C3%A9%E2%82%AC%F0%9F%98%80");
    EXPECT_ENCODE_ERR("a\xC0\x80", &pct_set_rfc3986, PCT_UTF8, PCT_INVALID_UTF8, 1);
    EXPECT_ENCODE_ERR("\xE0\x80\x80", &pct_set_rfc3986, PCT_UTF8, PCT_INVALID_UTF8, 0);
    EXPECT_ENCODE_ERR("ab\xF0\x80\x80\x80", &pct_set_rfc3986, PCT_UTF8, PCT_INVALID_UTF8, 2);
    EXPECT_ENCODE_ERR("ab\xED\xA0\x80", &pct_set_rfc3986, PCT_UTF8, PCT_INVALID_UTF8, 2);
    EXPECT_ENCODE_ERR("\xF4\x90\x80\x80", &pct_set_rfc3986, PCT_UTF8, PCT_INVALID_UTF8, 0);
    EXPECT_ENCODE_ERR("\xE2\x82", &pct_set_rfc3986, PCT_UTF8, PCT_INVALID_UTF8, 0);
    EXPECT_ENCODE_ERR("x\xE2\x82y", &pct_set_rfc3986, PCT_UTF8, PCT_INVALID_UTF8, 1);
    EXPECT_ENCODE_ERR("\xC3\xA9\x80", &pct_set_rfc3986, PCT_UTF8, PCT_INVALID_UTF8, 2);
    EXPECT_ENCODE_ERR("\xF5", &pct_set_c0_control, PCT_UTF8, PCT_INVALID_UTF8, 0);
    EXPECT_ENCODE_ERR("abc\xFF", &pct_set_c0_control, PCT_UTF8 | PCT_PLUS, PCT_INVALID_UTF8, 3);
    /* escapes are not decoded before the check: "%C0" is three ASCII bytes */
    EXPECT_ENCODE("%C0%80", &pct_set_rfc3986, PCT_UTF8 | PCT_KEEP_ESCAPES, "%C0%80");
    /* the bytes are checked even when the set does not contain them */
    {
        pct_set e;
        pct_set_clear(&e);
        EXPECT_ENCODE_ERR("ok\xC3", &e, PCT_UTF8, PCT_INVALID_UTF8, 2);
        EXPECT_ENCODE("ok\xC3\xA9", &e, PCT_UTF8, "ok\xC3\xA9");
    }
    /* empty input */
    EXPECT_ENCODE("", &pct_set_rfc3986, PCT_UTF8 | PCT_PLUS, "");
}

static void bad_arguments(void)
{
    static const unsigned bad[] = {
        PCT_STRICT, PCT_PERCENT_U, PCT_UTF8_REPLACE, PCT_PLUS | PCT_STRICT,
        64,         1u << 16,      1u << 31,         ~0u};
    char dst[32];
    size_t i;
    pct_result r;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        check_input(S("a b"), "encode, bad flags %s", flag_str(bad[i]));
        memset(dst, '#', sizeof dst);
        r = pct_encode("a b", 3, dst, &pct_set_rfc3986, bad[i]);
        CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
        CHECK(mem_cmp(dst, "################################", sizeof dst) == 0);
    }
    check_input(NULL, 0, "encode NULL src, len 2");
    r = pct_encode(NULL, 2, dst, &pct_set_rfc3986, 0);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    check_input(NULL, 0, "encode NULL dst, len 2");
    r = pct_encode("ab", 2, NULL, &pct_set_rfc3986, 0);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    check_input(NULL, 0, "encode NULL, 0");
    r = pct_encode(NULL, 0, NULL, &pct_set_rfc3986, PCT_UTF8);
    CHECK_RESULT(r, PCT_OK, 0);
    CHECK_EQ(pct_encode_length(NULL, 0, &pct_set_rfc3986, PCT_PLUS), 0);
    /* pct_encode_length ignores flags other than PLUS and KEEP_ESCAPES */
    check_input(S("a b%41\xC0"), "pct_encode_length ignores other flags");
    CHECK_EQ(pct_encode_length("a b%41\xC0", 7, &pct_set_rfc3986, PCT_UTF8), 13);
    CHECK_EQ(pct_encode_length("a b%41\xC0", 7, &pct_set_rfc3986, PCT_STRICT | PCT_PERCENT_U), 13);
    CHECK_EQ(pct_encode_length("a b%41\xC0", 7, &pct_set_rfc3986, PCT_PLUS | PCT_UTF8), 11);
    CHECK_EQ(pct_encode_length("a b%41\xC0", 7, &pct_set_rfc3986, PCT_KEEP_ESCAPES), 11);
    CHECK_EQ(pct_encode_length("a b%41\xC0", 7, &pct_set_rfc3986,
                               PCT_KEEP_ESCAPES | PCT_PLUS | PCT_UTF8_REPLACE),
             9);
}

static void every_position(void)
{
    static const char *const items[] = {
        " ", "%",    "%41",  "%4",  "\xC3\xA9",         "\xE2\x82",     "\x80",
        "+", "\x00", "\xFF", "%zz", "\xF0\x9F\x98\x80", "\xED\xA0\x80", "~"};
    enum {
        MAXLEN = 100
    };
    uint8_t buf[MAXLEN];
    size_t it, len, pos, f, s, step = test_quick() ? 5 : 1;
    for (it = 0; it < sizeof items / sizeof items[0]; it++) {
        size_t il = strlen(items[it]) ? strlen(items[it]) : 1;
        for (len = il; len <= MAXLEN; len += (len < 40 ? step : 11 * step)) {
            for (pos = 0; pos + il <= len; pos += step) {
                memset(buf, 'a', len);
                mem_cpy(buf + pos, items[it], il);
                for (f = 0; f < NFLAGS; f += (f % 2 ? 1 : 3)) {
                    s = (len + pos + f) % NSETS;
                    encode_vs_model(buf, len, sets[s].set, all_flags[f], sets[s].name);
                }
            }
        }
    }
}

static void random_inputs(void)
{
    enum {
        MAX = 1500
    };
    static uint8_t buf[MAX + 8];
    unsigned long it, iters = test_iters(20000);
    pct_set rs;
    for (it = 0; it < iters; it++) {
        unsigned flags = all_flags[rng_below(NFLAGS)];
        const pct_set *set;
        const char *name;
        size_t len = gen_encode_input(buf, it % 40 == 0 ? MAX : 64);
        if (rng_chance(30)) {
            gen_set(&rs, (unsigned)rng_below(100));
            if ((flags & PCT_KEEP_ESCAPES) && has_hex_digit(&rs))
                flags &= ~(unsigned)PCT_KEEP_ESCAPES; /* see ref_encode */
            set = &rs;
            name = "random";
        } else {
            size_t s = rng_below(NSETS);
            set = sets[s].set;
            name = sets[s].name;
        }
        encode_vs_model(buf, len, set, flags, name);
    }
}

int main(void)
{
    test_seed("test_encode");
    for (FOR_EACH_IMPL(k)) {
        all_bytes();
        flags_behaviour();
        bad_arguments();
        every_position();
        random_inputs();
    }
    return check_done();
}
