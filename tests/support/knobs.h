/* tests/support/knobs.h - the environment knobs every test and fuzzer reads
 *
 *   PCT_TEST_SEED=N    seed of the PRNG (prng.h; default: from the clock)
 *   PCT_TEST_QUICK=1   shrink the loops (sanitizers, qemu)
 *   PCT_TEST_IMPL=name test only that implementation (impls.h)
 */
#ifndef PCT_TEST_SUPPORT_KNOBS_H
#define PCT_TEST_SUPPORT_KNOBS_H

#include <stdlib.h>
#include <string.h>

/* The value of an environment variable, or NULL when unset or empty. */
static inline const char *test_env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static inline int test_quick(void)
{
    const char *q = test_env("PCT_TEST_QUICK");
    return q && strcmp(q, "0") != 0;
}

/* n iterations normally, n/16 (at least 1) in quick mode. */
static inline unsigned long test_iters(unsigned long n)
{
    if (!test_quick())
        return n;
    return n / 16 ? n / 16 : 1;
}

#endif /* PCT_TEST_SUPPORT_KNOBS_H */
