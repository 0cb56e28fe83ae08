/* log_values_json.c - a record's members as `pct logs --json` writes them,
 * handed to a function one at a time instead of being written as text: for
 * in-process consumers that build their own objects (the Python package's
 * dicts). The object is log_record_walk.h's, the --json writer's own walk;
 * here only its values are decoded into events
 * (bindings/python/tests/test_logs.py compares the two outputs). */
#include <stdlib.h>
#include <string.h>

#include "log_field_text.h"
#include "fmt_access.h"
#include "fmt_w3c.h"
#include "log_time.h"
#include "log_values.h"

struct record_sink {
    struct worker *w;
    log_json_fn fn;
    void *ctx;
    int status;
};

static void emit(struct record_sink *k, int event, const char *p, size_t n)
{
    if (k->status == 0)
        k->status = k->fn(k->ctx, event, p, n);
}

static void emit_span(struct record_sink *k, int event, struct span s)
{
    emit(k, event, s.p, s.n);
}

static const struct log_field *walk_field(const void *rec, size_t i)
{
    return (const struct log_field *)((const struct log_session_record *)rec)->fields[i].engine;
}

static void sink_key(struct record_sink *k, const char *p, size_t n, int plain)
{
    (void)plain;
    emit(k, LOG_JSON_KEY, p, n);
}

static void sink_string(struct record_sink *k, const char *p, size_t n, int plain)
{
    (void)plain;
    emit(k, LOG_JSON_STRING, p, n);
}

static void sink_null(struct record_sink *k)
{
    emit(k, LOG_JSON_NULL, NULL, 0);
}

static void sink_literal(struct record_sink *k, const char *p, size_t n)
{
    emit(k, LOG_JSON_LITERAL, p, n);
}

static void sink_list(struct record_sink *k)
{
    emit(k, LOG_JSON_LIST, NULL, 0);
}

static void sink_end(struct record_sink *k)
{
    emit(k, LOG_JSON_END, NULL, 0);
}

static const char *sink_path(struct record_sink *k, struct span u)
{
    const char *q = memchr(u.p, '?', u.n);
    struct span path = span_of(u.p, q != NULL ? q : u.p + u.n);
    emit_span(k, LOG_JSON_STRING, decode_bytes(k->w, path, path_keep(k->w), path_flags(k->w)));
    return q;
}

/* [[name,value],...]: each decoded per the query mode. */
static void sink_query(struct record_sink *k, struct span q)
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

#include "log_record_walk.h"

/* A line that did not parse, or a directive: its text, UTF-8 repaired. */
static void line(struct record_sink *k, const char *name, const struct log_session_record *r)
{
    sink_key(k, name, strlen(name), 1);
    emit_span(k, LOG_JSON_STRING,
              decode_bytes(k->w, span_of(r->text, r->text + r->text_len), &k->w->ctx->keep_all, 0));
}

/* --field N: {"path":...,"query":[...],"line":...} of the line's field N
 * (as process_line writes it), or {"unparsed": line}. */
static void field_line(struct record_sink *k, const struct log_session_record *r)
{
    struct span f[LOG_MAX_FIELDS + 1];
    size_t want = k->w->ctx->cfg.field;
    int count = split_fields(r->text, r->text_len, f, LOG_MAX_FIELDS);
    if (count < 0 || (size_t)count < want || want < 1 || want > LOG_MAX_FIELDS) {
        line(k, "unparsed", r);
        return;
    }
    struct span u = f[want - 1];
    sink_key(k, "path", 4, 1);
    const char *q = sink_path(k, u);
    sink_key(k, "query", 5, 1);
    sink_query(k, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p));
    line(k, "line", r);
}

int log_record_json(struct log_values *v, const struct log_session_record *r, log_json_fn fn,
                    void *ctx)
{
    struct record_sink sink = {&v->w, fn, ctx, 0};
    v->w.w3c = strcmp(r->format, "w3c") == 0; /* as log_values.c */
    if (v->w.ctx->cfg.format == LF_FIELD)
        field_line(&sink, r); /* the line's field N, whatever a parser made of it */
    else if (!r->parsed)
        line(&sink, strcmp(r->format, "directive") == 0 ? "directive" : "unparsed", r);
    else
        record_walk(&v->w, &sink, r->format, r->truncated, r, r->nfields);
    return sink.status;
}
