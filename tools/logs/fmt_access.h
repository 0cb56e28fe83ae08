/* fmt_access.h - the combined and common formats' fast path: Apache/nginx
 * access log lines parsed without a template, and the request line
 * ("METHOD target HTTP/x") and query parameters every format shares. */
#ifndef PCT_TOOLS_FMT_ACCESS_H
#define PCT_TOOLS_FMT_ACCESS_H

#include <stddef.h>

#include "log_marks.h"
#include "log_util.h"

/* The fields of a combined or common line. */
struct access {
    struct span remote, time, request, status, bytes, referer, agent;
    int has_ra; /* referer and agent present (combined) */
};

/* Parses a combined or common line; 0 if it is neither. exact_agent: find
 * the agent's exact end (JSON) rather than trusting a final '"'. quotes: the
 * chunk's quote marks, or NULL. */
int parse_access(const char *s, size_t n, struct access *a, int exact_agent,
                 struct quote_marks *quotes);

/* Splits "METHOD target HTTP/x" (or "METHOD target"). 0 if it is not one. */
int split_request(struct span r, struct span *method, struct span *target);

/* The next parameter of a query from *p on, as WHATWG urlencoded parsing
 * cuts it: at '&', then at the first '='; empty ones are skipped. Returns 0
 * at the end. */
static inline int query_next_param(const char **p, const char *e, struct span *name,
                                   struct span *value)
{
    while (*p < e) {
        const char *start = *p, *amp = memchr(start, '&', (size_t)(e - start));
        const char *end = amp != NULL ? amp : e;
        *p = amp != NULL ? amp + 1 : e;
        if (end > start) {
            const char *eq = memchr(start, '=', (size_t)(end - start));
            *name = span_of(start, eq != NULL ? eq : end);
            *value = span_of(eq != NULL ? eq + 1 : end, end);
            return 1;
        }
    }
    return 0;
}

#endif
