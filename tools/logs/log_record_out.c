/* log_record_out.c - parsing a line into a record and handing it to the
 * run's writer (log_writer.h). */
#include <stdint.h>
#include <string.h>

#include "fmt_template.h"
#include "log_cut.h"
#include "log_field_text.h"
#include "log_formats.h"
#include "log_record_out.h"
#include "log_unescape.h"
#include "log_writer.h"

/* r to the run's writer. Every writer and the records read a field's text
 * by its format's convention (field_text): set here for every format, for
 * fields from set_from on (the fields before it have theirs). */
static void write_record(struct worker *w, const char *s, size_t n, struct log_record *r,
                         int set_from)
{
    if (set_from < r->n) /* a combined line without trailing fields: all set */
        log_record_set_escaping(r, log_formats_escaping(w->ctx->cfg.formats, r->format), set_from);
    /* Room for what the writers write before they reserve more (keys,
     * separators); the values reserve their own as they go, so a long line
     * costs a few times its fields, not 24 times the line. */
    buf_reserve(w->out, 64 * LOG_RECORD_MAX + 1024);
    if (r->format >= 0 && r->format < LOG_STATS_FORMATS)
        w->st->formats[r->format]++;
    w->st->truncated += r->truncated;
    w->ctx->writer->record(w, s, n, r);
}

#define NAME(text)                                                                                 \
    {                                                                                              \
        text, sizeof(text) - 1                                                                     \
    }
const struct span record_access_names[RECORD_ACCESS_FIELDS] = {
    NAME("remote"), NAME("ident"), NAME("user"),    NAME("time"), NAME("request"),
    NAME("status"), NAME("bytes"), NAME("referer"), NAME("agent")};
#undef NAME

/* record_add of field i of record_access_names (no strlen: a call per
 * field of every line). */
static inline void access_add(struct log_record *r, int i, struct span v, int kind, int quote)
{
    struct log_field *f = &r->f[r->n++]; /* the first fields: room */
    f->name = record_access_names[i];
    f->v = v;
    f->kind = (unsigned char)kind;
    f->quote = (unsigned char)quote;
    f->layers = 0;
    f->esc = LOG_ESC_BACKSLASH; /* combined's and common's (log_formats_new checks) */
}

/* The fields of a record_from_access that access_add made: their escaping
 * is set (write_record's set_from). */
static inline int access_fields(const struct log_record *r)
{
    return r->format == LF_COMBINED ? RECORD_ACCESS_FIELDS : RECORD_ACCESS_FIELDS - 2;
}

/* A combined or common line as the fast path parsed it, as a record. */
static int record_from_access(const char *s, size_t n, const struct access *a, int common,
                              struct log_record *r)
{
    r->n = 0;
    r->names_len = 0;
    r->format = a->has_ra && !common ? LF_COMBINED : LF_COMMON;
    /* parse_access: "remote ident user [time]", single spaces */
    const char *ident = a->remote.p + a->remote.n + 1, *user_end = a->time.p - 2;
    const char *space = memchr(ident, ' ', (size_t)(user_end - ident));
    if (space == NULL)
        return 0;
    access_add(r, 0, a->remote, K_TEXT, FQ_BARE);
    access_add(r, 1, span_of(ident, space), K_TEXT, FQ_BARE);
    access_add(r, 2, span_of(space + 1, user_end), K_TEXT, FQ_BARE);
    access_add(r, 3, a->time, K_TIME, FQ_BARE);
    access_add(r, 4, a->request, K_REQUEST, FQ_QUOTED);
    access_add(r, 5, a->status, K_NUMBER, FQ_BARE);
    access_add(r, 6, a->bytes, K_NUMBER, FQ_BARE);
    const char *rest = a->bytes.p + a->bytes.n;
    if (r->format == LF_COMBINED) {
        access_add(r, 7, a->referer, K_REFERER, FQ_QUOTED);
        access_add(r, 8, a->agent, K_TEXT, FQ_QUOTED);
        rest = a->agent.p + a->agent.n + 1;
    }
    /* after the fields: they are stored without a call between them */
    r->truncated = (unsigned char)request_was_cut(a->request, a->status);
    if (r->truncated)
        r->f[4].v = request_cut_protocol_off(a->request);
    return template_add_trailing(r, rest, s + n);
}

int record_process(struct worker *w, const char *s, size_t n, enum log_format_id fmt)
{
    const struct log_config *cfg = &w->ctx->cfg;
    struct log_record r;
    struct access a;
    int ok;
    /* Combined and common: the fast path's parser first (it takes what
     * line output takes). */
    if ((fmt == LF_AUTO || fmt == LF_COMBINED || fmt == LF_COMMON) &&
        parse_access(s, n, &a, 1, NULL) && (fmt != LF_COMBINED || a.has_ra) &&
        ((fmt == LF_AUTO && access_may_be_haproxy_clf(&a) &&
          record_parse(LF_HAPROXY_CLF, s, n, &r, cfg)) ||
         (fmt == LF_AUTO && access_may_be_squid(s, n, &a) &&
          record_parse(LF_SQUID_COMBINED, s, n, &r, cfg)) ||
         record_from_access(s, n, &a, fmt == LF_COMMON, &r))) {
        write_record(w, s, n, &r, access_fields(&r));
        return 1;
    }
    if (fmt >= 0)
        ok = record_parse(fmt, s, n, &r, cfg);
    else
        ok = record_detect(s, n, &r, cfg, &w->last_format);
    if (!ok)
        return 0;
    write_record(w, s, n, &r, 0);
    return 1;
}

int record_process_cut(struct worker *w, const char *s, size_t n, enum log_format_id fmt, int cut)
{
    struct log_record r;
    if (fmt == LF_W3C || fmt == LF_FIELD ||
        !record_parse_cut(fmt == LF_AUTO ? -1 : fmt, s, n, &r, &w->ctx->cfg, cut))
        return 0;
    write_record(w, s, n, &r, 0);
    return 1;
}

int record_process_access(struct worker *w, const char *s, size_t n, const struct access *a,
                          enum log_format_id fmt)
{
    struct log_record r;
    if (record_from_access(s, n, a, fmt == LF_COMMON, &r)) {
        w->access_record = 1;
        write_record(w, s, n, &r, access_fields(&r));
        w->access_record = 0;
        return 1;
    }
    return record_process(w, s, n, fmt);
}

void record_process_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                        const struct w3c_layout *l)
{
    struct log_record r;
    r.n = 0;
    r.names_len = 0;
    r.truncated = 0;
    r.format = l->cloudfront ? LF_CLOUDFRONT : LF_W3C;
    for (int i = 0; i < count && i < LOG_RECORD_MAX; i++) {
        int kind;
        const char *name = w3c_field_name(w3c_column_name(l, i), &kind);
        record_add(&r, name, f[i], kind, l->cloudfront ? FQ_TAB : FQ_BARE);
        r.f[r.n - 1].layers = (unsigned char)l->cloudfront;
    }
    write_record(w, s, n, &r, 0);
}

int access_has_trailing(const char *s, size_t n, struct span agent)
{
    const char *p = agent.p + agent.n + 1, *e = s + n; /* past the closing quote */
    if (p >= e || (*p != ' ' && *p != '\t'))
        return 0; /* nothing, or not a field of its own */
    for (; p < e; p++)
        if (*p != ' ' && *p != '\t')
            return 1;
    return 0;
}
