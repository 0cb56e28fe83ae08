/* test_path_fast.c - pct_normalize_path and pct_normalize_path_v2 (the fast
 * path: runs between the stops that find_all finds) against the byte-at-a-time
 * reference (pct_path_normalize_reference), under every implementation this
 * CPU runs: output bytes, status, error offset and report (changes and
 * first_change) must be the same, out of place and in place, report on and
 * off. Policies: every v1 and v2 preset, random v1 policies and random v2
 * policies (an action per byte, any option bits). Inputs: three generators of
 * path pieces at every length 0..300 and every alignment 0..63, stops on both
 * sides of the map's 1 KiB windows, and random paths up to 64 KiB. Inputs are
 * placed flush against a PROT_NONE guard page, so an over-read faults. POSIX
 * (mmap). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS in glibc */

#include "check_impls.h"
#include "path.h"
#include "pct.h"
#include "support/guard.h"

enum {
    MAX_LEN = 65536,
    ALIGNMENTS = 64,
    WINDOW = 1024 /* the fast path's map window (path.c) */
};

static guarded gin;
static char *want, *got;

/* ---- Policies --------------------------------------------------------------- */

static const char *const v1_presets[] = {"default", "nginx", "envoy", "apache"};
static const char *const v2_presets[] = {"default", "nginx",   "envoy",
                                         "apache",  "traefik", "strict"};
#define N_V1 (sizeof v1_presets / sizeof v1_presets[0])
#define N_V2 (sizeof v2_presets / sizeof v2_presets[0])

static int unreserved(unsigned b)
{
    return !pct_set_contains(&pct_set_rfc3986, (unsigned char)b);
}

/* An action per byte, within what pct_normalize_path_v2 accepts: unreserved
 * bytes DECODE or REJECT, controls, '?' and '#' KEEP or REJECT. REJECT is
 * rare, so that most paths get through. */
static void random_v2(pct_path_policy_v2 *p)
{
    pct_path_policy_v2_init(p, NULL);
    for (unsigned b = 0; b < 256; b++) {
        const int reject = rng_chance(4);
        const int decode = rng_chance(50);
        pct_path_action a = reject ? PCT_PATH_REJECT : decode ? PCT_PATH_DECODE : PCT_PATH_KEEP;
        if (a == PCT_PATH_KEEP && unreserved(b))
            a = PCT_PATH_DECODE;
        if (a == PCT_PATH_DECODE && (b < 0x20 || b == 0x7F || b == '?' || b == '#'))
            a = PCT_PATH_KEEP;
        p->action[b] = (uint8_t)a;
    }
    p->options = (uint32_t)rng_below(256); /* every PCT_PATH_* option bit */
}

static void random_v1(pct_path_policy *p)
{
    p->encoded_slash = (pct_path_action)rng_below(3);
    p->encoded_backslash = (pct_path_action)rng_below(3);
    p->encoded_control = rng_chance(50) ? PCT_PATH_KEEP : PCT_PATH_REJECT;
    p->encoded_percent = (pct_path_action)rng_below(3);
    p->options = (unsigned)rng_below(16);
}

/* The k-th policy of a rotation through every preset and random policies:
 * *v1 is set (and *v2 is what it means) for the v1 ones, else NULL. */
static const pct_path_policy *policy_k(size_t k, pct_path_policy *v1_store, pct_path_policy_v2 *v2)
{
    k %= N_V1 + N_V2 + 2;
    if (k < N_V1) {
        const pct_path_policy *v1 = pct_path_policy_by_name(v1_presets[k]);
        pct_path_policy_from_v1(v2, v1);
        return v1;
    }
    k -= N_V1;
    if (k < N_V2) {
        pct_path_policy_v2_init(v2, v2_presets[k]);
        if (rng_chance(25)) /* the v2 options on top of a preset */
            v2->options |= (uint32_t)rng_below(256) & ~(uint32_t)15;
        return NULL;
    }
    if (k == N_V2) {
        random_v1(v1_store);
        pct_path_policy_from_v1(v2, v1_store);
        return v1_store;
    }
    random_v2(v2);
    return NULL;
}

/* ---- Inputs ------------------------------------------------------------------ */

static const char *const pieces[] = {
    "/",      "//",     "\\",  ".",         "..",   "%2e",      "%2E%2e",   ";",
    "..;x",   "%2F",    "%2f", "%5C",       "%5c",  "%25",      "%zz",      "%",
    "%4",     "?",      "#",   "%3B",       "%3b",  "%41",      "%7e",      "%00",
    "%0D%0A", "%C3%A9", "%c3", "\xC3",      "\xA9", "\xC3\xA9", "\xE2\x82", "\xE2\x82\xAC",
    "%E2%82", "\xFF",   "%FF", "%ED%A0%80", "/./",  "/../",     "/.;/",     "/%2e%2e/",
    "..%2f",  ";p=1",   "a",   "b",         "F",    "4",        "%34%31",   "%25%34%31",
    "/.%2E"};
#define N_PIECES (sizeof pieces / sizeof pieces[0])

static void random_escape(char *s)
{
    static const char hex[] = "0123456789abcdefABCDEF";
    s[0] = '%';
    s[1] = hex[rng_below(sizeof hex - 1)];
    s[2] = hex[rng_below(sizeof hex - 1)];
}

/* Well-formed UTF-8, 2- to 4-byte sequences, up to size bytes. */
static size_t utf8_text(char *s, size_t size)
{
    static const char *const chars[] = {"\xC3\xA9",        "\xD0\xB6",     "\xE6\x97\xA5",
                                        "\xE2\x82\xAC",    "\xED\x9F\xBF", "\xF0\x9F\x98\x80",
                                        "\xF4\x8F\xBF\xBF"};
    size_t n = 0;
    for (size_t k = 1 + rng_below(40); k > 0; k--) {
        const char *c = chars[rng_below(sizeof chars / sizeof chars[0])];
        const size_t m = strlen(c);
        if (n + m > size)
            break;
        memcpy(s + n, c, m);
        n += m;
    }
    return n;
}

/* Fills s[0..n): generator 0 pieces only, 1 pieces between plain runs of
 * random lengths, 2 mostly plain segments (the common case) with a random
 * escape or piece now and then. Cut at n, which may split a piece. */
static void generate(int gen, char *s, size_t n)
{
    size_t k = 0;
    while (k < n) {
        char buf[128];
        size_t m;
        const unsigned r = (unsigned)rng_below(100);
        if (gen == 0 || (gen == 1 && r < 50) || (gen == 2 && r < 8)) {
            const char *p = pieces[rng_below(N_PIECES)];
            m = strlen(p);
            memcpy(buf, p, m);
        } else if (r < 16) {
            random_escape(buf);
            m = 3;
        } else if (r < 24 && gen == 1) { /* literal UTF-8 text, long enough for SIMD */
            m = utf8_text(buf, sizeof buf);
        } else {
            const size_t run = gen == 1 ? 1 + rng_below(24) : 1 + rng_below(30);
            m = run < sizeof buf ? run : sizeof buf;
            for (size_t j = 0; j < m; j++)
                buf[j] = gen == 2 && j == 0 && rng_chance(60) ? '/' : "abcxyz019-_~"[rng_below(12)];
        }
        for (size_t j = 0; j < m && k < n; j++)
            s[k++] = buf[j];
    }
}

/* ---- The comparison ---------------------------------------------------------- */

static int same_report(const pct_path_report *a, const pct_path_report *b)
{
    return a->changes == b->changes && a->first_change == b->first_change;
}

/* Where a copy of len bytes starting at that alignment (mod 64) sits, as
 * close to the guard page after it as the alignment allows. */
static char *place(const char *s, size_t len, size_t align)
{
    uint8_t *base = guarded_place(&gin, len + ALIGNMENTS - 1, 1);
    char *at = (char *)base + ((align - (uintptr_t)base) & (ALIGNMENTS - 1));
    if (len)
        memcpy(at, s, len);
    return at;
}

/* s[0..len) at that alignment with one policy: v1 (if not NULL) and v2, out
 * of place and in place, report on and off. */
static void compare(const char *s, size_t len, size_t align, const pct_path_policy *v1,
                    const pct_path_policy_v2 *v2, const char *what)
{
    pct_path_report want_report, got_report;
    const pct_result w = pct_path_normalize_reference(s, len, want, v2, &want_report);
    const int report_set = w.status == PCT_OK || w.status == PCT_REJECTED_PATH;
    check_input(s, len, "%s, alignment %zu, options %u%s", what, align, (unsigned)v2->options,
                v1 ? ", v1 policy" : "");
    for (int variant = 0; variant < 6; variant++) {
        const int in_place = variant & 1, with_report = variant >> 1 == 1, api_v1 = variant >= 4;
        if (api_v1 && v1 == NULL)
            continue;
        char *src = place(s, len, align), *dst = in_place ? src : got;
        memset(&got_report, 0xA5, sizeof got_report);
        const pct_result r =
            api_v1 ? pct_normalize_path(src, len, dst, v1)
                   : pct_normalize_path_v2(src, len, dst, v2, with_report ? &got_report : NULL);
        int ok = CHECK_MSG(
            r.status == w.status && r.count == w.count, "%s%s%s: {%s, %zu}, reference {%s, %zu}",
            api_v1 ? "v1" : "v2", in_place ? " in place" : "", with_report ? " with report" : "",
            check_status_name(r.status), r.count, check_status_name(w.status), w.count);
        if (ok && w.status == PCT_OK)
            ok = CHECK_MEM(want, w.count, dst, r.count);
        if (ok && with_report && report_set)
            CHECK_MSG(same_report(&got_report, &want_report),
                      "report {%u, %zu}, reference {%u, %zu}", (unsigned)got_report.changes,
                      got_report.first_change, (unsigned)want_report.changes,
                      want_report.first_change);
    }
}

/* Every length 0..300 at every alignment 0..63, the policy rotating. */
static void test_lengths(void)
{
    static char buf[300];
    const size_t max = test_quick() ? 100 : 300;
    size_t k = 0;
    for (int gen = 0; gen < 3; gen++) {
        for (size_t len = 0; len <= max; len++) {
            for (size_t align = 0; align < ALIGNMENTS; align++, k++) {
                pct_path_policy v1_store;
                pct_path_policy_v2 v2;
                const pct_path_policy *v1 = policy_k(k, &v1_store, &v2);
                generate(gen, buf, len);
                compare(buf, len, align, v1, &v2, "generated");
            }
        }
    }
}

/* A stop on both sides of the map windows' edges: plain bytes, then a piece
 * at every offset near a multiple of the window. */
static void test_window_edges(void)
{
    static char buf[3 * WINDOW + 64];
    size_t k = 0;
    for (size_t edge = WINDOW; edge <= 2 * WINDOW; edge += WINDOW) {
        for (size_t at = edge - 4; at <= edge + 2; at++) {
            for (size_t p = 0; p < N_PIECES; p++, k++) {
                pct_path_policy v1_store;
                pct_path_policy_v2 v2;
                const pct_path_policy *v1 = policy_k(k, &v1_store, &v2);
                for (size_t j = 0; j < at; j++)
                    buf[j] = j % 9 == 0 ? '/' : 'a';
                const size_t m = strlen(pieces[p]);
                memcpy(buf + at, pieces[p], m);
                memcpy(buf + at + m, "/x/../y", 7);
                compare(buf, at + m + 7, k % ALIGNMENTS, v1, &v2, "window edge");
            }
        }
    }
}

/* Random paths up to 64 KiB, most of them short. */
static void test_random(void)
{
    const unsigned long n = test_iters(3000);
    static char buf[MAX_LEN];
    for (unsigned long it = 0; it < n; it++) {
        const size_t len = rng_chance(90) ? rng_below(2048) : rng_below(MAX_LEN + 1);
        pct_path_policy v1_store;
        pct_path_policy_v2 v2;
        const pct_path_policy *v1 = policy_k(it, &v1_store, &v2);
        generate((int)rng_below(3), buf, len);
        compare(buf, len, rng_below(ALIGNMENTS), v1, &v2, "random");
    }
}

/* Found by a seed of test_random: a dot segment with parameters that ends in
 * a literal '%' (".;%", PCT_PATH_DOT_PARAMS) is removed, and the hex digit
 * decoded right after the separator must still be decoded: the '%' is gone
 * from the output. The fast path kept %43 ("/25%43"). */
static void test_removed_stray_percent(void)
{
    static const char *const cases[][2] = {{"/.;%/25%43", "/25C"},
                                           {"/a/.;%2/25%43", "/a/25C"},
                                           {"/.;%zz/4%31", "/41"},
                                           {"/a/b;%/..;%/3%46", "/a/3F"}};
    pct_path_policy_v2 v2; /* unreserved bytes decoded, as every preset */
    CHECK(pct_path_policy_v2_init(&v2, "default") == PCT_OK);
    v2.options |= PCT_PATH_DOT_PARAMS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *in = cases[c][0], *out = cases[c][1];
        const pct_result r = pct_normalize_path_v2(in, strlen(in), got, &v2, NULL);
        if (CHECK_MSG(r.status == PCT_OK, "%s: status %s", in, check_status_name(r.status)))
            CHECK_MEM(out, strlen(out), got, r.count);
        compare(in, strlen(in), 0, NULL, &v2, "removed stray '%'");
    }
}

int main(void)
{
    test_seed("test_path_fast");
    gin = guarded_alloc(MAX_LEN + ALIGNMENTS);
    want = (char *)xmalloc(MAX_LEN + 1);
    got = (char *)xmalloc(MAX_LEN + 1);
    for (FOR_EACH_IMPL(k)) {
        test_lengths();
        test_window_edges();
        test_random();
        test_removed_stray_percent();
    }
    free(want);
    free(got);
    guarded_free(&gin);
    return check_done();
}
