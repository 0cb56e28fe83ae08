/* test_vectors.c - examples straight from the specifications: WHATWG URL
 * Standard, RFC 3986 (and RFC 5849 / AWS SigV4 users of its set), ECMAScript
 * encodeURI/encodeURIComponent/decodeURI/decodeURIComponent/unescape,
 * application/x-www-form-urlencoded, Unicode §3.9 Table 3-8. */
#include "check_impls.h"
#include "ops.h"
#include "pct.h"

static pct_set js_reserved; /* decodeURI's reservedURISet ";/?:@&=+$,#" */

#define JS_DECODE_URI_COMPONENT (PCT_STRICT | PCT_UTF8)

static void whatwg(void)
{
    /* URL Standard 1.3, percent-decode examples */
    EXPECT_DECODE("%25%s%1G", NULL, 0, "%%s%1G");
    EXPECT_DECODE("\xE2\x80\xBD%25%2E", NULL, 0, "\xE2\x80\xBD\x25\x2E"); /* "‽%25%2E" */
    /* percent-encode after encoding, with the sets the standard names */
    EXPECT_ENCODE("\xE2\x89\xA1", &pct_set_component, 0, "%E2%89%A1"); /* "≡" */
    EXPECT_ENCODE("Say what\xE2\x80\xBD", &pct_set_userinfo, 0, "Say%20what%E2%80%BD");
    EXPECT_ENCODE("1+1 \xE2\x89\xA1 2%20 \xE2\x80\xBD", &pct_set_form, PCT_PLUS,
                  "1%2B1+%E2%89%A1+2%2520+%E2%80%BD");
    /* the same with the UTF-8 check on: the input is well-formed */
    EXPECT_ENCODE("1+1 \xE2\x89\xA1 2%20 \xE2\x80\xBD", &pct_set_form, PCT_PLUS | PCT_UTF8,
                  "1%2B1+%E2%89%A1+2%2520+%E2%80%BD");
    /* each set's printable additions */
    EXPECT_ENCODE(" \"#<>'`?^{}/:;=@[\\]|$%&+,!()~*", &pct_set_c0_control, 0,
                  " \"#<>'`?^{}/:;=@[\\]|$%&+,!()~*");
    EXPECT_ENCODE(" \"#<>'`?^{}", &pct_set_fragment, 0, "%20%22#%3C%3E'%60?^{}");
    EXPECT_ENCODE(" \"#<>'`?^{}", &pct_set_query, 0, "%20%22%23%3C%3E'`?^{}");
    EXPECT_ENCODE(" \"#<>'`?^{}", &pct_set_special_query, 0, "%20%22%23%3C%3E%27`?^{}");
    EXPECT_ENCODE(" \"#<>'`?^{}%", &pct_set_path, 0, "%20%22%23%3C%3E'%60%3F%5E%7B%7D%");
    EXPECT_ENCODE("/:;=@[\\]|$%&+,", &pct_set_userinfo, 0, "%2F%3A%3B%3D%40%5B%5C%5D%7C$%&+,");
    EXPECT_ENCODE("/:;=@[\\]|$%&+,!'()~*", &pct_set_component, 0,
                  "%2F%3A%3B%3D%40%5B%5C%5D%7C%24%25%26%2B%2C!'()~*");
    EXPECT_ENCODE("!'()~*-._ ", &pct_set_form, PCT_PLUS, "%21%27%28%29%7E*-._+");
    /* controls, DEL, non-ASCII in every set; NUL is data */
    EXPECT_ENCODE("\x00\x1F\x7F\x80\xFF", &pct_set_c0_control, 0, "%00%1F%7F%80%FF");
    EXPECT_DECODE("%00a%00", NULL, 0,
                  "\x00"
                  "a\x00");
    /* application/x-www-form-urlencoded parsing: '+' then percent-decode */
    EXPECT_DECODE("+%2B", NULL, PCT_PLUS, " +");
    EXPECT_DECODE("+%2B", NULL, 0, "++");
    EXPECT_DECODE("a+b%20c%2b", NULL, PCT_PLUS, "a b c+");
    EXPECT_DECODE("%FF+a", NULL, PCT_PLUS | PCT_UTF8_REPLACE, "\xEF\xBF\xBD a");
    EXPECT_DECODE("%EF%BB%BFx", NULL, PCT_PLUS | PCT_UTF8_REPLACE, "\xEF\xBB\xBFx"); /* BOM kept */
    /* serialization: only a space in the set becomes '+' */
    EXPECT_ENCODE("a b+c", &pct_set_form, PCT_PLUS, "a+b%2Bc");
    EXPECT_ENCODE("a b+c", &pct_set_path, PCT_PLUS, "a+b+c");
    EXPECT_ENCODE("a b+c", &pct_set_c0_control, PCT_PLUS, "a b+c");
    EXPECT_ENCODE("a b", &pct_set_form, 0, "a%20b");
}

static void rfc3986(void)
{
    /* 2.1: "%2C" and "%2c" are equivalent; producers use upper case */
    EXPECT_DECODE("%2C", NULL, 0, ",");
    EXPECT_DECODE("%2c", NULL, 0, ",");
    EXPECT_ENCODE(",", &pct_set_rfc3986, 0, "%2C");
    EXPECT_NORMALIZE("%2c", 0, "%2C");
    /* 6.2.2.1 case normalization */
    EXPECT_NORMALIZE("%3a%3A%3a", 0, "%3A%3A%3A");
    EXPECT_NORMALIZE("HTTP://www.EXAMPLE.com/", 0, "HTTP://www.EXAMPLE.com/");
    /* 6.2.2.2 percent-encoding normalization */
    EXPECT_NORMALIZE("%7e", 0, "~");
    EXPECT_NORMALIZE("%7E%41%2d%2E%5f%30%7a", 0, "~A-._0z");
    EXPECT_NORMALIZE("example://a/b/c/%7Bfoo%7D", 0, "example://a/b/c/%7Bfoo%7D");
    EXPECT_NORMALIZE("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", 0, "eXAMPLE://a/./b/../b/c/%7Bfoo%7D");
    /* reserved escapes stay encoded */
    EXPECT_NORMALIZE("%2f%2F%3f%25%20", 0, "%2F%2F%3F%25%20");
    /* 2.3 unreserved are never encoded by the rfc3986 set; all else is */
    EXPECT_ENCODE("ABCXYZabcxyz0189-._~", &pct_set_rfc3986, 0, "ABCXYZabcxyz0189-._~");
    EXPECT_ENCODE(" !*'();:@&=+$,/?#[]%", &pct_set_rfc3986, 0,
                  "%20%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%23%5B%5D%25");
    /* RFC 5849 (OAuth 1.0) 3.6 percent-encoding, from its worked examples */
    EXPECT_ENCODE("Ladies + Gentlemen", &pct_set_rfc3986, 0, "Ladies%20%2B%20Gentlemen");
    EXPECT_ENCODE("An encoded string!", &pct_set_rfc3986, 0, "An%20encoded%20string%21");
    EXPECT_ENCODE("Dogs, Cats & Mice", &pct_set_rfc3986, 0, "Dogs%2C%20Cats%20%26%20Mice");
    EXPECT_ENCODE("\xE2\x98\x83", &pct_set_rfc3986, 0, "%E2%98%83"); /* ☃ */
    /* AWS SigV4 UriEncode of a path: '/' left alone */
    {
        pct_set s = pct_set_rfc3986;
        pct_set_remove_chars(&s, "/");
        EXPECT_ENCODE("/documents and settings/", &s, 0, "/documents%20and%20settings/");
    }
    /* pct-encoded = "%" HEXDIG HEXDIG: STRICT */
    EXPECT_DECODE_ERR("%", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_DECODE_ERR("a%2", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 1);
    EXPECT_DECODE_ERR("ab%zz", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 2);
}

static void ecmascript(void)
{
    /* encodeURIComponent / encodeURI (MDN and ECMA-262 examples) */
    EXPECT_ENCODE("?x=\xD1\x88\xD0\xB5\xD0\xBB\xD0\xBB\xD1\x8B", &pct_set_uri_component, PCT_UTF8,
                  "%3Fx%3D%D1%88%D0%B5%D0%BB%D0%BB%D1%8B");
    EXPECT_ENCODE("?x=\xD1\x88\xD0\xB5\xD0\xBB\xD0\xBB\xD1\x8B", &pct_set_uri, PCT_UTF8,
                  "?x=%D1%88%D0%B5%D0%BB%D0%BB%D1%8B");
    EXPECT_ENCODE(";,/?:@&=+$#", &pct_set_uri_component, PCT_UTF8,
                  "%3B%2C%2F%3F%3A%40%26%3D%2B%24%23");
    EXPECT_ENCODE(";,/?:@&=+$#", &pct_set_uri, PCT_UTF8, ";,/?:@&=+$#");
    EXPECT_ENCODE("-_.!~*'()", &pct_set_uri_component, PCT_UTF8, "-_.!~*'()");
    EXPECT_ENCODE("-_.!~*'()", &pct_set_uri, PCT_UTF8, "-_.!~*'()");
    EXPECT_ENCODE("ABC abc 123", &pct_set_uri, PCT_UTF8, "ABC%20abc%20123");
    EXPECT_ENCODE("http://username:password@www.example.com:80/path/to/"
                  "file.php?foo=316&bar=this+has+spaces#anchor",
                  &pct_set_uri, PCT_UTF8,
                  "http://username:password@www.example.com:80/path/to/"
                  "file.php?foo=316&bar=this+has+spaces#anchor");
    EXPECT_ENCODE("[]{}|\\^`\"<>%", &pct_set_uri, PCT_UTF8, "%5B%5D%7B%7D%7C%5C%5E%60%22%3C%3E%25");
    /* "\uD800\uDFFF" is U+103FF; a lone "\uD800" throws URIError */
    EXPECT_ENCODE("\xF0\x90\x8F\xBF", &pct_set_uri_component, PCT_UTF8, "%F0%90%8F%BF");
    EXPECT_ENCODE_ERR("\xED\xA0\x80", &pct_set_uri_component, PCT_UTF8, PCT_INVALID_UTF8, 0);
    EXPECT_ENCODE_ERR("ab\xED\xBF\xBF", &pct_set_uri, PCT_UTF8, PCT_INVALID_UTF8, 2);
    /* decodeURIComponent = STRICT|UTF8 */
    EXPECT_DECODE("JavaScript_%D1%88%D0%B5%D0%BB%D0%BB%D1%8B", NULL, JS_DECODE_URI_COMPONENT,
                  "JavaScript_\xD1\x88\xD0\xB5\xD0\xBB\xD0\xBB\xD1\x8B");
    EXPECT_DECODE("%3B%2C%2F%3F%3A%40%26%3D%2B%24%23", NULL, JS_DECODE_URI_COMPONENT,
                  ";,/?:@&=+$#");
    EXPECT_DECODE("%F0%90%8F%BF", NULL, JS_DECODE_URI_COMPONENT, "\xF0\x90\x8F\xBF");
    EXPECT_DECODE_ERR("%", NULL, JS_DECODE_URI_COMPONENT, PCT_INVALID_ESCAPE, 0);
    EXPECT_DECODE_ERR("%C0%80", NULL, JS_DECODE_URI_COMPONENT, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("%ED%A0%80", NULL, JS_DECODE_URI_COMPONENT, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE_ERR("a%F4%90%80%80", NULL, JS_DECODE_URI_COMPONENT, PCT_INVALID_UTF8, 1);
    EXPECT_DECODE_ERR("%80", NULL, JS_DECODE_URI_COMPONENT, PCT_INVALID_UTF8, 0);
    /* "%E0%A4%A" (MDN's URIError example): the escape at 6 is malformed; the
     * sequence it cuts short starts at 0. Either is the first offence. */
    EXPECT_DECODE_ERR2("%E0%A4%A", NULL, JS_DECODE_URI_COMPONENT, PCT_INVALID_ESCAPE, 6,
                       PCT_INVALID_UTF8, 0);
    /* decodeURI: escapes of ";/?:@&=+$,#" are kept as written */
    EXPECT_DECODE("https://developer.mozilla.org/ru/docs/JavaScript_%D1%88%D0%B5%D0%BB%D0%BB%D1%8B",
                  &js_reserved, JS_DECODE_URI_COMPONENT,
                  "https://developer.mozilla.org/ru/docs/"
                  "JavaScript_\xD1\x88\xD0\xB5\xD0\xBB\xD0\xBB\xD1\x8B");
    EXPECT_DECODE("%3B%2f%3F%3a%40%26%3D%2B%24%2C%23", &js_reserved, JS_DECODE_URI_COMPONENT,
                  "%3B%2f%3F%3a%40%26%3D%2B%24%2C%23");
    EXPECT_DECODE("%41%2F%c3%a9%20", &js_reserved, JS_DECODE_URI_COMPONENT, "A%2F\xC3\xA9 ");
    EXPECT_DECODE_ERR("%2F%", &js_reserved, JS_DECODE_URI_COMPONENT, PCT_INVALID_ESCAPE, 3);
    EXPECT_DECODE_ERR("%2F%FF", &js_reserved, JS_DECODE_URI_COMPONENT, PCT_INVALID_UTF8, 3);
    /* keep = {'/'}: decode a path segment-wise; %u002F cannot bypass it */
    {
        pct_set slash;
        pct_set_clear(&slash);
        pct_set_add_byte(&slash, '/');
        EXPECT_DECODE("a%2Fb%2fc%20d/e", &slash, 0, "a%2Fb%2fc d/e");
        EXPECT_DECODE("a%u002Fb%u002fc%u0020%2F", &slash, PCT_PERCENT_U, "a%u002Fb%u002fc %2F");
        EXPECT_DECODE("%u002F%uD83D%uDE00", &slash, PCT_PERCENT_U | PCT_STRICT | PCT_UTF8,
                      "%u002F\xF0\x9F\x98\x80");
        /* only ASCII: the keep set is about bytes, %u00E9 is a character */
        pct_set_add_byte(&slash, 0xE9);
        EXPECT_DECODE("%u00E9%E9", &slash, PCT_PERCENT_U, "\xC3\xA9%E9");
    }

    /* unescape()-style %uXXXX */
    EXPECT_DECODE("%u00E9", NULL, PCT_PERCENT_U, "\xC3\xA9");
    EXPECT_DECODE("%u00e9", NULL, PCT_PERCENT_U, "\xC3\xA9");
    EXPECT_DECODE("abc%u0107", NULL, PCT_PERCENT_U, "abc\xC4\x87");
    EXPECT_DECODE("%u20AC%41", NULL, PCT_PERCENT_U, "\xE2\x82\xAC\x41");
    EXPECT_DECODE("%u0000%uFFFF", NULL, PCT_PERCENT_U, "\x00\xEF\xBF\xBF");
    EXPECT_DECODE("%uD83D%uDE00", NULL, PCT_PERCENT_U, "\xF0\x9F\x98\x80");
    EXPECT_DECODE("%ud83d%ude00", NULL, PCT_PERCENT_U | PCT_STRICT | PCT_UTF8, "\xF0\x9F\x98\x80");
    EXPECT_DECODE("%uDBFF%uDFFF", NULL, PCT_PERCENT_U, "\xF4\x8F\xBF\xBF");
    EXPECT_DECODE("%uD800%uDC00", NULL, PCT_PERCENT_U, "\xF0\x90\x80\x80");
    /* lone surrogates: copied as written, or an error at their '%' */
    EXPECT_DECODE("%uD83D", NULL, PCT_PERCENT_U, "%uD83D");
    EXPECT_DECODE("%uD83Dx", NULL, PCT_PERCENT_U | PCT_UTF8, "%uD83Dx");
    EXPECT_DECODE("%uDE00%uD83D", NULL, PCT_PERCENT_U, "%uDE00%uD83D");
    EXPECT_DECODE("%uD83D%u0041", NULL, PCT_PERCENT_U, "%uD83DA");
    EXPECT_DECODE("%uD83D%uD83D%uDE00", NULL, PCT_PERCENT_U, "%uD83D\xF0\x9F\x98\x80");
    EXPECT_DECODE("%uD83D%41", NULL, PCT_PERCENT_U, "%uD83DA");
    EXPECT_DECODE_ERR("%uD83D", NULL, PCT_PERCENT_U | PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    EXPECT_DECODE_ERR("ab%uD83D", NULL, PCT_PERCENT_U | PCT_STRICT, PCT_INVALID_ESCAPE, 2);
    EXPECT_DECODE_ERR("x%uDE00", NULL, PCT_PERCENT_U | PCT_STRICT, PCT_INVALID_ESCAPE, 1);
    EXPECT_DECODE_ERR("%u0041%uD83D%u0041", NULL, PCT_PERCENT_U | PCT_STRICT, PCT_INVALID_ESCAPE,
                      6);
    /* malformed %u: a plain stray '%' */
    EXPECT_DECODE("%u00E", NULL, PCT_PERCENT_U, "%u00E");
    EXPECT_DECODE("%u00Eg", NULL, PCT_PERCENT_U, "%u00Eg");
    EXPECT_DECODE("%u", NULL, PCT_PERCENT_U, "%u");
    EXPECT_DECODE_ERR("%u00E", NULL, PCT_PERCENT_U | PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    /* without PCT_PERCENT_U, %u is not an escape */
    EXPECT_DECODE("%u00E9", NULL, 0, "%u00E9");
    EXPECT_DECODE_ERR("%u00E9", NULL, PCT_STRICT, PCT_INVALID_ESCAPE, 0);
    /* %XX still works; the result must be UTF-8 under PCT_UTF8 */
    EXPECT_DECODE("%41%u0042", NULL, PCT_PERCENT_U, "AB");
    EXPECT_DECODE_ERR("%E9%u0041", NULL, PCT_PERCENT_U | PCT_UTF8, PCT_INVALID_UTF8, 0);
    EXPECT_DECODE("%E9%u0041", NULL, PCT_PERCENT_U,
                  "\xE9"
                  "A");
}

static void unicode_table_3_8(void)
{
    /* Unicode 15 §3.9, Table 3-8: U+FFFD for maximal subparts */
    EXPECT_DECODE("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64", NULL, PCT_UTF8_REPLACE,
                  "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                  "b\xEF\xBF\xBD"
                  "c\xEF\xBF\xBD\xEF\xBF\xBD"
                  "d");
    EXPECT_DECODE("a%F1%80%80%E1%80%C2b%80c%80%BFd", NULL, PCT_UTF8_REPLACE,
                  "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                  "b\xEF\xBF\xBD"
                  "c\xEF\xBF\xBD\xEF\xBF\xBD"
                  "d");
    /* Table 3-8's neighbours from §3.9: C0 AF, E0 80 BF, F4 90 80 80, ED A0 80 */
    EXPECT_DECODE("%C0%AF%E0%80%BF%F4%90%80%80%ED%A0%80", NULL, PCT_UTF8_REPLACE,
                  "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                  "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_DECODE_ERR("a%F1%80%80%E1%80%C2b", NULL, PCT_UTF8, PCT_INVALID_UTF8, 1);
}

static void status_strings(void)
{
    static const pct_status all[] = {PCT_OK, PCT_INVALID_ESCAPE, PCT_INVALID_UTF8,
                                     PCT_UNESCAPED_BYTE, PCT_INVALID_ARGUMENT};
    size_t i, j;
    check_input(NULL, 0, "pct_status_string");
    CHECK_EQ(PCT_OK, 0);
    CHECK_EQ(PCT_INVALID_ESCAPE, 1);
    CHECK_EQ(PCT_INVALID_UTF8, 2);
    CHECK_EQ(PCT_UNESCAPED_BYTE, 3);
    CHECK_EQ(PCT_INVALID_ARGUMENT, 4);
    for (i = 0; i < 5; i++) {
        const char *s = pct_status_string(all[i]);
        if (CHECK(s != NULL && s[0] != 0))
            for (j = 0; j < i; j++)
                CHECK(strcmp(s, pct_status_string(all[j])) != 0);
    }
}

int main(void)
{
    test_seed("test_vectors");
    pct_set_clear(&js_reserved);
    pct_set_add_chars(&js_reserved, ";/?:@&=+$,#");
    status_strings();
    for (FOR_EACH_IMPL(k)) {
        whatwg();
        rfc3986();
        ecmascript();
        unicode_table_3_8();
    }
    return check_done();
}
