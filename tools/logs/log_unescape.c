/* log_unescape.c - each log format's own escaping undone (see
 * log_unescape.h): the one place where a server's escapes become bytes. */
#include <stdint.h>
#include <string.h>

#include "log_unescape.h"
#include "log_util.h"

/* log_record_set_escaping's table by quote is this function's rule. */
_Static_assert(FQ_BARE == 0 && FQ_QUOTED == 1 && FQ_TAB == 2 && FQ_JSON == 3,
               "log_record_set_escaping indexes by quote");

enum log_escaping log_escaping_of_field(enum log_escaping esc, const struct log_field *f)
{
    switch (esc) {
    case LOG_ESC_BACKSLASH:
    case LOG_ESC_NGINX:
    case LOG_ESC_HAPROXY:
        /* These servers escape every value they write, quoted or not
         * (Apache's %u, nginx's $remote_user, HAProxy's captures). */
        return f->quote == FQ_QUOTED || f->quote == FQ_BARE ? esc : LOG_ESC_NONE;
    case LOG_ESC_JSON:
        /* A JSON line's bare values are numbers, literals or raw JSON
         * (arrays): not string contents. */
        return f->quote == FQ_JSON || f->quote == FQ_QUOTED ? esc : LOG_ESC_NONE;
    case LOG_ESC_W3C:
        /* IIS writes a URL as received (a '+' there is the client's) and
         * puts '+' for the spaces of other text (user agent, cookie). */
        return f->kind == K_TEXT && f->quote == FQ_BARE ? esc : LOG_ESC_NONE;
    default:
        return LOG_ESC_NONE;
    }
}

void log_record_set_escaping_w3c(struct log_record *r)
{
    for (int i = 0; i < r->n; i++)
        r->f[i].esc = (unsigned char)log_escaping_of_field(LOG_ESC_W3C, &r->f[i]);
}

int log_unescape_wanted(enum log_escaping esc, const char *p, size_t n)
{
    if (n == 0)
        return 0;
    switch (esc) {
    case LOG_ESC_BACKSLASH:
    case LOG_ESC_NGINX:
    case LOG_ESC_JSON:
        return memchr(p, '\\', n) != NULL;
    case LOG_ESC_HAPROXY:
        return memchr(p, '#', n) != NULL;
    case LOG_ESC_W3C:
        return memchr(p, '+', n) != NULL;
    default:
        return 0;
    }
}

static int hex_value(unsigned char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* 1 if p[0..1] are two hex digits (p + 2 <= e). */
static int hex2_at(const char *p, const char *e)
{
    return e - p >= 2 && is_hex((unsigned char)p[0]) && is_hex((unsigned char)p[1]);
}

static char hex2(const char *p)
{
    return (char)(hex_value((unsigned char)p[0]) << 4 | hex_value((unsigned char)p[1]));
}

/* The control byte of a C-style escape letter (Apache's \b \n \r \t \v,
 * and \f), or 0. */
static char control_of(char c)
{
    switch (c) {
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    case 'v':
        return '\v';
    default:
        return 0;
    }
}

size_t log_escape_kept(enum log_escaping esc, const char *p, const char *e)
{
    if (e - p < 2 || p[0] != '\\' || !log_escaping_kept_in_line(esc))
        return 0;
    if (p[1] == '"' || p[1] == '\\')
        return 2;
    if (p[1] == 'x' && hex2_at(p + 2, e))
        return 4;
    return esc == LOG_ESC_BACKSLASH && control_of(p[1]) != 0 ? 2 : 0;
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

/* A JSON escape at p (after its '\\', c its letter) at o; a \u of no four
 * hex digits, or a lone surrogate, is U+FFFD. */
static char *json_escape_at(char c, const char **pp, const char *e, char *o)
{
    const char *p = *pp;
    uint32_t u, lo;
    char control = control_of(c);
    if (control != 0 && c != 'v') {
        *o++ = control;
    } else if (c == 'x' && hex2_at(p, e)) {
        /* not JSON's: nginx's default escaping in a JSON-shaped format
         * given without escape=json (a JSON line never holds one) */
        *o++ = hex2(p);
        p += 2;
    } else if (c == 'u') {
        if (!hex4(p, e, &u)) {
            u = 0xFFFD;
        } else {
            p += 4;
            if (u >= 0xD800 && u < 0xDC00 && e - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
                hex4(p + 2, e, &lo) && lo >= 0xDC00 && lo < 0xE000) {
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            } else if (u >= 0xD800 && u < 0xE000) {
                u = 0xFFFD;
            }
        }
        o = put_utf8(o, u);
    } else {
        *o++ = c; /* \" \\ \/, and what JSON does not have, as the letter */
    }
    *pp = p;
    return o;
}

size_t log_unescape(enum log_escaping esc, const char *p, size_t n, char *out)
{
    const char *e = p + n;
    char *o = out;
    const char mark = esc == LOG_ESC_HAPROXY ? '#' : esc == LOG_ESC_W3C ? '+' : '\\';
    while (p < e) {
        const char *m = memchr(p, mark, (size_t)(e - p));
        if (m == NULL || esc == LOG_ESC_NONE || esc == LOG_ESC_PERCENT)
            m = e;
        memcpy(o, p, (size_t)(m - p));
        o += m - p;
        if (m == e)
            break;
        p = m + 1; /* past the mark */
        if (esc == LOG_ESC_W3C) {
            *o++ = ' ';
        } else if (esc == LOG_ESC_HAPROXY) {
            if (hex2_at(p, e)) {
                *o++ = hex2(p);
                p += 2;
            } else {
                *o++ = '#'; /* not one of HAProxy's: a byte */
            }
        } else if (p == e) {
            *o++ = '\\';
        } else if (esc == LOG_ESC_JSON) {
            char c = *p++;
            o = json_escape_at(c, &p, e, o);
        } else if (*p == '"' || *p == '\\') {
            *o++ = *p++;
        } else if (*p == 'x' && hex2_at(p + 1, e)) {
            *o++ = hex2(p + 1);
            p += 3;
        } else if (esc == LOG_ESC_BACKSLASH && control_of(*p) != 0) {
            *o++ = control_of(*p++);
        } else {
            *o++ = '\\'; /* not an escape of the convention: a byte */
        }
    }
    return (size_t)(o - out);
}
