/* test_path_v2.c - pct_normalize_path_v2: the path confusions of recent
 * proxy advisories (and their encoded and case variants) under every preset,
 * written out per preset; the new options; the report; argument checks; and,
 * on random paths, that a v1 preset and its v2 form agree, that the report
 * is empty exactly when the path is unchanged, that PCT_PATH_REJECT_CHANGED passes exactly the
 * unchanged paths, and that in place equals out of place. */
#include "check.h"
#include "pct.h"
#include "support/paths.h"

static const char *const presets[] = {"default", "nginx", "envoy", "apache", "traefik", "strict"};
#define NPRESETS (sizeof presets / sizeof presets[0])

/* Normalizes out of place (exact-size buffer) and in place; both must agree. */
static pct_result normalize_v2(const char *src, size_t len, const pct_path_policy_v2 *p, char *out,
                               pct_path_report *report)
{
    char *in = xdup(src, len), *dst = (char *)xmalloc(len), *place = xdup(src, len);
    pct_path_report again;
    pct_result r = pct_normalize_path_v2(in, len, dst, p, report);
    pct_result r2 = pct_normalize_path_v2(place, len, place, p, &again);
    check_input(src, len, "normalize_path_v2 in place");
    if (CHECK_RESULT(r2, r.status, r.count) && r.status == PCT_OK) {
        CHECK_MEM(dst, r.count, place, r2.count);
        if (report)
            CHECK(again.changes == report->changes && again.first_change == report->first_change);
    }
    CHECK(mem_cmp(in, src, len) == 0);
    if (r.status == PCT_OK)
        mem_cpy(out, dst, r.count);
    free(in);
    free(dst);
    free(place);
    return r;
}

/* One advisory input: the expected result under each preset, in the order of
 * `presets`: the output, or "!B@n" (PCT_REJECTED_BYTE at n) / "!P@n"
 * (PCT_REJECTED_PATH at n). */
struct advisory_case {
    const char *input;
    const char *expected[NPRESETS];
};

static const struct advisory_case advisories[] = {
    /* Traefik CVE-2025-66490: an encoded slash matched another router */
    {"/admin%2F", {"/admin%2F", "/admin/", "/admin%2F", "/admin%2F", "!B@6", "!B@6"}},
    {"/admin%2f", {"/admin%2F", "/admin/", "/admin%2F", "/admin%2F", "!B@6", "!B@6"}},
    /* Traefik GHSA-vrch-868g-9jx5, CVE-2026-48020: encoded dot segments */
    {"/prefix/%2e%2e/admin", {"/admin", "/admin", "/admin", "/admin", "/admin", "/admin"}},
    {"/prefix/%2E%2e/admin", {"/admin", "/admin", "/admin", "/admin", "/admin", "/admin"}},
    {"/prefix/.%2E/admin", {"/admin", "/admin", "/admin", "/admin", "/admin", "/admin"}},
    /* Traefik CVE-2026-40912: a trailing encoded dot is no dot segment */
    {"/api%2e/admin/secret",
     {"/api./admin/secret", "/api./admin/secret", "/api./admin/secret", "/api./admin/secret",
      "/api./admin/secret", "/api./admin/secret"}},
    /* Caddy GHSA-m8m5-v4jf-3wcm: "..%2f" is a traversal where %2F is decoded */
    {"/public/..%2fadmin/secret",
     {"/public/..%2Fadmin/secret", "/admin/secret", "/public/..%2Fadmin/secret",
      "/public/..%2Fadmin/secret", "!B@10", "!B@10"}},
    {"/public/..%2Fadmin/secret",
     {"/public/..%2Fadmin/secret", "/admin/secret", "/public/..%2Fadmin/secret",
      "/public/..%2Fadmin/secret", "!B@10", "!B@10"}},
    /* Caddy GHSA-qrp7-cvwr-j2c6: %5C, and a literal '\', on Windows */
    {"/public/..%5cadmin/secret",
     {"/public/..%5Cadmin/secret", "/public/..\\admin/secret", "/public/..%5Cadmin/secret",
      "/public/..\\admin/secret", "!B@10", "!B@10"}},
    {"/public/..\\admin/secret",
     {"/admin/secret", "/public/..\\admin/secret", "/admin/secret", "/public/..\\admin/secret",
      "/public/..\\admin/secret", "/admin/secret"}},
    /* Envoy CVE-2026-73511: "..;" is ".." for Tomcat and Jetty */
    {"/app/..;/admin",
     {"/app/..;/admin", "/app/..;/admin", "/app/..;/admin", "/app/..;/admin", "/app/..;/admin",
      "!P@5"}},
    {"/app/..;jsessionid=x/admin",
     {"/app/..;jsessionid=x/admin", "/app/..;jsessionid=x/admin", "/app/..;jsessionid=x/admin",
      "/app/..;jsessionid=x/admin", "/app/..;jsessionid=x/admin", "!P@5"}},
    {"/app/%2E%2e;/admin",
     {"/app/..;/admin", "/app/..;/admin", "/app/..;/admin", "/app/..;/admin", "/app/..;/admin",
      "!P@5"}},
    {"/app/..%3B/admin",
     {"/app/..%3B/admin", "/app/..%3B/admin", "/app/..%3B/admin", "/app/..%3B/admin", "!B@7",
      "!B@7"}},
    /* HAProxy CVE-2023-45539: '#' in the path; Apache CVE-2024-38474: %3F */
    {"/a%23b", {"/a%23b", "/a%23b", "/a%23b", "/a%23b", "!B@2", "!B@2"}},
    {"/index.php%3Fx=.php",
     {"/index.php%3Fx=.php", "/index.php%3Fx=.php", "/index.php%3Fx=.php", "/index.php%3Fx=.php",
      "!B@10", "!B@10"}},
    {"/a%3fb", {"/a%3Fb", "/a%3Fb", "/a%3Fb", "/a%3Fb", "!B@2", "!B@2"}},
    {"/a%00b", {"!B@2", "!B@2", "/a%00b", "!B@2", "!B@2", "!B@2"}},
    {"/a%01b", {"!B@2", "!B@2", "/a%01b", "!B@2", "/a%01b", "!B@2"}},
    /* double encoding stays one layer */
    {"/a%252e%252e/b",
     {"/a%252e%252e/b", "/a%252e%252e/b", "/a%252e%252e/b", "/a%252e%252e/b", "!B@2", "!B@2"}},
    /* climbing above the root */
    {"/../../etc/passwd",
     {"/etc/passwd", "/etc/passwd", "/etc/passwd", "/etc/passwd", "/etc/passwd", "!P@1"}},
    {"/a/%2e%2e/%2E%2E/etc", {"/etc", "/etc", "/etc", "/etc", "/etc", "!P@10"}},
};

static void test_advisories(void)
{
    char out[64];
    for (size_t c = 0; c < sizeof advisories / sizeof advisories[0]; c++) {
        const struct advisory_case *a = &advisories[c];
        const size_t len = strlen(a->input);
        for (size_t k = 0; k < NPRESETS; k++) {
            pct_path_policy_v2 p;
            CHECK_EQ(pct_path_policy_v2_init(&p, presets[k]), PCT_OK);
            pct_path_report report;
            const pct_result r = normalize_v2(a->input, len, &p, out, &report);
            const char *exp = a->expected[k];
            check_input(a->input, len, "advisory input, preset %s", presets[k]);
            if (exp[0] == '!') {
                const pct_status st = exp[1] == 'B' ? PCT_REJECTED_BYTE : PCT_REJECTED_PATH;
                CHECK_RESULT(r, st, (size_t)atoi(exp + 3));
            } else {
                CHECK_OUT(r, out, exp, strlen(exp));
            }
        }
    }
}

/* The report and the new options, on one input each. */
static void expect_v2(const pct_path_policy_v2 *p, const char *src, const char *exp,
                      uint32_t changes, size_t first_change)
{
    char out[64];
    pct_path_report report;
    const size_t len = strlen(src);
    const pct_result r = normalize_v2(src, len, p, out, &report);
    check_input(src, len, "normalize_path_v2");
    if (CHECK_OUT(r, out, exp, strlen(exp))) {
        CHECK_EQ(report.changes, changes);
        CHECK_EQ(report.first_change, first_change);
    }
}

static void test_report_and_options(void)
{
    pct_path_policy_v2 p;
    pct_path_policy_v2_init(&p, NULL);
    expect_v2(&p, "/a/b?x=%2e", "/a/b?x=%2e", 0, 10);
    expect_v2(&p, "/%7euser/", "/~user/", PCT_PATH_DID_DECODE_UNRESERVED, 1);
    expect_v2(&p, "/a/%3b", "/a/%3B", PCT_PATH_DID_UPPERCASE_HEX, 3);
    expect_v2(&p, "/a//b", "/a/b", PCT_PATH_DID_MERGE_SLASHES, 3);
    expect_v2(&p, "/a\\b", "/a/b", PCT_PATH_DID_BACKSLASH, 2);
    expect_v2(&p, "/a/./b", "/a/b", PCT_PATH_DID_REMOVE_DOTS, 2);
    expect_v2(&p, "/a/%2E/b", "/a/b",
              PCT_PATH_DID_REMOVE_DOTS | PCT_PATH_DID_SEE_ENCODED_DOTS |
                  PCT_PATH_DID_DECODE_UNRESERVED,
              2);
    expect_v2(&p, "/../a", "/a", PCT_PATH_DID_REMOVE_DOTS | PCT_PATH_DID_CLAMP_AT_ROOT, 0);
    expect_v2(&p, "/a;v=1/b", "/a;v=1/b", PCT_PATH_DID_SEE_PARAMS, 8);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_SLASH, PCT_PATH_DECODE), PCT_OK);
    expect_v2(&p, "/a%2fb", "/a/b", PCT_PATH_DID_DECODE, 2);

    /* dot segments with parameters */
    pct_path_policy_v2_init(&p, NULL);
    p.options |= PCT_PATH_DOT_PARAMS;
    expect_v2(&p, "/a/b/..;x/c", "/a/c", PCT_PATH_DID_REMOVE_DOTS | PCT_PATH_DID_SEE_PARAMS, 4);
    expect_v2(&p, "/a/.;x/c", "/a/c", PCT_PATH_DID_REMOVE_DOTS | PCT_PATH_DID_SEE_PARAMS, 2);
    expect_v2(&p, "/a/..x;/c", "/a/..x;/c", PCT_PATH_DID_SEE_PARAMS, 9);
    p.options |= PCT_PATH_REJECT_DOT_PARAMS;
    {
        char out[16];
        pct_result r = normalize_v2("/a/b/..;x/c", 11, &p, out, NULL);
        CHECK_RESULT(r, PCT_REJECTED_PATH, 5);
    }

    /* above the root */
    pct_path_policy_v2_init(&p, NULL);
    p.options |= PCT_PATH_REJECT_ABOVE_ROOT;
    expect_v2(&p, "/a/../b", "/b", PCT_PATH_DID_REMOVE_DOTS, 2);
    {
        char out[16];
        pct_path_report report;
        pct_result r = normalize_v2("/a/../../b", 10, &p, out, &report);
        CHECK_RESULT(r, PCT_REJECTED_PATH, 6);
        CHECK_EQ(report.changes, PCT_PATH_DID_REMOVE_DOTS); /* what it did up to there */
        r = normalize_v2("/..", 3, &p, out, NULL);
        CHECK_RESULT(r, PCT_REJECTED_PATH, 1);
    }

    /* any change refused */
    pct_path_policy_v2_init(&p, NULL);
    p.options |= PCT_PATH_REJECT_CHANGED;
    expect_v2(&p, "/a/b;x/%2F?q=%7e", "/a/b;x/%2F?q=%7e", PCT_PATH_DID_SEE_PARAMS, 16);
    {
        char out[16];
        pct_result r = normalize_v2("/a/%7e", 6, &p, out, NULL);
        CHECK_RESULT(r, PCT_REJECTED_PATH, 3);
        r = normalize_v2("/a//b/.", 7, &p, out, NULL);
        CHECK_RESULT(r, PCT_REJECTED_PATH, 3);
    }
}

static void test_arguments(void)
{
    pct_path_policy_v2 p;
    char out[8];
    check_input(NULL, 0, "v2 arguments");
    CHECK_EQ(pct_path_policy_v2_init(&p, "bogus"), PCT_INVALID_ARGUMENT);
    CHECK_EQ(pct_path_policy_v2_init(NULL, NULL), PCT_INVALID_ARGUMENT);
    pct_path_policy_v2_init(&p, NULL);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_QUESTION, PCT_PATH_DECODE),
             PCT_INVALID_ARGUMENT);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_HASH, PCT_PATH_DECODE),
             PCT_INVALID_ARGUMENT);
    /* a decoded control would reach the next hop raw (%0D%0A: request splitting) */
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_NUL, PCT_PATH_DECODE), PCT_INVALID_ARGUMENT);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_CONTROL, PCT_PATH_DECODE),
             PCT_INVALID_ARGUMENT);
    CHECK_EQ(p.action[0], PCT_PATH_REJECT); /* a refused set changes nothing */
    CHECK_EQ(p.action['\r'], PCT_PATH_REJECT);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_NUL, PCT_PATH_KEEP), PCT_OK);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_CONTROL, PCT_PATH_KEEP), PCT_OK);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_CONTROL, PCT_PATH_REJECT), PCT_OK);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASSES, PCT_PATH_KEEP), PCT_INVALID_ARGUMENT);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_SLASH, (pct_path_action)3),
             PCT_INVALID_ARGUMENT);
    CHECK_EQ(pct_path_policy_v2_set(&p, PCT_PATH_CLASS_HASH, PCT_PATH_REJECT), PCT_OK);
    CHECK_RESULT(pct_normalize_path_v2("/a", 2, out, &p, NULL), PCT_OK, 2);
    CHECK_RESULT(pct_normalize_path_v2("/a", 2, out, NULL, NULL), PCT_OK, 2);
    CHECK_RESULT(pct_normalize_path_v2(NULL, 2, out, &p, NULL), PCT_INVALID_ARGUMENT, 0);
    CHECK_RESULT(pct_normalize_path_v2("/a", 2, NULL, &p, NULL), PCT_INVALID_ARGUMENT, 0);
    /* the rules the setter enforces, enforced on a policy written by hand */
    pct_path_policy_v2 bad = p;
    bad.action['A'] = PCT_PATH_KEEP; /* an unreserved byte is decoded or rejected */
    CHECK_RESULT(pct_normalize_path_v2("/a", 2, out, &bad, NULL), PCT_INVALID_ARGUMENT, 0);
    bad = p;
    bad.action['?'] = PCT_PATH_DECODE;
    CHECK_RESULT(pct_normalize_path_v2("/a", 2, out, &bad, NULL), PCT_INVALID_ARGUMENT, 0);
    for (unsigned b = 0; b < 0x80; b++) { /* DECODE of each control, by hand */
        if (b >= 0x20 && b != 0x7F)
            continue;
        bad = p;
        bad.action[b] = PCT_PATH_DECODE;
        CHECK_RESULT(pct_normalize_path_v2("/a", 2, out, &bad, NULL), PCT_INVALID_ARGUMENT, 0);
    }
    bad = p;
    bad.action[0x20] = PCT_PATH_DECODE; /* the byte after the controls may be */
    CHECK_RESULT(pct_normalize_path_v2("/a%20", 5, out, &bad, NULL), PCT_OK, 3);
    bad = p;
    bad.action[0x80] = 7;
    CHECK_RESULT(pct_normalize_path_v2("/a", 2, out, &bad, NULL), PCT_INVALID_ARGUMENT, 0);
    bad = p;
    bad.options |= 1u << 30;
    CHECK_RESULT(pct_normalize_path_v2("/a", 2, out, &bad, NULL), PCT_INVALID_ARGUMENT, 0);
    bad = p;
    bad.size = 4;
    CHECK_RESULT(pct_normalize_path_v2("/a", 2, out, &bad, NULL), PCT_INVALID_ARGUMENT, 0);
    /* an unreserved byte may be rejected: no encoded dots at all */
    p.action['.'] = PCT_PATH_REJECT;
    CHECK_RESULT(pct_normalize_path_v2("/a/%2e%2e", 9, out, &p, NULL), PCT_REJECTED_BYTE, 3);
    /* v1 refuses the v2 options */
    pct_path_policy v1 = pct_path_policy_default;
    v1.options |= PCT_PATH_REJECT_CHANGED;
    CHECK_RESULT(pct_normalize_path("/a", 2, out, &v1), PCT_INVALID_ARGUMENT, 0);
    CHECK_STR(pct_status_string(PCT_REJECTED_PATH), "path rejected by the path policy");
}

static void test_report_format(void)
{
    char buf[128];
    check_input(NULL, 0, "pct_path_report_format");
    CHECK_EQ(pct_path_report_format(0, buf, sizeof buf), 0);
    CHECK_STR(buf, "");
    const uint32_t two = PCT_PATH_DID_DECODE_UNRESERVED | PCT_PATH_DID_REMOVE_DOTS;
    CHECK_EQ(pct_path_report_format(two, buf, sizeof buf), strlen("decode-unreserved,remove-dots"));
    CHECK_STR(buf, "decode-unreserved,remove-dots");
    CHECK_EQ(pct_path_report_format(two, buf, 7), strlen("decode-unreserved,remove-dots"));
    CHECK_STR(buf, "decode"); /* cut, NUL-terminated, as snprintf */
    CHECK_EQ(pct_path_report_format(two, NULL, 0), strlen("decode-unreserved,remove-dots"));
    const size_t all = pct_path_report_format(~0u, buf, sizeof buf);
    CHECK(all < sizeof buf && strlen(buf) == all);
    CHECK_STR(buf, "decode-unreserved,decode,uppercase-hex,remove-dots,encoded-dots,"
                   "clamp-at-root,merge-slashes,backslash,params");
}

static const char *const path_pieces[] = {
    "/",   "/",   "\\",  ".",   "..",  "%2e", "%2E", "%2f",  "%2F",  "%5c", "%5C", "%00",
    "%1f", "%7F", "%25", "%",   "%4",  "%41", "%6",  "a",    "4",    "F",   "?",   "#",
    "%c3", "%A9", ";",   "%3b", "%3F", "%23", "%7e", "\xC3", "\xA9", ";x",  "..;", "%zz"};

static size_t random_path(char *s, size_t max)
{
    return test_random_path(s, max, path_pieces, sizeof path_pieces / sizeof path_pieces[0], 0);
}

static void test_properties(void)
{
    const unsigned long n = test_iters(200000);
    char src[128], out[128], out1[128];
    static const unsigned extra[] = {0, PCT_PATH_DOT_PARAMS, PCT_PATH_REJECT_ABOVE_ROOT,
                                     PCT_PATH_REJECT_DOT_PARAMS, PCT_PATH_UTF8 | PCT_PATH_STRICT};
    for (unsigned long it = 0; it < n; it++) {
        const size_t k = rng_below(NPRESETS);
        pct_path_policy_v2 p;
        pct_path_policy_v2_init(&p, presets[k]);
        p.options |= extra[rng_below(sizeof extra / sizeof extra[0])];
        const size_t len = random_path(src, sizeof src);
        const size_t end = test_path_end(src, len);
        pct_path_report report;
        const pct_result r = normalize_v2(src, len, &p, out, &report);
        check_input(src, len, "v2 properties, preset %s options %u", presets[k], p.options);
        /* a v1 preset and its v2 form */
        const pct_path_policy *v1 = pct_path_policy_by_name(presets[k]);
        if (v1 && p.options == v1->options) {
            const pct_result r1 = pct_normalize_path(src, len, out1, v1);
            if (CHECK_RESULT(r1, r.status, r.count) && r.status == PCT_OK)
                CHECK_MEM(out1, r1.count, out, r.count);
        }
        if (r.status != PCT_OK)
            continue;
        /* the report is empty exactly when the path is unchanged, and the
         * first change is where input and output start to differ */
        const size_t out_end = r.count - (len - end);
        const int same = out_end == end && mem_cmp(out, src, end) == 0;
        const int changed = (report.changes & ~(uint32_t)PCT_PATH_DID_SEE_PARAMS) != 0;
        CHECK(same == !changed);
        if (changed) {
            CHECK(report.first_change < end);
        } else {
            CHECK_EQ(report.first_change, len);
        }
        if (memchr(out, ';', out_end) != NULL) /* (a removed segment may have had some too) */
            CHECK(report.changes & PCT_PATH_DID_SEE_PARAMS);
        /* PCT_PATH_REJECT_CHANGED passes exactly the unchanged paths */
        p.options |= PCT_PATH_REJECT_CHANGED;
        const pct_result rc = normalize_v2(src, len, &p, out1, NULL);
        if (same)
            CHECK_RESULT(rc, PCT_OK, len);
        else
            CHECK_RESULT(rc, PCT_REJECTED_PATH, report.first_change);
    }
}

int main(void)
{
    test_seed("test_path_v2");
    test_advisories();
    test_report_and_options();
    test_arguments();
    test_report_format();
    test_properties();
    return check_done();
}
