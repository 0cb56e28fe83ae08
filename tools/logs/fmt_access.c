/* fmt_access.c - the combined and common formats' fast path: their lines
 * parsed without a template (the templates of log_format_registry.c give
 * the same fields, for the lines this does not take). */
#include <stddef.h>
#include <string.h>

#include "fmt_access.h"
#include "log_scan.h"

/* A quoted field starting after the opening quote at p: ends at the first
 * '"' not escaped by a backslash. Returns the closing quote or NULL. */
static const char *find_close_quote(const char *p, const char *e, struct quote_marks *quotes)
{
    for (;;) {
        const char *q = quotes != NULL ? log_marks_near(quotes->marks, p, quotes->chunk_end)
                                       : log_find_byte(p, e, '"');
        if (q == NULL || q >= e)
            return NULL;
        size_t backslashes = 0;
        while (q - backslashes > p && q[-1 - (ptrdiff_t)backslashes] == '\\')
            backslashes++;
        if (backslashes % 2 == 0)
            return q;
        p = q + 1;
    }
}

/* The end of a field ended by a space (or the line). */
static const char *token_end(const char *p, const char *e)
{
    const char *q = log_find_byte(p, e, ' ');
    return q != NULL ? q : e;
}

/* HEAD_UNKNOWN: parse_head_fast cannot tell; parse_head will. */
static const char head_unknown;
#define HEAD_UNKNOWN (&head_unknown)

/* "remote ident user [time]": the fields in a, and the byte after ']', or
 * NULL if the line does not start so. */
static const char *parse_head(const char *s, const char *e, struct access *a)
{
    const char *p = s, *q = token_end(p, e);
    if (q == p || q == e)
        return NULL;
    a->remote = span_of(p, q);
    p = q + 1;
    for (int i = 0; i < 2; i++) { /* ident, user */
        q = token_end(p, e);
        if (q == p || q == e)
            return NULL;
        p = q + 1;
    }
    if (p == e || *p != '[' || (q = log_find_byte(p, e, ']')) == NULL)
        return NULL;
    a->time = span_of(p + 1, q);
    return q + 1;
}

/* parse_head for a line of 64 bytes or more whose first three spaces are
 * in its first 64 bytes (nearly every line): they, and the ']', are read
 * from one mask each instead of a search per field. HEAD_UNKNOWN if a
 * space is further on. */
static const char *parse_head_fast(const char *s, const char *e, struct access *a)
{
#ifdef LOG_SCAN_SSE2
    if (e - s < 64)
        return HEAD_UNKNOWN;
    uint64_t spaces, brackets;
    log_byte_masks64(s, ' ', ']', &spaces, &brackets);
    const uint64_t s1 = spaces, s2 = s1 & (s1 - 1), s3 = s2 & (s2 - 1);
    if (s3 == 0)
        return HEAD_UNKNOWN;
    const unsigned k1 = (unsigned)__builtin_ctzll(s1), k2 = (unsigned)__builtin_ctzll(s2),
                   k3 = (unsigned)__builtin_ctzll(s3);
    const char *open = s + k3 + 1;
    if (k1 == 0 || k2 == k1 + 1 || k3 == k2 + 1 || open == e || *open != '[')
        return NULL; /* an empty field, or no '[' */
    a->remote = span_of(s, s + k1);
    /* the first ']' after the '[' (k3 + 2 <= 64) */
    const uint64_t after = k3 + 2 < 64 ? brackets >> (k3 + 2) << (k3 + 2) : 0;
    const char *q = after != 0 ? s + __builtin_ctzll(after) : log_find_byte(s + 64, e, ']');
    if (q == NULL)
        return NULL;
    a->time = span_of(open + 1, q);
    return q + 1;
#else
    (void)s;
    (void)e;
    (void)a;
    return HEAD_UNKNOWN;
#endif
}

/* All digits or '-'. */
static int is_number_field(struct span f)
{
    for (size_t i = 0; i < f.n; i++)
        if ((f.p[i] < '0' || f.p[i] > '9') && f.p[i] != '-')
            return 0;
    return 1;
}

/* "status bytes" from p (after the request's ' '): the fields in a, and the
 * end of bytes, or NULL if they are not there. */
static const char *parse_numbers(const char *p, const char *e, struct access *a)
{
#ifdef LOG_SCAN_SSE2
    if (e - p >= 16) { /* both fields in 16 bytes: from two masks */
        unsigned spaces, other;
        log_number_masks16(p, &spaces, &other);
        const unsigned s2 = spaces & (spaces - 1);
        if (s2 != 0) {
            const unsigned k1 = (unsigned)__builtin_ctz(spaces), k2 = (unsigned)__builtin_ctz(s2);
            if (k1 == 0 || k2 == k1 + 1 || (other & ((1u << k2) - 1) & ~(1u << k1)) != 0)
                return NULL;
            a->status = span_of(p, p + k1);
            a->bytes = span_of(p + k1 + 1, p + k2);
            return p + k2;
        }
    }
#endif
    const char *q = token_end(p, e);
    if (q == p)
        return NULL;
    a->status = span_of(p, q);
    if (!is_number_field(a->status) || q == e)
        return NULL;
    p = q + 1;
    q = token_end(p, e);
    if (q == p)
        return NULL;
    a->bytes = span_of(p, q);
    return is_number_field(a->bytes) ? q : NULL;
}

int parse_access(const char *s, size_t n, struct access *a, int exact_agent,
                 struct quote_marks *quotes)
{
    const char *e = s + n, *q;
    const char *p = parse_head_fast(s, e, a);
    if (p == HEAD_UNKNOWN)
        p = parse_head(s, e, a);
    if (p == NULL || e - p < 2 || p[0] != ' ' || p[1] != '"')
        return 0;
    p += 2;
    if ((q = find_close_quote(p, e, quotes)) == NULL)
        return 0;
    a->request = span_of(p, q);
    p = q + 1;
    if (p == e || *p != ' ')
        return 0;
    if ((p = parse_numbers(p + 1, e, a)) == NULL)
        return 0;
    a->has_ra = 0;
    if (e - p >= 2 && p[0] == ' ' && p[1] == '"') {
        const char *r = p + 2;
        const char *rq = find_close_quote(r, e, quotes);
        if (rq != NULL && e - rq >= 3 && rq[1] == ' ' && rq[2] == '"') {
            /* Line output only needs to know the agent is there: it usually
             * ends the line. JSON finds its exact end. */
            const char *aq = !exact_agent && e[-1] == '"' && e - 1 >= rq + 3 && e[-2] != '\\'
                                 ? e - 1
                                 : find_close_quote(rq + 3, e, quotes);
            if (aq != NULL) {
                a->referer = span_of(r, rq);
                a->agent = span_of(rq + 3, aq);
                a->has_ra = 1;
            }
        }
    }
    return 1;
}

/* A byte of a method: nginx's rule (letters, '-', '_'; M-SEARCH,
 * VERSION-CONTROL), lower case too as other servers take it. A request
 * field that starts otherwise is not a request line: TLS bytes (escaped,
 * so '\\'), HAProxy's <BADREQ>, a "-". */
static inline int is_method_byte(unsigned char c)
{
    return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '-' || c == '_';
}

static inline int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* "HTTP/" in any case (varnish serves "http/1.1") at p, before e. */
static inline int is_protocol(const char *p, const char *e)
{
    return e - p >= 5 && (p[0] | 0x20) == 'h' && (p[1] | 0x20) == 't' && (p[2] | 0x20) == 't' &&
           (p[3] | 0x20) == 'p' && p[4] == '/';
}

int request_split(struct span r, struct request_parts *q)
{
    const char *p = r.p, *e = r.p + r.n, *c = p;
    while (c < e && is_method_byte((unsigned char)*c))
        c++;
    if (c == p || c == e || !is_blank(*c))
        return 0;
    q->method = span_of(p, c);
    const char *t = c + 1;
    while (t < e && is_blank(*t)) /* a run of them (nginx takes "GET  /x") */
        t++;
    while (e > t && is_blank(e[-1])) /* and after the protocol */
        e--;
    if (t == e)
        return 0; /* a method alone */
    const char *last = e;
    if (e - t > 9 && e[-9] == ' ' && !is_blank(e[-3]) && !is_blank(e[-2]))
        last = e - 8; /* "HTTP/1.1" and the like: no search */
    else
        while (last > t && !is_blank(last[-1]))
            last--;
    if (last > t && is_protocol(last, e)) {
        const char *end = last - 1;
        while (end > t && is_blank(end[-1]))
            end--;
        q->target = span_of(t, end);
        q->protocol = span_of(last, e);
    } else {
        q->target = span_of(t, e); /* HTTP/0.9: no protocol */
        q->protocol = span_of(e, e);
    }
    return 1;
}
