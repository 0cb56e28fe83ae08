/* fmt_access.c - the combined and common formats' fast path: their lines
 * parsed without a template (the templates of log_format_registry.c give
 * the same fields, for the lines this does not take). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fmt_access.h"
#include "log_format_registry.h"
#include "log_scan.h"

/* What follows a quoted field's closing quote (find_close_quote). */
enum quote_follow {
    FOLLOW_SPACE,       /* " ": the request */
    FOLLOW_SPACE_QUOTE, /* " \"": the referer */
    FOLLOW_END          /* the end of the line, a space or a tab: the last field */
};

/* A quoted field starting after the opening quote at p ends at the first
 * '"' not escaped by a backslash that is followed by what the format has
 * next (`follow`). A '"' followed by anything else is data (a server that
 * does not escape it), as the templates read it (fmt_template.c
 * field_end): one rule for quoted fields, so --format combined and its
 * template give a line the same ones. Returns the closing quote or NULL;
 * *inner is set when a '"' was data. */
static const char *find_close_quote(const char *p, const char *e, struct quote_marks *quotes,
                                    enum quote_follow follow, int *inner)
{
    for (;;) {
        const char *q = quotes != NULL ? log_marks_near(quotes->marks, p, quotes->chunk_end)
                                       : log_find_byte(p, e, '"');
        if (q == NULL || q >= e)
            return NULL;
        size_t backslashes = 0;
        while (q - backslashes > p && q[-1 - (ptrdiff_t)backslashes] == '\\')
            backslashes++;
        if (backslashes % 2 == 0) {
            const size_t left = (size_t)(e - q) - 1; /* bytes after the quote */
            if (follow == FOLLOW_END ? left == 0 || q[1] == ' ' || q[1] == '\t'
                                     : left >= 1 && q[1] == ' ' &&
                                           (follow == FOLLOW_SPACE || (left >= 2 && q[2] == '"')))
                return q;
            *inner = 1;
        }
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

/* A status or a size: "-", or digits after an optional '-' (the templates'
 * numbers, but for a '.': a line with one is theirs). */
static int is_number_field(struct span f)
{
    size_t i = f.n > 0 && f.p[0] == '-';
    if (i == f.n)
        return f.n == 1;
    for (; i < f.n; i++)
        if (f.p[i] < '0' || f.p[i] > '9')
            return 0;
    return 1;
}

/* "status bytes" from p (after the request's ' '): the fields in a, and the
 * end of bytes, or NULL if they are not there. */
static const char *parse_numbers(const char *p, const char *e, struct access *a)
{
#ifdef LOG_SCAN_SSE2
    if (e - p >= 16) { /* both fields in 16 bytes: from two masks */
        unsigned spaces, dashes, other;
        log_number_masks16(p, &spaces, &dashes, &other);
        const unsigned s2 = spaces & (spaces - 1);
        if (s2 != 0) {
            const unsigned k1 = (unsigned)__builtin_ctz(spaces), k2 = (unsigned)__builtin_ctz(s2);
            const unsigned status = (1u << k1) - 1, bytes = ((1u << k2) - 1) & ~(2u << k1 | status);
            if (k1 == 0 || k2 == k1 + 1 || (other & ((1u << k2) - 1) & ~(1u << k1)) != 0 ||
                (dashes & status & ~1u) != 0 || (dashes & bytes & ~(2u << k1)) != 0)
                return NULL; /* a '-' only first (is_number_field) */
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
    a->inner_quote = 0;
    if ((q = find_close_quote(p, e, quotes, FOLLOW_SPACE, &a->inner_quote)) == NULL)
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
        const char *rq = find_close_quote(r, e, quotes, FOLLOW_SPACE_QUOTE, &a->inner_quote);
        if (rq != NULL) {
            /* Line output only needs to know the agent is there: it usually
             * ends the line. JSON finds its exact end. */
            const char *aq = !exact_agent && e[-1] == '"' && e - 1 >= rq + 3 && e[-2] != '\\'
                                 ? e - 1
                                 : find_close_quote(rq + 3, e, quotes, FOLLOW_END, &a->inner_quote);
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
 * VERSION-CONTROL), lower case too as other servers take it; the first is a
 * letter. A request field that starts otherwise is not a request line: TLS
 * bytes (escaped, so '\\'), HAProxy's <BADREQ>, a "-" (Varnish's "- URL"
 * for no method). */
enum {
    B_LETTER = 1,      /* a method's first byte */
    B_METHOD = 2,      /* a method's byte */
    B_BLANK_START = 4, /* a byte a blank may start with (blank_at) */
    B_BLANK_END = 8    /* a byte a blank may end with (blank_before) */
};
#define LETTERS_(c)                                                                                \
    [c] = B_LETTER | B_METHOD, [c + 32] = B_LETTER | B_METHOD | (c + 32 == 't' ? B_BLANK_END : 0)
#define LETTERS4_(c) LETTERS_(c), LETTERS_(c + 1), LETTERS_(c + 2), LETTERS_(c + 3)
/* One load per byte of a request line's hot loops. */
static const unsigned char byte_class[256] = {
    LETTERS4_('A'),
    LETTERS4_('E'),
    LETTERS4_('I'),
    LETTERS4_('M'),
    LETTERS4_('Q'),
    LETTERS4_('U'),
    LETTERS_('Y'),
    LETTERS_('Z'),
    ['-'] = B_METHOD,
    ['_'] = B_METHOD,
    [' '] = B_BLANK_START | B_BLANK_END,
    ['\t'] = B_BLANK_START | B_BLANK_END,
    ['\\'] = B_BLANK_START,
    ['#'] = B_BLANK_START,
    ['9'] = B_BLANK_END, /* and 't' */
};
#undef LETTERS4_
#undef LETTERS_

static inline int is_method_byte(unsigned char c)
{
    return byte_class[c] & B_METHOD;
}

/* 1 if the n bytes before p (not before s) are an escape: an odd run of
 * backslashes ends at p - n + 1 ("\\t" is a backslash and a 't'). */
static inline int escaped_at(const char *s, const char *p, size_t n, char lead)
{
    const char *b = p - n;
    if (p - s < (ptrdiff_t)n || *b != lead)
        return 0;
    size_t run = 1;
    while (b - run >= s && b[-(ptrdiff_t)run] == '\\')
        run++;
    return lead != '\\' || run % 2 == 1;
}

/* The length of a blank (a space or a tab: RFC 9112 lets a recipient split
 * a request line on either) that ends at p, as a log of convention esc
 * writes it: a raw one, or a tab escaped (\t, \x09, #09, \u0009); 0: none.
 * s: where the text starts. */
static inline size_t blank_before(int esc, const char *s, const char *p)
{
    const char c = p[-1];
    if (c == ' ' || c == '\t')
        return 1;
    if (c == 't' && (esc == LOG_ESC_BACKSLASH || esc == LOG_ESC_JSON) && escaped_at(s, p, 2, '\\'))
        return 2;
    if (c != '9' || p - s < 3 || p[-2] != '0')
        return 0;
    if (esc == LOG_ESC_HAPROXY)
        return p[-3] == '#' ? 3 : 0;
    if ((esc == LOG_ESC_BACKSLASH || esc == LOG_ESC_NGINX) && p[-3] == 'x' &&
        escaped_at(s, p, 4, '\\'))
        return 4;
    if (esc == LOG_ESC_JSON && p - s >= 6 && memcmp(p - 5, "u000", 3) == 0 &&
        escaped_at(s, p, 6, '\\'))
        return 6;
    return 0;
}

/* The same for a blank that starts at p, where an escape may start (after
 * a method, or a blank). */
static inline size_t blank_at(int esc, const char *p, const char *e)
{
    if (*p == ' ' || *p == '\t')
        return 1;
    const size_t left = (size_t)(e - p);
    if (*p == '#')
        return esc == LOG_ESC_HAPROXY && left >= 3 && p[1] == '0' && p[2] == '9' ? 3 : 0;
    if (*p != '\\' || left < 2)
        return 0;
    if (p[1] == 't' && (esc == LOG_ESC_BACKSLASH || esc == LOG_ESC_JSON))
        return 2;
    if (left >= 4 && memcmp(p + 1, "x09", 3) == 0 &&
        (esc == LOG_ESC_BACKSLASH || esc == LOG_ESC_NGINX))
        return 4;
    if (left >= 6 && memcmp(p + 1, "u0009", 5) == 0 && esc == LOG_ESC_JSON)
        return 6;
    return 0;
}

/* "HTTP/" in any case (varnish serves "http/1.1") at p, before e. */
static inline int is_protocol(const char *p, const char *e)
{
    uint32_t word, http;
    if (e - p < 5)
        return 0;
    memcpy(&word, p, 4);
    memcpy(&http, "http", 4); /* in memory order: either byte order */
    return (word | 0x20202020u) == http && p[4] == '/';
}

/* The bytes a blank may end with, or start with (blank_before, blank_at):
 * most bytes are neither, and are told so without a call. */
static inline int may_end_blank(char c)
{
    return byte_class[(unsigned char)c] & B_BLANK_END;
}

static inline int may_start_blank(char c)
{
    return byte_class[(unsigned char)c] & B_BLANK_START;
}

int request_target_form_rest(struct span t, int esc)
{
    const char *p = t.p, *e = t.p + t.n;
    if (p == e)
        return 0;
    if (*p == '*' && t.n == 1)
        return 1; /* asterisk-form (OPTIONS *) */
    if (esc == LOG_ESC_JSON && t.n >= 2 && p[0] == '\\' && p[1] == '/')
        return 1; /* "\/": a JSON encoder's '/' */
    /* absolute-form: scheme "://" (a proxy's target) */
    if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z') {
        const char *c = p + 1;
        while (c < e && (((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z') || (*c >= '0' && *c <= '9') ||
                         *c == '+' || *c == '-' || *c == '.'))
            c++;
        if (e - c >= 3 && c[0] == ':' && c[1] == '/' && c[2] == '/')
            return 1;
    }
    /* authority-form (CONNECT host:port): a host, ':', digits to the end */
    const char *colon = NULL;
    for (const char *c = p; c < e; c++) {
        if (*c == ':')
            colon = c;
        else if (!(((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z') || (*c >= '0' && *c <= '9') ||
                   *c == '.' || *c == '-' || *c == '[' || *c == ']'))
            return 0;
    }
    if (colon == NULL || colon == p || colon + 1 == e)
        return 0;
    for (const char *c = colon + 1; c < e; c++)
        if (*c < '0' || *c > '9')
            return 0;
    return 1;
}

int request_split_esc(struct span r, int esc, struct request_parts *q)
{
    const char *p = r.p, *e = r.p + r.n, *c = p;
    if (c == e || !(byte_class[(unsigned char)*c] & B_LETTER))
        return 0;
    while (c < e && is_method_byte((unsigned char)*c))
        c++;
    q->method = span_of(p, c);
    /* Nearly every request line: "METHOD /target HTTP/x.y", single spaces,
     * no blank at the target's end (its last byte cannot end one). */
    if (e - c > 10 && c[0] == ' ' && c[1] == '/' && e[-9] == ' ' && is_protocol(e - 8, e) &&
        e[-3] >= '.' && e[-3] <= '9' && e[-2] >= '.' && e[-2] <= '9' && !may_end_blank(e[-1]) &&
        !may_end_blank(e[-10])) {
        q->target = span_of(c + 1, e - 9);
        q->protocol = span_of(e - 8, e);
        return 1;
    }
    size_t b = 0;
    if (c == e || (b = blank_at(esc, c, e)) == 0)
        return 0;
    const char *t = c + b;
    while (t < e && may_start_blank(*t) && (b = blank_at(esc, t, e)) > 0)
        t += b; /* a run (nginx takes "GET  /x") */
    while (e > t && may_end_blank(e[-1]) && (b = blank_before(esc, t, e)) > 0)
        e -= b; /* and after the protocol */
    if (t == e)
        return 0; /* a method alone */
    const char *last = e, *end;
    if (e - t > 9 && e[-9] == ' ' && is_protocol(e - 8, e) && e[-3] >= '.' && e[-3] <= '9' &&
        e[-2] >= '.' && e[-2] <= '9') {
        last = e - 8; /* "HTTP/1.1" and the like: no search */
        end = e - 9;
    } else {
        b = 0;
        while (last > t && (!may_end_blank(last[-1]) || (b = blank_before(esc, t, last)) == 0))
            last--;
        end = last - b;
        if (last == t || !is_protocol(last, e))
            last = end = e; /* HTTP/0.9: no protocol */
    }
    while (end > t && may_end_blank(end[-1]) && (b = blank_before(esc, t, end)) > 0)
        end -= b;
    q->target = span_of(t, end);
    q->protocol = span_of(last, e);
    /* A target in none of HTTP's forms ("hello world, this", Squid's
     * "error:..."): not a request line. */
    return request_target_form(q->target, esc);
}
