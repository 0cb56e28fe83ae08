/* log_session.c - the engine of `pct logs` as an object (log_session.h):
 * options checked and compiled into a session's log_ctx, inputs run
 * through a pipeline (log_pipeline.c) into a sink or a record callback,
 * bytes fed through a socket to a run on a thread of the session's own. */
#define _GNU_SOURCE /* MSG_NOSIGNAL */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log_formats.h"
#include "log_pipeline.h"
#include "log_records.h"
#include "log_oom.h"
#include "log_session.h"
#include "log_writer.h"
#include "log_tsv.h"
#include "log_values.h"

/* What a fed run holds back before it starts: as much as log_input.c reads
 * to find the content type (HEAD_BYTES), so that it finds it from the
 * same bytes as in a file, however the bytes come. */
#define FEED_HEAD ((size_t)64 << 10)

struct log_session {
    struct log_ctx ctx; /* the options, compiled; read-only during a run */
    struct log_table table;
    struct log_formats *formats; /* compiled templates: ctx.cfg.formats */
    char *log_format, *json_key; /* copies the compiled options point into */
    int configured, ran;
    struct log_sink sink;
    int have_sink;
    struct log_record_sink records;
    struct log_values values;
    struct pipeline_input *inputs;
    size_t ninputs, cap;
    log_message_fn say;
    void *say_ctx;
    _Atomic int interrupted; /* the signal, 0: none */
    struct stats total;
    int ranged; /* log_session_set_range */
    uint64_t range_start, range_end;
    double start;
    char error[512];
    /* Feeding: */
    int feeding;        /* 1 once fed, 2 once the run started */
    int feed_fd[2];     /* [0] the run reads, [1] feed writes */
    struct buf head;    /* the first FEED_HEAD bytes, until the run starts */
    pthread_t thread;   /* the run of the bytes fed */
    int thread_running; /* joined when 0 */
    int feed_status;    /* the run's return */
    /* Parsing lines one call at a time (log_session_parse): */
    int parsing;                /* 1 once log_session_parse was called */
    struct worker parse_worker; /* the calling thread's */
    struct chunk_job parse_job; /* the lines of one call */
    struct buf parse_in;        /* their copy, with LOG_CHUNK_PAD bytes after */
    struct log_record_batch parse_recs;
};

static int fail(struct log_session *s, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Sets the error, "pct logs: " and the message. Returns -1. */
static int fail(struct log_session *s, const char *format, ...)
{
    int k = snprintf(s->error, sizeof s->error, "pct logs: ");
    va_list args;
    va_start(args, format);
    vsnprintf(s->error + k, sizeof s->error - (size_t)k, format, args);
    va_end(args);
    return -1;
}

void log_options_init(struct log_options *o)
{
    memset(o, 0, sizeof *o);
    o->cfg.format = LF_AUTO;
    o->cfg.progress = -1;
    o->cfg.chunk = LOG_DEFAULT_CHUNK;
    o->cfg.max_line = LOG_DEFAULT_MAX_LINE;
}

int log_options_format(struct log_options *o, const char *name)
{
    /* As the CLI's --format (log_options.c): "auto", or a registry name or
     * alias. */
    int id = strcmp(name, "auto") == 0 ? LF_AUTO : log_format_by_name(name);
    if (id == -1)
        return -1;
    o->cfg.format = id;
    return 0;
}

int log_options_field(struct log_options *o, size_t n)
{
    if (n < 1 || n > LOG_MAX_FIELDS)
        return -1;
    o->cfg.field = n;
    o->cfg.format = LF_FIELD;
    return 0;
}

struct log_session *log_session_new(void)
{
    struct log_session *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->sink.fd = -1;
    s->feed_fd[0] = s->feed_fd[1] = -1;
    return s;
}

static void feed_abandon(struct log_session *s);

void log_session_free(struct log_session *s)
{
    if (s == NULL)
        return;
    feed_abandon(s);
    for (size_t i = 0; i < s->ninputs; i++)
        free((char *)s->inputs[i].name);
    free(s->inputs);
    log_formats_free(s->formats);
    free(s->log_format);
    free(s->json_key);
    free(s->head.data);
    worker_free(&s->values.w);
    worker_free(&s->parse_worker);
    free(s->parse_job.out.data);
    free(s->parse_in.data);
    log_records_free(&s->parse_recs);
    free(s);
}

const char *log_session_error(const struct log_session *s)
{
    return s->error;
}

static char *copy_text(const char *text, int *oom)
{
    if (text == NULL)
        return NULL;
    char *c = strdup(text);
    *oom |= c == NULL;
    return c;
}

/* The checks of the command line (log_options.c names the options). */
static int check_options(struct log_session *s, const struct log_config *cfg,
                         const struct log_options *o)
{
    if ((int)cfg->format < LF_AUTO || cfg->format >= LF_COUNT ||
        (cfg->format == LF_CUSTOM && o->log_format == NULL))
        return fail(s, "unknown format (see --list-formats)");
    if (cfg->format == LF_FIELD && (cfg->field < 1 || cfg->field > LOG_MAX_FIELDS))
        return fail(s, "--field must be 1..%d", LOG_MAX_FIELDS);
    if (cfg->threads < 0 || cfg->threads > LOG_MAX_THREADS)
        return fail(s, "--threads must be 1..%d", LOG_MAX_THREADS);
    if (cfg->chunk < 1 || cfg->chunk > (size_t)1 << 30)
        return fail(s, "--chunk-size must be 1..1G");
    if (cfg->max_line < (size_t)4 << 10 || cfg->max_line > (size_t)256 << 20)
        return fail(s, "--max-line must be 4K..256M");
    if (cfg->table != 0 && cfg->table != 't' && cfg->table != 'c' && cfg->table != 'b')
        return fail(s, "table must be 't' (TSV), 'c' (CSV), 'b' (cells, log_cells.h) or 0");
    if (cfg->json && cfg->bytes)
        return fail(s, "--bytes cannot be combined with --json (JSON text is UTF-8)");
    if (cfg->table && cfg->json)
        return fail(s, "--json cannot be combined with --tsv or --csv");
    if ((o->fields != NULL || cfg->header) && !cfg->table)
        return fail(s, "--fields and --header go with --tsv or --csv");
    if (cfg->csv_safe && cfg->table != 'c')
        return fail(s, "--csv-safe goes with --csv");
    if (cfg->table && cfg->format == LF_FIELD)
        return fail(s, "--field N cannot be combined with --tsv or --csv (name a format)");
    return 0;
}

int log_session_configure(struct log_session *s, const struct log_options *o)
{
    s->error[0] = '\0';
    if (s->ran || s->feeding)
        return fail(s, "options are set before the run");
    struct log_config cfg = o->cfg;
    if (o->log_format != NULL)
        cfg.format = LF_CUSTOM;
    if (check_options(s, &cfg, o) != 0)
        return -1;
    if (cfg.format == LF_W3C)
        cfg.percent_u = 1;
    const char *error = table_fields_set(&s->table, o->fields);
    if (error != NULL)
        return fail(s, "%s", error);
    int oom = 0;
    free(s->log_format);
    free(s->json_key);
    s->log_format = copy_text(o->log_format, &oom);
    s->json_key = copy_text(cfg.json_key, &oom);
    if (oom)
        return fail(s, "out of memory");
    cfg.json_key = s->json_key;
    log_formats_free(s->formats);
    if ((s->formats = log_formats_new(s->log_format, &error)) == NULL) {
        if (s->log_format == NULL)
            return fail(s, "%s", error);
        char name[LOG_QUOTED_NAME_MAX];
        return fail(s, "--log-format: %s: %s", error, log_quote_name(name, s->log_format));
    }
    cfg.formats = s->formats;
    if (o->has_byte_range && log_session_set_range(s, o->byte_range_start, o->byte_range_end) != 0)
        return -1;
    log_ctx_init(&s->ctx, &cfg);
    s->ctx.table = &s->table;
    s->configured = 1;
    return 0;
}

int log_session_output_fd(struct log_session *s, int fd)
{
    s->error[0] = '\0';
    if (fd < 0 || fcntl(fd, F_GETFD) < 0)
        return fd == 1 ? fail(s, "stdout is closed") : fail(s, "output fd %d is not open", fd);
    memset(&s->sink, 0, sizeof s->sink);
    s->sink.fd = fd;
    s->have_sink = 1;
    s->records.fn = NULL;
    return 0;
}

int log_session_output_callback(struct log_session *s, log_write_fn fn, void *ctx)
{
    memset(&s->sink, 0, sizeof s->sink);
    s->sink.fd = -1;
    s->sink.fn = fn;
    s->sink.ctx = ctx;
    s->have_sink = fn != NULL;
    s->records.fn = NULL;
    return 0;
}

int log_session_records(struct log_session *s, log_record_fn fn, void *ctx)
{
    s->records.fn = fn;
    s->records.ctx = ctx;
    s->records.values = &s->values;
    s->have_sink = 0;
    return 0;
}

void log_session_messages(struct log_session *s, log_message_fn fn, void *ctx)
{
    s->say = fn;
    s->say_ctx = ctx;
}

void log_session_interrupt(struct log_session *s, int sig)
{
    atomic_store(&s->interrupted, sig > 0 ? sig : 2);
}

static int add_input(struct log_session *s, const char *name, int fd)
{
    if (s->ninputs == s->cap) {
        size_t cap = s->cap > 0 ? 2 * s->cap : 8;
        struct pipeline_input *in = realloc(s->inputs, cap * sizeof *in);
        if (in == NULL)
            return fail(s, "out of memory");
        s->inputs = in;
        s->cap = cap;
    }
    char *copy = strdup(name);
    if (copy == NULL)
        return fail(s, "out of memory");
    s->inputs[s->ninputs].name = copy;
    s->inputs[s->ninputs].fd = fd;
    s->ninputs++;
    return 0;
}

int log_session_set_range(struct log_session *s, uint64_t start, uint64_t end)
{
    s->error[0] = '\0';
    if (s->ran || s->feeding)
        return fail(s, "a byte range is set before the run");
    if (start > end)
        return fail(s, "a byte range START:END needs START <= END (%llu:%llu)",
                    (unsigned long long)start, (unsigned long long)end);
    s->ranged = 1;
    s->range_start = start;
    s->range_end = end;
    return 0;
}

int log_session_add_file(struct log_session *s, const char *name)
{
    return add_input(s, name, -1);
}

int log_session_add_fd(struct log_session *s, int fd, const char *name)
{
    if (fd < 0)
        return fail(s, "input fd %d is not open", fd);
    return add_input(s, name != NULL ? name : "input", fd);
}

/* Total size of the inputs when all are regular files, else 0 (unknown);
 * a byte range's size (about: its last line may run past it). */
static uint64_t known_size(const struct log_session *s, const struct pipeline_input *inputs,
                           size_t count)
{
    if (s->ranged)
        return s->range_end - s->range_start;
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        int fd = inputs[i].fd >= 0 ? inputs[i].fd : strcmp(inputs[i].name, "-") == 0 ? 0 : -1;
        int known = fd >= 0 ? fstat(fd, &st) == 0 : stat(inputs[i].name, &st) == 0;
        if (!known || !S_ISREG(st.st_mode))
            return 0;
        total += (uint64_t)st.st_size;
    }
    return total;
}

/* Every line through the record parsers, as TSV takes them; the table
 * writer hands the records over instead (log_tsv.c). */
static void records_mode(struct log_session *s)
{
    struct log_ctx *ctx = &s->ctx;
    ctx->cfg.table = 't';
    ctx->cfg.json = ctx->cfg.raw = ctx->cfg.header = 0;
    ctx->writer = log_writer_for(&ctx->cfg);
    ctx->raw_text = 0;
    memset(&s->values.w, 0, sizeof s->values.w);
    s->values.w.ctx = ctx;
}

/* A run over inputs: the return of log_session_run. */
/* pipeline_inputs and _stop, with the calling thread's last recovery
 * point (log_oom.h): out of memory where an input is opened or closed, or
 * a message held, stops the run instead of the process. */
static void run_pipeline(struct pipeline *pl, const struct pipeline_input *inputs, size_t count)
{
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0) {
        int none = 0;
        atomic_compare_exchange_strong(&pl->fault, &none, pt.why);
        atomic_store(&pl->stop, 1);
        pl->notes.len = 0;
        if (pl->slots != NULL) { /* else pipeline_stop was saying its notes */
            pipeline_stop(pl);
        } else {
            free(pl->notes.data);
            pl->notes.data = NULL;
        }
        return;
    }
    pipeline_inputs(pl, inputs, count);
    pipeline_stop(pl);
    log_oom_leave(&pt);
}

static int run_inputs(struct log_session *s, const struct pipeline_input *inputs, size_t count)
{
    if (!s->configured)
        return fail(s, "the session has no options (log_session_configure)");
    if (!s->have_sink && s->records.fn == NULL)
        return fail(s, "the session has no output (log_session_output_fd, _callback, _records)");
    if (s->ran)
        return fail(s, "a session runs once");
    if (s->ranged && count != 1)
        return fail(s, "a byte range goes with one input, not %zu", count);
    s->ran = 1;
    struct log_ctx *ctx = &s->ctx;
    if (s->records.fn != NULL)
        records_mode(s);
    long threads = ctx->cfg.threads;
    if (threads == 0) {
        threads = sysconf(_SC_NPROCESSORS_ONLN);
        if (threads < 1)
            threads = 1;
        if (threads > LOG_MAX_THREADS)
            threads = LOG_MAX_THREADS;
    }
    struct pipeline *pl = calloc(1, sizeof *pl);
    if (pl == NULL)
        return fail(s, "out of memory");
    pl->sink = s->records.fn != NULL ? NULL : &s->sink;
    pl->records = s->records.fn != NULL ? &s->records : NULL;
    pl->interrupted = &s->interrupted;
    pl->say = s->say;
    pl->say_ctx = s->say_ctx;
    pl->run.size_known = known_size(s, inputs, count);
    pl->ranged = s->ranged;
    pl->range_start = s->range_start;
    pl->range_end = s->range_end;
    pl->run.show_progress =
        ctx->cfg.progress == 1 ||
        (ctx->cfg.progress < 0 && isatty(STDERR_FILENO) && pl->run.size_known > 0);
    pl->run.start = s->start = now_seconds();
    if (pipeline_start(pl, ctx, threads > 1 ? (int)threads : 0) != 0) {
        fail(s, "%s", pl->error);
        free(pl);
        return -1;
    }
    if (ctx->cfg.header && pl->sink != NULL && ctx->writer->header != NULL) {
        char header[2048];
        pipeline_emit(pl, header, ctx->writer->header(ctx, header, sizeof header), 1);
    }
    run_pipeline(pl, inputs, count);
    if (pl->run.show_progress)
        show_progress(pl, 1);
    s->total = pl->run.total;
    int status = 0, sig = atomic_load(&s->interrupted);
    int fault = atomic_load(&pl->fault);
    if (fault != 0) {
        status = fail(s, "%s, after %llu line%s; stopped",
                      fault == LOG_FAULT_OOM ? "out of memory" : "internal decoding error",
                      (unsigned long long)s->total.lines, s->total.lines == 1 ? "" : "s");
    } else if (sig != 0 && atomic_load(&pl->stop)) {
        fail(s, "interrupted (%s)", sig == 15 ? "SIGTERM" : sig == 2 ? "SIGINT" : "signal");
        status = 128 + sig;
    } else if (pl->error[0] != '\0') {
        status = fail(s, "%s", pl->error);
    } else if (s->sink.failed) {
        status = fail(s, "%s", s->sink.error);
    } else if (pl->run.failed) {
        fail(s, "an input had a fault (said in the messages)");
        status = LOG_SESSION_FAULT;
    } else if (ctx->cfg.strict && s->total.unparsed > 0) {
        fail(s, "%llu line%s did not parse", (unsigned long long)s->total.unparsed,
             s->total.unparsed == 1 ? "" : "s");
        status = 1;
    }
    free(pl);
    return status;
}

int log_session_run(struct log_session *s)
{
    s->error[0] = '\0';
    if (s->feeding)
        return fail(s, "a fed session ends with log_session_finish");
    if (s->ninputs == 0)
        return fail(s, "no input (log_session_add_file, _add_fd)");
    return run_inputs(s, s->inputs, s->ninputs);
}

/* ------------------------------------------------------------------ feeding */

static void *feed_run(void *arg)
{
    struct log_session *s = arg;
    struct pipeline_input in = {"input", s->feed_fd[0]};
    s->feed_status = run_inputs(s, &in, 1);
    /* A feed blocked on a full socket now sees EPIPE. */
    close(s->feed_fd[0]);
    s->feed_fd[0] = -1;
    return NULL;
}

/* Sends all n bytes to the run; -1 when it has stopped reading. */
static int feed_send(struct log_session *s, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t got = send(s->feed_fd[1], p, n, MSG_NOSIGNAL);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

/* Starts the run of the bytes fed: the head is queued in the socket first
 * (its buffer is made larger than the head), so that the run's first read
 * takes all of it, as from a file. eof: nothing more will come. On the
 * calling thread when everything is already here. */
static int feed_start(struct log_session *s, int eof)
{
    s->feeding = 2;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, s->feed_fd) != 0)
        return fail(s, "cannot feed: %s", strerror(errno));
    int size = (int)(4 * FEED_HEAD);
    setsockopt(s->feed_fd[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    setsockopt(s->feed_fd[0], SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    int flags = fcntl(s->feed_fd[1], F_GETFL);
    fcntl(s->feed_fd[1], F_SETFL, flags | O_NONBLOCK);
    int sent = feed_send(s, s->head.data, s->head.len);
    fcntl(s->feed_fd[1], F_SETFL, flags);
    if (sent != 0)
        return fail(s, "cannot feed: %s", strerror(errno));
    s->head.len = 0;
    if (eof) {
        shutdown(s->feed_fd[1], SHUT_WR);
        feed_run(s);
        return 0;
    }
    if (pthread_create(&s->thread, NULL, feed_run, s) != 0)
        return fail(s, "cannot start threads");
    s->thread_running = 1;
    return 0;
}

static void feed_join(struct log_session *s)
{
    if (s->thread_running) {
        pthread_join(s->thread, NULL);
        s->thread_running = 0;
    }
    if (s->feed_fd[1] >= 0) {
        close(s->feed_fd[1]);
        s->feed_fd[1] = -1;
    }
}

static void feed_abandon(struct log_session *s)
{
    if (s->thread_running) {
        log_session_interrupt(s, 15);
        shutdown(s->feed_fd[1], SHUT_WR);
        /* The run may wait on the callback's sink, not on input: it stops
         * at its next line boundary. */
    }
    feed_join(s);
}

/* buf_reserve: 0, or -1 out of memory. */
static int reserve_head(struct buf *b, size_t n)
{
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0)
        return -1;
    buf_reserve(b, n);
    log_oom_leave(&pt);
    return 0;
}

int log_session_feed(struct log_session *s, const void *bytes, size_t n)
{
    /* (s->ran is the run's own once it runs on its thread: not read then.) */
    if (s->feeding == 3 || (s->feeding == 0 && s->ran))
        return fail(s, "a session runs once");
    if (s->feeding == 0)
        s->feeding = 1;
    if (s->feeding == 1) {
        size_t take = FEED_HEAD - s->head.len < n ? FEED_HEAD - s->head.len : n;
        if (reserve_head(&s->head, take + 1) != 0) {
            s->feeding = 3; /* nothing runs: finish returns the error */
            s->feed_status = fail(s, "out of memory, after 0 lines; stopped");
            return -1;
        }
        memcpy(s->head.data + s->head.len, bytes, take);
        s->head.len += take;
        bytes = (const char *)bytes + take;
        n -= take;
        if (s->head.len < FEED_HEAD)
            return 0;
        if (feed_start(s, 0) != 0)
            return -1;
    }
    if (s->feed_fd[1] < 0 || feed_send(s, bytes, n) != 0) {
        /* The run stopped: its error says why. */
        feed_join(s);
        if (s->feed_status == 0)
            return fail(s, "the run has stopped");
        return -1;
    }
    return 0;
}

int log_session_finish(struct log_session *s)
{
    if (s->feeding == 0)
        s->feeding = 1; /* no bytes at all: an empty input */
    if (s->feeding == 1) {
        if (feed_start(s, 1) != 0)
            return -1;
    } else if (s->feed_fd[1] >= 0) {
        shutdown(s->feed_fd[1], SHUT_WR);
    }
    feed_join(s);
    s->feeding = 3;
    return s->feed_status;
}

/* ------------------------------------------------------------------ parsing */

/* The lines of one call, decoded on the calling thread into parse_recs;
 * 0, or -1 out of memory (nothing delivered). */
static int parse_lines(struct log_session *s, const char *p, size_t n)
{
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0)
        return -1;
    struct buf *in = &s->parse_in;
    in->len = 0;
    buf_reserve(in, n + LOG_CHUNK_PAD);
    memcpy(in->data, p, n);
    memset(in->data + n, 0, LOG_CHUNK_PAD);
    struct chunk_job *job = &s->parse_job;
    job->in = in->data;
    job->len = n;
    /* auto: found per line, as in a file that is not W3C; W3C: the job
     * keeps the layout of the last '#Fields:' line parsed. */
    job->fmt = s->ctx.cfg.format;
    log_records_clear(&s->parse_recs);
    s->parse_worker.collect = &s->parse_recs;
    process_chunk(&s->parse_worker, job);
    log_oom_leave(&pt);
    return 0;
}

int log_session_parse(struct log_session *s, const char *p, size_t n)
{
    s->error[0] = '\0';
    if (!s->configured)
        return fail(s, "the session has no options (log_session_configure)");
    if (s->records.fn == NULL)
        return fail(s, "log_session_parse delivers records (log_session_records)");
    if (s->feeding || (s->ran && !s->parsing))
        return fail(s, "a session that runs its inputs or is fed does not parse lines");
    if (!s->parsing) {
        records_mode(s);
        s->parse_worker.ctx = &s->ctx;
        s->parse_worker.last_format = -1;
        s->parsing = s->ran = 1;
        s->start = now_seconds();
    }
    if (n == 0)
        return 0;
    if (parse_lines(s, p, n) != 0)
        return fail(s, "out of memory, after %llu lines; stopped",
                    (unsigned long long)s->total.lines);
    const uint64_t first = s->total.lines + 1;
    add_stats(&s->total, &s->parse_job.st);
    int status = 0;
    struct log_oom_point pt;
    log_oom_enter(&pt);
    if (setjmp(pt.jump) != 0)
        return fail(s, "out of memory, after %llu lines; stopped",
                    (unsigned long long)s->total.lines);
    status = log_records_deliver(&s->parse_recs, &s->records, 0, first);
    log_oom_leave(&pt);
    if (status != 0)
        return fail(s, "record callback failed (%d), after %llu lines; stopped", status,
                    (unsigned long long)s->total.lines);
    return 0;
}

/* ------------------------------------------------------------------ counts */

void log_session_counts(const struct log_session *s, struct log_session_counts *c)
{
    c->lines = s->total.lines;
    c->bytes = s->total.bytes;
    c->escaped_lines = s->total.escaped_lines;
    c->malformed = s->total.malformed;
    c->invalid_utf8 = s->total.invalid_utf8;
    c->unparsed = s->total.unparsed;
    c->long_lines = s->total.long_lines;
    for (int i = 0; i < LF_COUNT; i++)
        c->formats[i] = s->total.formats[i];
    c->truncated = s->total.truncated;
}

void log_session_print_stats(const struct log_session *s)
{
    print_stats(&s->total, s->start);
}
