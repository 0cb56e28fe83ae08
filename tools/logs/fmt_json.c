/* fmt_json.c - reading a JSON-lines access log line into a record. The
 * object is checked as it is read: a line that is not one whole JSON
 * object is not this format. */
#include <string.h>

#include "fmt_access.h"
#include "fmt_json.h"
#include "log_time.h"

#define JSON_MAX_DEPTH 8

/* JSON null reads as a log's "-": no value. */
static const char dash[] = "-";

/* Keys that hold the request's URL, in the order they are looked for:
 * Caddy, Traefik, nginx (escape=json) and common hand-made formats. */
static const char *const url_keys[] = {"request.uri", "RequestPath", "request_uri", "uri",
                                       "url",         "path",        "request"};

static const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The 4 hex digits at p (p + 4 <= e checked by the caller), or -1. */
static long hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(p[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* p after the opening quote: the closing quote, or NULL (also when an
 * escape is not one of JSON's). */
static const char *string_end(const char *p, const char *e)
{
    for (; p < e; p++) {
        if (*p == '\\') {
            if (++p == e)
                return NULL;
            if (*p == 'u') {
                if (e - p < 5 || hex4(p + 1) < 0)
                    return NULL;
                p += 4;
            } else if (strchr("\"\\/bfnrt", *p) == NULL || *p == '\0') {
                return NULL;
            }
        } else if (*p == '"') {
            return p;
        } else if ((unsigned char)*p < 0x20) {
            return NULL;
        }
    }
    return NULL;
}

static const char *skip_value(const char *p, const char *e, int depth);

static const char *skip_container(const char *p, const char *e, int depth, char close)
{
    if (depth > JSON_MAX_DEPTH)
        return NULL;
    p = skip_ws(p + 1, e);
    if (p < e && *p == close)
        return p + 1;
    for (;;) {
        if (close == '}') {
            if (p == e || *p != '"' || (p = string_end(p + 1, e)) == NULL)
                return NULL;
            p = skip_ws(p + 1, e);
            if (p == e || *p++ != ':')
                return NULL;
        }
        if ((p = skip_value(skip_ws(p, e), e, depth + 1)) == NULL)
            return NULL;
        p = skip_ws(p, e);
        if (p < e && *p == ',') {
            p = skip_ws(p + 1, e);
            continue;
        }
        return p < e && *p == close ? p + 1 : NULL;
    }
}

static const char *digits_end(const char *p, const char *e)
{
    while (p < e && *p >= '0' && *p <= '9')
        p++;
    return p;
}

/* The end of the number at p as JSON writes one
 * (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), or NULL. */
static const char *number_end(const char *p, const char *e)
{
    p += p < e && *p == '-';
    if (p == e || *p < '0' || *p > '9')
        return NULL;
    p = *p == '0' ? p + 1 : digits_end(p, e);
    if (p < e && *p == '.') {
        const char *d = ++p;
        if ((p = digits_end(p, e)) == d)
            return NULL;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        p += p < e && (*p == '+' || *p == '-');
        const char *d = p;
        if ((p = digits_end(p, e)) == d)
            return NULL;
    }
    return p;
}

/* The end of true, false, null or a number at p, or NULL. */
static const char *literal_end(const char *p, const char *e)
{
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(e - p) >= n && memcmp(p, words[i], n) == 0)
            return p + n;
    }
    return number_end(p, e);
}

/* The end of the value at p (a string, number, literal, array or object). */
static const char *skip_value(const char *p, const char *e, int depth)
{
    if (p == e)
        return NULL;
    if (*p == '"') {
        const char *q = string_end(p + 1, e);
        return q != NULL ? q + 1 : NULL;
    }
    if (*p == '{' || *p == '[')
        return skip_container(p, e, depth, *p == '{' ? '}' : ']');
    return literal_end(p, e);
}

/* Writes code point c as UTF-8 at o; returns the end. */
static char *put_utf8(char *o, unsigned long c)
{
    if (c < 0x80) {
        *o++ = (char)c;
    } else if (c < 0x800) {
        *o++ = (char)(0xc0 | c >> 6);
        *o++ = (char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        *o++ = (char)(0xe0 | c >> 12);
        *o++ = (char)(0x80 | (c >> 6 & 0x3f));
        *o++ = (char)(0x80 | (c & 0x3f));
    } else {
        *o++ = (char)(0xf0 | c >> 18);
        *o++ = (char)(0x80 | (c >> 12 & 0x3f));
        *o++ = (char)(0x80 | (c >> 6 & 0x3f));
        *o++ = (char)(0x80 | (c & 0x3f));
    }
    return o;
}

/* A key's text [p, e) (checked by string_end) with its escapes undone, at
 * o; returns the end. Never longer than the key as written; a lone
 * surrogate becomes U+FFFD. */
static char *unescape_key(char *o, const char *p, const char *e)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    while (p < e) {
        if (*p != '\\') {
            *o++ = *p++;
            continue;
        }
        if (p[1] != 'u') {
            *o++ = to[strchr(from, p[1]) - from];
            p += 2;
            continue;
        }
        unsigned long c = (unsigned long)hex4(p + 2);
        p += 6;
        if (c >= 0xd800 && c < 0xdc00 && e - p >= 6 && p[0] == '\\' && p[1] == 'u') {
            long low = hex4(p + 2);
            if (low >= 0xdc00 && low < 0xe000) {
                c = 0x10000 + ((c - 0xd800) << 10) + (unsigned long)(low - 0xdc00);
                p += 6;
            }
        }
        if (c >= 0xd800 && c < 0xe000)
            c = 0xfffd; /* 3 bytes: no more than the 6 of its escape */
        o = put_utf8(o, c);
    }
    return o;
}

/* "prefix.key" in the record's name space, the key's escapes undone (so
 * "pa\u0074h" is path); an empty span when it is full. */
static struct span add_name(struct log_record *r, struct span prefix, struct span key)
{
    size_t need = prefix.n + (prefix.n > 0) + key.n; /* unescaped: at most that */
    struct span none = {"", 0};
    if (need > sizeof r->names - r->names_len)
        return none;
    char *o = r->names + r->names_len, *start = o;
    memcpy(o, prefix.p, prefix.n);
    o += prefix.n;
    if (prefix.n > 0)
        *o++ = '.';
    if (memchr(key.p, '\\', key.n) != NULL) {
        o = unescape_key(o, key.p, key.p + key.n);
    } else {
        memcpy(o, key.p, key.n);
        o += key.n;
    }
    r->names_len += (size_t)(o - start);
    return span_of(start, o);
}

/* The members of the object at p, with their key paths under prefix. */
static const char *read_object(const char *p, const char *e, struct log_record *r,
                               struct span prefix, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return NULL;
    p = skip_ws(p + 1, e);
    if (p < e && *p == '}')
        return p + 1;
    for (;;) {
        const char *k, *ke;
        if (p == e || *p != '"' || (ke = string_end(k = p + 1, e)) == NULL)
            return NULL;
        p = skip_ws(ke + 1, e);
        if (p == e || *p++ != ':')
            return NULL;
        p = skip_ws(p, e);
        struct span name = add_name(r, prefix, span_of(k, ke));
        if (name.n == 0 && ke > k)
            return NULL; /* no room for its name: the line is not taken */
        const char *v = p;
        if (p < e && *p == '{' && name.n > 0) {
            if ((p = read_object(p, e, r, name, depth + 1)) == NULL)
                return NULL;
        } else {
            if ((p = skip_value(p, e, depth + 1)) == NULL)
                return NULL;
            if (r->n == LOG_RECORD_MAX)
                return NULL; /* more members than a record holds: not taken */
            struct log_field *f = &r->f[r->n++];
            memset(f, 0, sizeof *f);
            f->name = name;
            if (*v == '"') {
                f->v = span_of(v + 1, p - 1);
                f->quote = FQ_JSON;
            } else if (*v == '{' || *v == '[') {
                f->v = span_of(v, p); /* an array, or an object too deep for a name */
                f->quote = FQ_BARE;
            } else if (span_is(span_of(v, p), "null")) {
                f->v = span_of(dash, dash + 1); /* null: no value, as a log's "-" */
                f->quote = FQ_BARE;
            } else {
                f->v = span_of(v, p); /* a number, true or false: kept so in JSON */
                f->kind = K_LITERAL;
                f->quote = FQ_BARE;
            }
        }
        p = skip_ws(p, e);
        if (p < e && *p == ',') {
            p = skip_ws(p + 1, e);
            continue;
        }
        return p < e && *p == '}' ? p + 1 : NULL;
    }
}

static struct log_field *find_field(struct log_record *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (r->f[i].name.n > 0 && span_is(r->f[i].name, name))
            return &r->f[i];
    return NULL;
}

/* The keys Caddy, Traefik and nginx (escape=json, by its variables' names)
 * give the fields the other formats share. */
static const struct {
    const char *name;
    const char *keys[6];
} aliases[] = {
    {"remote",
     {"request.remote_ip", "request.client_ip", "ClientHost", "ClientAddr", "remote_addr"}},
    {"time", {"ts", "time", "StartUTC", "time_local", "time_iso8601", "timestamp"}},
    {"method", {"request.method", "RequestMethod", "request_method"}},
    {"status", {"DownstreamStatus", "status"}},
    {"bytes", {"size", "DownstreamContentSize", "body_bytes_sent", "bytes_sent"}},
    {"referer", {"request.headers.Referer", "request_Referer", "http_referer"}},
    {"agent", {"request.headers.User-Agent", "request_User-Agent", "http_user_agent"}},
};

const struct log_field *json_line_field(const struct log_record *r, const char *name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++) {
        if (strcmp(aliases[i].name, name) != 0)
            continue;
        for (int k = 0; k < 6 && aliases[i].keys[k] != NULL; k++) {
            const struct log_field *f = record_find(r, aliases[i].keys[k]);
            if (f != NULL)
                return f;
        }
    }
    return NULL;
}

/* time_iso, as the other formats have it: the ISO 8601 form of the time
 * field (json_line_field), null when it is not a time. In the record's name
 * space; not when the line has a time_iso key of its own. */
static void add_time_iso(struct log_record *r)
{
    const struct log_field *t = json_line_field(r, "time");
    static const char name[] = "time_iso";
    if (t == NULL || find_field(r, name) != NULL || r->n == LOG_RECORD_MAX ||
        sizeof r->names - r->names_len < LOG_ISO_MAX)
        return;
    char *iso = r->names + r->names_len;
    size_t n = span_is(t->v, "-") ? 0 : log_time_iso(span_of("", ""), t->v, iso);
    r->names_len += n;
    record_add(r, name, n > 0 ? span_of(iso, iso + n) : span_of(dash, dash + 1), K_TEXT, FQ_BARE);
}

/* A target's record (request_uri, uri...): its method and protocol from
 * the line's request line ("request", nginx's $request), as fields named so
 * (not when the line has such keys). */
static void add_request_parts(struct log_record *r)
{
    const struct log_field *request = find_field(r, "request");
    struct span method, target;
    if (request == NULL || request->quote != FQ_JSON ||
        !split_request(request->v, &method, &target))
        return;
    const struct span line = request->v;
    const char *after = target.p + target.n, *end = line.p + line.n;
    if (find_field(r, "method") == NULL)
        record_add(r, "method", method, K_TEXT, FQ_JSON);
    if (after < end && find_field(r, "protocol") == NULL)
        record_add(r, "protocol", span_of(after + 1, end), K_TEXT, FQ_JSON);
}

int json_line_parse(const char *s, size_t n, struct log_record *r, const char *key)
{
    const char *e = s + n, *p = skip_ws(s, e);
    struct span top = {"", 0};
    if (p == e || *p != '{' || (p = read_object(p, e, r, top, 0)) == NULL || skip_ws(p, e) != e)
        return 0;
    struct log_field *url = NULL;
    if (key != NULL) {
        url = find_field(r, key);
    } else {
        /* The first usual key with a URL: nginx writes "" for the
         * $request_uri of a request it refused, whose $request it has. */
        struct log_field *first = NULL;
        for (size_t i = 0; url == NULL && i < sizeof url_keys / sizeof *url_keys; i++) {
            struct log_field *f = find_field(r, url_keys[i]);
            if (first == NULL)
                first = f;
            if (f != NULL && f->quote == FQ_JSON && f->v.n > 0)
                url = f;
        }
        if (url == NULL)
            url = first; /* all empty: the first (an empty target) */
    }
    if (url == NULL || url->quote != FQ_JSON)
        return 0;
    /* "GET /x HTTP/1.1" (nginx $request, whose blanks may be tabs: "\t") or
     * a target alone */
    url->kind = span_is(url->name, "request") || memchr(url->v.p, ' ', url->v.n) != NULL ? K_REQUEST
                                                                                         : K_URL;
    struct log_field *referer = find_field(r, "http_referer");
    if (referer != NULL && referer->quote == FQ_JSON)
        referer->kind = K_REFERER;
    if (url->kind == K_URL)
        add_request_parts(r);
    add_time_iso(r);
    return 1;
}
