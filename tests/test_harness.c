/* test_harness.c - the test harness itself (tests/support): an
 * implementation that is compiled in but that this CPU cannot run is
 * reported by name as "SKIP <name>: this CPU lacks ..." and not chosen; the
 * knob selects by comma-separated names; the PRNG replays from its seed; a
 * guarded buffer's bytes are all usable. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, setenv */

#include "check.h"
#include "support/guard.h"
#include "support/impls.h"

/* A PCT_CPU_* feature this CPU lacks (one always exists: no CPU has both
 * x86 and AArch64 features), or 0. */
static uint32_t missing_feature(void)
{
    static const uint32_t bits[] = {PCT_CPU_SSE42, PCT_CPU_AVX2, PCT_CPU_AVX512, PCT_CPU_NEON};
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (!(pct_cpu_features() & bits[i]))
            return bits[i];
    return 0;
}

static void test_skip_report(void)
{
    const pct_impl *scalar = test_scalar_impl();
    pct_impl lacking = *scalar, runs = *scalar;
    const pct_impl *table[] = {&lacking, &runs, scalar, NULL};
    const pct_impl *chosen[TEST_MAX_IMPLS];
    char report[1024], names[256];
    lacking.name = "needs-missing";
    lacking.required = missing_feature();
    runs.name = "runs-here";
    check_input(NULL, 0, "an implementation this CPU cannot run");
    if (!CHECK(lacking.required != 0))
        return;
    FILE *f = tmpfile();
    if (!CHECK(f != NULL))
        return;
    unsetenv("PCT_HARNESS_TEST_IMPL");
    const size_t n = test_impls_from(table, f, "> ", "PCT_HARNESS_TEST_IMPL", chosen);
    rewind(f);
    const size_t got = fread(report, 1, sizeof report - 1, f);
    report[got] = '\0';
    fclose(f);
    if (CHECK_EQ(n, 2)) {
        CHECK(chosen[0] == &runs);
        CHECK(chosen[1] == scalar);
    }
    test_cpu_feature_names(lacking.required, names, sizeof names);
    CHECK(names[0] != '\0');
    char want[512];
    snprintf(want, sizeof want, "> SKIP needs-missing: this CPU lacks %s\n", names);
    CHECK_STR(want, report);
    printf("  reported: %s", report);

    /* the knob: comma-separated names, exact matches only */
    check_input(NULL, 0, "PCT_HARNESS_TEST_IMPL=scalar,runs-here");
    setenv("PCT_HARNESS_TEST_IMPL", "scalar,runs-here", 1);
    CHECK(test_impl_selected("PCT_HARNESS_TEST_IMPL", "scalar"));
    CHECK(test_impl_selected("PCT_HARNESS_TEST_IMPL", "runs-here"));
    CHECK(!test_impl_selected("PCT_HARNESS_TEST_IMPL", "runs"));
    CHECK(!test_impl_selected("PCT_HARNESS_TEST_IMPL", "scalar,runs-here"));
    setenv("PCT_HARNESS_TEST_IMPL", "runs-here", 1);
    f = tmpfile();
    if (CHECK(f != NULL)) {
        const size_t m = test_impls_from(table, f, "", "PCT_HARNESS_TEST_IMPL", chosen);
        if (CHECK_EQ(m, 1))
            CHECK(chosen[0] == &runs);
        fclose(f);
    }
    unsetenv("PCT_HARNESS_TEST_IMPL");
    CHECK(test_impl_selected("PCT_HARNESS_TEST_IMPL", "anything"));

    /* a bit no name is known for yet is still shown */
    test_cpu_feature_names(PCT_CPU_AVX512 | (1u << 29), names, sizeof names);
    CHECK_STR("AVX-512 F/BW/VL/VBMI/VBMI2/VPOPCNTDQ with ZMM state saved by the OS, feature bits "
              "0x20000000",
              names);
    /* a short buffer gets what fits, terminated */
    test_cpu_feature_names(PCT_CPU_SSE42 | PCT_CPU_NEON, names, 6);
    CHECK_STR("SSE4.", names);
}

/* Every implementation this CPU runs is chosen, as the library lists them. */
static void test_real_table(void)
{
    const pct_impl *chosen[TEST_MAX_IMPLS];
    size_t n;
    unsetenv("PCT_HARNESS_TEST_IMPL");
    n = test_impls("  ", "PCT_HARNESS_TEST_IMPL", chosen);
    check_input(NULL, 0, "the library's table");
    for (size_t i = 0; i < n; i++)
        CHECK_STR(pct_implementation_name(i), chosen[i]->name);
    CHECK(pct_implementation_name(n) == NULL);
}

static void test_prng_replays(void)
{
    uint64_t a[8], s = 12345, t = 12345;
    check_input(NULL, 0, "PRNG");
    for (size_t i = 0; i < 8; i++)
        a[i] = rng_step(&s);
    for (size_t i = 0; i < 8; i++)
        CHECK_EQ(rng_step(&t), a[i]);
    CHECK(a[0] != a[1]);
}

static void test_guard(void)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    guarded g = guarded_alloc(page + 1);
    check_input(NULL, 0, "guarded_alloc");
    CHECK_EQ(g.size, 2 * page);
    memset(g.data, 0xA5, g.size); /* faults if a usable byte is not */
    CHECK(guarded_place(&g, 10, 1) + 10 == g.data + g.size);
    CHECK(guarded_place(&g, 10, 0) == g.data);
    guarded_free(&g);
}

int main(void)
{
    test_seed("test_harness");
    test_skip_report();
    test_real_table();
    test_prng_replays();
    test_guard();
    return check_done();
}
