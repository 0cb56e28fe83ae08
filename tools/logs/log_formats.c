/* log_formats.c - the registry's formats compiled, and finding which format
 * a line or an input is in. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_access.h"
#include "fmt_custom.h"
#include "fmt_json.h"
#include "log_cut.h"
#include "log_formats.h"

struct log_formats *log_formats_new(const char *custom, const char **error)
{
    struct log_formats *fs = calloc(1, sizeof *fs);
    if (fs == NULL) {
        *error = "out of memory";
        return NULL;
    }
    *error = "internal error: the format registry is inconsistent";
    for (int id = 0; id < LF_COUNT; id++) {
        const struct log_format_def *d = log_format_def(id);
        /* log_format_via_record: the fast-path formats come first */
        int fast = d->parser == LOG_PARSER_ACCESS || d->parser == LOG_PARSER_W3C;
        /* combined's and common's records are made with their escaping
         * set (log_record_out.c's access_add) */
        if ((id == LF_COMBINED || id == LF_COMMON) && d->escaping != LOG_ESC_BACKSLASH)
            goto fail;
        if (d->name == NULL || d->description == NULL || fast == log_format_via_record(id) ||
            (d->template_text == NULL) !=
                (d->parser == LOG_PARSER_W3C || d->parser == LOG_PARSER_JSON ||
                 d->parser == LOG_PARSER_CUSTOM))
            goto fail;
        if (d->template_text != NULL) {
            struct log_template *t = &fs->template[id];
            const int haproxy = d->parser == LOG_PARSER_HAPROXY;
            if (template_compile(t, d->template_text, haproxy ? SYNTAX_HAPROXY : SYNTAX_NGINX) !=
                NULL)
                goto fail;
            t->syslog = d->syslog;
            /* HAProxy and Squid's combined write nothing after their format
             * (Squid's raw quotes: a field ends where the rest of the line
             * matches, to its end) */
            t->exact = haproxy || id == LF_SQUID_COMBINED;
            t->escaping = (unsigned char)d->escaping;
            if (d->escaping == LOG_ESC_PERCENT) /* one more layer, and tabs between */
                for (int k = 0; k < t->count; k++) {
                    t->item[k].layers = 1;
                    t->item[k].quote = FQ_TAB;
                }
            fs->has_template[id] = 1;
        }
    }
    /* auto: by rank */
    for (int rank = 1; rank < 256; rank++)
        for (int id = 0; id < LF_COUNT; id++) {
            const struct log_format_def *d = log_format_def(id);
            if ((d->detect == LOG_DETECT_LINE || d->detect == LOG_DETECT_LINE_NEW) &&
                d->rank == rank)
                fs->detect[fs->ndetect++] = id;
        }
    *error = NULL;
    if (custom != NULL) {
        struct log_template *t = &fs->template[LF_CUSTOM];
        *error = custom_format_compile(t, custom);
        if (*error != NULL)
            goto fail;
        t->syslog = t->haproxy; /* HAProxy logs to syslog: its prefix, or none */
        fs->has_template[LF_CUSTOM] = 1;
    }
    for (int id = 0; id < LF_COUNT; id++)
        fs->escaping[id] = id == LF_CUSTOM && fs->has_template[id] ? fs->template[id].escaping
                                                                   : log_format_def(id)->escaping;
    return fs;
fail:
    free(fs);
    return NULL;
}

void log_formats_free(struct log_formats *fs)
{
    free(fs);
}

/* record_parse, or with cut (TEMPLATE_CUT_*) only a cut record of a
 * template format. */
static int parse_as(int id, const char *s, size_t n, struct log_record *r,
                    const struct log_config *cfg, int cut)
{
    r->n = 0;
    r->names_len = 0;
    r->format = id;
    r->truncated = 0;
    int ok;
    if (id == LF_JSON) {
        ok = cut == TEMPLATE_WHOLE && json_line_parse(s, n, r, cfg->json_key);
    } else {
        const struct log_formats *fs = cfg->formats;
        if (id < 0 || id >= LF_COUNT || !fs->has_template[id])
            return 0;
        ok = template_match_cut(&fs->template[id], s, n, r, cut);
        if (ok && cut == TEMPLATE_CUT_QUOTED && !r->truncated)
            ok = 0; /* whole: record_parse's, not a cut one */
        if (ok && cut == TEMPLATE_CUT_ANYWHERE)
            r->truncated = 1; /* known to be cut, whichever field it was */
    }
    if (ok && !r->truncated)
        record_mark_cut(r);
    if (ok && !r->truncated && id != LF_JSON && cfg->formats->template[id].url_cut > 0) {
        const struct log_template *t = &cfg->formats->template[id];
        record_mark_url_cut(r, (size_t)t->url_cut, (enum log_escaping)t->escaping);
    }
    return ok;
}

int record_parse(int id, const char *s, size_t n, struct log_record *r,
                 const struct log_config *cfg)
{
    return parse_as(id, s, n, r, cfg, TEMPLATE_WHOLE);
}

int record_parse_cut(int id, const char *s, size_t n, struct log_record *r,
                     const struct log_config *cfg, int cut)
{
    if (id >= 0)
        return parse_as(id, s, n, r, cfg, cut);
    const struct log_formats *fs = cfg->formats;
    for (int i = 0; i < fs->ndetect; i++)
        if (parse_as(fs->detect[i], s, n, r, cfg, cut))
            return 1;
    return 0;
}

int record_detect(const char *s, size_t n, struct log_record *r, const struct log_config *cfg,
                  int *last)
{
    /* Lines of one file: one format, tried first. */
    const struct log_formats *fs = cfg->formats;
    int first = *last >= 0 && *last < LF_COUNT ? *last : -1;
    /* Squid's combined, before combined's template takes its raw quotes as
     * Apache's escapes (a line the fast path took: log_record_out.h) */
    if (first != LF_SQUID_COMBINED && line_ends_squid_tags(s, n) &&
        record_parse(LF_SQUID_COMBINED, s, n, r, cfg)) {
        *last = LF_SQUID_COMBINED;
        return 1;
    }
    if (first >= 0 && record_parse(first, s, n, r, cfg))
        return 1;
    for (int i = 0; i < fs->ndetect; i++) {
        int id = fs->detect[i];
        if (id != first && record_parse(id, s, n, r, cfg)) {
            *last = log_format_def(id)->detect == LOG_DETECT_LINE ? id : -1;
            return 1;
        }
    }
    return 0;
}

/* The report of a '#Fields:' header too wide, at byte offset. */
static void say_too_wide(struct input_format *is, uint64_t offset)
{
    char name[LOG_QUOTED_NAME_MAX], line[LOG_QUOTED_NAME_MAX + 256];
    int n = snprintf(line, sizeof line,
                     "pct logs: %s: byte %" PRIu64 ": a '#Fields:' header of %d columns "
                     "(at most %d, names %d bytes in all): the lines it describes "
                     "are not parsed\n",
                     log_quote_name(name, is->name != NULL ? is->name : "input"), offset,
                     is->layout.too_wide, LOG_W3C_MAX_COLUMNS, LOG_W3C_NAMES_MAX);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (is->notes == NULL) {
        fwrite(line, 1, len, stderr);
        return;
    }
    buf_reserve(is->notes, len);
    memcpy(is->notes->data + is->notes->len, line, len);
    is->notes->len += len;
}

/* W3C: the layout at the start of each chunk is that of the last #Fields:
 * line before it, so chunks can be decoded in any order. */
static void track_w3c_headers(struct input_format *is, const char *p, size_t n)
{
    const char *e = p + n, *hash = p;
    while ((hash = memchr(hash, '#', (size_t)(e - hash))) != NULL) {
        if (hash == p || hash[-1] == '\n') {
            const char *nl = memchr(hash, '\n', (size_t)(e - hash));
            const char *end = nl != NULL ? nl : e;
            if (end > hash && end[-1] == '\r')
                end--;
            if (is_fields_line(hash, (size_t)(end - hash))) {
                parse_w3c_header(hash, (size_t)(end - hash), &is->layout);
                is->too_wide += is->layout.too_wide > 0;
                if (is->layout.too_wide > 0)
                    say_too_wide(is, is->offset + (uint64_t)(hash - p));
            }
        }
        hash++;
    }
}

void input_format_chunk(struct input_format *is, const char *p, size_t n, enum log_format_id *fmt,
                        struct w3c_layout *layout)
{
    if (!is->detected) {
        is->detected = 1;
        if (is->fmt == LF_AUTO)
            is->fmt = n > 0 && p[0] == '#' ? LF_W3C : LF_AUTO;
    }
    *fmt = is->fmt;
    layout->count = 0;
    if (is->fmt == LF_W3C) { /* the layout matters, and is copied, for W3C only */
        *layout = is->layout;
        track_w3c_headers(is, p, n);
    }
    is->offset += n;
}
