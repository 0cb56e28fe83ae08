/* fmt_haproxy.c - HAProxy log-format strings compiled into templates, and
 * lines matched against them the way HAProxy writes them (src/log.c of
 * HAProxy 2.6): a space is a separator written once; %hr and %hs write
 * nothing, separator included, when no header is captured; "+Q" quotes the
 * text variables only; a '"' in a request or a captured header is written
 * #22, so a quote ends at the first '"' (a backslash is literal); a line
 * longer than the "len" of the log target (1024 bytes by default) is cut
 * wherever it stands. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fmt_haproxy.h"
#include "log_record.h"

enum {
    V_QUOTABLE = 1, /* written inside quotes under +Q (text variables) */
    V_LONG = 2      /* its length is the client's: the line may be cut inside it */
};

struct haproxy_var {
    const char *var;
    const char *name; /* the field's name */
    unsigned char kind;
    unsigned char how; /* V_* */
    unsigned char hap; /* template_haproxy bits */
};

/* The variables of HAProxy 2.6's "Custom log format" table; a few 1.x
 * spellings (%Ci, %cc, %st) too. */
static const struct haproxy_var vars[] = {
    {"B", "bytes", K_NUMBER, 0, HAP_PLUS},
    {"CC", "request_cookie", K_TEXT, V_QUOTABLE | V_LONG, 0},
    {"CS", "response_cookie", K_TEXT, V_QUOTABLE | V_LONG, 0},
    {"H", "hostname", K_TEXT, V_QUOTABLE, 0},
    {"HM", "method", K_TEXT, V_QUOTABLE | V_LONG, 0},
    {"HP", "path", K_PATH, V_QUOTABLE | V_LONG, 0},
    {"HPO", "path", K_PATH, V_QUOTABLE | V_LONG, 0},
    {"HQ", "query", K_QUERY, V_QUOTABLE | V_LONG, HAP_QMARK},
    {"HU", "url", K_URL, V_QUOTABLE | V_LONG, 0},
    {"HV", "protocol", K_TEXT, V_QUOTABLE | V_LONG, 0},
    {"ID", "unique_id", K_TEXT, V_QUOTABLE | V_LONG, 0},
    {"ST", "status", K_NUMBER, 0, 0},
    {"T", "time", K_TIME, 0, 0},
    {"Ta", "time_active", K_NUMBER, 0, HAP_PLUS},
    {"Tc", "time_connect", K_NUMBER, 0, 0},
    {"Td", "time_data", K_NUMBER, 0, 0},
    {"Th", "time_handshake", K_NUMBER, 0, 0},
    {"Ti", "time_idle", K_NUMBER, 0, 0},
    {"Tl", "time", K_TIME, 0, 0},
    {"Tq", "time_request_total", K_NUMBER, 0, 0},
    {"TR", "time_request", K_NUMBER, 0, 0},
    {"Tr", "time_response", K_NUMBER, 0, 0},
    {"Ts", "time", K_TIME, 0, 0},
    {"Tt", "time_total", K_NUMBER, 0, HAP_PLUS},
    {"Tu", "time_user", K_NUMBER, 0, HAP_PLUS},
    {"Tw", "time_queue", K_NUMBER, 0, 0},
    {"U", "bytes_received", K_NUMBER, 0, 0},
    {"ac", "actconn", K_NUMBER, 0, 0},
    {"b", "backend", K_TEXT, V_QUOTABLE, 0},
    {"bc", "beconn", K_NUMBER, 0, 0},
    {"bi", "backend_source_ip", K_TEXT, V_QUOTABLE, HAP_ADDRESS},
    {"bp", "backend_source_port", K_NUMBER, 0, 0},
    {"bq", "backend_queue", K_NUMBER, 0, 0},
    {"ci", "remote", K_TEXT, V_QUOTABLE, HAP_ADDRESS},
    {"cp", "remote_port", K_NUMBER, 0, 0},
    {"f", "frontend", K_TEXT, V_QUOTABLE, 0},
    {"fc", "feconn", K_NUMBER, 0, 0},
    {"fi", "frontend_ip", K_TEXT, V_QUOTABLE, HAP_ADDRESS},
    {"fp", "frontend_port", K_NUMBER, 0, 0},
    {"ft", "frontend", K_TEXT, V_QUOTABLE, 0},
    {"hr", "request_header", K_TEXT, V_QUOTABLE | V_LONG, HAP_OPTIONAL | HAP_BLOCK},
    {"hrl", "captured_header", K_TEXT, V_QUOTABLE | V_LONG, HAP_OPTIONAL | HAP_LIST},
    {"hs", "response_header", K_TEXT, V_QUOTABLE | V_LONG, HAP_OPTIONAL | HAP_BLOCK},
    {"hsl", "captured_header", K_TEXT, V_QUOTABLE | V_LONG, HAP_OPTIONAL | HAP_LIST},
    {"lc", "log_counter", K_NUMBER, 0, 0},
    {"ms", "accept_ms", K_NUMBER, 0, 0},
    {"pid", "pid", K_NUMBER, 0, 0},
    {"r", "request", K_REQUEST, V_QUOTABLE | V_LONG, 0},
    {"rc", "retries", K_NUMBER, 0, HAP_PLUS},
    {"rt", "request_counter", K_NUMBER, 0, 0},
    {"s", "server", K_TEXT, V_QUOTABLE, 0},
    {"sc", "srv_conn", K_NUMBER, 0, 0},
    {"si", "server_ip", K_TEXT, V_QUOTABLE, HAP_ADDRESS},
    {"sp", "server_port", K_NUMBER, 0, 0},
    {"sq", "srv_queue", K_NUMBER, 0, 0},
    {"sslc", "ssl_cipher", K_TEXT, V_QUOTABLE, 0},
    {"sslv", "ssl_version", K_TEXT, V_QUOTABLE, 0},
    {"t", "time", K_TIME, 0, 0},
    {"tr", "time", K_TIME, 0, 0},
    {"trg", "time", K_TIME, 0, 0},
    {"trl", "time", K_TIME, 0, 0},
    {"ts", "termination_state", K_TEXT, 0, 0},
    {"tsc", "termination_state", K_TEXT, 0, 0},
    /* HAProxy 1.x */
    {"Ci", "remote", K_TEXT, V_QUOTABLE, HAP_ADDRESS},
    {"Cp", "remote_port", K_NUMBER, 0, 0},
    {"cc", "request_cookie", K_TEXT, V_QUOTABLE | V_LONG, 0},
    {"cs", "response_cookie", K_TEXT, V_QUOTABLE | V_LONG, 0},
    {"st", "status", K_NUMBER, 0, 0},
};

static const struct haproxy_var *find_var(const char *v, size_t n)
{
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (strlen(vars[i].var) == n && memcmp(vars[i].var, v, n) == 0)
            return &vars[i];
    return NULL;
}

int haproxy_is_format(const char *text)
{
    for (const char *p = strchr(text, '%'); p != NULL; p = strchr(p + 1, '%')) {
        if (p[1] == '%') {
            p++;
            continue;
        }
        if (p[1] == '[' || (p[1] == '{' && (p[2] == '+' || p[2] == '-')))
            return 1;
        size_t n = 0;
        while (isalpha((unsigned char)p[1 + n]))
            n++;
        /* Apache's directives are one letter: two or more that HAProxy
         * knows are HAProxy's */
        if (n >= 2 && find_var(p + 1, n) != NULL)
            return 1;
    }
    return 0;
}

/* "+Q,-E..." between braces: the options a variable is written with. */
static void parse_options(const char *p, const char *end, int *quote, int *escape, int *hex)
{
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma != NULL ? comma : end;
        if (stop - p == 2 && (p[0] == '+' || p[0] == '-')) {
            int on = p[0] == '+';
            if (p[1] == 'Q')
                *quote = on;
            else if (p[1] == 'E')
                *escape = on;
            else if (p[1] == 'X')
                *hex = on;
        }
        p = comma != NULL ? comma + 1 : end;
    }
}

/* %[fetch(args),converter...]: the field is named by the fetch, its
 * punctuation as '_' (%[ssl_fc_sni] is ssl_fc_sni, %[req.hdr(host)]
 * req_hdr). *p: past the '['; moved past the matching ']'. */
static const char *sample_name(const char **p, char *name, size_t size)
{
    const char *s = *p;
    int depth = 1;
    const char *q = s;
    for (; *q != '\0' && depth > 0; q++)
        depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
    if (depth > 0)
        return "'%[' without its ']'";
    *p = q;
    size_t n = 0;
    for (const char *c = s; c < q - 1 && *c != '(' && *c != ',' && n + 1 < size; c++)
        name[n++] = isalnum((unsigned char)*c) ? *c : '_';
    name[n] = '\0';
    return n == 0 ? "'%[' without a sample fetch" : NULL;
}

/* The field of one variable, with the quotes +Q writes around it. */
static const char *add_var(struct log_template *t, const char *name, size_t n, int kind, int quoted,
                           int plain_quote, unsigned char hap, int is_long)
{
    const char *error = NULL;
    int list = (hap & HAP_LIST) != 0; /* quotes around each value, not the list */
    if (quoted && !list && (error = template_add_literal(t, '"')) != NULL)
        return error;
    if ((error = template_add_field(t, name, n, kind)) != NULL)
        return error;
    int i = t->count - 1;
    t->item[i].hap = (unsigned char)(hap | (quoted && plain_quote ? HAP_PLAIN_QUOTE : 0));
    if (is_long && !t->can_cut) {
        t->can_cut = 1;
        t->cut_from = i;
    }
    if (quoted && !list)
        error = template_add_literal(t, '"');
    return error;
}

const char *haproxy_compile(struct log_template *t, const char *p)
{
    const char *error = NULL;
    int quote = 0, escape = 0, hex = 0; /* the defaults %o sets */
    t->haproxy = 1;
    while (*p != '\0' && error == NULL) {
        if (*p == '\\' && p[1] != '\0') { /* "\ ", "\"" as in haproxy.cfg */
            error = template_add_literal(t, p[1]);
            p += 2;
            continue;
        }
        if (*p == ' ') { /* a separator: written once, and not first */
            while (*p == ' ')
                p++;
            if (t->count > 0 || t->item[0].lit[0] != '\0')
                error = template_add_literal(t, ' ');
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
        int q = quote, esc = escape, x = hex;
        if (*p == '{') {
            const char *end = strchr(p, '}');
            if (end == NULL)
                return "'%{' without its '}'";
            parse_options(p + 1, end, &q, &esc, &x);
            p = end + 1;
        }
        if (*p == '[') {
            char name[40];
            p++;
            if ((error = sample_name(&p, name, sizeof name)) == NULL)
                error = add_var(t, name, strlen(name), K_TEXT, q, !esc, 0, 1);
            continue;
        }
        const char *name = p;
        while (isalpha((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - name);
        if (n == 0)
            return "'%' without a variable name";
        if (n == 1 && name[0] == 'o') { /* %{+Q}o: the options of the variables after it */
            quote = q;
            escape = esc;
            hex = x;
            continue;
        }
        const struct haproxy_var *v = find_var(name, n);
        if (v == NULL) { /* a variable of a later HAProxy: text, named as written */
            error = add_var(t, name, n, K_TEXT, q, !esc, 0, 1);
            continue;
        }
        int kind = v->kind == K_NUMBER && x ? K_TEXT : v->kind; /* +X: hexadecimal */
        error = add_var(t, v->name, strlen(v->name), kind, q && (v->how & V_QUOTABLE), !esc, v->hap,
                        (v->how & V_LONG) != 0);
    }
    return error;
}

size_t syslog_pri_length(const char *s, const char *e)
{
    const char *p = s + 1;
    if (s == e || *s != '<')
        return 0;
    while (p < e && p - s <= 3 && *p >= '0' && *p <= '9')
        p++;
    return p > s + 1 && p < e && *p == '>' ? (size_t)(p + 1 - s) : 0;
}

size_t syslog_5424_header(const char *s, const char *e, size_t *prefix_n)
{
    const char *p = s + syslog_pri_length(s, e); /* as received on the wire */
    if (e - p < 2 || p[0] != '1' || p[1] != ' ')
        return 0;
    p += 2;
    /* TIMESTAMP HOSTNAME APP-NAME PROCID MSGID */
    for (int i = 0; i < 5; i++) {
        const char *q = p;
        while (q < e && *q != ' ')
            q++;
        if (q == p || q == e || (i == 0 && *p != '-' && !(*p >= '0' && *p <= '9')))
            return 0;
        p = q + 1;
    }
    /* STRUCTURED-DATA: "-" or [id param="value"]..., where a value may hold
     * \" \\ \] */
    if (p < e && *p == '-') {
        p++;
    } else if (p < e && *p == '[') {
        while (p < e && *p == '[') {
            int in_value = 0;
            for (p++; p < e && (in_value || *p != ']'); p++) {
                if (*p == '\\' && p + 1 < e)
                    p++;
                else if (*p == '"')
                    in_value = !in_value;
            }
            if (p == e)
                return 0;
            p++;
        }
    } else {
        return 0;
    }
    *prefix_n = (size_t)(p - s);
    if (p == e)
        return (size_t)(p - s);
    if (*p != ' ')
        return 0;
    p++;
    if (e - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 message's BOM */
        p += 3;
    /* rsyslog's RSYSLOG_SyslogProtocol23Format keeps the space an RFC 3164
     * sender put after "haproxy[pid]:": "- -  192.0.2.1:..." */
    while (p < e && *p == ' ')
        p++;
    return (size_t)(p - s);
}

/* ------------------------------------------------------------------ lines */

/* "NAME_i" in the record's names (NAME itself when they are full: the
 * writers put a name seen twice in "extra"). */
static struct span numbered(struct log_record *r, const struct template_item *it, int i)
{
    char digits[12];
    size_t d = 0;
    for (unsigned u = (unsigned)i; u > 0 || d == 0; u /= 10)
        digits[d++] = (char)('0' + u % 10);
    size_t n = it->name_n + 1 + d;
    if (sizeof r->names - r->names_len < n)
        return span_of(it->name, it->name + it->name_n);
    char *o = r->names + r->names_len;
    memcpy(o, it->name, it->name_n);
    o[it->name_n] = '_';
    for (size_t k = 0; k < d; k++)
        o[it->name_n + 1 + k] = digits[d - 1 - k];
    r->names_len += n;
    return span_of(o, o + n);
}

static int add_value(struct log_record *r, const struct template_item *it, int i, struct span v,
                     int quote)
{
    if (r->n == LOG_RECORD_MAX)
        return 0;
    struct log_field *f = &r->f[r->n++];
    f->name = numbered(r, it, i);
    f->v = v;
    f->kind = it->kind;
    f->quote = (unsigned char)quote;
    f->layers = 0;
    return 1;
}

/* A capture block "{v1|v2}" at p (its '{'): a field per value. Returns its
 * end, or NULL when the line ends inside it (the values so far added). */
static const char *match_block(const struct template_item *it, const char *p, const char *e,
                               struct log_record *r, int *full)
{
    const char *close = memchr(p, '}', (size_t)(e - p)); /* a '}' of a value is #7D */
    const char *end = close != NULL ? close : e;
    int i = 1;
    for (const char *v = p + 1;; i++) {
        const char *bar = memchr(v, '|', (size_t)(end - v));
        const char *stop = bar != NULL ? bar : end;
        if (!add_value(r, it, i, span_of(v, stop), FQ_BARE)) {
            *full = 1;
            return NULL;
        }
        if (bar == NULL)
            break;
        v = bar + 1;
    }
    return close != NULL ? close + 1 : NULL;
}

/* Captured headers as a list: "v1" "v2" (quoted) or v1 v2. Returns its end,
 * or NULL when the line ends inside a quoted value. last: nothing follows
 * in the format (an unquoted list takes the rest of the line). */
static const char *match_list(const struct template_item *it, const char *p, const char *e,
                              struct log_record *r, int last, int *full)
{
    int quoted = (it->hap & HAP_PLAIN_QUOTE) != 0;
    for (int i = 1; p < e; i++) {
        const char *start = p, *end;
        if (quoted) {
            if (*p != '"')
                break;
            end = memchr(p + 1, '"', (size_t)(e - p - 1));
            start = p + 1;
            if (end == NULL) {
                if (!add_value(r, it, i, span_of(start, e), FQ_QUOTED))
                    *full = 1;
                return NULL;
            }
            p = end + 1;
        } else {
            end = p;
            while (end < e && *end != ' ')
                end++;
            p = end;
        }
        if (!add_value(r, it, i, span_of(start, end), quoted ? FQ_QUOTED : FQ_BARE)) {
            *full = 1;
            return NULL;
        }
        if (!(p + 1 < e && *p == ' ' && (quoted ? p[1] == '"' : last)))
            break;
        p++;
    }
    return p;
}

/* The end of literal lit at p, or NULL: HAProxy writes a separator as one
 * space (two spaces: an empty variable between them). */
static inline const char *literal_at(const char *p, const char *e, struct span lit)
{
    if ((size_t)(e - p) < lit.n)
        return NULL;
    for (size_t i = 0; i < lit.n; i++) /* a few bytes: no call */
        if (p[i] != lit.p[i])
            return NULL;
    return p + lit.n;
}

/* Where a field starting at p ends, next being the text after it; NULL
 * when it does not (*at_end: because the line ended inside it). */
static const char *field_end(const struct template_item *it, struct span next, const char *p,
                             const char *e, int *at_end)
{
    *at_end = 0;
    if (next.n == 0) { /* the last field: to a space or the end */
        const char *q = memchr(p, ' ', (size_t)(e - p));
        return q != NULL ? q : e;
    }
    if (it->quote == FQ_QUOTED && next.p[0] == '"') {
        const char *q = p;
        if (it->hap & HAP_PLAIN_QUOTE) {
            q = memchr(p, '"', (size_t)(e - p));
        } else { /* +E: \" \\ \] */
            for (; q < e && *q != '"'; q++)
                if (*q == '\\' && q + 1 < e)
                    q++;
            if (q >= e)
                q = NULL;
        }
        *at_end = q == NULL;
        return q != NULL && literal_at(q, e, next) != NULL ? q : NULL;
    }
    /* Bare: up to the text after it, within the field's token: a time may
     * hold a space ("[27/Nov/2026:12:28:20 +0000]"), other fields end at
     * one. HAProxy separates with a space only (a tab is text). */
    const char c = next.p[0];
    if ((it->hap & HAP_ADDRESS) && c != ' ') { /* 2001:db8::1:4567: the last ':' */
        const char *limit = memchr(p, ' ', (size_t)(e - p));
        limit = limit != NULL ? limit : e;
        for (const char *q = limit; q > p; q--)
            if (q[-1] == c && literal_at(q - 1, e, next) != NULL)
                return q - 1;
        *at_end = limit == e;
        return NULL;
    }
    const int spaces = it->kind == K_TIME;
    for (const char *q = p; q < e; q++) { /* most fields are a few digits: no call */
        if (*q == c) {
            if (literal_at(q, e, next) != NULL)
                return q;
            if (c == ' ')
                return NULL;
        } else if (*q == ' ' && !spaces) {
            return NULL;
        }
    }
    *at_end = 1;
    return NULL;
}

/* 1 when [p, e) is where the line ends inside literal lit: all of it
 * matches lit's start. */
static int ends_inside(const char *p, const char *e, struct span lit)
{
    size_t n = (size_t)(e - p);
    return n < lit.n && memcmp(p, lit.p, n) == 0;
}

static struct span literal(const struct template_item *it)
{
    return span_of(it->lit, it->lit + it->lit_n);
}

/* lit without the separator at its end: what stays of it when the
 * variable after it writes nothing (%CS"%hrl: the '"' stays). */
static struct span without_separator(struct span lit)
{
    while (lit.n > 0 && lit.p[lit.n - 1] == ' ')
        lit.n--;
    return lit;
}

/* 1 unless the field is an address (%ci...) with a byte no address has:
 * IPv4, IPv6 (a zone after '%'), "unix", '-', or hexadecimal (+X). A line
 * with a prefix this does not know ("<134>192.0.2.1:...") is no line of
 * the format without it. */
static int is_address(const struct template_item *it, struct span v)
{
    if (!(it->hap & HAP_ADDRESS))
        return 1;
    for (size_t i = 0; i < v.n; i++)
        if (!isalnum((unsigned char)v.p[i]) && (v.p[i] == '\0' || strchr(":.%-_", v.p[i]) == NULL))
            return 0;
    return 1;
}

/* The line ends inside the part of the format that may be cut: a record
 * cut (r->truncated) when cuts are looked for, else no match. */
static int cut_here(struct log_record *r, int cut)
{
    if (cut == TEMPLATE_WHOLE)
        return 0;
    r->truncated = 1;
    return 1;
}

int haproxy_match(const struct log_template *t, const char *p, const char *e, struct log_record *r,
                  int cut)
{
    for (int i = 0; i < t->count; i++) {
        const struct template_item *it = &t->item[i];
        const int may_cut = t->can_cut && i >= t->cut_from;
        const int optional = (it->hap & HAP_OPTIONAL) != 0;
        const char *q = literal_at(p, e, literal(it));
        /* an optional variable not written: nor the separator before it */
        const struct span bare = without_separator(literal(it));
        if (q == NULL) {
            if (optional && (q = literal_at(p, e, bare)) != NULL) {
                p = q;
                continue;
            }
            return may_cut && ends_inside(p, e, literal(it)) ? cut_here(r, cut) : 0;
        }
        const char *before = p;
        p = q;
        if (it->name[0] == '\0')
            break; /* the text after the last field */
        struct span next = i + 1 < t->count ? literal(&t->item[i + 1]) : span_of(p, p);
        if (i + 1 < t->count && (t->item[i + 1].hap & HAP_OPTIONAL))
            next = without_separator(next);
        int full = 0;
        if (it->hap & (HAP_BLOCK | HAP_LIST)) {
            int present = it->hap & HAP_BLOCK         ? p < e && *p == '{'
                          : it->hap & HAP_PLAIN_QUOTE ? p < e && *p == '"'
                                                      : p < e && *p != ' ';
            if (!present) {
                if (optional) {
                    p = literal_at(before, e, bare);
                    continue;
                }
                return 0;
            }
            q = it->hap & HAP_BLOCK ? match_block(it, p, e, r, &full)
                                    : match_list(it, p, e, r, next.n == 0, &full);
            if (q == NULL)
                return !full && may_cut ? cut_here(r, cut) : 0;
            p = q;
            continue;
        }
        int at_end;
        q = field_end(it, next, p, e, &at_end);
        if (q == NULL && !(at_end && may_cut))
            return 0;
        struct span v = span_of(p, q != NULL ? q : e);
        if ((it->hap & HAP_QMARK) && v.n > 0 && v.p[0] == '?')
            v = span_of(v.p + 1, v.p + v.n);
        if ((q != NULL || v.n > 0) && !(template_field_fits(it, v) && is_address(it, v)))
            return q == NULL ? cut_here(r, cut) : 0;
        if (v.n > 0 || q != NULL) {
            if (r->n == LOG_RECORD_MAX)
                return 0;
            struct log_field *f = &r->f[r->n++];
            f->name = span_of(it->name, it->name + it->name_n);
            f->v = v;
            f->kind = it->kind;
            f->quote = it->quote;
            f->layers = 0;
        }
        if (q == NULL)
            return cut_here(r, cut); /* cut inside this field */
        p = q;
    }
    if (p < e && *p != ' ' && *p != '\t')
        return 0;
    if (t->exact) {
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        return p == e;
    }
    return template_add_trailing(r, p, e);
}
