/* log_field_text.c - a record field's text: log escapes undone, encoding
 * layers decoded, percent-decoding into bytes ready for escaping. */
#include <stdint.h>
#include <string.h>

#include "log_field_text.h"
#include "log_unescape.h"

/* 1 if t is text of a plain line (ASCII, no control byte or '\\'). */
static inline int in_plain_line(const struct worker *w, struct span t)
{
    return w->json_plain && t.p >= w->line.p && t.p + t.n <= w->line.p + w->line.n;
}

/* Worker buffers: [0] a field's text with its log escapes undone, [1] that
 * text with CloudFront's layer decoded, [2] decoded bytes before escaping. */
enum {
    B_TEXT,
    B_LAYER,
    B_DECODED
};

static char *room(struct worker *w, int which, size_t n)
{
    /* U+FFFD for a byte: 3; and a scan's 16 of padding */
    return buf_room(&w->fmt_buf[which], 3 * n + 64);
}

/* A field's text as the program that wrote it meant it: log escapes undone,
 * CloudFront's own encoding layer decoded. */
struct span field_text(struct worker *w, const struct log_field *f, struct span t)
{
    /* The conventions a plain line (no '\\') holds no escape of. */
    enum {
        PLAIN_SAFE =
            1u << LOG_ESC_NONE | 1u << LOG_ESC_BACKSLASH | 1u << LOG_ESC_JSON | 1u << LOG_ESC_NGINX
    };
    const enum log_escaping esc = (enum log_escaping)f->esc;
    if (f->layers == 0 && (in_plain_line(w, t) ? PLAIN_SAFE >> esc & 1 : esc == LOG_ESC_NONE))
        return t;
    if (log_unescape_wanted(esc, t.p, t.n)) {
        char *o = room(w, B_TEXT, t.n);
        t = span_of(o, o + log_unescape(esc, t.p, t.n, o));
    }
    if (f->layers > 0 && memchr(t.p, '%', t.n) != NULL) {
        char *o = room(w, B_LAYER, t.n);
        pct_result r = pct_decode_except(t.p, t.n, o, NULL, 0);
        t = span_of(o, o + (r.status == PCT_OK ? r.count : 0));
    }
    return t;
}

/* Decodes t (escapes of bytes in keep stay; keep_all: only UTF-8 repaired)
 * into bytes ready for escaping. */
struct span decode_bytes(struct worker *w, struct span t, const pct_set *keep, unsigned flags)
{
    /* Most fields: ASCII with nothing to decode, written as they are (a
     * '%' to decode is looked for first: most URLs have one). */
    const int ascii = in_plain_line(w, t) || !has_high_bytes(t.p, t.n);
    if (keep == &w->ctx->keep_all
            ? ascii
            : memchr(t.p, '%', t.n) == NULL &&
                  (!(flags & PCT_PLUS) || memchr(t.p, '+', t.n) == NULL) && ascii)
        return t;
    char *o = room(w, B_DECODED, t.n);
    /* Checked first, repaired only if it must be: the library's one-shot
     * kernels for short fields check UTF-8, and nearly every field is
     * valid. */
    unsigned utf8 = w->ctx->cfg.bytes ? 0 : PCT_UTF8;
    pct_result r = pct_decode_except(t.p, t.n, o, keep, flags | utf8);
    if (r.status != PCT_OK && utf8 != 0)
        r = pct_decode_except(t.p, t.n, o, keep, flags | PCT_UTF8_REPLACE);
    if (r.status != PCT_OK) /* cannot happen (lenient decoding) */
        return span_of(o, o);
    return span_of(o, o + r.count);
}

const pct_set *path_keep(const struct worker *w)
{
    return w->ctx->cfg.decode_slash ? NULL : &w->ctx->keep_path;
}

unsigned query_flags(const struct worker *w)
{
    return path_flags(w) | (w->ctx->cfg.query == Q_FORM ? PCT_PLUS : 0);
}

/* The scheme and authority of an absolute URL ("http://host:80"), empty
 * for a target that starts with its path. */
size_t origin_length(struct span u)
{
    const char *p = u.p, *e = u.p + u.n;
    while (p < e && ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))
        p++;
    if (p == u.p || e - p < 3 || memcmp(p, "://", 3) != 0)
        return 0;
    p += 3;
    while (p < e && *p != '/' && *p != '?' && *p != '#')
        p++;
    return (size_t)(p - u.p);
}
