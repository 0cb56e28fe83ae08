/* fmt_template.c - compiling nginx and Apache format strings into templates,
 * and matching lines against them. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "fmt_haproxy.h"
#include "fmt_template.h"
#include "log_cut.h"
#include "log_scan.h"

_Static_assert(TEMPLATE_MAX_ITEMS <= LOG_RECORD_MAX, "a template's fields fit a record");

/* A variable or directive and the field it makes. */
struct known_field {
    const char *var; /* nginx variable, or Apache directive/header */
    const char *name;
    unsigned char kind;
};

static const struct known_field nginx_fields[] = {
    {"remote_addr", "remote", K_TEXT},
    {"remote_user", "user", K_TEXT},
    {"time_local", "time", K_TIME},
    {"time_iso8601", "time", K_TIME},
    {"msec", "time", K_TIME},
    {"request", "request", K_REQUEST},
    {"request_uri", "url", K_URL},
    {"uri", "path", K_PATH},
    {"document_uri", "path", K_PATH},
    {"args", "query", K_QUERY},
    {"query_string", "query", K_QUERY},
    {"request_method", "method", K_TEXT},
    {"server_protocol", "protocol", K_TEXT},
    {"status", "status", K_NUMBER},
    {"body_bytes_sent", "bytes", K_NUMBER},
    {"bytes_sent", "bytes_sent", K_NUMBER},
    {"request_length", "request_length", K_NUMBER},
    {"request_time", "request_time", K_NUMBER},
    {"http_referer", "referer", K_REFERER},
    {"http_user_agent", "agent", K_TEXT},
    {"http_x_forwarded_for", "forwarded_for", K_LIST},
    {"upstream_response_time", "upstream_response_time", K_LIST},
    {"upstream_addr", "upstream_addr", K_LIST},
    {"upstream_status", "upstream_status", K_LIST},
    {"server_port", "port", K_NUMBER},
    {"remote_port", "remote_port", K_NUMBER},
};

/* Apache: one-letter directives ("t" is handled apart: it adds brackets). */
static const struct known_field apache_fields[] = {
    {"a", "remote", K_TEXT},        {"A", "local_addr", K_TEXT},
    {"b", "bytes", K_NUMBER},       {"B", "bytes", K_NUMBER},
    {"O", "bytes", K_NUMBER},       {"I", "bytes_received", K_NUMBER},
    {"S", "bytes_total", K_NUMBER}, {"D", "duration_us", K_NUMBER},
    {"T", "duration", K_NUMBER},    {"f", "filename", K_TEXT},
    {"h", "remote", K_TEXT},        {"H", "protocol", K_TEXT},
    {"k", "keepalive", K_NUMBER},   {"l", "ident", K_TEXT},
    {"L", "log_id", K_TEXT},        {"m", "method", K_TEXT},
    {"p", "port", K_NUMBER},        {"P", "pid", K_NUMBER},
    {"q", "query", K_QUERY},        {"r", "request", K_REQUEST},
    {"R", "handler", K_TEXT},       {"s", "status", K_NUMBER},
    {"u", "user", K_TEXT},          {"U", "path", K_PATH},
    {"v", "vhost", K_TEXT},         {"V", "server_name", K_TEXT},
    {"X", "connection", K_TEXT},
};

/* Apache %{Header}i: the usual ones by their usual names. */
static const struct known_field apache_headers[] = {
    {"referer", "referer", K_REFERER},
    {"user-agent", "agent", K_TEXT},
    {"x-forwarded-for", "forwarded_for", K_LIST},
    {"host", "host", K_TEXT},
};

static const char *const kind_letters = "tnTrupqRl"; /* ${name:k}: enum field_kind order */

enum template_syntax template_guess_syntax(const char *text)
{
    if (haproxy_is_format(text))
        return SYNTAX_HAPROXY;
    for (const char *p = strchr(text, '$'); p != NULL; p = strchr(p + 1, '$'))
        if (isalpha((unsigned char)p[1]) || p[1] == '_' || p[1] == '{')
            return SYNTAX_NGINX;
    return SYNTAX_APACHE;
}

/* Appends c to the literal of the current item. */
const char *template_add_literal(struct log_template *t, char c)
{
    struct template_item *it = &t->item[t->count];
    size_t n = strlen(it->lit);
    if (n + 1 >= sizeof it->lit)
        return "literal text between two fields is too long (95 bytes at most)";
    it->lit[n] = c;
    it->lit[n + 1] = '\0';
    return NULL;
}

/* Ends the current item with a field; the next item starts empty. */
const char *template_add_field(struct log_template *t, const char *name, size_t name_n, int kind)
{
    struct template_item *it = &t->item[t->count];
    if (t->count > 0 && it->lit[0] == '\0') {
        /* %U%q, $uri$is_args$args: a path and its query, one URL */
        struct template_item *prev = &t->item[t->count - 1];
        if (prev->kind == K_PATH && (kind == K_QUERY || strncmp(name, "is_args", name_n) == 0)) {
            if (kind == K_QUERY) {
                prev->kind = K_URL;
                strcpy(prev->name, "url");
            }
            return NULL;
        }
        return "two fields with no text between them cannot be told apart";
    }
    if (t->count + 1 >= TEMPLATE_MAX_ITEMS)
        return "too many fields (63 at most)";
    if (name_n + 3 >= sizeof it->name)
        name_n = sizeof it->name - 4;
    memcpy(it->name, name, name_n);
    it->name[name_n] = '\0';
    for (int i = 0; i < t->count; i++) /* a name twice: the second is NAME_2 */
        if (strcmp(t->item[i].name, it->name) == 0) {
            memcpy(it->name + name_n, "_2", 3);
            break;
        }
    it->kind = (unsigned char)kind;
    t->count++;
    memset(&t->item[t->count], 0, sizeof t->item[t->count]);
    return NULL;
}

static const struct known_field *find_known(const struct known_field *list, size_t count,
                                            const char *var, size_t n, int fold)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(list[i].var) == n &&
            (fold ? strncasecmp(list[i].var, var, n) == 0 : strncmp(list[i].var, var, n) == 0))
            return &list[i];
    return NULL;
}

/* nginx: $name or ${name}; ${name:k} also gives the kind (built-ins). */
static const char *compile_nginx(struct log_template *t, const char *p)
{
    const char *error = NULL;
    while (*p && error == NULL) {
        if (*p != '$') {
            error = template_add_literal(t, *p++);
            continue;
        }
        p++;
        int braced = *p == '{';
        p += braced;
        const char *name = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t n = (size_t)(p - name);
        if (n == 0)
            return "'$' without a variable name";
        int kind = -1;
        if (braced && *p == ':' && p[1] != '\0' && strchr(kind_letters, p[1]) != NULL) {
            kind = (int)(strchr(kind_letters, p[1]) - kind_letters);
            p += 2;
        }
        if (braced && *p++ != '}')
            return "'${' without its '}'";
        const struct known_field *k =
            find_known(nginx_fields, sizeof nginx_fields / sizeof *nginx_fields, name, n, 0);
        if (k != NULL && kind < 0)
            error = template_add_field(t, k->name, strlen(k->name), k->kind);
        else
            error = template_add_field(t, name, n, kind < 0 ? K_TEXT : kind);
    }
    return error;
}

/* A header name as a field name: lower case, '-' as '_'. */
static const char *header_field(struct log_template *t, const char *h, size_t n, const char *prefix)
{
    char name[40];
    size_t len = strlen(prefix);
    memcpy(name, prefix, len);
    for (size_t i = 0; i < n && len + 1 < sizeof name; i++)
        name[len++] = h[i] == '-' ? '_' : (char)tolower((unsigned char)h[i]);
    return template_add_field(t, name, len, K_TEXT);
}

/* Apache: %X, %>X, %{arg}X (modifiers such as %400,501{...}i skipped). */
static const char *compile_apache(struct log_template *t, const char *p)
{
    const char *error = NULL;
    while (*p && error == NULL) {
        if (*p == '\\' && (p[1] == '"' || p[1] == 't' || p[1] == 'n')) { /* as in httpd.conf */
            error = template_add_literal(t, p[1] == 't' ? '\t' : p[1] == 'n' ? '\n' : '"');
            p += 2;
            continue;
        }
        if (*p != '%') {
            error = template_add_literal(t, *p++);
            continue;
        }
        p++;
        if (*p == '%') {
            error = template_add_literal(t, *p++);
            continue;
        }
        while (*p == '<' || *p == '>' || *p == '!' || *p == ',' || isdigit((unsigned char)*p))
            p++;
        const char *arg = NULL;
        size_t arg_n = 0;
        if (*p == '{') {
            arg = ++p;
            while (*p && *p != '}')
                p++;
            if (*p != '}')
                return "'%{' without its '}'";
            arg_n = (size_t)(p - arg);
            p++;
        }
        char d = *p;
        if (d == '\0')
            return "'%' at the end of the format";
        p++;
        const struct known_field *k;
        if (d == 't' && arg == NULL) { /* [10/Oct/2000:13:55:36 -0700] */
            if ((error = template_add_literal(t, '[')) == NULL &&
                (error = template_add_field(t, "time", 4, K_TIME)) == NULL)
                error = template_add_literal(t, ']');
        } else if (d == 't') {
            error = template_add_field(t, "time", 4, K_TIME);
        } else if (d == 'i' && arg != NULL &&
                   (k = find_known(apache_headers, sizeof apache_headers / sizeof *apache_headers,
                                   arg, arg_n, 1)) != NULL) {
            error = template_add_field(t, k->name, strlen(k->name), k->kind);
        } else if (arg != NULL && strchr("ioCen", d) != NULL) { /* headers, cookies, notes */
            error = header_field(t, arg, arg_n, d == 'o' ? "resp_" : d == 'C' ? "cookie_" : "");
        } else if ((k = find_known(apache_fields, sizeof apache_fields / sizeof *apache_fields, &d,
                                   1, 0)) != NULL) {
            error = template_add_field(t, k->name, strlen(k->name), k->kind);
        } else {
            return "unknown Apache directive";
        }
    }
    return error;
}

const char *template_compile(struct log_template *t, const char *text, enum template_syntax syntax)
{
    memset(t, 0, sizeof *t);
    const char *error = syntax == SYNTAX_NGINX     ? compile_nginx(t, text)
                        : syntax == SYNTAX_HAPROXY ? haproxy_compile(t, text)
                                                   : compile_apache(t, text);
    if (error != NULL)
        return error;
    if (t->count == 0)
        return "no field in the format";
    if (t->item[t->count].lit[0] != '\0')
        t->count++; /* the text after the last field */
    /* Quoted: the literal before the field ends with '"'. Quoted fields
     * hold Apache/nginx escapes and may be empty. */
    for (int i = 0; i < t->count; i++) {
        struct template_item *it = &t->item[i];
        size_t n = strlen(it->lit);
        int quoted = n > 0 && it->lit[n - 1] == '"';
        it->quote = quoted ? FQ_QUOTED : FQ_BARE;
        it->may_be_empty = (unsigned char)(quoted || it->kind == K_QUERY || it->kind == K_LIST);
        it->lit_n = (unsigned char)n;
        it->name_n = (unsigned char)strlen(it->name);
    }
    return NULL;
}

/* Matches lit at p: a space in lit matches a run of spaces. Returns the end
 * of the match or NULL. */
static const char *match_lit(const char *p, const char *e, const char *lit)
{
    for (; *lit; lit++) {
        if (p == e)
            return NULL;
        if (*lit == ' ') {
            if (*p != ' ')
                return NULL;
            while (p < e && *p == ' ')
                p++;
            continue;
        }
        if (*p != *lit)
            return NULL;
        p++;
    }
    return p;
}

/* The closing '"' of a quoted field: not escaped by a backslash. */
static const char *close_quote(const char *p, const char *e)
{
    for (; p < e; p++) {
        if (*p == '\\' && p + 1 < e)
            p++;
        else if (*p == '"')
            return p;
    }
    return NULL;
}

/* Where a field starting at p ends: before the next literal next (or for
 * the last field, at a space). *after: past the literal. NULL: no match. */
static const char *field_end(const struct template_item *it, const char *next, const char *p,
                             const char *e, const char **after)
{
    if (next[0] == '\0') { /* the last field: to a space or the end */
        const char *q = p;
        while (q < e && *q != ' ' && *q != '\t')
            q++;
        *after = q;
        return q;
    }
    if (it->quote == FQ_QUOTED && next[0] == '"') {
        for (const char *q = p; (q = close_quote(q, e)) != NULL; q++) {
            /* the last literal: the line ends there or has trailing fields */
            if ((*after = match_lit(q, e, next)) != NULL &&
                (*after == e || next[1] != '\0' || **after == ' ' || **after == '\t'))
                return q;
        }
        return NULL;
    }
    /* Bare, before a separator: up to the first one (a list goes on after
     * ", "). Before other text ("]", ":", '"'): up to that text. */
    if (next[0] == ' ' || next[0] == '\t') {
        const char *q = p;
        while (q < e && *q != next[0] && !(next[0] == ' ' && *q == '\t'))
            q++;
        while (it->kind == K_LIST && q < e && q > p && q[-1] == ',' && *q == ' ') {
            q++;
            while (q < e && *q != ' ' && *q != '\t')
                q++;
        }
        return q < e && (*after = match_lit(q, e, next)) != NULL ? q : NULL;
    }
    /* A time ("[10/Oct/2000:13:55:36 -0700]") or a list may hold spaces;
     * other fields end at one. */
    const char *limit = p;
    if (it->kind == K_TIME || it->kind == K_LIST)
        limit = e;
    else
        while (limit < e && *limit != ' ' && *limit != '\t')
            limit++;
    for (const char *q = p; (q = memchr(q, next[0], (size_t)(limit - q))) != NULL; q++)
        if ((*after = match_lit(q, e, next)) != NULL)
            return q;
    return NULL;
}

/* -, or an optional '-' and digits with at most one '.'. */
static int is_number(struct span v)
{
    if (v.n == 1 && v.p[0] == '-')
        return 1;
    size_t i = v.n > 0 && v.p[0] == '-', digits = 0, dots = 0;
    for (; i < v.n; i++) {
        if (v.p[i] >= '0' && v.p[i] <= '9')
            digits++;
        else if (v.p[i] == '.' && dots++ == 0)
            ;
        else
            return 0;
    }
    return digits > 0;
}

int template_field_fits(const struct template_item *it, struct span v)
{
    if (v.n == 0)
        return it->may_be_empty;
    if ((it->hap & HAP_PLUS) && v.n > 1 && v.p[0] == '+') /* HAProxy's option logasap */
        v = span_of(v.p + 1, v.p + v.n);
    switch (it->kind) {
    case K_NUMBER:
        return is_number(v);
    case K_TIME:
        return (v.p[0] >= '0' && v.p[0] <= '9') || (v.n == 1 && v.p[0] == '-');
    default:
        return 1;
    }
}

/* Trailing fields: "quoted", [bracketed], key=value (named by key), bare. */
int template_add_trailing(struct log_record *r, const char *p, const char *e)
{
    while (p < e) {
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p == e)
            break;
        struct log_field *f = &r->f[r->n];
        if (r->n == LOG_RECORD_MAX)
            return 0;
        memset(f, 0, sizeof *f);
        f->kind = K_TEXT;
        const char *q;
        if (*p == '"' && (q = close_quote(p + 1, e)) != NULL) {
            f->v = span_of(p + 1, q);
            f->quote = FQ_QUOTED;
            p = q + 1;
        } else if (*p == '[' && (q = memchr(p, ']', (size_t)(e - p))) != NULL) {
            f->v = span_of(p + 1, q);
            p = q + 1;
        } else {
            q = p;
            while (q < e && *q != ' ' && *q != '\t')
                q++;
            const char *eq = memchr(p, '=', (size_t)(q - p));
            if (eq != NULL && eq > p) {
                f->name = span_of(p, eq);
                f->v = span_of(eq + 1, q);
                if (f->v.n >= 2 && f->v.p[0] == '"' && f->v.p[f->v.n - 1] == '"') {
                    f->v = span_of(f->v.p + 1, f->v.p + f->v.n - 1);
                    f->quote = FQ_QUOTED;
                }
            } else {
                f->v = span_of(p, q);
            }
            p = q;
        }
        r->n++;
    }
    return 1;
}

/* 1 if the field at [p, e) is one the line's end cut (see template_match_cut):
 * quoted and never closed, or (cut anywhere) bare with no separator left. */
static int field_cut(const struct template_item *it, const char *p, const char *e, int cut)
{
    if (it->quote == FQ_QUOTED)
        return cut != TEMPLATE_WHOLE && close_quote(p, e) == NULL;
    if (cut != TEMPLATE_CUT_ANYWHERE)
        return 0;
    for (const char *q = p; q < e; q++)
        if (*q == ' ' || *q == '\t')
            return 0;
    return 1;
}

static int match_items(const struct log_template *t, int i, const char *p, const char *e,
                       struct log_record *r, int cut, int *tries);

/* A quoted field of a template whose fields hold raw quotes (LOG_ESC_NONE:
 * Squid): it ends at the first '"' after which the rest of the template
 * matches (item i + 1 on), so a '"' inside is data. tries bounds the
 * search: a line of many quotes costs at most that many tries. */
static int match_raw_quoted(const struct log_template *t, int i, const char *p, const char *e,
                            struct log_record *r, int cut, int *tries)
{
    const struct template_item *it = &t->item[i];
    const char *next = t->item[i + 1].lit;
    const size_t n0 = r->n, names0 = r->names_len;
    for (const char *q = p; q < e && (q = memchr(q, '"', (size_t)(e - q))) != NULL; q++) {
        const char *after = match_lit(q, e, next);
        if (after == NULL || r->n == LOG_RECORD_MAX)
            continue;
        if (--*tries < 0)
            return 0;
        struct log_field *f = &r->f[r->n++];
        f->name = span_of(it->name, it->name + it->name_n);
        f->v = span_of(p, q);
        f->kind = it->kind;
        f->quote = it->quote;
        f->layers = it->layers;
        if (match_items(t, i + 1, after, e, r, cut, tries))
            return 1;
        r->n = n0;
        r->names_len = names0;
        r->truncated = 0;
    }
    return 0;
}

/* The fields from item i on, from p (past the literal before item i). */
static int match_items(const struct log_template *t, int i, const char *p, const char *e,
                       struct log_record *r, int cut, int *tries)
{
    const char *after;
    for (; i < t->count && t->item[i].name[0] != '\0'; i++) {
        const struct template_item *it = &t->item[i];
        const char *next = i + 1 < t->count ? t->item[i + 1].lit : "";
        if (t->escaping == LOG_ESC_NONE && it->quote == FQ_QUOTED && next[0] == '"' &&
            cut == TEMPLATE_WHOLE)
            return match_raw_quoted(t, i, p, e, r, cut, tries);
        const char *q = field_end(it, next, p, e, &after);
        if (q == NULL && cut != TEMPLATE_WHOLE && i > 0 && e > p && field_cut(it, p, e, cut)) {
            /* The line ends inside this field: what it has, and nothing after. */
            struct span v = span_of(p, e);
            if (it->kind == K_REQUEST)
                v = request_cut_protocol_off(v);
            if (!template_field_fits(it, v) || !record_add(r, it->name, v, it->kind, it->quote))
                return 0;
            r->f[r->n - 1].layers = it->layers;
            r->truncated = 1;
            return 1;
        }
        if (q == NULL)
            return 0;
        struct span v = span_of(p, q);
        if (it->kind == K_LIST && next[0] == '"' && it->quote == FQ_BARE)
            while (v.n > 0 && v.p[v.n - 1] == ' ') /* captures before a quote */
                v.n--;
        if (!template_field_fits(it, v) || r->n == LOG_RECORD_MAX)
            return 0;
        /* A line taken as cut inside a quote: its bare fields hold none (no
         * server writes one there), else the fields are not where they seem. */
        if (cut == TEMPLATE_CUT_QUOTED && it->quote == FQ_BARE && memchr(v.p, '"', v.n) != NULL)
            return 0;
        struct log_field *f = &r->f[r->n++];
        f->name = span_of(it->name, it->name + strlen(it->name));
        f->v = v;
        f->kind = it->kind;
        f->quote = it->quote;
        f->layers = it->layers;
        p = after;
    }
    if (p < e && (t->exact || (*p != ' ' && *p != '\t')))
        return 0;
    return template_add_trailing(r, p, e);
}

static int match_at(const struct log_template *t, const char *p, const char *e,
                    struct log_record *r, int cut)
{
    int tries = 256;
    if ((p = match_lit(p, e, t->item[0].lit)) == NULL)
        return 0;
    return match_items(t, 0, p, e, r, cut, &tries);
}

/* The line from p on, without a syslog prefix; names: the record's names
 * before it (a try that fails leaves none). */
static int match_body(const struct log_template *t, const char *p, const char *e,
                      struct log_record *r, size_t names, int cut)
{
    r->names_len = names;
    return t->haproxy ? haproxy_match(t, p, e, r, cut) : match_at(t, p, e, r, cut);
}

int template_match(const struct log_template *t, const char *s, size_t n, struct log_record *r)
{
    return template_match_cut(t, s, n, r, TEMPLATE_WHOLE);
}

int template_match_cut(const struct log_template *t, const char *s, size_t n, struct log_record *r,
                       int cut)
{
    const char *e = s + n;
    const size_t names = r->names_len;
    int m;
    r->n = 0;
    r->truncated = 0;
    if ((m = match_body(t, s, e, r, names, cut)) != 0)
        return m;
    if (!t->syslog)
        return 0;
    /* RFC 5424: "<134>1 2026-11-27T12:28:20.123Z host app 123 - - " */
    size_t prefix_n, header = syslog_5424_header(s, e, &prefix_n);
    if (header > 0) {
        r->n = 0;
        record_add(r, "syslog", span_of(s, s + prefix_n), K_TEXT, FQ_BARE);
        return match_body(t, s + header, e, r, names, cut);
    }
    /* "<134>" alone (HAProxy's log stdout format short) */
    size_t pri = syslog_pri_length(s, e);
    if (pri > 0) {
        r->n = 0;
        record_add(r, "syslog", span_of(s, s + pri), K_TEXT, FQ_BARE);
        if ((m = match_body(t, s + pri, e, r, names, cut)) != 0)
            return m;
    }
    /* RFC 3164 and the like: "Feb  6 12:14:14 host prog[pid]: " (or
     * "prog: "), "<134>Feb  6 12:14:14 prog[pid]: ", an ISO time first. */
    const char *limit = n > 256 ? s + 256 : e;
    for (const char *c = s; c + 1 < limit; c++) {
        if (c[0] == ':' && c[1] == ' ' && c > s &&
            (c[-1] == ']' || isalpha((unsigned char)c[-1]))) {
            const char *body = c + 2;
            r->n = 0;
            record_add(r, "syslog", span_of(s, c), K_TEXT, FQ_BARE);
            if ((m = match_body(t, body, e, r, names, cut)) != 0)
                return m;
        }
    }
    return 0;
}
