/* log_field_text.c - a record field's text: log escapes undone, encoding
 * layers decoded, percent-decoding into bytes ready for escaping. */
#include <stdint.h>
#include <string.h>

#include "log_field_text.h"

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

static int hex_value(unsigned char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* UTF-8 of code point c at o. */
static char *put_utf8(char *o, uint32_t c)
{
    if (c < 0x80) {
        *o++ = (char)c;
    } else if (c < 0x800) {
        *o++ = (char)(0xC0 | c >> 6);
        *o++ = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (char)(0xE0 | c >> 12);
        *o++ = (char)(0x80 | (c >> 6 & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (char)(0xF0 | c >> 18);
        *o++ = (char)(0x80 | (c >> 12 & 0x3F));
        *o++ = (char)(0x80 | (c >> 6 & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    }
    return o;
}

static int hex4(const char *p, const char *e, uint32_t *v)
{
    if (e - p < 4)
        return 0;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        if (!is_hex((unsigned char)p[i]))
            return 0;
        *v = *v << 4 | (uint32_t)hex_value((unsigned char)p[i]);
    }
    return 1;
}

/* A JSON string's contents with its escapes undone (a lone surrogate is
 * U+FFFD). */
static struct span json_unescape(struct worker *w, struct span t)
{
    char *o = room(w, B_TEXT, t.n), *start = o;
    const char *p = t.p, *e = t.p + t.n;
    while (p < e) {
        if (*p != '\\' || e - p < 2) {
            *o++ = *p++;
            continue;
        }
        char c = p[1];
        p += 2;
        uint32_t u, lo;
        switch (c) {
        case 'b':
            *o++ = '\b';
            break;
        case 'f':
            *o++ = '\f';
            break;
        case 'n':
            *o++ = '\n';
            break;
        case 'r':
            *o++ = '\r';
            break;
        case 't':
            *o++ = '\t';
            break;
        case 'u':
            if (!hex4(p, e, &u)) {
                o = put_utf8(o, 0xFFFD);
                break;
            }
            p += 4;
            if (u >= 0xD800 && u < 0xDC00 && e - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
                hex4(p + 2, e, &lo) && lo >= 0xDC00 && lo < 0xE000) {
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            } else if (u >= 0xD800 && u < 0xE000) {
                u = 0xFFFD;
            }
            o = put_utf8(o, u);
            break;
        default:
            *o++ = c; /* \" \\ \/ */
        }
    }
    return span_of(start, o);
}

/* Apache's and nginx's escapes in a quoted field (\" \\ \xHH) undone. */
static struct span log_unescape(struct worker *w, struct span t)
{
    char *o = room(w, B_TEXT, t.n), *start = o;
    const char *p = t.p, *e = t.p + t.n;
    while (p < e) {
        if (*p == '\\' && e - p >= 2 && (p[1] == '"' || p[1] == '\\')) {
            *o++ = p[1];
            p += 2;
        } else if (*p == '\\' && e - p >= 4 && p[1] == 'x' && is_hex((unsigned char)p[2]) &&
                   is_hex((unsigned char)p[3])) {
            *o++ = (char)(hex_value((unsigned char)p[2]) << 4 | hex_value((unsigned char)p[3]));
            p += 4;
        } else {
            *o++ = *p++;
        }
    }
    return span_of(start, o);
}

/* A field's text as the program that wrote it meant it: log escapes undone,
 * CloudFront's own encoding layer decoded. */
struct span field_text(struct worker *w, const struct log_field *f, struct span t)
{
    if (f->layers == 0 && in_plain_line(w, t))
        return t; /* a plain line has no '\\': no escape to undo */
    if (f->quote == FQ_JSON && memchr(t.p, '\\', t.n) != NULL)
        t = json_unescape(w, t);
    else if (f->quote == FQ_QUOTED && memchr(t.p, '\\', t.n) != NULL)
        t = log_unescape(w, t);
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
