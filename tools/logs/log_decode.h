/* log_decode.h - decoding the pieces of a log line (request target, path,
 * query, referer) with libpct and appending them, escaped, to the output. */
#ifndef PCT_TOOLS_LOG_DECODE_H
#define PCT_TOOLS_LOG_DECODE_H

#include <stdint.h>
#include <string.h>

#include "log_escape.h"
#include "log_format_registry.h"
#include "log_marks.h"
#include "log_options.h"
#include "log_scan.h"
#include "log_time.h"
#include "log_util.h"
#include "pct.h"

struct log_writer;

struct log_table;
struct log_record_batch;

/* Everything read-only that decoding and writing need, built once (a
 * session's). */
struct log_ctx {
    struct log_config cfg;
    const struct log_writer *writer; /* the output mode (log_writer.h) */
    int raw_text;                    /* --raw where the writer honours it */
    pct_set keep_path;               /* '/' unless --decode-slash */
    pct_set keep_query;              /* line output: '&' '=' '#' stay encoded */
    pct_set keep_split;              /* JSON query: '&' '=' stay encoded (put_json_query) */
    pct_set keep_all;                /* JSON: only repair UTF-8 */
    pct_set keep_none;               /* --stats: validation with nothing required encoded */
    struct log_escape esc;
    struct log_scan work[2][2];   /* put_decoded's bytes: [PCT_PLUS][spaced] */
    struct log_scan work_path[2]; /* a path's, and '?' (put_url_line): [spaced] */
    struct log_scan json_text;    /* JSON text that may need work: escapes, UTF-8 */
    pct_set json_query;           /* decoded query, JSON: what ESC_JSON escapes, '&', '=' */
    pct_set line_marks[2]; /* what a line is scanned for: [line output, JSON] (process_chunk) */
    pct_set quote;         /* '"' */
    const struct log_table *table; /* --fields (log_tsv.h) */
};

void log_ctx_init(struct log_ctx *ctx, const struct log_config *cfg);

#define LOG_STATS_FORMATS LF_COUNT /* one count per format of the registry */

struct stats {
    uint64_t lines, bytes, escaped_lines, malformed, invalid_utf8, unparsed, long_lines;
    uint64_t formats[LOG_STATS_FORMATS]; /* lines parsed, per enum log_format_id */
    uint64_t truncated;                  /* records the server cut (log_cut.h) */
};

/* Per-thread work state. */
struct worker {
    const struct log_ctx *ctx;
    struct buf *out;    /* the chunk's output */
    struct buf scratch; /* decoded bytes before escaping */
    struct stats *st;
    int line_escaped, line_bad_utf8;
    int line_clean;              /* the line holds no control byte, DEL or C1 control lead */
    int json_plain;              /* the line is ASCII with no control byte, DEL or '\\' */
    struct span line;            /* the line being written (process_chunk) */
    int spaced;                  /* whitespace-separated format: decoded spaces are escaped */
    int w3c;                     /* IIS: %uXXXX decoded */
    unsigned char text_esc;      /* line output: enum log_escaping of the text
                                    put_decoded reads, whose escapes it keeps */
    struct buf fmt_buf[3];       /* log_record_out.c: a field's text on its way out */
    struct log_marks marks;      /* process_chunk's scan of its lines */
    struct log_marks quote_bits; /* and where their '"' are (parse_access) */
    struct quote_marks quotes;
    int long_at_start; /* a long line's TSV/CSV cell: nothing of it written yet */
    int access_record; /* the record written is record_process_access's (log_record_out.h) */
    int last_format;   /* the format the last line was found in (record_detect) */
    struct log_record_batch *collect; /* records wanted instead of output (log_records.h) */
    struct buf json_keys;             /* log_record_walk.h: keys of the object built there */
    struct log_time_memo time_memo;   /* the last time written as ISO 8601 */
    struct log_iso_memo iso_memo;     /* the last ISO 8601 time as nanoseconds (cells) */
};

/* Frees a worker's buffers. */
void worker_free(struct worker *w);

/* Output room is reserved per line (see process_chunk): no checks here. */
static inline void put_raw(struct worker *w, const char *src, size_t n)
{
    memcpy(w->out->data + w->out->len, src, n);
    w->out->len += n;
}

static inline void put_str(struct worker *w, const char *text)
{
    put_raw(w, text, strlen(text));
}

static inline void put_mode(struct worker *w, const char *src, size_t n, enum log_escape_mode mode)
{
    char *o = w->out->data + w->out->len;
    o = log_escape(&w->ctx->esc, o, src, n, mode);
    w->out->len = (size_t)(o - w->out->data);
}

/* Decoded text, for line output (json == 0) or inside a JSON string. */
static inline void put_escaped(struct worker *w, const char *src, size_t n, int json)
{
    put_mode(w, src, n, json ? ESC_JSON : w->spaced ? ESC_SPACED : ESC_LINE);
}

/* Text of the log that is not decoded, line output: controls are escaped
 * (unless --raw) so that no log content reaches a terminal raw. */
static inline void put_undecoded(struct worker *w, const char *src, size_t n)
{
    if (w->ctx->raw_text || w->line_clean)
        put_raw(w, src, n);
    else
        put_mode(w, src, n, ESC_CONTROLS);
}

static inline unsigned path_flags(const struct worker *w)
{
    return w->ctx->cfg.percent_u || w->w3c ? PCT_PERCENT_U : 0;
}

/* 1 if src holds a byte >= 0x80. */
int has_high_bytes(const char *src, size_t n);

/* Decodes src (escapes whose byte is in keep stay as written) and appends it
 * escaped for line output (json == 0) or inside a JSON string. */
void put_decoded(struct worker *w, const char *src, size_t n, const pct_set *keep, unsigned flags,
                 int json);

/* The path of a URL or request target (up to its '?'), decoded (%2F kept
 * unless --decode-slash) and escaped for line output or inside a JSON
 * string; returns its '?' or NULL. */
const char *put_url_path(struct worker *w, struct span u, int json);

/* A URL or request target, line output: path per segment (%2F kept unless
 * --decode-slash), query per --query. */
void put_url_line(struct worker *w, struct span u);

/* Repairs ill-formed UTF-8 in src (nothing decoded) into the scratch buffer;
 * returns its length. */
size_t repair_utf8(struct worker *w, const char *src, size_t n);

#endif
