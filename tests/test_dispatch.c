/* test_dispatch.c - implementation selection: pct_implementation,
 * pct_implementation_name, pct_use_implementation, pct_version; the PCT_IMPL
 * environment variable (read on first use: checked in forked children that
 * set it before their first call, with stdout/stderr captured); and a
 * multi-threaded smoke test where workers decode/encode/validate while
 * another thread keeps switching implementations. POSIX (fork, pthreads). */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pct.h"

/* ------------------------------------------------------------------------ */
/* Children with PCT_IMPL set before their first call                        */
/* ------------------------------------------------------------------------ */

typedef struct child_out {
    char out[1024];
    char err[1024];
    int status; /* exit status, or -1 */
} child_out;

static void read_all(FILE *f, char *buf, size_t cap)
{
    size_t n;
    rewind(f);
    n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
}

/* mode 0: print pct_implementation() and every listed name, one per line.
 * mode 1: first call pct_decode, then print pct_implementation(). */
static child_out run_child(const char *impl_env, int mode)
{
    child_out c;
    FILE *fo = tmpfile(), *fe = tmpfile();
    pid_t pid;
    int wst;
    memset(&c, 0, sizeof c);
    c.status = -1;
    if (!fo || !fe) {
        perror("tmpfile");
        return c;
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return c;
    }
    if (pid == 0) {
        size_t i;
        if (impl_env)
            setenv("PCT_IMPL", impl_env, 1);
        else
            unsetenv("PCT_IMPL");
        dup2(fileno(fo), 1);
        dup2(fileno(fe), 2);
        if (mode == 1) {
            char dst[8];
            pct_result r = pct_decode("%41", 3, dst, 0);
            if (r.status != PCT_OK || r.count != 1 || dst[0] != 'A')
                _exit(3);
        }
        printf("%s\n", pct_implementation());
        if (mode == 0)
            for (i = 0; pct_implementation_name(i); i++)
                printf("%s\n", pct_implementation_name(i));
        fflush(stdout);
        fflush(stderr);
        _exit(0);
    }
    if (waitpid(pid, &wst, 0) == pid && WIFEXITED(wst))
        c.status = WEXITSTATUS(wst);
    read_all(fo, c.out, sizeof c.out);
    read_all(fe, c.err, sizeof c.err);
    fclose(fo);
    fclose(fe);
    return c;
}

/* The first line of s, copied into line. */
static void first_line(const char *s, char *line, size_t cap)
{
    size_t n = strcspn(s, "\n");
    if (n >= cap)
        n = cap - 1;
    mem_cpy(line, s, n);
    line[n] = 0;
}

static void env_variable(void)
{
    child_out c = run_child(NULL, 0);
    char best[64], names[16][64], line[64];
    size_t n = 0, i;
    const char *p;

    check_input(NULL, 0, "child without PCT_IMPL");
    if (!CHECK_EQ(c.status, 0))
        return;
    first_line(c.out, best, sizeof best);
    for (p = strchr(c.out, '\n'); p && p[1] && n < 16; p = strchr(p + 1, '\n'))
        first_line(p + 1, names[n++], sizeof names[0]);
    printf("  default implementation: %s; listed:", best);
    for (i = 0; i < n; i++)
        printf(" %s", names[i]);
    printf("\n");
    if (!CHECK(n >= 1))
        return;
    CHECK_STR(names[0], best); /* the best one is chosen */
    CHECK_STR("", c.err);      /* silently */

    /* PCT_IMPL=<each listed name> */
    for (i = 0; i < n; i++) {
        check_input(names[i], strlen(names[i]), "child with PCT_IMPL=%s", names[i]);
        c = run_child(names[i], 0);
        first_line(c.out, line, sizeof line);
        CHECK_EQ(c.status, 0);
        CHECK_STR(names[i], line);
        CHECK_STR("", c.err);
    }
    /* the variable applies whatever the first call is */
    check_input(NULL, 0, "child with PCT_IMPL=scalar, decode first");
    c = run_child("scalar", 1);
    first_line(c.out, line, sizeof line);
    CHECK_EQ(c.status, 0);
    CHECK_STR("scalar", line);
    CHECK_STR("", c.err);
    /* unknown or unavailable: reported on stderr, the best one is used */
    {
        const char *bad[] = {"bogus", "avx2", "sse42", "neon", "avx512"};
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            size_t j;
            int listed = 0;
            for (j = 0; j < n; j++)
                listed |= strcmp(bad[i], names[j]) == 0;
            if (listed)
                continue; /* available here */
            check_input(bad[i], strlen(bad[i]), "child with PCT_IMPL=%s", bad[i]);
            c = run_child(bad[i], 0);
            first_line(c.out, line, sizeof line);
            CHECK_EQ(c.status, 0);
            CHECK_STR(best, line);
            CHECK_MSG(c.err[0] != 0, "nothing on stderr for PCT_IMPL=%s", bad[i]);
            if (i == 0)
                printf("  PCT_IMPL=bogus: stderr says: %s", c.err);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* In-process API                                                            */
/* ------------------------------------------------------------------------ */

static void api(void)
{
    int maj = -1, min = -1, pat = -1;
    size_t n, i, j;
    const char *cur;
    char dst[8];
    pct_result r;

    check_input(NULL, 0, "pct_version");
    CHECK_STR(PCT_VERSION_STRING, pct_version());
    CHECK_EQ(sscanf(pct_version(), "%d.%d.%d", &maj, &min, &pat), 3);
    CHECK_EQ(maj, PCT_VERSION_MAJOR);
    CHECK_EQ(min, PCT_VERSION_MINOR);
    CHECK_EQ(pat, PCT_VERSION_PATCH);
    CHECK(PCT_VERSION_NUMBER ==
          PCT_MAKE_VERSION(PCT_VERSION_MAJOR, PCT_VERSION_MINOR, PCT_VERSION_PATCH));
    CHECK(PCT_VERSION_NUMBER >= PCT_MAKE_VERSION(0, 1, 0));
    CHECK(PCT_MAKE_VERSION(1, 0, 0) > PCT_MAKE_VERSION(0, 99, 99));

    check_input(NULL, 0, "implementation list");
    cur = pct_implementation();
    CHECK(cur != NULL);
    for (n = 0; pct_implementation_name(n); n++)
        ;
    CHECK(n >= 1);
    CHECK(pct_implementation_name(n) == NULL);
    CHECK(pct_implementation_name(n + 1000) == NULL);
    if (cur && n) {
        /* the best one, unless the environment of this run names another */
        const char *forced = getenv("PCT_IMPL"), *want = pct_implementation_name(0);
        for (i = 0; forced && *forced && i < n; i++)
            if (strcmp(forced, pct_implementation_name(i)) == 0)
                want = forced;
        CHECK_STR(want, cur);
    }
    {
        int listed = 0, scalar = 0;
        for (i = 0; i < n; i++) {
            const char *a = pct_implementation_name(i);
            listed |= cur && strcmp(a, cur) == 0;
            scalar |= strcmp(a, "scalar") == 0;
            for (j = 0; j < i; j++)
                CHECK(strcmp(a, pct_implementation_name(j)) != 0); /* unique */
        }
        CHECK(listed);
        CHECK(scalar); /* the reference runs everywhere */
    }
    for (i = 0; i < n; i++) {
        const char *a = pct_implementation_name(i);
        check_input(a, strlen(a), "pct_use_implementation(%s)", a);
        CHECK_EQ(pct_use_implementation(a), 0);
        CHECK_STR(a, pct_implementation());
        r = pct_decode("%41%e9", 6, dst, 0);
        CHECK_RESULT(r, PCT_OK, 2);
        CHECK_MEM("A\xE9", 2, dst, 2);
        /* unknown names change nothing */
        CHECK_EQ(pct_use_implementation("bogus"), -1);
        CHECK_STR(a, pct_implementation());
        CHECK_EQ(pct_use_implementation(""), -1);
        CHECK_STR(a, pct_implementation());
    }
    /* a compiled-in but unavailable name also returns -1 */
    {
        const char *maybe[] = {"avx2", "sse42", "neon", "avx512"};
        for (i = 0; i < sizeof maybe / sizeof maybe[0]; i++) {
            int listed = 0;
            for (j = 0; j < n; j++)
                listed |= strcmp(maybe[i], pct_implementation_name(j)) == 0;
            if (!listed) {
                check_input(maybe[i], strlen(maybe[i]), "pct_use_implementation(unlisted)");
                CHECK_EQ(pct_use_implementation(maybe[i]), -1);
            }
        }
    }
    pct_use_implementation(pct_implementation_name(0));
}

/* ------------------------------------------------------------------------ */
/* Threads                                                                   */
/* ------------------------------------------------------------------------ */

enum {
    NCASES = 64,
    MAXIN = 300,
    NWORKERS = 3
};

static struct tcase {
    char in[MAXIN];
    size_t len;
    char dec[3 * MAXIN];
    pct_result rdec;
    char enc[3 * MAXIN];
    pct_result renc;
    pct_result rval;
} cases[NCASES];

static atomic_int workers_done;
/* Set by the switcher after its first switch: the workers wait for it, so that
   switches happen during their calls even when the scheduler runs the switcher
   late (2 CPUs, sanitizers). */
static atomic_int switcher_running;

struct worker {
    unsigned long iters, mismatches;
    uint64_t seed;
};

static void *worker_main(void *arg)
{
    struct worker *w = (struct worker *)arg;
    char dst[3 * MAXIN];
    unsigned long it;
    uint64_t s = w->seed;
    while (!atomic_load(&switcher_running))
        sched_yield();
    for (it = 0; it < w->iters; it++) {
        struct tcase *c;
        pct_result r;
        c = &cases[rng_step(&s) % NCASES]; /* per-thread state: no data race */
        r = pct_decode(c->in, c->len, dst, PCT_PLUS | PCT_UTF8_REPLACE);
        if (r.status != c->rdec.status || r.count != c->rdec.count ||
            mem_cmp(dst, c->dec, r.count) != 0)
            w->mismatches++;
        r = pct_encode(c->in, c->len, dst, &pct_set_form, PCT_PLUS);
        if (r.status != c->renc.status || r.count != c->renc.count ||
            mem_cmp(dst, c->enc, r.count) != 0)
            w->mismatches++;
        r = pct_validate(c->in, c->len, &pct_set_path, PCT_UTF8);
        if (r.status != c->rval.status || r.count != c->rval.count)
            w->mismatches++;
    }
    return NULL;
}

static void *switcher_main(void *arg)
{
    unsigned long *switches = (unsigned long *)arg;
    size_t i = 0;
    while (!atomic_load(&workers_done)) {
        const char *name = pct_implementation_name(i);
        if (!name) {
            i = 0;
            continue;
        }
        if (pct_use_implementation(name) != 0)
            switches[1]++; /* failures */
        switches[0]++;
        atomic_store(&switcher_running, 1);
        i++;
    }
    return NULL;
}

static void threads(void)
{
    pthread_t tw[NWORKERS], ts;
    struct worker w[NWORKERS];
    unsigned long switches[2] = {0, 0}, total = 0;
    size_t i, k;

    pct_use_implementation("scalar"); /* expected results from the reference */
    for (i = 0; i < NCASES; i++) {
        struct tcase *c = &cases[i];
        c->len = rng_below(MAXIN);
        for (k = 0; k < c->len; k++)
            c->in[k] = "%%%41e9+ aZ\xC3\xA9\x80%E2%82%AC/"[rng_below(19)];
        c->rdec = pct_decode(c->in, c->len, c->dec, PCT_PLUS | PCT_UTF8_REPLACE);
        c->renc = pct_encode(c->in, c->len, c->enc, &pct_set_form, PCT_PLUS);
        c->rval = pct_validate(c->in, c->len, &pct_set_path, PCT_UTF8);
    }
    atomic_store(&workers_done, 0);
    atomic_store(&switcher_running, 0);
    if (pthread_create(&ts, NULL, switcher_main, switches) != 0) {
        CHECK_MSG(0, "pthread_create failed");
        return;
    }
    for (i = 0; i < NWORKERS; i++) {
        w[i].iters = test_iters(20000);
        w[i].mismatches = 0;
        w[i].seed = rng_next();
        if (pthread_create(&tw[i], NULL, worker_main, &w[i]) != 0)
            w[i].iters = 0;
    }
    for (i = 0; i < NWORKERS; i++) {
        pthread_join(tw[i], NULL);
        total += w[i].mismatches;
    }
    atomic_store(&workers_done, 1);
    pthread_join(ts, NULL);
    check_input(NULL, 0, "threads");
    printf("  threads: %lu implementation switches during %d x %lu calls\n", switches[0], NWORKERS,
           3 * test_iters(20000));
    CHECK_EQ(total, 0);
    CHECK_EQ(switches[1], 0);
    CHECK(switches[0] > 0);
}

int main(void)
{
    /* first, before this process makes any call: children with PCT_IMPL */
    env_variable();
    test_seed("test_dispatch");
    api();
    threads();
    return check_done();
}
