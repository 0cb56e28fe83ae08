/* tests/support/guard.h - buffers between two PROT_NONE pages, so that a read
 * or write one byte outside them faults at once, in optimized builds without
 * sanitizers too. POSIX (mmap); the including file defines _DEFAULT_SOURCE
 * (glibc's MAP_ANONYMOUS) before any system header. */
#ifndef PCT_TEST_SUPPORT_GUARD_H
#define PCT_TEST_SUPPORT_GUARD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(MAP_ANONYMOUS)
#define TEST_MAP_ANON MAP_ANONYMOUS
#else
#define TEST_MAP_ANON MAP_ANON
#endif

typedef struct guarded {
    uint8_t *data; /* size accessible bytes, right after a guard page */
    size_t size;   /* what was asked for, rounded up to whole pages */
    uint8_t *map;
    size_t map_len;
} guarded;

/* [guard page][size rounded up to pages, at least one][guard page] */
static inline guarded guarded_alloc(size_t size)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (size + page - 1) / page * page;
    guarded g;
    if (body == 0)
        body = page;
    g.size = body;
    g.map_len = body + 2 * page;
    g.map = (uint8_t *)mmap(NULL, g.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | TEST_MAP_ANON,
                            -1, 0);
    if (g.map == MAP_FAILED || mprotect(g.map, page, PROT_NONE) != 0 ||
        mprotect(g.map + page + body, page, PROT_NONE) != 0) {
        perror("guarded_alloc: mmap/mprotect");
        exit(99);
    }
    g.data = g.map + page;
    return g;
}

static inline void guarded_free(guarded *g)
{
    munmap(g->map, g->map_len);
    g->data = g->map = NULL;
    g->size = g->map_len = 0;
}

/* Where n bytes (n <= g->size) sit flush against the guard page after the
 * region (at_end) or right after the one before it. */
static inline uint8_t *guarded_place(const guarded *g, size_t n, int at_end)
{
    return at_end ? g->data + g->size - n : g->data;
}

#endif /* PCT_TEST_SUPPORT_GUARD_H */
