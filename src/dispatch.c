/* dispatch.c - choosing the implementation, once.
 *
 * The table lists every implementation compiled in, best first; the first one
 * whose required CPU features are all present wins. The choice is published
 * with one atomic pointer: the first call resolves it (cpuid runs once, in
 * cpu.c), every later call is a single load. pct_use_implementation() swaps
 * the pointer; nothing else ever writes it.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "impl.h"
#include "pct_impls.h"

static const pct_impl scalar_impl = {
    .name = "scalar",
    .required = 0,
    .find = pct_scalar_find,
    .encode_length = pct_scalar_encode_length,
    .encode = pct_scalar_encode,
    .decode = pct_scalar_decode,
    .validate = pct_scalar_validate,
    .validate_utf8 = pct_scalar_validate_utf8,
    .find_all = pct_scalar_find_all,
    .batch_offsets = pct_scalar_batch_offsets,
};

/* PCT_IMPLEMENTATIONS lists the SIMD implementations built, best first
 * (generated from the list in src/meson.build). */
#define PCT_IMPL(name) extern const pct_impl pct_##name##_impl;
PCT_IMPLEMENTATIONS
#ifdef PCT_WITH_TEST_IMPLEMENTATIONS
PCT_TEST_IMPLEMENTATIONS
#endif
#undef PCT_IMPL

/* The macros expand to table entries, which clang-format cannot see. */
/* clang-format off */
const pct_impl *const pct_impl_table[] = {
#define PCT_IMPL(name) &pct_##name##_impl,
    PCT_IMPLEMENTATIONS
    &scalar_impl,
#ifdef PCT_WITH_TEST_IMPLEMENTATIONS
    /* Built for the tests only and never chosen as the best (after scalar). */
    PCT_TEST_IMPLEMENTATIONS
#endif
#undef PCT_IMPL
    NULL,
};
/* clang-format on */

_Atomic(const pct_impl *) pct_chosen_impl;

static int runs_here(const pct_impl *impl)
{
    return (pct_cpu_features() & impl->required) == impl->required;
}

const pct_impl *pct_impl_by_name(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; pct_impl_table[i]; i++)
        if (strcmp(pct_impl_table[i]->name, name) == 0 && runs_here(pct_impl_table[i]))
            return pct_impl_table[i];
    return NULL;
}

static const pct_impl *best_impl(void)
{
    for (size_t i = 0; pct_impl_table[i]; i++)
        if (runs_here(pct_impl_table[i]))
            return pct_impl_table[i];
    return &scalar_impl; /* requires nothing: always runs */
}

const pct_impl *pct_choose_impl(void)
{
    const pct_impl *impl = best_impl();
    const char *forced = getenv("PCT_IMPL");
    int unknown = 0;
    if (forced != NULL && *forced != '\0') {
        const pct_impl *named = pct_impl_by_name(forced);
        if (named)
            impl = named;
        else
            unknown = 1;
    }
    const pct_impl *expected = NULL;
    if (!atomic_compare_exchange_strong(&pct_chosen_impl, &expected, impl))
        return expected; /* another thread chose first (or pct_use_implementation ran) */
    if (unknown)
        fprintf(stderr,
                "libpct: PCT_IMPL=%s names no implementation this build and CPU can run; "
                "using %s\n",
                forced, impl->name);
    return impl;
}

const char *pct_implementation(void)
{
    return pct_active_impl()->name;
}

int pct_use_implementation(const char *name)
{
    const pct_impl *impl = pct_impl_by_name(name);
    if (impl == NULL)
        return -1;
    atomic_store_explicit(&pct_chosen_impl, impl, memory_order_release);
    return 0;
}

const char *pct_implementation_name(size_t i)
{
    for (size_t k = 0; pct_impl_table[k]; k++) {
        if (!runs_here(pct_impl_table[k]))
            continue;
        if (i-- == 0)
            return pct_impl_table[k]->name;
    }
    return NULL;
}
