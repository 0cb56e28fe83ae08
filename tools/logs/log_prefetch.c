/* log_prefetch.c - compressed inputs decompressed ahead on their own
 * threads (see log_prefetch.h).
 *
 * When the file's turn comes its thread stops (handover): the reader
 * empties the ring, then decompresses the rest itself, straight into its
 * chunks. A thread of its own for the file being written would only add a
 * copy of every byte, from the ring to a chunk, and move the bytes from
 * core to core once more: the reader would wait on the copy while the
 * workers wait on it (with 2 threads, 4 gzip files took 1.2x the time of
 * 1 thread on a busy machine). The threads decompress the files ahead of
 * their turn.
 *
 * The ring holds len bytes from start (wrapping at PREFETCH_BYTES). The
 * producer writes only the free part, the consumer reads only the filled
 * part; start, len and the state flags are read and written under the lock,
 * the bytes themselves outside it. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log_decompress.h"
#include "log_oom.h"
#include "log_prefetch.h"

struct log_prefetch {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* the ring or the state changed */
    const char *name;
    struct log_input in;  /* the producer's, until handed over */
    struct buf notes;     /* its messages, handed to the consumer */
    struct buf *notes_to; /* where: the consumer's (NULL: stderr) */
    char *ring;
    size_t start, len;
    uint64_t raw_read; /* bytes of the file read so far */
    int opened;        /* open done: open_status and plain are set */
    int open_status;
    int plain; /* text: the consumer reads the opened input itself */
    int end;   /* no more bytes will come */
    int failed;
    int cancel;
    int handover; /* the file's turn came: its thread stops, the reader reads on */
    int stopped;  /* the thread stopped with the input open, for the reader */
    int direct;   /* the reader reads the input itself */
};

int log_prefetch_eligible(const char *name)
{
    struct stat st;
    return strcmp(name, "-") != 0 && stat(name, &st) == 0 && S_ISREG(st.st_mode);
}

/* Out of memory while the file was opened here (log_oom.h): what the open
 * had is let go, and the reader opens the file in its turn, on a thread
 * whose recovery point makes it the run's error, never an exit. */
static void open_given_up(struct log_prefetch *p)
{
    if (p->in.dec != NULL)
        log_decompress_end(&p->in);
    if (!p->in.is_stdin && p->in.fd > STDIN_FILENO)
        close(p->in.fd);
    free(p->in.head.data);
    memset(&p->in, 0, sizeof p->in);
    p->notes.len = 0; /* said again when the reader opens it */
}

/* log_input_open, or 1 when memory ran out (given up: open_given_up). */
static int open_ahead(struct log_prefetch *p)
{
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        open_given_up(p);
        return 1;
    }
    int status = log_input_open(&p->in, p->name, &p->notes);
    log_oom_leave(&pt);
    return status;
}

static void *producer(void *arg)
{
    struct log_prefetch *p = arg;
    int status = open_ahead(p);
    pthread_mutex_lock(&p->lock);
    p->opened = 1;
    p->open_status = status;
    p->plain = status == 0 && p->in.dec == NULL;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    if (status != 0 || p->plain)
        return NULL;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (p->len == PREFETCH_BYTES && !p->cancel && !p->handover)
            pthread_cond_wait(&p->cond, &p->lock);
        if (p->handover && !p->cancel) {
            p->stopped = 1;
            pthread_cond_broadcast(&p->cond);
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        int cancel = p->cancel;
        size_t at = (p->start + p->len) % PREFETCH_BYTES;
        size_t room =
            at >= p->start && p->len < PREFETCH_BYTES ? PREFETCH_BYTES - at : p->start - at;
        pthread_mutex_unlock(&p->lock);
        if (cancel)
            break;
        size_t got = log_input_read(&p->in, p->ring + at, room);
        pthread_mutex_lock(&p->lock);
        p->len += got;
        p->raw_read = p->in.offset - p->in.start;
        pthread_cond_broadcast(&p->cond);
        pthread_mutex_unlock(&p->lock);
        if (got == 0)
            break;
    }
    int failed = log_input_close(&p->in) != 0;
    pthread_mutex_lock(&p->lock);
    p->end = 1;
    p->failed = failed;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

struct log_prefetch *log_prefetch_start(const char *name, struct buf *notes_to)
{
    struct log_prefetch *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->name = name;
    p->notes_to = notes_to;
    p->ring = malloc(PREFETCH_BYTES);
    if (p->ring == NULL) {
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    if (pthread_create(&p->thread, NULL, producer, p) != 0) {
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->cond);
        free(p->ring);
        free(p);
        return NULL;
    }
    return p;
}

/* Hands the messages held so far to the consumer (or stderr). */
static void hand_notes(struct log_prefetch *p)
{
    if (p->notes.len > 0 && p->notes_to != NULL) {
        buf_reserve(p->notes_to, p->notes.len);
        memcpy(p->notes_to->data + p->notes_to->len, p->notes.data, p->notes.len);
        p->notes_to->len += p->notes.len;
    } else if (p->notes.len > 0) {
        fwrite(p->notes.data, 1, p->notes.len, stderr);
    }
    p->notes.len = 0;
}

/* Joins the thread, prints its messages and frees p. */
static int finish(struct log_prefetch *p)
{
    pthread_mutex_lock(&p->lock);
    p->cancel = 1;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    hand_notes(p);
    int failed = p->failed;
    if (p->stopped) { /* the input is the reader's to close */
        p->in.notes = p->notes_to;
        failed = log_input_close(&p->in) != 0;
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond);
    free(p->notes.data);
    free(p->ring);
    free(p);
    return failed;
}

int log_prefetch_take(struct log_prefetch *p, struct log_input *in)
{
    pthread_mutex_lock(&p->lock);
    while (!p->opened)
        pthread_cond_wait(&p->cond, &p->lock);
    int status = p->open_status, plain = p->plain;
    pthread_mutex_unlock(&p->lock);
    if (status != 0 || plain) {
        /* The thread is done with p->in: it returned after setting these. */
        struct log_input opened = p->in;
        finish(p);
        if (status != 0)
            return status < 0 ? -1 : 1;
        *in = opened;
        in->notes = NULL; /* from now on, messages go out as they come */
        return 0;
    }
    memset(in, 0, sizeof *in);
    in->name = p->name; /* never stdin: see log_prefetch_eligible */
    in->fd = -1;
    in->regular = 1;
    in->pre = p;
    pthread_mutex_lock(&p->lock);
    p->handover = 1;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    return 0;
}

/* Reads the input on the reader's thread, after the handover. */
static size_t read_direct(struct log_input *in, struct log_prefetch *p, char *dst, size_t n)
{
    size_t got = log_input_read(&p->in, dst, n);
    in->offset = p->in.offset - p->in.start;
    if (got == 0)
        in->eof = 1;
    return got;
}

size_t log_prefetch_read(struct log_input *in, char *dst, size_t n)
{
    struct log_prefetch *p = in->pre;
    if (p->direct)
        return read_direct(in, p, dst, n);
    pthread_mutex_lock(&p->lock);
    while (p->len == 0 && !p->end && !p->stopped)
        pthread_cond_wait(&p->cond, &p->lock);
    if (p->len == 0 && p->stopped) {
        pthread_mutex_unlock(&p->lock);
        /* The ring is empty and the thread gone: the rest is read here,
         * its messages handed on as they come, after those held. */
        p->direct = 1;
        hand_notes(p);
        p->in.notes = p->notes_to;
        return read_direct(in, p, dst, n);
    }
    size_t k = p->len;
    if (k > PREFETCH_BYTES - p->start)
        k = PREFETCH_BYTES - p->start;
    size_t from = p->start;
    in->offset = p->raw_read;
    pthread_mutex_unlock(&p->lock);
    if (k > n)
        k = n;
    if (k == 0) {
        in->eof = 1;
        return 0;
    }
    memcpy(dst, p->ring + from, k);
    pthread_mutex_lock(&p->lock);
    p->start = (p->start + k) % PREFETCH_BYTES;
    p->len -= k;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    return k;
}

int log_prefetch_close(struct log_input *in)
{
    int failed = finish(in->pre);
    in->pre = NULL;
    in->failed |= failed;
    return in->failed ? -1 : 0;
}
