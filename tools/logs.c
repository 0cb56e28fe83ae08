/* logs.c - `pct logs`: decode the request targets (and optionally referers)
 * of web server access logs, line by line, safely and fast.
 *
 * Pipeline: the input (mmap'd file, or large read(2)s for pipes) is cut at
 * line boundaries into chunks; worker threads decode chunks into per-chunk
 * output buffers; the main thread hands out chunks and writes finished ones
 * in input order. Memory is bounded by the number of chunks in flight.
 *
 * Safety: every byte that decoding produces goes through an escaping pass, so
 * log content cannot forge output: one input line is one output line, and no
 * control character (terminal escapes) reaches the output unescaped.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise (glibc); guarded below */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "logs.h"
#include "pct.h"

#define EXIT_OK 0
#define EXIT_TROUBLE 2

#define DEFAULT_CHUNK ((size_t)2 << 20)
#define MAX_W3C_FIELDS 64

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */
/* ------------------------------------------------------------------------ */

enum format {
    FMT_AUTO,
    FMT_COMBINED,
    FMT_COMMON,
    FMT_W3C,
    FMT_FIELD
};
enum query_mode {
    Q_FORM,
    Q_PLAIN,
    Q_KEEP
};

struct config {
    enum format format;
    size_t field;
    int decode_slash;
    enum query_mode query;
    int referer;
    int json;
    int bytes;
    int percent_u;
    int stats;
    int progress; /* -1: auto */
    long threads; /* 0: all cores */
    size_t chunk;
};

/* Columns of a W3C #Fields: header that matter; -1 when absent. */
struct w3c_layout {
    int count; /* 0: no header seen yet */
    int date, time, c_ip, method, stem, query, status, bytes, referer, agent;
};

struct stats {
    uint64_t lines, bytes, escaped_lines, malformed, invalid_utf8, unparsed;
};

static struct config cfg;
static pct_set keep_path;           /* '/' unless --decode-slash */
static pct_set keep_query;          /* line output: '&' '=' '#' stay encoded */
static pct_set keep_all;            /* JSON: only repair UTF-8 */
static unsigned char esc_line[256]; /* 1: byte is escaped in line output */
static unsigned char esc_json[256];
static unsigned char esc_spaced[256]; /* esc_line plus ' ' */

/* ------------------------------------------------------------------------ */
/* Small utilities                                                          */
/* ------------------------------------------------------------------------ */

static _Noreturn void fatal(const char *what, const char *detail)
{
    if (detail != NULL)
        fprintf(stderr, "pct logs: %s: %s\n", what, detail);
    else
        fprintf(stderr, "pct logs: %s\n", what);
    exit(EXIT_TROUBLE);
}

static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size > 0 ? size : 1);
    if (q == NULL)
        fatal("out of memory", NULL);
    return q;
}

struct buf {
    char *data;
    size_t len, cap;
};

static void buf_reserve(struct buf *b, size_t extra)
{
    if (b->cap - b->len >= extra && b->data != NULL)
        return;
    size_t cap = b->cap > 0 ? b->cap : 65536;
    while (cap - b->len < extra)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t got = write(fd, p, n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            fatal("write error", strerror(errno));
        }
        p += got;
        n -= (size_t)got;
    }
}

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

struct span {
    const char *p;
    size_t n;
};

static struct span span_of(const char *a, const char *b)
{
    struct span s = {a, (size_t)(b - a)};
    return s;
}

static int span_is(struct span s, const char *text)
{
    size_t n = strlen(text);
    return s.n == n && memcmp(s.p, text, n) == 0;
}

/* ------------------------------------------------------------------------ */
/* Per-thread work state and escaping                                       */
/* ------------------------------------------------------------------------ */

struct worker {
    struct buf *out;    /* the chunk's output */
    struct buf scratch; /* decoded bytes before escaping */
    struct stats *st;
    int line_escaped, line_bad_utf8;
    int spaced; /* whitespace-separated format: decoded spaces are escaped */
    int w3c;    /* IIS: %uXXXX decoded */
};

static const char hex_digits[] = "0123456789abcdef";

/* Appends src escaped for line output (json == 0) or inside a JSON string. */
static void put_escaped(struct worker *w, const char *src, size_t n, int json)
{
    const unsigned char *table = json ? esc_json : w->spaced ? esc_spaced : esc_line;
    char *o = w->out->data + w->out->len;
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && !table[(unsigned char)src[j]])
            j++;
        memcpy(o, src + i, j - i);
        o += j - i;
        if (j == n)
            break;
        unsigned char c = (unsigned char)src[j];
        i = j + 1;
        if (c == 0xC2) { /* U+0080-U+009F: C1 controls (8-bit CSI...) */
            if (i < n && (unsigned char)src[i] >= 0x80 && (unsigned char)src[i] <= 0x9F &&
                !cfg.bytes) {
                unsigned char d = (unsigned char)src[i++];
                if (json) {
                    memcpy(o, "\\u00", 4);
                    o[4] = hex_digits[d >> 4];
                    o[5] = hex_digits[d & 15];
                    o += 6;
                } else {
                    memcpy(o, "\\xc2\\x", 6);
                    o[6] = hex_digits[d >> 4];
                    o[7] = hex_digits[d & 15];
                    o += 8;
                }
            } else {
                *o++ = (char)c;
            }
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '"':
        case '\\':
            *o++ = (char)c;
            break;
        case '\n':
            *o++ = 'n';
            break;
        case '\r':
            *o++ = 'r';
            break;
        case '\t':
            *o++ = 't';
            break;
        default:
            if (json) {
                memcpy(o, "u00", 3);
                o[3] = hex_digits[c >> 4];
                o[4] = hex_digits[c & 15];
                o += 5;
            } else {
                *o++ = 'x';
                *o++ = hex_digits[c >> 4];
                *o++ = hex_digits[c & 15];
            }
        }
    }
    w->out->len = (size_t)(o - w->out->data);
}

static void put_raw(struct worker *w, const char *src, size_t n)
{
    memcpy(w->out->data + w->out->len, src, n);
    w->out->len += n;
}

static void put_str(struct worker *w, const char *text)
{
    put_raw(w, text, strlen(text));
}

/* Counts the escapes of src for --stats. */
static void count_escapes(struct worker *w, const char *src, size_t n, unsigned flags)
{
    const char *p = src, *e = src + n;
    while ((p = memchr(p, '%', (size_t)(e - p))) != NULL) {
        size_t left = (size_t)(e - p);
        if (left >= 3 && is_hex((unsigned char)p[1]) && is_hex((unsigned char)p[2])) {
            w->line_escaped = 1;
            p += 3;
        } else if ((flags & PCT_PERCENT_U) && left >= 6 && (p[1] | 0x20) == 'u' &&
                   is_hex((unsigned char)p[2]) && is_hex((unsigned char)p[3]) &&
                   is_hex((unsigned char)p[4]) && is_hex((unsigned char)p[5])) {
            w->line_escaped = 1;
            p += 6;
        } else {
            w->st->malformed++;
            p++;
        }
    }
}

/* Decodes src into the scratch buffer; returns its length. UTF-8 is checked
 * first (the common, valid case needs one pass); ill-formed output is redone
 * with U+FFFD replacement (or raw with --bytes). */
static size_t decode_to_scratch(struct worker *w, const char *src, size_t n, const pct_set *keep,
                                unsigned flags)
{
    if (w->scratch.cap < 3 * n + 16) {
        w->scratch.len = 0;
        buf_reserve(&w->scratch, 3 * n + 16);
    }
    pct_result r = pct_decode_except(src, n, w->scratch.data, keep, flags | PCT_UTF8);
    if (r.status == PCT_INVALID_UTF8) {
        w->line_bad_utf8 = 1;
        r = pct_decode_except(src, n, w->scratch.data, keep,
                              cfg.bytes ? flags : flags | PCT_UTF8_REPLACE);
    }
    if (r.status != PCT_OK) /* cannot happen (lenient decoding); be safe */
        fatal("internal decoding error", pct_status_string(r.status));
    return r.count;
}

/* Decodes src and appends it escaped. In line output, Apache's own escapes
 * (\" \\ \xHH) are literal text of the log: they are copied as written, and
 * only the runs between them are decoded. */
/* What a piece of input holds, one bit per kind of byte (cls_table). */
enum {
    CLS_PERCENT = 1,
    CLS_PLUS = 2,
    CLS_HIGH = 4,
    CLS_BACKSLASH = 8,
    CLS_ESCAPE = 16,
    CLS_SPACE = 32
};
static unsigned char cls_table[256];

static unsigned classify(const char *src, size_t n)
{
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= cls_table[(unsigned char)src[i]];
    return acc;
}

static void put_decoded_runs(struct worker *w, const char *src, size_t n, const pct_set *keep,
                             unsigned flags, int json, unsigned acc)
{
    const char *e = src + n;
    while (src < e) {
        const char *bs =
            json || !(acc & CLS_BACKSLASH) ? NULL : memchr(src, '\\', (size_t)(e - src));
        const char *run_end = bs != NULL ? bs : e;
        if (run_end > src) {
            size_t len = decode_to_scratch(w, src, (size_t)(run_end - src), keep, flags);
            put_escaped(w, w->scratch.data, len, json);
        }
        if (bs == NULL)
            break;
        size_t lit = 1;
        if (bs + 1 < e)
            lit = (bs[1] == 'x' && bs + 3 < e && is_hex((unsigned char)bs[2]) &&
                   is_hex((unsigned char)bs[3]))
                      ? 4
                      : 2;
        /* \" \\ \xHH are copied; after a stray '\', the byte is escaped
         * as needed (it may be a control byte). */
        if (lit == 4 || (lit == 2 && (bs[1] == '"' || bs[1] == '\\'))) {
            put_raw(w, bs, lit);
        } else {
            put_raw(w, bs, 1);
            put_escaped(w, bs + 1, lit - 1, json);
        }
        src = bs + lit;
    }
}

/* Decodes src and appends it escaped. In line output, Apache's own escapes
 * (\" \\ \xHH) are literal text of the log: they are copied as written, and
 * only the runs between them are decoded. Pieces with nothing to decode or
 * escape (most of them) are copied as they are. */
static void put_decoded(struct worker *w, const char *src, size_t n, const pct_set *keep,
                        unsigned flags, int json)
{
    if (cfg.stats && memchr(src, '%', n) != NULL)
        count_escapes(w, src, n, flags);
    /* Most pieces hold nothing to decode or escape: find out with an early
     * exit at the first byte that may need work. */
    unsigned interesting = CLS_PERCENT | CLS_HIGH | CLS_BACKSLASH | CLS_ESCAPE |
                           (flags & PCT_PLUS ? CLS_PLUS : 0) | (w->spaced ? CLS_SPACE : 0);
    size_t i = 0;
    while (i < n && !(cls_table[(unsigned char)src[i]] & interesting))
        i++;
    if (i == n) {
        put_raw(w, src, n);
        return;
    }
    put_raw(w, src, i); /* nothing before byte i changes */
    put_decoded_runs(w, src + i, n - i, keep, flags, json, CLS_BACKSLASH);
}

static unsigned path_flags(const struct worker *w)
{
    return cfg.percent_u || w->w3c ? PCT_PERCENT_U : 0;
}

/* A URL or request target: path per segment (%2F kept unless
 * --decode-slash), query per --query. */
static void put_url_line(struct worker *w, struct span u)
{
    const char *q = memchr(u.p, '?', u.n);
    size_t path_len = q != NULL ? (size_t)(q - u.p) : u.n;
    put_decoded(w, u.p, path_len, cfg.decode_slash ? NULL : &keep_path, path_flags(w), 0);
    if (q == NULL)
        return;
    size_t qn = u.n - path_len - 1;
    put_raw(w, "?", 1);
    if (cfg.query == Q_KEEP)
        put_raw(w, q + 1, qn); /* not decoded: as written */
    else
        put_decoded(w, q + 1, qn, &keep_query, path_flags(w) | (cfg.query == Q_FORM ? PCT_PLUS : 0),
                    0);
}

/* A field that is not decoded, as a JSON string (UTF-8 repaired). */
static void put_json_raw(struct worker *w, struct span s)
{
    put_raw(w, "\"", 1);
    if (classify(s.p, s.n) & CLS_HIGH) {
        /* Repairs ill-formed UTF-8 (keep_all: no escape is decoded). */
        if (w->scratch.cap < 3 * s.n + 16) {
            w->scratch.len = 0;
            buf_reserve(&w->scratch, 3 * s.n + 16);
        }
        pct_result r = pct_decode_except(s.p, s.n, w->scratch.data, &keep_all, PCT_UTF8_REPLACE);
        put_escaped(w, w->scratch.data, r.status == PCT_OK ? r.count : 0, 1);
    } else {
        put_escaped(w, s.p, s.n, 1);
    }
    put_raw(w, "\"", 1);
}

static void put_json_decoded(struct worker *w, struct span s, const pct_set *keep, unsigned flags)
{
    put_raw(w, "\"", 1);
    put_decoded(w, s.p, s.n, keep, flags, 1);
    put_raw(w, "\"", 1);
}

/* "-" or missing: null. */
static void put_json_opt(struct worker *w, struct span s, int present)
{
    if (!present || span_is(s, "-"))
        put_str(w, "null");
    else
        put_json_raw(w, s);
}

static void put_json_number(struct worker *w, struct span s, int present)
{
    int digits = present && s.n > 0 && s.n < 20;
    for (size_t i = 0; digits && i < s.n; i++)
        digits = s.p[i] >= '0' && s.p[i] <= '9';
    if (digits)
        put_raw(w, s.p, s.n);
    else
        put_json_opt(w, s, present);
}

/* "query":[[name,value],...] (WHATWG urlencoded parsing: split at '&', then
 * at the first '='; empty parameters skipped). */
static void put_json_query(struct worker *w, struct span q, int present)
{
    put_str(w, "\"query\":[");
    const char *p = q.p, *e = q.p + q.n;
    unsigned flags = path_flags(w) | (cfg.query == Q_FORM ? PCT_PLUS : 0);
    int first = 1;
    while (present) {
        const char *amp = memchr(p, '&', (size_t)(e - p));
        const char *end = amp != NULL ? amp : e;
        if (end > p) {
            const char *eq = memchr(p, '=', (size_t)(end - p));
            const char *name_end = eq != NULL ? eq : end;
            const char *value = eq != NULL ? eq + 1 : end;
            put_str(w, first ? "[" : ",[");
            first = 0;
            if (cfg.query == Q_KEEP) {
                put_json_raw(w, span_of(p, name_end));
                put_raw(w, ",", 1);
                put_json_raw(w, span_of(value, end));
            } else {
                put_json_decoded(w, span_of(p, name_end), NULL, flags);
                put_raw(w, ",", 1);
                put_json_decoded(w, span_of(value, end), NULL, flags);
            }
            put_raw(w, "]", 1);
        }
        if (amp == NULL)
            break;
        p = amp + 1;
    }
    put_raw(w, "]", 1);
}

/* "path":...,"query":[[name,value],...] */
static void put_json_url(struct worker *w, struct span u, int present)
{
    if (!present) {
        put_str(w, "\"path\":null,\"query\":[]");
        return;
    }
    const char *q = memchr(u.p, '?', u.n);
    size_t path_len = q != NULL ? (size_t)(q - u.p) : u.n;
    put_str(w, "\"path\":");
    put_json_decoded(w, span_of(u.p, u.p + path_len), cfg.decode_slash ? NULL : &keep_path,
                     path_flags(w));
    put_str(w, ",");
    put_json_query(w, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p), q != NULL);
}

static void put_json_referer(struct worker *w, struct span s, int present)
{
    if (cfg.referer && present && !span_is(s, "-")) {
        /* Decoded like a path: the whole URL as one string. */
        put_json_decoded(w, s, cfg.decode_slash ? NULL : &keep_path, path_flags(w));
    } else {
        put_json_opt(w, s, present);
    }
}

/* ------------------------------------------------------------------------ */
/* Combined / common                                                        */
/* ------------------------------------------------------------------------ */

struct access {
    struct span remote, time, request, status, bytes, referer, agent;
    int has_ra; /* referer and agent present (combined) */
};

/* A quoted field starting after the opening quote at p: ends at the first
 * '"' not escaped by a backslash. Returns the closing quote or NULL. */
static const char *find_close_quote(const char *p, const char *e)
{
    for (;;) {
        const char *q = memchr(p, '"', (size_t)(e - p));
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

/* Fields before the request are short: a plain loop beats memchr. */
static const char *token_end(const char *p, const char *e)
{
    while (p < e && *p != ' ')
        p++;
    return p;
}

static int parse_access(const char *s, size_t n, struct access *a)
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
    if (p == e || *p != '[' || (q = memchr(p, ']', (size_t)(e - p))) == NULL)
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
            const char *aq = !cfg.json && e[-1] == '"' && e - 1 >= rq + 3 && e[-2] != '\\'
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

/* Splits "METHOD target HTTP/x" (or "METHOD target"). 0 if it is not one. */
static int split_request(struct span r, struct span *method, struct span *target)
{
    const char *e = r.p + r.n;
    const char *sp = memchr(r.p, ' ', r.n);
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
    while (last > t && last[-1] != ' ')
        last--;
    if (last > t && e - last >= 5 && memcmp(last, "HTTP/", 5) == 0)
        *target = span_of(t, last - 1);
    else
        *target = span_of(t, e);
    return 1;
}

static void line_access(struct worker *w, const char *s, size_t n, const struct access *a)
{
    struct span method, target;
    const char *done = s;
    if (split_request(a->request, &method, &target)) {
        put_raw(w, done, (size_t)(target.p - done));
        put_url_line(w, target);
        done = target.p + target.n;
    }
    if (cfg.referer && a->has_ra && !span_is(a->referer, "-")) {
        put_raw(w, done, (size_t)(a->referer.p - done));
        put_url_line(w, a->referer);
        done = a->referer.p + a->referer.n;
    }
    put_raw(w, done, (size_t)(s + n - done));
}

static void json_access(struct worker *w, const struct access *a)
{
    struct span method, target;
    int ok = split_request(a->request, &method, &target);
    put_str(w, "{\"remote\":");
    put_json_raw(w, a->remote);
    put_str(w, ",\"time\":");
    put_json_raw(w, a->time);
    put_str(w, ",\"method\":");
    if (ok)
        put_json_raw(w, method);
    else
        put_str(w, "null");
    put_raw(w, ",", 1);
    if (ok) {
        put_json_url(w, target, 1);
    } else {
        put_str(w, "\"path\":");
        put_json_raw(w, a->request);
        put_str(w, ",\"query\":[]");
    }
    put_str(w, ",\"status\":");
    put_json_number(w, a->status, 1);
    put_str(w, ",\"bytes\":");
    put_json_number(w, a->bytes, 1);
    put_str(w, ",\"referer\":");
    put_json_referer(w, a->referer, a->has_ra);
    put_str(w, ",\"agent\":");
    put_json_opt(w, a->agent, a->has_ra);
    put_raw(w, "}", 1);
}

/* ------------------------------------------------------------------------ */
/* W3C extended (IIS) and --field                                           */
/* ------------------------------------------------------------------------ */

static int split_fields(const char *s, size_t n, struct span *fields, int max)
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

static void parse_w3c_header(const char *s, size_t n, struct w3c_layout *l)
{
    struct span f[MAX_W3C_FIELDS + 1];
    int count = split_fields(s + 8, n - 8, f, MAX_W3C_FIELDS);
    memset(l, 0xff, sizeof *l);
    l->count = count > MAX_W3C_FIELDS ? 0 : count;
    for (int i = 0; i < l->count; i++) {
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

static int is_fields_line(const char *s, size_t n)
{
    return n >= 8 && memcmp(s, "#Fields:", 8) == 0;
}

/* Line output for W3C: stem, query (and referer) decoded in place. */
static void line_w3c(struct worker *w, const char *s, size_t n, const struct span *f,
                     const struct w3c_layout *l)
{
    const char *done = s;
    for (int i = 0; i < l->count; i++) {
        int kind = i == l->stem ? 1 : i == l->query ? 2 : (cfg.referer && i == l->referer) ? 3 : 0;
        if (kind == 0 || span_is(f[i], "-"))
            continue;
        put_raw(w, done, (size_t)(f[i].p - done));
        if (kind == 1)
            put_decoded(w, f[i].p, f[i].n, cfg.decode_slash ? NULL : &keep_path, path_flags(w), 0);
        else if (kind == 2 && cfg.query == Q_KEEP)
            put_raw(w, f[i].p, f[i].n);
        else if (kind == 2)
            put_decoded(w, f[i].p, f[i].n, &keep_query,
                        path_flags(w) | (cfg.query == Q_FORM ? PCT_PLUS : 0), 0);
        else
            put_url_line(w, f[i]);
        done = f[i].p + f[i].n;
    }
    put_raw(w, done, (size_t)(s + n - done));
}

static struct span field_or_empty(const struct span *f, int i)
{
    struct span none = {"", 0};
    return i >= 0 ? f[i] : none;
}

static void json_w3c(struct worker *w, const struct span *f, const struct w3c_layout *l)
{
    put_str(w, "{\"remote\":");
    put_json_opt(w, field_or_empty(f, l->c_ip), l->c_ip >= 0);
    put_str(w, ",\"time\":");
    if (l->date >= 0 && l->time >= 0) {
        struct span both = span_of(f[l->date].p, f[l->time].p + f[l->time].n);
        if (f[l->time].p > f[l->date].p)
            put_json_raw(w, both);
        else
            put_json_raw(w, f[l->time]);
    } else {
        put_json_opt(w, field_or_empty(f, l->time), l->time >= 0);
    }
    put_str(w, ",\"method\":");
    put_json_opt(w, field_or_empty(f, l->method), l->method >= 0);
    put_raw(w, ",", 1);
    if (l->stem >= 0) {
        put_str(w, "\"path\":");
        put_json_decoded(w, f[l->stem], cfg.decode_slash ? NULL : &keep_path, path_flags(w));
    } else {
        put_str(w, "\"path\":null");
    }
    put_raw(w, ",", 1);
    struct span q = field_or_empty(f, l->query);
    put_json_query(w, q, l->query >= 0 && !span_is(q, "-"));
    put_str(w, ",\"status\":");
    put_json_number(w, field_or_empty(f, l->status), l->status >= 0);
    put_str(w, ",\"bytes\":");
    put_json_number(w, field_or_empty(f, l->bytes), l->bytes >= 0);
    put_str(w, ",\"referer\":");
    put_json_referer(w, field_or_empty(f, l->referer), l->referer >= 0);
    put_str(w, ",\"agent\":");
    put_json_opt(w, field_or_empty(f, l->agent), l->agent >= 0);
    put_raw(w, "}", 1);
}

/* ------------------------------------------------------------------------ */
/* Lines and chunks                                                         */
/* ------------------------------------------------------------------------ */

static void put_unparsed(struct worker *w, const char *s, size_t n)
{
    w->st->unparsed++;
    if (!cfg.json) {
        put_raw(w, s, n);
        return;
    }
    put_str(w, "{\"unparsed\":");
    put_json_raw(w, span_of(s, s + n));
    put_raw(w, "}", 1);
}

/* One line without its terminator. FMT_AUTO: combined or common. */
static void process_line(struct worker *w, const char *s, size_t n, enum format fmt,
                         struct w3c_layout *layout)
{
    w->line_escaped = w->line_bad_utf8 = 0;
    if (fmt == FMT_W3C) {
        struct span f[MAX_W3C_FIELDS + 1];
        if (n > 0 && s[0] == '#') {
            if (is_fields_line(s, n))
                parse_w3c_header(s, n, layout);
            if (cfg.json) {
                put_str(w, "{\"directive\":");
                put_json_raw(w, span_of(s, s + n));
                put_raw(w, "}", 1);
            } else {
                put_raw(w, s, n);
            }
            return;
        }
        int count = split_fields(s, n, f, MAX_W3C_FIELDS);
        if (layout->count == 0 || count != layout->count) {
            put_unparsed(w, s, n);
            return;
        }
        if (cfg.json)
            json_w3c(w, f, layout);
        else
            line_w3c(w, s, n, f, layout);
    } else if (fmt == FMT_FIELD) {
        struct span f[MAX_W3C_FIELDS + 1];
        int count = split_fields(s, n, f, MAX_W3C_FIELDS);
        if ((size_t)count < cfg.field || cfg.field > MAX_W3C_FIELDS) {
            put_unparsed(w, s, n);
            return;
        }
        struct span u = f[cfg.field - 1];
        if (cfg.json) {
            put_str(w, "{");
            put_json_url(w, u, 1);
            put_str(w, ",\"line\":");
            put_json_raw(w, span_of(s, s + n));
            put_raw(w, "}", 1);
        } else {
            put_raw(w, s, (size_t)(u.p - s));
            put_url_line(w, u);
            put_raw(w, u.p + u.n, (size_t)(s + n - (u.p + u.n)));
        }
    } else {
        struct access a;
        if (!parse_access(s, n, &a) || (fmt == FMT_COMBINED && !a.has_ra)) {
            put_unparsed(w, s, n);
            return;
        }
        if (fmt == FMT_COMMON)
            a.has_ra = 0;
        if (cfg.json)
            json_access(w, &a);
        else
            line_access(w, s, n, &a);
    }
    w->st->escaped_lines += (uint64_t)w->line_escaped;
    w->st->invalid_utf8 += (uint64_t)w->line_bad_utf8;
}

struct chunk_job {
    const char *in;
    size_t len;
    enum format fmt;
    struct w3c_layout layout; /* in effect at the chunk's start (W3C) */
    struct buf out;
    struct stats st;
};

static void process_chunk(struct worker *w, struct chunk_job *job)
{
    const char *p = job->in, *e = job->in + job->len;
    memset(&job->st, 0, sizeof job->st);
    job->out.len = 0;
    w->out = &job->out;
    w->st = &job->st;
    w->spaced = job->fmt == FMT_W3C || job->fmt == FMT_FIELD;
    w->w3c = job->fmt == FMT_W3C;
    job->st.bytes = job->len;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        const char *end = nl != NULL ? nl : e;
        const char *content_end = end;
        if (nl != NULL && content_end > p && content_end[-1] == '\r')
            content_end--; /* CRLF: the CR is part of the terminator */
        size_t n = (size_t)(content_end - p);
        /* Worst case: 6 output bytes per input byte (JSON \u00XX), plus keys; */
        buf_reserve(&job->out, 13 * n + 512); /* --field --json: the line twice */
        process_line(w, p, n, job->fmt, &job->layout);
        put_raw(w, content_end, (size_t)(end - content_end) + (nl != NULL));
        job->st.lines++;
        p = nl != NULL ? nl + 1 : e;
    }
}

/* ------------------------------------------------------------------------ */
/* Progress and stats                                                       */
/* ------------------------------------------------------------------------ */

struct run_state {
    struct stats total;
    uint64_t size_known;  /* total input bytes, 0 if unknown */
    uint64_t done_before; /* bytes of earlier files */
    double start, last_progress;
    int show_progress;
    int failed;
};

static struct run_state run;

static void format_bytes(char *text, size_t size, double bytes)
{
    const char *units[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000 && u < 4) {
        bytes /= 1000;
        u++;
    }
    snprintf(text, size, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

static void show_progress(int final)
{
    double t = now_seconds();
    if (!final && t - run.last_progress < 0.1)
        return;
    run.last_progress = t;
    double done = (double)run.total.bytes, total = (double)run.size_known;
    double elapsed = t - run.start, rate = elapsed > 0 ? done / elapsed : 0;
    double frac = total > 0 ? done / total : 0;
    if (frac > 1)
        frac = 1;
    char bar[31], d[32], tt[32], r[32];
    int filled = (int)(frac * 30);
    for (int i = 0; i < 30; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[30] = '\0';
    format_bytes(d, sizeof d, done);
    format_bytes(tt, sizeof tt, total);
    format_bytes(r, sizeof r, rate);
    double eta = rate > 0 ? (total - done) / rate : 0;
    fprintf(stderr, "\r[%s] %3.0f%% %s / %s  %s/s  ETA %d:%02d\033[K", bar, frac * 100, d, tt, r,
            (int)eta / 60, (int)eta % 60);
    if (final)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

static void add_stats(struct stats *a, const struct stats *b)
{
    a->lines += b->lines;
    a->bytes += b->bytes;
    a->escaped_lines += b->escaped_lines;
    a->malformed += b->malformed;
    a->invalid_utf8 += b->invalid_utf8;
    a->unparsed += b->unparsed;
}

static void print_stats(void)
{
    double elapsed = now_seconds() - run.start;
    const struct stats *s = &run.total;
    fprintf(stderr,
            "lines:              %llu\n"
            "bytes:              %llu\n"
            "lines with escapes: %llu\n"
            "malformed escapes:  %llu\n"
            "invalid UTF-8:      %llu lines\n"
            "unparsed lines:     %llu\n"
            "elapsed:            %.3f s\n"
            "throughput:         %.3f GB/s\n",
            (unsigned long long)s->lines, (unsigned long long)s->bytes,
            (unsigned long long)s->escaped_lines, (unsigned long long)s->malformed,
            (unsigned long long)s->invalid_utf8, (unsigned long long)s->unparsed, elapsed,
            elapsed > 0 ? (double)s->bytes / elapsed / 1e9 : 0.0);
}

/* ------------------------------------------------------------------------ */
/* Chunk pipeline                                                           */
/* ------------------------------------------------------------------------ */

enum slot_state {
    SLOT_FREE,
    SLOT_READY,
    SLOT_BUSY,
    SLOT_DONE
};

struct slot {
    enum slot_state state;
    struct chunk_job job;
    struct buf own;    /* input bytes when streaming */
    const char *unmap; /* mmap'd range to release once written */
    size_t unmap_len;
};

struct pipeline {
    pthread_mutex_t lock;
    pthread_cond_t ready, done;
    struct slot *slots;
    size_t nslots;
    uint64_t next_fill, next_work, next_write;
    int quit;
    int nworkers;
    pthread_t *threads;
    struct worker inline_worker;
};

static struct pipeline pl;

static void *worker_main(void *arg)
{
    (void)arg;
    struct worker w;
    memset(&w, 0, sizeof w);
    pthread_mutex_lock(&pl.lock);
    for (;;) {
        struct slot *s = &pl.slots[pl.next_work % pl.nslots];
        if (s->state == SLOT_READY) {
            s->state = SLOT_BUSY;
            pl.next_work++;
            pthread_mutex_unlock(&pl.lock);
            process_chunk(&w, &s->job);
            pthread_mutex_lock(&pl.lock);
            s->state = SLOT_DONE;
            pthread_cond_broadcast(&pl.done);
            continue;
        }
        if (pl.quit)
            break;
        pthread_cond_wait(&pl.ready, &pl.lock);
    }
    pthread_mutex_unlock(&pl.lock);
    free(w.scratch.data);
    return NULL;
}

static void write_slot(struct slot *s)
{
    write_all(STDOUT_FILENO, s->job.out.data, s->job.out.len);
    add_stats(&run.total, &s->job.st);
    if (s->unmap != NULL) {
        /* Drop the pages from our address space: RSS stays bounded. */
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t a = ((uintptr_t)s->unmap) & ~(page - 1);
        uintptr_t b = ((uintptr_t)s->unmap + s->unmap_len) & ~(page - 1);
#ifdef MADV_DONTNEED
        if (b > a)
            madvise((void *)a, (size_t)(b - a), MADV_DONTNEED);
#endif
    }
    if (run.show_progress)
        show_progress(0);
}

/* Writes the oldest chunk, waiting for it. Returns 0 if none is in flight. */
static int write_oldest(void)
{
    if (pl.next_write == pl.next_fill)
        return 0;
    struct slot *s = &pl.slots[pl.next_write % pl.nslots];
    if (pl.nworkers > 0) {
        pthread_mutex_lock(&pl.lock);
        while (s->state != SLOT_DONE)
            pthread_cond_wait(&pl.done, &pl.lock);
        pthread_mutex_unlock(&pl.lock);
    }
    write_slot(s);
    s->state = SLOT_FREE;
    pl.next_write++;
    return 1;
}

/* A free slot for the next chunk (writing finished ones to make room). */
static struct slot *acquire_slot(void)
{
    struct slot *s = &pl.slots[pl.next_fill % pl.nslots];
    while (s->state != SLOT_FREE)
        write_oldest();
    return s;
}

static void submit_slot(struct slot *s)
{
    pl.next_fill++;
    if (pl.nworkers == 0) {
        process_chunk(&pl.inline_worker, &s->job);
        s->state = SLOT_DONE;
        write_oldest();
        return;
    }
    pthread_mutex_lock(&pl.lock);
    s->state = SLOT_READY;
    pthread_cond_signal(&pl.ready);
    pthread_mutex_unlock(&pl.lock);
}

static void drain(void)
{
    while (write_oldest())
        ;
}

static void pipeline_start(int nworkers)
{
    pl.nworkers = nworkers;
    pl.nslots = nworkers > 0 ? (size_t)nworkers * 2 + 2 : 1;
    pl.slots = calloc(pl.nslots, sizeof *pl.slots);
    if (pl.slots == NULL)
        fatal("out of memory", NULL);
    if (nworkers <= 0 || nworkers > 256)
        return;
    pthread_mutex_init(&pl.lock, NULL);
    pthread_cond_init(&pl.ready, NULL);
    pthread_cond_init(&pl.done, NULL);
    pl.threads = calloc((size_t)nworkers, sizeof *pl.threads);
    if (pl.threads == NULL)
        fatal("out of memory", NULL);
    for (int i = 0; i < nworkers; i++)
        if (pthread_create(&pl.threads[i], NULL, worker_main, NULL) != 0)
            fatal("cannot start threads", NULL);
}

static void pipeline_stop(void)
{
    drain();
    if (pl.nworkers > 0) {
        pthread_mutex_lock(&pl.lock);
        pl.quit = 1;
        pthread_cond_broadcast(&pl.ready);
        pthread_mutex_unlock(&pl.lock);
        for (int i = 0; i < pl.nworkers; i++)
            pthread_join(pl.threads[i], NULL);
        free(pl.threads);
        pthread_mutex_destroy(&pl.lock);
        pthread_cond_destroy(&pl.ready);
        pthread_cond_destroy(&pl.done);
    }
    for (size_t i = 0; i < pl.nslots; i++) {
        free(pl.slots[i].job.out.data);
        free(pl.slots[i].own.data);
    }
    free(pl.slots);
    free(pl.inline_worker.scratch.data);
}

/* Per-input state carried from chunk to chunk. */
struct input_state {
    enum format fmt;
    struct w3c_layout layout;
    int detected;
};

/* W3C: the layout at the start of each chunk is that of the last #Fields:
 * line before it, so chunks can be decoded in any order. */
static void track_w3c_headers(struct input_state *is, const char *p, size_t n)
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

static void dispatch(struct input_state *is, struct slot *s, const char *p, size_t n)
{
    if (!is->detected) {
        is->detected = 1;
        if (is->fmt == FMT_AUTO)
            is->fmt = n > 0 && p[0] == '#' ? FMT_W3C : FMT_AUTO;
    }
    s->job.in = p;
    s->job.len = n;
    s->job.fmt = is->fmt;
    s->job.layout = is->layout;
    if (is->fmt == FMT_W3C)
        track_w3c_headers(is, p, n);
    submit_slot(s);
}

static void process_mapped(const char *data, size_t size, struct input_state *is)
{
    size_t pos = 0;
    while (pos < size) {
        size_t end = pos + cfg.chunk;
        if (end >= size) {
            end = size;
        } else {
            const char *nl = memchr(data + end, '\n', size - end);
            end = nl != NULL ? (size_t)(nl - data) + 1 : size;
        }
        struct slot *s = acquire_slot();
        s->unmap = data + pos;
        s->unmap_len = end - pos;
        dispatch(is, s, data + pos, end - pos);
        pos = end;
    }
}

/* 1 if fd has data (or EOF) right now. */
static int readable_now(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

static int process_stream(int fd, struct input_state *is)
{
    struct buf carry = {NULL, 0, 0};
    int eof = 0;
    while (!eof) {
        struct slot *s = acquire_slot();
        s->unmap = NULL;
        struct buf *b = &s->own;
        b->len = 0;
        buf_reserve(b, cfg.chunk + carry.len);
        memcpy(b->data, carry.data, carry.len);
        b->len = carry.len;
        carry.len = 0;
        for (;;) {
            if (b->len >= cfg.chunk && memchr(b->data, '\n', b->len) != NULL)
                break;
            if (b->len > 0 && !readable_now(fd) && memchr(b->data, '\n', b->len) != NULL)
                break;
            if (!readable_now(fd))
                drain(); /* nothing to read yet: show what is done */
            buf_reserve(b, cfg.chunk / 2 < 65536 ? 65536 : cfg.chunk / 2);
            ssize_t got = read(fd, b->data + b->len, b->cap - b->len);
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                fprintf(stderr, "pct logs: read error: %s\n", strerror(errno));
                run.failed = 1;
                eof = 1;
                break;
            }
            if (got == 0) {
                eof = 1;
                break;
            }
            b->len += (size_t)got;
        }
        size_t cut = b->len;
        if (!eof) {
            size_t i = b->len;
            while (i > 0 && b->data[i - 1] != '\n')
                i--;
            cut = i;
            buf_reserve(&carry, b->len - cut);
            memcpy(carry.data, b->data + cut, b->len - cut);
            carry.len = b->len - cut;
        }
        if (cut == 0)
            continue; /* slot stays free */
        dispatch(is, s, b->data, cut);
    }
    free(carry.data);
    return 0;
}

static void process_input(const char *name)
{
    int fd = STDIN_FILENO;
    int is_stdin = strcmp(name, "-") == 0;
    if (!is_stdin) {
        fd = open(name, O_RDONLY);
        if (fd < 0) {
            fprintf(stderr, "pct logs: %s: %s\n", name, strerror(errno));
            run.failed = 1;
            return;
        }
    }
    struct input_state is;
    memset(&is, 0, sizeof is);
    is.fmt = cfg.format;
    struct stat st;
    int mapped = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            mapped = 1;
#ifdef MADV_SEQUENTIAL
            madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
#endif
            process_mapped(map, (size_t)st.st_size, &is);
            drain();
            munmap(map, (size_t)st.st_size);
        }
    }
    if (!mapped)
        process_stream(fd, &is);
    drain();
    if (!is_stdin)
        close(fd);
}

/* ------------------------------------------------------------------------ */
/* Options and help                                                         */
/* ------------------------------------------------------------------------ */

static void print_logs_help(void)
{
    fputs("Usage: pct logs [OPTION...] [FILE...]\n"
          "Decode the URLs in web server access logs: each line is written with its\n"
          "request target decoded (or as JSON). Without FILE, or with '-': stdin.\n"
          "\n"
          "Formats:\n"
          "  --format combined|common|w3c|auto\n"
          "                     Apache/nginx combined or common, W3C extended (IIS,\n"
          "                     '#Fields:' headers, may change midway; %uXXXX decoded);\n"
          "                     default auto: w3c if the input starts with '#', else\n"
          "                     combined or common, line by line\n"
          "  --field N          any whitespace-separated log: field N (from 1) is a URL\n"
          "Decoding:\n"
          "  --decode-slash     also decode %2F in paths (default: kept, as a segment byte)\n"
          "  --query MODE       form (default: '+' is a space), plain, or keep (as is)\n"
          "  --referer          decode the referer too\n"
          "  --percent-u        decode %uXXXX in every format (default: w3c only)\n"
          "  --bytes            keep decoded bytes that are not UTF-8 (default: U+FFFD)\n"
          "Output:\n"
          "  --json             one JSON object per line: remote, time, method, path,\n"
          "                     query ([[name, value], ...]), status, bytes, referer,\n"
          "                     agent (null when absent); a line that does not parse is\n"
          "                     {\"unparsed\": LINE}, a W3C directive {\"directive\": LINE}\n"
          "                     (--field: path, query and line); Apache's own escapes\n"
          "                     (\\\" \\xHH) stay as written in the strings\n"
          "  --stats            print counts, elapsed time and GB/s on stderr at the end\n"
          "  --progress         show a progress bar on stderr (default: when stderr is a\n"
          "                     terminal and the input size is known); --no-progress\n"
          "  --threads N        worker threads (default: all cores; 1: no threads)\n"
          "  --chunk-size N     bytes per chunk handed to a thread (default 2M; k/M/G)\n"
          "  --impl NAME        use this libpct implementation\n"
          "  -h, --help         show this help\n"
          "\n"
          "Safety: decoding never lets log content forge output. Every decoded byte\n"
          "is escaped when it is a control character (\\n \\r \\t, else \\xHH; U+0080-\n"
          "U+009F as \\xc2\\xHH), a '\"' (\\\") or a '\\' (\\\\) - Apache's own escaping\n"
          "convention, whose escapes already in the log are copied as written. In\n"
          "whitespace-separated formats (w3c, --field) a decoded space is \\x20. In the\n"
          "query, %26 %3D %23 stay encoded so parameters keep their boundaries. JSON\n"
          "strings are JSON-escaped. So one input line is always one output line.\n"
          "Lines that do not parse are passed through untouched and counted.\n"
          "\n"
          "Exit status: 0 success (unparsed lines are normal data), 2 usage error or\n"
          "read/write error.\n",
          stdout);
}

static _Noreturn void logs_usage(const char *message, const char *arg)
{
    fprintf(stderr, "pct logs: %s%s%s\nTry 'pct logs --help'.\n", message, arg ? " " : "",
            arg ? arg : "");
    exit(EXIT_TROUBLE);
}

static size_t parse_size(const char *text)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || errno != 0)
        logs_usage("bad size:", text);
    switch (*end) {
    case 'k':
    case 'K':
        v <<= 10, end++;
        break;
    case 'm':
    case 'M':
        v <<= 20, end++;
        break;
    case 'g':
    case 'G':
        v <<= 30, end++;
        break;
    default:
        break;
    }
    if (*end != '\0' || v == 0)
        logs_usage("bad size:", text);
    return (size_t)v;
}

static void setup_tables(void)
{
    pct_set_clear(&keep_path);
    pct_set_add_chars(&keep_path, "/");
    pct_set_clear(&keep_query);
    pct_set_add_chars(&keep_query, "&=#");
    pct_set_fill(&keep_all);
    for (int c = 0; c < 256; c++) {
        int ctl = c < 0x20 || c == 0x7F;
        esc_line[c] = esc_json[c] = (unsigned char)(ctl || c == '"' || c == '\\');
    }
    if (!cfg.bytes)
        esc_line[0xC2] = esc_json[0xC2] = 1;
    for (int c = 0; c < 256; c++) {
        cls_table[c] =
            (unsigned char)((c == '%' ? CLS_PERCENT : 0) | (c == '+' ? CLS_PLUS : 0) |
                            (c >= 0x80 ? CLS_HIGH : 0) | (c == '\\' ? CLS_BACKSLASH : 0) |
                            (esc_line[c] && c != '\\' ? CLS_ESCAPE : 0) |
                            (c == ' ' ? CLS_SPACE : 0));
    }
    memcpy(esc_spaced, esc_line, sizeof esc_spaced);
    esc_spaced[' '] = 1;
}

int pct_logs_main(int argc, char **argv)
{
    memset(&cfg, 0, sizeof cfg);
    cfg.progress = -1;
    cfg.chunk = DEFAULT_CHUNK;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    if (files == NULL)
        fatal("out of memory", NULL);
    size_t nfiles = 0;
    int seen_command = 0, options_ended = 0, help = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_ended || a[0] != '-' || a[1] == '\0') {
            if (!seen_command && strcmp(a, "logs") == 0)
                seen_command = 1;
            else
                files[nfiles++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            options_ended = 1;
            continue;
        }
        const char *value = NULL;
        char name[64];
        const char *eq = strchr(a, '=');
        size_t nl = eq != NULL ? (size_t)(eq - a) : strlen(a);
        if (nl >= sizeof name)
            logs_usage("unknown option", a);
        memcpy(name, a, nl);
        name[nl] = '\0';
        static const char *const valued[] = {"--format",  "--field",      "--query",
                                             "--threads", "--chunk-size", "--impl"};
        int takes = 0;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            takes |= strcmp(name, valued[k]) == 0;
        if (takes) {
            if (eq != NULL)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                logs_usage("option needs a value:", a);
        } else if (eq != NULL) {
            logs_usage("option takes no value:", a);
        }
        if (strcmp(name, "--format") == 0) {
            if (strcmp(value, "combined") == 0)
                cfg.format = FMT_COMBINED;
            else if (strcmp(value, "common") == 0)
                cfg.format = FMT_COMMON;
            else if (strcmp(value, "w3c") == 0 || strcmp(value, "iis") == 0)
                cfg.format = FMT_W3C;
            else if (strcmp(value, "auto") == 0)
                cfg.format = FMT_AUTO;
            else
                logs_usage("unknown format (combined, common, w3c, auto):", value);
        } else if (strcmp(name, "--field") == 0) {
            size_t n = parse_size(value);
            if (n > MAX_W3C_FIELDS)
                logs_usage("--field: at most 64:", value);
            cfg.field = n;
            cfg.format = FMT_FIELD;
        } else if (strcmp(name, "--query") == 0) {
            if (strcmp(value, "form") == 0)
                cfg.query = Q_FORM;
            else if (strcmp(value, "plain") == 0)
                cfg.query = Q_PLAIN;
            else if (strcmp(value, "keep") == 0)
                cfg.query = Q_KEEP;
            else
                logs_usage("unknown query mode (form, plain, keep):", value);
        } else if (strcmp(name, "--threads") == 0) {
            size_t n = parse_size(value);
            if (n > 256)
                logs_usage("--threads: at most 256:", value);
            cfg.threads = (long)n;
        } else if (strcmp(name, "--chunk-size") == 0) {
            cfg.chunk = parse_size(value);
        } else if (strcmp(name, "--impl") == 0) {
            if (pct_use_implementation(value) != 0)
                logs_usage("unknown or unavailable implementation:", value);
        } else if (strcmp(name, "--decode-slash") == 0) {
            cfg.decode_slash = 1;
        } else if (strcmp(name, "--referer") == 0) {
            cfg.referer = 1;
        } else if (strcmp(name, "--json") == 0) {
            cfg.json = 1;
        } else if (strcmp(name, "--bytes") == 0) {
            cfg.bytes = 1;
        } else if (strcmp(name, "--percent-u") == 0) {
            cfg.percent_u = 1;
        } else if (strcmp(name, "--stats") == 0) {
            cfg.stats = 1;
        } else if (strcmp(name, "--progress") == 0) {
            cfg.progress = 1;
        } else if (strcmp(name, "--no-progress") == 0) {
            cfg.progress = 0;
        } else if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
            help = 1;
        } else {
            logs_usage("unknown option", a);
        }
    }
    if (help) {
        print_logs_help();
        free(files);
        if (fflush(stdout) != 0)
            fatal("write error", strerror(errno));
        return EXIT_OK;
    }
    if (cfg.json && cfg.bytes)
        logs_usage("--bytes cannot be combined with --json (JSON text is UTF-8)", NULL);
    if (cfg.format == FMT_W3C)
        cfg.percent_u = 1;
    setup_tables();
    if (nfiles == 0)
        files[nfiles++] = "-";

    long threads = cfg.threads;
    if (threads == 0) {
        threads = sysconf(_SC_NPROCESSORS_ONLN);
        if (threads < 1)
            threads = 1;
    }

    memset(&run, 0, sizeof run);
    for (size_t i = 0; i < nfiles; i++) {
        struct stat st;
        int known =
            strcmp(files[i], "-") == 0 ? fstat(STDIN_FILENO, &st) == 0 : stat(files[i], &st) == 0;
        if (known && S_ISREG(st.st_mode)) {
            run.size_known += (uint64_t)st.st_size;
        } else {
            run.size_known = 0;
            break;
        }
    }
    run.show_progress =
        cfg.progress == 1 || (cfg.progress < 0 && isatty(STDERR_FILENO) && run.size_known > 0);
    run.start = now_seconds();
    pipeline_start(threads > 1 ? (int)threads : 0);
    for (size_t i = 0; i < nfiles; i++)
        process_input(files[i]);
    pipeline_stop();
    if (run.show_progress)
        show_progress(1);
    if (cfg.stats)
        print_stats();
    free(files);
    return run.failed ? EXIT_TROUBLE : EXIT_OK;
}
