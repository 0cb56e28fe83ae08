/* log_unescape.h - a log format's own escaping convention (enum
 * log_escaping, one per row of log_format_registry.c, or the --log-format
 * string's) undone, once, before any percent-decoding: the text a server
 * logged back to the bytes it received. Every writer and the records read a
 * field's text through field_text (log_field_text.h), which calls this.
 *
 * The conventions, and why each is what it is:
 *   LOG_ESC_BACKSLASH  Apache httpd, lighttpd, varnishncsa: \" \\ \xhh and
 *                      \t \n \r \b \v \f (ap_escape_logitem). nginx's
 *                      default output is a subset (it writes '\\' as
 *                      \x5C), so combined lines of either server read so.
 *   LOG_ESC_NGINX      nginx escape=default: \xHH (and \" \\ of old
 *                      versions); any other backslash is a byte.
 *   LOG_ESC_HAPROXY    HAProxy: '"', '#', controls and bytes >= 0x7f as
 *                      #XX in the request line and captured headers
 *                      (cookies too); a backslash is a byte.
 *   LOG_ESC_JSON       JSON strings (JSON lines, nginx escape=json), and
 *                      \xHH: an nginx format shaped as a JSON object is read
 *                      so without its escape= (see fmt_custom.c).
 *   LOG_ESC_W3C        IIS: a space in a text field (the user agent,
 *                      cookie...) is written '+'; URLs are as received.
 *   LOG_ESC_NONE       Squid, nginx escape=none: nothing to undo.
 *   LOG_ESC_PERCENT    CloudFront: a percent layer (the field's layers). */
#ifndef PCT_TOOLS_LOG_UNESCAPE_H
#define PCT_TOOLS_LOG_UNESCAPE_H

#include <stddef.h>

#include "log_format_registry.h"
#include "log_record.h"

/* The convention that applies to field f of a record in convention esc:
 * esc itself, or LOG_ESC_NONE for a field the server does not escape (a
 * JSON line's numbers, W3C's URLs). */
enum log_escaping log_escaping_of_field(enum log_escaping esc, const struct log_field *f);

/* Sets the convention of fields from, from + 1... of r
 * (log_escaping_of_field): a store per field (every record of every format
 * pays it). */
void log_record_set_escaping_w3c(struct log_record *r);
static inline void log_record_set_escaping(struct log_record *r, enum log_escaping esc, int from)
{
    if (esc == LOG_ESC_W3C) { /* by the field's kind too */
        log_record_set_escaping_w3c(r);
        return;
    }
    /* by the field's quote: FQ_BARE, FQ_QUOTED, FQ_TAB, FQ_JSON */
    const int backslash =
        esc == LOG_ESC_BACKSLASH || esc == LOG_ESC_NGINX || esc == LOG_ESC_HAPROXY;
    const unsigned char none = LOG_ESC_NONE, e = (unsigned char)esc;
    const unsigned char by_quote[4] = {backslash ? e : none,
                                       backslash || esc == LOG_ESC_JSON ? e : none, none,
                                       esc == LOG_ESC_JSON ? e : none};
    for (int i = from; i < r->n; i++)
        r->f[i].esc = by_quote[r->f[i].quote & 3];
}

/* 1 if p[0..n) may hold an escape of convention esc (the byte that starts
 * one: '\\', '#', '+'). */
int log_unescape_wanted(enum log_escaping esc, const char *p, size_t n);

/* p[0..n) with the escapes of convention esc undone, at out (room: 2 * n +
 * 4 bytes); returns the length written. What is not an escape of the
 * convention is a byte of the text (a lone '\\', "#zz"). */
size_t log_unescape(enum log_escaping esc, const char *p, size_t n, char *out);

/* Line output keeps the escapes of the backslash conventions as written
 * (they are its own): the length of such an escape at p (*p == '\\'), 0 if
 * p does not start one of convention esc. */
size_t log_escape_kept(enum log_escaping esc, const char *p, const char *e);

/* 1 if line output copies convention esc's escapes as written
 * (log_escape_kept); else a field's text is unescaped before decoding. */
static inline int log_escaping_kept_in_line(enum log_escaping esc)
{
    return esc == LOG_ESC_BACKSLASH || esc == LOG_ESC_NGINX;
}

#endif
