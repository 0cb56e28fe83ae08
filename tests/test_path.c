/* test_path.c - pct_normalize_path: RFC 3986 5.4 dot-segment examples,
 * escaped dots, every action on every byte class, traversal attempts, the
 * presets, errors; RFC 3986 5.2.4 as written (a string-rewriting model) on
 * random dot-and-slash paths; properties on random and adversarial inputs
 * (fixed point, never longer, no dot segment, kept bytes never decoded,
 * rejected ones always reported, in place == out of place). */
#include "check.h"
#include "pct.h"
#include "support/paths.h"

/* No merging, no backslash: RFC 3986 alone. */
static const pct_path_policy rfc = {PCT_PATH_KEEP, PCT_PATH_KEEP, PCT_PATH_KEEP, PCT_PATH_KEEP, 0};

/* Normalizes src out of place (exact-size buffers) and in place; both must
 * agree. Returns the out-of-place result, its output in out (>= len bytes). */
static pct_result normalize_both(const char *src, size_t len, const pct_path_policy *p, char *out)
{
    char *in = xdup(src, len), *dst = (char *)xmalloc(len), *place = xdup(src, len);
    pct_result r = pct_normalize_path(in, len, dst, p);
    pct_result r2 = pct_normalize_path(place, len, place, p);
    check_input(src, len, "normalize_path in place");
    if (CHECK_RESULT(r2, r.status, r.count) && r.status == PCT_OK)
        CHECK_MEM(dst, r.count, place, r2.count);
    CHECK(mem_cmp(in, src, len) == 0); /* src untouched */
    if (r.status == PCT_OK)
        mem_cpy(out, dst, r.count);
    free(in);
    free(dst);
    free(place);
    return r;
}

static void expect_path(const pct_path_policy *p, const char *src, const char *exp)
{
    size_t len = strlen(src);
    char *out = (char *)xmalloc(len + 1);
    pct_result r = normalize_both(src, len, p, out);
    check_input(src, len, "normalize_path");
    CHECK_OUT(r, out, exp, strlen(exp));
    free(out);
}

static void expect_error(const pct_path_policy *p, const char *src, pct_status st, size_t at)
{
    size_t len = strlen(src);
    char *out = (char *)xmalloc(len + 1);
    pct_result r = normalize_both(src, len, p, out);
    check_input(src, len, "normalize_path error");
    CHECK_RESULT(r, st, at);
    free(out);
}

static void test_rfc3986_examples(void)
{
    /* RFC 3986 5.4.1 and 5.4.2 (base http://a/b/c/d;p?q): the merged paths
     * the resolver hands to remove_dot_segments, and their results. */
    static const char *const cases[][2] = {
        {"/b/c/g", "/b/c/g"},
        {"/b/c/./g", "/b/c/g"},
        {"/b/c/g/", "/b/c/g/"},
        {"/g", "/g"},
        {"/b/c/d;p", "/b/c/d;p"},
        {"/b/c/.", "/b/c/"},
        {"/b/c/./", "/b/c/"},
        {"/b/c/..", "/b/"},
        {"/b/c/../", "/b/"},
        {"/b/c/../g", "/b/g"},
        {"/b/c/../..", "/"},
        {"/b/c/../../", "/"},
        {"/b/c/../../g", "/g"},
        /* 5.4.2 abnormal */
        {"/b/c/../../../g", "/g"},
        {"/b/c/../../../../g", "/g"},
        {"/./g", "/g"},
        {"/../g", "/g"},
        {"/b/c/g.", "/b/c/g."},
        {"/b/c/.g", "/b/c/.g"},
        {"/b/c/g..", "/b/c/g.."},
        {"/b/c/..g", "/b/c/..g"},
        {"/b/c/./../g", "/b/g"},
        {"/b/c/./g/.", "/b/c/g/"},
        {"/b/c/g/./h", "/b/c/g/h"},
        {"/b/c/g/../h", "/b/c/h"},
        {"/b/c/g;x=1/./y", "/b/c/g;x=1/y"},
        {"/b/c/g;x=1/../y", "/b/c/y"},
        {"/b/c/g?y/./x", "/b/c/g?y/./x"},
        {"/b/c/g?y/../x", "/b/c/g?y/../x"},
        {"/b/c/g#s/./x", "/b/c/g#s/./x"},
        {"/b/c/g#s/../x", "/b/c/g#s/../x"},
        /* 5.2.4's own walk-through and text */
        {"/a/b/c/./../../g", "/a/g"},
        {"mid/content=5/../6", "mid/6"},
        /* relative paths, 5.2.4 A and D literally */
        {"../g", "g"},
        {"./g", "g"},
        {".././../g", "g"},
        {".", ""},
        {"..", ""},
        {"../", ""},
        {"a/..", "/"},
        {"a/../b", "/b"},
        {"", ""},
        {"/", "/"},
        {"/.", "/"},
        {"/..", "/"},
        {"//", "//"},
        {".//a", "/a"},
        {"/a//../b", "/a/b"},
        {"/..//a", "//a"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_path(&rfc, cases[i][0], cases[i][1]);
}

static void test_encoded_dots(void)
{
    static const char *const cases[][2] = {
        {"/a/%2e/b", "/a/b"},
        {"/a/%2E/b", "/a/b"},
        {"/a/b/%2e%2e/c", "/a/c"},
        {"/a/b/%2E%2E/c", "/a/c"},
        {"/a/b/.%2e/c", "/a/c"},
        {"/a/b/%2e./c", "/a/c"},
        {"/a/b/.%2E", "/a/"},
        {"/a/b/%2e", "/a/b/"},
        {"%2e%2e/%2e/x", "x"},
        /* only whole segments */
        {"/a/b%2e/c", "/a/b./c"},
        {"/a/%2e%2e%2e/c", "/a/.../c"},
        {"/a/%2ea/c", "/a/.a/c"},
        {"/a/%252e%252e/c", "/a/%252e%252e/c"},
        /* hex case of other escapes, unreserved decoded */
        {"/%7e%41/%3a%c3%a9", "/~A/%3A%C3%A9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_path(&rfc, cases[i][0], cases[i][1]);
}

static pct_path_policy with(pct_path_action slash, pct_path_action backslash,
                            pct_path_action control, pct_path_action percent, unsigned options)
{
    pct_path_policy p;
    p.encoded_slash = slash;
    p.encoded_backslash = backslash;
    p.encoded_control = control;
    p.encoded_percent = percent;
    p.options = options;
    return p;
}

static void test_classes(void)
{
    const pct_path_action K = PCT_PATH_KEEP, D = PCT_PATH_DECODE, R = PCT_PATH_REJECT;
    pct_path_policy p;
    /* %2F */
    p = with(K, K, K, K, 0);
    expect_path(&p, "/a%2fb/../c", "/c");
    expect_path(&p, "/a/..%2f..%2fetc", "/a/..%2F..%2Fetc");
    p = with(D, K, K, K, 0);
    expect_path(&p, "/a%2fb/../c", "/a/c");
    expect_path(&p, "/a/..%2f..%2fetc", "/etc");
    expect_path(&p, "%2f..%2Fx", "/x");
    p = with(R, K, K, K, 0);
    expect_error(&p, "/a/..%2f..", PCT_REJECTED_BYTE, 5);
    expect_path(&p, "/a/b?x=%2f", "/a/b?x=%2f"); /* query untouched */
    /* %5C */
    p = with(K, K, K, K, PCT_PATH_BACKSLASH);
    expect_path(&p, "/a\\b\\..\\c%5c", "/a/c%5C");
    p = with(K, D, K, K, 0);
    expect_path(&p, "/a/..%5c..%5cx", "/a/..\\..\\x");
    p = with(K, D, K, K, PCT_PATH_BACKSLASH);
    expect_path(&p, "/a/b/..%5c..%5cx", "/x");
    p = with(K, R, K, K, PCT_PATH_BACKSLASH);
    expect_error(&p, "/a\\%5c", PCT_REJECTED_BYTE, 3);
    /* controls */
    p = with(K, K, K, K, 0);
    expect_path(&p, "/a%00b%1f%7f%0A", "/a%00b%1F%7F%0A");
    p = with(K, K, D, K, 0); /* a decoded control would reach the next hop raw */
    {
        char out[16];
        CHECK_RESULT(pct_normalize_path("/a%00b", 6, out, &p), PCT_INVALID_ARGUMENT, 0);
        CHECK_RESULT(pct_normalize_path("/a%0D%0Ab", 9, out, &p), PCT_INVALID_ARGUMENT, 0);
        CHECK_RESULT(pct_normalize_path("/ab", 3, out, &p), PCT_INVALID_ARGUMENT, 0);
    }
    p = with(K, K, R, K, 0);
    expect_error(&p, "/ok/a%00b", PCT_REJECTED_BYTE, 5);
    expect_error(&p, "/ok/%7F", PCT_REJECTED_BYTE, 4);
    expect_path(&p, "/ok/%20%80", "/ok/%20%80"); /* not controls */
    /* %25 */
    p = with(K, K, K, K, 0);
    expect_path(&p, "/a%25b%252e", "/a%25b%252e");
    p = with(K, K, K, D, 0);
    expect_path(&p, "/a%25b", "/a%b");
    expect_path(&p, "/a%252e", "/a%252e"); /* would decode to an escape: kept */
    expect_path(&p, "/%25%34%31", "/%%341");
    expect_path(&p, "/%25zz", "/%zz");
    p = with(K, K, K, R, 0);
    expect_error(&p, "/a%25", PCT_REJECTED_BYTE, 2);
    /* the stray-'%' rule of pct_normalize */
    expect_path(&rfc, "/%6%41", "/%6%41");
    expect_path(&rfc, "/%zz%41", "/%zzA");
}

static void test_traversal(void)
{
    const pct_path_policy *d = &pct_path_policy_default;
    expect_path(d, "/a/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd");
    expect_path(d, "/..%2f..%2f", "/..%2F..%2F");
    expect_path(d, "/static/..%2f..%2fetc/passwd", "/static/..%2F..%2Fetc/passwd");
    expect_path(d, "/%2e%2e%5c", "/..%5C");
    expect_path(d, "/a/..\\..\\b", "/b");
    expect_path(d, "/a/%2e%2e\\x", "/x");
    expect_path(d, "//a//b/../c", "/a/c");
    expect_path(d, "/a/./%2E/.%2e/%2e./b", "/b");
    expect_path(d, "/x/%252e%252e/y", "/x/%252e%252e/y");
    expect_error(d, "/index.html%00.jpg", PCT_REJECTED_BYTE, 11);
    expect_path(d, "/a/b/../../../../c?q=../../d#../e", "/c?q=../../d#../e");
    /* the presets */
    expect_path(&pct_path_policy_nginx, "/a/..%2f..%2fetc", "/etc");
    expect_path(&pct_path_policy_nginx, "/a%25b//c", "/a%b/c");
    expect_path(&pct_path_policy_nginx, "/a%5c..", "/a\\..");
    expect_error(&pct_path_policy_nginx, "/a%00", PCT_REJECTED_BYTE, 2);
    expect_path(&pct_path_policy_envoy, "/a/..%2f..%2fetc", "/a/..%2F..%2Fetc");
    expect_path(&pct_path_policy_envoy, "/a\\..\\b%00", "/b%00");
    expect_path(&pct_path_policy_apache, "/a/..%2f..%2fetc", "/a/..%2F..%2Fetc");
    expect_path(&pct_path_policy_apache, "/a%5c..//b", "/a\\../b");
    expect_error(&pct_path_policy_apache, "/a%00", PCT_REJECTED_BYTE, 2);
    CHECK(pct_path_policy_by_name("default") == &pct_path_policy_default);
    CHECK(pct_path_policy_by_name("nginx") == &pct_path_policy_nginx);
    CHECK(pct_path_policy_by_name("envoy") == &pct_path_policy_envoy);
    CHECK(pct_path_policy_by_name("apache") == &pct_path_policy_apache);
    CHECK(pct_path_policy_by_name("iis") == NULL);
    CHECK(pct_path_policy_by_name(NULL) == NULL);
    /* NULL is the default */
    expect_path(NULL, "/a//%2e%2e/%2f", "/%2F");
}

static void test_options_errors(void)
{
    pct_path_policy p = rfc;
    char out[32];
    pct_result r;
    p.options = PCT_PATH_UTF8;
    expect_path(&p, "/%C3%A9/\xC3\xA9", "/%C3%A9/\xC3\xA9");
    expect_error(&p, "/ab/%C3", PCT_INVALID_UTF8, 4);
    expect_error(&p, "/ab/%C3/", PCT_INVALID_UTF8, 4);
    expect_error(&p, "/ab/\xC3%41", PCT_INVALID_UTF8, 4);
    expect_error(&p, "/ab/%FF", PCT_INVALID_UTF8, 4);
    expect_path(&p, "/ab?\xFF", "/ab?\xFF"); /* the query is not checked */
    p.options = PCT_PATH_STRICT;
    expect_error(&p, "/ab/%zz", PCT_INVALID_ESCAPE, 4);
    expect_error(&p, "/ab/%4", PCT_INVALID_ESCAPE, 4);
    expect_path(&p, "/ab?%zz", "/ab?%zz");
    p.options = PCT_PATH_MERGE_SLASHES;
    expect_path(&p, "//a///b//", "/a/b/");
    expect_path(&p, "..//a", "a");
    /* arguments */
    r = pct_normalize_path(NULL, 1, out, NULL);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_normalize_path("a", 1, NULL, NULL);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    r = pct_normalize_path(NULL, 0, NULL, NULL);
    CHECK_RESULT(r, PCT_OK, 0);
    p = rfc;
    p.options = 1u << 20;
    r = pct_normalize_path("/", 1, out, &p);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    p = rfc;
    p.encoded_control = (pct_path_action)3;
    r = pct_normalize_path("/", 1, out, &p);
    CHECK_RESULT(r, PCT_INVALID_ARGUMENT, 0);
    CHECK_STR("escaped byte rejected by the path policy", pct_status_string(PCT_REJECTED_BYTE));
}

/* RFC 3986 5.2.4 as written: the input buffer rewritten from the front. */
static size_t ref_remove_dot_segments(const char *in, size_t n, char *out)
{
    char *buf = xdup(in, n);
    size_t b = 0, o = 0; /* input is buf[b..n) */
#define STARTS(s) (n - b >= sizeof(s) - 1 && memcmp(buf + b, s, sizeof(s) - 1) == 0)
#define IS(s) (n - b == sizeof(s) - 1 && memcmp(buf + b, s, sizeof(s) - 1) == 0)
    while (b < n) {
        if (STARTS("../")) {
            b += 3;
        } else if (STARTS("./")) {
            b += 2;
        } else if (STARTS("/./")) {
            b += 2;
        } else if (IS("/.")) {
            b += 1;
            buf[b] = '/';
        } else if (STARTS("/../") || IS("/..")) {
            if (IS("/..")) {
                b += 2;
                buf[b] = '/';
            } else {
                b += 3;
            }
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
        } else if (IS(".") || IS("..")) {
            b = n;
        } else {
            size_t k = buf[b] == '/' ? b + 1 : b;
            while (k < n && buf[k] != '/')
                k++;
            while (b < k)
                out[o++] = buf[b++];
        }
    }
#undef STARTS
#undef IS
    free(buf);
    return o;
}

static void test_model(void)
{
    static const char *const pieces[] = {"/", "/", ".", "..", "a", "%2e", "%2E%2e", "b", "//"};
    const unsigned long n = test_iters(200000);
    char src[64], exp[64], out[64];
    for (unsigned long it = 0; it < n; it++) {
        size_t len = 0, k = rng_below(10);
        for (size_t j = 0; j < k; j++) {
            const char *piece = pieces[rng_below(sizeof pieces / sizeof pieces[0])];
            memcpy(src + len, piece, strlen(piece));
            len += strlen(piece);
        }
        /* the model knows no escapes: decode the dots first */
        char plain[64];
        size_t m = 0;
        for (size_t i = 0; i < len;) {
            if (src[i] == '%') {
                plain[m++] = '.';
                i += 3;
            } else {
                plain[m++] = src[i++];
            }
        }
        size_t e = ref_remove_dot_segments(plain, m, exp);
        pct_result r = normalize_both(src, len, &rfc, out);
        check_input(src, len, "normalize_path vs RFC 3986 5.2.4 model");
        CHECK_OUT(r, out, exp, e);
    }
}

/* Adversarial alphabet: separators, dots, escapes of every class. */
static const char *const path_pieces[] = {
    "/",   "/",   "\\",   ".",    "..",  "%2e",    "%2E", "%2f", "%2F", "%5c", "%5C", "%00",
    "%1f", "%7F", "%25",  "%",    "%4",  "%41",    "%6",  "a",   "4",   "F",   "?",   "#",
    "%c3", "%A9", "\xC3", "\xA9", "%zz", "%u002e", "~",   "%7e", "%3A", "%2",  "5c",  "e"};

static size_t random_path(char *s, size_t max)
{
    return test_random_path(s, max, path_pieces, sizeof path_pieces / sizeof path_pieces[0], 10);
}

static int hexv(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
        return (c | 0x20) - 'a' + 10;
    return -1;
}

static int class_of(int b) /* 0 slash, 1 backslash, 2 control, 3 percent, -1 other */
{
    if (b == '/')
        return 0;
    if (b == '\\')
        return 1;
    if (b < 0x20 || b == 0x7F)
        return 2;
    if (b == '%')
        return 3;
    return -1;
}

static void test_properties(void)
{
    const unsigned long n = test_iters(300000);
    char src[128], out[128], again[128];
    for (unsigned long it = 0; it < n; it++) {
        pct_path_policy p;
        /* controls: KEEP or REJECT (DECODE is refused) */
        const pct_path_action acts[4] = {
            (pct_path_action)rng_below(3), (pct_path_action)rng_below(3),
            rng_below(2) ? PCT_PATH_REJECT : PCT_PATH_KEEP, (pct_path_action)rng_below(3)};
        p = with(acts[0], acts[1], acts[2], acts[3], (unsigned)rng_below(16));
        size_t len = random_path(src, sizeof src);
        pct_result r = normalize_both(src, len, &p, out);
        size_t end = test_path_end(src, len);
        /* the first rejected escape, before any other error */
        size_t first_reject = SIZE_MAX;
        for (size_t i = 0; i + 2 < end; i++) {
            if (src[i] == '%' && hexv(src[i + 1]) >= 0 && hexv(src[i + 2]) >= 0) {
                int c = class_of(hexv(src[i + 1]) * 16 + hexv(src[i + 2]));
                if (c >= 0 && acts[c] == PCT_PATH_REJECT) {
                    first_reject = i;
                    break;
                }
                i += 2;
            }
        }
        check_input(src, len, "normalize_path properties, policy %d%d%d%d options %u", acts[0],
                    acts[1], acts[2], acts[3], p.options);
        if (r.status == PCT_REJECTED_BYTE) {
            CHECK_EQ(r.count, first_reject);
            continue;
        }
        if (r.status != PCT_OK) {
            CHECK(r.status == PCT_INVALID_UTF8 || r.status == PCT_INVALID_ESCAPE);
            CHECK(r.count <= first_reject || first_reject == SIZE_MAX);
            continue;
        }
        CHECK(first_reject == SIZE_MAX);
        CHECK(r.count <= len);
        /* a fixed point */
        pct_result r2 = pct_normalize_path(out, r.count, again, &p);
        if (!CHECK_RESULT(r2, PCT_OK, r.count) || !CHECK_MEM(out, r.count, again, r2.count))
            continue;
        /* the query and fragment are copied */
        size_t oend = test_path_end(out, r.count);
        CHECK_MEM(src + end, len - end, out + oend, r.count - oend);
        /* no dot segment; with merging, no empty segment inside */
        size_t seg = 0;
        for (size_t i = 0; i <= oend; i++) {
            if (i == oend || out[i] == '/') {
                size_t sl = i - seg;
                CHECK_MSG(!(sl == 1 && out[seg] == '.') &&
                              !(sl == 2 && out[seg] == '.' && out[seg + 1] == '.'),
                          "dot segment at %zu", seg);
                if (p.options & PCT_PATH_MERGE_SLASHES)
                    CHECK_MSG(!(i < oend && sl == 0 && i > 0), "empty segment at %zu", seg);
                seg = i + 1;
            }
        }
        /* kept classes are never decoded: none of their bytes appear
         * literally unless the input had them literally */
        size_t in_count[4] = {0, 0, 0, 0}, out_count[4] = {0, 0, 0, 0};
        /* ('%': those that start no escape) */
        for (size_t i = 0; i < end; i++) {
            int c = class_of((unsigned char)src[i]);
            if (c >= 0 &&
                !(c == 3 && i + 2 < end && hexv(src[i + 1]) >= 0 && hexv(src[i + 2]) >= 0))
                in_count[c]++;
        }
        if (p.options & PCT_PATH_BACKSLASH) { /* '\' becomes '/' */
            in_count[0] += in_count[1];
            in_count[1] = 0;
        }
        for (size_t i = 0; i < oend; i++) {
            int c = class_of((unsigned char)out[i]);
            if (c >= 0 &&
                !(c == 3 && i + 2 < oend && hexv(out[i + 1]) >= 0 && hexv(out[i + 2]) >= 0))
                out_count[c]++;
        }
        for (int c = 0; c < 4; c++)
            if (acts[c] != PCT_PATH_DECODE &&
                !(c == 0 && acts[1] == PCT_PATH_DECODE && (p.options & PCT_PATH_BACKSLASH)))
                CHECK_MSG(out_count[c] <= in_count[c], "class %d decoded (%zu > %zu)", c,
                          out_count[c], in_count[c]);
    }
}

int main(void)
{
    test_seed("test_path");
    test_rfc3986_examples();
    test_encoded_dots();
    test_classes();
    test_traversal();
    test_options_errors();
    test_model();
    test_properties();
    return check_done();
}
