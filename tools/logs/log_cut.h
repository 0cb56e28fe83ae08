/* log_cut.h - records a server cut: how they are told from lines that do
 * not parse, and from whole records. A cut record is decoded as far as it
 * goes and flagged (struct log_record's truncated: "truncated": true in
 * --json and the records, the column `truncated` of --fields, a --stats
 * count); a line that is not one stays unparsed.
 *
 * The cuts known:
 *  - the line ends inside a quoted field (no closing quote): a line cut at a
 *    length limit (haproxy's 1,024 bytes, syslog's message size);
 *  - nginx and Apache log a request line too long for them (414) as far as
 *    they read it: status 414 and a request without its protocol;
 *  - varnishncsa: varnishd keeps at most vsl_reclen - 1 bytes (255 - 1 by
 *    default) of the URL, so an absolute target ("http://host" + URL, as
 *    varnishncsa writes %r) whose URL is 254 bytes long was cut (one that
 *    was exactly that long is flagged too: the log cannot tell them apart),
 *    and with `--log-format 'varnishncsa -F ...'` a %U%q URL of that length
 *    (record_mark_url_cut; a bare format string does not say it is
 *    varnishncsa's, and other servers do not cut URLs);
 *  - squid writes an entry of 8 KiB or more as its first 8,191 bytes and a
 *    NUL, with no newline: the next entry follows on the same line. The NUL
 *    ends that entry's line (process_chunk): one line in, one record out
 *    still holds, with the NUL as the cut entry's line end. */
#ifndef PCT_TOOLS_LOG_CUT_H
#define PCT_TOOLS_LOG_CUT_H

#include <stddef.h>

#include "log_format_registry.h"
#include "log_record.h"
#include "log_util.h"

/* The bytes of a squid entry before the NUL that ends it when cut. */
#define LOG_SQUID_CUT 8191
/* varnishd's vsl_reclen (255) less its NUL: the longest URL varnishncsa has. */
#define LOG_VARNISH_URL_CUT 254

/* request_was_cut for a request that may be one (414, or long enough). */
int request_cut_check(struct span request, int status_414);

/* 1 if a request (the field's text) with that status was cut by the server
 * that logged it (414 without a protocol, varnishncsa's URL cut). Inline: the
 * fast path asks it of every combined line, and most are neither 414 nor
 * long enough for "M http://h" and a URL of LOG_VARNISH_URL_CUT bytes. */
static inline int request_was_cut(struct span request, struct span status)
{
    const int status_414 =
        status.n == 3 && status.p[0] == '4' && status.p[1] == '1' && status.p[2] == '4';
    if (!status_414 && request.n <= LOG_VARNISH_URL_CUT + 9)
        return 0;
    return request_cut_check(request, status_414);
}

/* A cut request line without the start of its protocol ("GET /x HT": "GET
 * /x"), which would be read as part of the target; else request. */
struct span request_cut_protocol_off(struct span request);

/* Sets r->truncated when its request and status say it was cut
 * (request_was_cut); its request then without a cut protocol. */
void record_mark_cut(struct log_record *r);

/* Sets r->truncated when its URL field (K_URL: varnishncsa's %U%q, which
 * has no origin) holds exactly cut bytes once its escapes (esc) are undone:
 * a varnishncsa URL cut at LOG_VARNISH_URL_CUT (or one exactly that long:
 * the log cannot tell them apart). A URL split in %U and %q fields cannot
 * be told cut. */
void record_mark_url_cut(struct log_record *r, size_t cut, enum log_escaping esc);

/* The NUL that ends a squid entry cut at LOG_SQUID_CUT bytes, if the line
 * [s, e) starts with one, else NULL (see squid_entry_cut_parses). */
static inline const char *squid_cut_nul(const char *s, const char *e)
{
    return e - s > LOG_SQUID_CUT && s[LOG_SQUID_CUT] == '\0' ? s + LOG_SQUID_CUT : NULL;
}

#endif
