/* test_sets.c - every predefined set byte by byte, the set builders,
 * pct_set_by_name and pct_find.
 *
 * The expected sets are written here from SPEC.md's table (and the header's),
 * as strings of the printable ASCII characters each set adds, or, for the
 * RFC 3986 / ECMAScript sets, the characters they leave alone. */
#include <stdio.h>
#include <string.h>

#include "check_impls.h"
#include "pct.h"
#include "ref.h"

#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

/* WHATWG sets, each written out in full (not derived from one another). */
#define ADDS_FRAGMENT " \"<>`"
#define ADDS_QUERY " \"#<>"
#define ADDS_SPECIAL_QUERY " \"#<>'"
#define ADDS_PATH " \"#<>?^`{}"
#define ADDS_USERINFO " \"#<>?^`{}/:;=@[\\]|"
#define ADDS_COMPONENT " \"#<>?^`{}/:;=@[\\]|$%&+,"
#define ADDS_FORM " \"#<>?^`{}/:;=@[\\]|$%&+,!'()~"
/* Sets defined by what they leave alone. */
#define KEEPS_RFC3986 ALNUM "-._~"
#define KEEPS_URI ALNUM "-._~!'()*;/?:@&=+$,#"
#define KEEPS_URI_COMPONENT ALNUM "-._~!'()*"

struct expected_set {
    const char *name;
    const pct_set *set;
    const char *chars; /* printable ASCII added (adds) or kept (!adds) */
    int adds;
};

static const struct expected_set expected[] = {
    {"c0_control", &pct_set_c0_control, "", 1},
    {"fragment", &pct_set_fragment, ADDS_FRAGMENT, 1},
    {"query", &pct_set_query, ADDS_QUERY, 1},
    {"special_query", &pct_set_special_query, ADDS_SPECIAL_QUERY, 1},
    {"path", &pct_set_path, ADDS_PATH, 1},
    {"userinfo", &pct_set_userinfo, ADDS_USERINFO, 1},
    {"component", &pct_set_component, ADDS_COMPONENT, 1},
    {"form", &pct_set_form, ADDS_FORM, 1},
    {"rfc3986", &pct_set_rfc3986, KEEPS_RFC3986, 0},
    {"uri", &pct_set_uri, KEEPS_URI, 0},
    {"uri_component", &pct_set_uri_component, KEEPS_URI_COMPONENT, 0},
};
#define NSETS (sizeof expected / sizeof expected[0])

static int expected_contains(const struct expected_set *e, unsigned b)
{
    int listed;
    if (b < 0x20 || b >= 0x7F)
        return 1; /* every set contains C0 controls, DEL and 0x80-0xFF */
    listed = strchr(e->chars, (int)b) != NULL;
    return e->adds ? listed : !listed;
}

static void test_predefined(void)
{
    size_t s;
    unsigned b;
    for (s = 0; s < NSETS; s++) {
        const struct expected_set *e = &expected[s];
        unsigned wrong = 0;
        check_input(NULL, 0, "set %s", e->name);
        for (b = 0; b < 256; b++) {
            int want = expected_contains(e, b);
            /* the bit layout the header documents ... */
            if (!CHECK_MSG(ref_in(e->set, (unsigned char)b) == want, "bit of byte 0x%02X: %d", b,
                           !want))
                wrong++;
            /* ... and pct_set_contains agree with the definition */
            if (!CHECK_MSG(pct_set_contains(e->set, (unsigned char)b) == want,
                           "pct_set_contains(0x%02X) != %d", b, want))
                wrong++;
        }
        printf("  set %-14s %s\n", e->name, wrong ? "WRONG" : "ok");
    }
    check_input(NULL, 0, "%s", "");
    /* The spec says component and uri_component have the same bytes. */
    CHECK(mem_cmp(&pct_set_component, &pct_set_uri_component, sizeof(pct_set)) == 0);
    /* Each WHATWG set includes the previous one (the spec's "query + ..."). */
    for (b = 0; b < 256; b++) {
        if (pct_set_contains(&pct_set_query, (unsigned char)b))
            CHECK(pct_set_contains(&pct_set_special_query, (unsigned char)b) &&
                  pct_set_contains(&pct_set_path, (unsigned char)b));
        if (pct_set_contains(&pct_set_path, (unsigned char)b))
            CHECK(pct_set_contains(&pct_set_userinfo, (unsigned char)b));
        if (pct_set_contains(&pct_set_userinfo, (unsigned char)b))
            CHECK(pct_set_contains(&pct_set_component, (unsigned char)b));
        if (pct_set_contains(&pct_set_component, (unsigned char)b))
            CHECK(pct_set_contains(&pct_set_form, (unsigned char)b));
    }
    /* No predefined set contains a hex digit or 'u' ('%' is in some). */
    for (s = 0; s < NSETS; s++) {
        const char *p;
        for (p = "0123456789ABCDEFabcdefu"; *p; p++)
            CHECK(!pct_set_contains(expected[s].set, (unsigned char)*p));
    }
    CHECK(!pct_set_contains(&pct_set_path, '%'));
    CHECK(!pct_set_contains(&pct_set_userinfo, '%'));
    CHECK(pct_set_contains(&pct_set_component, '%'));
    CHECK(pct_set_contains(&pct_set_form, '%'));
    CHECK(pct_set_contains(&pct_set_rfc3986, '%'));
    CHECK(pct_set_contains(&pct_set_uri, '%'));
}

static int set_equals_bits(const pct_set *s, const uint8_t want[256])
{
    unsigned b;
    for (b = 0; b < 256; b++)
        if (ref_in(s, (unsigned char)b) != want[b])
            return 0;
    return 1;
}

static void test_builders(void)
{
    pct_set s;
    uint8_t want[256];
    unsigned b, f, l, i;

    check_input(NULL, 0, "set builders");
    memset(&s, 0xA5, sizeof s);
    pct_set_clear(&s);
    for (b = 0; b < 32; b++)
        CHECK_EQ(s.bits[b], 0);
    pct_set_fill(&s);
    for (b = 0; b < 32; b++)
        CHECK_EQ(s.bits[b], 0xFF);

    /* add_byte/remove_byte touch exactly bit (b & 7) of bits[b >> 3] */
    for (b = 0; b < 256; b++) {
        pct_set_clear(&s);
        pct_set_add_byte(&s, (unsigned char)b);
        for (i = 0; i < 32; i++)
            CHECK_EQ(s.bits[i], i == (b >> 3) ? (1u << (b & 7)) : 0u);
        CHECK_EQ(pct_set_contains(&s, (unsigned char)b), 1);
        CHECK_EQ(pct_set_contains(&s, (unsigned char)(b ^ 1)), 0);
        pct_set_fill(&s);
        pct_set_remove_byte(&s, (unsigned char)b);
        for (i = 0; i < 32; i++)
            CHECK_EQ(s.bits[i], i == (b >> 3) ? (0xFFu & ~(1u << (b & 7))) : 0xFFu);
        CHECK_EQ(pct_set_contains(&s, (unsigned char)b), 0);
    }

    /* add/remove chars */
    pct_set_clear(&s);
    pct_set_add_chars(&s, "/?#\x80\xFF");
    memset(want, 0, sizeof want);
    want['/'] = want['?'] = want['#'] = want[0x80] = want[0xFF] = 1;
    CHECK(set_equals_bits(&s, want));
    pct_set_add_chars(&s, "");
    CHECK(set_equals_bits(&s, want));
    pct_set_remove_chars(&s, "?\xFFz");
    want['?'] = want[0xFF] = 0;
    CHECK(set_equals_bits(&s, want));
    /* the idiom from the header: Python's quote(safe='/') */
    s = pct_set_rfc3986;
    pct_set_remove_chars(&s, "/");
    CHECK(!pct_set_contains(&s, '/'));
    CHECK(pct_set_contains(&s, ':'));
    CHECK(pct_set_contains(&pct_set_rfc3986, '/')); /* the original is untouched */

    /* ranges, including first > last (nothing) and the full range */
    for (i = 0; i < 300; i++) {
        f = (unsigned)(i < 40 ? i * 7 % 256 : rng_below(256));
        l = (unsigned)(i < 40 ? 255 - i * 13 % 256 : rng_below(256));
        pct_set_clear(&s);
        pct_set_add_range(&s, (unsigned char)f, (unsigned char)l);
        for (b = 0; b < 256; b++)
            want[b] = (uint8_t)(f <= l && b >= f && b <= l);
        CHECK_MSG(set_equals_bits(&s, want), "add_range(%u, %u)", f, l);
        pct_set_fill(&s);
        pct_set_remove_range(&s, (unsigned char)f, (unsigned char)l);
        for (b = 0; b < 256; b++)
            want[b] = (uint8_t) !(f <= l && b >= f && b <= l);
        CHECK_MSG(set_equals_bits(&s, want), "remove_range(%u, %u)", f, l);
    }
    pct_set_clear(&s);
    pct_set_add_range(&s, 0, 255);
    for (b = 0; b < 32; b++)
        CHECK_EQ(s.bits[b], 0xFF);
    pct_set_remove_range(&s, 0, 255);
    for (b = 0; b < 32; b++)
        CHECK_EQ(s.bits[b], 0);
    pct_set_add_range(&s, 200, 100);
    for (b = 0; b < 32; b++)
        CHECK_EQ(s.bits[b], 0);
    /* a builder sequence equals the c0_control set */
    pct_set_clear(&s);
    pct_set_add_range(&s, 0x00, 0x1F);
    pct_set_add_range(&s, 0x7F, 0xFF);
    CHECK(mem_cmp(&s, &pct_set_c0_control, sizeof s) == 0);
    /* ... and rfc3986 */
    pct_set_fill(&s);
    pct_set_remove_chars(&s, KEEPS_RFC3986);
    CHECK(mem_cmp(&s, &pct_set_rfc3986, sizeof s) == 0);
}

static void test_by_name(void)
{
    static const struct {
        const char *name;
        const pct_set *set;
    } names[] = {
        {"c0-control", &pct_set_c0_control},
        {"c0_control", &pct_set_c0_control},
        {"fragment", &pct_set_fragment},
        {"query", &pct_set_query},
        {"special-query", &pct_set_special_query},
        {"special_query", &pct_set_special_query},
        {"path", &pct_set_path},
        {"userinfo", &pct_set_userinfo},
        {"component", &pct_set_component},
        {"form", &pct_set_form},
        {"rfc3986", &pct_set_rfc3986},
        {"uri", &pct_set_uri},
        {"uri-component", &pct_set_uri_component},
        {"uri_component", &pct_set_uri_component},
    };
    static const char *const unknown[] = {"bogus",          "",           "uri-",
                                          "compon",         "component ", "c0",
                                          "uri_component_", "rfc 3986",   "special--query"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const pct_set *s = pct_set_by_name(names[i].name);
        check_input(names[i].name, strlen(names[i].name), "pct_set_by_name");
        if (CHECK(s != NULL))
            CHECK(mem_cmp(s, names[i].set, sizeof *s) == 0);
    }
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        check_input(unknown[i], strlen(unknown[i]), "pct_set_by_name (unknown)");
        CHECK(pct_set_by_name(unknown[i]) == NULL);
    }
}

static size_t naive_find(const uint8_t *s, size_t n, const pct_set *set)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (ref_in(set, s[i]))
            return i;
    return n;
}

static void test_find(void)
{
    enum {
        MAX = 700
    };
    static uint8_t buf[MAX];
    unsigned long it, iters = test_iters(4000);
    size_t s, len, pos, b, off;
    pct_set rs;

    check_input(NULL, 0, "pct_find(NULL, 0)");
    CHECK_EQ(pct_find(NULL, 0, &pct_set_rfc3986), 0);
    /* every byte value at every position of a few lengths, every set */
    for (s = 0; s < NSETS; s++) {
        for (len = 1; len <= 70; len += test_quick() ? 69 : 23) {
            for (pos = 0; pos < len; pos += test_quick() ? 7 : 1) {
                for (b = 0; b < 256; b++) {
                    uint8_t *in = (uint8_t *)xmalloc(len);
                    memset(in, 'a', len); /* 'a' is in no predefined set */
                    in[pos] = (uint8_t)b;
                    if (pct_find((const char *)in, len, expected[s].set) !=
                        naive_find(in, len, expected[s].set)) {
                        check_input(in, len, "pct_find, set %s", expected[s].name);
                        CHECK_EQ(pct_find((const char *)in, len, expected[s].set),
                                 naive_find(in, len, expected[s].set));
                    } else {
                        check_passed++;
                    }
                    free(in);
                }
            }
        }
    }
    /* random data, random sets, random offsets and lengths (exact-size copies) */
    for (it = 0; it < iters; it++) {
        const pct_set *set;
        if (it % 3 == 0) {
            gen_set(&rs, (unsigned)rng_below(8));
            set = &rs;
        } else {
            set = expected[rng_below(NSETS)].set;
        }
        len = rng_below(it % 10 == 0 ? MAX : 80);
        for (b = 0; b < len; b++)
            buf[b] = rng_chance(97) ? (uint8_t)('a' + rng_below(26)) : (uint8_t)rng_below(256);
        off = len ? rng_below(len + 1) : 0;
        {
            char *in = xdup(buf + off, len - off);
            size_t got = pct_find(in, len - off, set), want = naive_find(buf + off, len - off, set);
            check_input(buf + off, len - off, "pct_find random");
            CHECK_EQ(got, want);
            free(in);
        }
    }
}

/* pct_find_all against a bit-by-bit oracle: random data (dense in set
 * members or not), random sets, every length up to a few blocks at random
 * offsets; input and words are exact-size allocations, so an over-read or a
 * word too many is an ASan error. */
static void test_find_all(void)
{
    enum {
        MAX = 700
    };
    static uint8_t buf[MAX];
    unsigned long it, iters = test_iters(4000);
    uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;
    pct_set rs;

    check_input(NULL, 0, "pct_find_all: NULL src, NULL set, 0 bytes write nothing");
    pct_find_all(NULL, 5, &pct_set_rfc3986, &sentinel);
    pct_find_all("abc", 3, NULL, &sentinel);
    pct_find_all("abc", 0, &pct_set_rfc3986, &sentinel);
    CHECK_EQ(sentinel, 0x5a5a5a5a5a5a5a5aull);
    for (it = 0; it < iters; it++) {
        const pct_set *set;
        size_t len, off, b, words, i;
        if (it % 3 == 0) {
            gen_set(&rs, (unsigned)rng_below(8));
            set = &rs;
        } else {
            set = expected[rng_below(NSETS)].set;
        }
        len = it < 2 * MAX / 3 ? it % 200 : rng_below(it % 10 == 0 ? MAX : 200);
        for (b = 0; b < len; b++)
            buf[b] = rng_chance(it % 2 ? 97 : 50) ? (uint8_t)('a' + rng_below(26))
                                                  : (uint8_t)rng_below(256);
        off = len ? rng_below(len + 1) : 0;
        words = (len - off + 63) / 64;
        char *in = xdup(buf + off, len - off);
        uint64_t *got = xmalloc(words * sizeof(uint64_t) + 1);
        pct_find_all(in, len - off, set, got);
        check_input(buf + off, len - off, "pct_find_all random");
        int ok = 1;
        for (i = 0; i < words * 64; i++) {
            int want = i < len - off && ref_in(set, buf[off + i]);
            ok &= ((got[i / 64] >> (i % 64)) & 1) == (uint64_t)want;
        }
        CHECK(ok);
        free(got);
        free(in);
    }
}

int main(void)
{
    test_seed("test_sets");
    test_predefined();
    test_builders();
    test_by_name();
    for (FOR_EACH_IMPL(k)) {
        test_find();
        test_find_all();
    }
    return check_done();
}
