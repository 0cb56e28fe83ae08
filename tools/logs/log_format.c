/* log_format.c - parsing access log lines (combined, common, W3C, fields)
 * and detecting the format of an input. */
#include <stddef.h>
#include <string.h>

#include "log_format.h"
#include "log_scan.h"

/* A quoted field starting after the opening quote at p: ends at the first
 * '"' not escaped by a backslash. Returns the closing quote or NULL. */
static const char *find_close_quote(const char *p, const char *e)
{
    for (;;) {
        const char *q = log_find_byte(p, e, '"');
        if (q == NULL)
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

int parse_access(const char *s, size_t n, struct access *a, int exact_agent)
{
    const char *p = s, *e = s + n, *q;
    q = token_end(p, e);
    if (q == p || q == e)
        return 0;
    a->remote = span_of(p, q);
    p = q + 1;
    for (int i = 0; i < 2; i++) { /* ident, user */
        q = token_end(p, e);
        if (q == p || q == e)
            return 0;
        p = q + 1;
    }
    if (p == e || *p != '[' || (q = log_find_byte(p, e, ']')) == NULL)
        return 0;
    a->time = span_of(p + 1, q);
    p = q + 1;
    if (e - p < 2 || p[0] != ' ' || p[1] != '"')
        return 0;
    p += 2;
    if ((q = find_close_quote(p, e)) == NULL)
        return 0;
    a->request = span_of(p, q);
    p = q + 1;
    if (p == e || *p != ' ')
        return 0;
    p++;
    q = token_end(p, e);
    if (q == p)
        return 0;
    a->status = span_of(p, q);
    for (const char *c = p; c < q; c++)
        if ((*c < '0' || *c > '9') && *c != '-')
            return 0;
    if (q == e)
        return 0;
    p = q + 1;
    q = token_end(p, e);
    if (q == p)
        return 0;
    a->bytes = span_of(p, q);
    for (const char *c = p; c < q; c++)
        if ((*c < '0' || *c > '9') && *c != '-')
            return 0;
    a->has_ra = 0;
    p = q;
    if (e - p >= 2 && p[0] == ' ' && p[1] == '"') {
        const char *r = p + 2;
        const char *rq = find_close_quote(r, e);
        if (rq != NULL && e - rq >= 3 && rq[1] == ' ' && rq[2] == '"') {
            /* Line output only needs to know the agent is there: it usually
             * ends the line. JSON finds its exact end. */
            const char *aq = !exact_agent && e[-1] == '"' && e - 1 >= rq + 3 && e[-2] != '\\'
                                 ? e - 1
                                 : find_close_quote(rq + 3, e);
            if (aq != NULL) {
                a->referer = span_of(r, rq);
                a->agent = span_of(rq + 3, aq);
                a->has_ra = 1;
            }
        }
    }
    return 1;
}

int split_request(struct span r, struct span *method, struct span *target)
{
    const char *e = r.p + r.n;
    const char *sp = log_find_byte(r.p, e, ' ');
    if (sp == NULL || sp == r.p)
        return 0;
    for (const char *c = r.p; c < sp; c++) {
        unsigned char ch = (unsigned char)*c;
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '-' || ch == '_'))
            return 0;
    }
    *method = span_of(r.p, sp);
    const char *t = sp + 1;
    const char *last = e;
    if (e - t > 9 && e[-9] == ' ' && e[-3] != ' ' && e[-2] != ' ' && e[-1] != ' ')
        last = e - 8; /* "HTTP/1.1" and the like: no search */
    else
        while (last > t && last[-1] != ' ')
            last--;
    if (last > t && e - last >= 5 && memcmp(last, "HTTP/", 5) == 0)
        *target = span_of(t, last - 1);
    else
        *target = span_of(t, e);
    return 1;
}

int split_fields(const char *s, size_t n, struct span *fields, int max)
{
    const char *p = s, *e = s + n;
    int count = 0;
    while (p < e) {
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p == e)
            break;
        const char *q = p;
        while (q < e && *q != ' ' && *q != '\t')
            q++;
        if (count == max)
            return max + 1;
        fields[count++] = span_of(p, q);
        p = q;
    }
    return count;
}

void parse_w3c_header(const char *s, size_t n, struct w3c_layout *l)
{
    struct span f[LOG_MAX_FIELDS + 1];
    int count = split_fields(s + 8, n - 8, f, LOG_MAX_FIELDS);
    memset(l, 0xff, sizeof *l);
    l->count = count > LOG_MAX_FIELDS ? 0 : count;
    l->cloudfront = 0;
    for (int i = 0; i < l->count; i++) {
        size_t len = f[i].n < sizeof l->names[i] ? f[i].n : sizeof l->names[i] - 1;
        memcpy(l->names[i], f[i].p, len);
        l->names[i][len] = '\0';
        if (span_is(f[i], "x-edge-location"))
            l->cloudfront = 1;
        if (span_is(f[i], "date"))
            l->date = i;
        else if (span_is(f[i], "time"))
            l->time = i;
        else if (span_is(f[i], "c-ip"))
            l->c_ip = i;
        else if (span_is(f[i], "cs-method"))
            l->method = i;
        else if (span_is(f[i], "cs-uri-stem"))
            l->stem = i;
        else if (span_is(f[i], "cs-uri-query"))
            l->query = i;
        else if (span_is(f[i], "sc-status"))
            l->status = i;
        else if (span_is(f[i], "sc-bytes"))
            l->bytes = i;
        else if (span_is(f[i], "cs(Referer)"))
            l->referer = i;
        else if (span_is(f[i], "cs(User-Agent)"))
            l->agent = i;
    }
}

/* W3C: the layout at the start of each chunk is that of the last #Fields:
 * line before it, so chunks can be decoded in any order. */
static void track_w3c_headers(struct input_format *is, const char *p, size_t n)
{
    const char *e = p + n, *hash = p;
    while ((hash = memchr(hash, '#', (size_t)(e - hash))) != NULL) {
        if (hash == p || hash[-1] == '\n') {
            const char *nl = memchr(hash, '\n', (size_t)(e - hash));
            const char *end = nl != NULL ? nl : e;
            if (end > hash && end[-1] == '\r')
                end--;
            if (is_fields_line(hash, (size_t)(end - hash)))
                parse_w3c_header(hash, (size_t)(end - hash), &is->layout);
        }
        hash++;
    }
}

void input_format_chunk(struct input_format *is, const char *p, size_t n, enum format *fmt,
                        struct w3c_layout *layout)
{
    if (!is->detected) {
        is->detected = 1;
        if (is->fmt == FMT_AUTO)
            is->fmt = n > 0 && p[0] == '#' ? FMT_W3C : FMT_AUTO;
    }
    *fmt = is->fmt;
    *layout = is->layout;
    if (is->fmt == FMT_W3C)
        track_w3c_headers(is, p, n);
}
