/* check_impls.h - a unit test's body once per implementation: those
 * support/impls.h chooses (every one this CPU runs, or PCT_TEST_IMPL's),
 * switched to through the public pct_use_implementation. */
#ifndef PCT_TEST_CHECK_IMPLS_H
#define PCT_TEST_CHECK_IMPLS_H

#include "check.h"
#include "support/impls.h"

static const pct_impl *check_impls[TEST_MAX_IMPLS];
static size_t check_n_impls = (size_t)-1; /* not chosen yet */

/* Switches to the i-th chosen implementation and returns i, or (size_t)-1
 * past the last one. */
static inline size_t check_next_impl(size_t i)
{
    if (check_n_impls == (size_t)-1) {
        check_n_impls = test_impls("  ", "PCT_TEST_IMPL", check_impls);
        /* a PCT_TEST_IMPL that names nothing runnable must not look green */
        CHECK_MSG(check_n_impls > 0, "no implementation to test (PCT_TEST_IMPL=%s)",
                  test_env("PCT_TEST_IMPL") ? test_env("PCT_TEST_IMPL") : "");
    }
    if (i >= check_n_impls) {
        check_impl = "-";
        return (size_t)-1;
    }
    const char *name = check_impls[i]->name;
    check_input(NULL, 0, "%s", "");
    check_impl = name;
    check_failed_here = 0;
    if (CHECK_MSG(pct_use_implementation(name) == 0, "pct_use_implementation(\"%s\") failed", name))
        CHECK_STR(name, pct_implementation());
    /* (never NULL; said so for gcc 12, which sees a NULL where the table
     * holds only scalar, as on s390x) */
    printf("  implementation %s\n", name ? name : "?");
    fflush(stdout);
    return i;
}

/* for (FOR_EACH_IMPL(k)) { ... }: the body runs once per implementation. */
#define FOR_EACH_IMPL(k)                                                                           \
    size_t k = 0;                                                                                  \
    (k = check_next_impl(k)) != (size_t)-1;                                                        \
    k++

#endif /* PCT_TEST_CHECK_IMPLS_H */
