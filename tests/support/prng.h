/* tests/support/prng.h - the one PRNG of the tests and fuzzers (splitmix64).
 * Every random test calls test_seed() first, which prints the seed, so that
 * PCT_TEST_SEED=<that seed> replays the run. */
#ifndef PCT_TEST_SUPPORT_PRNG_H
#define PCT_TEST_SUPPORT_PRNG_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "knobs.h"

/* One step of splitmix64 on a caller's state (the fuzzers keep one per
 * input, seeded from the input itself). */
static inline uint64_t rng_step(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t test_rng_state;

static inline uint64_t rng_next(void)
{
    return rng_step(&test_rng_state);
}

/* Uniform in [0, n) (n > 0; the bias of the modulo is irrelevant here). */
static inline size_t rng_below(size_t n)
{
    return (size_t)(rng_next() % n);
}

static inline int rng_chance(unsigned percent)
{
    return rng_below(100) < percent;
}

/* Seeds the PRNG from PCT_TEST_SEED (or the clock) and prints
 * "<test>: seed N (PCT_TEST_SEED=N reproduces)". */
static inline uint64_t test_seed(const char *test)
{
    const char *s = test_env("PCT_TEST_SEED");
    uint64_t seed;
    if (s)
        seed = strtoull(s, NULL, 0);
    else
        seed = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)clock();
    test_rng_state = seed;
    printf("%s: seed %llu (PCT_TEST_SEED=%llu reproduces)%s\n", test, (unsigned long long)seed,
           (unsigned long long)seed, test_quick() ? ", quick mode" : "");
    fflush(stdout);
    return seed;
}

#endif /* PCT_TEST_SUPPORT_PRNG_H */
