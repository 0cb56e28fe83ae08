/* log_write_json.c - JSON output: one object per line. Combined and common
 * lines are written straight from the fast path's spans (json_access);
 * every other line through its record (json_record: log_record_walk.h's
 * object, written as text), with the same query
 * writer (json_query_array); a line that does not parse (or is longer than
 * --max-line) is {"unparsed": LINE}, a W3C directive {"directive": LINE}.
 * Keys are never repeated in an object (see log_record_walk.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "log_cut.h"
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
 * (log_record_walk.h) writes for the record of the same line, written
 * straight from the parsed spans. Lines with log escapes to undo (a '\\')
 * or trailing fields go through the record (process_line); the tests
 * compare the two writers on random lines. A plain line (ASCII, no
 * control byte, no '\\', no '"' but those around its quoted fields: nearly all) has
 * nothing to escape or check in its fields, which are copied. */
static void json_access(struct worker *w, const char *s, const struct access *a)
{
    const char *open_quote = a->request.p - 1;
    const int plain = w->json_plain && !a->inner_quote && log_find_byte(s, open_quote, '"') == NULL;
    struct request_parts rq;
    int ok = request_split(a->request, &rq);
    struct span target = rq.target;
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
    size_t iso_len =
        log_time_iso_memo(&w->time_memo, none, a->time, o); /* ours: nothing to escape */
    o = iso_len > 0 ? CAT(o + iso_len, "\"") : CAT(o - 1, "null");
    o = CAT(o, ",\"method\":");
    if (ok) {
        o = json_opt_at(w, o, rq.method, 1, plain);
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
        o = CAT(o, ",\"protocol\":");
        o = rq.protocol.n > 0 ? json_opt_at(w, o, rq.protocol, 1, plain) : CAT(o, "null");
    } else { /* not a request line: its text, no path (log_record_walk.h) */
        o = CAT(o, "null,\"path\":null,\"query\":[],\"protocol\":null,\"request\":");
        o = json_opt_at(w, o, a->request, 1, plain);
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
 * after the last one of its format (nginx adds some), the server cut it
 * (log_cut.h), or a '\\' (log escapes such as \\" and \\x22 to undo). */
static int json_through_record(const struct worker *w, const char *s, size_t n,
                               const struct access *a, enum log_format_id fmt)
{
    int combined = a->has_ra && fmt != LF_COMMON;
    if (combined ? access_has_trailing(s, n, a->agent) : a->bytes.p + a->bytes.n != s + n)
        return 1;
    if (request_was_cut(a->request, a->status))
        return 1; /* "truncated": true */
    return !w->json_plain && memchr(s, '\\', n) != NULL;
}

/* ---- records: the object of log_record_walk.h, as text ---- */

/* The output of a record: a ',' goes before a member or list value that is
 * not the first of its object or list. */
struct record_sink {
    struct worker *w;
    int comma;
};

static const struct log_field *walk_field(const void *rec, size_t i)
{
    return &((const struct log_record *)rec)->f[i];
}

static void sink_comma(struct record_sink *s)
{
    if (s->comma)
        put_raw(s->w, ",", 1);
    s->comma = 1;
}

static void sink_key(struct record_sink *s, const char *p, size_t n, int plain)
{
    struct worker *w = s->w;
    buf_reserve(w->out, 6 * n + 64);
    sink_comma(s);
    put_raw(w, "\"", 1);
    if (plain)
        put_raw(w, p, n);
    else
        put_mode(w, p, n, ESC_JSON);
    put_raw(w, "\":", 2);
    s->comma = 0; /* its value follows */
}

static void sink_string(struct record_sink *s, const char *p, size_t n, int plain)
{
    struct worker *w = s->w;
    buf_reserve(w->out, 6 * n + 64); /* a field may be written more than once */
    sink_comma(s);
    put_raw(w, "\"", 1);
    if (plain)
        put_raw(w, p, n);
    else
        put_mode(w, p, n, ESC_JSON);
    put_raw(w, "\"", 1);
}

static void sink_null(struct record_sink *s)
{
    sink_comma(s);
    put_raw(s->w, "null", 4);
}

static void sink_literal(struct record_sink *s, const char *p, size_t n)
{
    buf_reserve(s->w->out, n + 64);
    sink_comma(s);
    put_raw(s->w, p, n);
}

static void sink_list(struct record_sink *s)
{
    sink_comma(s);
    put_raw(s->w, "[", 1);
    s->comma = 0;
}

static void sink_end(struct record_sink *s)
{
    put_raw(s->w, "]", 1);
    s->comma = 1;
}

static const char *sink_path(struct record_sink *s, struct span u)
{
    struct worker *w = s->w;
    buf_reserve(w->out, 8 * u.n + 64);
    sink_comma(s);
    put_raw(w, "\"", 1);
    const char *q = put_url_path(w, u, 1);
    put_raw(w, "\"", 1);
    return q;
}

/* The fast path's query writer, from the query's text. */
static void sink_query(struct record_sink *s, struct span q)
{
    buf_reserve(s->w->out, 8 * q.n + 64);
    sink_comma(s);
    json_query_array(s->w, q, 1);
}

#include "log_record_walk.h"

static void json_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    (void)s;
    (void)n;
    struct record_sink sink = {w, 0};
    buf_reserve(w->out, 64 * LOG_RECORD_MAX + 1024);
    put_raw(w, "{", 1);
    record_walk(w, &sink, log_format_name(r->format), r->truncated, r, (size_t)r->n);
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
