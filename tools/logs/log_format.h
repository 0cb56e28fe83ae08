/* log_format.h - parsing access log lines: Apache/nginx combined and common,
 * W3C extended (IIS) with its #Fields: headers, whitespace-separated fields;
 * and format detection. */
#ifndef PCT_TOOLS_LOG_FORMAT_H
#define PCT_TOOLS_LOG_FORMAT_H

#include <stddef.h>

#include "log_marks.h"
#include "log_options.h"
#include "log_util.h"

/* Columns of a W3C #Fields: header that matter; -1 when absent. */
struct w3c_layout {
    int count; /* 0: no header seen yet */
    int date, time, c_ip, method, stem, query, status, bytes, referer, agent;
    int cloudfront;                 /* x-edge-location: AWS CloudFront */
    char names[LOG_MAX_FIELDS][24]; /* the columns, for records */
};

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

/* Splits at spaces and tabs into at most max fields; max + 1 if more. */
int split_fields(const char *s, size_t n, struct span *fields, int max);

static inline int is_fields_line(const char *s, size_t n)
{
    return n >= 8 && memcmp(s, "#Fields:", 8) == 0;
}

void parse_w3c_header(const char *s, size_t n, struct w3c_layout *l);

/* The format of one input, carried from chunk to chunk. */
struct input_format {
    enum format fmt;
    struct w3c_layout layout;
    int detected;
};

/* Called for each chunk of an input, in order: detects the format on the
 * first one, gives the format and (W3C) the layout in effect at the chunk's
 * start, so chunks can be decoded in any order. */
void input_format_chunk(struct input_format *is, const char *p, size_t n, enum format *fmt,
                        struct w3c_layout *layout);

#endif
