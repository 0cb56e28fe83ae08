/* tests/fuzz/fuzz.h - what the libFuzzer targets share: the input layout,
 * the implementations to compare, exactly sized buffers, and the report that
 * ends a run on the first deviation.
 *
 * Input layout (every target):
 *   byte 0  flags (masked to the flags the operation takes)
 *   byte 1  encode/validate set: 0-10 predefined, 11 empty, 12 full,
 *           13 user-built from the next 32 input bytes, 14 the bytes that make
 *           escapes, 15 user-built ASCII-only set from the next 16 bytes
 *           (taken modulo 16)
 *   byte 2  decode keep set: 0 NULL, 1 "/", 2 decodeURI, 3 rfc3986
 *           (normalize's), 4 user-built from the next 32 bytes, 5 full,
 *           6 empty (not NULL), 7 predefined set (byte 2 >> 3) % 11
 *   byte 3  seed of the chunking used by the streaming checks
 *   byte 4  misalignment of the input copy (0-31 bytes past a 32-byte
 *           boundary; the bytes before it are poisoned under ASan)
 *   rest    the payload, copied to its own exactly sized heap block
 *           (after the user-built sets' bytes, when there are any)
 * Missing bytes read as 0. Every implementation in pct_impl_table that this
 * CPU runs is compared against "scalar": status, count or error offset,
 * consumed count (partial mode), and every output byte. On a difference the
 * input and each implementation's result are printed in hex and abort() runs.
 * $PCT_FUZZ_IMPL=avx2,sse42 limits the comparison to those (triage).
 */
#ifndef PCT_TESTS_FUZZ_H
#define PCT_TESTS_FUZZ_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../flag_names.h"
#include "../support/impls.h"
#include "../support/prng.h"
#include "pct.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#if !defined(FUZZ_ASAN) && defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#endif
#if defined(FUZZ_ASAN)
#include <sanitizer/asan_interface.h>
#define FUZZ_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define FUZZ_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define FUZZ_POISON(p, n) ((void)(p), (void)(n))
#define FUZZ_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A UBSan finding must end the run (libFuzzer then keeps the input).
 * UBSAN_OPTIONS in the environment still overrides this. */
__attribute__((visibility("default"), used)) const char *__ubsan_default_options(void);
__attribute__((visibility("default"), used)) const char *__ubsan_default_options(void)
{
    return "halt_on_error=1:print_stacktrace=1";
}

/* ------------------------------------------------------------------------ */
/* Implementations                                                           */
/* ------------------------------------------------------------------------ */

/* impls[0] is scalar, then every other one support/impls.h chooses: all that
 * this CPU runs, or those named in $PCT_FUZZ_IMPL (comma-separated, for
 * triage). */
static const pct_impl *fuzz_impls[TEST_MAX_IMPLS];
static size_t fuzz_n_impls;

static inline void fuzz_init_impls(void)
{
    if (fuzz_n_impls)
        return;
    const pct_impl *chosen[TEST_MAX_IMPLS];
    const size_t n_chosen =
        test_impls_from(pct_impl_table, stderr, "fuzz: ", "PCT_FUZZ_IMPL", chosen);
    size_t n = 1;
    fuzz_impls[0] = test_scalar_impl();
    for (size_t i = 0; i < n_chosen; i++)
        if (chosen[i] != fuzz_impls[0])
            fuzz_impls[n++] = chosen[i];
    fuzz_n_impls = n;
    fprintf(stderr, "fuzz: comparing against scalar:");
    for (size_t i = 1; i < n; i++)
        fprintf(stderr, " %s", fuzz_impls[i]->name);
    fprintf(stderr, "%s\n", n == 1 ? " (none: only scalar runs here)" : "");
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

#define FUZZ_HEADER 5
#define FUZZ_N_PREDEFINED 11

typedef struct fuzz_input {
    unsigned flags; /* byte 0, unmasked */
    pct_set set;    /* byte 1 */
    int set_sel;    /* 0-15 */
    int predefined; /* set is one of the 11 predefined sets */
    pct_set keep;   /* byte 2 */
    const pct_set *keep_ptr;
    int keep_sel;
    unsigned chunk_seed; /* byte 3 */
    size_t align;        /* byte 4 */
    uint8_t *block;      /* malloc(align + len) */
    const uint8_t *src;  /* block + align */
    size_t len;
    const uint8_t *raw; /* the whole fuzzer input, for reports */
    size_t raw_len;
} fuzz_input;

static const fuzz_input *fuzz_current;

static inline const pct_set *fuzz_predefined(unsigned k)
{
    static const pct_set *const sets[FUZZ_N_PREDEFINED] = {
        &pct_set_c0_control, &pct_set_fragment, &pct_set_query,        &pct_set_special_query,
        &pct_set_path,       &pct_set_userinfo, &pct_set_component,    &pct_set_form,
        &pct_set_rfc3986,    &pct_set_uri,      &pct_set_uri_component};
    return sets[k % FUZZ_N_PREDEFINED];
}

static inline const char *fuzz_set_name(int sel)
{
    static const char *const names[16] = {"c0_control",    "fragment",
                                          "query",         "special_query",
                                          "path",          "userinfo",
                                          "component",     "form",
                                          "rfc3986",       "uri",
                                          "uri_component", "empty",
                                          "full",          "user(32 bytes)",
                                          "escape-bytes",  "user-ascii(16 bytes)"};
    return names[sel & 15];
}

static inline const char *fuzz_keep_name(int sel)
{
    static const char *const names[8] = {"NULL",           "{/}",  "decodeURI", "rfc3986",
                                         "user(32 bytes)", "full", "empty",     "predefined"};
    return names[sel & 7];
}

/* Exactly n bytes on the heap, so that ASan reports any access past them
 * (malloc(0) included: a 0-byte block has no addressable byte). */
static inline uint8_t *fuzz_alloc(size_t n)
{
    uint8_t *p = (uint8_t *)malloc(n);
    if (p == NULL && n != 0)
        abort();
    return p;
}

/* Takes up to n bytes from the payload (the rest read as 0). */
static inline void fuzz_take(const uint8_t **p, size_t *left, uint8_t *out, size_t n)
{
    const size_t k = *left < n ? *left : n;
    memset(out, 0, n);
    if (k)
        memcpy(out, *p, k);
    *p += k;
    *left -= k;
}

static inline void fuzz_parse(fuzz_input *in, const uint8_t *data, size_t size)
{
    uint8_t h[FUZZ_HEADER];
    const uint8_t *p = data;
    size_t left = size;
    memset(in, 0, sizeof *in);
    in->raw = data;
    in->raw_len = size;
    fuzz_take(&p, &left, h, FUZZ_HEADER);
    in->flags = h[0];
    in->set_sel = h[1] & 15;
    in->keep_sel = h[2] & 7;
    in->chunk_seed = h[3];
    in->align = h[4] & 31u;

    if (in->set_sel < FUZZ_N_PREDEFINED) {
        in->set = *fuzz_predefined((unsigned)in->set_sel);
        in->predefined = 1;
    } else if (in->set_sel == 11) {
        pct_set_clear(&in->set);
    } else if (in->set_sel == 12) {
        pct_set_fill(&in->set);
    } else if (in->set_sel == 13) {
        fuzz_take(&p, &left, in->set.bits, 32);
    } else if (in->set_sel == 14) {
        pct_set_clear(&in->set);
        pct_set_add_chars(&in->set, "%0123456789abcdefABCDEF+ u");
    } else {
        uint8_t b[16];
        fuzz_take(&p, &left, b, 16);
        pct_set_clear(&in->set);
        memcpy(in->set.bits, b, 16);
    }

    in->keep_ptr = &in->keep;
    switch (in->keep_sel) {
    case 0:
        in->keep_ptr = NULL;
        break;
    case 1:
        pct_set_clear(&in->keep);
        pct_set_add_chars(&in->keep, "/");
        break;
    case 2:
        pct_set_clear(&in->keep);
        pct_set_add_chars(&in->keep, "#$&+,/:;=?@");
        break;
    case 3:
        in->keep = pct_set_rfc3986;
        break;
    case 4:
        fuzz_take(&p, &left, in->keep.bits, 32);
        break;
    case 5:
        pct_set_fill(&in->keep);
        break;
    case 6:
        pct_set_clear(&in->keep);
        break;
    default:
        in->keep = *fuzz_predefined((unsigned)h[2] >> 3);
        break;
    }

    /* The payload in its own block: an over-read past its end or (under
     * ASan) into the poisoned bytes before it is reported. */
    in->len = left;
    in->block = fuzz_alloc(in->align + left);
    if (left)
        memcpy(in->block + in->align, p, left);
    FUZZ_POISON(in->block, in->align);
    in->src = in->block + in->align;
    fuzz_current = in;
}

static inline void fuzz_release(fuzz_input *in)
{
    FUZZ_UNPOISON(in->block, in->align);
    free(in->block);
    fuzz_current = NULL;
}

/* Deterministic chunk lengths for the streaming checks (the tests' PRNG on
 * a state seeded from the input). */
typedef struct fuzz_chunker {
    uint64_t state;
} fuzz_chunker;

static inline void fuzz_chunker_init(fuzz_chunker *c, unsigned seed)
{
    c->state = seed;
}

/* Next chunk length, at most left; 0-length chunks happen too. */
static inline size_t fuzz_chunk(fuzz_chunker *c, size_t left)
{
    const uint64_t x = rng_step(&c->state);
    size_t n;
    switch (x & 3) {
    case 0:
        n = (x >> 8) % 4; /* tiny: 0-3 bytes, splits escapes */
        break;
    case 1:
        n = (x >> 8) % 17;
        break;
    case 2:
        n = (x >> 8) % 80;
        break;
    default:
        n = (x >> 8) % 300;
        break;
    }
    return n < left ? n : left;
}

/* ------------------------------------------------------------------------ */
/* Reports                                                                   */
/* ------------------------------------------------------------------------ */

static inline void fuzz_hex(const char *label, const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    const size_t shown = n > 2048 ? 2048 : n;
    fprintf(stderr, "  %s (%zu bytes):", label, n);
    for (size_t k = 0; k < shown; k++)
        fprintf(stderr, "%s%02x", k % 32 ? " " : "\n    ", b[k]);
    if (shown < n)
        fprintf(stderr, "\n    ... (%zu more)", n - shown);
    fprintf(stderr, "\n");
}

static inline void fuzz_print_flags(unsigned f)
{
    pct_test_print_flags(stderr, f);
}

static inline void fuzz_print_input(void)
{
    const fuzz_input *in = fuzz_current;
    if (in == NULL)
        return;
    fprintf(stderr, "  set=%s keep=%s chunk_seed=%u align=%zu\n", fuzz_set_name(in->set_sel),
            fuzz_keep_name(in->keep_sel), in->chunk_seed, in->align);
    fuzz_hex("set bits", in->set.bits, 32);
    if (in->keep_ptr)
        fuzz_hex("keep bits", in->keep.bits, 32);
    fuzz_hex("payload", in->src, in->len);
}

/* An invariant does not hold: print why and the input, then abort. */
static inline void fuzz_fail(unsigned flags, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static inline void fuzz_fail(unsigned flags, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\n==== libpct fuzz: INVARIANT FAILED: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  flags=");
    fuzz_print_flags(flags);
    fprintf(stderr, "\n");
    fuzz_print_input();
    abort();
}

/* One implementation's result of one operation. */
typedef struct fuzz_run {
    pct_result r;
    size_t consumed; /* partial mode; SIZE_MAX when not used */
    const uint8_t *out;
    size_t out_len; /* bytes of out to compare (r.count on PCT_OK, else 0) */
    size_t value;   /* find / encode_length */
} fuzz_run;

static inline void fuzz_print_run(const char *name, const fuzz_run *run, int has_result)
{
    fprintf(stderr, "  [%s]", name);
    if (has_result)
        fprintf(stderr, " status=%d (%s) count=%zu", (int)run->r.status,
                pct_status_string(run->r.status), run->r.count);
    else
        fprintf(stderr, " value=%zu", run->value);
    if (run->consumed != SIZE_MAX)
        fprintf(stderr, " consumed=%zu", run->consumed);
    fprintf(stderr, "\n");
    if (has_result && run->r.status == PCT_OK)
        fuzz_hex("output", run->out, run->out_len);
}

/* Compares runs[1..n) with runs[0] (scalar); aborts on a difference. */
static inline void fuzz_compare(const char *op, unsigned flags, const fuzz_run *runs, size_t n,
                                int has_result)
{
    for (size_t i = 1; i < n; i++) {
        const fuzz_run *a = &runs[0], *b = &runs[i];
        int same = a->consumed == b->consumed;
        if (has_result) {
            same = same && a->r.status == b->r.status && a->r.count == b->r.count;
            if (same && a->r.status == PCT_OK)
                same = a->out_len == b->out_len &&
                       (a->out_len == 0 || memcmp(a->out, b->out, a->out_len) == 0);
        } else {
            same = same && a->value == b->value;
        }
        if (same)
            continue;
        fprintf(stderr, "\n==== libpct fuzz: %s: %s DIFFERS FROM scalar\n  flags=", op,
                fuzz_impls[i]->name);
        fuzz_print_flags(flags);
        fprintf(stderr, "\n");
        if (has_result && a->r.status == PCT_OK && b->r.status == PCT_OK) {
            size_t k = 0;
            const size_t m = a->out_len < b->out_len ? a->out_len : b->out_len;
            while (k < m && a->out[k] == b->out[k])
                k++;
            fprintf(stderr, "  first differing output byte: %zu\n", k);
        }
        fuzz_print_input();
        for (size_t k = 0; k < n; k++)
            fuzz_print_run(fuzz_impls[k]->name, &runs[k], has_result);
        abort();
    }
}

#endif /* PCT_TESTS_FUZZ_H */
