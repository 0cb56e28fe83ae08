/* fmt_access.h - the combined and common formats' fast path: Apache/nginx
 * access log lines parsed without a template, and the request line
 * ("METHOD target HTTP/x") and query parameters every format shares. */
#ifndef PCT_TOOLS_FMT_ACCESS_H
#define PCT_TOOLS_FMT_ACCESS_H

#include <stddef.h>

#include "log_format_registry.h"
#include "log_marks.h"
#include "log_util.h"

/* The fields of a combined or common line. */
struct access {
    struct span remote, time, request, status, bytes, referer, agent;
    int has_ra;      /* referer and agent present (combined) */
    int inner_quote; /* a quoted field holds a raw '"' (no server's escaping writes one) */
};

/* Parses a combined or common line; 0 if it is neither. exact_agent: find
 * the agent's exact end (JSON) rather than trusting a final '"'. quotes: the
 * chunk's quote marks, or NULL. */
int parse_access(const char *s, size_t n, struct access *a, int exact_agent,
                 struct quote_marks *quotes);

/* 1 if line s (n bytes) ends with " WORD:WORD", its words of upper-case
 * letters, digits and '_': Squid's %Ss:%Sh (TCP_MISS:HIER_DIRECT,
 * NONE_NONE:HIER_NONE), which its `combined` logformat writes last. */
static inline int line_ends_squid_tags(const char *s, size_t n)
{
    const char *e = s + n, *p = e;
    int colon = 0;
    for (; p > s; p--) {
        const char c = p[-1];
        if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
            continue;
        if (c != ':' || colon || p == e)
            break;
        colon = 1;
        if (p - 1 == s || p[-2] == ' ')
            return 0; /* ":WORD": no first word */
    }
    return colon && p < e && p > s && p[-1] == ' ' && *p != ':';
}

/* The parts of a request line, as spans of its text (escapes as written);
 * protocol is empty when there is none (HTTP/0.9's "GET /"). */
struct request_parts {
    struct span method, target, protocol;
};

/* Splits a request line as servers accept it: a method (a letter, then
 * letters, '-', '_'), a run of blanks, the target (which may hold spaces,
 * as nginx takes them), and optionally a run of blanks and a protocol
 * "HTTP/..." in any case; blanks after it are not part of it. A blank is a
 * space or a tab (RFC 9112 lets a recipient split on either), raw or as a
 * log of convention esc (enum log_escaping) escapes a tab: \t, \x09, #09,
 * \u0009. The target is in one of HTTP's forms (request_target_form). 0 if
 * the text is not a request line (HAProxy's <BADREQ>, TLS bytes, "-", a
 * method alone): it is then kept as text, with no path. */
int request_split_esc(struct span r, int esc, struct request_parts *q);

/* 1 if t is a request target in one of HTTP's forms (RFC 9112 3.2):
 * origin ("/..."), absolute ("scheme://..."), authority ("host:port", for
 * CONNECT) or asterisk ("*"). The first, nearly every target, inline. */
int request_target_form_rest(struct span t, int esc);
static inline int request_target_form(struct span t, int esc)
{
    return (t.n > 0 && t.p[0] == '/') || request_target_form_rest(t, esc);
}

/* request_split_esc of a combined or common line's request (Apache's and
 * nginx's escapes). */
static inline int request_split(struct span r, struct request_parts *q)
{
    return request_split_esc(r, LOG_ESC_BACKSLASH, q);
}

/* request_split's method and target. */
static inline int split_request(struct span r, struct span *method, struct span *target)
{
    struct request_parts q;
    if (!request_split(r, &q))
        return 0;
    *method = q.method;
    *target = q.target;
    return 1;
}

/* The next parameter of a query from *p on, as WHATWG urlencoded parsing
 * cuts it: at '&', then at the first '='; empty ones are skipped. Returns 0
 * at the end. */
static inline int query_next_param(const char **p, const char *e, struct span *name,
                                   struct span *value)
{
    while (*p < e) {
        const char *start = *p, *amp = memchr(start, '&', (size_t)(e - start));
        const char *end = amp != NULL ? amp : e;
        *p = amp != NULL ? amp + 1 : e;
        if (end > start) {
            const char *eq = memchr(start, '=', (size_t)(end - start));
            *name = span_of(start, eq != NULL ? eq : end);
            *value = span_of(eq != NULL ? eq + 1 : end, end);
            return 1;
        }
    }
    return 0;
}

#endif
