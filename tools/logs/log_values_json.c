/* log_values_json.c - a record's members as `pct logs --json` writes them
 * (json_record in log_write_json.c), handed to a function one at a time
 * instead of being written as text: for in-process consumers that build
 * their own objects (the Python package's dicts). The same walk as
 * json_record (the request's keys reserved, each key once, later
 * duplicates in "extra"), the same decoding (log_field_text.c); keep the
 * two in step (bindings/python/tests/test_logs.py compares them). */
#include <stdlib.h>
#include <string.h>

#include "log_field_text.h"
#include "fmt_access.h"
#include "fmt_w3c.h"
#include "log_time.h"
#include "log_values.h"

/* The keys of the object so far (as json_keys of log_write_json.c): their
 * bytes (UTF-8 repaired, suffix and all) in v->keys, or literals reserved
 * ahead. */
#define WALK_MAX_KEYS (2 * LOG_RECORD_MAX + 16)
struct walk {
    struct log_values *v;
    struct worker *w;
    log_json_fn fn;
    void *ctx;
    int status;
    int nkeys;
    struct {
        const char *lit; /* NULL: at, len in v->keys */
        size_t at, len;
    } keys[WALK_MAX_KEYS];
    int nextra;
    size_t extra[LOG_RECORD_MAX]; /* fields for "extra", in order */
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

static int key_seen(const struct walk *k, const char *p, size_t n)
{
    for (int i = 0; i < k->nkeys; i++) {
        if (k->keys[i].len != n)
            continue;
        const char *q = k->keys[i].lit != NULL ? k->keys[i].lit : k->v->keys.data + k->keys[i].at;
        if (memcmp(q, p, n) == 0)
            return 1;
    }
    return 0;
}

static void key_reserve(struct walk *k, const char *lit)
{
    if (k->nkeys < WALK_MAX_KEYS) {
        k->keys[k->nkeys].lit = lit;
        k->keys[k->nkeys].at = 0;
        k->keys[k->nkeys].len = strlen(lit);
        k->nkeys++;
    }
}

/* The key NAME[suffix], unless the object has it already: then nothing is
 * emitted and 0 returned. reserved: a key reserved ahead for this field. */
static int key(struct walk *k, struct span name, const char *suffix, int reserved)
{
    if (has_high_bytes(name.p, name.n)) /* JSON lines' keys: UTF-8 repaired */
        name = decode_bytes(k->w, name, &k->w->ctx->keep_all, 0);
    struct buf *b = &k->v->keys;
    size_t extra = strlen(suffix), at = b->len;
    buf_reserve(b, name.n + extra);
    memcpy(b->data + at, name.p, name.n);
    memcpy(b->data + at + name.n, suffix, extra);
    size_t len = name.n + extra;
    if (!reserved) {
        if (key_seen(k, b->data + at, len) || k->nkeys == WALK_MAX_KEYS)
            return 0;
        k->keys[k->nkeys].lit = NULL;
        k->keys[k->nkeys].at = at;
        k->keys[k->nkeys].len = len;
        k->nkeys++;
        b->len += len;
    }
    emit(k, LOG_JSON_KEY, b->data + at, len);
    return 1;
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

static void request_value(struct walk *k, const struct log_field *f)
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
    if (!key(k, f->name, "_iso", 0))
        return; /* a field of the log has the name: it is kept, this derived one not */
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

/* The request of a record: its first K_REQUEST or K_URL field, whose keys
 * are reserved ahead (reserve_request of log_write_json.c). */
static const struct log_field *reserve_request(struct walk *k, const struct log_session_record *r)
{
    for (size_t i = 0; i < r->nfields; i++) {
        const struct log_field *f = (const struct log_field *)r->fields[i].engine;
        if (f->name.n == 0 || (f->kind != K_REQUEST && f->kind != K_URL))
            continue;
        struct span method, target = f->v;
        int split = f->kind == K_REQUEST && split_request(f->v, &method, &target);
        if (f->kind == K_URL && span_is(f->v, "-")) {
            key_reserve(k, "path");
            return f;
        }
        if (f->kind == K_REQUEST)
            key_reserve(k, "method");
        if ((f->kind == K_URL || split) && origin_length(field_text(k->w, f, target)) > 0)
            key_reserve(k, "origin");
        key_reserve(k, "path");
        key_reserve(k, "query");
        if (f->kind == K_REQUEST)
            key_reserve(k, "protocol");
        return f;
    }
    return NULL;
}

/* "extra": unnamed fields as their text, later duplicates as "NAME=text". */
static void extra_list(struct walk *k, const struct log_session_record *r)
{
    key_str(k, "extra");
    emit(k, LOG_JSON_LIST, NULL, 0);
    struct buf *b = &k->v->keys;
    for (int e = 0; e < k->nextra; e++) {
        const struct log_field *f = (const struct log_field *)r->fields[k->extra[e]].engine;
        struct span name = f->name;
        if (has_high_bytes(name.p, name.n))
            name = decode_bytes(k->w, name, &k->w->ctx->keep_all, 0);
        size_t at = b->len;
        buf_reserve(b, name.n + 1);
        memcpy(b->data + at, name.p, name.n);
        size_t len = name.n;
        if (name.n > 0)
            b->data[at + len++] = '=';
        b->len += len;
        struct span t = decode_bytes(k->w, field_text(k->w, f, f->v), &k->w->ctx->keep_all, 0);
        buf_reserve(b, t.n);
        memcpy(b->data + b->len, t.p, t.n);
        emit(k, LOG_JSON_STRING, b->data + at, len + t.n);
        b->len = at;
    }
    emit(k, LOG_JSON_END, NULL, 0);
}

int log_record_json(struct log_values *v, const struct log_session_record *r, log_json_fn fn,
                    void *ctx)
{
    struct walk walk; /* about 15 KiB */
    struct walk *k = &walk;
    k->v = v;
    k->w = &v->w;
    k->fn = fn;
    k->ctx = ctx;
    k->status = 0;
    k->nkeys = k->nextra = 0;
    v->keys.len = 0;
    v->w.w3c = strcmp(r->format, "w3c") == 0; /* as log_values.c */
    if (v->w.ctx->cfg.format == LF_FIELD) {
        field_line(k, r); /* the line's field N, whatever a parser made of it */
        return k->status;
    }
    if (!r->parsed) {
        line(k, strcmp(r->format, "directive") == 0 ? "directive" : "unparsed", r);
        return k->status;
    }
    key_reserve(k, "format");
    key_reserve(k, "extra");
    const struct log_field *request = reserve_request(k, r);
    key_str(k, "format");
    emit(k, LOG_JSON_STRING, r->format, strlen(r->format));
    for (size_t i = 0; i < r->nfields; i++) {
        const struct log_field *f = (const struct log_field *)r->fields[i].engine;
        const int own = f == request;
        if (f->name.n == 0 || (!own && (f->kind == K_REQUEST || f->kind == K_URL))) {
            k->extra[k->nextra++] = i; /* a second request: its keys are taken */
            continue;
        }
        if (own) {
            if (f->kind == K_REQUEST) {
                request_value(k, f);
            } else if (span_is(f->v, "-")) {
                key_str(k, "path");
                null(k);
            } else {
                url(k, f, f->v);
            }
            continue;
        }
        if (!key(k, f->name, "", 0)) {
            k->extra[k->nextra++] = i;
            continue;
        }
        switch (f->kind) {
        case K_PATH:
            if (span_is(f->v, "-"))
                null(k);
            else
                emit_span(k, LOG_JSON_STRING,
                          decode_bytes(k->w, field_text(k->w, f, f->v), path_keep(k->w),
                                       path_flags(k->w)));
            break;
        case K_QUERY: {
            struct span q = field_text(k->w, f, f->v);
            if (q.n > 0 && q.p[0] == '?')
                q = span_of(q.p + 1, q.p + q.n);
            query(k, span_is(q, "-") ? span_of(q.p, q.p) : q);
            break;
        }
        case K_TIME:
            time_value(k, r, f);
            break;
        case K_NUMBER:
            number(k, f);
            break;
        case K_LITERAL: /* checked as JSON by fmt_json.c */
            emit_span(k, LOG_JSON_LITERAL, f->v);
            break;
        case K_REFERER:
            if (k->w->ctx->cfg.referer && !span_is(f->v, "-"))
                emit_span(k, LOG_JSON_STRING,
                          decode_bytes(k->w, field_text(k->w, f, f->v), path_keep(k->w),
                                       path_flags(k->w)));
            else
                text(k, f, f->v);
            break;
        default:
            text(k, f, f->v);
        }
    }
    if (k->nextra > 0)
        extra_list(k, r);
    return k->status;
}
