/* log_pipeline.c - reading inputs and running the decoding in parallel.
 *
 * Each input is read (read(2), into the slots' reused buffers) and cut at
 * line boundaries into chunks; worker threads decode chunks into per-chunk
 * output buffers; the main thread hands out chunks and writes finished ones
 * in input order. A regular file of plain text (several chunks, several
 * threads) is read differently (process_file): each thread reads blocks of
 * it with pread(2), decodes them and writes them when their turn comes, so
 * that a chunk's bytes never leave the core that read them. Memory is
 * bounded by the number of chunks in flight and --max-line: a longer line
 * is never held whole but streamed through. Every byte is looked at a
 * bounded number of times, whatever the line lengths. Progress is shown as
 * chunks are written.
 *
 * Slot states are read and written under the lock only; which slots are in
 * flight is known from the counters, which only the main thread touches.
 */
#define _GNU_SOURCE /* memrchr */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log_input.h"
#include "log_oom.h"
#include "log_pipeline.h"
#include "log_writer.h"
#include "log_prefetch.h"

int pipeline_stopped(struct pipeline *pl)
{
    if (atomic_load_explicit(&pl->stop, memory_order_relaxed))
        return 1;
    if (pl->interrupted != NULL && atomic_load(pl->interrupted) != 0) {
        atomic_store(&pl->stop, 1);
        return 1;
    }
    return 0;
}

/* Stops the run after a fault (log_oom.h); the first one is kept. */
static void run_fault(struct pipeline *pl, int why)
{
    int none = 0;
    atomic_compare_exchange_strong(&pl->fault, &none, why);
    atomic_store(&pl->stop, 1);
}

void pipeline_emit(struct pipeline *pl, const char *p, size_t n, uint64_t lines)
{
    if (pl->sink != NULL && sink_write(pl->sink, p, n, lines) != 0)
        atomic_store(&pl->stop, 1);
}

/* Hands the messages held about inputs to pl->say, a line at a time. */
static void say_notes(struct pipeline *pl)
{
    struct buf *b = &pl->notes;
    for (size_t at = 0; at < b->len;) {
        char *nl = memchr(b->data + at, '\n', b->len - at);
        size_t end = nl != NULL ? (size_t)(nl - b->data) : b->len;
        if (nl == NULL) { /* every note ends with a newline: not reached */
            buf_reserve(b, 1);
            nl = b->data + end;
        }
        *nl = '\0';
        if (pl->say != NULL)
            pl->say(pl->say_ctx, b->data + at);
        else
            fprintf(stderr, "%s\n", b->data + at);
        at = end + 1;
    }
    b->len = 0;
}

/* Waits until fd can be read (or is at its end), looking every 0.1 s
 * whether the run was stopped: an idle pipe (`tail -f log | pct logs`)
 * must not keep an interrupt waiting for its next line. Returns 0, or -1
 * once stopped. */
static int wait_readable(struct pipeline *pl, int fd)
{
    for (;;) {
        if (pipeline_stopped(pl))
            return -1;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 100) != 0) /* ready, at its end, or an error for read to say */
            return 0;
    }
}

/* Writes a decoded chunk, or hands its records to the record callback, in
 * its turn; nothing once the run has stopped. */
/* The notice for lines longer than --max-line that a chunk held whole (as
 * stream_long_line gives for one it streams). */
static void note_long_lines(const struct pipeline *pl, const struct log_input *in,
                            const struct chunk_job *job)
{
    if (job->st.long_lines == 0 || in == NULL)
        return;
    unsigned long long number = pl->run.total.lines - pl->file_first_line + job->long_first;
    log_input_note(in, "line %llu is longer than --max-line (%zu bytes): written undecoded%s",
                   number, pl->ctx->cfg.max_line,
                   job->st.long_lines > 1 ? " (and more lines after it)" : "");
}

static void write_chunk(struct pipeline *pl, struct chunk_job *job, struct log_record_batch *recs)
{
    /* Out of memory for a note (or a record batch): nothing of the chunk
     * is written, and the run stops. */
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        run_fault(pl, pt.why);
        return;
    }
    if (job->notes.len > 0) {
        buf_reserve(&pl->notes, job->notes.len);
        memcpy(pl->notes.data + pl->notes.len, job->notes.data, job->notes.len);
        pl->notes.len += job->notes.len;
        job->notes.len = 0;
    }
    note_long_lines(pl, pl->run.current, job);
    say_notes(pl);
    if (pipeline_stopped(pl)) {
        log_oom_leave(&pt);
        return;
    }
    if (pl->records != NULL) {
        uint64_t first = pl->run.total.lines - pl->file_first_line + 1;
        int status = log_records_deliver(recs, pl->records, pl->input_index, first);
        if (status != 0) {
            snprintf(pl->error, sizeof pl->error,
                     "record callback failed (%d), after %llu lines; stopped", status,
                     (unsigned long long)pl->run.total.lines);
            atomic_store(&pl->stop, 1);
            log_oom_leave(&pt);
            return;
        }
    } else {
        pipeline_emit(pl, job->out.data, job->out.len, job->st.lines);
        chunk_job_written(job, pl->ctx->cfg.chunk);
    }
    add_stats(&pl->run.total, &job->st);
    log_oom_leave(&pt);
}

/* Decodes a chunk, collecting its records when they are wanted. */
static void run_chunk(struct pipeline *pl, struct worker *w, struct chunk_job *job,
                      struct log_record_batch *recs)
{
    /* Out of memory (or an internal error) while decoding: the chunk is
     * not written (its output may end in a partial line), the run stops. */
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        run_fault(pl, pt.why);
        return;
    }
    w->collect = NULL;
    if (pl->records != NULL) {
        log_records_clear(recs);
        w->collect = recs;
    }
    process_chunk(w, job);
    log_oom_leave(&pt);
}

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

/* --threads N is N CPUs: the workers and, while it decompresses, the
 * reader. A compressed input is decompressed by the reader alone, in
 * order, so its decompression is the run's critical path: were all the
 * workers to decode beside it, the scheduler would share the CPUs evenly
 * among N + 1 threads, and the reader, behind, would keep the workers
 * waiting (4 .gz files with 2 threads: 1.4x one thread; with the reader
 * counted, 1.7x). A worker takes a chunk only while the CPUs in use stay
 * within N; the reader gives its CPU back while it waits for a chunk to be
 * written. Plain text is read at memory speed: there the reader takes no
 * CPU of the budget. */
static int worker_may_run(const struct pipeline *pl)
{
    return pl->running + pl->reader_cpu < pl->nworkers;
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
        if (s->state == SLOT_READY && worker_may_run(pl)) {
            s->state = SLOT_BUSY;
            pl->next_work++;
            pl->running++;
            pthread_mutex_unlock(&pl->lock);
            run_chunk(pl, &w, &s->job, &s->recs);
            pthread_mutex_lock(&pl->lock);
            s->state = SLOT_DONE;
            pl->running--;
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
    write_chunk(pl, &s->job, &s->recs);
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
        if (s->state != SLOT_DONE && pl->reader_cpu) { /* its CPU to a worker */
            pl->reader_cpu = 0;
            pthread_cond_broadcast(&pl->ready);
        }
        while (s->state != SLOT_DONE)
            pthread_cond_wait(&pl->done, &pl->lock);
        s->state = SLOT_FREE;
        pl->reader_cpu = pl->reader_inflates;
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
        run_chunk(pl, &pl->inline_worker, &s->job, &s->recs);
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

int pipeline_start(struct pipeline *pl, const struct log_ctx *ctx, int nworkers)
{
    pl->ctx = ctx;
    pl->inline_worker.ctx = ctx;
    if (nworkers < 0 || nworkers > 256)
        nworkers = 0;
    pl->nworkers = nworkers;
    pl->nslots = nworkers > 0 ? (size_t)nworkers * 2 + 2 : 1;
    pl->slots = calloc(pl->nslots, sizeof *pl->slots);
    if (pl->slots == NULL) {
        snprintf(pl->error, sizeof pl->error, "out of memory");
        return -1;
    }
    if (nworkers == 0)
        return 0;
    pthread_mutex_init(&pl->lock, NULL);
    pthread_cond_init(&pl->ready, NULL);
    pthread_cond_init(&pl->done, NULL);
    pl->threads = calloc((size_t)nworkers, sizeof *pl->threads);
    int started = 0;
    if (pl->threads != NULL)
        for (; started < nworkers; started++)
            if (pthread_create(&pl->threads[started], NULL, worker_main, pl) != 0)
                break;
    if (started == nworkers)
        return 0;
    snprintf(pl->error, sizeof pl->error,
             pl->threads == NULL ? "out of memory" : "cannot start threads");
    pl->nworkers = started; /* pipeline_stop joins them */
    pipeline_stop(pl);
    return -1;
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
        pthread_mutex_destroy(&pl->lock);
        pthread_cond_destroy(&pl->ready);
        pthread_cond_destroy(&pl->done);
    }
    for (size_t i = 0; i < pl->nslots; i++) {
        free(pl->slots[i].job.out.data);
        free(pl->slots[i].job.notes.data);
        free(pl->slots[i].own.data);
        log_records_free(&pl->slots[i].recs);
    }
    free(pl->slots);
    pl->slots = NULL;
    free(pl->threads);
    pl->threads = NULL;
    log_records_free(&pl->long_rec);
    free(pl->carry.data);
    free(pl->long_out.data);
    worker_free(&pl->inline_worker);
    say_notes(pl);
    free(pl->notes.data);
    pl->notes.data = NULL;
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
    s->job.notes.len = 0;
    is->notes = &s->job.notes;
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

/* Writes what the run's writer makes of a long line's start, piece or end
 * (log_writer.h): piece: p[0..n), else NULL. */
static void put_long_piece(struct pipeline *pl, struct worker *w, void (*part)(struct worker *w),
                           const char *p, size_t n)
{
    struct buf *o = &pl->long_out;
    o->len = 0;
    buf_reserve(o, LOG_LONG_PIECE_ROOM(n) + 1024);
    w->out = o;
    if (part != NULL)
        part(w);
    else
        pl->ctx->writer->long_piece(w, p, n);
    pipeline_emit(pl, o->data, o->len, 0);
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
    if (pipeline_stopped(pl))
        return 1; /* nothing more is written: not even the line's start */
    uint64_t number = pl->run.total.lines - pl->file_first_line + 1;
    log_input_note(in, "line %llu is longer than --max-line (%zu bytes): written undecoded",
                   (unsigned long long)number, cfg->max_line);
    say_notes(pl);
    const int records = pl->records != NULL;
    const struct log_writer *wr = pl->ctx->writer;
    /* Room for every piece, reserved before the line's start is written:
     * then out of memory while the line is read (a larger carry) ends the
     * line, as an interrupt does, and the output stays whole lines. */
    size_t piece = c->len > LONG_PIECE + 8 ? c->len : LONG_PIECE + 8;
    buf_reserve(&pl->long_out, LOG_LONG_PIECE_ROOM(piece) + 1024);
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        run_fault(pl, pt.why);
        if (!records) {
            struct buf *o = &pl->long_out;
            o->len = 0;
            w->out = o;
            wr->long_end(w);
            pipeline_emit(pl, o->data, o->len, 0);
            pipeline_emit(pl, "\n", 1, 1);
        }
        c->len = 0;
        return 1;
    }
    if (records && !pipeline_stopped(pl)) {
        /* One record: the line's start (it is never held whole). */
        struct log_record_batch *b = &pl->long_rec;
        log_records_clear(b);
        log_records_collect(b, c->data, c->len < cfg->max_line ? c->len : cfg->max_line, NULL, 0);
        b->recs[0].long_line = 1;
        int status = log_records_deliver(b, pl->records, pl->input_index, number);
        if (status != 0) {
            snprintf(pl->error, sizeof pl->error,
                     "record callback failed (%d), after %llu lines; stopped", status,
                     (unsigned long long)pl->run.total.lines);
            atomic_store(&pl->stop, 1);
        }
    }
    pl->run.total.lines++;
    pl->run.total.long_lines++;
    pl->run.total.unparsed++;
    if (!records)
        put_long_piece(pl, w, wr->long_start, NULL, 0);
    int eof = 0;
    for (;;) {
        char *nl = memchr(c->data, '\n', c->len);
        size_t end = nl != NULL ? (size_t)(nl - c->data) : c->len;
        size_t text = end;
        if (nl != NULL && text > 0 && c->data[text - 1] == '\r')
            text--; /* CRLF: the CR is part of the terminator */
        size_t keep = nl != NULL || eof ? 0 : utf8_unfinished_tail(c->data, text);
        if (!records)
            put_long_piece(pl, w, NULL, c->data, text - keep);
        pl->run.total.bytes += text - keep;
        /* Stopped (an interrupt): the line is ended here, so that the
         * output still ends with a whole line. */
        int stop = pipeline_stopped(pl);
        if (nl != NULL || eof || stop) {
            if (records) {
                /* nothing written */
            } else {
                put_long_piece(pl, w, wr->long_end, NULL, 0);
                if (wr->keeps_line_ending && !(stop && nl == NULL && !eof))
                    pipeline_emit(pl, c->data + text, end - text, 0);
                pipeline_emit(pl, "\n", 1, 1);
            }
            size_t rest = nl != NULL ? c->len - end - 1 : 0;
            pl->run.total.bytes += end - text + (nl != NULL);
            memmove(c->data, c->data + c->len - rest, rest);
            c->len = rest;
            log_oom_leave(&pt);
            return eof || stop;
        }
        memmove(c->data, c->data + text - keep, keep);
        c->len = keep;
        buf_reserve(c, LONG_PIECE);
        if (in->live && !log_input_ready(in) && wait_readable(pl, in->fd) != 0)
            continue; /* stopped: the line is ended above */
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
        if (in->live && !log_input_ready(in)) {
            drain(pl); /* nothing to read yet: show what is done */
            if (wait_readable(pl, in->fd) != 0) {
                *eof = 1; /* stopped: nothing more is written */
                continue;
            }
        }
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

/* Whether the reader's decompressing takes a CPU of the budget
 * (worker_may_run). */
static void set_reader_inflates(struct pipeline *pl, int inflates)
{
    if (pl->nworkers == 0)
        return;
    pthread_mutex_lock(&pl->lock);
    pl->reader_inflates = pl->reader_cpu = inflates;
    pthread_cond_broadcast(&pl->ready);
    pthread_mutex_unlock(&pl->lock);
}

/* Reads one input in chunks of whole lines and hands them out (start: the
 * format found so far, or NULL). */
static void process_input(struct pipeline *pl, struct log_input *in,
                          const struct input_format *start)
{
    struct input_format is;
    memset(&is, 0, sizeof is);
    is.fmt = pl->ctx->cfg.format;
    is.name = in->name;
    if (start != NULL) /* going on where process_file stopped */
        is = *start;
    set_reader_inflates(pl, in->dec != NULL || in->pre != NULL);
    int eof = 0;
    while ((!eof || pl->carry.len > 0) && !pipeline_stopped(pl)) {
        struct slot *s = acquire_slot(pl);
        int long_line;
        size_t cut = read_lines(pl, in, &s->own, &eof, &long_line);
        if (cut > 0)
            dispatch(pl, &is, s, s->own.data, cut); /* else the slot stays free */
        if (long_line)
            eof = stream_long_line(pl, in) || eof;
    }
    set_reader_inflates(pl, 0);
    pl->run.failed |= is.too_wide > 0;
}

/* A regular file of plain text with several threads (process_file). The
 * file is cut into blocks of --chunk-size bytes from its start offset.
 * Each thread claims the next block, reads it itself with pread(2), at the
 * same time as the others (no thread waits for another's read, and a
 * block's bytes stay on the core that read them), decodes the lines that
 * start in it, and writes them when its ticket's turn comes. The first of
 * those lines starts after the first newline at or after the byte before
 * the block (block 0: at its first byte), the last ends at the first
 * newline at or after the block's last byte, read a little past the block:
 * every line belongs to exactly one block, and every byte is read about
 * once, with no copy between reads.
 *
 * A last line that runs on past --max-line ends the file run in its
 * block's turn: the file goes on read in order (process_input), which
 * streams the line; so does a block with a NUL byte (holes are taken out
 * where text is read in order). A read that comes short is the file's end
 * (it may have shrunk); nothing of the blocks after it is written.
 * in->offset is the end of what was written, which log_input_close
 * compares with the file's sizes as for a file read in order. */

/* How far past a block its first read goes: most last lines end there. */
#define BLOCK_OVERLAP ((size_t)4 << 10)

struct file_run {
    struct pipeline *pl;
    struct log_input *in;
    size_t block;               /* --chunk-size */
    pthread_mutex_t claim_lock; /* guards the next three */
    uint64_t next_ticket, next_block;
    int stop;                  /* the input's end was written: no more claims */
    pthread_mutex_t turn_lock; /* guards the next five, and the holds' states */
    pthread_cond_t turn_moved;
    uint64_t turn;              /* the ticket whose output is written next */
    struct hold **parked;       /* [ticket % nparked]: decoded, waiting for their turn */
    size_t nparked;             /* more than the holds of all the threads */
    uint64_t format_turn;       /* the ticket whose chunk chunk_format sees next */
    int format_settled;         /* is no longer changes: chunk_format takes no turns */
    struct input_format is;     /* the format_turn holder's, until settled */
    int ended;                  /* the turn holder's: the input's end was written */
    int in_order;               /* the rest is read in order (write_block) */
    struct input_format resume; /* then the format in effect where it goes on */
};

/* A claimed block, as read_block found it. */
struct block {
    uint64_t ticket, index;
    uint64_t from;     /* the file offset of own.data[0] */
    size_t got;        /* bytes read into own */
    size_t first, len; /* the whole lines that start in the block, in own */
    int long_line;     /* a line longer than --max-line starts at own[first + len] */
    int at_end;        /* the input ends with these lines (or a read error, in error) */
    int hit_end;       /* a read came short */
    int error;         /* errno of a failed read, or 0 */
    int nul;           /* a NUL byte was read (see write_block) */
};

/* A block a thread holds from its claim until it is written: its bytes
 * and its output. */
struct hold {
    struct block b;
    struct chunk_job job;
    struct buf own;
    struct log_record_batch recs;
    struct input_format before; /* the format in effect at the block's lines */
    enum {
        HOLD_FREE,
        HOLD_WORKING,
        HOLD_PARKED
    } state;
};

/* Holds per thread: a thread that finishes a block before its turn parks
 * it and goes on with the next, so the faster thread is not held to the
 * slower one's pace; memory stays bounded by the holds. */
#define FILE_HOLDS 2

/* Reads n more bytes of the file into own after the got ones. */
static void read_more(const struct file_run *fr, struct block *b, struct buf *own, size_t n)
{
    own->len = b->got;
    buf_reserve(own, n + LOG_CHUNK_PAD);
    /* A byte range's lines end at its limit, as a file at its end. */
    size_t want = n;
    uint64_t at = b->from + b->got;
    if (fr->in->ranged && (at >= fr->in->limit || want > fr->in->limit - at))
        want = at >= fr->in->limit ? 0 : (size_t)(fr->in->limit - at);
    /* pread(2) by pieces, not log_input_pread: the bytes read before an
     * error are kept and written, as a file read in order writes them. */
    size_t done = 0;
    while (done < want) {
        ssize_t got = pread(fr->in->fd, own->data + b->got + done, want - done,
                            (off_t)(b->from + b->got + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            b->error = errno;
        if (got <= 0)
            break;
        done += (size_t)got;
    }
    if (done > 0 && memchr(own->data + b->got, 0, done) != NULL)
        b->nul = 1;
    b->got += done;
    own->len = b->got;
    b->hit_end = done < n;
}

/* Finds the lines that start in the block, reading past it until the last
 * one ends (or is found longer than --max-line). last: the block's last
 * byte, in own. */
static void cut_lines(const struct file_run *fr, struct block *b, struct buf *own, size_t last)
{
    size_t max_line = fr->pl->ctx->cfg.max_line;
    if (b->index > 0) {
        const char *nl = memchr(own->data, '\n', b->got < last ? b->got : last);
        b->at_end = b->got <= last; /* the file ends in the block */
        if (nl == NULL)
            return; /* no line starts in the block */
        b->first = (size_t)(nl - own->data) + 1;
    }
    if (b->got <= last) {
        b->len = b->got - b->first;
        b->at_end = 1;
        return;
    }
    /* The last line's end: only the bytes not yet searched are searched. */
    const char *before = memrchr(own->data + b->first, '\n', last - b->first);
    size_t line_start = before != NULL ? (size_t)(before - own->data) + 1 : b->first;
    size_t searched = last, overlap = fr->block < BLOCK_OVERLAP ? fr->block : BLOCK_OVERLAP;
    for (;;) {
        const char *nl = memchr(own->data + searched, '\n', b->got - searched);
        if (nl != NULL) {
            b->len = (size_t)(nl - own->data) + 1 - b->first;
            return;
        }
        size_t line = b->got - line_start;
        if (line > max_line && b->error == 0) {
            b->len = line_start - b->first;
            b->long_line = 1;
            return;
        }
        if (b->hit_end) {
            b->len = b->got - b->first;
            b->at_end = 1;
            return;
        }
        /* Geometric: a long line is read a bounded number of times. */
        size_t more = line > overlap ? line : overlap;
        if (more > max_line + 1 - line)
            more = max_line + 1 - line;
        searched = b->got;
        read_more(fr, b, own, more);
    }
}

/* Reads block b->index into own and finds its lines. */
static void read_block(const struct file_run *fr, struct block *b, struct buf *own)
{
    uint64_t start = fr->in->start + b->index * (uint64_t)fr->block;
    /* Past block 0, the byte before the block says whether a line starts
     * at its first byte. */
    b->from = b->index == 0 ? start : start - 1;
    size_t last = (size_t)(start - b->from) + fr->block - 1;
    size_t overlap = fr->block < BLOCK_OVERLAP ? fr->block : BLOCK_OVERLAP;
    b->got = b->first = b->len = 0;
    b->long_line = b->at_end = b->hit_end = b->error = b->nul = 0;
    read_more(fr, b, own, last + 1 + overlap);
    cut_lines(fr, b, own, last);
    /* LOG_CHUNK_PAD bytes past the lines can be read (log_scan_copy_padded):
     * read_more leaves room for them. */
    memset(own->data + b->got, 0, LOG_CHUNK_PAD);
}

/* input_format_chunk for a block, its messages into the job; out of
 * memory stops the run (and the turns go on). */
static void format_chunk(struct file_run *fr, struct chunk_job *job)
{
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        run_fault(fr->pl, pt.why);
        return;
    }
    job->notes.len = 0;
    fr->is.notes = &job->notes;
    input_format_chunk(&fr->is, job->in, job->len, &job->fmt, &job->layout);
    log_oom_leave(&pt);
}

/* Gives job its chunk's format. input_format_chunk sees the chunks in file
 * order: it finds the format on the first, and a W3C layout is carried from
 * each chunk to the next (#Fields: headers). Once the format is known and
 * is not W3C, nothing is carried and no ticket waits for another here. The
 * wait is on the previous ticket's read, not on its decoding. */
static void chunk_format(struct file_run *fr, const struct block *b, struct chunk_job *job,
                         struct input_format *before)
{
    job->notes.len = 0; /* what a block not written (write_block) held */
    pthread_mutex_lock(&fr->turn_lock);
    while (!fr->format_settled && fr->format_turn != b->ticket)
        pthread_cond_wait(&fr->turn_moved, &fr->turn_lock);
    int settled = fr->format_settled;
    pthread_mutex_unlock(&fr->turn_lock);
    if (settled) {
        job->fmt = fr->is.fmt;
        job->layout.count = 0; /* not W3C: no layout (8 KiB not copied) */
        before->fmt = fr->is.fmt;
        before->detected = 1;
        before->name = fr->is.name;
        before->layout.count = 0;
        return;
    }
    *before = fr->is; /* for W3C, the layout too: as job->layout below */
    if (b->len > 0)
        format_chunk(fr, job);
    pthread_mutex_lock(&fr->turn_lock);
    fr->format_turn++;
    fr->format_settled = fr->is.detected && fr->is.fmt != LF_W3C;
    pthread_cond_broadcast(&fr->turn_moved);
    pthread_mutex_unlock(&fr->turn_lock);
}

/* Writes a decoded chunk (its turn has come). read_to: the input's offset
 * after it, for the progress bar. */
static void write_job(struct pipeline *pl, struct chunk_job *job, struct log_record_batch *recs,
                      uint64_t read_to)
{
    write_chunk(pl, job, recs);
    pl->run.read_to = read_to;
    if (pl->run.show_progress)
        show_progress(pl, 0);
}

static void end_input(struct file_run *fr)
{
    fr->ended = 1;
    pthread_mutex_lock(&fr->claim_lock);
    fr->stop = 1;
    pthread_mutex_unlock(&fr->claim_lock);
}

static void reached(struct log_input *in, uint64_t offset)
{
    if (offset > in->offset)
        in->offset = offset;
}

/* In its block's turn: writes its lines and ends the file run at the
 * input's end or at a read error; or, if the block holds NULs or starts a
 * line longer than --max-line, writes nothing and ends the file run there,
 * for the file to go on in order. */
static void write_block(struct file_run *fr, struct hold *h)
{
    struct pipeline *pl = fr->pl;
    const struct block *b = &h->b;
    if (fr->ended)
        return; /* past the input's end */
    if (b->nul || b->long_line) {
        /* Runs of NULs (holes) are taken out of the text, and a line
         * longer than --max-line streamed, where the text is read in
         * order (cut_lines did not look past --max-line): the file goes on
         * that way from the block's lines, in their format. */
        fr->in_order = 1;
        fr->resume = h->before;
        end_input(fr);
        return;
    }
    if (b->len > 0) {
        uint64_t end = b->from + b->first + b->len;
        reached(fr->in, end);
        write_job(pl, &h->job, &h->recs, end);
    }
    if (b->at_end) {
        reached(fr->in, b->from + b->got);
        if (b->error != 0)
            log_input_read_failed(fr->in, b->from + b->got, b->error);
        end_input(fr);
    }
}

/* Writes h's block if its turn has come, and then every parked block whose
 * turn follows; else parks it, for the thread whose block comes before it
 * to write. */
static void finish_block(struct file_run *fr, struct hold *h)
{
    pthread_mutex_lock(&fr->turn_lock);
    if (fr->turn != h->b.ticket) {
        h->state = HOLD_PARKED;
        fr->parked[h->b.ticket % fr->nparked] = h;
        pthread_mutex_unlock(&fr->turn_lock);
        return;
    }
    while (h != NULL) {
        pthread_mutex_unlock(&fr->turn_lock);
        write_block(fr, h);
        pthread_mutex_lock(&fr->turn_lock);
        h->state = HOLD_FREE;
        fr->turn++;
        /* The tickets not yet written are fewer than nparked: one slot each. */
        h = fr->parked[fr->turn % fr->nparked];
        fr->parked[fr->turn % fr->nparked] = NULL;
        pthread_cond_broadcast(&fr->turn_moved);
    }
    pthread_mutex_unlock(&fr->turn_lock);
}

/* One of holds that is free (waiting for one of them to be written), or
 * NULL with all of them free when wait_all. */
static struct hold *free_hold(struct file_run *fr, struct hold *holds, int wait_all)
{
    pthread_mutex_lock(&fr->turn_lock);
    for (;;) {
        int free_count = 0;
        struct hold *h = NULL;
        for (int i = 0; i < FILE_HOLDS; i++)
            if (holds[i].state == HOLD_FREE) {
                free_count++;
                h = &holds[i];
            }
        if (wait_all ? free_count == FILE_HOLDS : h != NULL) {
            if (!wait_all)
                h->state = HOLD_WORKING;
            pthread_mutex_unlock(&fr->turn_lock);
            return wait_all ? NULL : h;
        }
        pthread_cond_wait(&fr->turn_moved, &fr->turn_lock);
    }
}

/* read_block, or out of memory: the block is empty and ends the file run
 * (the run has stopped), so that the turns go on and every thread ends. */
static void read_block_or_end(struct file_run *fr, struct block *b, struct buf *own)
{
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        run_fault(fr->pl, pt.why);
        b->got = b->first = b->len = 0;
        b->long_line = b->hit_end = b->error = b->nul = 0;
        b->at_end = 1;
        return;
    }
    read_block(fr, b, own);
    log_oom_leave(&pt);
}

static void *file_thread(void *arg)
{
    struct file_run *fr = arg;
    struct worker w;
    struct hold holds[FILE_HOLDS];
    memset(&w, 0, sizeof w);
    memset(holds, 0, sizeof holds);
    w.ctx = fr->pl->ctx;
    for (;;) {
        struct hold *h = free_hold(fr, holds, 0);
        pthread_mutex_lock(&fr->claim_lock);
        int stop = fr->stop || pipeline_stopped(fr->pl);
        if (!stop) {
            h->b.ticket = fr->next_ticket++;
            h->b.index = fr->next_block++;
        }
        pthread_mutex_unlock(&fr->claim_lock);
        if (stop) {
            pthread_mutex_lock(&fr->turn_lock);
            h->state = HOLD_FREE;
            pthread_mutex_unlock(&fr->turn_lock);
            break;
        }
        read_block_or_end(fr, &h->b, &h->own);
        h->job.in = h->own.data + h->b.first;
        h->job.len = h->b.len;
        chunk_format(fr, &h->b, &h->job, &h->before);
        if (h->b.len > 0)
            run_chunk(fr->pl, &w, &h->job, &h->recs);
        finish_block(fr, h);
    }
    free_hold(fr, holds, 1); /* parked ones are written by other threads */
    worker_free(&w);
    for (int i = 0; i < FILE_HOLDS; i++) {
        free(holds[i].job.out.data);
        free(holds[i].job.notes.data);
        free(holds[i].own.data);
        log_records_free(&holds[i].recs);
    }
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
 * nworkers - 1 started for it (the pipeline's workers wait meanwhile).
 * Returns 0; 1 if the rest of the file is to be read in order (from
 * *resume: the format in effect there); or -1 out of memory, nothing done
 * (read it in order). */
static int process_file(struct pipeline *pl, struct log_input *in, struct input_format *resume)
{
    struct file_run fr;
    memset(&fr, 0, sizeof fr);
    fr.pl = pl;
    fr.in = in;
    fr.block = pl->ctx->cfg.chunk;
    fr.is.fmt = pl->ctx->cfg.format;
    fr.is.name = in->name;
    pthread_mutex_init(&fr.claim_lock, NULL);
    pthread_mutex_init(&fr.turn_lock, NULL);
    pthread_cond_init(&fr.turn_moved, NULL);
    fr.nparked = (size_t)pl->nworkers * FILE_HOLDS + 1;
    fr.parked = calloc(fr.nparked, sizeof *fr.parked);
    size_t extra = (size_t)pl->nworkers - 1;
    pthread_t *threads = calloc(extra, sizeof *threads);
    if (fr.parked == NULL || threads == NULL) {
        free(fr.parked);
        free(threads);
        pthread_mutex_destroy(&fr.claim_lock);
        pthread_mutex_destroy(&fr.turn_lock);
        pthread_cond_destroy(&fr.turn_moved);
        return -1;
    }
    drain(pl);              /* the previous inputs' output first */
    in->offset = in->start; /* the blocks read the head again */
    pl->run.read_to = in->offset;
    pl->run.reading_file = 1;
    size_t started = 0; /* fewer threads when no more can start: still correct */
    for (; started < extra; started++)
        if (pthread_create(&threads[started], NULL, file_thread, &fr) != 0)
            break;
    file_thread(&fr);
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    pl->run.reading_file = 0;
    /* Where reading in order would have left the file offset: a regular
     * file as stdin may be read on after us. */
    lseek(in->fd, (off_t)in->offset, SEEK_SET);
    pthread_mutex_destroy(&fr.claim_lock);
    pthread_mutex_destroy(&fr.turn_lock);
    pthread_cond_destroy(&fr.turn_moved);
    free(fr.parked);
    pl->run.failed |= fr.is.too_wide > 0;
    if (fr.in_order) {
        log_input_continue_at(in, in->offset);
        *resume = fr.resume;
    }
    return fr.in_order;
}

/* Reads in to its end (or until the run stops). Out of memory on this
 * thread (reading, a long line, writing: decoding and the threads of
 * process_file have points of their own, so that they are joined) stops
 * the run; what is in flight is then let go by drain. No lock is held
 * where this thread allocates. */
static void read_input(struct pipeline *pl, struct log_input *in)
{
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        run_fault(pl, pt.why);
        return;
    }
    struct input_format resume;
    int in_order = file_eligible(pl, in) ? process_file(pl, in, &resume) : -1;
    if (in_order != 0)
        process_input(pl, in, in_order > 0 ? &resume : NULL);
    log_oom_leave(&pt);
}

static void pipeline_input(struct pipeline *pl, const struct pipeline_input *input,
                           struct log_prefetch *pre)
{
    struct log_input in;
    struct stat st;
    int fd = input->fd >= 0 ? input->fd : strcmp(input->name, "-") == 0 ? STDIN_FILENO : -1;
    /* log_input_open reads the first bytes: an idle pipe waits here. */
    if (pre == NULL && fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) &&
        wait_readable(pl, fd) != 0)
        return; /* stopped before the input said anything */
    int status = pre != NULL      ? log_prefetch_take(pre, &in)
                 : input->fd >= 0 ? log_input_open_fd(&in, input->fd, input->name, &pl->notes)
                                  : log_input_open(&in, input->name, &pl->notes);
    if (status == 1) /* not opened ahead (out of memory there): opened here */
        status = log_input_open(&in, input->name, &pl->notes);
    if (status == 0 && pl->ranged)
        status = log_input_set_range(&in, pl->range_start, pl->range_end);
    in.notes = &pl->notes; /* messages are said with the output (say_notes) */
    say_notes(pl);
    if (status != 0) {
        pl->run.failed = 1;
        return;
    }
    pl->run.current = &in;
    pl->run.compressed |= in.dec != NULL || in.pre != NULL;
    pl->carry.len = 0;
    pl->file_first_line = pl->run.total.lines;
    read_input(pl, &in);
    drain(pl);
    pl->run.current = NULL;
    pl->run.done_before += in.offset - in.start;
    int stopped = pipeline_stopped(pl);
    size_t said = pl->notes.len;
    if (log_input_close(&in) != 0 && !stopped)
        pl->run.failed = 1;
    if (stopped) /* not read to its end: its size is no news */
        pl->notes.len = said;
    say_notes(pl);
}

/* pipeline_input; out of memory where the input is opened or closed, or a
 * message held, stops the run, and pipeline_inputs lets go of the files
 * read ahead. (An input opened by name whose opening runs out of memory
 * keeps its fd open.) */
static void input_or_stop(struct pipeline *pl, const struct pipeline_input *input,
                          struct log_prefetch *pre)
{
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        run_fault(pl, pt.why);
        pl->run.current = NULL;
        return;
    }
    pipeline_input(pl, input, pre);
    log_oom_leave(&pt);
}

void pipeline_inputs(struct pipeline *pl, const struct pipeline_input *inputs, size_t count)
{
    /* With worker threads, the files from the one being written on (as
     * many as there are threads) are opened, and decompressed if they are
     * compressed, each by a thread of its own (when that cannot start, the
     * file is opened in its turn). */
    size_t window = pl->nworkers > 0 && !pl->ranged ? (size_t)pl->nworkers : 0;
    struct log_prefetch **pre = calloc(count + 1, sizeof *pre);
    if (pre == NULL)
        window = 0;
    size_t started = 0, i = 0;
    for (; i < count && !pipeline_stopped(pl); i++) {
        for (; window > 0 && started < count && started < i + window; started++)
            if (inputs[started].fd < 0 && log_prefetch_eligible(inputs[started].name))
                pre[started] = log_prefetch_start(inputs[started].name, &pl->notes);
        pl->input_index = i;
        input_or_stop(pl, &inputs[i], pre != NULL ? pre[i] : NULL);
    }
    /* Stopped: the files read ahead are let go, and what they would say. */
    for (; i < started; i++) {
        struct log_input in;
        size_t said = pl->notes.len;
        if (pre[i] != NULL && log_prefetch_take(pre[i], &in) == 0) {
            in.notes = &pl->notes;
            log_input_close(&in);
        }
        pl->notes.len = said;
    }
    free(pre);
}
