/* log_record_json.c - writing a record as a JSON object with every field. */
#include <string.h>

#include "log_field_text.h"
#include "log_formats.h"
#include "log_record_json.h"
#include "log_time.h"

static void json_string(struct worker *w, struct span bytes)
{
    buf_reserve(w->out, 6 * bytes.n + 8); /* a field may be written more than once */
    put_raw(w, "\"", 1);
    put_mode(w, bytes.p, bytes.n, ESC_JSON);
    put_raw(w, "\"", 1);
}

static void json_key(struct worker *w, struct span name, const char *suffix)
{
    if (has_high_bytes(name.p, name.n)) /* JSON lines' keys: UTF-8 repaired */
        name = decode_bytes(w, name, &w->ctx->keep_all, 0);
    buf_reserve(w->out, 6 * name.n + 16);
    put_raw(w, ",\"", 2);
    put_mode(w, name.p, name.n, ESC_JSON);
    put_str(w, suffix);
    put_raw(w, "\":", 2);
}

static void json_key_str(struct worker *w, const char *name)
{
    json_key(w, span_of(name, name + strlen(name)), "");
}

/* Text not decoded: escapes undone, UTF-8 repaired; "-" is null. */
static void json_text(struct worker *w, const struct log_field *f, struct span t)
{
    if (span_is(t, "-") || (t.n == 0 && f->quote == FQ_BARE)) {
        put_str(w, "null");
        return;
    }
    t = field_text(w, f, t);
    json_string(w, decode_bytes(w, t, &w->ctx->keep_all, 0));
}

static void json_number(struct worker *w, const struct log_field *f)
{
    struct span v = f->v;
    int plain = v.n > 0 && v.n < 20 && (v.p[0] != '0' || v.n == 1 || v.p[1] == '.');
    size_t dots = 0;
    for (size_t i = 0; plain && i < v.n; i++) {
        plain = (v.p[i] >= '0' && v.p[i] <= '9') || (v.p[i] == '.' && i > 0 && i + 1 < v.n);
        dots += v.p[i] == '.';
    }
    if (plain && dots <= 1)
        put_raw(w, v.p, v.n);
    else
        json_text(w, f, v);
}

/* "query":[[name,value],...]: split at '&' and the first '=', each decoded. */
static void json_query(struct worker *w, struct span q)
{
    const struct log_config *cfg = &w->ctx->cfg;
    put_raw(w, "[", 1);
    const char *p = q.p;
    const pct_set *keep = cfg->query == Q_KEEP ? &w->ctx->keep_all : NULL;
    unsigned flags = cfg->query == Q_KEEP ? 0 : query_flags(w);
    struct span name, value;
    for (int first = 1; query_next_param(&p, q.p + q.n, &name, &value); first = 0) {
        put_str(w, first ? "[" : ",[");
        json_string(w, decode_bytes(w, name, keep, flags));
        put_raw(w, ",", 1);
        json_string(w, decode_bytes(w, value, keep, flags));
        put_raw(w, "]", 1);
    }
    put_raw(w, "]", 1);
}

/* ,"origin":...,"path":...,"query":[...] of a target or absolute URL. */
static void json_url(struct worker *w, const struct log_field *f, struct span u)
{
    u = field_text(w, f, u); /* below, only B_DECODED is written */
    size_t origin = origin_length(u);
    if (origin > 0) {
        json_key_str(w, "origin");
        json_string(w, decode_bytes(w, span_of(u.p, u.p + origin), &w->ctx->keep_all, 0));
        u = span_of(u.p + origin, u.p + u.n);
    }
    const char *q = memchr(u.p, '?', u.n);
    json_key_str(w, "path");
    json_string(
        w, decode_bytes(w, span_of(u.p, q != NULL ? q : u.p + u.n), path_keep(w), path_flags(w)));
    json_key_str(w, "query");
    json_query(w, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p));
}

static void json_request(struct worker *w, const struct log_field *f)
{
    struct span method, target;
    if (!split_request(f->v, &method, &target)) {
        json_key_str(w, "method");
        put_str(w, "null");
        json_key_str(w, "path");
        json_text(w, f, f->v);
        json_key_str(w, "query");
        put_str(w, "[]");
        json_key_str(w, "protocol");
        put_str(w, "null");
        return;
    }
    json_key_str(w, "method");
    json_text(w, f, method);
    json_url(w, f, target);
    json_key_str(w, "protocol");
    const char *after = target.p + target.n, *e = f->v.p + f->v.n;
    if (after < e)
        json_text(w, f, span_of(after + 1, e));
    else
        put_str(w, "null");
}

static void json_time(struct worker *w, const struct log_record *r, const struct log_field *f)
{
    json_text(w, f, f->v);
    char iso[LOG_ISO_MAX];
    struct span date = {"", 0};
    const struct log_field *d = span_is(f->name, "time") ? record_find(r, "date") : NULL;
    if (d != NULL && d != f)
        date = d->v;
    else if (span_is(f->name, "date"))
        return; /* its time field gives date and time */
    size_t len = log_time_iso(date, f->v, iso);
    json_key(w, f->name, "_iso");
    if (len > 0)
        json_string(w, span_of(iso, iso + len));
    else
        put_str(w, "null");
}

void json_record(struct worker *w, const struct log_record *r)
{
    put_str(w, "{\"format\":\"");
    put_str(w, log_format_name(r->format));
    put_raw(w, "\"", 1);
    int extras = 0;
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        if (f->name.n == 0) {
            extras++;
            continue;
        }
        switch (f->kind) {
        case K_REQUEST:
            json_request(w, f);
            break;
        case K_URL:
            if (span_is(f->v, "-")) {
                json_key_str(w, "path");
                put_str(w, "null");
            } else {
                json_url(w, f, f->v);
            }
            break;
        case K_PATH:
            json_key(w, f->name, "");
            if (span_is(f->v, "-"))
                put_str(w, "null");
            else
                json_string(w,
                            decode_bytes(w, field_text(w, f, f->v), path_keep(w), path_flags(w)));
            break;
        case K_QUERY: {
            json_key(w, f->name, "");
            struct span q = field_text(w, f, f->v);
            if (q.n > 0 && q.p[0] == '?')
                q = span_of(q.p + 1, q.p + q.n);
            json_query(w, span_is(q, "-") ? span_of(q.p, q.p) : q);
            break;
        }
        case K_TIME:
            json_key(w, f->name, "");
            json_time(w, r, f);
            break;
        case K_NUMBER:
            json_key(w, f->name, "");
            json_number(w, f);
            break;
        case K_LITERAL: /* checked as JSON by fmt_json.c */
            json_key(w, f->name, "");
            put_raw(w, f->v.p, f->v.n);
            break;
        case K_REFERER:
            json_key(w, f->name, "");
            if (w->ctx->cfg.referer && !span_is(f->v, "-"))
                json_string(w,
                            decode_bytes(w, field_text(w, f, f->v), path_keep(w), path_flags(w)));
            else
                json_text(w, f, f->v);
            break;
        default:
            json_key(w, f->name, "");
            json_text(w, f, f->v);
        }
    }
    if (extras > 0) {
        put_str(w, ",\"extra\":[");
        int first = 1;
        for (int i = 0; i < r->n; i++) {
            if (r->f[i].name.n > 0)
                continue;
            if (!first)
                put_raw(w, ",", 1);
            first = 0;
            struct span t = field_text(w, &r->f[i], r->f[i].v);
            json_string(w, decode_bytes(w, t, &w->ctx->keep_all, 0));
        }
        put_raw(w, "]", 1);
    }
    put_raw(w, "}", 1);
}
