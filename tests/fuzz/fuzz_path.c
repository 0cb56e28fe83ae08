/* fuzz_path.c - libFuzzer target: the proxy toolkit (pct_normalize_path,
 * pct_normalize_path_v2, pct_uri_to_iri, pct_iri_to_uri) on every
 * implementation (layout of the input: fuzz.h; byte 0 chooses the policy,
 * byte 1 the options, byte 3 one class's action in the v2 policy).
 *
 *   same result     status, offset and output equal to the scalar run
 *   normalize_path  equal to the byte-at-a-time reference
 *                   (pct_path_normalize_reference), v1 and v2, the v2
 *                   report too, on every implementation, in place and not;
 *                   never longer; a fixed point (normalizing the output again
 *                   gives it back); in place == out of place; no "." or ".."
 *                   segment before the query
 *   uri_to_iri      never longer; in place == out of place; idempotent
 *   iri_to_uri      output is ASCII; decoding it with uri_to_iri and encoding
 *                   again gives the same URI
 */
#include <ctype.h>

#include "fuzz.h"
#include "path.h"

/* The policy of the input's first two bytes (an action per class may also be
 * out of range: then every implementation must say PCT_INVALID_ARGUMENT). */
static pct_path_policy policy_of(const fuzz_input *in)
{
    const unsigned a = in->flags, b = (unsigned)in->set_sel;
    pct_path_policy p;
    p.encoded_slash = (pct_path_action)(a % 3);
    p.encoded_backslash = (pct_path_action)(a / 3 % 3);
    /* controls: KEEP or REJECT (DECODE is PCT_INVALID_ARGUMENT) */
    p.encoded_control = a / 9 % 2 ? PCT_PATH_REJECT : PCT_PATH_KEEP;
    p.encoded_percent = (pct_path_action)(a / 18 % 3);
    p.options = b & 15;
    return p;
}

/* Runs op on every implementation (switched globally: the fuzzer is single
 * threaded) and compares with scalar. out_size: dst bytes to give. */
typedef pct_result path_op(const char *src, size_t len, char *dst, const pct_path_policy *p);

static pct_result normalize_path(const char *src, size_t len, char *dst, const pct_path_policy *p)
{
    return pct_normalize_path(src, len, dst, p);
}

static pct_result uri_to_iri(const char *src, size_t len, char *dst, const pct_path_policy *p)
{
    (void)p;
    return pct_uri_to_iri(src, len, dst);
}

static pct_result iri_to_uri(const char *src, size_t len, char *dst, const pct_path_policy *p)
{
    (void)p;
    return pct_iri_to_uri(src, len, dst);
}

/* Every implementation's result of op on src; returns scalar's output (the
 * caller frees it) and result. */
static uint8_t *run_all(const char *name, path_op *op, const uint8_t *src, size_t len,
                        size_t out_size, const pct_path_policy *p, pct_result *result)
{
    fuzz_run runs[TEST_MAX_IMPLS];
    uint8_t *outs[TEST_MAX_IMPLS];
    memset(runs, 0, sizeof runs);
    for (size_t i = 0; i < fuzz_n_impls; i++) {
        if (pct_use_implementation(fuzz_impls[i]->name) != 0)
            fuzz_fail(0, "pct_use_implementation(%s) failed", fuzz_impls[i]->name);
        outs[i] = fuzz_alloc(out_size);
        runs[i].r = op((const char *)src, len, (char *)outs[i], p);
        runs[i].consumed = SIZE_MAX;
        runs[i].out = outs[i];
        runs[i].out_len = runs[i].r.status == PCT_OK ? runs[i].r.count : 0;
    }
    fuzz_compare(name, 0, runs, fuzz_n_impls, 1);
    for (size_t i = 1; i < fuzz_n_impls; i++)
        free(outs[i]);
    pct_use_implementation("scalar");
    *result = runs[0].r;
    return outs[0];
}

/* Same result when dst == src. */
static void check_in_place(const char *name, path_op *op, const uint8_t *src, size_t len,
                           const pct_path_policy *p, pct_result want, const uint8_t *want_out)
{
    uint8_t *buf = fuzz_alloc(len);
    if (len)
        memcpy(buf, src, len);
    const pct_result r = op((const char *)buf, len, (char *)buf, p);
    if (r.status != want.status || r.count != want.count ||
        (r.status == PCT_OK && r.count && memcmp(buf, want_out, r.count) != 0))
        fuzz_fail(0, "%s: in place differs (status %d count %zu, want %d %zu)", name, (int)r.status,
                  r.count, (int)want.status, want.count);
    free(buf);
}

static void check_no_dot_segments(const uint8_t *s, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '/' && s[i] != '?' && s[i] != '#')
            continue;
        const size_t k = i - start;
        if ((k == 1 && s[start] == '.') || (k == 2 && s[start] == '.' && s[start + 1] == '.'))
            fuzz_fail(0, "normalize_path: output has a dot segment at %zu", start);
        if (i < n && s[i] != '/')
            return; /* the query or fragment is copied as is */
        start = i + 1;
    }
}

/* The v2 policy of the input: a v2 preset (byte 0), the v1 options flipped
 * by byte 1 and the v2 options of byte 0's high bits, and one class's action
 * set by byte 3 (a refused one, DECODE of a control, '?' or '#', is left). */
static pct_path_policy_v2 policy_v2_of(const fuzz_input *in)
{
    static const char *const presets[] = {"default", "nginx",   "envoy",
                                          "apache",  "traefik", "strict"};
    const unsigned a = in->flags, b = (unsigned)in->set_sel, c = in->chunk_seed;
    pct_path_policy_v2 p;
    pct_path_policy_v2_init(&p, presets[a % 6]);
    p.options = (p.options ^ (b & 15)) | (a & 0xF0);
    (void)pct_path_policy_v2_set(&p, (pct_path_class)(c % PCT_PATH_CLASSES),
                                 (pct_path_action)(c / PCT_PATH_CLASSES % 3));
    return p;
}

/* The reference's result of a policy against the scalar run's. */
static void check_reference(const char *name, const uint8_t *src, size_t len,
                            const pct_path_policy_v2 *p, pct_result got, const uint8_t *got_out)
{
    uint8_t *want = fuzz_alloc(len);
    const pct_result w =
        pct_path_normalize_reference((const char *)src, len, (char *)want, p, NULL);
    if (w.status != got.status || w.count != got.count ||
        (w.status == PCT_OK && w.count && memcmp(want, got_out, w.count) != 0))
        fuzz_fail(0, "%s: differs from the reference (status %d count %zu, reference %d %zu)", name,
                  (int)got.status, got.count, (int)w.status, w.count);
    free(want);
}

/* pct_normalize_path_v2 with a report on every implementation, out of place
 * and in place, against the reference. */
static void fuzz_normalize_path_v2(const fuzz_input *in)
{
    const pct_path_policy_v2 p = policy_v2_of(in);
    uint8_t *want = fuzz_alloc(in->len), *got = fuzz_alloc(in->len);
    pct_path_report want_report, got_report;
    const pct_result w = pct_path_normalize_reference((const char *)in->src, in->len, (char *)want,
                                                      &p, &want_report);
    const int report_set = w.status == PCT_OK || w.status == PCT_REJECTED_PATH;
    for (size_t i = 0; i < fuzz_n_impls; i++) {
        if (pct_use_implementation(fuzz_impls[i]->name) != 0)
            fuzz_fail(0, "pct_use_implementation(%s) failed", fuzz_impls[i]->name);
        for (int in_place = 0; in_place < 2; in_place++) {
            uint8_t *src = (uint8_t *)in->src;
            if (in_place) {
                if (in->len)
                    memcpy(got, in->src, in->len);
                src = got;
            }
            const pct_result r =
                pct_normalize_path_v2((const char *)src, in->len, (char *)got, &p, &got_report);
            if (r.status != w.status || r.count != w.count ||
                (w.status == PCT_OK && w.count && memcmp(want, got, w.count) != 0) ||
                (report_set && (got_report.changes != want_report.changes ||
                                got_report.first_change != want_report.first_change)))
                fuzz_fail(0,
                          "normalize_path_v2 (%s%s, options %u): status %d count %zu report "
                          "{%u, %zu}; reference %d %zu {%u, %zu}",
                          fuzz_impls[i]->name, in_place ? ", in place" : "", (unsigned)p.options,
                          (int)r.status, r.count, (unsigned)got_report.changes,
                          got_report.first_change, (int)w.status, w.count,
                          (unsigned)want_report.changes, want_report.first_change);
        }
    }
    pct_use_implementation("scalar");
    free(want);
    free(got);
}

static void fuzz_normalize_path(const fuzz_input *in)
{
    const pct_path_policy p = policy_of(in);
    pct_result r;
    uint8_t *out = run_all("normalize_path", normalize_path, in->src, in->len, in->len, &p, &r);
    pct_path_policy_v2 v2;
    pct_path_policy_from_v1(&v2, &p);
    check_reference("normalize_path", in->src, in->len, &v2, r, out);
    check_in_place("normalize_path", normalize_path, in->src, in->len, &p, r, out);
    if (r.status == PCT_OK) {
        if (r.count > in->len)
            fuzz_fail(0, "normalize_path: output longer than input");
        check_no_dot_segments(out, r.count);
        uint8_t *again = fuzz_alloc(r.count);
        const pct_result r2 = pct_normalize_path((const char *)out, r.count, (char *)again, &p);
        if (r2.status != PCT_OK || r2.count != r.count ||
            (r.count && memcmp(again, out, r.count) != 0))
            fuzz_fail(0, "normalize_path: not a fixed point (second pass: status %d count %zu)",
                      (int)r2.status, r2.count);
        free(again);
    }
    free(out);
}

/* a == b, except that the two bytes after a '%' compare case-insensitively. */
static int same_but_hex_case(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++) {
        const int after_percent = (i >= 1 && a[i - 1] == '%') || (i >= 2 && a[i - 2] == '%');
        const uint8_t x = after_percent ? (uint8_t)toupper(a[i]) : a[i];
        const uint8_t y = after_percent ? (uint8_t)toupper(b[i]) : b[i];
        if (x != y)
            return 0;
    }
    return 1;
}

static void fuzz_iri(const fuzz_input *in)
{
    pct_result r;
    uint8_t *iri = run_all("uri_to_iri", uri_to_iri, in->src, in->len, in->len, NULL, &r);
    check_in_place("uri_to_iri", uri_to_iri, in->src, in->len, NULL, r, iri);
    if (r.status == PCT_OK) {
        if (r.count > in->len)
            fuzz_fail(0, "uri_to_iri: output longer than input");
        uint8_t *twice = fuzz_alloc(r.count);
        const pct_result r2 = pct_uri_to_iri((const char *)iri, r.count, (char *)twice);
        if (r2.status != PCT_OK || r2.count != r.count ||
            (r.count && memcmp(twice, iri, r.count) != 0))
            fuzz_fail(0, "uri_to_iri: not idempotent");
        free(twice);
    }
    free(iri);

    uint8_t *uri = run_all("iri_to_uri", iri_to_uri, in->src, in->len, 3 * in->len, NULL, &r);
    if (r.status == PCT_OK) {
        for (size_t i = 0; i < r.count; i++)
            if (uri[i] >= 0x80)
                fuzz_fail(0, "iri_to_uri: non-ASCII byte in the output at %zu", i);
        /* URI -> IRI -> URI is stable, up to the case of the hex digits of
         * escapes that uri_to_iri decoded (iri_to_uri writes upper case). */
        uint8_t *back = fuzz_alloc(r.count);
        const pct_result b = pct_uri_to_iri((const char *)uri, r.count, (char *)back);
        if (b.status == PCT_OK) {
            uint8_t *again = fuzz_alloc(3 * b.count);
            const pct_result a = pct_iri_to_uri((const char *)back, b.count, (char *)again);
            if (a.status != PCT_OK || !same_but_hex_case(again, a.count, uri, r.count))
                fuzz_fail(0, "iri_to_uri(uri_to_iri(u)) != u for u = iri_to_uri(input)");
            free(again);
        }
        free(back);
    }
    free(uri);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    fuzz_init_impls();
    fuzz_parse(&in, data, size);
    fuzz_normalize_path(&in);
    fuzz_normalize_path_v2(&in);
    fuzz_iri(&in);
    fuzz_release(&in);
    return 0;
}
