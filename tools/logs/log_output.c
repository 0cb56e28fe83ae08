/* log_output.c - each line of a chunk to the run's writer (log_writer.h):
 * the combined/common and W3C fast paths, --field, the record path, lines
 * that do not parse and over-long ones; the --stats counts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_cut.h"
#include "log_decode.h"
#include "log_formats.h"
#include "log_output.h"
#include "log_record_out.h"
#include "log_records.h"
#include "log_safe.h"
#include "log_writer.h"

/* A line that does not parse: counted, and written as the writer writes
 * such lines. */
static void put_unparsed(struct worker *w, const char *s, size_t n)
{
    w->st->unparsed++;
    w->ctx->writer->unparsed(w, s, n, 0);
}

/* 1 if a common line's bytes field is followed by a '"' (a referer,
 * possibly cut: then it is a combined line's). */
static inline int quote_after_bytes(const char *e, struct span bytes)
{
    const char *p = bytes.p + bytes.n;
    return e - p >= 2 && p[0] == ' ' && p[1] == '"';
}

/* One line without its terminator. LF_AUTO: combined or common. */
static void process_line(struct worker *w, const char *s, size_t n, enum log_format_id fmt,
                         struct w3c_layout *layout)
{
    const struct log_config *cfg = &w->ctx->cfg;
    const struct log_writer *wr = w->ctx->writer;
    w->line_escaped = w->line_bad_utf8 = 0;
    if (fmt == LF_W3C) {
        struct span f[LOG_W3C_MAX_COLUMNS + 1];
        if (n > 0 && s[0] == '#') {
            if (is_fields_line(s, n))
                parse_w3c_header(s, n, layout);
            wr->unparsed(w, s, n, 1);
            return;
        }
        int count = split_fields(s, n, f, LOG_W3C_MAX_COLUMNS);
        if (layout->count == 0 || count != layout->count) {
            put_unparsed(w, s, n);
            return;
        }
        wr->w3c(w, s, n, f, count, layout);
    } else if (log_format_via_record(fmt)) {
        if (!record_process(w, s, n, fmt) &&
            !record_process_cut(w, s, n, fmt, TEMPLATE_CUT_QUOTED)) {
            put_unparsed(w, s, n);
            return;
        }
    } else if (fmt == LF_FIELD) {
        struct span f[LOG_MAX_FIELDS + 1];
        int count = split_fields(s, n, f, LOG_MAX_FIELDS);
        if ((size_t)count < cfg->field || cfg->field > LOG_MAX_FIELDS) {
            put_unparsed(w, s, n);
            return;
        }
        wr->field(w, s, n, f[cfg->field - 1]);
    } else {
        struct access a;
        if (!parse_access(s, n, &a, wr->exact_fields, &w->quotes) ||
            (fmt == LF_COMBINED && !a.has_ra)) {
            /* auto: the other formats (log_formats.c); then a line cut */
            if ((fmt != LF_AUTO || !record_process(w, s, n, fmt)) &&
                !record_process_cut(w, s, n, fmt, TEMPLATE_CUT_QUOTED)) {
                put_unparsed(w, s, n);
                return;
            }
        } else if (fmt == LF_AUTO && access_may_be_haproxy_clf(&a) &&
                   record_process(w, s, n, LF_HAPROXY_CLF)) {
            /* HAProxy's option httplog clf: "" "" and its own fields after */
        } else if (fmt == LF_AUTO && access_may_be_squid(s, n, &a) &&
                   record_process(w, s, n, LF_SQUID_COMBINED)) {
            /* Squid's combined: its fields hold no escapes */
        } else if (!a.has_ra && fmt == LF_AUTO && quote_after_bytes(s + n, a.bytes) &&
                   record_process_cut(w, s, n, LF_COMBINED, TEMPLATE_CUT_QUOTED)) {
            /* a combined line cut in its referer or agent, not a common one */
        } else {
            if (fmt == LF_COMMON)
                a.has_ra = 0;
            if (!cfg->stats || !request_was_cut(a.request, a.status)) {
                wr->access(w, s, n, &a, fmt);
            } else { /* a count only --stats prints */
                const uint64_t cut = w->st->truncated;
                wr->access(w, s, n, &a, fmt);
                /* counted by the record if the writer made one, else here */
                w->st->truncated += w->st->truncated == cut;
            }
        }
    }
    w->st->escaped_lines += (uint64_t)w->line_escaped;
    w->st->invalid_utf8 += (uint64_t)w->line_bad_utf8;
}

/* A line longer than --max-line that a chunk holds whole: written as the
 * pipeline streams one (log_writer.h), counted, its number noted. */
static void process_long_line(struct worker *w, struct chunk_job *job, const char *s, size_t n)
{
    const struct log_writer *wr = w->ctx->writer;
    if (job->st.long_lines == 0)
        job->long_first = job->st.lines + 1;
    job->st.long_lines++;
    job->st.unparsed++;
    if (w->collect != NULL) { /* records wanted: its start, as a streamed one */
        size_t max = w->ctx->cfg.max_line;
        log_records_collect(w->collect, s, n < max ? n : max, NULL, 0);
        w->collect->recs[w->collect->count - 1].long_line = 1;
        return;
    }
    wr->long_start(w);
    wr->long_piece(w, s, n);
    wr->long_end(w);
}

/* The NUL that ends an entry squid cut at the start of the line [s, e)
 * (log_cut.h), or NULL; *fmt: its format (squid's own, or the one squid was
 * told to write, such as combined). fmt LF_AUTO: any. */
static const char *squid_cut_at(struct worker *w, const char *s, const char *e,
                                enum log_format_id *fmt)
{
    const char *nul = squid_cut_nul(s, e);
    if (nul == NULL)
        return NULL;
    struct log_record r;
    const size_t n = (size_t)(nul - s);
    const struct log_config *cfg = &w->ctx->cfg;
    if (*fmt == LF_AUTO && record_parse_cut(LF_SQUID, s, n, &r, cfg, TEMPLATE_CUT_ANYWHERE))
        *fmt = LF_SQUID;
    else if (*fmt == LF_AUTO &&
             record_parse_cut(LF_SQUID_COMBINED, s, n, &r, cfg, TEMPLATE_CUT_ANYWHERE))
        *fmt = LF_SQUID_COMBINED; /* Squid's combined, not Apache's */
    else if (record_parse_cut(*fmt == LF_AUTO ? -1 : *fmt, s, n, &r, cfg, TEMPLATE_CUT_ANYWHERE))
        *fmt = (enum log_format_id)r.format;
    else
        return NULL;
    return nul;
}

/* process_chunk's work for a line [p, content_end) whose squid entry squid
 * cut at the NUL at cut (squid_cut_at): the entry is a line, written and
 * counted; the text after the NUL, if any, is the next line. nl: the
 * line's newline or NULL. Returns where the next line starts. */
static const char *process_squid_cut(struct worker *w, struct chunk_job *job, const char *p,
                                     const char *cut, const char *content_end, const char *nl,
                                     enum log_format_id fmt)
{
    const struct log_writer *wr = w->ctx->writer;
    const size_t n = (size_t)(cut - p);
    w->line_clean = w->json_plain = 0; /* not known: scanned for the whole line */
    w->line = span_of(p, cut);
    buf_reserve(&job->out, wr->room_per_byte * n + 512);
    w->line_escaped = w->line_bad_utf8 = 0;
    if (!record_process_cut(w, p, n, fmt, TEMPLATE_CUT_ANYWHERE))
        put_unparsed(w, p, n);
    w->st->escaped_lines += (uint64_t)w->line_escaped;
    w->st->invalid_utf8 += (uint64_t)w->line_bad_utf8;
    job->st.lines++;
    if (cut + 1 < content_end) { /* the next entry, on the same line */
        put_raw(w, "\n", 1);
        return cut + 1;
    }
    /* The NUL ends the line: its own ending after it (the NUL not written). */
    if (nl != NULL && wr->keeps_line_ending)
        put_raw(w, cut + 1, (size_t)(nl - cut));
    else
        put_raw(w, "\n", 1);
    return nl != NULL ? nl + 1 : job->in + job->len;
}

void process_chunk(struct worker *w, struct chunk_job *job)
{
    const struct log_writer *wr = w->ctx->writer;
    const char *p = job->in, *e = job->in + job->len;
    memset(&job->st, 0, sizeof job->st);
    job->long_first = 0;
    job->out.len = 0;
    w->out = &job->out;
    w->st = &job->st;
    /* A decoded space is \x20 (unless --raw-spaces): the line splits into the
     * same fields, inside quotes too (awk field numbers stay right). */
    w->spaced =
        job->fmt == LF_W3C || job->fmt == LF_FIELD || (!w->ctx->cfg.raw_spaces && !wr->wants_plain);
    w->w3c = job->fmt == LF_W3C;
    job->st.bytes = job->len;
    /* What a line is scanned for: the bytes put_undecoded escapes (none
     * with --raw), or (JSON) those that make it not plain. */
    const int scan = wr->wants_plain || !w->ctx->raw_text;
    log_marks_start(&w->marks, &w->ctx->line_marks[wr->wants_plain != 0]);
    log_marks_start(&w->quote_bits, &w->ctx->quote);
    w->quotes.marks = &w->quote_bits;
    w->quotes.chunk_end = e;
    const size_t max_line = w->ctx->cfg.max_line;
    /* squid's cut entries: in squid's format or another it writes (combined) */
    const int squid = job->fmt != LF_W3C && job->fmt != LF_FIELD;
    while (p < e) {
        /* The line's end and whether its text has such a byte, in one pass:
         * the first one (the newline is one) is most often the newline, or
         * a CR before it. */
        const char *c = scan ? log_marks_next(&w->marks, p, e) : p;
        const char *nl = c < e && *c == '\n'                          ? c
                         : e - c >= 2 && c[0] == '\r' && c[1] == '\n' ? c + 1
                         : c < e ? memchr(c, '\n', (size_t)(e - c))
                                 : NULL;
        const char *end = nl != NULL ? nl : e;
        const char *content_end = log_safe_text_end(p, nl, e);
        /* Longer than --max-line as the pipeline counts it: the bytes before
         * the newline (a CR too). */
        const int too_long = (size_t)(end - p) > max_line;
        /* A squid entry cut at its NUL (a control byte: the line is not
         * clean): the NUL ends its line (log_cut.h). Not in a line too long,
         * which the pipeline may have streamed instead. */
        const char *cut;
        enum log_format_id cut_fmt = job->fmt;
        if (c < content_end && squid && !too_long &&
            (cut = squid_cut_at(w, p, content_end, &cut_fmt)) != NULL) {
            p = process_squid_cut(w, job, p, cut, content_end, nl, cut_fmt);
            continue;
        }
        w->line_clean = c >= content_end;
        w->json_plain = wr->wants_plain && w->line_clean; /* else not known */
        size_t n = (size_t)(content_end - p);
        w->line = span_of(p, content_end);
        buf_reserve(&job->out, wr->room_per_byte * (too_long ? 0 : n) + 512);
        if (too_long) {
            /* Held whole only when it came in one read: the same output as
             * a line streamed (log_pipeline.c) */
            buf_reserve(&job->out, LOG_LONG_PIECE_ROOM(n));
            process_long_line(w, job, p, n);
        } else {
            process_line(w, p, n, job->fmt, &job->layout);
        }
        if (nl != NULL && wr->keeps_line_ending)
            put_raw(w, content_end, (size_t)(end - content_end) + 1);
        else
            put_raw(w, "\n", 1); /* the input's last line: ended here, so the next
                                    input's first line stays a line of its own */
        job->st.lines++;
        p = nl != NULL ? nl + 1 : e;
    }
}

void chunk_job_written(struct chunk_job *job, size_t chunk)
{
    /* A buffer that grew for a long line or a wide row (--fields naming
     * big fields) is not kept for the chunks after it: memory follows the
     * rows in flight, not the largest row of each slot. */
    if (job->out.cap > 4 * chunk + ((size_t)1 << 20)) {
        free(job->out.data);
        job->out.data = NULL;
        job->out.cap = job->out.len = 0;
    }
}

void add_stats(struct stats *a, const struct stats *b)
{
    a->lines += b->lines;
    a->bytes += b->bytes;
    a->escaped_lines += b->escaped_lines;
    a->malformed += b->malformed;
    a->invalid_utf8 += b->invalid_utf8;
    a->unparsed += b->unparsed;
    a->long_lines += b->long_lines;
    a->truncated += b->truncated;
    for (int i = 0; i < LOG_STATS_FORMATS; i++)
        a->formats[i] += b->formats[i];
}

void print_stats(const struct stats *s, double start)
{
    double elapsed = now_seconds() - start;
    fprintf(stderr,
            "lines:              %llu\n"
            "bytes:              %llu\n"
            "lines with escapes: %llu\n"
            "malformed escapes:  %llu\n"
            "invalid UTF-8:      %llu lines\n"
            "unparsed lines:     %llu\n"
            "long lines:         %llu (longer than --max-line: written undecoded)\n"
            "truncated records:  %llu (cut by the server: decoded as far as they go)\n"
            "elapsed:            %.3f s\n"
            "throughput:         %.3f GB/s\n",
            (unsigned long long)s->lines, (unsigned long long)s->bytes,
            (unsigned long long)s->escaped_lines, (unsigned long long)s->malformed,
            (unsigned long long)s->invalid_utf8, (unsigned long long)s->unparsed,
            (unsigned long long)s->long_lines, (unsigned long long)s->truncated, elapsed,
            elapsed > 0 ? (double)s->bytes / elapsed / 1e9 : 0.0);
    for (int i = 0; i < LF_COUNT && i < LOG_STATS_FORMATS; i++)
        if (s->formats[i] > 0)
            fprintf(stderr, "format %-14s %llu lines\n", log_format_name(i),
                    (unsigned long long)s->formats[i]);
}
