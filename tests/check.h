/* check.h - the unit tests' tiny harness: counted checks, hex dumps; the
 * seeded PRNG and the knobs are support/prng.h's, the loop over
 * implementations is check_impls.h's.
 *
 * Every check counts a pass or a failure; a failure prints file:line, the
 * implementation in use, the current input (check_input) and, for byte
 * comparisons, a hex dump of expected and actual. check_done() prints
 * "N passed, M failed" and returns main's exit status.
 *
 * Environment knobs: support/knobs.h.
 */
#ifndef PCT_TEST_CHECK_H
#define PCT_TEST_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pct.h"
#include "support/prng.h"

/* Make UBSan findings fail the test (meson 1.0 would report OK otherwise).
 * UBSAN_OPTIONS in the environment still overrides this. */
#if defined(__GNUC__)
__attribute__((visibility("default"), used)) const char *__ubsan_default_options(void);
__attribute__((visibility("default"), used)) const char *__ubsan_default_options(void)
{
    return "halt_on_error=1:print_stacktrace=1";
}
#endif

#define CHECK_MAX_REPORTS 25

static unsigned long check_passed;
static unsigned long check_failed;
static const char *check_impl = "-"; /* implementation in use, for messages */
/* The input of the operation being checked, shown with every failure. */
static const void *check_in;
static size_t check_in_len;
static char check_what[256];

static inline void check_dump(const char *label, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i, shown = n < 160 ? n : 160;
    fprintf(stderr, "    %-9s (%zu):", label, n);
    for (i = 0; i < shown; i++)
        fprintf(stderr, " %02X", b[i]);
    if (shown < n)
        fprintf(stderr, " ...");
    fprintf(stderr, "\n    %-9s      \"", "");
    for (i = 0; i < shown; i++)
        fputc(b[i] >= 0x20 && b[i] < 0x7F ? b[i] : '.', stderr);
    fprintf(stderr, "\"\n");
}

/* Describe the input of the following checks (kept until the next call). */
static inline void check_input(const void *src, size_t len, const char *fmt, ...)
{
    va_list ap;
    check_in = src;
    check_in_len = len;
    va_start(ap, fmt);
    vsnprintf(check_what, sizeof check_what, fmt, ap);
    va_end(ap);
}

static unsigned long check_failed_here; /* failures since the last implementation switch */

static inline int check_fail_header(const char *file, int line)
{
    check_failed++;
    check_failed_here++;
    if (check_failed_here > CHECK_MAX_REPORTS) {
        if (check_failed_here == CHECK_MAX_REPORTS + 1)
            fprintf(stderr, "(further failures with this implementation are counted, not shown)\n");
        return 0;
    }
    fprintf(stderr, "%s:%d: FAIL [impl %s]", file, line, check_impl);
    if (check_what[0])
        fprintf(stderr, " %s", check_what);
    fprintf(stderr, "\n");
    if (check_in)
        check_dump("input", check_in, check_in_len);
    return 1;
}

static inline int check_true(int ok, const char *file, int line, const char *expr)
{
    if (ok) {
        check_passed++;
        return 1;
    }
    if (check_fail_header(file, line))
        fprintf(stderr, "    expected true: %s\n", expr);
    return 0;
}

static inline int check_eq_u(unsigned long long a, unsigned long long b, const char *file, int line,
                             const char *ea, const char *eb)
{
    if (a == b) {
        check_passed++;
        return 1;
    }
    if (check_fail_header(file, line))
        fprintf(stderr, "    %s == %s: %llu != %llu\n", ea, eb, a, b);
    return 0;
}

static inline int check_str(const char *exp, const char *act, const char *file, int line)
{
    if (exp && act && strcmp(exp, act) == 0) {
        check_passed++;
        return 1;
    }
    if (check_fail_header(file, line))
        fprintf(stderr, "    expected \"%s\", got \"%s\"\n", exp ? exp : "(null)",
                act ? act : "(null)");
    return 0;
}

static inline int check_mem(const void *exp, size_t exp_len, const void *act, size_t act_len,
                            const char *file, int line)
{
    size_t i;
    if (exp_len == act_len && (exp_len == 0 || memcmp(exp, act, exp_len) == 0)) {
        check_passed++;
        return 1;
    }
    if (!check_fail_header(file, line))
        return 0;
    for (i = 0; i < exp_len && i < act_len; i++)
        if (((const unsigned char *)exp)[i] != ((const unsigned char *)act)[i])
            break;
    fprintf(stderr, "    bytes differ at %zu\n", i);
    check_dump("expected", exp, exp_len);
    check_dump("actual", act, act_len);
    return 0;
}

static inline const char *check_status_name(pct_status s)
{
    switch (s) {
    case PCT_OK:
        return "PCT_OK";
    case PCT_INVALID_ESCAPE:
        return "PCT_INVALID_ESCAPE";
    case PCT_INVALID_UTF8:
        return "PCT_INVALID_UTF8";
    case PCT_UNESCAPED_BYTE:
        return "PCT_UNESCAPED_BYTE";
    case PCT_INVALID_ARGUMENT:
        return "PCT_INVALID_ARGUMENT";
    case PCT_REJECTED_BYTE:
        return "PCT_REJECTED_BYTE";
    case PCT_REJECTED_PATH:
        return "PCT_REJECTED_PATH";
    case PCT_NO_SPACE:
        return "PCT_NO_SPACE";
    }
    return "(unknown status)";
}

static inline int check_result(pct_result r, pct_status st, size_t count, const char *file,
                               int line)
{
    if (r.status == st && r.count == count) {
        check_passed++;
        return 1;
    }
    if (check_fail_header(file, line))
        fprintf(stderr, "    expected {%s, %zu}, got {%s, %zu}\n", check_status_name(st), count,
                check_status_name(r.status), r.count);
    return 0;
}

/* One of two acceptable results (used where the contract allows either). */
static inline int check_result2(pct_result r, pct_result a, pct_result b, const char *file,
                                int line)
{
    if ((r.status == a.status && r.count == a.count) ||
        (r.status == b.status && r.count == b.count)) {
        check_passed++;
        return 1;
    }
    if (check_fail_header(file, line))
        fprintf(stderr, "    expected {%s, %zu} or {%s, %zu}, got {%s, %zu}\n",
                check_status_name(a.status), a.count, check_status_name(b.status), b.count,
                check_status_name(r.status), r.count);
    return 0;
}

static inline int check_msg(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        check_passed++;
        return 1;
    }
    if (check_fail_header(file, line)) {
        fprintf(stderr, "    ");
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n");
    }
    return 0;
}

/* Every macro evaluates to 1 on pass, 0 on failure. */
#define CHECK(cond) check_true(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_MSG(cond, ...) check_msg(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ(a, b)                                                                             \
    check_eq_u((unsigned long long)(a), (unsigned long long)(b), __FILE__, __LINE__, #a, #b)
#define CHECK_STR(exp, act) check_str((exp), (act), __FILE__, __LINE__)
#define CHECK_MEM(exp, exp_len, act, act_len)                                                      \
    check_mem((exp), (exp_len), (act), (act_len), __FILE__, __LINE__)
#define CHECK_RESULT(r, st, count) check_result((r), (st), (count), __FILE__, __LINE__)
#define CHECK_RESULT2(r, a, b) check_result2((r), (a), (b), __FILE__, __LINE__)
/* r is PCT_OK and the first r.count bytes of dst are exp[0..exp_len). */
#define CHECK_OUT(r, dst, exp, exp_len) check_out((r), (dst), (exp), (exp_len), __FILE__, __LINE__)

static inline int check_out(pct_result r, const void *dst, const void *exp, size_t exp_len,
                            const char *file, int line)
{
    if (r.status == PCT_OK)
        return check_mem(exp, exp_len, dst, r.count, file, line);
    return check_result(r, PCT_OK, exp_len, file, line);
}

static inline int check_done(void)
{
    if (check_failed)
        fprintf(stderr, "FAILED: %lu checks\n", check_failed);
    printf("%lu passed, %lu failed\n", check_passed, check_failed);
    fflush(stdout);
    return check_failed ? 1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Buffers                                                                   */
/* ------------------------------------------------------------------------ */

/* memcmp/memcpy that accept NULL with n == 0 (zero-size buffers are NULL,
 * as the API allows, and the C library's versions may not see them). */
static inline int mem_cmp(const void *a, const void *b, size_t n)
{
    return n ? memcmp(a, b, n) : 0;
}

static inline void mem_cpy(void *d, const void *s, size_t n)
{
    if (n)
        memcpy(d, s, n);
}

/* Exactly n bytes (so ASan sees any overflow); NULL only for n == 0. */
static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(99);
    }
    if (n == 0) { /* a zero-size buffer: pass NULL, which the API allows */
        free(p);
        return NULL;
    }
    return p;
}

/* A malloc'd copy of exactly n bytes. */
static inline char *xdup(const void *src, size_t n)
{
    char *p = (char *)xmalloc(n);
    mem_cpy(p, src, n);
    return p;
}

#endif /* PCT_TEST_CHECK_H */
