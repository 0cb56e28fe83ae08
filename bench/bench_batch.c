/* bench_batch.c - the batch API against one-buffer decoding of the same bytes.
 *
 *   bench_batch [STRINGS [ESCAPE_PERCENT [REPS]]]
 *
 * STRINGS (default 100000) strings of 20-100 bytes, about ESCAPE_PERCENT
 * (default 3) of their bytes the start of an escape; decoded as one buffer
 * (pct_decode), as a batch (pct_decode_batch32, pct_decode_batch64) and by
 * one pct_decode call per string, for each implementation, interleaved, REPS
 * (default 11) times; prints the medians in GB/s (input bytes) and the batch
 * to one-buffer ratio. Timings on a shared machine are noisy: compare the
 * ratios, measured in the same process. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pct.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(rng_state >> 33);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum {
    KINDS = 4,
    MAX_REPS = 101
};

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
    unsigned esc = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 3;
    int reps = argc > 3 ? atoi(argv[3]) : 11;
    if (n == 0 || reps < 1 || reps > MAX_REPS)
        return 2;
    static const char alpha[] = "abcdefghijklmnopqrstuvwxyz0123456789/-._=&";
    static const char *const escapes[] = {"%20", "%2F", "%C3%A9", "%E2%82%AC", "%3D"};
    char *data = malloc(n * 100), *out = malloc(n * 100);
    int32_t *off32 = malloc((n + 1) * sizeof *off32), *out32 = malloc((n + 1) * sizeof *out32);
    int64_t *off64 = malloc((n + 1) * sizeof *off64), *out64 = malloc((n + 1) * sizeof *out64);
    pct_result *res = malloc(n * sizeof *res);
    if (!data || !out || !off32 || !out32 || !off64 || !out64 || !res)
        return 1;
    size_t pos = 0;
    off32[0] = 0;
    off64[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = 20 + rng() % 81, end = pos + len;
        while (pos < end) {
            const char *e = escapes[rng() % 5];
            if (rng() % 100 < esc && pos + strlen(e) <= end) {
                memcpy(data + pos, e, strlen(e));
                pos += strlen(e);
            } else {
                data[pos++] = alpha[rng() % (sizeof alpha - 1)];
            }
        }
        off32[i + 1] = (int32_t)pos;
        off64[i + 1] = (int64_t)pos;
    }
    memset(out, 0, pos);
    printf("%zu strings of 20-100 bytes, %zu bytes, ~%u%% escapes; medians of %d runs, GB/s\n", n,
           pos, esc, reps);
    printf("%-8s %8s %8s %8s %8s %14s\n", "impl", "one", "batch32", "batch64", "per-call",
           "batch32/one");
    for (size_t k = 0; pct_implementation_name(k) != NULL; k++) {
        const char *name = pct_implementation_name(k);
        if (pct_use_implementation(name) != 0)
            continue;
        double t[KINDS][MAX_REPS];
        for (int r = 0; r < reps; r++) {
            for (int kind = 0; kind < KINDS; kind++) {
                const double t0 = now();
                pct_result x = {PCT_OK, 0};
                if (kind == 0) {
                    x = pct_decode(data, pos, out, 0);
                } else if (kind == 1) {
                    x = pct_decode_batch32(data, off32, n, out, pos, out32, res, NULL, 0);
                } else if (kind == 2) {
                    x = pct_decode_batch64(data, off64, n, out, pos, out64, res, NULL, 0);
                } else {
                    size_t o = 0;
                    for (size_t i = 0; i < n; i++)
                        o += pct_decode(data + off32[i], (size_t)(off32[i + 1] - off32[i]), out + o,
                                        0)
                                 .count;
                    x.count = o;
                }
                t[kind][r] = now() - t0;
                if (x.status != PCT_OK)
                    return 1;
            }
        }
        double med[KINDS];
        for (int kind = 0; kind < KINDS; kind++) {
            qsort(t[kind], (size_t)reps, sizeof(double), cmp_double);
            med[kind] = t[kind][reps / 2];
        }
        printf("%-8s %8.2f %8.2f %8.2f %8.2f %14.2f\n", name, (double)pos / med[0] / 1e9,
               (double)pos / med[1] / 1e9, (double)pos / med[2] / 1e9, (double)pos / med[3] / 1e9,
               med[0] / med[1]);
    }
    return 0;
}
