/* log_pipeline.c - reading inputs and running the decoding in parallel.
 *
 * Each input is read (read(2), into the slots' reused buffers) and cut at
 * line boundaries into chunks; worker threads decode chunks into per-chunk
 * output buffers; the main thread hands out chunks and writes finished ones
 * in input order. A regular file of plain text (several chunks, several
 * threads) is read differently (process_file): each thread reads its own
 * chunk in turn, decodes it and writes it when its turn comes, so that a
 * chunk's bytes never leave the core that read them. Memory is bounded by
 * the number of chunks in flight and --max-line: a longer line is never
 * held whole but streamed through. Every
 * byte is looked at a bounded number of times, whatever the line lengths.
 * Progress is shown as chunks are written.
 *
 * Slot states are read and written under the lock only; which slots are in
 * flight is known from the counters, which only the main thread touches.
 */
#define _GNU_SOURCE /* memrchr */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log_input.h"
#include "log_pipeline.h"
#include "log_prefetch.h"

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

/* Bytes of the input files read so far: for compressed files the
 * compressed bytes, so that they compare with the files' sizes. */
static uint64_t input_done(const struct pipeline *pl)
{
    const struct log_input *in = pl->run.current;
    if (in == NULL)
        return pl->run.done_before;
    /* process_file: the offset when the chunk just written was read (the
     * input is being read by another thread). */
    return pl->run.done_before + (pl->run.reading_file ? pl->run.read_to : in->offset) - in->start;
}

void show_progress(struct pipeline *pl, int final)
{
    double t = now_seconds();
    if (!final && t - pl->run.last_progress < 0.1)
        return;
    pl->run.last_progress = t;
    double done = (double)input_done(pl), total = (double)pl->run.size_known;
    double elapsed = t - pl->run.start, rate = elapsed > 0 ? done / elapsed : 0;
    double frac = total > 0 ? done / total : 0;
    if (frac > 1)
        frac = 1;
    char bar[31], d[32], tt[32], r[32], text[32];
    int filled = (int)(frac * 30);
    for (int i = 0; i < 30; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[30] = '\0';
    format_bytes(d, sizeof d, done);
    format_bytes(tt, sizeof tt, total);
    format_bytes(r, sizeof r, rate);
    format_bytes(text, sizeof text, (double)pl->run.total.bytes);
    double eta = rate > 0 && total > done ? (total - done) / rate : 0;
    fprintf(stderr, "\r[%s] %3.0f%% %s / %s  %s/s  ETA %d:%02d", bar, frac * 100, d, tt, r,
            (int)eta / 60, (int)eta % 60);
    if (pl->run.compressed)
        fprintf(stderr, "  (%s decompressed)", text);
    fputs("\033[K", stderr);
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
    worker_free(&w);
    return NULL;
}

static void write_slot(struct pipeline *pl, struct slot *s)
{
    write_out(s->job.out.data, s->job.out.len, s->job.st.lines);
    add_stats(&pl->run.total, &s->job.st);
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
        s->state = SLOT_FREE;
        pthread_mutex_unlock(&pl->lock);
    } else {
        s->state = SLOT_FREE;
    }
    write_slot(pl, s);
    pl->next_write++;
    return 1;
}

/* A free slot for the next chunk (writing finished ones to make room). */
static struct slot *acquire_slot(struct pipeline *pl)
{
    while (pl->next_fill - pl->next_write >= pl->nslots)
        write_oldest(pl);
    return &pl->slots[pl->next_fill % pl->nslots];
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
    free(pl->carry.data);
    free(pl->long_out.data);
    worker_free(&pl->inline_worker);
}

/* The least room a read is given: big reads, few system calls. */
#define READ_MIN ((size_t)64 << 10)
/* A long line goes out in pieces of this size. */
#define LONG_PIECE ((size_t)256 << 10)

static void dispatch(struct pipeline *pl, struct input_format *is, struct slot *s, const char *p,
                     size_t n)
{
    s->job.in = p;
    s->job.len = n;
    input_format_chunk(is, p, n, &s->job.fmt, &s->job.layout);
    submit_slot(pl, s);
}

/* How many bytes at the end of p[0..n) begin a UTF-8 sequence that may go
 * on past n: they wait for the next piece, so that a character is never cut
 * (JSON text is repaired, and C1 controls escaped, a whole sequence at a
 * time). */
static size_t utf8_unfinished_tail(const char *p, size_t n)
{
    for (size_t k = 1; k <= 3 && k <= n; k++) {
        unsigned char c = (unsigned char)p[n - k];
        if (c < 0x80)
            return 0;
        if (c >= 0xC0) {
            size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            return need > k ? k : 0;
        }
    }
    return 0;
}

/* Writes text of a long line as an unparsed line is written. */
static void put_long_piece(struct pipeline *pl, struct worker *w, const char *p, size_t n)
{
    const struct log_config *cfg = &pl->ctx->cfg;
    if (cfg->raw && !cfg->json) {
        write_out(p, n, 0);
        return;
    }
    struct buf *o = &pl->long_out;
    o->len = 0;
    buf_reserve(o, 6 * n + 16);
    w->out = o;
    if (cfg->json && has_high_bytes(p, n)) {
        size_t len = repair_utf8(w, p, n);
        put_mode(w, w->scratch.data, len, ESC_JSON);
    } else {
        put_mode(w, p, n, cfg->json ? ESC_JSON : ESC_CONTROLS);
    }
    write_out(o->data, o->len, 0);
}

/* pl->carry holds the start of a line longer than --max-line (no newline in
 * it). Writes everything before it, then the line itself piece by piece as
 * it is read, written as an unparsed line (not decoded), and leaves in
 * pl->carry what follows its newline. Returns 1 at the end of the input. */
static int stream_long_line(struct pipeline *pl, struct log_input *in)
{
    const struct log_config *cfg = &pl->ctx->cfg;
    struct worker *w = &pl->inline_worker;
    struct buf *c = &pl->carry;
    drain(pl);
    uint64_t number = pl->run.total.lines - pl->file_first_line + 1;
    log_input_note(in, "line %llu is longer than --max-line (%zu bytes): passed through undecoded",
                   (unsigned long long)number, cfg->max_line);
    pl->run.total.lines++;
    pl->run.total.long_lines++;
    pl->run.total.unparsed++;
    if (cfg->json)
        write_out("{\"unparsed\":\"", 13, 0);
    int eof = 0;
    for (;;) {
        char *nl = memchr(c->data, '\n', c->len);
        size_t end = nl != NULL ? (size_t)(nl - c->data) : c->len;
        size_t text = end;
        if (nl != NULL && text > 0 && c->data[text - 1] == '\r')
            text--; /* CRLF: the CR is part of the terminator */
        size_t keep = nl != NULL || eof ? 0 : utf8_unfinished_tail(c->data, text);
        put_long_piece(pl, w, c->data, text - keep);
        pl->run.total.bytes += text - keep;
        if (nl != NULL || eof) {
            if (cfg->json)
                write_out("\"}", 2, 0);
            write_out(c->data + text, end - text, 0);
            write_out("\n", 1, 1);
            size_t rest = nl != NULL ? c->len - end - 1 : 0;
            pl->run.total.bytes += end - text + (nl != NULL);
            memmove(c->data, c->data + c->len - rest, rest);
            c->len = rest;
            return eof;
        }
        memmove(c->data, c->data + text - keep, keep);
        c->len = keep;
        buf_reserve(c, LONG_PIECE);
        size_t got = log_input_read(in, c->data + c->len, LONG_PIECE);
        c->len += got;
        eof = got == 0;
    }
}

/* Fills b with whole lines read from in (the partial line in pl->carry
 * first): at least --chunk-size bytes, unless a live input has nothing
 * more to give now. Returns how many bytes of b are whole lines, to decode;
 * what follows them is left in pl->carry. *eof is set at the input's end;
 * *long_line when pl->carry holds the start of a line longer than
 * --max-line (for stream_long_line). */
static size_t read_lines(struct pipeline *pl, struct log_input *in, struct buf *b, int *eof,
                         int *long_line)
{
    const struct log_config *cfg = &pl->ctx->cfg;
    struct buf *carry = &pl->carry; /* a partial line, or what followed a long line */
    b->len = 0;
    buf_reserve(b, cfg->chunk + carry->len + READ_MIN);
    size_t line_start = 0; /* after the last newline in b */
    if (carry->len > 0) {  /* carry->data is NULL before the first carry */
        memcpy(b->data, carry->data, carry->len);
        /* After a long line, what followed it: whole lines too, which are
         * not part of a long line. */
        const char *nl = memrchr(b->data, '\n', carry->len);
        if (nl != NULL)
            line_start = (size_t)(nl - b->data) + 1;
    }
    b->len = carry->len;
    carry->len = 0;
    *long_line = 0;
    for (;;) {
        if (b->len - line_start > cfg->max_line) {
            *long_line = 1;
            break;
        }
        if (line_start > 0 && (b->len >= cfg->chunk || (in->live && !log_input_ready(in))))
            break;
        if (*eof)
            break;
        if (in->live && !log_input_ready(in))
            drain(pl); /* nothing to read yet: show what is done */
        buf_reserve(b, READ_MIN + LOG_CHUNK_PAD);
        size_t got = log_input_read(in, b->data + b->len, b->cap - b->len - LOG_CHUNK_PAD);
        if (got == 0) {
            *eof = 1;
            continue;
        }
        /* Only the new bytes are searched: linear time. */
        const char *nl = memrchr(b->data + b->len, '\n', got);
        b->len += got;
        if (nl != NULL)
            line_start = (size_t)(nl - b->data) + 1;
    }
    size_t cut = *eof && !*long_line ? b->len : line_start;
    buf_reserve(carry, b->len - cut);
    memcpy(carry->data, b->data + cut, b->len - cut);
    carry->len = b->len - cut;
    /* LOG_CHUNK_PAD bytes past the lines can be read (log_scan_copy_padded):
     * the reads above leave room for them. */
    buf_reserve(b, LOG_CHUNK_PAD);
    memset(b->data + b->len, 0, LOG_CHUNK_PAD);
    return cut;
}

/* Reads one input in chunks of whole lines and hands them out. */
static void process_input(struct pipeline *pl, struct log_input *in)
{
    struct input_format is;
    memset(&is, 0, sizeof is);
    is.fmt = pl->ctx->cfg.format;
    pl->carry.len = 0;
    pl->file_first_line = pl->run.total.lines;
    int eof = 0;
    while (!eof || pl->carry.len > 0) {
        struct slot *s = acquire_slot(pl);
        int long_line;
        size_t cut = read_lines(pl, in, &s->own, &eof, &long_line);
        if (cut > 0)
            dispatch(pl, &is, s, s->own.data, cut); /* else the slot stays free */
        if (long_line)
            eof = stream_long_line(pl, in) || eof;
    }
}

/* A regular file of plain text with several threads: each thread reads a
 * chunk itself (in turn, under read_lock: the reads are those of
 * process_input, in the same order), decodes it, and writes its output
 * when its ticket's turn comes. The bytes of a chunk stay on the core that
 * read them, and no thread only hands out work: as many threads run as
 * --threads says, and they meet only to take turns. */
struct file_run {
    struct pipeline *pl;
    struct log_input *in;
    pthread_mutex_t read_lock; /* guards what follows, and pl->carry */
    struct input_format is;
    int eof, done;
    uint64_t next_ticket;
    pthread_mutex_t turn_lock;
    pthread_cond_t turn_moved;
    uint64_t turn; /* the ticket whose output is written next */
};

static void wait_turn(struct file_run *fr, uint64_t ticket)
{
    pthread_mutex_lock(&fr->turn_lock);
    while (fr->turn != ticket)
        pthread_cond_wait(&fr->turn_moved, &fr->turn_lock);
    pthread_mutex_unlock(&fr->turn_lock);
}

static void pass_turn(struct file_run *fr)
{
    pthread_mutex_lock(&fr->turn_lock);
    fr->turn++;
    pthread_cond_broadcast(&fr->turn_moved);
    pthread_mutex_unlock(&fr->turn_lock);
}

/* Writes a decoded chunk (its turn has come). read_to: the input's offset
 * when it was read, for the progress bar. */
static void write_job(struct pipeline *pl, struct chunk_job *job, uint64_t read_to)
{
    write_out(job->out.data, job->out.len, job->st.lines);
    add_stats(&pl->run.total, &job->st);
    pl->run.read_to = read_to;
    if (pl->run.show_progress)
        show_progress(pl, 0);
}

static void *file_thread(void *arg)
{
    struct file_run *fr = arg;
    struct pipeline *pl = fr->pl;
    struct worker w;
    struct chunk_job job;
    struct buf own = {NULL, 0, 0};
    memset(&w, 0, sizeof w);
    memset(&job, 0, sizeof job);
    w.ctx = pl->ctx;
    for (;;) {
        pthread_mutex_lock(&fr->read_lock);
        if (fr->done) {
            pthread_mutex_unlock(&fr->read_lock);
            break;
        }
        int long_line;
        size_t cut = read_lines(pl, fr->in, &own, &fr->eof, &long_line);
        uint64_t ticket = fr->next_ticket++, read_to = fr->in->offset;
        job.in = own.data;
        job.len = cut;
        if (cut > 0)
            input_format_chunk(&fr->is, own.data, cut, &job.fmt, &job.layout);
        if (long_line) {
            /* The long line goes out after this chunk, before any other
             * chunk is read: all of it under read_lock, in this turn. */
            if (cut > 0)
                process_chunk(&w, &job);
            wait_turn(fr, ticket);
            if (cut > 0)
                write_job(pl, &job, read_to);
            fr->eof = stream_long_line(pl, fr->in) || fr->eof;
            pl->run.read_to = fr->in->offset;
            fr->done = fr->eof && pl->carry.len == 0;
            pass_turn(fr);
            pthread_mutex_unlock(&fr->read_lock);
            continue;
        }
        fr->done = fr->eof && pl->carry.len == 0;
        pthread_mutex_unlock(&fr->read_lock);
        if (cut > 0)
            process_chunk(&w, &job);
        wait_turn(fr, ticket);
        if (cut > 0)
            write_job(pl, &job, read_to);
        pass_turn(fr);
    }
    worker_free(&w);
    free(job.out.data);
    free(own.data);
    return NULL;
}

/* 1 if in is read by process_file rather than process_input: a regular
 * file of plain text, big enough for several chunks, with worker threads. */
static int file_eligible(const struct pipeline *pl, const struct log_input *in)
{
    return pl->nworkers > 1 && in->regular && in->dec == NULL && in->pre == NULL &&
           in->size_at_open - in->start >= 4 * (uint64_t)pl->ctx->cfg.chunk;
}

/* Reads in as file_run says, with pl->nworkers threads: this one and
 * nworkers - 1 started for it (the pipeline's workers wait meanwhile). */
static void process_file(struct pipeline *pl, struct log_input *in)
{
    struct file_run fr;
    memset(&fr, 0, sizeof fr);
    fr.pl = pl;
    fr.in = in;
    fr.is.fmt = pl->ctx->cfg.format;
    pthread_mutex_init(&fr.read_lock, NULL);
    pthread_mutex_init(&fr.turn_lock, NULL);
    pthread_cond_init(&fr.turn_moved, NULL);
    drain(pl); /* the previous inputs' output first */
    pl->carry.len = 0;
    pl->file_first_line = pl->run.total.lines;
    pl->run.read_to = in->offset;
    pl->run.reading_file = 1;
    size_t extra = (size_t)pl->nworkers - 1;
    pthread_t *threads = calloc(extra, sizeof *threads);
    if (threads == NULL)
        fatal("out of memory", NULL);
    for (size_t i = 0; i < extra; i++)
        if (pthread_create(&threads[i], NULL, file_thread, &fr) != 0)
            fatal("cannot start threads", NULL);
    file_thread(&fr);
    for (size_t i = 0; i < extra; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    pl->run.reading_file = 0;
    pthread_mutex_destroy(&fr.read_lock);
    pthread_mutex_destroy(&fr.turn_lock);
    pthread_cond_destroy(&fr.turn_moved);
}

static void pipeline_input(struct pipeline *pl, const char *name, struct log_prefetch *pre)
{
    struct log_input in;
    int status = pre != NULL ? log_prefetch_take(pre, &in) : log_input_open(&in, name, NULL);
    if (status != 0) {
        pl->run.failed = 1;
        return;
    }
    pl->run.current = &in;
    pl->run.compressed |= in.dec != NULL || in.pre != NULL;
    if (file_eligible(pl, &in))
        process_file(pl, &in);
    else
        process_input(pl, &in);
    drain(pl);
    pl->run.current = NULL;
    pl->run.done_before += in.offset - in.start;
    if (log_input_close(&in) != 0)
        pl->run.failed = 1;
}

void pipeline_inputs(struct pipeline *pl, char **names, size_t count)
{
    /* With worker threads, the files from the one being written on (as
     * many as there are threads) are opened, and decompressed if they are
     * compressed, each by a thread of its own. */
    size_t window = pl->nworkers > 0 ? (size_t)pl->nworkers : 0;
    struct log_prefetch **pre = calloc(count + 1, sizeof *pre);
    if (pre == NULL)
        fatal("out of memory", NULL);
    size_t started = 0;
    for (size_t i = 0; i < count; i++) {
        for (; window > 0 && started < count && started < i + window; started++)
            if (log_prefetch_eligible(names[started]))
                pre[started] = log_prefetch_start(names[started]);
        pipeline_input(pl, names[i], pre[i]);
    }
    free(pre);
}
