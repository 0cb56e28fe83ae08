/* log_output.c - writing each line: decoded in place (line output) or as a
 * JSON object; chunks of lines; the --stats counts. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "log_decode.h"
#include "log_formats.h"
#include "log_output.h"
#include "log_record_out.h"
#include "log_time.h"
#include "log_tsv.h"
#include "log_field_text.h"

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

/* "query":[[name,value],...] (WHATWG urlencoded parsing: split at '&', then
 * at the first '='; empty parameters skipped). */
static void put_json_query(struct worker *w, struct span q, int present)
{
    const struct log_config *cfg = &w->ctx->cfg;
    put_str(w, "\"query\":[");
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
    put_str(w, "\",");
    put_json_query(w, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p), q != NULL);
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

static void line_access(struct worker *w, const char *s, size_t n, const struct access *a)
{
    const struct log_config *cfg = &w->ctx->cfg;
    struct span method, target;
    const char *done = s;
    if (split_request(a->request, &method, &target)) {
        put_undecoded(w, done, (size_t)(target.p - done));
        put_url_line(w, target);
        done = target.p + target.n;
    }
    if (cfg->referer && a->has_ra && !span_is(a->referer, "-")) {
        put_undecoded(w, done, (size_t)(a->referer.p - done));
        put_url_line(w, a->referer);
        done = a->referer.p + a->referer.n;
    }
    put_undecoded(w, done, (size_t)(s + n - done));
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

/* A decoded field that starts the line must not start it with '#': the line
 * would read as a W3C directive (a decoded "%23Fields: ..." would change how
 * the rest is parsed). That '#' is written as %23 again. */
static void guard_directive(struct worker *w, size_t start)
{
    char *o = w->out->data + start;
    if (w->out->len > start && *o == '#') {
        memmove(o + 3, o + 1, w->out->len - start - 1);
        memcpy(o, "%23", 3);
        w->out->len += 2;
    }
}

/* Line output for W3C: stem, query (and referer) decoded in place. */
static void line_w3c(struct worker *w, const char *s, size_t n, const struct span *f,
                     const struct w3c_layout *l)
{
    const struct log_config *cfg = &w->ctx->cfg;
    const char *done = s;
    for (int i = 0; i < l->count; i++) {
        int kind = i == l->stem ? 1 : i == l->query ? 2 : (cfg->referer && i == l->referer) ? 3 : 0;
        if (kind == 0 || span_is(f[i], "-"))
            continue;
        put_undecoded(w, done, (size_t)(f[i].p - done));
        size_t start = w->out->len;
        if (kind == 1)
            put_decoded(w, f[i].p, f[i].n, cfg->decode_slash ? NULL : &w->ctx->keep_path,
                        path_flags(w), 0);
        else if (kind == 2 && cfg->query == Q_KEEP)
            put_raw(w, f[i].p, f[i].n);
        else if (kind == 2)
            put_decoded(w, f[i].p, f[i].n, &w->ctx->keep_query,
                        path_flags(w) | (cfg->query == Q_FORM ? PCT_PLUS : 0), 0);
        else
            put_url_line(w, f[i]);
        if (f[i].p == s)
            guard_directive(w, start);
        done = f[i].p + f[i].n;
    }
    put_undecoded(w, done, (size_t)(s + n - done));
}

static void put_unparsed(struct worker *w, const char *s, size_t n)
{
    const struct log_config *cfg = &w->ctx->cfg;
    if (cfg->table) {
        table_unparsed(w, s, n, 0);
        return;
    }
    w->st->unparsed++;
    if (!cfg->json) {
        put_undecoded(w, s, n);
        return;
    }
    put_str(w, "{\"unparsed\":");
    put_json_raw(w, span_of(s, s + n));
    put_raw(w, "}", 1);
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

/* One line without its terminator. LF_AUTO: combined or common. */
static void process_line(struct worker *w, const char *s, size_t n, enum log_format_id fmt,
                         struct w3c_layout *layout)
{
    const struct log_config *cfg = &w->ctx->cfg;
    w->line_escaped = w->line_bad_utf8 = 0;
    if (fmt == LF_W3C) {
        struct span f[LOG_W3C_MAX_COLUMNS + 1];
        if (n > 0 && s[0] == '#') {
            if (is_fields_line(s, n))
                parse_w3c_header(s, n, layout);
            if (cfg->table) {
                table_unparsed(w, s, n, 1);
            } else if (cfg->json) {
                put_str(w, "{\"directive\":");
                put_json_raw(w, span_of(s, s + n));
                put_raw(w, "}", 1);
            } else {
                put_undecoded(w, s, n);
            }
            return;
        }
        int count = split_fields(s, n, f, LOG_W3C_MAX_COLUMNS);
        if (layout->count == 0 || count != layout->count) {
            put_unparsed(w, s, n);
            return;
        }
        if (layout->cloudfront || cfg->table || cfg->json) /* JSON: every field */
            record_process_w3c(w, s, n, f, count, layout);
        else
            line_w3c(w, s, n, f, layout);
        if (!layout->cloudfront && !cfg->table && !cfg->json)
            w->st->formats[LF_W3C]++;
    } else if (log_format_via_record(fmt) || cfg->table) {
        if (!record_process(w, s, n, fmt)) {
            put_unparsed(w, s, n);
            return;
        }
    } else if (fmt == LF_FIELD) {
        struct span f[LOG_MAX_FIELDS + 1];
        int count = split_fields(s, n, f, LOG_MAX_FIELDS);
        if ((size_t)count < cfg->field || cfg->field > LOG_MAX_FIELDS) {
            put_unparsed(w, s, n);
            return;
        }
        struct span u = f[cfg->field - 1];
        if (cfg->json) {
            put_str(w, "{");
            put_json_url(w, u, 1);
            put_str(w, ",\"line\":");
            put_json_raw(w, span_of(s, s + n));
            put_raw(w, "}", 1);
        } else {
            put_undecoded(w, s, (size_t)(u.p - s));
            size_t start = w->out->len;
            put_url_line(w, u);
            if (u.p == s)
                guard_directive(w, start);
            put_undecoded(w, u.p + u.n, (size_t)(s + n - (u.p + u.n)));
        }
    } else {
        struct access a;
        if (!parse_access(s, n, &a, cfg->json, &w->quotes) || (fmt == LF_COMBINED && !a.has_ra)) {
            /* auto: the other formats (log_formats.c) */
            if (fmt != LF_AUTO || !record_process(w, s, n, fmt)) {
                put_unparsed(w, s, n);
                return;
            }
        } else if (cfg->json && json_through_record(w, s, n, &a, fmt)) {
            /* JSON: nginx's trailing fields, log escapes: through the record
             * (a line of more fields than a record holds: unparsed, not cut) */
            if (!record_process(w, s, n, fmt)) {
                put_unparsed(w, s, n);
                return;
            }
        } else {
            if (fmt == LF_COMMON)
                a.has_ra = 0;
            w->st->formats[a.has_ra ? LF_COMBINED : LF_COMMON]++;
            if (cfg->json)
                json_access(w, s, &a);
            else
                line_access(w, s, n, &a);
        }
    }
    w->st->escaped_lines += (uint64_t)w->line_escaped;
    w->st->invalid_utf8 += (uint64_t)w->line_bad_utf8;
}

void process_chunk(struct worker *w, struct chunk_job *job)
{
    const char *p = job->in, *e = job->in + job->len;
    memset(&job->st, 0, sizeof job->st);
    job->out.len = 0;
    w->out = &job->out;
    w->st = &job->st;
    /* A decoded space is \x20 (unless --raw-spaces): the line splits into the
     * same fields, inside quotes too (awk field numbers stay right). */
    w->spaced = job->fmt == LF_W3C || job->fmt == LF_FIELD ||
                (!w->ctx->cfg.raw_spaces && !w->ctx->cfg.json);
    w->w3c = job->fmt == LF_W3C;
    job->st.bytes = job->len;
    /* What a line is scanned for: in line output the bytes put_undecoded
     * escapes (not with --raw, which escapes none), in JSON those that make
     * it not plain. */
    const int scan = w->ctx->cfg.json || !w->ctx->cfg.raw;
    log_marks_start(&w->marks, &w->ctx->line_marks[w->ctx->cfg.json != 0]);
    log_marks_start(&w->quote_bits, &w->ctx->quote);
    w->quotes.marks = &w->quote_bits;
    w->quotes.chunk_end = e;
    while (p < e) {
        /* The line's end and whether its text has such a byte, in one pass:
         * the first one (the newline is one) is most often the newline, or
         * a CR before it. */
        const char *c = scan ? log_marks_next(&w->marks, p, e) : p;
        const char *nl = c < e && *c == '\n'                          ? c
                         : e - c >= 2 && c[0] == '\r' && c[1] == '\n' ? c + 1
                         : c < e ? memchr(c, '\n', (size_t)(e - c))
                                 : NULL;
        const char *end = nl != NULL ? nl : e;
        const char *content_end = end;
        if (nl != NULL && content_end > p && content_end[-1] == '\r')
            content_end--; /* CRLF: the CR is part of the terminator */
        w->line_clean = w->json_plain = c >= content_end;
        size_t n = (size_t)(content_end - p);
        /* Worst case: 6 output bytes per input byte (JSON \u00XX), plus keys; */
        buf_reserve(&job->out, 13 * n + 512); /* --field --json: the line twice */
        process_line(w, p, n, job->fmt, &job->layout);
        if (nl != NULL)
            put_raw(w, content_end, (size_t)(end - content_end) + 1);
        else
            put_raw(w, "\n", 1); /* the input's last line: ended here, so the next
                                    input's first line stays a line of its own */
        job->st.lines++;
        p = nl != NULL ? nl + 1 : e;
    }
}

void add_stats(struct stats *a, const struct stats *b)
{
    a->lines += b->lines;
    a->bytes += b->bytes;
    a->escaped_lines += b->escaped_lines;
    a->malformed += b->malformed;
    a->invalid_utf8 += b->invalid_utf8;
    a->unparsed += b->unparsed;
    a->long_lines += b->long_lines;
    for (int i = 0; i < LOG_STATS_FORMATS; i++)
        a->formats[i] += b->formats[i];
}

void print_stats(const struct stats *s, double start)
{
    double elapsed = now_seconds() - start;
    fprintf(stderr,
            "lines:              %llu\n"
            "bytes:              %llu\n"
            "lines with escapes: %llu\n"
            "malformed escapes:  %llu\n"
            "invalid UTF-8:      %llu lines\n"
            "unparsed lines:     %llu\n"
            "long lines:         %llu (passed through undecoded)\n"
            "elapsed:            %.3f s\n"
            "throughput:         %.3f GB/s\n",
            (unsigned long long)s->lines, (unsigned long long)s->bytes,
            (unsigned long long)s->escaped_lines, (unsigned long long)s->malformed,
            (unsigned long long)s->invalid_utf8, (unsigned long long)s->unparsed,
            (unsigned long long)s->long_lines, elapsed,
            elapsed > 0 ? (double)s->bytes / elapsed / 1e9 : 0.0);
    for (int i = 0; i < LF_COUNT && i < LOG_STATS_FORMATS; i++)
        if (s->formats[i] > 0)
            fprintf(stderr, "format %-14s %llu lines\n", log_format_name(i),
                    (unsigned long long)s->formats[i]);
}
