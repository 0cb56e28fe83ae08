/* bench_path.c - micro-benchmark of pct_normalize_path (and pct_iri_to_uri,
 * pct_uri_to_iri) on typical request targets of 20-200 bytes. Prints ns per
 * call (the best of 5 rounds); asserts nothing about timing.
 *
 * Usage: bench_path [SECONDS_PER_CASE]   (default 0.3)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

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
    OP_TO_URI
} op;

/* One timed round: ns per call. */
static double round_ns(op which, const pct_path_policy *policy, const char *t, size_t len,
                       double seconds)
{
    char out[1024];
    unsigned long calls = 0, batch = 1000;
    double start = now(), elapsed;
    do {
        for (unsigned long k = 0; k < batch; k++) {
            pct_result r;
            if (which == OP_PATH)
                r = pct_normalize_path(t, len, out, policy);
            else if (which == OP_TO_IRI)
                r = pct_uri_to_iri(t, len, out);
            else
                r = pct_iri_to_uri(t, len, out);
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
    printf("(ns per call)\n");
    return 0;
}
