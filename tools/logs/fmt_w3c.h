/* fmt_w3c.h - W3C extended logs (IIS, CloudFront's W3C files): the columns
 * a '#Fields:' header names, which may change midway; whitespace-separated
 * fields (also --field N). */
#ifndef PCT_TOOLS_FMT_W3C_H
#define PCT_TOOLS_FMT_W3C_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "log_util.h"

/* A header may name this many columns, their names this many bytes in all
 * (NULs included): far more than any W3C log has (IIS: 21, CloudFront: 33),
 * and a layout stays small enough to copy with every chunk. A header beyond
 * either is reported (see input_format_chunk) and its lines are unparsed. */
#define LOG_W3C_MAX_COLUMNS 250
#define LOG_W3C_NAMES_MAX 8192

/* Columns of a W3C #Fields: header that matter; -1 when absent. */
struct w3c_layout {
    int count;    /* 0: no usable header seen yet */
    int too_wide; /* the last header's columns when it could not be used, else 0 */
    int date, time, c_ip, method, stem, query, status, bytes, referer, agent;
    int cloudfront;                        /* x-edge-location: AWS CloudFront */
    uint16_t name_at[LOG_W3C_MAX_COLUMNS]; /* column i's name: names + name_at[i] */
    char names[LOG_W3C_NAMES_MAX];         /* the columns' names, NUL-terminated */
};

/* The name of column i (0 <= i < l->count) as the header writes it. */
static inline const char *w3c_column_name(const struct w3c_layout *l, int i)
{
    return l->names + l->name_at[i];
}

/* Splits at spaces and tabs into at most max fields; max + 1 if more. */
int split_fields(const char *s, size_t n, struct span *fields, int max);

static inline int is_fields_line(const char *s, size_t n)
{
    return n >= 8 && memcmp(s, "#Fields:", 8) == 0;
}

/* Reads a "#Fields:" line into l. A header of more than LOG_W3C_MAX_COLUMNS
 * columns (or LOG_W3C_NAMES_MAX bytes of names) gives l->count 0 and
 * l->too_wide its column count. */
void parse_w3c_header(const char *s, size_t n, struct w3c_layout *l);

/* A W3C field name (c-ip, cs-uri-stem, x-edge-location...) as a record
 * field: its name and kind (enum field_kind). */
const char *w3c_field_name(const char *w3c, int *kind);

#endif
