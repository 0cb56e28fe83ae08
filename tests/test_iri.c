/* test_iri.c - pct_iri_to_uri and pct_uri_to_iri (RFC 3987 3.1, 3.2): the
 * RFC's examples, ucschar/iprivate/bidi boundaries, ill-formed UTF-8
 * offsets, arguments; round trips, decoding equivalence, idempotence, in
 * place == out of place on random inputs, on every implementation. */
#include "check_impls.h"
#include "pct.h"

static void expect_to_uri(const char *src, size_t len, const char *exp)
{
    char *in = xdup(src, len), *dst = (char *)xmalloc(3 * len);
    pct_result r = pct_iri_to_uri(in, len, dst);
    check_input(src, len, "iri_to_uri");
    CHECK_OUT(r, dst, exp, strlen(exp));
    free(in);
    free(dst);
}

static void expect_to_uri_error(const char *src, size_t len, size_t at)
{
    char *in = xdup(src, len), *dst = (char *)xmalloc(3 * len);
    pct_result r = pct_iri_to_uri(in, len, dst);
    check_input(src, len, "iri_to_uri error");
    CHECK_RESULT(r, PCT_INVALID_UTF8, at);
    free(in);
    free(dst);
}

/* Out of place (exact size) and in place must agree. */
static pct_result to_iri_both(const char *src, size_t len, char *out)
{
    char *in = xdup(src, len), *dst = (char *)xmalloc(len), *place = xdup(src, len);
    pct_result r = pct_uri_to_iri(in, len, dst);
    pct_result r2 = pct_uri_to_iri(place, len, place);
    check_input(src, len, "uri_to_iri in place");
    if (CHECK_RESULT(r2, r.status, r.count) && r.status == PCT_OK)
        CHECK_MEM(dst, r.count, place, r2.count);
    if (r.status == PCT_OK)
        mem_cpy(out, dst, r.count);
    free(in);
    free(dst);
    free(place);
    return r;
}

static void expect_to_iri(const char *src, const char *exp)
{
    size_t len = strlen(src);
    char *out = (char *)xmalloc(len + 1);
    pct_result r = to_iri_both(src, len, out);
    check_input(src, len, "uri_to_iri");
    CHECK_OUT(r, out, exp, strlen(exp));
    free(out);
}

#define S(lit) lit, sizeof(lit) - 1

static void test_examples(void)
{
    /* RFC 3987 3.1 */
    expect_to_uri(S("http://r\xC3\xA9sum\xC3\xA9.example.org"),
                  "http://r%C3%A9sum%C3%A9.example.org");
    expect_to_uri(S("http://www.example.org/red%09ros\xC3\xA9#red"),
                  "http://www.example.org/red%09ros%C3%A9#red");
    expect_to_uri(S("http://example.com/\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"),
                  "http://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E");
    expect_to_uri(S("a%zz%2F ?#[]\x7F\xF0\x9F\x98\x80"), "a%zz%2F ?#[]\x7F%F0%9F%98%80");
    expect_to_uri(S("\xC2\x80\xEF\xBF\xBF\xF4\x8F\xBF\xBF"), "%C2%80%EF%BF%BF%F4%8F%BF%BF");
    expect_to_uri(S(""), "");
    expect_to_uri_error(S("ab\xC3"), 2);
    expect_to_uri_error(S("a\xFF"), 1);
    expect_to_uri_error(S("a\xED\xA0\x80"), 1);    /* surrogate */
    expect_to_uri_error(S("ab\xC0\xAF"), 2);       /* overlong */
    expect_to_uri_error(S("\xC3\xA9\xE2\x82"), 2); /* truncated */

    /* RFC 3987 3.2 */
    expect_to_iri("http://www.example.org/D%C3%BCrst", "http://www.example.org/D\xC3\xBCrst");
    expect_to_iri("http://www.example.org/D%FCrst", "http://www.example.org/D%FCrst");
    expect_to_iri("http://xn--99zt52a.example.org/%e2%80%ae",
                  "http://xn--99zt52a.example.org/%e2%80%ae");
    expect_to_iri("%c3%bc%41%2F%25", "\xC3\xBC%41%2F%25");
    expect_to_iri("%FC%C3%BC", "%FC\xC3\xBC");
    expect_to_iri("%C3%", "%C3%");
    expect_to_iri("%C3", "%C3");
    expect_to_iri("%C3%BG", "%C3%BG");
    expect_to_iri("%C0%AF%ED%A0%80", "%C0%AF%ED%A0%80"); /* overlong, surrogate */
    expect_to_iri("%C2%A0%C2%9F", "\xC2\xA0%C2%9F");     /* U+00A0 yes, U+009F no */
    expect_to_iri("%F0%9F%98%80", "\xF0\x9F\x98\x80");
    /* bidi formatting characters stay; their neighbours do not */
    expect_to_iri("%E2%80%8E%E2%80%8F%E2%80%AA%E2%80%AE%E2%80%8D%E2%80%AF",
                  "%E2%80%8E%E2%80%8F%E2%80%AA%E2%80%AE\xE2\x80\x8D\xE2\x80\xAF");
    /* noncharacters and other non-ucschar */
    expect_to_iri("%EF%BF%BF%EF%B7%90%EF%B7%AF%EF%B7%B0",
                  "%EF%BF%BF%EF%B7%90%EF%B7%AF\xEF\xB7\xB0");
    expect_to_iri("%F0%9F%BF%BE%F3%A0%80%81%F3%A1%80%80",
                  "%F0%9F%BF%BE%F3%A0%80%81\xF3\xA1\x80\x80");
    /* iprivate: in the query only */
    expect_to_iri("/%EE%80%80?%EE%80%80#%EE%80%80", "/%EE%80%80?\xEE\x80\x80#%EE%80%80");
    expect_to_iri("/#?%EE%80%80", "/#?%EE%80%80");
    expect_to_iri("?%F3%B0%80%80%F4%8F%BF%BD%F4%8F%BF%BF",
                  "?\xF3\xB0\x80\x80\xF4\x8F\xBF\xBD%F4%8F%BF%BF");
    /* literal bytes are copied */
    expect_to_iri("\xFF\xC3\xA9%", "\xFF\xC3\xA9%");
}

static void test_arguments(void)
{
    char buf[32] = "abc";
    pct_result r = pct_iri_to_uri(NULL, 1, buf);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_iri_to_uri("a", 1, NULL);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_iri_to_uri(buf, 3, buf + 2); /* overlap */
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_iri_to_uri(buf, SIZE_MAX / 2, buf + 8);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_iri_to_uri(NULL, 0, NULL);
    CHECK_RESULT(r, PCT_OK, 0);
    r = pct_uri_to_iri(NULL, 1, buf);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_uri_to_iri("a", 1, NULL);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_uri_to_iri(NULL, 0, NULL);
    CHECK_RESULT(r, PCT_OK, 0);
}

/* A random code point's UTF-8 (any scalar value, biased to boundaries). */
static size_t random_utf8(char *out)
{
    static const uint32_t edges[] = {
        0x7F,    0x80,    0x9F,    0xA0,    0x7FF,   0x800,    0xD7FF,   0xE000, 0xF8FF,  0xF900,
        0xFDCF,  0xFDD0,  0xFDEF,  0xFDF0,  0xFFEF,  0xFFF0,   0xFFFD,   0xFFFF, 0x10000, 0x1FFFD,
        0x1FFFE, 0xE0FFF, 0xE1000, 0xEFFFD, 0xF0000, 0x10FFFD, 0x10FFFF, 0x200E, 0x202E,  0x202F};
    uint32_t cp;
    if (rng_chance(30))
        cp = edges[rng_below(sizeof edges / sizeof edges[0])];
    else if (rng_chance(50))
        cp = (uint32_t)rng_below(0x800);
    else
        cp = (uint32_t)rng_below(0x110000);
    if (cp >= 0xD800 && cp <= 0xDFFF)
        cp = 'x';
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A random IRI character other than '%': the round trip below holds for IRIs
 * without '%' only (iri_to_uri keeps "%41" as it is and pct_decode then turns
 * it into "A"). */
static size_t random_iri_char(char *out)
{
    size_t n;
    while ((n = random_utf8(out)) == 1 && out[0] == '%')
        ;
    return n;
}

static void test_random(void)
{
    const unsigned long n = test_iters(100000);
    char iri[256], uri[768], back[768], d1[768], d2[768];
    static const char *const noise[] = {"%", "%4", "%41", "%zz",  "%C3",    "%BC",    "%e2%80%ae",
                                        "?", "#",  "/",   "\xC3", "%F0%9F", "%98%80", "%ee%80%80"};
    for (unsigned long it = 0; it < n; it++) {
        /* IRI to URI: ASCII only, decodes back to the IRI */
        size_t len = 0, k = rng_below(12);
        for (size_t j = 0; j < k; j++)
            len += random_iri_char(iri + len);
        pct_result r = pct_iri_to_uri(iri, len, uri);
        check_input(iri, len, "iri_to_uri random");
        CHECK(memchr(iri, '%', len) == NULL); /* inside the property, or it proves nothing */
        if (!CHECK_RESULT(r, PCT_OK, r.count))
            continue;
        int ascii = 1;
        for (size_t i = 0; i < r.count; i++)
            ascii &= (unsigned char)uri[i] < 0x80;
        CHECK(ascii);
        pct_result d = pct_decode(uri, r.count, d1, 0);
        if (CHECK_RESULT(d, PCT_OK, len))
            CHECK_MEM(iri, len, d1, d.count);
        /* URI to IRI: decodes to the same bytes; a fixed point */
        pct_result b = to_iri_both(uri, r.count, back);
        check_input(uri, r.count, "uri_to_iri random");
        CHECK(b.count <= r.count);
        d = pct_decode(back, b.count, d2, 0);
        if (CHECK_RESULT(d, PCT_OK, len))
            CHECK_MEM(iri, len, d2, d.count);
        /* and noise around it */
        size_t m = 0;
        for (size_t j = rng_below(10); j > 0 && m < 200; j--) {
            if (rng_chance(50)) {
                const char *p = noise[rng_below(sizeof noise / sizeof noise[0])];
                memcpy(back + m, p, strlen(p));
                m += strlen(p);
            } else {
                size_t c = random_utf8(back + m);
                pct_result e = pct_encode(back + m, c, uri, &pct_set_c0_control, 0);
                memcpy(back + m, uri, e.count);
                m += e.count;
            }
        }
        char *once = (char *)xmalloc(m), *twice = (char *)xmalloc(m);
        pct_result o1 = to_iri_both(back, m, once);
        check_input(back, m, "uri_to_iri noise");
        CHECK(o1.count <= m);
        pct_result o2 = pct_uri_to_iri(once, o1.count, twice);
        if (CHECK_RESULT(o2, PCT_OK, o1.count))
            CHECK_MEM(once, o1.count, twice, o2.count);
        pct_result a = pct_decode(back, m, d1, 0), c = pct_decode(once, o1.count, d2, 0);
        if (CHECK_RESULT(c, PCT_OK, a.count))
            CHECK_MEM(d1, a.count, d2, c.count);
        free(once);
        free(twice);
    }
}

int main(void)
{
    test_seed("test_iri");
    for (FOR_EACH_IMPL(k)) {
        test_examples();
        test_random();
    }
    test_arguments();
    return check_done();
}
