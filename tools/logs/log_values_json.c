/* log_values_json.c - a record's members as `pct logs --json` writes them
 * (log_record_json.c), handed to a function one at a time instead of being
 * written as text: for in-process consumers that build their own objects
 * (the Python package's dicts). The same walk as json_record, the same
 * decoding (log_field_text.c); keep the two in step. */
#include <stdlib.h>
#include <string.h>

#include "log_field_text.h"
#include "fmt_access.h"
#include "fmt_w3c.h"
#include "log_time.h"
#include "log_values.h"

struct walk {
    struct log_values *v;
    struct worker *w;
    log_json_fn fn;
    void *ctx;
    int status;
};

static void emit(struct walk *k, int event, const char *p, size_t n)
{
    if (k->status == 0)
        k->status = k->fn(k->ctx, event, p, n);
}

static void emit_span(struct walk *k, int event, struct span s)
{
    emit(k, event, s.p, s.n);
}

static void key(struct walk *k, struct span name, const char *suffix)
{
    if (has_high_bytes(name.p, name.n)) /* JSON lines' keys: UTF-8 repaired */
        name = decode_bytes(k->w, name, &k->w->ctx->keep_all, 0);
    size_t extra = strlen(suffix);
    if (extra == 0) {
        emit_span(k, LOG_JSON_KEY, name);
        return;
    }
    char local[256];
    char *text = name.n + extra <= sizeof local ? local : malloc(name.n + extra);
    if (text == NULL) {
        k->status = k->status != 0 ? k->status : -1;
        return;
    }
    memcpy(text, name.p, name.n);
    memcpy(text + name.n, suffix, extra);
    emit(k, LOG_JSON_KEY, text, name.n + extra);
    if (text != local)
        free(text);
}

static void key_str(struct walk *k, const char *name)
{
    emit(k, LOG_JSON_KEY, name, strlen(name));
}

static void null(struct walk *k)
{
    emit(k, LOG_JSON_NULL, NULL, 0);
}

/* json_text: escapes undone, UTF-8 repaired; "-" is null. */
static void text(struct walk *k, const struct log_field *f, struct span t)
{
    if (span_is(t, "-") || (t.n == 0 && f->quote == FQ_BARE)) {
        null(k);
        return;
    }
    t = field_text(k->w, f, t);
    emit_span(k, LOG_JSON_STRING, decode_bytes(k->w, t, &k->w->ctx->keep_all, 0));
}

static void number(struct walk *k, const struct log_field *f)
{
    struct span v = f->v;
    int plain = v.n > 0 && v.n < 20 && (v.p[0] != '0' || v.n == 1 || v.p[1] == '.');
    size_t dots = 0;
    for (size_t i = 0; plain && i < v.n; i++) {
        plain = (v.p[i] >= '0' && v.p[i] <= '9') || (v.p[i] == '.' && i > 0 && i + 1 < v.n);
        dots += v.p[i] == '.';
    }
    if (plain && dots <= 1)
        emit_span(k, LOG_JSON_LITERAL, v);
    else
        text(k, f, v);
}

static void query(struct walk *k, struct span q)
{
    const struct log_ctx *ctx = k->w->ctx;
    emit(k, LOG_JSON_LIST, NULL, 0);
    const char *p = q.p;
    const pct_set *keep = ctx->cfg.query == Q_KEEP ? &ctx->keep_all : NULL;
    unsigned flags = ctx->cfg.query == Q_KEEP ? 0 : query_flags(k->w);
    struct span name, value;
    while (query_next_param(&p, q.p + q.n, &name, &value)) {
        emit(k, LOG_JSON_LIST, NULL, 0);
        emit_span(k, LOG_JSON_STRING, decode_bytes(k->w, name, keep, flags));
        emit_span(k, LOG_JSON_STRING, decode_bytes(k->w, value, keep, flags));
        emit(k, LOG_JSON_END, NULL, 0);
    }
    emit(k, LOG_JSON_END, NULL, 0);
}

static void url(struct walk *k, const struct log_field *f, struct span u)
{
    u = field_text(k->w, f, u);
    size_t origin = origin_length(u);
    if (origin > 0) {
        key_str(k, "origin");
        emit_span(k, LOG_JSON_STRING,
                  decode_bytes(k->w, span_of(u.p, u.p + origin), &k->w->ctx->keep_all, 0));
        u = span_of(u.p + origin, u.p + u.n);
    }
    const char *q = memchr(u.p, '?', u.n);
    key_str(k, "path");
    emit_span(k, LOG_JSON_STRING,
              decode_bytes(k->w, span_of(u.p, q != NULL ? q : u.p + u.n), path_keep(k->w),
                           path_flags(k->w)));
    key_str(k, "query");
    query(k, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p));
}

static void request(struct walk *k, const struct log_field *f)
{
    struct span method, target;
    if (!split_request(f->v, &method, &target)) {
        key_str(k, "method");
        null(k);
        key_str(k, "path");
        text(k, f, f->v);
        key_str(k, "query");
        emit(k, LOG_JSON_LIST, NULL, 0);
        emit(k, LOG_JSON_END, NULL, 0);
        key_str(k, "protocol");
        null(k);
        return;
    }
    key_str(k, "method");
    text(k, f, method);
    url(k, f, target);
    key_str(k, "protocol");
    const char *after = target.p + target.n, *e = f->v.p + f->v.n;
    if (after < e)
        text(k, f, span_of(after + 1, e));
    else
        null(k);
}

static void time_value(struct walk *k, const struct log_session_record *r,
                       const struct log_field *f)
{
    text(k, f, f->v);
    char iso[LOG_ISO_MAX];
    struct span date = {"", 0};
    const struct log_session_field *df =
        span_is(f->name, "time") ? log_record_field(r, "date") : NULL;
    const struct log_field *d = df != NULL ? (const struct log_field *)df->engine : NULL;
    if (d != NULL && d != f)
        date = d->v;
    else if (span_is(f->name, "date"))
        return; /* its time field gives date and time */
    size_t len = log_time_iso(date, f->v, iso);
    key(k, f->name, "_iso");
    if (len > 0)
        emit(k, LOG_JSON_STRING, iso, len);
    else
        null(k);
}

/* A line that did not parse, or a directive: its text, UTF-8 repaired. */
static void line(struct walk *k, const char *name, const struct log_session_record *r)
{
    key_str(k, name);
    emit_span(k, LOG_JSON_STRING,
              decode_bytes(k->w, span_of(r->text, r->text + r->text_len), &k->w->ctx->keep_all, 0));
}

/* --field N: {"path":...,"query":[...],"line":...} of the line's field N
 * (as process_line writes it), or {"unparsed": line}. */
static void field_line(struct walk *k, const struct log_session_record *r)
{
    struct span f[LOG_MAX_FIELDS + 1];
    size_t want = k->w->ctx->cfg.field;
    int count = split_fields(r->text, r->text_len, f, LOG_MAX_FIELDS);
    if (count < 0 || (size_t)count < want || want < 1 || want > LOG_MAX_FIELDS) {
        line(k, "unparsed", r);
        return;
    }
    struct span u = f[want - 1];
    const char *q = memchr(u.p, '?', u.n);
    key_str(k, "path");
    emit_span(k, LOG_JSON_STRING,
              decode_bytes(k->w, span_of(u.p, q != NULL ? q : u.p + u.n), path_keep(k->w),
                           path_flags(k->w)));
    key_str(k, "query");
    query(k, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p));
    line(k, "line", r);
}

int log_record_json(struct log_values *v, const struct log_session_record *r, log_json_fn fn,
                    void *ctx)
{
    struct walk k = {v, &v->w, fn, ctx, 0};
    v->w.w3c = strcmp(r->format, "w3c") == 0; /* as log_values.c */
    if (v->w.ctx->cfg.format == LF_FIELD) {
        field_line(&k, r); /* the line's field N, whatever a parser made of it */
        return k.status;
    }
    if (!r->parsed) {
        line(&k, strcmp(r->format, "directive") == 0 ? "directive" : "unparsed", r);
        return k.status;
    }
    key_str(&k, "format");
    emit(&k, LOG_JSON_STRING, r->format, strlen(r->format));
    int extras = 0;
    for (size_t i = 0; i < r->nfields; i++) {
        const struct log_field *f = (const struct log_field *)r->fields[i].engine;
        if (f->name.n == 0) {
            extras++;
            continue;
        }
        switch (f->kind) {
        case K_REQUEST:
            request(&k, f);
            break;
        case K_URL:
            if (span_is(f->v, "-")) {
                key_str(&k, "path");
                null(&k);
            } else {
                url(&k, f, f->v);
            }
            break;
        case K_PATH:
            key(&k, f->name, "");
            if (span_is(f->v, "-"))
                null(&k);
            else
                emit_span(
                    &k, LOG_JSON_STRING,
                    decode_bytes(k.w, field_text(k.w, f, f->v), path_keep(k.w), path_flags(k.w)));
            break;
        case K_QUERY: {
            key(&k, f->name, "");
            struct span q = field_text(k.w, f, f->v);
            if (q.n > 0 && q.p[0] == '?')
                q = span_of(q.p + 1, q.p + q.n);
            query(&k, span_is(q, "-") ? span_of(q.p, q.p) : q);
            break;
        }
        case K_TIME:
            key(&k, f->name, "");
            time_value(&k, r, f);
            break;
        case K_NUMBER:
            key(&k, f->name, "");
            number(&k, f);
            break;
        case K_LITERAL: /* checked as JSON by fmt_json.c */
            key(&k, f->name, "");
            emit_span(&k, LOG_JSON_LITERAL, f->v);
            break;
        case K_REFERER:
            key(&k, f->name, "");
            if (k.w->ctx->cfg.referer && !span_is(f->v, "-"))
                emit_span(
                    &k, LOG_JSON_STRING,
                    decode_bytes(k.w, field_text(k.w, f, f->v), path_keep(k.w), path_flags(k.w)));
            else
                text(&k, f, f->v);
            break;
        default:
            key(&k, f->name, "");
            text(&k, f, f->v);
        }
    }
    if (extras > 0) {
        key_str(&k, "extra");
        emit(&k, LOG_JSON_LIST, NULL, 0);
        for (size_t i = 0; i < r->nfields; i++) {
            const struct log_field *f = (const struct log_field *)r->fields[i].engine;
            if (f->name.n > 0)
                continue;
            struct span t = field_text(k.w, f, f->v);
            emit_span(&k, LOG_JSON_STRING, decode_bytes(k.w, t, &k.w->ctx->keep_all, 0));
        }
        emit(&k, LOG_JSON_END, NULL, 0);
    }
    return k.status;
}
