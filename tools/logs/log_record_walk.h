/* log_record_walk.h - the one walk of a record's JSON object: which keys,
 * in which order, each key once (the request's keys method, origin, path,
 * query, protocol reserved ahead; a later duplicate, an unnamed field or a
 * second request goes to "extra"), and each value's kind. Used by the
 * --json writer (log_write_json.c, as text) and by log_record_json
 * (log_values_json.c, as events for the Python package's dicts): the two
 * can differ only in how a value is written.
 *
 * A template, so that the writer pays no indirect call: the includer
 * defines struct record_sink and these functions (static), then includes
 * this file.
 *   walk_field(rec, i)   the record's field i (struct log_field)
 *   sink_key(s, p, n, plain)    a member's name (UTF-8 repaired, not
 *                        escaped; plain: ASCII with nothing to escape)
 *   sink_string(s, p, n, plain) a string (UTF-8, not escaped)
 *   sink_null(s), sink_literal(s, p, n) (a JSON number, true or false)
 *   sink_list(s), sink_end(s)           around the values of a list
 *   sink_path(s, u)      the path of URL u (up to its '?'), decoded by
 *                        put_url_path's rules; returns the '?' or NULL
 *   sink_query(s, q)     a query (no '?') as [[name,value],...]
 */
#ifndef PCT_TOOLS_LOG_RECORD_WALK_H
#define PCT_TOOLS_LOG_RECORD_WALK_H

#include <string.h>

#include "fmt_access.h"
#include "log_field_text.h"
#include "log_time.h"

struct record_sink;
static const struct log_field *walk_field(const void *rec, size_t i);
static void sink_key(struct record_sink *s, const char *p, size_t n, int plain);
static void sink_string(struct record_sink *s, const char *p, size_t n, int plain);
static void sink_null(struct record_sink *s);
static void sink_literal(struct record_sink *s, const char *p, size_t n);
static void sink_list(struct record_sink *s);
static void sink_end(struct record_sink *s);
static const char *sink_path(struct record_sink *s, struct span u);
static void sink_query(struct record_sink *s, struct span q);

/* The keys of the object so far: literals (reserved ahead, or a field's
 * name in its line) or, for names built here (UTF-8 repaired, NAME_iso),
 * bytes in w->json_keys. */
#define WALK_MAX_KEYS (2 * LOG_RECORD_MAX + 16)
struct record_walk {
    struct worker *w;
    struct record_sink *s;
    const void *rec;
    size_t nfields;
    int nkeys;
    struct {
        const char *p; /* NULL: at in w->json_keys */
        size_t at, len;
    } keys[WALK_MAX_KEYS];
    int nextra;
    size_t extra[LOG_RECORD_MAX]; /* fields for "extra", in order */
};

static inline const char *walk_key_bytes(const struct record_walk *k, int i)
{
    return k->keys[i].p != NULL ? k->keys[i].p : k->w->json_keys.data + k->keys[i].at;
}

static inline void walk_reserve(struct record_walk *k, const char *lit)
{
    if (k->nkeys < WALK_MAX_KEYS) {
        k->keys[k->nkeys].p = lit;
        k->keys[k->nkeys].at = 0;
        k->keys[k->nkeys].len = strlen(lit);
        k->nkeys++;
    }
}

/* The key NAME[suffix], unless the object has it already: then nothing is
 * emitted and 0 returned. */
static inline int walk_key(struct record_walk *k, struct span name, const char *suffix)
{
    struct worker *w = k->w;
    const char *p = name.p;
    size_t len = name.n, at = 0;
    const size_t sn = strlen(suffix);
    if (has_high_bytes(name.p, name.n)) /* JSON lines' keys: UTF-8 repaired */
        name = decode_bytes(w, name, &w->ctx->keep_all, 0);
    if (name.p != p || sn > 0) { /* built: kept in json_keys */
        struct buf *b = &w->json_keys;
        at = b->len;
        buf_reserve(b, name.n + sn);
        if (name.n > 0) /* an empty span may have no pointer */
            memcpy(b->data + at, name.p, name.n);
        memcpy(b->data + at + name.n, suffix, sn);
        p = NULL;
        len = name.n + sn;
    }
    const char *bytes = p != NULL ? p : w->json_keys.data + at;
    for (int i = 0; i < k->nkeys; i++)
        if (k->keys[i].len == len && memcmp(walk_key_bytes(k, i), bytes, len) == 0)
            return 0;
    if (k->nkeys == WALK_MAX_KEYS)
        return 0;
    k->keys[k->nkeys].p = p;
    k->keys[k->nkeys].at = at;
    k->keys[k->nkeys].len = len;
    k->nkeys++;
    if (p == NULL)
        w->json_keys.len += len;
    sink_key(k->s, bytes, len, 0);
    return 1;
}

/* A key reserved ahead (always emitted). */
static inline void walk_key_str(struct record_walk *k, const char *name)
{
    sink_key(k->s, name, strlen(name), 1);
}

static inline void walk_string(struct record_walk *k, struct span t)
{
    sink_string(k->s, t.p, t.n, 0);
}

/* Text: log escapes undone, UTF-8 repaired; "-" is null (not in JSON lines). */
static inline void walk_text(struct record_walk *k, const struct log_field *f, struct span t)
{
    if (field_dash(f, t) || (t.n == 0 && f->quote == FQ_BARE)) {
        sink_null(k->s);
        return;
    }
    t = field_text(k->w, f, t);
    walk_string(k, decode_bytes(k->w, t, &k->w->ctx->keep_all, 0));
}

/* A JSON number when the field is one (no leading zeros: "0123" is text). */
static inline void walk_number(struct record_walk *k, const struct log_field *f)
{
    struct span v = f->v;
    int plain = v.n > 0 && v.n < 20 && (v.p[0] != '0' || v.n == 1 || v.p[1] == '.');
    size_t dots = 0;
    for (size_t i = 0; plain && i < v.n; i++) {
        plain = (v.p[i] >= '0' && v.p[i] <= '9') || (v.p[i] == '.' && i > 0 && i + 1 < v.n);
        dots += v.p[i] == '.';
    }
    if (plain && dots <= 1)
        sink_literal(k->s, v.p, v.n);
    else
        walk_text(k, f, v);
}

/* "origin":...,"path":...,"query":[...] of a target or absolute URL. */
static inline void walk_url(struct record_walk *k, const struct log_field *f, struct span u)
{
    u = field_text(k->w, f, u);
    size_t origin = origin_length(u);
    if (origin > 0) {
        walk_key_str(k, "origin");
        walk_string(k, decode_bytes(k->w, span_of(u.p, u.p + origin), &k->w->ctx->keep_all, 0));
        u = span_of(u.p + origin, u.p + u.n);
    }
    walk_key_str(k, "path");
    const char *q = sink_path(k->s, u);
    walk_key_str(k, "query");
    sink_query(k->s, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p));
}

/* "path":null,"query":[] of a request or URL field with no target. */
static inline void walk_no_target(struct record_walk *k, const struct log_field *f)
{
    (void)f;
    walk_key_str(k, "path");
    sink_null(k->s);
    walk_key_str(k, "query");
    sink_list(k->s);
    sink_end(k->s);
}

/* A request: method, path, query, protocol; a field that is not a request
 * line is kept as its text ("request"), with no path (request_split_esc). */
static inline void walk_request(struct record_walk *k, const struct log_field *f)
{
    struct request_parts q;
    if (!request_split_esc(f->v, f->esc, &q)) {
        walk_key_str(k, "method");
        sink_null(k->s);
        walk_no_target(k, f);
        walk_key_str(k, "protocol");
        sink_null(k->s);
        walk_key_str(k, "request");
        walk_text(k, f, f->v);
        return;
    }
    walk_key_str(k, "method");
    walk_text(k, f, q.method);
    walk_url(k, f, q.target);
    walk_key_str(k, "protocol");
    if (q.protocol.n > 0)
        walk_text(k, f, q.protocol);
    else
        sink_null(k->s);
}

/* The first field named name, or NULL. */
static inline const struct log_field *walk_find(const struct record_walk *k, const char *name)
{
    for (size_t i = 0; i < k->nfields; i++)
        if (span_is(walk_field(k->rec, i)->name, name))
            return walk_field(k->rec, i);
    return NULL;
}

/* A time as its text, then NAME_iso (with the record's date, if any). */
static inline void walk_time(struct record_walk *k, const struct log_field *f)
{
    walk_text(k, f, f->v);
    char iso[LOG_ISO_MAX];
    struct span date = {"", 0};
    const struct log_field *d = span_is(f->name, "time") ? walk_find(k, "date") : NULL;
    if (d != NULL && d != f)
        date = d->v;
    else if (span_is(f->name, "date"))
        return; /* its time field gives date and time */
    size_t len = log_time_iso(date, f->v, iso);
    if (!walk_key(k, f->name, "_iso"))
        return; /* a field of the log has the name: it is kept, this derived one not */
    if (len > 0)
        sink_string(k->s, iso, len, 1);
    else
        sink_null(k->s);
}

/* The request of a record (request_rank: a request line, else a URL,
 * else a request field that is not a request line), whose keys (method,
 * origin, path, query, protocol; "request" for one that is not a request
 * line) are reserved ahead, so that no other field (nginx's trailing
 * path=..., a JSON line's own "path") can take them. NULL if none. */
static inline const struct log_field *walk_reserve_request(struct record_walk *k)
{
    const struct log_field *f = NULL;
    struct request_parts q;
    int best = 0;
    for (size_t i = 0; i < k->nfields && best < REQUEST_LINE; i++) {
        const struct log_field *c = walk_field(k->rec, i);
        int rank = request_rank(c, &q);
        if (rank > best) {
            best = rank;
            f = c;
        }
    }
    if (f == NULL)
        return NULL;
    if (f->kind == K_URL && field_dash(f, f->v)) {
        walk_reserve(k, "path");
        return f;
    }
    const int split = best == REQUEST_LINE;
    if (f->kind == K_REQUEST)
        walk_reserve(k, "method");
    if ((f->kind == K_URL || split) &&
        origin_length(field_text(k->w, f, f->kind == K_URL ? f->v : q.target)) > 0)
        walk_reserve(k, "origin");
    walk_reserve(k, "path");
    walk_reserve(k, "query");
    if (f->kind == K_REQUEST)
        walk_reserve(k, "protocol");
    if (f->kind == K_REQUEST && !split)
        walk_reserve(k, "request");
    return f;
}

/* "extra":[...]: unnamed fields as their text, later duplicates of a key
 * as "NAME=text". */
static inline void walk_extra(struct record_walk *k)
{
    struct worker *w = k->w;
    struct buf *b = &w->json_keys;
    walk_key_str(k, "extra");
    sink_list(k->s);
    for (int e = 0; e < k->nextra; e++) {
        const struct log_field *f = walk_field(k->rec, k->extra[e]);
        struct span name = f->name;
        if (has_high_bytes(name.p, name.n))
            name = decode_bytes(w, name, &w->ctx->keep_all, 0);
        size_t at = b->len;
        buf_reserve(b, name.n + 1);
        size_t len = name.n;
        if (name.n > 0) { /* an unnamed field's name has no pointer */
            memcpy(b->data + at, name.p, name.n);
            b->data[at + len++] = '=';
        }
        b->len += len;
        struct span t = decode_bytes(w, field_text(w, f, f->v), &w->ctx->keep_all, 0);
        buf_reserve(b, t.n);
        if (t.n > 0)
            memcpy(b->data + b->len, t.p, t.n);
        sink_string(k->s, b->data + at, len + t.n, 0);
        b->len = at;
    }
    sink_end(k->s);
}

/* A parsed record as one object: "format", "truncated": true if the
 * server cut it (log_cut.h; the key is absent otherwise), then every field by name (a
 * request as method, origin, path, query, protocol; a time also as
 * NAME_iso), each key once: the request's keys are its own, and a field
 * whose key the object already has (a later duplicate) goes to "extra" as
 * "NAME=text", after the unnamed fields before it. */
static inline void record_walk(struct worker *w, struct record_sink *s, const char *format,
                               int truncated, const void *rec, size_t nfields)
{
    struct record_walk walk; /* about 15 KiB */
    struct record_walk *k = &walk;
    k->w = w;
    k->s = s;
    k->rec = rec;
    k->nfields = nfields;
    k->nkeys = k->nextra = 0;
    w->json_keys.len = 0;
    walk_reserve(k, "format");
    walk_reserve(k, "extra");
    if (truncated) /* a field of that name goes to "extra" */
        walk_reserve(k, "truncated");
    const struct log_field *request = walk_reserve_request(k);
    walk_key_str(k, "format");
    sink_string(s, format, strlen(format), 1); /* a C literal */
    if (truncated) {
        walk_key_str(k, "truncated");
        sink_literal(s, "true", 4);
    }
    for (size_t i = 0; i < nfields; i++) {
        const struct log_field *f = walk_field(rec, i);
        const int own = f == request;
        if (f->name.n == 0 || (!own && (f->kind == K_REQUEST || f->kind == K_URL))) {
            k->extra[k->nextra++] = i; /* a second request: its keys are taken */
            continue;
        }
        if (own) {
            if (f->kind == K_REQUEST) {
                walk_request(k, f);
            } else if (field_dash(f, f->v)) {
                walk_key_str(k, "path");
                sink_null(s);
            } else if (f->v.n > 0 && !request_target_form(f->v, f->esc)) {
                walk_no_target(k, f); /* Squid's "error:..." */
                if (walk_key(k, f->name, ""))
                    walk_text(k, f, f->v);
                else
                    k->extra[k->nextra++] = i;
            } else {
                walk_url(k, f, f->v);
            }
            continue;
        }
        if (!walk_key(k, f->name, "")) {
            k->extra[k->nextra++] = i;
            continue;
        }
        switch (f->kind) {
        case K_PATH:
            if (field_dash(f, f->v))
                sink_null(s);
            else
                walk_string(k,
                            decode_bytes(w, field_text(w, f, f->v), path_keep(w), path_flags(w)));
            break;
        case K_QUERY: {
            struct span q = field_text(w, f, f->v);
            if (q.n > 0 && q.p[0] == '?')
                q = span_of(q.p + 1, q.p + q.n);
            sink_query(s, field_dash(f, q) ? span_of(q.p, q.p) : q);
            break;
        }
        case K_TIME:
            walk_time(k, f);
            break;
        case K_NUMBER:
            walk_number(k, f);
            break;
        case K_LITERAL: /* checked as JSON by fmt_json.c */
            sink_literal(s, f->v.p, f->v.n);
            break;
        case K_REFERER:
            if (w->ctx->cfg.referer && !field_dash(f, f->v))
                walk_string(k,
                            decode_bytes(w, field_text(w, f, f->v), path_keep(w), path_flags(w)));
            else
                walk_text(k, f, f->v);
            break;
        default:
            walk_text(k, f, f->v);
        }
    }
    if (k->nextra > 0)
        walk_extra(k);
}

#endif
