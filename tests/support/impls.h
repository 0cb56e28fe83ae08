/* tests/support/impls.h - which implementations a test or fuzzer runs.
 *
 * The one answer to "does this CPU run this implementation": walk the
 * library's own table (impl.h, every implementation compiled in, best first)
 * and compare each entry's required features with pct_cpu_features(). One
 * that is compiled in but that this CPU cannot run is reported by name,
 * "SKIP <name>: this CPU lacks <features>", and is neither tested nor counted
 * as passing; so is one the knob (PCT_TEST_IMPL, or the fuzzers'
 * PCT_FUZZ_IMPL) leaves out. Needs the internal headers (pct_internal_dep).
 */
#ifndef PCT_TEST_SUPPORT_IMPLS_H
#define PCT_TEST_SUPPORT_IMPLS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "impl.h"
#include "knobs.h"

#define TEST_MAX_IMPLS 16

/* The PCT_CPU_* features impl needs and this CPU (or OS) lacks; 0: it runs. */
static inline uint32_t test_impl_lacks(const pct_impl *impl)
{
    return impl->required & ~pct_cpu_features();
}

/* Appends "[, ]text" to buf (size >= 1); what does not fit is cut. */
static inline void test_append_name(char *buf, size_t size, size_t *used, const char *text)
{
    const char *const parts[2] = {*used ? ", " : "", text};
    for (int p = 0; p < 2; p++)
        for (const char *c = parts[p]; *c && *used + 1 < size; c++)
            buf[(*used)++] = *c;
    buf[*used] = '\0';
}

/* Human names of PCT_CPU_* bits (cpu.c: pct_cpu_feature_name), comma-
 * separated (size >= 1). */
static inline void test_cpu_feature_names(uint32_t bits, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int b = 0; b < 32; b++) {
        const char *name = pct_cpu_feature_name(1u << b);
        if ((bits & (1u << b)) && name) {
            bits &= ~(1u << b);
            test_append_name(buf, size, &used, name);
        }
    }
    if (bits) { /* a feature bit that names no feature */
        char unknown[40];
        snprintf(unknown, sizeof unknown, "feature bits 0x%08x", (unsigned)bits);
        test_append_name(buf, size, &used, unknown);
    }
}

/* Is name in the comma-separated list of the environment variable knob
 * (unset or empty: every name is)? */
static inline int test_impl_selected(const char *knob, const char *name)
{
    const char *only = test_env(knob);
    const size_t n = strlen(name);
    if (only == NULL)
        return 1;
    for (const char *p = only; *p;) {
        const size_t k = strcspn(p, ",");
        if (k == n && strncmp(p, name, n) == 0)
            return 1;
        p += k;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* Fills impls (room for TEST_MAX_IMPLS) with the entries of table (NULL-
 * terminated, e.g. pct_impl_table) that this CPU runs and knob selects, in
 * table order, and prints a SKIP line to report, starting with prefix, for
 * every other entry. Returns how many were chosen. */
static inline size_t test_impls_from(const pct_impl *const *table, FILE *report, const char *prefix,
                                     const char *knob, const pct_impl **impls)
{
    size_t n = 0;
    for (size_t i = 0; table[i]; i++) {
        const pct_impl *impl = table[i];
        const uint32_t lacks = test_impl_lacks(impl);
        if (lacks) {
            char names[256];
            test_cpu_feature_names(lacks, names, sizeof names);
            fprintf(report, "%sSKIP %s: this CPU lacks %s\n", prefix, impl->name, names);
        } else if (!test_impl_selected(knob, impl->name)) {
            fprintf(report, "%sSKIP %s: not selected by %s=%s\n", prefix, impl->name, knob,
                    test_env(knob));
        } else if (n < TEST_MAX_IMPLS) {
            impls[n++] = impl;
        }
    }
    fflush(report);
    return n;
}

static inline size_t test_impls(const char *prefix, const char *knob, const pct_impl **impls)
{
    return test_impls_from(pct_impl_table, stdout, prefix, knob, impls);
}

/* The scalar reference (it requires nothing, so it always runs). */
static inline const pct_impl *test_scalar_impl(void)
{
    for (size_t i = 0; pct_impl_table[i]; i++)
        if (strcmp(pct_impl_table[i]->name, "scalar") == 0)
            return pct_impl_table[i];
    fprintf(stderr, "no scalar implementation in pct_impl_table\n");
    exit(99);
}

#endif /* PCT_TEST_SUPPORT_IMPLS_H */
