/* fmt_json.c - reading a JSON-lines access log line into a record. The
 * object is checked as it is read: a line that is not one whole JSON
 * object is not this format. */
#include <string.h>

#include "fmt_json.h"

#define JSON_MAX_DEPTH 8

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

/* p after the opening quote: the closing quote, or NULL. */
static const char *string_end(const char *p, const char *e)
{
    for (; p < e; p++) {
        if (*p == '\\') {
            if (++p == e)
                return NULL;
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
    const char *q = p;
    while (q < e && (((*q | 0x20) >= 'a' && (*q | 0x20) <= 'z') || (*q >= '0' && *q <= '9') ||
                     *q == '-' || *q == '+' || *q == '.'))
        q++;
    return q > p ? q : NULL;
}

/* "prefix.key" in the record's name space; an empty span when it is full. */
static struct span add_name(struct log_record *r, struct span prefix, struct span key)
{
    size_t need = prefix.n + (prefix.n > 0) + key.n;
    struct span none = {"", 0};
    if (need > sizeof r->names - r->names_len)
        return none;
    char *o = r->names + r->names_len;
    memcpy(o, prefix.p, prefix.n);
    if (prefix.n > 0)
        o[prefix.n] = '.';
    memcpy(o + need - key.n, key.p, key.n);
    r->names_len += need;
    return span_of(o, o + need);
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
        const char *v = p;
        if (p < e && *p == '{' && name.n > 0) {
            if ((p = read_object(p, e, r, name, depth + 1)) == NULL)
                return NULL;
        } else {
            if ((p = skip_value(p, e, depth + 1)) == NULL)
                return NULL;
            if (r->n < LOG_RECORD_MAX) {
                struct log_field *f = &r->f[r->n++];
                memset(f, 0, sizeof *f);
                f->name = name;
                if (*v == '"') {
                    f->v = span_of(v + 1, p - 1);
                    f->quote = FQ_JSON;
                } else {
                    f->v = span_is(span_of(v, p), "null") ? span_of("-", "-" + 1) : span_of(v, p);
                    f->kind = *v == '-' || (*v >= '0' && *v <= '9') ? K_NUMBER : K_TEXT;
                    f->quote = FQ_BARE;
                }
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
        for (size_t i = 0; url == NULL && i < sizeof url_keys / sizeof *url_keys; i++)
            url = find_field(r, url_keys[i]);
    }
    if (url == NULL || url->quote != FQ_JSON)
        return 0;
    /* "GET /x HTTP/1.1" (nginx $request) or a target alone */
    url->kind = memchr(url->v.p, ' ', url->v.n) != NULL ? K_REQUEST : K_URL;
    struct log_field *referer = find_field(r, "http_referer");
    if (referer != NULL && referer->quote == FQ_JSON)
        referer->kind = K_REFERER;
    return 1;
}
