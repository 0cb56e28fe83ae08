/* log_pipeline.c - reading inputs and running the decoding in parallel.
 *
 * The input (mmap'd file, or large read(2)s for pipes) is cut at line
 * boundaries into chunks; worker threads decode chunks into per-chunk output
 * buffers; the main thread hands out chunks and writes finished ones in input
 * order. Memory is bounded by the number of chunks in flight. Progress is
 * shown as chunks are written.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise (glibc); guarded below */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log_pipeline.h"

static void format_bytes(char *text, size_t size, double bytes)
{
    const char *units[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000 && u < 4) {
        bytes /= 1000;
        u++;
    }
    snprintf(text, size, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

void show_progress(struct pipeline *pl, int final)
{
    double t = now_seconds();
    if (!final && t - pl->run.last_progress < 0.1)
        return;
    pl->run.last_progress = t;
    double done = (double)pl->run.total.bytes, total = (double)pl->run.size_known;
    double elapsed = t - pl->run.start, rate = elapsed > 0 ? done / elapsed : 0;
    double frac = total > 0 ? done / total : 0;
    if (frac > 1)
        frac = 1;
    char bar[31], d[32], tt[32], r[32];
    int filled = (int)(frac * 30);
    for (int i = 0; i < 30; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[30] = '\0';
    format_bytes(d, sizeof d, done);
    format_bytes(tt, sizeof tt, total);
    format_bytes(r, sizeof r, rate);
    double eta = rate > 0 ? (total - done) / rate : 0;
    fprintf(stderr, "\r[%s] %3.0f%% %s / %s  %s/s  ETA %d:%02d\033[K", bar, frac * 100, d, tt, r,
            (int)eta / 60, (int)eta % 60);
    if (final)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

static void *worker_main(void *arg)
{
    struct pipeline *pl = arg;
    struct worker w;
    memset(&w, 0, sizeof w);
    w.ctx = pl->ctx;
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        struct slot *s = &pl->slots[pl->next_work % pl->nslots];
        if (s->state == SLOT_READY) {
            s->state = SLOT_BUSY;
            pl->next_work++;
            pthread_mutex_unlock(&pl->lock);
            process_chunk(&w, &s->job);
            pthread_mutex_lock(&pl->lock);
            s->state = SLOT_DONE;
            pthread_cond_broadcast(&pl->done);
            continue;
        }
        if (pl->quit)
            break;
        pthread_cond_wait(&pl->ready, &pl->lock);
    }
    pthread_mutex_unlock(&pl->lock);
    free(w.scratch.data);
    return NULL;
}

static void write_slot(struct pipeline *pl, struct slot *s)
{
    write_all(STDOUT_FILENO, s->job.out.data, s->job.out.len);
    add_stats(&pl->run.total, &s->job.st);
    if (s->unmap != NULL) {
        /* Drop the pages from our address space: RSS stays bounded. */
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t a = ((uintptr_t)s->unmap) & ~(page - 1);
        uintptr_t b = ((uintptr_t)s->unmap + s->unmap_len) & ~(page - 1);
#ifdef MADV_DONTNEED
        if (b > a)
            madvise((void *)a, (size_t)(b - a), MADV_DONTNEED);
#endif
    }
    if (pl->run.show_progress)
        show_progress(pl, 0);
}

/* Writes the oldest chunk, waiting for it. Returns 0 if none is in flight. */
static int write_oldest(struct pipeline *pl)
{
    if (pl->next_write == pl->next_fill)
        return 0;
    struct slot *s = &pl->slots[pl->next_write % pl->nslots];
    if (pl->nworkers > 0) {
        pthread_mutex_lock(&pl->lock);
        while (s->state != SLOT_DONE)
            pthread_cond_wait(&pl->done, &pl->lock);
        pthread_mutex_unlock(&pl->lock);
    }
    write_slot(pl, s);
    s->state = SLOT_FREE;
    pl->next_write++;
    return 1;
}

/* A free slot for the next chunk (writing finished ones to make room). */
static struct slot *acquire_slot(struct pipeline *pl)
{
    struct slot *s = &pl->slots[pl->next_fill % pl->nslots];
    while (s->state != SLOT_FREE)
        write_oldest(pl);
    return s;
}

static void submit_slot(struct pipeline *pl, struct slot *s)
{
    pl->next_fill++;
    if (pl->nworkers == 0) {
        process_chunk(&pl->inline_worker, &s->job);
        s->state = SLOT_DONE;
        write_oldest(pl);
        return;
    }
    pthread_mutex_lock(&pl->lock);
    s->state = SLOT_READY;
    pthread_cond_signal(&pl->ready);
    pthread_mutex_unlock(&pl->lock);
}

static void drain(struct pipeline *pl)
{
    while (write_oldest(pl))
        ;
}

void pipeline_start(struct pipeline *pl, const struct log_ctx *ctx, int nworkers)
{
    pl->ctx = ctx;
    pl->inline_worker.ctx = ctx;
    pl->nworkers = nworkers;
    pl->nslots = nworkers > 0 ? (size_t)nworkers * 2 + 2 : 1;
    pl->slots = calloc(pl->nslots, sizeof *pl->slots);
    if (pl->slots == NULL)
        fatal("out of memory", NULL);
    if (nworkers <= 0 || nworkers > 256)
        return;
    pthread_mutex_init(&pl->lock, NULL);
    pthread_cond_init(&pl->ready, NULL);
    pthread_cond_init(&pl->done, NULL);
    pl->threads = calloc((size_t)nworkers, sizeof *pl->threads);
    if (pl->threads == NULL)
        fatal("out of memory", NULL);
    for (int i = 0; i < nworkers; i++)
        if (pthread_create(&pl->threads[i], NULL, worker_main, pl) != 0)
            fatal("cannot start threads", NULL);
}

void pipeline_stop(struct pipeline *pl)
{
    drain(pl);
    if (pl->nworkers > 0) {
        pthread_mutex_lock(&pl->lock);
        pl->quit = 1;
        pthread_cond_broadcast(&pl->ready);
        pthread_mutex_unlock(&pl->lock);
        for (int i = 0; i < pl->nworkers; i++)
            pthread_join(pl->threads[i], NULL);
        free(pl->threads);
        pthread_mutex_destroy(&pl->lock);
        pthread_cond_destroy(&pl->ready);
        pthread_cond_destroy(&pl->done);
    }
    for (size_t i = 0; i < pl->nslots; i++) {
        free(pl->slots[i].job.out.data);
        free(pl->slots[i].own.data);
    }
    free(pl->slots);
    free(pl->inline_worker.scratch.data);
}

static void dispatch(struct pipeline *pl, struct input_format *is, struct slot *s, const char *p,
                     size_t n)
{
    s->job.in = p;
    s->job.len = n;
    input_format_chunk(is, p, n, &s->job.fmt, &s->job.layout);
    submit_slot(pl, s);
}

static void process_mapped(struct pipeline *pl, const char *data, size_t size,
                           struct input_format *is)
{
    size_t pos = 0;
    while (pos < size) {
        size_t end = pos + pl->ctx->cfg.chunk;
        if (end >= size) {
            end = size;
        } else {
            const char *nl = memchr(data + end, '\n', size - end);
            end = nl != NULL ? (size_t)(nl - data) + 1 : size;
        }
        struct slot *s = acquire_slot(pl);
        s->unmap = data + pos;
        s->unmap_len = end - pos;
        dispatch(pl, is, s, data + pos, end - pos);
        pos = end;
    }
}

/* 1 if fd has data (or EOF) right now. */
static int readable_now(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

static int process_stream(struct pipeline *pl, int fd, struct input_format *is)
{
    struct buf carry = {NULL, 0, 0};
    int eof = 0;
    while (!eof) {
        struct slot *s = acquire_slot(pl);
        s->unmap = NULL;
        struct buf *b = &s->own;
        b->len = 0;
        buf_reserve(b, pl->ctx->cfg.chunk + carry.len);
        if (carry.len > 0) /* carry.data is NULL before the first carry */
            memcpy(b->data, carry.data, carry.len);
        b->len = carry.len;
        carry.len = 0;
        for (;;) {
            if (b->len >= pl->ctx->cfg.chunk && memchr(b->data, '\n', b->len) != NULL)
                break;
            if (b->len > 0 && !readable_now(fd) && memchr(b->data, '\n', b->len) != NULL)
                break;
            if (!readable_now(fd))
                drain(pl); /* nothing to read yet: show what is done */
            buf_reserve(b, pl->ctx->cfg.chunk / 2 < 65536 ? 65536 : pl->ctx->cfg.chunk / 2);
            ssize_t got = read(fd, b->data + b->len, b->cap - b->len);
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                fprintf(stderr, "pct logs: read error: %s\n", strerror(errno));
                pl->run.failed = 1;
                eof = 1;
                break;
            }
            if (got == 0) {
                eof = 1;
                break;
            }
            b->len += (size_t)got;
        }
        size_t cut = b->len;
        if (!eof) {
            size_t i = b->len;
            while (i > 0 && b->data[i - 1] != '\n')
                i--;
            cut = i;
            buf_reserve(&carry, b->len - cut);
            memcpy(carry.data, b->data + cut, b->len - cut);
            carry.len = b->len - cut;
        }
        if (cut == 0)
            continue; /* slot stays free */
        dispatch(pl, is, s, b->data, cut);
    }
    free(carry.data);
    return 0;
}

void pipeline_input(struct pipeline *pl, const char *name)
{
    int fd = STDIN_FILENO;
    int is_stdin = strcmp(name, "-") == 0;
    if (!is_stdin) {
        fd = open(name, O_RDONLY);
        if (fd < 0) {
            fprintf(stderr, "pct logs: %s: %s\n", name, strerror(errno));
            pl->run.failed = 1;
            return;
        }
    }
    struct input_format is;
    memset(&is, 0, sizeof is);
    is.fmt = pl->ctx->cfg.format;
    struct stat st;
    int mapped = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            mapped = 1;
#ifdef MADV_SEQUENTIAL
            madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
#endif
            process_mapped(pl, map, (size_t)st.st_size, &is);
            drain(pl);
            munmap(map, (size_t)st.st_size);
        }
    }
    if (!mapped)
        process_stream(pl, fd, &is);
    drain(pl);
    if (!is_stdin)
        close(fd);
}
