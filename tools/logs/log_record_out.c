/* log_record_out.c - writing records: line output with URLs decoded in
 * place, JSON with every field, TSV/CSV rows of chosen fields. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fmt_json.h"
#include "fmt_template.h"
#include "log_formats.h"
#include "log_record_out.h"
#include "log_time.h"

/* Worker buffers: [0] a field's text with its log escapes undone, [1] that
 * text with CloudFront's layer decoded, [2] decoded bytes before escaping. */
enum {
    B_TEXT,
    B_LAYER,
    B_DECODED
};

static const char *const default_fields[] = {"format", "remote", "time",  "method",  "path",
                                             "query",  "status", "bytes", "referer", "agent"};
#define TABLE_MAX_FIELDS 64
static char table_list[1024]; /* --fields, read-only once the threads start */
static const char *table_names[TABLE_MAX_FIELDS];
static int table_count;
/* What each column is, found once: the request's parts, or a field. */
enum column {
    COL_FIELD,
    COL_METHOD,
    COL_PATH,
    COL_QUERY,
    COL_PROTOCOL,
    COL_ORIGIN,
    COL_FORMAT,
    COL_LINE,
    COL_ISO
};
static unsigned char table_columns[TABLE_MAX_FIELDS];
/* The bytes a TSV (CSV) value may need escaped: controls, '\\', DEL, a C1
 * lead (and '"', ','). */
static struct log_scan table_scan[2];

static void table_columns_find(void)
{
    static const char *const parts[] = {"",         "method", "path",   "query",
                                        "protocol", "origin", "format", "line"};
    for (int i = 0; i < table_count; i++) {
        const char *name = table_names[i];
        size_t len = strlen(name);
        table_columns[i] = COL_FIELD;
        for (int k = 1; k < (int)(sizeof parts / sizeof *parts); k++)
            if (strcmp(name, parts[k]) == 0)
                table_columns[i] = (unsigned char)k;
        if (len > 4 && strcmp(name + len - 4, "_iso") == 0)
            table_columns[i] = COL_ISO;
    }
    log_scan_init(&table_scan[0], 0x20, 0, "\\\x7f\xc2");
    log_scan_init(&table_scan[1], 0x20, 0, "\\\x7f\xc2\",");
}

const char *table_fields_set(const char *list)
{
    table_count = 0;
    if (list == NULL) {
        for (size_t i = 0; i < sizeof default_fields / sizeof *default_fields; i++)
            table_names[table_count++] = default_fields[i];
        table_columns_find();
        return NULL;
    }
    if (strlen(list) >= sizeof table_list)
        return "--fields is too long";
    strcpy(table_list, list);
    for (char *p = table_list; *p;) {
        char *comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        if (*p == '\0')
            return "--fields has an empty name";
        for (const char *c = p; *c; c++)
            if ((unsigned char)*c <= ' ' || *c == '"' || *c == '\\' || (unsigned char)*c >= 0x7f)
                return "--fields names are printable ASCII without spaces, quotes or backslashes";
        if (table_count == TABLE_MAX_FIELDS)
            return "--fields names at most 64 fields";
        table_names[table_count++] = p;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    table_columns_find();
    return NULL;
}

size_t table_header(char *out, size_t cap, int csv)
{
    size_t len = 0;
    for (int i = 0; i < table_count; i++) {
        size_t n = strlen(table_names[i]);
        if (len + n + 2 > cap)
            break;
        if (i > 0)
            out[len++] = csv ? ',' : '\t';
        memcpy(out + len, table_names[i], n);
        len += n;
    }
    out[len++] = '\n';
    return len;
}

static char *room(struct worker *w, int which, size_t n)
{
    struct buf *b = &w->fmt_buf[which];
    b->len = 0;
    buf_reserve(b, 3 * n + 64); /* U+FFFD for a byte: 3; and a scan's 16 of padding */
    return b->data;
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
static struct span field_text(struct worker *w, const struct log_field *f, struct span t)
{
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
static struct span decode_bytes(struct worker *w, struct span t, const pct_set *keep,
                                unsigned flags)
{
    /* Most fields: ASCII with nothing to decode, written as they are. */
    if (!has_high_bytes(t.p, t.n) &&
        (keep == &w->ctx->keep_all ||
         (memchr(t.p, '%', t.n) == NULL && (!(flags & PCT_PLUS) || memchr(t.p, '+', t.n) == NULL))))
        return t;
    char *o = room(w, B_DECODED, t.n);
    unsigned utf8 = w->ctx->cfg.bytes ? 0 : PCT_UTF8_REPLACE;
    pct_result r = pct_decode_except(t.p, t.n, o, keep, flags | utf8);
    if (r.status != PCT_OK) /* cannot happen (lenient decoding) */
        return span_of(o, o);
    return span_of(o, o + r.count);
}

static const pct_set *path_keep(const struct worker *w)
{
    return w->ctx->cfg.decode_slash ? NULL : &w->ctx->keep_path;
}

static unsigned query_flags(const struct worker *w)
{
    return path_flags(w) | (w->ctx->cfg.query == Q_FORM ? PCT_PLUS : 0);
}

/* The scheme and authority of an absolute URL ("http://host:80"), empty
 * for a target that starts with its path. */
static size_t origin_length(struct span u)
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

/* ---------------------------------------------------------------- lines */

/* A URL's path and query decoded into line output: in a JSON string (the
 * JSON-lines formats), or as the line's own text. */
static void line_url(struct worker *w, const struct log_field *f, struct span t, int kind)
{
    const struct log_config *cfg = &w->ctx->cfg;
    size_t origin = kind == K_URL || kind == K_REFERER ? origin_length(t) : 0;
    if (f->quote == FQ_JSON) {
        put_raw(w, t.p, origin); /* ASCII of a URL's origin: as written */
        t = field_text(w, f, span_of(t.p + origin, t.p + t.n));
        struct span path = t, query = span_of(t.p, t.p);
        int has_query = kind == K_QUERY;
        if (kind == K_QUERY) {
            path = query;
            query = t;
        } else if (kind != K_PATH) {
            const char *q = memchr(t.p, '?', t.n);
            if (q != NULL) {
                path = span_of(t.p, q);
                query = span_of(q + 1, t.p + t.n);
                has_query = 1;
            }
        }
        struct span d = decode_bytes(w, path, path_keep(w), path_flags(w));
        put_mode(w, d.p, d.n, ESC_JSON);
        if (has_query) {
            if (kind != K_QUERY)
                put_raw(w, "?", 1);
            d = cfg->query == Q_KEEP ? decode_bytes(w, query, &w->ctx->keep_all, 0)
                                     : decode_bytes(w, query, &w->ctx->keep_query, query_flags(w));
            put_mode(w, d.p, d.n, ESC_JSON);
        }
        return;
    }
    put_undecoded(w, t.p, origin);
    t = span_of(t.p + origin, t.p + t.n);
    if (f->layers > 0)
        t = field_text(w, f, t);
    if (kind == K_PATH) {
        put_decoded(w, t.p, t.n, path_keep(w), path_flags(w), 0);
    } else if (kind == K_QUERY) {
        if (t.n > 0 && t.p[0] == '?') { /* Apache %q */
            put_raw(w, "?", 1);
            t = span_of(t.p + 1, t.p + t.n);
        }
        if (cfg->query == Q_KEEP)
            put_undecoded(w, t.p, t.n);
        else
            put_decoded(w, t.p, t.n, &w->ctx->keep_query, query_flags(w), 0);
    } else {
        put_url_line(w, t);
    }
}

/* The part of a field that line output decodes, if any. */
static int decoded_part(const struct worker *w, const struct log_field *f, struct span *t)
{
    struct span method;
    *t = f->v;
    if (f->v.n == 0 || span_is(f->v, "-"))
        return 0;
    switch (f->kind) {
    case K_REQUEST:
        return split_request(f->v, &method, t);
    case K_URL:
    case K_PATH:
    case K_QUERY:
        return 1;
    case K_REFERER:
        return w->ctx->cfg.referer;
    default:
        return 0;
    }
}

static void line_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    int spaced = w->spaced;
    w->spaced = !w->ctx->cfg.raw_spaces; /* decoded spaces keep fields apart */
    const char *done = s;
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        struct span t;
        if (!decoded_part(w, f, &t) || t.p < done)
            continue;
        put_undecoded(w, done, (size_t)(t.p - done));
        size_t start = w->out->len;
        line_url(w, f, t, f->kind == K_REQUEST ? K_URL : f->kind);
        if (t.p == s && w->out->len > start && w->out->data[start] == '#') {
            /* a line starting with '#' would read as a W3C directive */
            memmove(w->out->data + start + 3, w->out->data + start + 1, w->out->len - start - 1);
            memcpy(w->out->data + start, "%23", 3);
            w->out->len += 2;
        }
        done = t.p + t.n;
    }
    put_undecoded(w, done, (size_t)(s + n - done));
    w->spaced = spaced;
}

/* ----------------------------------------------------------------- JSON */

static void json_string(struct worker *w, struct span bytes)
{
    buf_reserve(w->out, 6 * bytes.n + 8); /* a field may be written more than once */
    put_raw(w, "\"", 1);
    put_mode(w, bytes.p, bytes.n, ESC_JSON);
    put_raw(w, "\"", 1);
}

static void json_key(struct worker *w, struct span name, const char *suffix)
{
    if (has_high_bytes(name.p, name.n)) /* JSON lines' keys: UTF-8 repaired */
        name = decode_bytes(w, name, &w->ctx->keep_all, 0);
    buf_reserve(w->out, 6 * name.n + 16);
    put_raw(w, ",\"", 2);
    put_mode(w, name.p, name.n, ESC_JSON);
    put_str(w, suffix);
    put_raw(w, "\":", 2);
}

static void json_key_str(struct worker *w, const char *name)
{
    json_key(w, span_of(name, name + strlen(name)), "");
}

/* Text not decoded: escapes undone, UTF-8 repaired; "-" is null. */
static void json_text(struct worker *w, const struct log_field *f, struct span t)
{
    if (span_is(t, "-") || (t.n == 0 && f->quote == FQ_BARE)) {
        put_str(w, "null");
        return;
    }
    t = field_text(w, f, t);
    json_string(w, decode_bytes(w, t, &w->ctx->keep_all, 0));
}

static void json_number(struct worker *w, const struct log_field *f)
{
    struct span v = f->v;
    int plain = v.n > 0 && v.n < 20 && (v.p[0] != '0' || v.n == 1 || v.p[1] == '.');
    size_t dots = 0;
    for (size_t i = 0; plain && i < v.n; i++) {
        plain = (v.p[i] >= '0' && v.p[i] <= '9') || (v.p[i] == '.' && i > 0 && i + 1 < v.n);
        dots += v.p[i] == '.';
    }
    if (plain && dots <= 1)
        put_raw(w, v.p, v.n);
    else
        json_text(w, f, v);
}

/* "query":[[name,value],...]: split at '&' and the first '=', each decoded. */
static void json_query(struct worker *w, struct span q)
{
    const struct log_config *cfg = &w->ctx->cfg;
    put_raw(w, "[", 1);
    const char *p = q.p, *e = q.p + q.n;
    int first = 1;
    while (p < e) {
        const char *amp = memchr(p, '&', (size_t)(e - p));
        const char *end = amp != NULL ? amp : e;
        if (end > p) {
            const char *eq = memchr(p, '=', (size_t)(end - p));
            const char *name_end = eq != NULL ? eq : end;
            const char *value = eq != NULL ? eq + 1 : end;
            put_str(w, first ? "[" : ",[");
            first = 0;
            const pct_set *keep = cfg->query == Q_KEEP ? &w->ctx->keep_all : NULL;
            unsigned flags = cfg->query == Q_KEEP ? 0 : query_flags(w);
            json_string(w, decode_bytes(w, span_of(p, name_end), keep, flags));
            put_raw(w, ",", 1);
            json_string(w, decode_bytes(w, span_of(value, end), keep, flags));
            put_raw(w, "]", 1);
        }
        p = end + (amp != NULL);
    }
    put_raw(w, "]", 1);
}

/* ,"origin":...,"path":...,"query":[...] of a target or absolute URL. */
static void json_url(struct worker *w, const struct log_field *f, struct span u)
{
    u = field_text(w, f, u); /* below, only B_DECODED is written */
    size_t origin = origin_length(u);
    if (origin > 0) {
        json_key_str(w, "origin");
        json_string(w, decode_bytes(w, span_of(u.p, u.p + origin), &w->ctx->keep_all, 0));
        u = span_of(u.p + origin, u.p + u.n);
    }
    const char *q = memchr(u.p, '?', u.n);
    json_key_str(w, "path");
    json_string(
        w, decode_bytes(w, span_of(u.p, q != NULL ? q : u.p + u.n), path_keep(w), path_flags(w)));
    json_key_str(w, "query");
    json_query(w, q != NULL ? span_of(q + 1, u.p + u.n) : span_of(u.p, u.p));
}

static void json_request(struct worker *w, const struct log_field *f)
{
    struct span method, target;
    if (!split_request(f->v, &method, &target)) {
        json_key_str(w, "method");
        put_str(w, "null");
        json_key_str(w, "path");
        json_text(w, f, f->v);
        json_key_str(w, "query");
        put_str(w, "[]");
        json_key_str(w, "protocol");
        put_str(w, "null");
        return;
    }
    json_key_str(w, "method");
    json_text(w, f, method);
    json_url(w, f, target);
    json_key_str(w, "protocol");
    const char *after = target.p + target.n, *e = f->v.p + f->v.n;
    if (after < e)
        json_text(w, f, span_of(after + 1, e));
    else
        put_str(w, "null");
}

static void json_time(struct worker *w, const struct log_record *r, const struct log_field *f)
{
    json_text(w, f, f->v);
    char iso[LOG_ISO_MAX];
    struct span date = {"", 0};
    const struct log_field *d = span_is(f->name, "time") ? record_find(r, "date") : NULL;
    if (d != NULL && d != f)
        date = d->v;
    else if (span_is(f->name, "date"))
        return; /* its time field gives date and time */
    size_t len = log_time_iso(date, f->v, iso);
    json_key(w, f->name, "_iso");
    if (len > 0)
        json_string(w, span_of(iso, iso + len));
    else
        put_str(w, "null");
}

static void json_record(struct worker *w, const struct log_record *r)
{
    put_str(w, "{\"format\":\"");
    put_str(w, log_format_name(r->format));
    put_raw(w, "\"", 1);
    int extras = 0;
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        if (f->name.n == 0) {
            extras++;
            continue;
        }
        switch (f->kind) {
        case K_REQUEST:
            json_request(w, f);
            break;
        case K_URL:
            if (span_is(f->v, "-")) {
                json_key_str(w, "path");
                put_str(w, "null");
            } else {
                json_url(w, f, f->v);
            }
            break;
        case K_PATH:
            json_key(w, f->name, "");
            if (span_is(f->v, "-"))
                put_str(w, "null");
            else
                json_string(w,
                            decode_bytes(w, field_text(w, f, f->v), path_keep(w), path_flags(w)));
            break;
        case K_QUERY: {
            json_key(w, f->name, "");
            struct span q = field_text(w, f, f->v);
            if (q.n > 0 && q.p[0] == '?')
                q = span_of(q.p + 1, q.p + q.n);
            json_query(w, span_is(q, "-") ? span_of(q.p, q.p) : q);
            break;
        }
        case K_TIME:
            json_key(w, f->name, "");
            json_time(w, r, f);
            break;
        case K_NUMBER:
            json_key(w, f->name, "");
            json_number(w, f);
            break;
        case K_REFERER:
            json_key(w, f->name, "");
            if (w->ctx->cfg.referer && !span_is(f->v, "-"))
                json_string(w,
                            decode_bytes(w, field_text(w, f, f->v), path_keep(w), path_flags(w)));
            else
                json_text(w, f, f->v);
            break;
        default:
            json_key(w, f->name, "");
            json_text(w, f, f->v);
        }
    }
    if (extras > 0) {
        put_str(w, ",\"extra\":[");
        int first = 1;
        for (int i = 0; i < r->n; i++) {
            if (r->f[i].name.n > 0)
                continue;
            if (!first)
                put_raw(w, ",", 1);
            first = 0;
            struct span t = field_text(w, &r->f[i], r->f[i].v);
            json_string(w, decode_bytes(w, t, &w->ctx->keep_all, 0));
        }
        put_raw(w, "]", 1);
    }
    put_raw(w, "}", 1);
}

/* -------------------------------------------------------------- TSV/CSV */

/* One value: a backslash, tab, CR, LF and other controls as \\ \t \r \n
 * \xHH (C1 controls too, unless --bytes); CSV then quotes a value holding
 * a comma, a quote or a space at either end. */
static void table_value(struct worker *w, struct span v)
{
    int csv = w->ctx->cfg.table == 'c';
    buf_reserve(w->out, 4 * v.n + 8); /* --fields may name a field many times */
    size_t clean = log_scan_find(&table_scan[csv], v.p, 0, v.n);
    int edge_space = csv && v.n > 0 && (v.p[0] == ' ' || v.p[v.n - 1] == ' ');
    if (clean == v.n && !edge_space) { /* most values: nothing to escape */
        put_raw(w, v.p, v.n);
        return;
    }
    char *o = w->out->data + w->out->len;
    int quote = csv && v.n > 0 &&
                (memchr(v.p, ',', v.n) != NULL || memchr(v.p, '"', v.n) != NULL || v.p[0] == ' ' ||
                 v.p[v.n - 1] == ' ');
    if (quote)
        *o++ = '"';
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < v.n; i++) {
        unsigned char c = (unsigned char)v.p[i];
        int c1 = c == 0xC2 && i + 1 < v.n && (unsigned char)v.p[i + 1] >= 0x80 &&
                 (unsigned char)v.p[i + 1] <= 0x9F && !w->ctx->cfg.bytes;
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
            *o++ = '\\';
            *o++ = c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
        } else if (c < 0x20 || c == 0x7f || c1) {
            for (int k = 0; k <= c1; k++) {
                c = (unsigned char)v.p[i + (size_t)k];
                *o++ = '\\';
                *o++ = 'x';
                *o++ = hex[c >> 4];
                *o++ = hex[c & 15];
            }
            i += (size_t)c1;
        } else if (c == '"' && quote) {
            *o++ = '"';
            *o++ = '"';
        } else {
            *o++ = (char)c;
        }
    }
    if (quote)
        *o++ = '"';
    w->out->len = (size_t)(o - w->out->data);
}

static void table_null(struct worker *w)
{
    if (w->ctx->cfg.table == 't')
        put_raw(w, "\\N", 2);
}

/* A column's field: by its name, or in JSON lines by the usual keys. */
static const struct log_field *table_find(const struct log_record *r, const char *name)
{
    const struct log_field *f = record_find(r, name);
    return f == NULL && r->format == LF_JSON ? json_line_field(r, name) : f;
}

/* The URL-bearing field of a record and its target. */
static const struct log_field *record_url(const struct log_record *r, struct span *target,
                                          struct span *rest)
{
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        struct span method;
        if (f->kind == K_REQUEST && split_request(f->v, &method, target)) {
            *rest = span_of(target->p + target->n, f->v.p + f->v.n);
            return f;
        }
        if (f->kind == K_URL && !span_is(f->v, "-")) {
            *target = f->v;
            *rest = span_of(f->v.p, f->v.p);
            return f;
        }
    }
    return NULL;
}

/* Puts the value of a request-derived column; 0 if it is not one. */
static int table_url_part(struct worker *w, const struct log_record *r, const char *name, int which)
{
    if (which < COL_METHOD || which > COL_ORIGIN)
        return 0;
    const struct log_field *plain = table_find(r, name);
    if (plain != NULL && plain->kind != K_REQUEST && plain->kind != K_URL) {
        if (span_is(plain->v, "-") || plain->v.n == 0) {
            table_null(w);
            return 1;
        }
        struct span t = field_text(w, plain, plain->v);
        if (plain->kind == K_PATH)
            table_value(w, decode_bytes(w, t, path_keep(w), path_flags(w)));
        else if (plain->kind == K_QUERY)
            table_value(w,
                        decode_bytes(w, t.n > 0 && t.p[0] == '?' ? span_of(t.p + 1, t.p + t.n) : t,
                                     &w->ctx->keep_query, query_flags(w)));
        else
            table_value(w, decode_bytes(w, t, &w->ctx->keep_all, 0));
        return 1;
    }
    struct span target, rest;
    const struct log_field *f = record_url(r, &target, &rest);
    if (f == NULL) {
        table_null(w);
        return 1;
    }
    if (which == COL_METHOD || which == COL_PROTOCOL) {
        struct span v = which == COL_METHOD
                            ? span_of(f->v.p, target.p > f->v.p ? target.p - 1 : f->v.p)
                            : span_of(rest.p + (rest.n > 0), rest.p + rest.n);
        if (v.n == 0)
            table_null(w);
        else
            table_value(w, decode_bytes(w, field_text(w, f, v), &w->ctx->keep_all, 0));
        return 1;
    }
    struct span u = field_text(w, f, target); /* below, only B_DECODED is written */
    size_t origin = origin_length(u);
    const char *q = memchr(u.p + origin, '?', u.n - origin);
    if (which == COL_ORIGIN)
        table_value(w, span_of(u.p, u.p + origin));
    else if (which == COL_PATH)
        table_value(w, decode_bytes(w, span_of(u.p + origin, q != NULL ? q : u.p + u.n),
                                    path_keep(w), path_flags(w)));
    else if (q == NULL)
        table_null(w);
    else if (w->ctx->cfg.query == Q_KEEP)
        table_value(w, decode_bytes(w, span_of(q + 1, u.p + u.n), &w->ctx->keep_all, 0));
    else
        table_value(
            w, decode_bytes(w, span_of(q + 1, u.p + u.n), &w->ctx->keep_query, query_flags(w)));
    return 1;
}

static void table_column(struct worker *w, const char *s, size_t n, const struct log_record *r,
                         const char *name, int column)
{
    if (column == COL_FORMAT) {
        put_str(w, log_format_name(r->format));
        return;
    }
    if (column == COL_LINE) {
        table_value(w, decode_bytes(w, span_of(s, s + n), &w->ctx->keep_all, 0));
        return;
    }
    if (table_url_part(w, r, name, column))
        return;
    if (column == COL_ISO) {
        size_t len = strlen(name);
        for (int i = 0; i < r->n; i++) {
            const struct log_field *f = &r->f[i];
            if (f->kind == K_TIME && f->name.n == len - 4 &&
                memcmp(f->name.p, name, len - 4) == 0) {
                char iso[LOG_ISO_MAX];
                const struct log_field *d =
                    span_is(f->name, "time") ? record_find(r, "date") : NULL;
                struct span date = d != NULL ? d->v : span_of("", "");
                size_t k = log_time_iso(date, f->v, iso);
                if (k > 0)
                    table_value(w, span_of(iso, iso + k));
                else
                    table_null(w);
                return;
            }
        }
    }
    const struct log_field *f = table_find(r, name);
    if (f == NULL || span_is(f->v, "-") || (f->v.n == 0 && f->quote == FQ_BARE)) {
        table_null(w);
        return;
    }
    struct span t = field_text(w, f, f->v);
    if (f->kind == K_REFERER && w->ctx->cfg.referer)
        table_value(w, decode_bytes(w, t, path_keep(w), path_flags(w)));
    else
        table_value(w, decode_bytes(w, t, &w->ctx->keep_all, 0));
}

static void table_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    for (int i = 0; i < table_count; i++) {
        if (i > 0)
            put_raw(w, w->ctx->cfg.table == 'c' ? "," : "\t", 1);
        table_column(w, s, n, r, table_names[i], table_columns[i]);
    }
}

void table_unparsed(struct worker *w, const char *s, size_t n, int directive)
{
    buf_reserve(w->out, 8 * n + 16 * (size_t)table_count + 64);
    w->st->unparsed += (uint64_t)!directive;
    for (int i = 0; i < table_count; i++) {
        if (i > 0)
            put_raw(w, w->ctx->cfg.table == 'c' ? "," : "\t", 1);
        if (table_columns[i] == COL_FORMAT)
            put_str(w, directive ? "directive" : "unparsed");
        else if (table_columns[i] == COL_LINE)
            table_value(w, decode_bytes(w, span_of(s, s + n), &w->ctx->keep_all, 0));
        else
            table_null(w);
    }
}

/* ---------------------------------------------------------------- entry */

static void write_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    /* Room: every field escaped 6 times over, and the keys (see
     * process_chunk for the line itself). */
    buf_reserve(w->out, 24 * n + 64 * LOG_RECORD_MAX + 1024);
    w->st->formats[r->format]++;
    if (w->ctx->cfg.table)
        table_record(w, s, n, r);
    else if (w->ctx->cfg.json)
        json_record(w, r);
    else
        line_record(w, s, n, r);
}

/* A combined or common line as the fast path parsed it, as a record. */
static int record_from_access(const char *s, size_t n, const struct access *a, int common,
                              struct log_record *r)
{
    r->n = 0;
    r->names_len = 0;
    r->format = a->has_ra && !common ? LF_COMBINED : LF_COMMON;
    /* parse_access: "remote ident user [time]", single spaces */
    const char *ident = a->remote.p + a->remote.n + 1, *user_end = a->time.p - 2;
    const char *space = memchr(ident, ' ', (size_t)(user_end - ident));
    if (space == NULL)
        return 0;
    record_add(r, "remote", a->remote, K_TEXT, FQ_BARE);
    record_add(r, "ident", span_of(ident, space), K_TEXT, FQ_BARE);
    record_add(r, "user", span_of(space + 1, user_end), K_TEXT, FQ_BARE);
    record_add(r, "time", a->time, K_TIME, FQ_BARE);
    record_add(r, "request", a->request, K_REQUEST, FQ_QUOTED);
    record_add(r, "status", a->status, K_NUMBER, FQ_BARE);
    record_add(r, "bytes", a->bytes, K_NUMBER, FQ_BARE);
    const char *rest = a->bytes.p + a->bytes.n;
    if (r->format == LF_COMBINED) {
        record_add(r, "referer", a->referer, K_REFERER, FQ_QUOTED);
        record_add(r, "agent", a->agent, K_TEXT, FQ_QUOTED);
        rest = a->agent.p + a->agent.n + 1;
    }
    return template_add_trailing(r, rest, s + n);
}

int record_process(struct worker *w, const char *s, size_t n, enum format fmt)
{
    const struct log_config *cfg = &w->ctx->cfg;
    struct log_record r;
    struct access a;
    int ok;
    /* Combined and common: the fast path's parser first (it takes what
     * line output takes). */
    if ((fmt == FMT_AUTO || fmt == FMT_COMBINED || fmt == FMT_COMMON) &&
        parse_access(s, n, &a, 1) && (fmt != FMT_COMBINED || a.has_ra) &&
        record_from_access(s, n, &a, fmt == FMT_COMMON, &r)) {
        write_record(w, s, n, &r);
        return 1;
    }
    if (fmt == FMT_RECORD)
        ok = record_parse(cfg->record_format, s, n, &r, cfg);
    else if (fmt == FMT_COMBINED)
        ok = record_parse(LF_COMBINED, s, n, &r, cfg);
    else if (fmt == FMT_COMMON)
        ok = record_parse(LF_COMMON, s, n, &r, cfg);
    else
        ok = record_detect(s, n, &r, cfg);
    if (!ok)
        return 0;
    write_record(w, s, n, &r);
    return 1;
}

void record_process_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                        const struct w3c_layout *l)
{
    struct log_record r;
    r.n = 0;
    r.names_len = 0;
    r.format = l->cloudfront ? LF_CLOUDFRONT : LF_W3C;
    for (int i = 0; i < count && i < LOG_RECORD_MAX; i++) {
        int kind;
        const char *name = w3c_field_name(l->names[i], &kind);
        record_add(&r, name, f[i], kind, l->cloudfront ? FQ_TAB : FQ_BARE);
        r.f[r.n - 1].layers = (unsigned char)l->cloudfront;
    }
    write_record(w, s, n, &r);
}

int access_has_trailing(const char *s, size_t n, struct span agent)
{
    const char *p = agent.p + agent.n + 1, *e = s + n; /* past the closing quote */
    if (p >= e || (*p != ' ' && *p != '\t'))
        return 0; /* nothing, or not a field of its own */
    for (; p < e; p++)
        if (*p != ' ' && *p != '\t')
            return 1;
    return 0;
}
