/* log_values.c - a record field's value for the record callback
 * (log_session.h): its text decoded by the rules the writers use
 * (log_field_text.c), an integer, a time in nanoseconds (log_time.c). */
#include <stdint.h>
#include <string.h>

#include "log_field_text.h"
#include "fmt_access.h"
#include "log_formats.h"
#include "log_records.h"
#include "log_time.h"
#include "log_values.h"

const struct log_session_field *log_record_field(const struct log_session_record *r,
                                                 const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < r->nfields; i++)
        if (r->fields[i].name_len == n && memcmp(r->fields[i].name, name, n) == 0)
            return &r->fields[i];
    return NULL;
}

static const struct log_field *engine_field(const struct log_session_field *f)
{
    return f != NULL ? (const struct log_field *)f->engine : NULL;
}

/* A field with no value: "-" (not a JSON line's string), or empty where a
 * space ends it. */
static int is_null(const struct log_field *f)
{
    return f == NULL || field_dash(f, f->v) || (f->v.n == 0 && f->quote == FQ_BARE);
}

static struct worker *values_worker(struct log_values *v, const struct log_session_record *r)
{
    /* %uXXXX is decoded in W3C paths (as process_chunk sets it). */
    v->w.w3c = r != NULL && strcmp(r->format, "w3c") == 0;
    return &v->w;
}

static int give(struct span t, const char **p, size_t *n)
{
    *p = t.p;
    *n = t.n;
    return 1;
}

int log_value_text(struct log_values *v, const struct log_session_record *r,
                   const struct log_session_field *field, const char **p, size_t *n)
{
    const struct log_field *f = engine_field(field);
    if (is_null(f))
        return 0;
    struct worker *w = values_worker(v, r);
    const struct log_ctx *ctx = w->ctx;
    struct span t = field_text(w, f, f->v);
    if (f->kind == K_PATH || (f->kind == K_REFERER && ctx->cfg.referer))
        return give(decode_bytes(w, t, path_keep(w), path_flags(w)), p, n);
    if (f->kind == K_QUERY) {
        if (t.n > 0 && t.p[0] == '?')
            t = span_of(t.p + 1, t.p + t.n);
        if (ctx->cfg.query == Q_KEEP)
            return give(decode_bytes(w, t, &ctx->keep_all, 0), p, n);
        return give(decode_bytes(w, t, &ctx->keep_query, query_flags(w)), p, n);
    }
    return give(decode_bytes(w, t, &ctx->keep_all, 0), p, n);
}

/* The request of a record and its parts, as the writers find it
 * (request_rank; see log_tsv.c's record_url): NULL when it has none with a
 * target. */
static const struct log_field *record_url(const struct log_session_record *r,
                                          struct request_parts *q)
{
    const struct log_field *f = NULL;
    int best = 0;
    for (size_t i = 0; i < r->nfields && best < REQUEST_LINE; i++) {
        const struct log_field *c = engine_field(&r->fields[i]);
        int rank = request_rank(c, q);
        if (rank > best) {
            best = rank;
            f = c;
        }
    }
    if (best == REQUEST_LINE)
        return f;
    if (best != 3 && !(f != NULL && f->kind == K_URL && f->v.n == 0))
        return NULL; /* none, a URL of "-", or not a request line */
    q->method = q->protocol = span_of(f->v.p, f->v.p);
    q->target = f->v;
    return f;
}

int log_value_part(struct log_values *v, const struct log_session_record *r, int part,
                   const char **p, size_t *n)
{
    static const char *const names[] = {"method", "path", "query", "protocol", "origin"};
    if (part < LOG_PART_METHOD || part > LOG_PART_ORIGIN)
        return 0;
    const struct log_session_field *own = log_record_field(r, names[part]);
    const struct log_field *plain = engine_field(own);
    if (plain != NULL && plain->kind != K_REQUEST && plain->kind != K_URL)
        return log_value_text(v, r, own, p, n);
    struct worker *w = values_worker(v, r);
    const struct log_ctx *ctx = w->ctx;
    struct request_parts rq;
    const struct log_field *f = record_url(r, &rq);
    if (f == NULL)
        return 0;
    const struct span target = rq.target;
    if (part == LOG_PART_METHOD || part == LOG_PART_PROTOCOL) {
        struct span t = part == LOG_PART_METHOD ? rq.method : rq.protocol;
        if (t.n == 0)
            return 0;
        return give(decode_bytes(w, field_text(w, f, t), &ctx->keep_all, 0), p, n);
    }
    struct span u = field_text(w, f, target);
    size_t origin = origin_length(u);
    const char *q = memchr(u.p + origin, '?', u.n - origin);
    if (part == LOG_PART_ORIGIN) /* not decoded, but UTF-8-repaired as the method is */
        return origin > 0
                   ? give(decode_bytes(w, span_of(u.p, u.p + origin), &ctx->keep_all, 0), p, n)
                   : 0;
    if (part == LOG_PART_PATH)
        return give(decode_bytes(w, span_of(u.p + origin, q != NULL ? q : u.p + u.n), path_keep(w),
                                 path_flags(w)),
                    p, n);
    if (q == NULL)
        return 0;
    if (ctx->cfg.query == Q_KEEP)
        return give(decode_bytes(w, span_of(q + 1, u.p + u.n), &ctx->keep_all, 0), p, n);
    return give(decode_bytes(w, span_of(q + 1, u.p + u.n), &ctx->keep_query, query_flags(w)), p, n);
}

int log_value_int(struct log_values *v, const struct log_session_record *r,
                  const struct log_session_field *field, int64_t *out)
{
    const struct log_field *f = engine_field(field);
    if (is_null(f))
        return 0;
    struct span t = field_text(values_worker(v, r), f, f->v);
    return log_value_int_text(t.p, t.n, out);
}

int log_value_int_text(const char *p, size_t n, int64_t *out)
{
    size_t i = n > 0 && p[0] == '-';
    if (i == n)
        return 0;
    uint64_t x = 0, limit = i ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        unsigned d = (unsigned)(p[i] - '0');
        if (x > (limit - d) / 10)
            return 0;
        x = x * 10 + d;
    }
    *out = p[0] == '-' ? (x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x) : (int64_t)x;
    return 1;
}

static int digits(const char *p, int count)
{
    int v = 0;
    for (int i = 0; i < count; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

/* Days from 1970-01-01 to y-m-d, proleptic Gregorian (Howard Hinnant's
 * days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* The time of day of ISO 8601 text t (HH:MM:SS from t + 11) in seconds,
 * or -1 when it is not one. */
static int64_t iso_time_of_day(const char *t)
{
    if (t[13] != ':' || t[16] != ':')
        return -1;
    int h = digits(t + 11, 2), mi = digits(t + 14, 2), s = digits(t + 17, 2);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59)
        return -1;
    return h * 3600 + mi * 60 + s;
}

/* The ISO 8601 text log_time_iso writes (YYYY-MM-DDTHH:MM:SS[.f][Z|+HH:MM])
 * in parts: its seconds since the epoch less its time of day, UTC
 * (*day_secs), the time of day (*tod) and nanoseconds (*frac); 0 when a
 * part is out of range. */
static int iso_parts(const char *t, size_t n, int64_t *day_secs, int64_t *tod, int64_t *frac)
{
    if (n < 19 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || (*tod = iso_time_of_day(t)) < 0)
        return 0;
    int y = digits(t, 4), mo = digits(t + 5, 2), d = digits(t + 8, 2);
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1])
        return 0;
    if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
        return 0;
    size_t i = 19;
    *frac = 0;
    if (i < n && t[i] == '.') {
        int k = 0;
        for (i++; i < n && t[i] >= '0' && t[i] <= '9'; i++, k++)
            if (k < 9)
                *frac = *frac * 10 + (t[i] - '0');
        if (k == 0)
            return 0;
        for (; k < 9; k++)
            *frac *= 10;
    }
    int64_t zone = 0;
    if (i < n && t[i] == 'Z') {
        i++;
    } else if (i < n && (t[i] == '+' || t[i] == '-')) {
        int zh = n - i >= 6 && t[i + 3] == ':' ? digits(t + i + 1, 2) : -1;
        int zm = zh >= 0 ? digits(t + i + 4, 2) : -1;
        if (zh < 0 || zh > 23 || zm < 0 || zm > 59)
            return 0;
        zone = (t[i] == '+' ? 1 : -1) * (int64_t)(zh * 3600 + zm * 60);
        i += 6;
    }
    if (i != n)
        return 0;
    *day_secs = days_from_civil(y, mo, d) * 86400 - zone;
    return 1;
}

/* Seconds and nanoseconds as nanoseconds since the epoch: 0 outside
 * int64 (years 0..9999 are far inside it only up to 2262). */
static int iso_total(int64_t secs, int64_t frac, int64_t *ns)
{
    if (secs > INT64_MAX / 1000000000 - 1 || secs < INT64_MIN / 1000000000 + 1)
        return 0;
    *ns = secs * 1000000000 + frac;
    return 1;
}

int log_value_iso_ns(const char *t, size_t n, int64_t *ns)
{
    int64_t day_secs, tod, frac;
    return iso_parts(t, n, &day_secs, &tod, &frac) && iso_total(day_secs + tod, frac, ns);
}

int log_iso_ns_memo(struct log_iso_memo *m, const char *t, size_t n, int64_t *ns)
{
    if (m->n == n && n >= 19 && memcmp(t, m->text, 11) == 0 &&
        memcmp(t + 19, m->text + 19, n - 19) == 0) {
        /* the same date, fraction and zone: only the time of day is read */
        const int64_t tod = iso_time_of_day(t);
        return tod >= 0 && iso_total(m->day_secs + tod, m->frac, ns);
    }
    int64_t tod;
    m->n = 0;
    if (!iso_parts(t, n, &m->day_secs, &tod, &m->frac))
        return 0;
    if (n <= sizeof m->text) {
        memcpy(m->text, t, n);
        m->n = n;
    }
    return iso_total(m->day_secs + tod, m->frac, ns);
}

int log_value_time(struct log_values *v, const struct log_session_record *r,
                   const struct log_session_field *field, int64_t *ns)
{
    (void)v;
    const struct log_field *f = engine_field(field);
    if (is_null(f))
        return 0;
    /* A W3C time of day goes with the record's date (log_time_iso). */
    const struct log_field *d =
        span_is(f->name, "time") ? engine_field(log_record_field(r, "date")) : NULL;
    char iso[LOG_ISO_MAX];
    size_t k = log_time_iso(d != NULL ? d->v : span_of("", ""), f->v, iso);
    return k > 0 && log_value_iso_ns(iso, k, ns);
}
