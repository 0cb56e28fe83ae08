/* fmt_w3c.c - W3C extended logs: '#Fields:' headers and their columns. */
#include <string.h>

#include "fmt_w3c.h"
#include "log_record.h"

_Static_assert(LOG_W3C_MAX_COLUMNS <= LOG_RECORD_MAX, "a W3C line's columns fit a record");
_Static_assert(LOG_W3C_NAMES_MAX <= 65536, "name_at is 16 bits");

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

/* The number of whitespace-separated fields of s. */
static int count_fields(const char *s, size_t n)
{
    int count = 0;
    for (size_t i = 0; i < n; i++)
        count += s[i] != ' ' && s[i] != '\t' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t');
    return count;
}

void parse_w3c_header(const char *s, size_t n, struct w3c_layout *l)
{
    struct span f[LOG_W3C_MAX_COLUMNS + 1];
    int count = split_fields(s + 8, n - 8, f, LOG_W3C_MAX_COLUMNS);
    l->count = 0;
    l->too_wide = 0;
    l->date = l->time = l->c_ip = l->method = l->stem = l->query = -1;
    l->status = l->bytes = l->referer = l->agent = -1;
    l->cloudfront = 0;
    size_t used = 0;
    for (int i = 0; i < count && count <= LOG_W3C_MAX_COLUMNS; i++) {
        if (f[i].n + 1 > sizeof l->names - used) {
            count = LOG_W3C_MAX_COLUMNS + 1; /* names too long: reported as too wide */
            break;
        }
        l->name_at[i] = (uint16_t)used;
        memcpy(l->names + used, f[i].p, f[i].n);
        l->names[used + f[i].n] = '\0';
        used += f[i].n + 1;
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
    if (count > LOG_W3C_MAX_COLUMNS) {
        l->too_wide = count_fields(s + 8, n - 8);
        l->cloudfront = 0;
        return;
    }
    l->count = count;
}

static const struct {
    const char *w3c, *name;
    int kind;
} w3c_names[] = {
    {"date", "date", K_TIME},
    {"time", "time", K_TIME},
    {"c-ip", "remote", K_TEXT},
    {"cs-username", "user", K_TEXT},
    {"cs-method", "method", K_TEXT},
    {"cs-uri-stem", "path", K_PATH},
    {"cs-uri-query", "query", K_QUERY},
    {"sc-status", "status", K_NUMBER},
    {"sc-bytes", "bytes", K_NUMBER},
    {"cs-bytes", "bytes_received", K_NUMBER},
    {"time-taken", "time_taken", K_NUMBER},
    {"cs(Referer)", "referer", K_REFERER},
    {"cs(User-Agent)", "agent", K_TEXT},
    {"cs(Cookie)", "cookie", K_TEXT},
    {"cs(Host)", "host", K_TEXT},
    {"cs-host", "host", K_TEXT},
    {"s-ip", "server_ip", K_TEXT},
    {"s-port", "port", K_NUMBER},
    {"c-port", "remote_port", K_NUMBER},
    {"cs-protocol", "scheme", K_TEXT},
    {"cs-protocol-version", "protocol", K_TEXT},
    {"cs-version", "protocol", K_TEXT},
    {"x-edge-location", "edge_location", K_TEXT},
    {"x-forwarded-for", "forwarded_for", K_LIST},
    {"sc-substatus", "substatus", K_NUMBER},
    {"sc-win32-status", "win32_status", K_NUMBER},
};

const char *w3c_field_name(const char *w3c, int *kind)
{
    for (size_t i = 0; i < sizeof w3c_names / sizeof *w3c_names; i++)
        if (strcmp(w3c_names[i].w3c, w3c) == 0) {
            *kind = w3c_names[i].kind;
            return w3c_names[i].name;
        }
    *kind = K_TEXT;
    return w3c;
}
