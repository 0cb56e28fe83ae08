/* log_write_json.c - JSON output: one object per line. Combined and common
 * lines are written straight from the fast path's spans (json_access);
 * every other line through its record (json_record), with the same query
 * writer (json_query_array); a line that does not parse (or is longer than
 * --max-line) is {"unparsed": LINE}, a W3C directive {"directive": LINE}.
 * Keys are never repeated in an object (see json_record). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "log_field_text.h"
#include "log_formats.h"
#include "log_record_out.h"
#include "log_time.h"
#include "log_writer.h"

/* Text that is not decoded, inside a JSON string (UTF-8 repaired). Most
 * fields are ASCII with nothing to escape: one scan finds how much is
 * copied as it is, and only the rest (from a byte that may need work, so
 * no UTF-8 sequence is cut) is checked and escaped. */
static void put_json_text(struct worker *w, struct span s)
{
    size_t i = log_scan_copy_padded(&w->ctx->json_text, w->out->data + w->out->len, s.p, s.n);
    w->out->len += i;
    if (i == s.n)
        return;
    const char *p = s.p + i;
    size_t n = s.n - i;
    if (has_high_bytes(p, n)) {
        size_t len = repair_utf8(w, p, n);
        put_escaped(w, w->scratch.data, len, 1);
    } else {
        put_escaped(w, p, n, 1);
    }
}

/* A field that is not decoded, as a JSON string. */
static void put_json_raw(struct worker *w, struct span s)
{
    put_raw(w, "\"", 1);
    put_json_text(w, s);
    put_raw(w, "\"", 1);
}

/* The same, for a field of a plain line (json_access): nothing in it to
 * escape or check, so it is copied. */
static void put_json_field(struct worker *w, struct span s, int plain)
{
    if (!plain) {
        put_json_raw(w, s);
        return;
    }
    char *o = w->out->data + w->out->len;
    *o = '"';
    memcpy(o + 1, s.p, s.n);
    o[s.n + 1] = '"';
    w->out->len += s.n + 2;
}

static void put_json_decoded(struct worker *w, struct span s, const pct_set *keep, unsigned flags)
{
    put_raw(w, "\"", 1);
    put_decoded(w, s.p, s.n, keep, flags, 1);
    put_raw(w, "\"", 1);
}

/* "-" or missing: null. */
static void put_json_opt(struct worker *w, struct span s, int present, int plain)
{
    if (!present || span_is(s, "-"))
        put_str(w, "null");
    else
        put_json_field(w, s, plain);
}

/* 1 if no escape of q decodes to '&' or '=' (%26, %3D, or a %uXXXX): its
 * decoded text splits into the same parameters as q itself. (For %uXXXX:
 * without it, put_json_params_decoded keeps %26 and %3D encoded.) */
static int query_splits_decoded(struct span q, unsigned flags)
{
    const char *p = q.p, *e = q.p + q.n;
    while ((p = memchr(p, '%', (size_t)(e - p))) != NULL) {
        if ((flags & PCT_PERCENT_U) && e - p >= 2 && (p[1] | 0x20) == 'u')
            return 0;
        if (e - p >= 3 && ((p[1] == '2' && p[2] == '6') || (p[1] == '3' && (p[2] | 0x20) == 'd')))
            return 0;
        p++;
    }
    return 1;
}

/* The literal text at o; returns the end. */
#define CAT(o, text) ((char *)memcpy((o), (text), sizeof(text) - 1) + sizeof(text) - 1)

/* Queries longer than this (decoded) are written piece by piece. */
#define QUERY_STOP_WORDS 16

/* The first stop (a set bit) at or after at, or n. */
static inline size_t query_next_stop(const uint64_t *stops, size_t n, size_t at)
{
    for (size_t k = at / 64; 64 * k < n; k++) {
        const uint64_t word = k == at / 64 ? stops[k] >> (at % 64) << (at % 64) : stops[k];
        if (word != 0)
            return 64 * k + (size_t)__builtin_ctzll(word);
    }
    return n;
}

/* The parameters of a query as put_json_query writes them, from the query
 * decoded whole (one call into the library instead of one per name and
 * value), then cut at '&' and '=' and escaped piece by piece into the
 * output (escaping adds no '&' or '='). %26 and %3D stay encoded in that
 * call, so the cuts are the query's own. Returns 0, having written
 * nothing, when its decoded text holds a '%' (such an escape, %25, a stray
 * '%') or invalid UTF-8: then each name and value is decoded on its own
 * (and repaired). */
static int put_json_params_decoded(struct worker *w, struct span q, unsigned flags)
{
    char *decoded = buf_room(&w->scratch, 3 * q.n + 16);
    pct_result r = pct_decode_except(q.p, q.n, decoded, &w->ctx->keep_split, flags | PCT_UTF8);
    if (r.status != PCT_OK || log_find_byte(decoded, decoded + r.count, '%') != NULL)
        return 0;
    /* The decoded text's bytes that need an escape or cut the query ('&',
     * '='), as bit masks (the query of a log line fits a few words); the
     * text between them is copied. */
    uint64_t stops[QUERY_STOP_WORDS];
    if (r.count > 64 * QUERY_STOP_WORDS)
        return 0;
    pct_find_all(decoded, r.count, &w->ctx->json_query, stops);
    const size_t n = r.count;
    size_t at = 0; /* of the decoded text written */
    char *o = w->out->data + w->out->len;
    int first = 1, in_param = 0, in_value = 0;
    for (;;) {
        const size_t stop = query_next_stop(stops, n, at);
        if (!in_param && stop == at && stop < n && decoded[stop] == '&') {
            at++; /* an empty parameter */
            continue;
        }
        if (!in_param) {
            if (at == n)
                break;
            o = first ? CAT(o, "[\"") : CAT(o, ",[\"");
            first = 0;
            in_param = 1;
            in_value = 0;
        }
        log_copy_padded(o, decoded + at, stop - at);
        o += stop - at;
        at = stop;
        if (at == n || decoded[at] == '&') {
            o = in_value ? CAT(o, "\"]") : CAT(o, "\",\"\"]");
            in_param = 0;
            if (at < n)
                at++; /* the '&' */
        } else if (decoded[at] == '=') {
            o = in_value ? CAT(o, "=") : CAT(o, "\",\"");
            in_value = 1;
            at++;
        } else {
            o = log_escape_at(&w->ctx->esc, o, decoded, n, &at, ESC_JSON);
        }
    }
    w->out->len = (size_t)(o - w->out->data);
    return 1;
}

/* [[name,value],...] (WHATWG urlencoded parsing: split at '&', then at the
 * first '='; empty parameters skipped): the one query writer of JSON, for
 * the fast path and records alike. */
static void json_query_array(struct worker *w, struct span q, int present)
{
    const struct log_config *cfg = &w->ctx->cfg;
    put_raw(w, "[", 1);
    const char *p = q.p, *e = q.p + q.n;
    unsigned flags = path_flags(w) | (cfg->query == Q_FORM ? PCT_PLUS : 0);
    /* Most queries: decoded whole, then split (--stats counts per piece). */
    if (present && cfg->query != Q_KEEP && !cfg->stats &&
        (!(flags & PCT_PERCENT_U) || query_splits_decoded(q, flags)) &&
        put_json_params_decoded(w, q, flags)) {
        put_raw(w, "]", 1);
        return;
    }
    struct span name, value;
    for (int first = 1; present && query_next_param(&p, e, &name, &value); first = 0) {
        put_str(w, first ? "[" : ",[");
        if (cfg->query == Q_KEEP) {
            put_json_raw(w, name);
            put_raw(w, ",", 1);
            put_json_raw(w, value);
        } else {
            put_json_decoded(w, name, NULL, flags);
            put_raw(w, ",", 1);
            put_json_decoded(w, value, NULL, flags);
        }
        put_raw(w, "]", 1);
    }
    put_raw(w, "]", 1);
}

/* "path":...,"query":[[name,value],...] */
static void put_json_url(struct worker *w, struct span u, int present)
{
    if (!present) {
        put_str(w, "\"path\":null,\"query\":[]");
        return;
    }
    put_str(w, "\"path\":\"");
    const char *q = put_url_path(w, u, 1);
    put_str(w, "\",\"query\":");
    json_query_array(w, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p), q != NULL);
}

static void put_json_referer(struct worker *w, struct span s, int present, int plain)
{
    const struct log_config *cfg = &w->ctx->cfg;
    if (cfg->referer && present && !span_is(s, "-")) {
        /* Decoded like a path: the whole URL as one string. */
        put_json_decoded(w, s, cfg->decode_slash ? NULL : &w->ctx->keep_path, path_flags(w));
    } else {
        put_json_opt(w, s, present, plain);
    }
}

/* put_json_opt at the cursor o (see json_access); returns the new cursor. A
 * plain field is copied from its line (followed by readable bytes). */
static inline char *json_opt_at(struct worker *w, char *o, struct span s, int present, int plain)
{
    if (!present || span_is(s, "-"))
        return CAT(o, "null");
    if (plain) {
        *o = '"';
        log_copy_padded(o + 1, s.p, s.n);
        o[s.n + 1] = '"';
        return o + s.n + 2;
    }
    w->out->len = (size_t)(o - w->out->data);
    put_json_raw(w, s);
    return w->out->data + w->out->len;
}

/* At the cursor o: a JSON number when the field is one (JSON has no
 * leading zeros: "0123" is a string), "-" is null, anything else a string. */
static inline char *json_number_at(struct worker *w, char *o, struct span s, int plain)
{
    int digits = s.n > 0 && s.n < 20 && (s.p[0] != '0' || s.n == 1);
    if (digits && s.n <= 8) /* a word at a time (the line is followed by readable bytes) */
        digits = (swar_nondigits(s.p) & swar_first(s.n)) == 0;
    for (size_t i = 0; digits && s.n > 8 && i < s.n; i++)
        digits = s.p[i] >= '0' && s.p[i] <= '9';
    if (!digits)
        return json_opt_at(w, o, s, 1, plain);
    log_copy_padded(o, s.p, s.n);
    return o + s.n;
}

/* A combined or common line as JSON: the keys and values json_record
 * (log_record_json.c) writes for the record of the same line, written
 * straight from the parsed spans. Lines with log escapes to undo (a '\\')
 * or trailing fields go through the record (process_line); the tests
 * compare the two writers on random lines. A plain line (ASCII, no
 * control byte, no '\\', no '"' before the request: nearly all) has
 * nothing to escape or check in its fields, which are copied. */
static void json_access(struct worker *w, const char *s, const struct access *a)
{
    const char *open_quote = a->request.p - 1;
    const int plain = w->json_plain && log_find_byte(s, open_quote, '"') == NULL;
    struct span method, target;
    int ok = split_request(a->request, &method, &target);
    /* "remote ident user [time]": tokens ended by single spaces */
    const char *ident = a->remote.p + a->remote.n + 1, *user_end = a->time.p - 2;
    const char *space = log_find_byte(ident, user_end, ' ');
    /* Written at a cursor of its own (w->out is brought up to date around
     * the calls that write through it): the compiler cannot keep w->out's
     * length in a register across byte stores. */
    char *o = w->out->data + w->out->len;
    o = a->has_ra ? CAT(o, "{\"format\":\"combined\",\"remote\":")
                  : CAT(o, "{\"format\":\"common\",\"remote\":");
    o = json_opt_at(w, o, a->remote, a->remote.n > 0, plain);
    o = CAT(o, ",\"ident\":");
    o = json_opt_at(w, o, span_of(ident, space), space > ident, plain);
    o = CAT(o, ",\"user\":");
    o = json_opt_at(w, o, span_of(space + 1, user_end), user_end > space + 1, plain);
    o = CAT(o, ",\"time\":");
    o = json_opt_at(w, o, a->time, a->time.n > 0, plain);
    struct span none = {"", 0};
    o = CAT(o, ",\"time_iso\":\"");
    size_t iso_len = log_time_iso(none, a->time, o); /* ours: nothing to escape */
    o = iso_len > 0 ? CAT(o + iso_len, "\"") : CAT(o - 1, "null");
    o = CAT(o, ",\"method\":");
    if (ok) {
        o = json_opt_at(w, o, method, 1, plain);
        size_t origin = origin_length(target);
        if (origin > 0) {
            o = CAT(o, ",\"origin\":");
            o = json_opt_at(w, o, span_of(target.p, target.p + origin), 1, plain);
            target = span_of(target.p + origin, target.p + target.n);
        }
        *o++ = ',';
        w->out->len = (size_t)(o - w->out->data);
        put_json_url(w, target, 1);
        o = w->out->data + w->out->len;
        const char *after = target.p + target.n, *request_end = a->request.p + a->request.n;
        o = CAT(o, ",\"protocol\":");
        o = after < request_end ? json_opt_at(w, o, span_of(after + 1, request_end), 1, plain)
                                : CAT(o, "null");
    } else {
        o = CAT(o, "null,\"path\":");
        o = json_opt_at(w, o, a->request, 1, plain);
        o = CAT(o, ",\"query\":[],\"protocol\":null");
    }
    o = CAT(o, ",\"status\":");
    o = json_number_at(w, o, a->status, plain);
    o = CAT(o, ",\"bytes\":");
    o = json_number_at(w, o, a->bytes, plain);
    if (a->has_ra) {
        o = CAT(o, ",\"referer\":");
        if (w->ctx->cfg.referer && !span_is(a->referer, "-")) {
            w->out->len = (size_t)(o - w->out->data);
            put_json_referer(w, a->referer, 1, plain);
            o = w->out->data + w->out->len;
        } else {
            o = json_opt_at(w, o, a->referer, 1, plain);
        }
        o = CAT(o, ",\"agent\":");
        o = json_opt_at(w, o, a->agent, 1, plain);
    }
    *o++ = '}';
    w->out->len = (size_t)(o - w->out->data);
}

/* 1 if a combined or common line's JSON needs the record: it has fields
 * after the last one of its format (nginx adds some), or a '\\' (log
 * escapes such as \\" and \\x22 to undo). */
static int json_through_record(const struct worker *w, const char *s, size_t n,
                               const struct access *a, enum log_format_id fmt)
{
    int combined = a->has_ra && fmt != LF_COMMON;
    if (combined ? access_has_trailing(s, n, a->agent) : a->bytes.p + a->bytes.n != s + n)
        return 1;
    return !w->json_plain && memchr(s, '\\', n) != NULL;
}

/* ---- records: every field by name ---- */

/* The keys an object has so far, to keep each key once: as offsets of their
 * text in the output (escaped: equal keys are equal bytes, the escaping
 * being one way to write each string), or as literals reserved ahead. */
#define JSON_MAX_KEYS (2 * LOG_RECORD_MAX + 16)
struct json_keys {
    int n;
    struct {
        const char *lit; /* NULL: at, len in the output */
        size_t at, len;
    } k[JSON_MAX_KEYS];
    /* Fields written in "extra" (unnamed ones, and later duplicates), in
     * order. */
    int nextra;
    int extra[LOG_RECORD_MAX];
};

static int key_seen(const struct worker *w, const struct json_keys *ks, const char *p, size_t n)
{
    for (int i = 0; i < ks->n; i++) {
        if (ks->k[i].len != n)
            continue;
        const char *q = ks->k[i].lit != NULL ? ks->k[i].lit : w->out->data + ks->k[i].at;
        if (memcmp(q, p, n) == 0)
            return 1;
    }
    return 0;
}

static void key_reserve(struct json_keys *ks, const char *lit)
{
    if (ks->n < JSON_MAX_KEYS) {
        ks->k[ks->n].lit = lit;
        ks->k[ks->n].at = 0;
        ks->k[ks->n].len = strlen(lit);
        ks->n++;
    }
}

static void json_string(struct worker *w, struct span bytes)
{
    buf_reserve(w->out, 6 * bytes.n + 64); /* a field may be written more than once */
    put_raw(w, "\"", 1);
    put_mode(w, bytes.p, bytes.n, ESC_JSON);
    put_raw(w, "\"", 1);
}

/* ,"NAME[suffix]": unless the object has that key already: then nothing is
 * written and 0 returned. reserved: a key reserved ahead for this field. */
static int json_key(struct worker *w, struct json_keys *ks, struct span name, const char *suffix,
                    int reserved)
{
    if (has_high_bytes(name.p, name.n)) /* JSON lines' keys: UTF-8 repaired */
        name = decode_bytes(w, name, &w->ctx->keep_all, 0);
    buf_reserve(w->out, 6 * name.n + 64);
    const size_t before = w->out->len;
    put_raw(w, ",\"", 2);
    const size_t at = w->out->len;
    put_mode(w, name.p, name.n, ESC_JSON);
    put_str(w, suffix);
    const size_t len = w->out->len - at;
    if (!reserved) {
        if (key_seen(w, ks, w->out->data + at, len) || ks->n == JSON_MAX_KEYS) {
            w->out->len = before;
            return 0;
        }
        ks->k[ks->n].lit = NULL;
        ks->k[ks->n].at = at;
        ks->k[ks->n].len = len;
        ks->n++;
    }
    put_raw(w, "\":", 2);
    return 1;
}

/* A key of a request's own (reserved ahead: always written). */
static void json_key_str(struct worker *w, struct json_keys *ks, const char *name)
{
    json_key(w, ks, span_of(name, name + strlen(name)), "", 1);
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

/* A query field's parameters (the fast path's writer, from the field's
 * text). */
static void json_query(struct worker *w, struct span q)
{
    buf_reserve(w->out, 8 * q.n + 64);
    json_query_array(w, q, 1);
}

/* The origin of target u (log escapes undone), 0 if none. */
static size_t target_origin(struct worker *w, const struct log_field *f, struct span u)
{
    return origin_length(field_text(w, f, u));
}

/* ,"origin":...,"path":...,"query":[...] of a target or absolute URL. */
static void json_url(struct worker *w, struct json_keys *ks, const struct log_field *f,
                     struct span u)
{
    u = field_text(w, f, u); /* below, only B_DECODED and scratch are written */
    size_t origin = origin_length(u);
    if (origin > 0) {
        json_key_str(w, ks, "origin");
        json_string(w, decode_bytes(w, span_of(u.p, u.p + origin), &w->ctx->keep_all, 0));
        u = span_of(u.p + origin, u.p + u.n);
    }
    buf_reserve(w->out, 8 * u.n + 64);
    put_raw(w, ",", 1);
    put_json_url(w, u, 1);
}

static void json_request(struct worker *w, struct json_keys *ks, const struct log_field *f)
{
    struct span method, target;
    if (!split_request(f->v, &method, &target)) {
        json_key_str(w, ks, "method");
        put_str(w, "null");
        json_key_str(w, ks, "path");
        json_text(w, f, f->v);
        json_key_str(w, ks, "query");
        put_str(w, "[]");
        json_key_str(w, ks, "protocol");
        put_str(w, "null");
        return;
    }
    json_key_str(w, ks, "method");
    json_text(w, f, method);
    json_url(w, ks, f, target);
    json_key_str(w, ks, "protocol");
    const char *after = target.p + target.n, *e = f->v.p + f->v.n;
    if (after < e)
        json_text(w, f, span_of(after + 1, e));
    else
        put_str(w, "null");
}

static void json_time(struct worker *w, struct json_keys *ks, const struct log_record *r,
                      const struct log_field *f)
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
    if (!json_key(w, ks, f->name, "_iso", 0))
        return; /* a field of the log has the name: it is kept, this derived one not */
    if (len > 0)
        json_string(w, span_of(iso, iso + len));
    else
        put_str(w, "null");
}

/* The request of a record: its first K_REQUEST or K_URL field, whose keys
 * (method, origin, path, query, protocol) are reserved ahead, so that no
 * other field (nginx's trailing path=..., a JSON line's own "path") can
 * take them. NULL if none. */
static const struct log_field *reserve_request(struct worker *w, struct json_keys *ks,
                                               const struct log_record *r)
{
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        if (f->name.n == 0 || (f->kind != K_REQUEST && f->kind != K_URL))
            continue;
        struct span method, target = f->v;
        int split = f->kind == K_REQUEST && split_request(f->v, &method, &target);
        if (f->kind == K_URL && span_is(f->v, "-")) {
            key_reserve(ks, "path");
            return f;
        }
        if (f->kind == K_REQUEST)
            key_reserve(ks, "method");
        if ((f->kind == K_URL || split) && target_origin(w, f, target) > 0)
            key_reserve(ks, "origin");
        key_reserve(ks, "path");
        key_reserve(ks, "query");
        if (f->kind == K_REQUEST)
            key_reserve(ks, "protocol");
        return f;
    }
    return NULL;
}

/* "extra":[...]: unnamed fields as their text, later duplicates of a key
 * as "NAME=text". */
static void json_extra(struct worker *w, const struct log_record *r, const struct json_keys *ks)
{
    put_str(w, ",\"extra\":[");
    for (int k = 0; k < ks->nextra; k++) {
        const struct log_field *f = &r->f[ks->extra[k]];
        if (k > 0)
            put_raw(w, ",", 1);
        struct span name = f->name;
        if (has_high_bytes(name.p, name.n))
            name = decode_bytes(w, name, &w->ctx->keep_all, 0);
        buf_reserve(w->out, 6 * name.n + 64);
        put_raw(w, "\"", 1);
        if (name.n > 0) {
            put_mode(w, name.p, name.n, ESC_JSON);
            put_raw(w, "=", 1);
        }
        struct span t = decode_bytes(w, field_text(w, f, f->v), &w->ctx->keep_all, 0);
        buf_reserve(w->out, 6 * t.n + 64);
        put_mode(w, t.p, t.n, ESC_JSON);
        put_raw(w, "\"", 1);
    }
    put_raw(w, "]", 1);
}

/* A record as one JSON object: "format", then every field by name (a
 * request as method, origin, path, query, protocol; a time also as
 * NAME_iso), each key once: the request's keys are its own, and a field
 * whose key the object already has (a later duplicate) is written in
 * "extra" as "NAME=text", after the unnamed fields before it. */
static void json_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    (void)s;
    (void)n;
    struct json_keys ks;
    ks.n = ks.nextra = 0;
    key_reserve(&ks, "format");
    key_reserve(&ks, "extra");
    const struct log_field *request = reserve_request(w, &ks, r);
    buf_reserve(w->out, 64 * LOG_RECORD_MAX + 1024);
    put_str(w, "{\"format\":\"");
    put_str(w, log_format_name(r->format));
    put_raw(w, "\"", 1);
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        const int own = f == request;
        if (f->name.n == 0 || (!own && (f->kind == K_REQUEST || f->kind == K_URL))) {
            ks.extra[ks.nextra++] = i; /* a second request: its keys are taken */
            continue;
        }
        if (own) {
            if (f->kind == K_REQUEST) {
                json_request(w, &ks, f);
            } else if (span_is(f->v, "-")) {
                json_key_str(w, &ks, "path");
                put_str(w, "null");
            } else {
                json_url(w, &ks, f, f->v);
            }
            continue;
        }
        if (!json_key(w, &ks, f->name, "", 0)) {
            ks.extra[ks.nextra++] = i;
            continue;
        }
        switch (f->kind) {
        case K_PATH:
            if (span_is(f->v, "-"))
                put_str(w, "null");
            else
                json_string(w,
                            decode_bytes(w, field_text(w, f, f->v), path_keep(w), path_flags(w)));
            break;
        case K_QUERY: {
            struct span q = field_text(w, f, f->v);
            if (q.n > 0 && q.p[0] == '?')
                q = span_of(q.p + 1, q.p + q.n);
            json_query(w, span_is(q, "-") ? span_of(q.p, q.p) : q);
            break;
        }
        case K_TIME:
            json_time(w, &ks, r, f);
            break;
        case K_NUMBER:
            json_number(w, f);
            break;
        case K_LITERAL: /* checked as JSON by fmt_json.c */
            put_raw(w, f->v.p, f->v.n);
            break;
        case K_REFERER:
            if (w->ctx->cfg.referer && !span_is(f->v, "-"))
                json_string(w,
                            decode_bytes(w, field_text(w, f, f->v), path_keep(w), path_flags(w)));
            else
                json_text(w, f, f->v);
            break;
        default:
            json_text(w, f, f->v);
        }
    }
    if (ks.nextra > 0)
        json_extra(w, r, &ks);
    put_raw(w, "}", 1);
}

/* ---- the writer ---- */

static void json_unparsed(struct worker *w, const char *s, size_t n, int directive);

static void json_access_write(struct worker *w, const char *s, size_t n, const struct access *a,
                              enum log_format_id fmt)
{
    /* nginx's trailing fields, log escapes: through the record (a line of
     * more fields than a record holds: unparsed, not cut) */
    if (json_through_record(w, s, n, a, fmt)) {
        if (!record_process_access(w, s, n, a, fmt)) {
            w->st->unparsed++;
            json_unparsed(w, s, n, 0);
        }
        return;
    }
    w->st->formats[a->has_ra ? LF_COMBINED : LF_COMMON]++;
    json_access(w, s, a);
}

static void json_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                     const struct w3c_layout *l)
{
    record_process_w3c(w, s, n, f, count, l); /* every field */
}

/* --field N: {"path":...,"query":[...],"line":LINE} */
static void json_field(struct worker *w, const char *s, size_t n, struct span u)
{
    put_str(w, "{");
    put_json_url(w, u, 1);
    put_str(w, ",\"line\":");
    put_json_raw(w, span_of(s, s + n));
    put_raw(w, "}", 1);
}

static void json_unparsed(struct worker *w, const char *s, size_t n, int directive)
{
    put_str(w, directive ? "{\"directive\":" : "{\"unparsed\":");
    put_json_raw(w, span_of(s, s + n));
    put_raw(w, "}", 1);
}

static void json_long_start(struct worker *w)
{
    w->json_plain = 0; /* the pieces are not the line process_chunk scanned */
    put_str(w, "{\"unparsed\":\"");
}

static void json_long_piece(struct worker *w, const char *p, size_t n)
{
    if (has_high_bytes(p, n)) {
        size_t len = repair_utf8(w, p, n);
        put_mode(w, w->scratch.data, len, ESC_JSON);
    } else {
        put_mode(w, p, n, ESC_JSON);
    }
}

static void json_long_end(struct worker *w)
{
    put_str(w, "\"}");
}

const struct log_writer log_write_json = {
    .name = "json",
    .room_per_byte = 13,    /* 6 per byte escaped (\u00XX); --field: the line twice */
    .keeps_line_ending = 1, /* JSON lines allow a CR before the LF */
    .honours_raw = 0,
    .exact_fields = 1,
    .wants_plain = 1,
    .access = json_access_write,
    .w3c = json_w3c,
    .field = json_field,
    .record = json_record,
    .unparsed = json_unparsed,
    .long_start = json_long_start,
    .long_piece = json_long_piece,
    .long_end = json_long_end,
    .header = NULL,
};
