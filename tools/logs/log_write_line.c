/* log_write_line.c - line output: each line as it was read, with its
 * request target (and with --referer its referer) decoded in place; the
 * text that is not decoded as written, its control bytes escaped unless
 * --raw. A line that does not parse, or is longer than --max-line, is
 * written so too, nothing of it decoded. */
#include <stdint.h>
#include <string.h>

#include "log_field_text.h"
#include "log_formats.h"
#include "log_record_out.h"
#include "log_safe.h"
#include "log_unescape.h"
#include "log_writer.h"

static void line_access(struct worker *w, const char *s, size_t n, const struct access *a)
{
    const struct log_config *cfg = &w->ctx->cfg;
    struct request_parts rq;
    const char *done = s;
    w->text_esc = LOG_ESC_BACKSLASH; /* combined and common: Apache's and nginx's */
    if (request_split(a->request, &rq)) {
        const struct span target = rq.target;
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

/* Line output for W3C: stem, query (and referer) decoded in place. */
static void line_w3c(struct worker *w, const char *s, size_t n, const struct span *f,
                     const struct w3c_layout *l)
{
    const struct log_config *cfg = &w->ctx->cfg;
    const char *done = s;
    w->text_esc = LOG_ESC_NONE; /* a '\\' in a W3C URL is the client's */
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
            put_undecoded(w, f[i].p, f[i].n); /* not decoded: controls escaped */
        else if (kind == 2)
            put_decoded(w, f[i].p, f[i].n, &w->ctx->keep_query,
                        path_flags(w) | (cfg->query == Q_FORM ? PCT_PLUS : 0), 0);
        else
            put_url_line(w, f[i]);
        if (f[i].p == s)
            log_safe_hash_guard(w, start);
        done = f[i].p + f[i].n;
    }
    put_undecoded(w, done, (size_t)(s + n - done));
}

/* A URL's path and query decoded into line output: in a JSON string (the
 * JSON-lines formats), or as the line's own text. */
static void line_url(struct worker *w, const struct log_field *f, struct span t, int kind)
{
    const struct log_config *cfg = &w->ctx->cfg;
    size_t origin = kind == K_URL || kind == K_REFERER ? origin_length(t) : 0;
    if (f->esc == LOG_ESC_JSON) {
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
    /* The backslash escapes of Apache and nginx are line output's own: kept
     * as written. Other conventions (HAProxy's #XX) are undone first, and
     * what they stood for is escaped as line output escapes it. */
    w->text_esc = f->esc;
    if (f->layers > 0 || !log_escaping_kept_in_line((enum log_escaping)f->esc)) {
        t = field_text(w, f, t);
        w->text_esc = LOG_ESC_NONE;
    }
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
    struct request_parts parts;
    *t = f->v;
    if (f->v.n == 0 || span_is(f->v, "-"))
        return 0;
    switch (f->kind) {
    case K_REQUEST:
        return request_split_esc(f->v, f->esc, &parts) && (*t = parts.target, 1);
    case K_URL: /* not one that is no target (Squid's "error:..."): path null */
        return request_target_form(f->v, f->esc);
    case K_PATH:
    case K_QUERY:
        return 1;
    case K_REFERER:
        return w->ctx->cfg.referer;
    default:
        return 0;
    }
}

/* A JSON line's text that is not decoded: the line stays JSON (issue 24,
 * defect 8): DEL and C1 controls as \u00HH, not \xHH; ill-formed UTF-8
 * repaired (U+FFFD) unless --bytes, as --json does. --raw: as it is. */
static void put_json_undecoded(struct worker *w, const char *src, size_t n)
{
    if (w->ctx->raw_text) {
        put_raw(w, src, n);
        return;
    }
    if (!w->ctx->cfg.bytes && has_high_bytes(src, n)) {
        n = repair_utf8(w, src, n);
        src = w->scratch.data;
    } else if (w->line_clean) {
        put_raw(w, src, n);
        return;
    }
    put_mode(w, src, n, ESC_JSON_TEXT);
}

static void line_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    int spaced = w->spaced;
    w->spaced = !w->ctx->cfg.raw_spaces; /* decoded spaces keep fields apart */
    /* JSON lines, or a JSON-shaped --log-format (nginx escape=json): JSON */
    const int json = r->format == LF_JSON ||
                     log_formats_escaping(w->ctx->cfg.formats, r->format) == LOG_ESC_JSON;
    void (*undecoded)(struct worker *, const char *, size_t) =
        json ? put_json_undecoded : put_undecoded;
    const char *done = s;
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        struct span t;
        if (!decoded_part(w, f, &t) || t.p < done)
            continue;
        undecoded(w, done, (size_t)(t.p - done));
        size_t start = w->out->len;
        line_url(w, f, t, f->kind == K_REQUEST ? K_URL : f->kind);
        if (t.p == s)
            log_safe_hash_guard(w, start);
        done = t.p + t.n;
    }
    undecoded(w, done, (size_t)(s + n - done));
    w->spaced = spaced;
}

static void line_access_write(struct worker *w, const char *s, size_t n, const struct access *a,
                              enum log_format_id fmt)
{
    (void)fmt;
    w->st->formats[a->has_ra ? LF_COMBINED : LF_COMMON]++;
    line_access(w, s, n, a);
}

static void line_w3c_write(struct worker *w, const char *s, size_t n, const struct span *f,
                           int count, const struct w3c_layout *l)
{
    if (l->cloudfront) { /* both encoding layers: through the record */
        record_process_w3c(w, s, n, f, count, l);
        return;
    }
    line_w3c(w, s, n, f, l);
    w->st->formats[LF_W3C]++;
}

static void line_field(struct worker *w, const char *s, size_t n, struct span u)
{
    w->text_esc = LOG_ESC_BACKSLASH; /* a log of any server: the usual escapes */
    put_undecoded(w, s, (size_t)(u.p - s));
    size_t start = w->out->len;
    put_url_line(w, u);
    if (u.p == s)
        log_safe_hash_guard(w, start);
    put_undecoded(w, u.p + u.n, (size_t)(s + n - (u.p + u.n)));
}

static void line_unparsed(struct worker *w, const char *s, size_t n, int directive)
{
    (void)directive;
    put_undecoded(w, s, n);
}

static void line_long_start(struct worker *w)
{
    w->line_clean = w->json_plain = 0; /* the pieces are not scanned: put_undecoded checks them */
}

static void line_long_piece(struct worker *w, const char *p, size_t n)
{
    put_undecoded(w, p, n);
}

static void line_long_end(struct worker *w)
{
    (void)w;
}

const struct log_writer log_write_line = {
    .name = "line",
    .room_per_byte = 6, /* "\\xc2\\x9b" for 2 bytes; %23 for '#' */
    .keeps_line_ending = 1,
    .honours_raw = 1,
    .exact_fields = 0,
    .wants_plain = 0,
    .access = line_access_write,
    .w3c = line_w3c_write,
    .field = line_field,
    .record = line_record,
    .unparsed = line_unparsed,
    .long_start = line_long_start,
    .long_piece = line_long_piece,
    .long_end = line_long_end,
    .header = NULL,
};
