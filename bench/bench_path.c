/* bench_path.c - micro-benchmark of pct_normalize_path (and pct_iri_to_uri,
 * pct_uri_to_iri) on typical request targets of 20-200 bytes, then of
 * pct_normalize_path and pct_normalize_path_v2 (default and nginx presets,
 * report off and on) on a REST path and on a generated 2 KiB path (an escape
 * every ~30 bytes, a few dot segments) beside memcpy of the same length.
 * Prints ns per call (the best of 5 rounds) and GB/s; asserts nothing about
 * timing.
 *
 * Usage: bench_path [SECONDS_PER_CASE]   (default 0.3)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pct.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const targets[] = {
    "/index.html?lang=en",
    "/api/v1/users/12345/profile",
    "/static/js/app.min.js?v=3f2a9c1b",
    "/a/b/c/./../../g/%7Euser/file%20name.txt",
    "/images/2024/03/photo%20of%20the%20day.jpg?w=800&h=600&fit=crop",
    "/search?q=percent+encoding&page=2&sort=relevance&filter=recent#results",
    "/api/v2/orders/ORD-2024-000123/items/42/reviews?include=author,images&limit=50",
    "/assets/../../../etc/passwd/%2e%2e/%2E%2E/%2e%2e/shadow//x",
    "/wiki/%E6%97%A5%E6%9C%AC%E8%AA%9E/%D0%A0%D0%BE%D1%81%D1%81%D0%B8%D1%8F/"
    "%C3%A9t%C3%A9?action=edit&section=3",
    "/very/long/path/with/many/segments/that/a/typical/rest/api/might/have/for/"
    "nested/resources/and/collections/v1/items/123/sub/456/detail?fields=a,b,c&expand=true",
};

#define COUNT (sizeof targets / sizeof targets[0])

static volatile size_t sink;

typedef enum {
    OP_PATH,
    OP_TO_IRI,
    OP_TO_URI,
    OP_PATH_V2,
    OP_PATH_V2_REPORT,
    OP_MEMCPY
} op;

enum {
    LONG_PATH = 2048
};

/* The v2 policy of OP_PATH_V2 and OP_PATH_V2_REPORT. */
static pct_path_policy_v2 policy_v2;

/* One timed round: ns per call. */
static double round_ns(op which, const pct_path_policy *policy, const char *t, size_t len,
                       double seconds)
{
    static char out[LONG_PATH];
    unsigned long calls = 0, batch = 1000;
    double start = now(), elapsed;
    do {
        for (unsigned long k = 0; k < batch; k++) {
            pct_result r;
            pct_path_report report;
            if (which == OP_PATH) {
                r = pct_normalize_path(t, len, out, policy);
            } else if (which == OP_TO_IRI) {
                r = pct_uri_to_iri(t, len, out);
            } else if (which == OP_TO_URI) {
                r = pct_iri_to_uri(t, len, out);
            } else if (which == OP_PATH_V2) {
                r = pct_normalize_path_v2(t, len, out, &policy_v2, NULL);
            } else if (which == OP_PATH_V2_REPORT) {
                r = pct_normalize_path_v2(t, len, out, &policy_v2, &report);
                r.count += report.changes;
            } else {
                memcpy(out, t, len);
                r.count = (size_t)out[k % len];
            }
            sink += r.count;
        }
        calls += batch;
        elapsed = now() - start;
    } while (elapsed < seconds);
    return elapsed * 1e9 / (double)calls;
}

/* The best of 5 rounds: the machine's noise only ever adds time. */
static double measure(op which, const pct_path_policy *policy, const char *t, size_t len,
                      double seconds)
{
    double best = round_ns(which, policy, t, len, seconds / 5);
    for (int k = 1; k < 5; k++) {
        double ns = round_ns(which, policy, t, len, seconds / 5);
        best = ns < best ? ns : best;
    }
    return best;
}

/* A 2 KiB path, the same on every run: segments of 4-24 bytes of letters
 * and digits, an escape every ~30 bytes (unreserved, space, slash, lower-case
 * hex), and a "." or ".." segment every ~400 bytes. */
static size_t long_path(char *p, size_t size)
{
    static const char *const escapes[] = {"%7E", "%20", "%2F", "%c3%a9", "%41"};
    static const char *const dots[] = {"/.", "/..", "/%2e%2e", "/%2E"};
    uint32_t x = 12345;
    size_t n = 0, next_escape = 30, next_dots = 400, e = 0, d = 0;
    while (n + 32 < size) {
        p[n++] = '/';
        x = x * 1103515245u + 12345u;
        for (size_t k = 4 + (x >> 16) % 21; k > 0; k--) {
            x = x * 1103515245u + 12345u;
            p[n++] = "abcdefghijklmnopqrstuvwxyz0123456789"[(x >> 16) % 36];
            if (n >= next_escape) {
                const char *esc = escapes[e++ % 5];
                memcpy(p + n, esc, strlen(esc));
                n += strlen(esc);
                next_escape = n + 30;
            }
        }
        if (n >= next_dots) {
            const char *dot = dots[d++ % 4];
            memcpy(p + n, dot, strlen(dot));
            n += strlen(dot);
            next_dots = n + 400;
        }
    }
    return n;
}

/* pct_normalize_path(_v2) with the default and nginx presets on one input. */
static void api_rows(const char *label, const char *t, size_t len, double seconds)
{
    static const char *const names[] = {"default", "nginx"};
    const double copy = measure(OP_MEMCPY, NULL, t, len, seconds);
    for (size_t p = 0; p < 2; p++) {
        static const char *const apis[] = {"v1", "v2", "v2+report"};
        static const op ops[] = {OP_PATH, OP_PATH_V2, OP_PATH_V2_REPORT};
        pct_path_policy_v2_init(&policy_v2, names[p]);
        for (size_t a = 0; a < 3; a++) {
            const double ns = measure(ops[a], pct_path_policy_by_name(names[p]), t, len, seconds);
            printf("%-10s %6zu  %-8s %-10s %9.1f %8.2f %8.2fx\n", label, len, names[p], apis[a], ns,
                   (double)len / ns, copy / ns);
        }
    }
    printf("%-10s %6zu  %-8s %-10s %9.1f %8.2f %8.2fx\n", label, len, "-", "memcpy", copy,
           (double)len / copy, 1.0);
}

int main(int argc, char **argv)
{
    const double seconds = argc > 1 ? atof(argv[1]) : 0.3;
    static const char *const policies[] = {"default", "nginx", "envoy", "apache"};
    printf("pct %s, implementation %s\n", pct_version(), pct_implementation());
    printf("%-6s %-60s %9s %9s %9s %9s %9s\n", "bytes", "target", "default", "nginx", "envoy",
           "apache", "uri2iri");
    for (size_t i = 0; i < COUNT; i++) {
        const size_t len = strlen(targets[i]);
        printf("%-6zu %-60.60s", len, targets[i]);
        for (size_t p = 0; p < 4; p++)
            printf(" %9.1f", measure(OP_PATH, pct_path_policy_by_name(policies[p]), targets[i], len,
                                     seconds));
        printf(" %9.1f\n", measure(OP_TO_IRI, NULL, targets[i], len, seconds));
    }
    /* IRI to URI on the decoded form of the non-ASCII target */
    {
        const char *t = targets[8];
        char iri[256];
        pct_result r = pct_uri_to_iri(t, strlen(t), iri);
        printf("iri-to-uri, %zu bytes: %.1f ns/call\n", r.count,
               measure(OP_TO_URI, NULL, iri, r.count, seconds));
    }
    printf("(ns per call)\n\n");

    /* vs memcpy: memcpy's time over the call's (1.00x: as fast as a copy) */
    printf("%-10s %6s  %-8s %-10s %9s %8s %9s\n", "input", "bytes", "preset", "api", "ns/call",
           "GB/s", "vs memcpy");
    const char *rest = targets[1];
    api_rows("rest", rest, strlen(rest), seconds);
    static char long_target[LONG_PATH];
    api_rows("long", long_target, long_path(long_target, sizeof long_target), seconds);
    return 0;
}
