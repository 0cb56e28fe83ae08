/* log_record_out.c - parsing a line into a record and writing it: the line
 * with its URLs decoded in place (here), JSON (log_record_json.c) or a
 * TSV/CSV row (log_tsv.c). */
#include <stdint.h>
#include <string.h>

#include "fmt_template.h"
#include "log_field_text.h"
#include "log_formats.h"
#include "log_record_json.h"
#include "log_record_out.h"
#include "log_tsv.h"

/* A URL's path and query decoded into line output: in a JSON string (the
 * JSON-lines formats), or as the line's own text. */
static void line_url(struct worker *w, const struct log_field *f, struct span t, int kind)
{
    const struct log_config *cfg = &w->ctx->cfg;
    size_t origin = kind == K_URL || kind == K_REFERER ? origin_length(t) : 0;
    if (f->quote == FQ_JSON) {
        put_raw(w, t.p, origin); /* ASCII of a URL's origin: as written */
        t = field_text(w, f, span_of(t.p + origin, t.p + t.n));
        struct span path = t, query = span_of(t.p, t.p);
        int has_query = kind == K_QUERY;
        if (kind == K_QUERY) {
            path = query;
            query = t;
        } else if (kind != K_PATH) {
            const char *q = memchr(t.p, '?', t.n);
            if (q != NULL) {
                path = span_of(t.p, q);
                query = span_of(q + 1, t.p + t.n);
                has_query = 1;
            }
        }
        struct span d = decode_bytes(w, path, path_keep(w), path_flags(w));
        put_mode(w, d.p, d.n, ESC_JSON);
        if (has_query) {
            if (kind != K_QUERY)
                put_raw(w, "?", 1);
            d = cfg->query == Q_KEEP ? decode_bytes(w, query, &w->ctx->keep_all, 0)
                                     : decode_bytes(w, query, &w->ctx->keep_query, query_flags(w));
            put_mode(w, d.p, d.n, ESC_JSON);
        }
        return;
    }
    put_undecoded(w, t.p, origin);
    t = span_of(t.p + origin, t.p + t.n);
    if (f->layers > 0)
        t = field_text(w, f, t);
    if (kind == K_PATH) {
        put_decoded(w, t.p, t.n, path_keep(w), path_flags(w), 0);
    } else if (kind == K_QUERY) {
        if (t.n > 0 && t.p[0] == '?') { /* Apache %q */
            put_raw(w, "?", 1);
            t = span_of(t.p + 1, t.p + t.n);
        }
        if (cfg->query == Q_KEEP)
            put_undecoded(w, t.p, t.n);
        else
            put_decoded(w, t.p, t.n, &w->ctx->keep_query, query_flags(w), 0);
    } else {
        put_url_line(w, t);
    }
}

/* The part of a field that line output decodes, if any. */
static int decoded_part(const struct worker *w, const struct log_field *f, struct span *t)
{
    struct span method;
    *t = f->v;
    if (f->v.n == 0 || span_is(f->v, "-"))
        return 0;
    switch (f->kind) {
    case K_REQUEST:
        return split_request(f->v, &method, t);
    case K_URL:
    case K_PATH:
    case K_QUERY:
        return 1;
    case K_REFERER:
        return w->ctx->cfg.referer;
    default:
        return 0;
    }
}

static void line_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    int spaced = w->spaced;
    w->spaced = !w->ctx->cfg.raw_spaces; /* decoded spaces keep fields apart */
    const char *done = s;
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        struct span t;
        if (!decoded_part(w, f, &t) || t.p < done)
            continue;
        put_undecoded(w, done, (size_t)(t.p - done));
        size_t start = w->out->len;
        line_url(w, f, t, f->kind == K_REQUEST ? K_URL : f->kind);
        if (t.p == s && w->out->len > start && w->out->data[start] == '#') {
            /* a line starting with '#' would read as a W3C directive */
            memmove(w->out->data + start + 3, w->out->data + start + 1, w->out->len - start - 1);
            memcpy(w->out->data + start, "%23", 3);
            w->out->len += 2;
        }
        done = t.p + t.n;
    }
    put_undecoded(w, done, (size_t)(s + n - done));
    w->spaced = spaced;
}

static void write_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    /* Room: every field escaped 6 times over, and the keys (see
     * process_chunk for the line itself). */
    buf_reserve(w->out, 24 * n + 64 * LOG_RECORD_MAX + 1024);
    w->st->formats[r->format]++;
    if (w->ctx->cfg.table)
        table_record(w, s, n, r);
    else if (w->ctx->cfg.json)
        json_record(w, r);
    else
        line_record(w, s, n, r);
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
    record_add(r, "remote", a->remote, K_TEXT, FQ_BARE);
    record_add(r, "ident", span_of(ident, space), K_TEXT, FQ_BARE);
    record_add(r, "user", span_of(space + 1, user_end), K_TEXT, FQ_BARE);
    record_add(r, "time", a->time, K_TIME, FQ_BARE);
    record_add(r, "request", a->request, K_REQUEST, FQ_QUOTED);
    record_add(r, "status", a->status, K_NUMBER, FQ_BARE);
    record_add(r, "bytes", a->bytes, K_NUMBER, FQ_BARE);
    const char *rest = a->bytes.p + a->bytes.n;
    if (r->format == LF_COMBINED) {
        record_add(r, "referer", a->referer, K_REFERER, FQ_QUOTED);
        record_add(r, "agent", a->agent, K_TEXT, FQ_QUOTED);
        rest = a->agent.p + a->agent.n + 1;
    }
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
        record_from_access(s, n, &a, fmt == LF_COMMON, &r)) {
        write_record(w, s, n, &r);
        return 1;
    }
    if (fmt >= 0)
        ok = record_parse(fmt, s, n, &r, cfg);
    else
        ok = record_detect(s, n, &r, cfg, &w->last_format);
    if (!ok)
        return 0;
    write_record(w, s, n, &r);
    return 1;
}

void record_process_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                        const struct w3c_layout *l)
{
    struct log_record r;
    r.n = 0;
    r.names_len = 0;
    r.format = l->cloudfront ? LF_CLOUDFRONT : LF_W3C;
    for (int i = 0; i < count && i < LOG_RECORD_MAX; i++) {
        int kind;
        const char *name = w3c_field_name(w3c_column_name(l, i), &kind);
        record_add(&r, name, f[i], kind, l->cloudfront ? FQ_TAB : FQ_BARE);
        r.f[r.n - 1].layers = (unsigned char)l->cloudfront;
    }
    write_record(w, s, n, &r);
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
