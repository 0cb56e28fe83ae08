/* log_decode.c - decoding pieces of log lines with libpct: percent escapes
 * (and %uXXXX), '+' in form queries, UTF-8 checked and repaired. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_decode.h"
#include "log_oom.h"
#include "log_unescape.h"
#include "log_writer.h"

void log_ctx_init(struct log_ctx *ctx, const struct log_config *cfg)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->cfg = *cfg;
    ctx->writer = log_writer_for(cfg);
    ctx->raw_text = cfg->raw && ctx->writer->honours_raw;
    pct_set_clear(&ctx->keep_path);
    pct_set_add_chars(&ctx->keep_path, "/");
    pct_set_clear(&ctx->keep_query);
    pct_set_add_chars(&ctx->keep_query, "&=#");
    pct_set_clear(&ctx->keep_split);
    pct_set_add_chars(&ctx->keep_split, "&=");
    pct_set_fill(&ctx->keep_all);
    pct_set_clear(&ctx->keep_none);
    log_escape_init(&ctx->esc);
    /* The bytes that may need work in put_decoded: '%', controls, '"', '\\'
     * (Apache's escapes), 0x80 and up (UTF-8 to check), '+' (form), ' '
     * (whitespace-separated formats). */
    log_scan_init(&ctx->work[0][0], 0x20, 1, "%\\\"\x7f");
    log_scan_init(&ctx->work[1][0], 0x20, 1, "%\\\"\x7f+");
    log_scan_init(&ctx->work[0][1], 0x20, 1, "%\\\"\x7f ");
    log_scan_init(&ctx->work[1][1], 0x20, 1, "%\\\"\x7f+ ");
    log_scan_init(&ctx->work_path[0], 0x20, 1, "%\\\"\x7f?");
    log_scan_init(&ctx->work_path[1], 0x20, 1, "%\\\"\x7f ?");
    /* Text written in a JSON string as it is unless: controls, '"', '\\',
     * and 0x80 and up (UTF-8 to check, C1 controls). */
    log_scan_init(&ctx->json_text, 0x20, 1, "\"\\\x7f");
    pct_set_clear(&ctx->json_query);
    pct_set_add_range(&ctx->json_query, 0x00, 0x1f);
    pct_set_add_chars(&ctx->json_query, "\"\\\x7f\xc2&=");
    /* Line output: what put_undecoded escapes (ESC_CONTROLS), the newline
     * among them. JSON: what makes a line not plain (a line without these,
     * and without '"' outside its quoted fields, is written by copying its
     * fields: json_access). */
    pct_set_clear(&ctx->line_marks[0]);
    pct_set_add_range(&ctx->line_marks[0], 0x00, 0x1f);
    pct_set_add_byte(&ctx->line_marks[0], 0x7f);
    pct_set_add_byte(&ctx->line_marks[0], 0xc2);
    pct_set_clear(&ctx->quote);
    pct_set_add_byte(&ctx->quote, '"');
    pct_set_clear(&ctx->line_marks[1]);
    pct_set_add_range(&ctx->line_marks[1], 0x00, 0x1f);
    pct_set_add_range(&ctx->line_marks[1], 0x7f, 0xff);
    pct_set_add_byte(&ctx->line_marks[1], '\\');
}

void worker_free(struct worker *w)
{
    free(w->scratch.data);
    w->scratch.data = NULL;
    free(w->json_keys.data);
    w->json_keys.data = NULL;
    w->json_keys.cap = w->json_keys.len = 0;
    for (int i = 0; i < 3; i++) {
        free(w->fmt_buf[i].data);
        w->fmt_buf[i].data = NULL;
        w->fmt_buf[i].cap = w->fmt_buf[i].len = 0;
    }
}

int has_high_bytes(const char *src, size_t n)
{
    uint64_t words = 0;
    size_t i = 0;
    for (; n - i >= 8; i += 8)
        words |= swar_load(src + i);
    unsigned bytes = 0;
    for (; i < n; i++)
        bytes |= (unsigned char)src[i];
    return (words & SWAR_HIGHS) != 0 || (bytes & 0x80) != 0;
}

size_t repair_utf8(struct worker *w, const char *src, size_t n)
{
    char *o = buf_room(&w->scratch, 3 * n + 16);
    pct_result r = pct_decode_except(src, n, o, &w->ctx->keep_all, PCT_UTF8_REPLACE);
    return r.status == PCT_OK ? r.count : 0;
}

/* Counts the escapes of src for --stats, by the library's rules: a line
 * has escapes when decoding shortens it; each '%' that strict validation
 * rejects is a malformed escape (counting resumes after it). */
static void count_escapes(struct worker *w, const char *src, size_t n, unsigned flags)
{
    unsigned u = flags & PCT_PERCENT_U;
    pct_result r = pct_validate(src, n, &w->ctx->keep_none, u);
    if (r.status == PCT_OK && r.count < n)
        w->line_escaped = 1;
    for (size_t at = 0; at < n; at += r.count + 1) {
        r = pct_validate(src + at, n - at, &w->ctx->keep_none, u | PCT_STRICT);
        if (r.status != PCT_INVALID_ESCAPE)
            break;
        w->st->malformed++;
    }
}

/* Decodes src (no Apache escape in it) straight into the output, and
 * escapes what needs it. The library's decode checks the UTF-8 of what it
 * writes as it goes (PCT_UTF8): valid output, by far the common case, takes
 * one pass. Ill-formed output is redone with U+FFFD replacement (with
 * --bytes, without the check). Decoded text rarely needs an escape (a
 * decoded control, quote or backslash): when it does, what follows the
 * first such byte is moved to the scratch buffer and escaped back. The
 * output has room for 6 bytes per byte of src (see process_chunk). */
static inline void put_decoded_run(struct worker *w, const char *src, size_t n, const pct_set *keep,
                                   unsigned flags, int json);

/* 1 if src[0..n) holds a ' '. src is followed by readable bytes (as for
 * put_decoded's first scan): 16 at a time, no tail loop. */
static inline int has_space_padded(const char *src, size_t n)
{
#ifdef LOG_SCAN_SSE2
    const __m128i space = _mm_set1_epi8(' ');
    for (size_t i = 0; i < n; i += 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(src + i)), space));
        if (n - i < 16)
            m &= (1u << (n - i)) - 1;
        if (m != 0)
            return 1;
    }
    return 0;
#else
    return memchr(src, ' ', n) != NULL;
#endif
}

/* put_decoded_run of a run that holds spaces as written (a request of more
 * than three words): a space that decoding makes is escaped (\x20), but
 * one written in the log was not decoded and stays as written, so the line
 * keeps its fields. */
__attribute__((cold, noinline)) static void
put_decoded_spaced(struct worker *w, const char *src, size_t n, const pct_set *keep, unsigned flags)
{
    const char *e = src + n;
    while (src < e) {
        const char *sp = log_find_byte(src, e, ' ');
        const char *end = sp != NULL ? sp : e;
        if (end > src)
            put_decoded_run(w, src, (size_t)(end - src), keep, flags, 0);
        if (sp == NULL)
            break;
        put_raw(w, " ", 1);
        src = sp + 1;
    }
}

/* An error that lenient decoding cannot give: the run's error (log_oom.h),
 * not an exit. detail: kept for a debugger. */
static _Noreturn __attribute__((noinline)) void decoding_failed(const char *detail)
{
    (void)detail;
    log_oom_jump(LOG_FAULT_INTERNAL);
}

__attribute__((always_inline)) static inline void put_decoded_run(struct worker *w, const char *src,
                                                                  size_t n, const pct_set *keep,
                                                                  unsigned flags, int json)
{
    enum log_escape_mode mode = json ? ESC_JSON : w->spaced ? ESC_SPACED : ESC_LINE;
    /* A form query in a format whose spaces are escaped: its '+' become
     * spaces to escape, so it is decoded aside and escaped on its way out. */
    int aside = mode == ESC_SPACED && (flags & PCT_PLUS);
    char *o = aside ? buf_room(&w->scratch, 3 * n + 16) : w->out->data + w->out->len;
    pct_result r = pct_decode_except(src, n, o, keep, flags | PCT_UTF8);
    if (r.status == PCT_INVALID_UTF8) {
        w->line_bad_utf8 = 1;
        r = pct_decode_except(src, n, o, keep,
                              w->ctx->cfg.bytes ? flags : flags | PCT_UTF8_REPLACE);
    }
    if (r.status != PCT_OK) /* cannot happen (lenient decoding); be safe: a run error */
        decoding_failed(pct_status_string(r.status));
    if (aside) {
        const size_t before = w->out->len;
        o = log_escape_padded(&w->ctx->esc, w->out->data + before, o, r.count, mode);
        w->out->len = (size_t)(o - w->out->data);
        /* Something escaped (most often a '+' made a space): a space as
         * written, if any, is written again as it is. */
        if (w->out->len - before != r.count && has_space_padded(src, n)) {
            w->out->len = before;
            put_decoded_spaced(w, src, n, keep, flags);
        }
        return;
    }
    size_t i = log_scan_find(&w->ctx->esc.scan[mode], o, 0, r.count);
    if (i < r.count && mode == ESC_SPACED && log_find_byte(src, src + n, ' ') != NULL) {
        put_decoded_spaced(w, src, n, keep, flags); /* nothing written yet: o is past len */
        return;
    }
    if (i < r.count) {
        size_t rest = r.count - i;
        char *copy = buf_room(&w->scratch, rest + 16);
        memcpy(copy, o + i, rest);
        o = log_escape_padded(&w->ctx->esc, o + i, copy, rest, mode);
        w->out->len = (size_t)(o - w->out->data);
    } else {
        w->out->len += r.count;
    }
}

static void put_decoded_runs(struct worker *w, const char *src, size_t n, const pct_set *keep,
                             unsigned flags, int json)
{
    const char *e = src + n;
    while (src < e) {
        const char *bs = json ? NULL : memchr(src, '\\', (size_t)(e - src));
        const char *run_end = bs != NULL ? bs : e;
        if (run_end > src)
            put_decoded_run(w, src, (size_t)(run_end - src), keep, flags, json);
        if (bs == NULL)
            break;
        /* The log's own backslash escapes (\" \\ \xHH, Apache's \t \b...)
         * are line output's too: copied as written. Any other '\' is a byte
         * of the text like any other: escaped (as \\), and what follows it
         * is decoded and UTF-8-checked with the next run. */
        size_t lit = log_escape_kept((enum log_escaping)w->text_esc, bs, e);
        if (lit > 0) {
            put_raw(w, bs, lit);
            src = bs + lit;
        } else {
            put_escaped(w, bs, 1, json);
            src = bs + 1;
        }
    }
}

/* Decodes src and appends it escaped. In line output, Apache's own escapes
 * (\" \\ \xHH) are literal text of the log: they are copied as written, and
 * only the runs between them are decoded. Pieces with nothing to decode or
 * escape (most of them) are copied as they are. */
void put_decoded(struct worker *w, const char *src, size_t n, const pct_set *keep, unsigned flags,
                 int json)
{
    if (w->ctx->cfg.stats && memchr(src, '%', n) != NULL)
        count_escapes(w, src, n, flags);
    /* Most pieces hold nothing to decode or escape: find out with an early
     * exit at the first byte that may need work. */
    size_t i = log_scan_copy_padded(&w->ctx->work[(flags & PCT_PLUS) != 0][w->spaced != 0],
                                    w->out->data + w->out->len, src, n);
    w->out->len += i; /* nothing before byte i changes */
    if (i == n)
        return;
    put_decoded_runs(w, src + i, n - i, keep, flags, json);
}

const char *put_url_path(struct worker *w, struct span u, int json)
{
    const pct_set *keep = w->ctx->cfg.decode_slash ? NULL : &w->ctx->keep_path;
    const char *q;
    if (w->ctx->cfg.stats) { /* put_decoded counts the path's escapes */
        q = log_find_byte(u.p, u.p + u.n, '?');
        put_decoded(w, u.p, q != NULL ? (size_t)(q - u.p) : u.n, keep, path_flags(w), json);
        return q;
    }
    /* put_decoded of the path, whose first scan also stops at '?': a path
     * with nothing to decode is copied, and its end found, at once. */
    size_t i = log_scan_copy_padded(&w->ctx->work_path[w->spaced != 0], w->out->data + w->out->len,
                                    u.p, u.n);
    w->out->len += i; /* nothing before byte i changes */
    q = i < u.n && u.p[i] == '?' ? u.p + i : log_find_byte(u.p + i, u.p + u.n, '?');
    const char *path_end = q != NULL ? q : u.p + u.n;
    if (u.p + i < path_end)
        put_decoded_runs(w, u.p + i, (size_t)(path_end - (u.p + i)), keep, path_flags(w), json);
    return q;
}

void put_url_line(struct worker *w, struct span u)
{
    const char *q = put_url_path(w, u, 0);
    if (q == NULL)
        return;
    size_t qn = u.n - (size_t)(q - u.p) - 1;
    put_raw(w, "?", 1);
    if (w->ctx->cfg.query == Q_KEEP)
        put_undecoded(w, q + 1, qn); /* not decoded: as written, controls escaped */
    else
        put_decoded(w, q + 1, qn, &w->ctx->keep_query,
                    path_flags(w) | (w->ctx->cfg.query == Q_FORM ? PCT_PLUS : 0), 0);
}
